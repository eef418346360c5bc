//! A typed value read from a parsed JSON value, naming the field at fault and, on
//! request, every field the type does not know (Go's `FromUnstructured` with its strict
//! field checks).
//!
//! This is the one deserializer, besides the JSON text fast path, that every registered
//! type is compiled for: path tracking and unknown-field recording are built in, where
//! wrapping a deserializer (`serde_path_to_error`, `serde_ignored`, an erased
//! deserializer) would compile every type's visitors once more per wrapper. The scheme's
//! strict decoding, its decoding of already parsed documents and its unstructured-to-typed
//! conversion all come here.

use std::cell::RefCell;
use std::fmt;

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor,
};
use serde_json::{Map, Value};

use crate::raw_json::SERDE_JSON_RAW_TOKEN;

type Error = serde_json::Error;

/// Why a value did not read as its type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", if path.is_empty() { String::new() } else { format!("{path}: ") })]
pub struct FromValueError {
    /// The JSON path of the field at fault (`spec.containers[0].name`); empty for the
    /// value itself.
    pub path: String,
    /// What was wrong, e.g. `invalid type: string "x", expected i32`.
    pub message: String,
}

/// A value of type `T` read from `value`, with the JSON paths of the fields `T` has no
/// place for when `track_unknown` is set (empty otherwise).
pub fn from_value_tracking<T: DeserializeOwned>(
    value: &Value,
    track_unknown: bool,
) -> Result<(T, Vec<String>), FromValueError> {
    let state = RefCell::new(State {
        track_unknown,
        unknown: Vec::new(),
        error_path: None,
    });
    let root = Path {
        segment: Segment::Root,
        parent: None,
    };
    let result = T::deserialize(ValueDeserializer {
        value,
        path: root,
        state: &state,
    });
    let state = state.into_inner();
    match result {
        Ok(v) => Ok((v, state.unknown)),
        Err(e) => Err(FromValueError {
            path: state.error_path.unwrap_or_default(),
            message: e.to_string(),
        }),
    }
}

struct State {
    track_unknown: bool,
    unknown: Vec<String>,
    /// The innermost path an error passed through: where it happened.
    error_path: Option<String>,
}

#[derive(Clone, Copy)]
enum Segment<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// Where a value is, as a chain of parents on the stack: nothing is allocated unless a
/// path is reported.
#[derive(Clone, Copy)]
struct Path<'a> {
    segment: Segment<'a>,
    parent: Option<&'a Path<'a>>,
}

impl fmt::Display for Path<'_> {
    /// `spec.containers[0].name`, as Go's decoder names fields.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(parent) = self.parent {
            parent.fmt(f)?;
        }
        match self.segment {
            Segment::Root => Ok(()),
            Segment::Index(i) => write!(f, "[{i}]"),
            Segment::Key(k) => {
                if matches!(self.parent, Some(p) if !matches!(p.segment, Segment::Root)) {
                    f.write_str(".")?;
                }
                f.write_str(k)
            }
        }
    }
}

impl State {
    fn record_error(&mut self, path: &Path<'_>) {
        if self.error_path.is_none() {
            self.error_path = Some(path.to_string());
        }
    }
}

struct ValueDeserializer<'de, 'p> {
    value: &'de Value,
    path: Path<'p>,
    state: &'p RefCell<State>,
}

impl<'de> ValueDeserializer<'de, '_> {
    /// Reads `value` at `path` with `seed`, recording the path if it fails there.
    fn child<'q, T: DeserializeSeed<'de>>(
        seed: T,
        value: &'de Value,
        path: Path<'q>,
        state: &'q RefCell<State>,
    ) -> Result<T::Value, Error> {
        let result = seed.deserialize(ValueDeserializer { value, path, state });
        if result.is_err() {
            state.borrow_mut().record_error(&path);
        }
        result
    }
}

impl<'de> Deserializer<'de> for ValueDeserializer<'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(_) => self.deserialize_number(visitor),
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(_) => self.deserialize_seq(visitor),
            Value::Object(_) => self.deserialize_map(visitor),
        }
    }

    // The typed entry points below call only the visitor method that fits (or fail with
    // serde's "invalid type" message), so that a struct's visitor is compiled with its
    // `visit_map` alone instead of with every `visit_*` that `deserialize_any` could call.

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Object(map) => {
                visitor.visit_map(MapDeserializer::new(map, &self.path, self.state))
            }
            other => Err(invalid_type(other, &visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let Value::Array(items) = self.value else {
            return Err(invalid_type(self.value, &visitor));
        };
        let mut seq = SeqDeserializer {
            items: items.iter().enumerate(),
            path: &self.path,
            state: self.state,
        };
        let value = visitor.visit_seq(&mut seq)?;
        match seq.items.len() {
            0 => Ok(value),
            _ => Err(de::Error::invalid_length(
                items.len(),
                &"fewer elements in array",
            )),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::String(s) => visitor.visit_borrowed_str(s),
            other => Err(invalid_type(other, &visitor)),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Bool(b) => visitor.visit_bool(*b),
            other => Err(invalid_type(other, &visitor)),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Null => visitor.visit_unit(),
            other => Err(invalid_type(other, &visitor)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let mut state = self.state.borrow_mut();
        if state.track_unknown {
            let path = self.path.to_string();
            state.unknown.push(path);
        }
        drop(state);
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == SERDE_JSON_RAW_TOKEN {
            // What serde_json's own `Value` hands a `RawValue`: the value's text.
            return visitor.visit_map(RawText(Some(self.value.to_string())));
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.value {
            Value::String(s) => visitor.visit_enum(BorrowedStrDeserializer::<Error>::new(s)),
            other => Err(invalid_type(other, &"a string")),
        }
    }

    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf unit_struct tuple tuple_struct
    }
}

impl<'de> ValueDeserializer<'de, '_> {
    fn deserialize_number<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let Value::Number(n) = self.value else {
            return Err(invalid_type(self.value, &visitor));
        };
        if let Some(u) = n.as_u64() {
            visitor.visit_u64(u)
        } else if let Some(i) = n.as_i64() {
            visitor.visit_i64(i)
        } else {
            visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN))
        }
    }
}

