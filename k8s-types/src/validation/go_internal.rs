//! Bad values that are Go's internal structs: Go validates an object in its internal
//! version, whose types carry no JSON tags, so where a field error's value is such a
//! struct (`field.Invalid(path, spec.UpdateStrategy, ...)`) Go's `json.Marshal` writes it
//! with Go's field names, in struct order, every field present (`{"Type":"x",
//! "RollingUpdate":null}`). [`GoStruct`] writes that text from the external type's values.

use apimachinery::util::json::{JsonLayout, WriteJson, encode_write_json};
use apimachinery::util::validation::field::BadValue;

/// The JSON text Go's encoder writes for `value`.
pub(crate) fn json_text<T: WriteJson + ?Sized>(value: &T) -> String {
    let mut out = Vec::new();
    match encode_write_json(&value, &mut out, JsonLayout::Compact) {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// An internal struct's JSON, field by field in Go's struct order.
#[derive(Debug)]
pub(crate) struct GoStruct(String);

impl GoStruct {
    pub(crate) fn new() -> Self {
        GoStruct(String::from("{"))
    }

    /// A field whose value writes as the external type's JSON does (strings, numbers,
    /// `IntOrString`, metav1 types, which keep their JSON tags internally too; `None` is
    /// Go's nil pointer, `null`).
    #[cfg_attr(
        not(any(
            feature = "apps",
            feature = "batch",
            feature = "core",
            feature = "policy"
        )),
        allow(dead_code)
    )]
    pub(crate) fn field<T: WriteJson + ?Sized>(self, name: &str, value: &T) -> Self {
        let text = json_text(value);
        self.raw(name, &text)
    }

    /// A field whose JSON text is given (a nested internal struct, a [`list`]).
    pub(crate) fn raw(mut self, name: &str, json: impl AsRef<str>) -> Self {
        if self.0.len() > 1 {
            self.0.push(',');
        }
        self.0.push('"');
        self.0.push_str(name);
        self.0.push_str("\":");
        self.0.push_str(json.as_ref());
        self
    }

    /// The struct's JSON text.
    pub(crate) fn text(mut self) -> String {
        self.0.push('}');
        self.0
    }

    /// The struct as a field error's bad value.
    #[cfg_attr(
        not(any(feature = "apps", feature = "policy", feature = "resource")),
        allow(dead_code)
    )]
    pub(crate) fn value(self) -> BadValue {
        BadValue::Json(self.text())
    }
}

/// A slice as Go writes it: `null` when nil (ours cannot tell nil from empty: a list
/// Go's JSON left out is both), else each element's text.
#[cfg_attr(not(any(feature = "core", feature = "resource")), allow(dead_code))]
pub(crate) fn list<T>(items: &[T], each: impl Fn(&T) -> String) -> String {
    if items.is_empty() {
        return "null".to_owned();
    }
    let mut out = String::from("[");
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&each(item));
    }
    out.push(']');
    out
}

/// A slice ours keeps apart from nil (an `Option<Vec>`, for a field Go always writes):
/// `null` for `None`, `[]` for an empty one, else each element's text.
#[cfg_attr(not(feature = "core"), allow(dead_code))]
pub(crate) fn kept_list<T>(items: Option<&[T]>, each: impl Fn(&T) -> String) -> String {
    match items {
        Some([]) => "[]".to_owned(),
        Some(items) => list(items, each),
        None => "null".to_owned(),
    }
}

/// An optional internal struct: its JSON, or `null` for Go's nil pointer.
#[cfg_attr(
    not(any(feature = "apps", feature = "core", feature = "resource")),
    allow(dead_code)
)]
pub(crate) fn or_null<T>(value: Option<&T>, write: impl FnOnce(&T) -> String) -> String {
    value.map_or_else(|| "null".to_owned(), write)
}
