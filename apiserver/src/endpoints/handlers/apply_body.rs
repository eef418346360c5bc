//! The body of a server-side apply read as JSON where reading it as YAML would give the
//! same value. Go reads every apply body with its YAML reader (`sigs.k8s.io/yaml`, go-yaml
//! v2), and so does the handler, but most bodies are one line of JSON written by a client
//! library, which a JSON parser reads in a fraction of the YAML reader's work (an apply's
//! largest single cost after the field manager's).
//!
//! The JSON reading is taken only for documents on which the two readers cannot differ:
//!
//! - printable ASCII on one line (no tab, no line break, no `DEL`): no YAML folding of
//!   line breaks or of Unicode separators, no YAML rules on tabs or on keys and colons on
//!   different lines;
//! - no backslash: no escape, so no difference between YAML's and JSON's escapes (YAML has
//!   no surrogate pairs, and escapes of its own);
//! - no run of more than 16 spaces, and no key longer than 1,000 bytes: go-yaml stops
//!   taking a scalar for a key once the colon is more than 1,024 bytes past its start;
//! - an object at the top, every number an integer that fits an `i64` (YAML writes floats
//!   in its own forms, and very large integers as floats), no key given twice (the YAML
//!   reader names every repeat, for the warnings), nesting within `serde_json`'s limit.
//!
//! Anything else is `None`, and the caller reads the body as YAML.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// The longest key taken (go-yaml's limit on a simple key is 1,024 bytes, colon included).
const MAX_KEY_LEN: usize = 1000;

/// The longest run of spaces taken (between a key and its colon, it counts towards the
/// key's 1,024 bytes).
const MAX_SPACES: usize = 16;

/// The value of `body` when it is JSON whose YAML reading is certainly the same value
/// with no duplicate keys (see the module's documentation); `None` otherwise.
pub(super) fn plain_json(body: &[u8]) -> Option<Value> {
    if !plain_text(body) {
        return None;
    }
    let mut de = serde_json::Deserializer::from_slice(body);
    let value = PlainValue.deserialize(&mut de).ok()?;
    de.end().ok()?;
    value.is_object().then_some(value)
}

/// Printable ASCII without backslashes or long runs of spaces.
fn plain_text(body: &[u8]) -> bool {
    let mut spaces = 0;
    for &b in body {
        if b == b' ' {
            spaces += 1;
            if spaces > MAX_SPACES {
                return false;
            }
            continue;
        }
        spaces = 0;
        if !(b'!'..=b'~').contains(&b) || b == b'\\' {
            return false;
        }
    }
    true
}

/// Reads a JSON value, refusing what the YAML reader would read otherwise: floats,
/// integers past `i64`, repeated and overlong keys.
struct PlainValue;

impl<'de> DeserializeSeed<'de> for PlainValue {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for PlainValue {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value YAML reads alike")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        i64::try_from(v)
            .map(Value::from)
            .map_err(|_| E::custom("an integer past i64"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Value, E> {
        Err(E::custom("a float"))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(PlainValue)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if key.len() > MAX_KEY_LEN {
                return Err(de::Error::custom("an overlong key"));
            }
            let value = map.next_value_seed(PlainValue)?;
            if out.insert(key, value).is_some() {
                return Err(de::Error::custom("a repeated key"));
            }
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use apimachinery::serializer::yaml::yaml_to_json;

    /// The YAML reader's value of `body`, when it has no duplicate keys.
    fn as_yaml(body: &str) -> Option<Value> {
        let doc = yaml_to_json(body).ok()?;
        doc.duplicate_keys.is_empty().then_some(doc.value)
    }

    #[test]
    fn plain_json_reads_as_the_yaml_reader_does() {
        for body in [
            r#"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "obj-1"}, "data": {"key": "a1"}}"#,
            r#"{"apiVersion":"apps/v1","kind":"Deployment","spec":{"replicas":3,"paused":false,"x":null,"list":[1,-2,"3",{"a":[]}],"m":{}}}"#,
            r#"{"a": 9223372036854775807, "b": -9223372036854775808, "c": "true", "d": "1.5", "e": "", "": 0}"#,
            r##"{"s": "a # b: c - [d] {e} 'f' & * ! | > % @ `", "t": "--- ..."}"##,
        ] {
            let json = plain_json(body.as_bytes());
            assert!(json.is_some(), "{body}");
            assert_eq!(json, as_yaml(body), "{body}");
        }
    }

    #[test]
    fn anything_the_readers_could_read_apart_is_left_to_the_yaml_reader() {
        for body in [
            // Floats, and integers past i64, which YAML reads as floats.
            r#"{"a": 1.0}"#,
            r#"{"a": 1e3}"#,
            r#"{"a": -0}"#,
            r#"{"a": 9223372036854775808}"#,
            // Escapes, tabs, line breaks, non-ASCII.
            r#"{"a": "\u00e9"}"#,
            "{\"a\":\t1}",
            "{\"a\":\n1}",
            "{\"a\": \"\u{2028}\"}",
            // Repeated keys (the YAML reader names them), a key past go-yaml's limit.
            r#"{"a": 1, "a": 2}"#,
            r#"{"m": {"a": 1, "a": 2}}"#,
            // Not an object at the top, not JSON, trailing data.
            "[1]",
            "a: 1",
            r#"{"a": 1} {}"#,
            "",
        ] {
            assert_eq!(plain_json(body.as_bytes()), None, "{body:?}");
        }
        let long_key = format!(r#"{{"{}": 1}}"#, "k".repeat(MAX_KEY_LEN + 1));
        assert_eq!(plain_json(long_key.as_bytes()), None);
        let spaced = format!(r#"{{"a"{}: 1}}"#, " ".repeat(MAX_SPACES + 1));
        assert_eq!(plain_json(spaced.as_bytes()), None);
    }
}
