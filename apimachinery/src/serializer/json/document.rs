//! [`JsonDocument`]: a JSON text read into a `serde_json::Value`, with the keys it gave
//! twice.
//!
//! Decoding goes through a `Value` so that a key given twice keeps its last value for
//! every type, as Go's decoder does (serde's own derive would reject the duplicate), and
//! so that strict mode can name each duplicate with its path.

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::serializer::{DecodeError, DecodeErrorKind, Format, Position};

/// A JSON document: its value and, when read with [`parse_tracking_duplicates`], the JSON
/// paths of the keys it gave more than once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JsonDocument {
    /// The document; for a key given twice, the last value.
    pub value: Value,
    /// Each key given again in the same object, as a JSON path (`metadata.labels.a`), in
    /// document order.
    pub duplicate_keys: Vec<String>,
    /// The ordinal of each key path's first occurrence, and of each duplicate in
    /// `duplicate_keys`, so that problems found later can be listed in document order.
    key_order: HashMap<String, usize>,
    duplicate_order: Vec<usize>,
}

impl JsonDocument {
    /// The position of a key in document order (0 for the first key of the document),
    /// by its JSON path; for a duplicated key, its first occurrence.
    pub fn key_ordinal(&self, path: &str) -> Option<usize> {
        self.key_order.get(path).copied()
    }

    /// The duplicate keys with their ordinals in document order.
    pub fn duplicates_with_ordinals(&self) -> impl Iterator<Item = (&str, usize)> {
        self.duplicate_keys
            .iter()
            .map(String::as_str)
            .zip(self.duplicate_order.iter().copied())
    }
}

/// Reads one JSON value; a key given twice keeps its last value.
pub fn parse(data: &[u8]) -> Result<Value, DecodeError> {
    serde_json::from_slice(data).map_err(|e| syntax_error(&e))
}

/// Reads one JSON value, recording every key given twice in one object.
pub fn parse_tracking_duplicates(data: &[u8]) -> Result<JsonDocument, DecodeError> {
    let mut de = serde_json::Deserializer::from_slice(data);
    let mut tracker = Tracker::default();
    let value = ValueSeed {
        tracker: &mut tracker,
    }
    .deserialize(&mut de)
    .and_then(|v| de.end().map(|()| v))
    .map_err(|e| syntax_error(&e))?;
    Ok(JsonDocument {
        value,
        duplicate_keys: tracker.duplicates,
        key_order: tracker.order,
        duplicate_order: tracker.duplicate_order,
    })
}

pub(crate) fn syntax_error(e: &serde_json::Error) -> DecodeError {
    DecodeErrorKind::Syntax {
        format: Format::Json,
        position: Some(Position {
            line: e.line(),
            column: e.column(),
        }),
        message: strip_position(&e.to_string()),
    }
    .into()
}

/// serde_json appends " at line L column C" to its messages; the position is kept apart.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}

/// The JSON path of the value being read, and what was recorded so far.
#[derive(Default)]
struct Tracker {
    path: String,
    ordinal: usize,
    order: HashMap<String, usize>,
    duplicates: Vec<String>,
    duplicate_order: Vec<usize>,
}

/// Builds a `Value`, recording key paths in the tracker.
struct ValueSeed<'a> {
    tracker: &'a mut Tracker,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        let base = self.tracker.path.len();
        loop {
            use std::fmt::Write as _;
            let _ = write!(self.tracker.path, "[{}]", items.len());
            let next = seq.next_element_seed(ValueSeed {
                tracker: self.tracker,
            })?;
            self.tracker.path.truncate(base);
            match next {
                Some(v) => items.push(v),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        let mut seen: HashSet<String> = HashSet::new();
        let t = &mut *self.tracker;
        let base = t.path.len();
        while let Some(key) = map.next_key::<String>()? {
            if !t.path.is_empty() {
                t.path.push('.');
            }
            t.path.push_str(&key);
            let ordinal = t.ordinal;
            t.ordinal += 1;
            if seen.insert(key.clone()) {
                t.order.entry(t.path.clone()).or_insert(ordinal);
            } else {
                t.duplicates.push(t.path.clone());
                t.duplicate_order.push(ordinal);
            }
            let value = map.next_value_seed(ValueSeed { tracker: &mut *t })?;
            t.path.truncate(base);
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_are_named_by_path_and_the_last_value_wins() {
        let doc = parse_tracking_duplicates(
            br#"{"a":1,"b":{"c":[{"d":1,"d":2}],"e":0},"a":3,"b":{"f":{"g":1,"g":2}}}"#,
        )
        .unwrap();
        assert_eq!(doc.duplicate_keys, ["b.c[0].d", "a", "b", "b.f.g"]);
        assert_eq!(doc.key_ordinal("a"), Some(0));
        assert_eq!(doc.key_ordinal("b.c[0].d"), Some(3));
        assert_eq!(doc.duplicates_with_ordinals().nth(1), Some(("a", 6)));
        assert_eq!(doc.value, serde_json::json!({"a":3,"b":{"f":{"g":2}}}));
        assert_eq!(
            parse(br#"{"a":1,"a":2}"#).unwrap(),
            serde_json::json!({"a":2})
        );
    }

    #[test]
    fn malformed_json_is_a_syntax_error_with_its_position() {
        for input in [
            &b"{\n  \"a\": tru }"[..],
            b"{\"a\":1,}",
            b"",
            b"[1e999]",
            b"{} x",
        ] {
            let err = parse_tracking_duplicates(input).unwrap_err();
            let err2 = parse(input).unwrap_err();
            assert!(
                matches!(err.kind(), DecodeErrorKind::Syntax { .. }),
                "{err}"
            );
            assert_eq!(err.position(), err2.position());
        }
        let err = parse(b"{\n  \"a\": tru }").unwrap_err();
        assert_eq!(
            err.position(),
            Some(Position {
                line: 2,
                column: 11
            })
        );
        assert_eq!(
            err.to_string(),
            "malformed JSON at line 2, column 11: expected ident"
        );
    }
}
