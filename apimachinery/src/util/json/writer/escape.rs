//! Strings as Go's `encoding/json` writes them: quoted, with its escapes (HTML
//! characters and U+2028/U+2029 included). Every string value and map key a
//! [`GoJsonWriter`](super::GoJsonWriter) writes goes through [`write_string`], so the
//! scan for bytes to escape is most of what a string costs.

/// Which bytes a JSON string cannot hold as they are in Go's output: control
/// characters, `"` and `\`, Go's HTML escapes `<`, `>`, `&`, and 0xE2, the lead byte of
/// U+2028 and U+2029 (and of other characters, which [`write_string`] lets through).
static NEEDS_ESCAPE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table[b'<' as usize] = true;
    table[b'>' as usize] = true;
    table[b'&' as usize] = true;
    table[0xE2] = true;
    table
};

/// Appends `value` as a quoted JSON string with Go's escapes (inlined into the few
/// non-generic callers: struct keys, string values, map keys). Nearly every string has
/// nothing to escape: one scan, one copy.
#[inline]
pub(super) fn write_string(out: &mut Vec<u8>, value: &str) {
    let bytes = value.as_bytes();
    match first_to_escape(bytes) {
        None => crate::append::push_quoted(out, bytes),
        Some(at) => write_escaped(out, bytes, at),
    }
}

/// Where to start looking for the first byte of `bytes` that [`NEEDS_ESCAPE`] marks, or
/// `None` when there is none: an index at or before that byte. Every byte is tested a
/// word at a time, the last ones in a word that overlaps the one before it (most
/// strings are a few words long, and a byte loop over their tails cost more than the
/// words), so the answer is the start of the first word that holds one;
/// [`write_escaped`] finds the byte itself.
#[inline]
fn first_to_escape(bytes: &[u8]) -> Option<usize> {
    let len = bytes.len();
    if len < 4 {
        return bytes.iter().position(|&b| NEEDS_ESCAPE[usize::from(b)]);
    }
    if len < 8 {
        // Two four-byte halves that overlap when `len` is below 8.
        let half = |at: usize| {
            let half: [u8; 4] = bytes
                .get(at..at + 4)
                .and_then(|h| h.try_into().ok())
                .unwrap_or([0; 4]);
            u64::from(u32::from_le_bytes(half))
        };
        let word = half(0) | half(len - 4) << 32;
        return word_needs_escape(word).then_some(0);
    }
    let word_at = |at: usize| {
        let word: [u8; 8] = bytes
            .get(at..at + 8)
            .and_then(|w| w.try_into().ok())
            .unwrap_or([0; 8]);
        u64::from_le_bytes(word)
    };
    let mut start = 0;
    while start + 8 < len {
        if word_needs_escape(word_at(start)) {
            return Some(start);
        }
        start += 8;
    }
    // The last eight bytes, overlapping the words already tested.
    let last = len - 8;
    word_needs_escape(word_at(last)).then_some(last)
}

/// Whether one of the eight bytes of `word` is one [`NEEDS_ESCAPE`] marks: below 0x20,
/// `"`, `\`, `<`, `>`, `&` or 0xE2. Exact (no false answer either way): a byte below `n`
/// (`n` at most 0x80) makes `(word - n * ONES) & !word & HIGH` non-zero, and a byte equal
/// to `c` makes the same test on `word ^ c * ONES` against one non-zero, while when no byte
/// qualifies no borrow starts and every high bit stays clear. Two pairs are tested as
/// one: `"` (0x22) and `&` (0x26), `<` (0x3C) and `>` (0x3E) differ in one bit, which the
/// test masks off (five tests of a word rather than seven).
#[inline]
fn word_needs_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    // A byte equal to `c` in every bit but those of `ignored`.
    let equal_but = |c: u8, ignored: u8| {
        below(
            (word ^ (ONES * u64::from(c))) & !(ONES * u64::from(ignored)),
            1,
        )
    };
    (below(word, 0x20)
        | equal_but(b'"', b'"' ^ b'&')
        | equal_but(b'<', b'<' ^ b'>')
        | equal_but(b'\\', 0)
        | equal_but(0xE2, 0))
        != 0
}

