//! [`serialize_by_write_json`]: a type's serde `Serialize` done by its [`WriteJson`]: the
//! value is written as JSON text, and the text is replayed into the serializer (objects
//! as maps, in their order; arrays as sequences; strings unescaped; integers as `u64` or
//! `i64`, other numbers as `f64`).
//!
//! `#[derive(ApiType)]` and `#[derive(ApiObject)]` make every `Serialize` a call to this
//! one function. A derived `Serialize` of its own per struct, instantiated for every
//! serializer, was a fifth of `k8s-types`' front end (the types are nearly a thousand);
//! this code is generic over the serializer alone, and compiled where a program calls
//! serde, once per serializer.
//!
//! The serializer writes the values in its own way: `serde_json::to_vec` escapes
//! strings as `serde_json` does, `serde_yaml` writes YAML, `serde_json::to_value` builds
//! a `Value`. What the text cannot carry is a float's type: a float with an integral
//! value comes out as Go writes it (`1`, not `1.0`), and a raw value (`RawExtension`)
//! is replayed value by value rather than handed over as it is.

use std::borrow::Cow;
use std::cell::Cell;

use serde::ser::{self, Serialize, SerializeMap, SerializeSeq, Serializer};

use super::{GoJsonWriter, WriteJson};

/// Serializes `value` into `serializer` through its [`WriteJson`] text (see the module
/// documentation): what the derived `Serialize` impls call.
///
/// ```
/// use apimachinery::ApiType;
///
/// #[derive(ApiType, Clone, Debug, Default, PartialEq)]
/// pub struct Port { pub name: String, pub port: i32, pub weight: Option<f64> }
///
/// let port = Port { name: "<web>".into(), port: 80, weight: Some(0.5) };
/// // `serde_json`'s escaping, the derive's field order and names.
/// assert_eq!(serde_json::to_string(&port)?, r#"{"name":"<web>","port":80,"weight":0.5}"#);
/// assert_eq!(serde_json::to_value(&port)?["port"], 80);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn serialize_by_write_json<S: Serializer>(
    value: &dyn WriteJson,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let text = match write_text(value) {
        Ok(text) => text,
        Err(e) => return Err(ser::Error::custom(e)),
    };
    Replay {
        text: &text,
        at: Cell::new(0),
    }
    .serialize(serializer)
}

/// The value's compact JSON text (non-generic: one copy for every type).
#[inline(never)]
fn write_text(value: &dyn WriteJson) -> Result<Vec<u8>, serde_json::Error> {
    let mut out = Vec::new();
    value.write_json(&mut GoJsonWriter::compact(&mut out))?;
    Ok(out)
}

/// The next value of compact JSON text written by [`GoJsonWriter`] (so valid, without
/// whitespace), consumed from `at` as it is serialized.
struct Replay<'t> {
    text: &'t [u8],
    at: Cell<usize>,
}

/// One scalar or the start of a container, read at the cursor.
enum Token<'t> {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Str(Cow<'t, str>),
    BeginArray,
    BeginObject,
}

impl<'t> Replay<'t> {
    fn peek(&self) -> u8 {
        self.text.get(self.at.get()).copied().unwrap_or(0)
    }

    fn bump(&self) {
        self.at.set(self.at.get() + 1);
    }

    /// Consumes `byte` when it is next.
    fn eat(&self, byte: u8) -> bool {
        let next = self.peek() == byte;
        if next {
            self.bump();
        }
        next
    }

    /// Reads one token (non-generic, shared by every serializer).
    #[inline(never)]
    fn token(&self) -> Result<Token<'t>, String> {
        let start = self.at.get();
        let rest = self.text.get(start..).unwrap_or_default();
        let (token, len) = match rest.first() {
            Some(b'n') => (Token::Null, 4),
            Some(b't') => (Token::Bool(true), 4),
            Some(b'f') => (Token::Bool(false), 5),
            Some(b'[') => (Token::BeginArray, 1),
            Some(b'{') => (Token::BeginObject, 1),
            Some(b'"') => return self.string().map(Token::Str),
            Some(b'-' | b'0'..=b'9') => {
                let len = rest
                    .iter()
                    .position(|b| !matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                    .unwrap_or(rest.len());
                let number = std::str::from_utf8(rest.get(..len).unwrap_or_default())
                    .map_err(|e| e.to_string())?;
                (parse_number(number)?, len)
            }
            _ => return Err(self.unexpected()),
        };
        self.at.set(start + len);
        Ok(token)
    }

