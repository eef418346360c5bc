//! Embedded JSON (what a `MarshalJSON` method returns, kept as bytes by `FieldsV1` and
//! `RawExtension`) as Go's encoder writes it: checked to be one JSON value, compacted and
//! HTML-escaped. Here, below the writer, so that the writer can put it straight into
//! its output; `raw_json` builds its serde path on the same functions.

/// Why embedded bytes cannot be written as JSON.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{owner}: raw bytes are not valid JSON ({reason}): {preview:?}")]
pub(crate) struct RawJsonError {
    owner: &'static str,
    reason: String,
    preview: String,
}

/// That `raw` is one JSON value in UTF-8, as Go's encoder checks a `MarshalJSON` result.
pub(crate) fn check(owner: &'static str, raw: &[u8]) -> Result<(), RawJsonError> {
    let text = std::str::from_utf8(raw).map_err(|e| error(owner, raw, e.to_string()))?;
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .map_err(|e| error(owner, raw, e.to_string()))?;
    Ok(())
}

/// Appends Go's `json.Compact` of `raw` with HTML escaping to `out`: whitespace outside
/// strings dropped; `<`, `>`, `&`, U+2028 and U+2029 inside strings escaped. `raw` must
/// have passed [`check`] (on other bytes the output is unspecified, but nothing panics).
///
/// Bytes rather than chars: in UTF-8 every ASCII byte is a whole character, and
/// U+2028/U+2029 are the byte sequences E2 80 A8 and E2 80 A9. Runs of bytes that stay
/// as they are are copied at once (embedded JSON such as `managedFields`' field sets is
/// mostly such runs).
pub(crate) fn compact_checked(out: &mut Vec<u8>, raw: &[u8]) {
    out.reserve(raw.len());
    let mut in_string = false;
    // The start of the run not yet copied.
    let mut start = 0;
    let mut i = 0;
    while let Some(&b) = raw.get(i) {
        let replacement: &[u8] = if in_string {
            match b {
                // The escaped character (ASCII in valid JSON) is copied with the backslash.
                b'\\' => {
                    i += 2;
                    continue;
                }
                b'"' => {
                    in_string = false;
                    i += 1;
                    continue;
                }
                b'<' => b"\\u003c",
                b'>' => b"\\u003e",
                b'&' => b"\\u0026",
                0xE2 if raw.get(i + 1) == Some(&0x80) && raw.get(i + 2) == Some(&0xA8) => {
                    b"\\u2028"
                }
                0xE2 if raw.get(i + 1) == Some(&0x80) && raw.get(i + 2) == Some(&0xA9) => {
                    b"\\u2029"
                }
                _ => {
                    i += 1;
                    continue;
                }
            }
        } else {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => b"",
                b'"' => {
                    in_string = true;
                    i += 1;
                    continue;
                }
                _ => {
                    i += 1;
                    continue;
                }
            }
        };
        out.extend_from_slice(raw.get(start..i).unwrap_or_default());
        out.extend_from_slice(replacement);
        // The escaped line and paragraph separators are three bytes.
        i += if b == 0xE2 { 3 } else { 1 };
        start = i;
    }
    out.extend_from_slice(raw.get(start..).unwrap_or_default());
}

/// The error for `raw`, which `owner` holds, with a preview of its first characters.
pub(crate) fn error(owner: &'static str, raw: &[u8], reason: String) -> RawJsonError {
    let preview: String = String::from_utf8_lossy(raw).chars().take(64).collect();
    RawJsonError {
        owner,
        reason,
        preview,
    }
}
