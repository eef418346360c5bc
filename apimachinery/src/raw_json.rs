//! Embedded JSON written as Go's `encoding/json` writes a `MarshalJSON` result: checked,
//! compacted and HTML-escaped.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::util::json::embedded::{RawJsonError, check, compact_checked, error};

/// The name under which serde_json hands out a value's raw text (what its `RawValue`
/// asks for). Should serde_json rename it, reading falls back to the re-encoded value
/// below, and the verbatim tests fail.
pub(crate) const SERDE_JSON_RAW_TOKEN: &str = "$serde_json::private::RawValue";

/// Reads one value as JSON text: verbatim from serde_json (from text, or from a
/// `serde_json::Value`), and from any other self-describing format as the compact JSON of
/// the value read (maps with sorted keys, as Go's YAML-to-JSON conversion writes them).
pub(crate) fn deserialize_raw<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<String, D::Error> {
    deserializer.deserialize_newtype_struct(SERDE_JSON_RAW_TOKEN, RawVisitor)
}

/// For a visitor's `visit_map`: when the map is serde_json's hand-over of a value's raw
/// text, calls `read` with that text (borrowed when the input allows) and returns its
/// answer; `None` when the map is an ordinary one.
pub(crate) fn raw_text_from_map<'de, A, T>(
    map: &mut A,
    read: impl FnOnce(&str) -> Result<T, String>,
) -> Result<Option<T>, A::Error>
where
    A: MapAccess<'de>,
{
    if map.next_key_seed(IsRawToken)? != Some(true) {
        return Ok(None);
    }
    map.next_value_seed(WithStr(read)).map(Some)
}

/// Answers whether a key is serde_json's raw-value token, without allocating.
struct IsRawToken;

impl<'de> de::DeserializeSeed<'de> for IsRawToken {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for IsRawToken {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<bool, E> {
        Ok(v == SERDE_JSON_RAW_TOKEN)
    }
}

/// Hands a string value to a closure, borrowed when the input allows.
struct WithStr<F>(F);

impl<'de, T, F: FnOnce(&str) -> Result<T, String>> de::DeserializeSeed<'de> for WithStr<F> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_str(self)
    }
}

impl<T, F: FnOnce(&str) -> Result<T, String>> Visitor<'_> for WithStr<F> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("raw JSON text")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        (self.0)(v).map_err(E::custom)
    }
}

struct RawVisitor;

impl RawVisitor {
    fn encode<E: de::Error>(value: Value) -> Result<String, E> {
        serde_json::to_string(&value).map_err(E::custom)
    }
}

impl<'de> Visitor<'de> for RawVisitor {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        Self::encode(Value::deserialize(d)?)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<String, A::Error> {
        let Some(first) = map.next_key::<String>()? else {
            return Ok("{}".to_owned());
        };
        if first == SERDE_JSON_RAW_TOKEN {
            return map.next_value::<String>();
        }
        let mut object = serde_json::Map::new();
        object.insert(first, map.next_value()?);
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            object.insert(key, value);
        }
        Self::encode(Value::Object(object))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<String, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Value>()? {
            items.push(item);
        }
        Self::encode(Value::Array(items))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<String, E> {
        Self::encode(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
        Self::encode(Value::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
        Self::encode(Value::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<String, E> {
        Self::encode(Value::from(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Self::encode(Value::from(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<String, E> {
        Ok("null".to_owned())
    }

    fn visit_none<E: de::Error>(self) -> Result<String, E> {
        Ok("null".to_owned())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_any(self)
    }
}

/// Serializes `raw` as embedded JSON, the way Go's encoder treats the bytes a
/// `MarshalJSON` method returns: it refuses invalid JSON, removes insignificant
/// whitespace, and escapes `<`, `>`, `&`, U+2028 and U+2029 inside strings. Through
/// serde_json the result goes out verbatim (a `RawValue`); a pretty formatter receives it
/// in `write_raw_fragment` and must indent it, as Go's `MarshalIndent` does.
pub(crate) fn serialize_raw<S: serde::Serializer>(
    owner: &'static str,
    raw: &[u8],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let compact = compact(owner, raw).map_err(serde::ser::Error::custom)?;
    let value = RawValue::from_string(compact).map_err(serde::ser::Error::custom)?;
    value.serialize(serializer)
}

/// Go's `json.Compact` with HTML escaping, after checking that `raw` is one JSON value.
pub(crate) fn compact(owner: &'static str, raw: &[u8]) -> Result<String, RawJsonError> {
    check(owner, raw)?;
    let mut out = Vec::with_capacity(raw.len());
    compact_checked(&mut out, raw);
    // UTF-8 in, whole ASCII characters added or removed: UTF-8 out.
    String::from_utf8(out).map_err(|e| error(owner, raw, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compacts_and_escapes_like_go() {
        let raw = "{ \"a\" : [1, 2.50, \"x y\"],\n \"b\":\"<&>\u{2028}\\\" \" }".as_bytes();
        assert_eq!(
            compact("t", raw).unwrap(),
            r#"{"a":[1,2.50,"x y"],"b":"\u003c\u0026\u003e\u2028\" "}"#
        );
    }

    /// The char-by-char compaction `compact_checked` replaced, as the reference.
    fn compact_by_chars(text: &str) -> String {
        let mut out = String::new();
        let (mut in_string, mut escaped) = (false, false);
        for c in text.chars() {
            match (in_string, c) {
                (true, _) if escaped => {
                    escaped = false;
                    out.push(c);
                }
                (true, '\\') => {
                    escaped = true;
                    out.push(c);
                }
                (true, '<') => out.push_str("\\u003c"),
                (true, '>') => out.push_str("\\u003e"),
                (true, '&') => out.push_str("\\u0026"),
                (true, '\u{2028}') => out.push_str("\\u2028"),
                (true, '\u{2029}') => out.push_str("\\u2029"),
                (false, ' ' | '\t' | '\n' | '\r') => {}
                (_, '"') => {
                    in_string = !in_string;
                    out.push(c);
                }
                _ => out.push(c),
            }
        }
        out
    }

    #[test]
    fn byte_compaction_matches_the_char_compaction() {
        for text in [
            "{}",
            " { } ",
            "\"\"",
            "\"\\\\\"",
            "[\"\\\"<\", \"\\u003c>\" ,\"&\"]",
            "{\"f:metadata\": {\"f:labels\": {\".\": {}, \"f:app\": {}}}}",
            "\"\u{2028}\u{2029}\u{2027}\u{202A}…–\"",
            "\"\u{2028}\"",
            "\"é\u{e2}x y\"",
            "[1,\n\r\t 2.5e3 , null, true ]",
            "\"tail\u{2029}\"",
        ] {
            let want = compact_by_chars(text);
            assert_eq!(
                compact("t", text.as_bytes()).ok(),
                Some(want.clone()),
                "{text:?}"
            );
            let mut out = b"prefix".to_vec();
            compact_checked(&mut out, text.as_bytes());
            assert_eq!(out, [&b"prefix"[..], want.as_bytes()].concat(), "{text:?}");
        }
    }

    #[test]
    fn refuses_invalid_json() {
        for bad in [&b"1 2"[..], b"{", b"", b"\xff", b"{'a':1}"] {
            let e = compact("runtime.RawExtension", bad).unwrap_err();
            assert!(
                e.to_string().starts_with("runtime.RawExtension: raw bytes"),
                "{e}"
            );
        }
    }
}