    /// A string at the cursor, unescaped.
    fn string(&self) -> Result<Cow<'t, str>, String> {
        let text = self.text;
        let start = self.at.get() + 1;
        let rest = text.get(start..).unwrap_or_default();
        let Some(end) = rest.iter().position(|&b| b == b'"' || b == b'\\') else {
            return Err(self.unexpected());
        };
        if rest.get(end) == Some(&b'"') {
            self.at.set(start + end + 1);
            let raw = rest.get(..end).unwrap_or_default();
            return std::str::from_utf8(raw)
                .map(Cow::Borrowed)
                .map_err(|e| e.to_string());
        }
        // With escapes: JSON's own rules, as `serde_json` reads a string.
        let quoted_len = string_len(rest).ok_or_else(|| self.unexpected())?;
        let quoted = text
            .get(start - 1..start + quoted_len + 1)
            .unwrap_or_default();
        let unescaped: String = serde_json::from_slice(quoted).map_err(|e| e.to_string())?;
        self.at.set(start + quoted_len + 1);
        Ok(Cow::Owned(unescaped))
    }

    #[cold]
    fn unexpected(&self) -> String {
        format!(
            "unexpected byte at {} of the JSON text being serialized",
            self.at.get()
        )
    }
}

/// The length of a string's contents up to its closing quote (escapes included).
fn string_len(rest: &[u8]) -> Option<usize> {
    let mut i = 0;
    loop {
        match rest.get(i)? {
            b'"' => return Some(i),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

/// A number as `serde_json` reads one: `u64` when non-negative and integral, else `i64`
/// (but `-0`), else `f64`.
fn parse_number(text: &str) -> Result<Token<'static>, String> {
    let integral = !text.contains(['.', 'e', 'E']);
    if integral {
        if let Ok(n) = text.parse::<u64>() {
            return Ok(Token::U64(n));
        }
        // `-0` is a float (Go writes -0.0 so), as `serde_json` reads it.
        if let Ok(n) = text.parse::<i64>()
            && n != 0
        {
            return Ok(Token::I64(n));
        }
    }
    text.parse::<f64>()
        .map(Token::F64)
        .map_err(|e| format!("{text}: {e}"))
}

impl Serialize for Replay<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.token().map_err(ser::Error::custom)? {
            Token::Null => serializer.serialize_none(),
            Token::Bool(b) => serializer.serialize_bool(b),
            Token::U64(n) => serializer.serialize_u64(n),
            Token::I64(n) => serializer.serialize_i64(n),
            Token::F64(n) => serializer.serialize_f64(n),
            Token::Str(s) => serializer.serialize_str(&s),
            Token::BeginArray => {
                let mut seq = serializer.serialize_seq(None)?;
                let mut first = true;
                while !self.eat(b']') {
                    if !first && !self.eat(b',') {
                        return Err(ser::Error::custom(self.unexpected()));
                    }
                    first = false;
                    seq.serialize_element(self)?;
                }
                seq.end()
            }
            Token::BeginObject => {
                let mut map = serializer.serialize_map(None)?;
                let mut first = true;
                while !self.eat(b'}') {
                    if !first && !self.eat(b',') {
                        return Err(ser::Error::custom(self.unexpected()));
                    }
                    first = false;
                    if self.peek() != b'"' {
                        return Err(ser::Error::custom(self.unexpected()));
                    }
                    let key = self.string().map_err(ser::Error::custom)?;
                    if !self.eat(b':') {
                        return Err(ser::Error::custom(self.unexpected()));
                    }
                    map.serialize_entry(&*key, self)?;
                }
                map.end()
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A value written by `GoJsonWriter` through serde, to replay.
    struct Text(serde_json::Value);

    impl WriteJson for Text {
        fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), serde_json::Error> {
            self.0.serialize(writer)
        }
    }

    fn replayed(value: serde_json::Value) -> serde_json::Value {
        serialize_by_write_json(&Text(value), serde_json::value::Serializer).unwrap()
    }

    #[test]
    fn every_json_value_replays_as_itself() {
        let value = serde_json::json!({
            "z": [1, -2, -0.0, 18446744073709551615u64, -9223372036854775808i64, 0.5, 1e300, -1.5e-7],
            "a": {"nested": [true, false, null, {}, []]},
            "s": "<&> \" \\ \n \u{2028} \u{1F600} é",
            "": ""
        });
        assert_eq!(replayed(value.clone()), value);
    }

    /// A struct whose fields are not in alphabetical order.
    struct Ordered;

    impl WriteJson for Ordered {
        fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), serde_json::Error> {
            let mut fields = writer.begin_struct();
            fields.field("b", &"<a&b>");
            fields.field("a", &1);
            fields.end()
        }
    }

    #[test]
    fn object_keys_keep_their_order_and_strings_take_the_serializers_escapes() {
        let mut out = Vec::new();
        serialize_by_write_json(&Ordered, &mut serde_json::Serializer::new(&mut out)).unwrap();
        assert_eq!(out, br#"{"b":"<a&b>","a":1}"#);
        let mut out = Vec::new();
        serialize_by_write_json(&Ordered, &mut GoJsonWriter::compact(&mut out)).unwrap();
        assert_eq!(out, br#"{"b":"\u003ca\u0026b\u003e","a":1}"#);
    }

    #[test]
    fn a_write_error_is_the_serializers_error() {
        struct Nan;
        impl WriteJson for Nan {
            fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), serde_json::Error> {
                f64::NAN.write_json(writer)
            }
        }
        let err = serialize_by_write_json(&Nan, serde_json::value::Serializer).unwrap_err();
        assert!(err.to_string().contains("NaN"), "{err}");
    }
}
