//! [`ByteString`]: a Go `[]byte` field, written in JSON as standard base64.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// Bytes that Go declares as `[]byte` (`Secret.data` values, `ConfigMap.binaryData`
/// values, a CSR's `request`), with Go's JSON for them: a string in standard base64 with
/// padding (`encoding/base64.StdEncoding`).
///
/// Reading follows Go's decoder: padding is required, `\r` and `\n` anywhere are ignored,
/// any other character outside the alphabet is an error naming its offset, and `null`
/// reads as empty. Go also accepts a JSON array of byte values, and so does this type.
///
/// It lives here rather than in `runtime` because it is a value type of the API's wire
/// format, shared by every API group like [`resource::Quantity`](super::resource::Quantity).
///
/// ```
/// use apimachinery::api::ByteString;
///
/// let data = ByteString::from(b"hello".to_vec());
/// assert_eq!(serde_json::to_string(&data).unwrap(), r#""aGVsbG8=""#);
/// let back: ByteString = serde_json::from_str("\"aGVs\\nbG8=\"").unwrap();
/// assert_eq!(back, data);
/// assert_eq!(&back[..], b"hello");
/// assert!(serde_json::from_str::<ByteString>(r#""aGVsbG8""#).is_err()); // no padding
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ByteString(pub Vec<u8>);

/// Why a text is not standard base64 (Go's `base64.CorruptInputError`, with the offset
/// Go reports).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal base64 data at input byte {offset}")]
pub struct ByteStringError {
    /// The byte offset Go reports: the bad character, or for missing characters or
    /// padding, where Go's decoder noticed.
    pub offset: usize,
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

impl ByteString {
    /// The bytes in standard base64 with padding.
    pub fn to_base64(&self) -> String {
        let mut out = Vec::with_capacity(self.0.len().div_ceil(3) * 4);
        self.append_base64(&mut out);
        // The alphabet and the padding are ASCII.
        String::from_utf8(out).unwrap_or_default()
    }

    /// Appends the bytes in standard base64 with padding to `out`.
    fn append_base64(&self, out: &mut Vec<u8>) {
        out.reserve(self.0.len().div_ceil(3) * 4);
        for chunk in self.0.chunks(3) {
            let b = [
                chunk.first().copied().unwrap_or(0),
                chunk.get(1).copied().unwrap_or(0),
                chunk.get(2).copied().unwrap_or(0),
            ];
            let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
            for i in 0..4 {
                if i <= chunk.len() {
                    let index = (n >> (18 - 6 * i)) & 0x3f;
                    out.push(ALPHABET[index as usize]);
                } else {
                    out.push(b'=');
                }
            }
        }
    }

    /// Decodes standard base64 as Go's `base64.StdEncoding.DecodeString` does.
    pub fn from_base64(text: &str) -> Result<ByteString, ByteStringError> {
        decode(text.as_bytes()).map(ByteString)
    }

    /// The bytes.
    pub fn into_inner(self) -> Vec<u8> {
        self.0
    }
}

fn sextet(c: u8) -> Option<u32> {
    Some(u32::from(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    }))
}

/// Go's decoder: quanta of four characters, newlines skipped, `=` padding only in the last
/// quantum (two `=` after two characters, one after three), nothing after the padding
/// but newlines. Non-zero leftover bits are accepted (Go's `StdEncoding` is not strict).
fn decode(text: &[u8]) -> Result<Vec<u8>, ByteStringError> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut quantum = [0_u32; 4];
    let mut filled = 0;
    let mut i = 0;
    let next_significant = |mut j: usize| {
        while matches!(text.get(j), Some(b'\r' | b'\n')) {
            j += 1;
        }
        j
    };
    while i < text.len() {
        i = next_significant(i);
        let Some(&c) = text.get(i) else { break };
        if c == b'=' {
            // Padding: valid only after two or three characters of a quantum.
            let needed = match filled {
                2 => 2,
                3 => 1,
                _ => return Err(ByteStringError { offset: i }),
            };
            let mut j = i + 1;
            if needed == 2 {
                j = next_significant(j);
                match text.get(j) {
                    None => return Err(ByteStringError { offset: text.len() }),
                    // Go points just before the character that should have been `=`.
                    Some(b'=') => j += 1,
                    Some(_) => return Err(ByteStringError { offset: j - 1 }),
                }
            }
            let rest = next_significant(j);
            if rest < text.len() {
                return Err(ByteStringError { offset: rest });
            }
            let n = (quantum[0] << 18) | (quantum[1] << 12) | (quantum[2] << 6);
            out.push((n >> 16) as u8);
            if filled == 3 {
                out.push((n >> 8) as u8);
            }
            return Ok(out);
        }
        let Some(v) = sextet(c) else {
            return Err(ByteStringError { offset: i });
        };
        if let Some(slot) = quantum.get_mut(filled) {
            *slot = v;
        }
        filled += 1;
        if filled == 4 {
            let n = (quantum[0] << 18) | (quantum[1] << 12) | (quantum[2] << 6) | quantum[3];
            out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8]);
            filled = 0;
        }
        i += 1;
    }
    if filled != 0 {
        // An unfinished quantum without padding: Go reports the input length less the
        // characters of that quantum.
        return Err(ByteStringError {
            offset: text.len() - filled,
        });
    }
    Ok(out)
}

impl From<Vec<u8>> for ByteString {
    fn from(bytes: Vec<u8>) -> ByteString {
        ByteString(bytes)
    }
}

impl From<&[u8]> for ByteString {
    fn from(bytes: &[u8]) -> ByteString {
        ByteString(bytes.to_vec())
    }
}

impl From<ByteString> for Vec<u8> {
    fn from(bytes: ByteString) -> Vec<u8> {
        bytes.0
    }
}

