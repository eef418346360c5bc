//! Embedded JSON written as Go's `encoding/json` writes a `MarshalJSON` result: checked,
//! compacted and HTML-escaped.

use serde::Serialize;
use serde_json::value::RawValue;

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
