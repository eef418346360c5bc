//! Whether a raw value (a `FieldsV1` set, a `RawExtension`) repeats a key in one of its
//! objects: the reader hands such values over as text without walking them, and when it
//! cannot vouch for their keys a strict decode reads the whole document a second time to
//! look for repeats. Every managed object carries `FieldsV1` sets, so this short walk
//! keeps that second read for the documents that need it.

/// True when every object in `raw` (one valid JSON value: the reader checked it) has
/// distinct keys, compared as the reader compares them (byte for byte); false when one
/// repeats, or when this cannot tell: an escaped key (`"a"` and `"\u0061"` are one key),
/// an object with more than `limit` keys, or text that is not what it expects.
pub(super) fn keys_are_distinct(raw: &[u8], limit: usize) -> bool {
    // The keys of the open objects, innermost last, as byte ranges of `raw`; per open
    // array or object where its keys start (`None` for an array).
    let mut keys: Vec<(usize, usize)> = Vec::new();
    let mut open: Vec<Option<usize>> = Vec::new();
    // Whether the next string in the innermost object is a key.
    let mut key_next = false;
    let mut at = 0;
    while let Some(&b) = raw.get(at) {
        match b {
            b'{' => {
                open.push(Some(keys.len()));
                key_next = true;
            }
            b'[' => {
                open.push(None);
                key_next = false;
            }
            b'}' | b']' => {
                if let Some(Some(base)) = open.pop() {
                    keys.truncate(base);
                }
                key_next = false;
            }
            b',' => key_next = matches!(open.last(), Some(Some(_))),
            b'"' => {
                let start = at + 1;
                let Some(end) = string_end(raw, start) else {
                    return false;
                };
                if key_next {
                    let key = &raw[start..end];
                    let Some(Some(base)) = open.last().copied() else {
                        return false;
                    };
                    let earlier = keys.get(base..).unwrap_or_default();
                    if key.contains(&b'\\')
                        || earlier.len() >= limit
                        || earlier.iter().any(|&(s, e)| &raw[s..e] == key)
                    {
                        return false;
                    }
                    keys.push((start, end));
                    key_next = false;
                }
                at = end;
            }
            _ => {}
        }
        at += 1;
    }
    open.is_empty()
}

/// Where the string whose text starts at `start` ends (its closing quote).
fn string_end(raw: &[u8], start: usize) -> Option<usize> {
    let mut at = start;
    loop {
        match *raw.get(at)? {
            b'"' => return Some(at),
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_keys_are_vouched_for() {
        for raw in [
            &br#"{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:data":{".":{},"f:k":{}}}"#[..],
            br#"{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}],"c":"x\"y","d":"{\"a\":1,\"a\":2}"}"#,
            b"[1, {\"a\": [], \"b\": {}}, \"s\"]",
            b"\"text\"",
            b"17",
            b"{}",
        ] {
            assert!(
                keys_are_distinct(raw, 64),
                "{}",
                String::from_utf8_lossy(raw)
            );
        }
    }

    #[test]
    fn repeats_and_what_cannot_be_told_are_not() {
        for raw in [
            &br#"{"a":1,"a":2}"#[..],
            br#"{"f:data":{"f:k":{},"f:k":{}}}"#,
            br#"[{"b":{},"c":1,"b":2}]"#,
            br#"{"a":1,"\u0061":2}"#,
            br#"{"a\"":1}"#,
            b"{\"a\":\"unterminated",
            b"{\"a\":{}",
        ] {
            assert!(
                !keys_are_distinct(raw, 64),
                "{}",
                String::from_utf8_lossy(raw)
            );
        }
        assert!(!keys_are_distinct(br#"{"a":1,"b":2,"c":3}"#, 2));
        assert!(keys_are_distinct(br#"{"a":1,"b":2,"c":3}"#, 3));
    }
}