impl Deref for ByteString {
    type Target = Vec<u8>;

    fn deref(&self) -> &Vec<u8> {
        &self.0
    }
}

impl DerefMut for ByteString {
    fn deref_mut(&mut self) -> &mut Vec<u8> {
        &mut self.0
    }
}

impl AsRef<[u8]> for ByteString {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Debug for ByteString {
    /// Text when the bytes are UTF-8, else the byte list.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match std::str::from_utf8(&self.0) {
            Ok(text) => write!(f, "ByteString({text:?})"),
            Err(_) => write!(f, "ByteString({:?})", self.0),
        }
    }
}

impl serde::Serialize for ByteString {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_base64())
    }
}

/// The serde impl's text, the base64 written straight into the output (its alphabet and
/// padding need no escapes).
impl crate::util::json::WriteJson for ByteString {
    fn write_json(
        &self,
        writer: &mut crate::util::json::GoJsonWriter<'_>,
    ) -> Result<(), serde_json::Error> {
        writer.unescaped_string(|out| self.append_base64(out));
        Ok(())
    }
}

impl<'de> serde::Deserialize<'de> for ByteString {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ByteStringVisitor)
    }
}

struct ByteStringVisitor;

impl<'de> serde::de::Visitor<'de> for ByteStringVisitor {
    type Value = ByteString;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a base64 string")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ByteString, E> {
        ByteString::from_base64(v).map_err(|e| E::custom(format!("{e} in {v:?}")))
    }

    fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<ByteString, E> {
        Ok(ByteString(v.to_vec()))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<ByteString, E> {
        Ok(ByteString::default())
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<ByteString, E> {
        Ok(ByteString::default())
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<ByteString, A::Error> {
        let mut bytes = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(b) = seq.next_element::<u8>()? {
            bytes.push(b);
        }
        Ok(ByteString(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn encodes_like_go() {
        let cases: &[(&[u8], &str)] = &[
            (b"", ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg=="),
            (b"\xff\xfe\x00", "//4A"),
            (b"\xfb\xff", "+/8="),
        ];
        for (bytes, text) in cases {
            let b = ByteString::from(*bytes);
            assert_eq!(b.to_base64(), *text);
            assert_eq!(ByteString::from_base64(text).unwrap(), b);
            assert_eq!(serde_json::to_string(&b).unwrap(), format!("\"{text}\""));
        }
    }

    #[test]
    fn decodes_what_go_accepts() {
        let ok: &[(&str, &[u8])] = &[
            ("Zm9v\nYmFy", b"foobar"),
            ("Zm9v\r\nYmE=\n", b"fooba"),
            ("Zg\n=\n=", b"f"),
            ("Zh==", b"f"), // leftover bits are ignored: StdEncoding is not strict
        ];
        for (text, bytes) in ok {
            assert_eq!(ByteString::from_base64(text).unwrap().0, *bytes, "{text:?}");
        }
        let bad: &[(&str, usize)] = &[
            ("Zm9", 0),
            ("Zg", 0),
            ("Zm9vZg", 4),
            ("Zm9v\nZg", 5),
            ("Zg=", 3),
            ("Zg=x", 2),
            ("Zg=\nx", 3),
            ("Zg=\n", 4),
            ("Z===", 1),
            ("Zm9v YmFy", 4),
            ("Zm9v\tYmFy", 4),
            ("Zg==Zg==", 4),
            ("Zm-v", 2),
            ("Zm_v", 2),
            ("=", 0),
        ];
        for (text, offset) in bad {
            assert_eq!(
                ByteString::from_base64(text),
                Err(ByteStringError { offset: *offset }),
                "{text:?}"
            );
        }
        let e = serde_json::from_str::<ByteString>(r#""Zm9""#)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("illegal base64 data at input byte 0") && e.contains("Zm9"),
            "{e}"
        );
        assert!(
            serde_json::from_str::<ByteString>("null")
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            serde_json::from_str::<ByteString>("[104, 105]").unwrap().0,
            b"hi"
        );
        assert!(serde_json::from_str::<ByteString>("[256]").is_err());
        assert!(serde_json::from_str::<ByteString>("5").is_err());
    }

    #[test]
    fn matches_kubectl_secret() {
        let secret: serde_json::Value =
            serde_json::from_str(include_str!("../../testdata/kubectl/secret_generic.json"))
                .unwrap();
        let data = &secret["data"];
        let bin = include_bytes!("../../testdata/kubectl/secret_bin_payload.bin");
        let expected: &[(&str, &[u8])] = &[
            ("k", b"v"),
            ("empty", b""),
            ("bin", bin),
            (
                "long",
                b"abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghij",
            ),
        ];
        for (key, bytes) in expected {
            let decoded: ByteString = serde_json::from_value(data[key].clone()).unwrap();
            assert_eq!(decoded.0, *bytes, "{key}");
            assert_eq!(serde_json::to_value(&decoded).unwrap(), data[key], "{key}");
        }
    }

    proptest! {
        #[test]
        fn base64_round_trips(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let b = ByteString(bytes);
            prop_assert_eq!(ByteString::from_base64(&b.to_base64()).unwrap(), b.clone());
            let json = serde_json::to_string(&b).unwrap();
            prop_assert_eq!(serde_json::from_str::<ByteString>(&json).unwrap(), b);
        }

        #[test]
        fn decoding_arbitrary_text_never_panics(text in "[A-Za-z0-9+/=\r\n -]{0,12}") {
            if let Ok(b) = ByteString::from_base64(&text) {
                let stripped: String = text.chars().filter(|c| *c != '\r' && *c != '\n').collect();
                // Go's encoder writes canonical text; decoding accepts stray low bits.
                prop_assert_eq!(b.to_base64().len(), stripped.len());
            }
        }
    }
}
