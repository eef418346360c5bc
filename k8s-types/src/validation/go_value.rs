//! Bad values that Go prints from its internal types. A struct of
//! `k8s.io/kubernetes/pkg/apis/<group>` has no `json` tags, so `json.Marshal` (which
//! `field.Error` uses for a composite value) writes its Go field names (`APIGroup`,
//! `Kind`), in declaration order; the validators that print such a struct describe it
//! with a small `Serialize` type of the same shape.

use apimachinery::util::json::GoJsonWriter;
use apimachinery::util::validation::field::BadValue;

/// `value` as Go's `json.Marshal` writes it (Go's escapes and number format).
pub(crate) fn go_json<T: serde::Serialize + ?Sized>(value: &T) -> BadValue {
    // Per type only the call of `serialize`; the buffer, the writer and the text are
    // `go_json_by`'s, once for every type (bad values are cold). `&T` is sized whatever
    // `T` is.
    go_json_by(&value)
}

/// A value [`go_json_by`] writes: serde's `Serialize` behind one method, so that a
/// type's vtable holds that method alone (a closure's would hold its call shims too).
trait SerializeGo {
    /// Writes the value with `writer`.
    fn serialize_go(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), serde_json::Error>;
}

impl<T: serde::Serialize + ?Sized> SerializeGo for &T {
    fn serialize_go(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), serde_json::Error> {
        (**self).serialize(writer)
    }
}

/// [`go_json`]'s body: the value written with a compact [`GoJsonWriter`] (as
/// `apimachinery::util::json::encode_go_json` does), the text is the bad value.
#[inline(never)]
fn go_json_by(value: &dyn SerializeGo) -> BadValue {
    let mut out = Vec::new();
    match value.serialize_go(&mut GoJsonWriter::compact(&mut out)) {
        Ok(()) => BadValue::Json(String::from_utf8(out).unwrap_or_default()),
        Err(_) => BadValue::Json(String::new()),
    }
}

/// A list as Go prints it: `null` when empty, since a list read from JSON without
/// the field (every empty list is written without it) is Go's nil slice. (A list sent
/// as an explicit `[]` is an empty, non-nil slice Go prints as `[]`; the types here
/// read both alike.)
pub(crate) fn go_list<T: serde::Serialize>(items: &[T]) -> BadValue {
    if items.is_empty() {
        BadValue::Json("null".into())
    } else {
        go_json(items)
    }
}
