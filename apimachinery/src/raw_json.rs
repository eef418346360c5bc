//! Embedded JSON written as Go's `encoding/json` writes a `MarshalJSON` result: checked,
//! compacted and HTML-escaped.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

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

/// Why embedded bytes cannot be written as JSON.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{owner}: raw bytes are not valid JSON ({reason}): {preview:?}")]
pub(crate) struct RawJsonError {
    owner: &'static str,
    reason: String,
    preview: String,
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
    let mut fast = Vec::with_capacity(raw.len());
    if compact_into(raw, &mut fast) {
        // `compact_into` only accepts ASCII.
        if let Ok(text) = String::from_utf8(fast) {
            return Ok(text);
        }
    }
    compact_checked(owner, raw)
}

/// [`compact`]'s general path: any text, checked by serde_json first (whose words an
/// error carries), then compacted character by character.
fn compact_checked(owner: &'static str, raw: &[u8]) -> Result<String, RawJsonError> {
    let text = std::str::from_utf8(raw).map_err(|e| error(owner, raw, e.to_string()))?;
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .map_err(|e| error(owner, raw, e.to_string()))?;
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            match c {
                _ if escaped => {
                    escaped = false;
                    out.push(c);
                }
                '\\' => {
                    escaped = true;
                    out.push(c);
                }
                '"' => {
                    in_string = false;
                    out.push(c);
                }
                '<' => out.push_str("\\u003c"),
                '>' => out.push_str("\\u003e"),
                '&' => out.push_str("\\u0026"),
                '\u{2028}' => out.push_str("\\u2028"),
                '\u{2029}' => out.push_str("\\u2029"),
                _ => out.push(c),
            }
        } else {
            match c {
                ' ' | '\t' | '\n' | '\r' => {}
                '"' => {
                    in_string = true;
                    out.push(c);
                }
                _ => out.push(c),
            }
        }
    }
    Ok(out)
}

/// The quick path of [`compact`]: appends Go's compact, HTML-escaped form of `raw` to
/// `out` in one pass that also checks it, and answers true. Only for ASCII text nested at
/// most [`QUICK_MAX_DEPTH`] deep (what a `FieldsV1` set almost always is); for anything
/// else, valid or not, it leaves `out` as it was and answers false, and the caller takes
/// the general path (which also words the errors).
pub(crate) fn compact_into(raw: &[u8], out: &mut Vec<u8>) -> bool {
    let start = out.len();
    let mut c = Compactor { raw, at: 0, out };
    let done = c.value(0).is_some() && {
        c.skip_space();
        c.at == raw.len()
    };
    if !done {
        out.truncate(start);
    }
    done
}

/// How deep [`compact_into`] follows arrays and objects (it recurses).
const QUICK_MAX_DEPTH: usize = 64;

/// The state of [`compact_into`]: `None` from a method means "not for the quick path".
struct Compactor<'a, 'o> {
    raw: &'a [u8],
    at: usize,
    out: &'o mut Vec<u8>,
}

