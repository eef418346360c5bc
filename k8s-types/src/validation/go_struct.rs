//! A bad value Go prints from one of its internal types. Go's `field.Error` writes a
//! composite bad value with `json.Marshal`, and the internal types of
//! `k8s.io/kubernetes/pkg/apis/<group>` have no JSON tags: the text has Go's field names
//! (`{"Key":"a","Operator":"In","Values":null}`), every field, and `null` for a nil
//! slice, map or pointer. [`GoStruct`] writes that text field by field, in the internal
//! type's order, for the few rules whose message carries such a value.

use apimachinery::util::json::WriteJson;
use apimachinery::util::validation::field::BadValue;

/// A value's JSON as Go's `json.Marshal` writes it (Go's escapes and number format).
pub(crate) fn json_text<T: WriteJson + ?Sized>(v: &T) -> String {
    match super::json_value(v) {
        BadValue::Json(s) => s,
        _ => String::new(),
    }
}

/// A slice as Go writes it: `null` when nil (ours cannot tell nil from empty: a list
/// Go's JSON left out is both), else each element's text.
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

/// An optional value: `null`, or its text.
pub(crate) fn opt<T>(v: Option<&T>, each: impl Fn(&T) -> String) -> String {
    v.map_or_else(|| "null".to_owned(), each)
}

/// The JSON object of one internal struct, written field by field.
pub(crate) struct GoStruct(String);

impl GoStruct {
    pub(crate) fn new() -> Self {
        GoStruct(String::from("{"))
    }

    /// The next field, its value already written as JSON.
    pub(crate) fn field(mut self, name: &str, json: impl AsRef<str>) -> Self {
        if self.0.len() > 1 {
            self.0.push(',');
        }
        self.0.push('"');
        self.0.push_str(name);
        self.0.push_str("\":");
        self.0.push_str(json.as_ref());
        self
    }

    /// The finished text.
    pub(crate) fn finish(mut self) -> String {
        self.0.push('}');
        self.0
    }

    /// The finished text as a bad value.
    pub(crate) fn bad_value(self) -> BadValue {
        BadValue::Json(self.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_in_order_with_go_escapes() {
        let s = GoStruct::new()
            .field("Key", json_text("a<b"))
            .field("Values", list::<String>(&[], json_text))
            .field("N", opt(Some(&3i64), |n| n.to_string()))
            .finish();
        assert_eq!(s, r#"{"Key":"a\u003cb","Values":null,"N":3}"#);
    }
}