fn invalid_type(value: &Value, expected: &dyn de::Expected) -> Error {
    de::Error::invalid_type(unexpected(value), expected)
}

fn unexpected(value: &Value) -> de::Unexpected<'_> {
    match value {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => de::Unexpected::Unsigned(u),
            (None, Some(i), _) => de::Unexpected::Signed(i),
            (None, None, Some(f)) => de::Unexpected::Float(f),
            _ => de::Unexpected::Other("number"),
        },
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

struct SeqDeserializer<'de, 'p> {
    items: std::iter::Enumerate<std::slice::Iter<'de, Value>>,
    path: &'p Path<'p>,
    state: &'p RefCell<State>,
}

impl<'de> SeqAccess<'de> for SeqDeserializer<'de, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some((index, value)) = self.items.next() else {
            return Ok(None);
        };
        let path = Path {
            segment: Segment::Index(index),
            parent: Some(self.path),
        };
        ValueDeserializer::child(seed, value, path, self.state).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct MapDeserializer<'de, 'p> {
    entries: serde_json::map::Iter<'de>,
    pending: Option<(&'de str, &'de Value)>,
    path: &'p Path<'p>,
    state: &'p RefCell<State>,
}

impl<'de, 'p> MapDeserializer<'de, 'p> {
    fn new(map: &'de Map<String, Value>, path: &'p Path<'p>, state: &'p RefCell<State>) -> Self {
        MapDeserializer {
            entries: map.iter(),
            pending: None,
            path,
            state,
        }
    }
}

impl<'de> MapAccess<'de> for MapDeserializer<'de, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.pending = Some((key, value));
        seed.deserialize(BorrowedStrDeserializer::new(key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let Some((key, value)) = self.pending.take() else {
            return Err(de::Error::custom(
                "a map value was asked for before its key",
            ));
        };
        let path = Path {
            segment: Segment::Key(key),
            parent: Some(self.path),
        };
        ValueDeserializer::child(seed, value, path, self.state)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// serde_json's hand-over of a value's text to a `RawValue`: one entry, the token and the
/// text.
struct RawText(Option<String>);

impl<'de> MapAccess<'de> for RawText {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if self.0.is_none() {
            return Ok(None);
        }
        seed.deserialize(BorrowedStrDeserializer::new(SERDE_JSON_RAW_TOKEN))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let text = self.0.take().unwrap_or_default();
        seed.deserialize(serde::de::value::StringDeserializer::<Error>::new(text))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::apis::meta::v1::ObjectMeta;
    use serde_json::json;

    #[derive(Debug, Default, PartialEq, serde::Deserialize)]
    struct Port {
        port: i32,
        #[serde(default)]
        name: Option<String>,
    }
    #[derive(Debug, Default, PartialEq, serde::Deserialize)]
    struct Spec {
        ports: Vec<Port>,
        #[serde(default)]
        meta: ObjectMeta,
    }

    #[test]
    fn reads_nested_values() {
        let v = json!({"ports": [{"port": 1, "name": "a"}, {"port": 2, "name": null}],
                       "meta": {"name": "x", "labels": {"a": "b"}}});
        let (spec, unknown) = from_value_tracking::<Spec>(&v, true).unwrap();
        assert_eq!(
            spec.ports[1],
            Port {
                port: 2,
                name: None
            }
        );
        assert_eq!(spec.meta.name, "x");
        assert!(unknown.is_empty());
    }

    #[test]
    fn errors_name_the_innermost_path() {
        let v = json!({"ports": [{"port": 1}, {"port": "http"}]});
        let err = from_value_tracking::<Spec>(&v, false).unwrap_err();
        assert_eq!(err.path, "ports[1].port");
        assert!(
            err.message.contains("invalid type: string \"http\""),
            "{err}"
        );
        assert_eq!(err.to_string(), format!("ports[1].port: {}", err.message));
        let err = from_value_tracking::<Spec>(&json!("no"), false).unwrap_err();
        assert_eq!(err.path, "");
    }

    #[test]
    fn unknown_fields_are_listed_with_their_paths_when_asked() {
        let v = json!({"ports": [{"port": 1, "extra": {"deep": 1}}], "top": 1,
                       "meta": {"name": "x", "bogus": true}});
        let (_, unknown) = from_value_tracking::<Spec>(&v, true).unwrap();
        assert_eq!(unknown, ["meta.bogus", "ports[0].extra", "top"]);
        let (_, unknown) = from_value_tracking::<Spec>(&v, false).unwrap();
        assert!(unknown.is_empty());
    }

    #[test]
    fn raw_values_get_the_value_text() {
        let v = json!({"a": [1, {"b": "c"}]});
        let (raw, _) = from_value_tracking::<Box<serde_json::value::RawValue>>(&v, true).unwrap();
        assert_eq!(raw.get(), r#"{"a":[1,{"b":"c"}]}"#);
    }
}