impl Compactor<'_, '_> {
    fn peek(&self) -> Option<u8> {
        self.raw.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// The next byte after insignificant whitespace, consumed.
    fn next_token(&mut self) -> Option<u8> {
        self.skip_space();
        let b = self.peek()?;
        self.at += 1;
        Some(b)
    }

    fn value(&mut self, depth: usize) -> Option<()> {
        match self.next_token()? {
            b'{' => self.object(depth + 1),
            b'[' => self.array(depth + 1),
            b'"' => self.string(),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn object(&mut self, depth: usize) -> Option<()> {
        if depth > QUICK_MAX_DEPTH {
            return None;
        }
        self.out.push(b'{');
        let mut b = self.next_token()?;
        if b == b'}' {
            self.out.push(b'}');
            return Some(());
        }
        loop {
            if b != b'"' {
                return None;
            }
            self.string()?;
            if self.next_token()? != b':' {
                return None;
            }
            self.out.push(b':');
            self.value(depth)?;
            match self.next_token()? {
                b',' => self.out.push(b','),
                b'}' => {
                    self.out.push(b'}');
                    return Some(());
                }
                _ => return None,
            }
            b = self.next_token()?;
        }
    }

    fn array(&mut self, depth: usize) -> Option<()> {
        if depth > QUICK_MAX_DEPTH {
            return None;
        }
        self.out.push(b'[');
        self.skip_space();
        if self.peek()? == b']' {
            self.at += 1;
            self.out.push(b']');
            return Some(());
        }
        loop {
            self.value(depth)?;
            match self.next_token()? {
                b',' => self.out.push(b','),
                b']' => {
                    self.out.push(b']');
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// A string, its opening quote consumed: copied with `<`, `>` and `&` escaped.
    fn string(&mut self) -> Option<()> {
        self.out.push(b'"');
        loop {
            // The plain run up to the next byte that needs a look.
            let rest = self.raw.get(self.at..)?;
            let run = rest.iter().position(|&b| {
                matches!(b, b'"' | b'\\' | b'<' | b'>' | b'&') || !(0x20..0x80).contains(&b)
            })?;
            self.out.extend_from_slice(&rest[..run]);
            self.at += run;
            let b = self.peek()?;
            self.at += 1;
            match b {
                b'"' => {
                    self.out.push(b'"');
                    return Some(());
                }
                b'<' => self.out.extend_from_slice(b"\\u003c"),
                b'>' => self.out.extend_from_slice(b"\\u003e"),
                b'&' => self.out.extend_from_slice(b"\\u0026"),
                b'\\' => {
                    let e = self.peek()?;
                    self.at += 1;
                    self.out.push(b'\\');
                    self.out.push(e);
                    match e {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                        b'u' => {
                            let hex = self.raw.get(self.at..self.at + 4)?;
                            if !hex.iter().all(u8::is_ascii_hexdigit) {
                                return None;
                            }
                            self.out.extend_from_slice(hex);
                            self.at += 4;
                        }
                        _ => return None,
                    }
                }
                // Control characters (invalid) and non-ASCII (left to the general path).
                _ => return None,
            }
        }
    }

    /// `true`, `false` or `null`, its first byte consumed.
    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let rest = self.raw.get(self.at..self.at + word.len() - 1)?;
        if rest != &word[1..] {
            return None;
        }
        self.at += word.len() - 1;
        self.out.extend_from_slice(word);
        Some(())
    }

    /// A number in JSON's grammar, its first byte consumed. Only short ones without an
    /// exponent: the general path's check refuses numbers out of `f64`'s range, and
    /// these cannot be.
    fn number(&mut self) -> Option<()> {
        let start = self.at - 1;
        let digits = |c: &mut Self| {
            let n = c.raw[c.at..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            c.at += n;
            n
        };
        let first = if self.raw[start] == b'-' {
            let b = self.peek()?;
            self.at += 1;
            b
        } else {
            self.raw[start]
        };
        match first {
            b'0' => {}
            b'1'..=b'9' => {
                digits(self);
            }
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if digits(self) == 0 {
                return None;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) || self.at - start > 15 {
            return None;
        }
        self.out.extend_from_slice(&self.raw[start..self.at]);
        Some(())
    }
}

fn error(owner: &'static str, raw: &[u8], reason: String) -> RawJsonError {
    let preview: String = String::from_utf8_lossy(raw).chars().take(64).collect();
    RawJsonError {
        owner,
        reason,
        preview,
    }
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

    #[test]
    fn the_quick_pass_writes_what_the_general_path_writes() {
        let general = |raw: &str| compact_checked("t", raw.as_bytes()).unwrap().into_bytes();
        for raw in [
            r#"{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:data":{"f:k":{}}}"#,
            "{ \"f:spec\" : {\n\t\"k:{\\\"name\\\":\\\"<a&b>\\\"}\": {}\r} }",
            r#"[1, -0, 2.50, 0.1, true, false, null, "", [], {}, "\u00e9\/\b\f\n\r\t"]"#,
            r#""just a string""#,
            "  17  ",
        ] {
            let mut out = b"prefix".to_vec();
            assert!(compact_into(raw.as_bytes(), &mut out), "{raw}");
            assert_eq!(out[6..], general(raw)[..], "{raw}");
        }
        assert_eq!(
            compact("t", br#"{"a": "<&>"}"#).unwrap(),
            r#"{"a":"\u003c\u0026\u003e"}"#
        );
    }

    #[test]
    fn the_quick_pass_declines_what_it_does_not_check_and_writes_nothing() {
        let deep = "[".repeat(QUICK_MAX_DEPTH + 1) + &"]".repeat(QUICK_MAX_DEPTH + 1);
        for raw in [
            &b"{"[..],
            b"",
            b"1 2",
            b"{'a':1}",
            b"{\"a\":1,}",
            b"[1,]",
            b"{\"a\" 1}",
            b"\"unterminated",
            b"\"tab\there\"",
            b"\"\\x\"",
            b"\"\\u12g4\"",
            b"01",
            b"-",
            b"1.",
            b"1e5",
            b"1234567890123456",
            b"tru",
            b"nul",
            "\"\u{e9}\"".as_bytes(),
            "\"\u{2028}\"".as_bytes(),
            b"\xff",
            deep.as_bytes(),
        ] {
            let mut out = b"prefix".to_vec();
            assert!(
                !compact_into(raw, &mut out),
                "{:?}",
                String::from_utf8_lossy(raw)
            );
            assert_eq!(out, b"prefix");
        }
        // What it declines but is valid, the general path still writes.
        assert_eq!(compact("t", deep.as_bytes()).unwrap(), deep);
        assert_eq!(
            compact("t", "\"\u{2028}\"".as_bytes()).unwrap(),
            r#""\u2028""#
        );
        assert_eq!(compact("t", b"1e5").unwrap(), "1e5");
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
