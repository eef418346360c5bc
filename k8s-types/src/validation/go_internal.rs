//! Bad values that are Go's internal structs: Go validates an object in its internal
//! version, whose types carry no JSON tags, so where a field error's value is such a
//! struct (`field.Invalid(path, spec.UpdateStrategy, ...)`) Go's `json.Marshal` writes it
//! with Go's field names, in struct order, every field present (`{"Type":"x",
//! "RollingUpdate":null}`). [`GoStruct`] writes that text from the external type's values.

use apimachinery::util::json::{JsonLayout, WriteJson, encode_write_json};
use apimachinery::util::validation::field::BadValue;

/// The JSON text Go's encoder writes for `value`.
pub(crate) fn json_text<T: WriteJson + ?Sized>(value: &T) -> String {
    // `&T` is sized whatever `T` is: the work is `dyn_json_text`'s, once for every type.
    dyn_json_text(&value)
}

/// [`json_text`]'s body, compiled once (error texts are cold: one indirect call is
/// nothing against a copy per type).
#[inline(never)]
fn dyn_json_text(value: &dyn WriteJson) -> String {
    let mut out = Vec::new();
    match encode_write_json(value, &mut out, JsonLayout::Compact) {
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
    pub(crate) fn raw(self, name: &str, json: impl AsRef<str>) -> Self {
        self.raw_str(name, json.as_ref())
    }

    /// [`raw`](Self::raw) for a `&str`: one copy whatever the text's type.
    fn raw_str(mut self, name: &str, json: &str) -> Self {
        if self.0.len() > 1 {
            self.0.push(',');
        }
        self.0.push('"');
        self.0.push_str(name);
        self.0.push_str("\":");
        self.0.push_str(json);
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
    // Per element type and closure only the element's text by index; the loop is
    // `list_by_index`'s.
    list_by_index(&Texts { items, each })
}

/// The elements of a list and how each one is written, for [`list_by_index`]: two
/// methods in the vtable of each list's type (a closure's would hold its call shims).
trait ElementTexts {
    /// How many elements.
    fn count(&self) -> usize;
    /// The text of element `index` (empty past the end).
    fn text(&self, index: usize) -> String;
}

/// [`list`]'s elements and its closure.
struct Texts<'a, T, F> {
    items: &'a [T],
    each: F,
}

impl<T, F: Fn(&T) -> String> ElementTexts for Texts<'_, T, F> {
    fn count(&self) -> usize {
        self.items.len()
    }

    fn text(&self, index: usize) -> String {
        self.items.get(index).map(&self.each).unwrap_or_default()
    }
}

/// [`list`]'s loop, compiled once.
#[inline(never)]
fn list_by_index(elements: &dyn ElementTexts) -> String {
    let len = elements.count();
    if len == 0 {
        return null();
    }
    let mut out = String::from("[");
    for i in 0..len {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&elements.text(i));
    }
    out.push(']');
    out
}

/// Go's nil: `null`.
fn null() -> String {
    "null".to_owned()
}

/// A slice ours keeps apart from nil (an `Option<Vec>`, for a field Go always writes):
/// `null` for `None`, `[]` for an empty one, else each element's text.
#[cfg_attr(not(feature = "core"), allow(dead_code))]
pub(crate) fn kept_list<T>(items: Option<&[T]>, each: impl Fn(&T) -> String) -> String {
    match items {
        Some([]) => "[]".to_owned(),
        Some(items) => list(items, each),
        None => null(),
    }
}

/// An optional internal struct: its JSON, or `null` for Go's nil pointer.
#[cfg_attr(
    not(any(feature = "apps", feature = "core", feature = "resource")),
    allow(dead_code)
)]
pub(crate) fn or_null<T>(value: Option<&T>, write: impl FnOnce(&T) -> String) -> String {
    match value {
        Some(value) => write(value),
        None => null(),
    }
}