/// [`write_string`] for a string that holds a byte to look at, the first at `at`.
#[inline(never)]
fn write_escaped(out: &mut Vec<u8>, bytes: &[u8], at: usize) {
    out.reserve(bytes.len() + 8);
    out.push(b'"');
    // Bytes, not chars: in UTF-8 an ASCII byte is always a whole character, and
    // U+2028/U+2029 are exactly the byte sequences E2 80 A8 and E2 80 A9.
    let mut start = 0;
    let mut i = at;
    while let Some(&b) = bytes.get(i) {
        if !NEEDS_ESCAPE[usize::from(b)] {
            i += 1;
            continue;
        }
        let mut unicode = [b'\\', b'u', b'0', b'0', 0, 0];
        let (escape, len): (&[u8], usize) = match b {
            b'"' => (b"\\\"", 1),
            b'\\' => (b"\\\\", 1),
            b'\n' => (b"\\n", 1),
            b'\r' => (b"\\r", 1),
            b'\t' => (b"\\t", 1),
            0x08 => (b"\\b", 1),
            0x0C => (b"\\f", 1),
            b'<' => (b"\\u003c", 1),
            b'>' => (b"\\u003e", 1),
            b'&' => (b"\\u0026", 1),
            0xE2 if bytes.get(i + 1) == Some(&0x80) && bytes.get(i + 2) == Some(&0xA8) => {
                (b"\\u2028", 3)
            }
            0xE2 if bytes.get(i + 1) == Some(&0x80) && bytes.get(i + 2) == Some(&0xA9) => {
                (b"\\u2029", 3)
            }
            // Another character of the U+2000 block ('…', '–', '“'): as it is.
            0xE2 => {
                i += 1;
                continue;
            }
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                unicode[4] = HEX[usize::from(b >> 4)];
                unicode[5] = HEX[usize::from(b & 0xF)];
                (&unicode, 1)
            }
        };
        out.extend_from_slice(bytes.get(start..i).unwrap_or_default());
        out.extend_from_slice(escape);
        i += len;
        start = i;
    }
    out.extend_from_slice(bytes.get(start..).unwrap_or_default());
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_test_agrees_with_the_table_for_every_byte_in_every_place() {
        for place in 0..8 {
            for b in 0..=255u8 {
                for filler in [b'a', 0x7F, 0x80, 0xFF, b' '] {
                    let mut word = [filler; 8];
                    word[place] = b;
                    let want = word.iter().any(|&x| NEEDS_ESCAPE[usize::from(x)]);
                    assert_eq!(
                        word_needs_escape(u64::from_le_bytes(word)),
                        want,
                        "{word:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_search_starts_at_or_before_the_first_byte_to_escape_at_any_length_and_place() {
        for len in 0..40 {
            assert_eq!(first_to_escape(&vec![b'x'; len]), None);
            for at in 0..len {
                for special in [b'"', b'\\', b'<', b'>', b'&', 0xE2, 0x00, 0x1F] {
                    let mut bytes = vec![b'x'; len];
                    bytes[at] = special;
                    let start = first_to_escape(&bytes);
                    assert!(
                        start.is_some_and(|start| start <= at),
                        "{bytes:?}: {start:?}"
                    );
                    if at + 1 < len {
                        bytes[at + 1] = b'<';
                        let again = first_to_escape(&bytes);
                        assert!(again.is_some_and(|start| start <= at), "{bytes:?}");
                    }
                    // And the whole string comes out escaped from there.
                    let text = String::from_utf8_lossy(&bytes).into_owned();
                    let mut ours = Vec::new();
                    write_string(&mut ours, &text);
                    assert_eq!(ours, by_go_formatter(&text), "{text:?}");
                }
            }
        }
    }

    /// `text` quoted by `serde_json` with [`GoFormatter`](crate::util::json::GoFormatter),
    /// which escapes through code of its own.
    fn by_go_formatter(text: &str) -> Vec<u8> {
        use serde::Serialize;
        let mut out = Vec::new();
        let formatter = crate::util::json::GoFormatter::compact();
        let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
        text.serialize(&mut serializer).unwrap();
        out
    }
}
