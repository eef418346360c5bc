//! The key lookup of the struct decoders (`ReadJson`) that `#[derive(ApiObject)]` and
//! `#[derive(ApiType)]` generate: [`FieldNames`], a struct's JSON names as a table.
//!
//! The lookup is one non-generic function over a `static` table per struct
//! rather than a `match` on the names per struct: a thousand string matches were ~136 KB
//! of machine code in `k8s-types`, where the tables are data the compiler only lays out.

/// A struct's JSON field names and their field indexes, grouped by length: what a key is
/// looked up in. Built by the derives (see [`FieldNames::new`] for the layout); the
/// lookup is [`index`](Self::index).
///
/// ```
/// use apimachinery::__private::FieldNames;
///
/// // "kind" (0), "spec" (2) and "apiVersion" (1): two names of 4 bytes, one of 10.
/// static NAMES: FieldNames = FieldNames::new(
///     b"kind\x00\x00spec\x02\x00apiVersion\x01\x00",
///     &[0, 0, 0, 0, 0, 12, 12, 12, 12, 12, 12, 24],
/// );
/// assert_eq!(NAMES.index("spec"), Some(2));
/// assert_eq!(NAMES.index("apiVersion"), Some(1));
/// assert_eq!(NAMES.index("Kind"), None);
/// assert_eq!(NAMES.index("metadata"), None);
/// ```
#[derive(Debug)]
pub struct FieldNames {
    table: &'static [u8],
    by_len: &'static [u16],
}

impl FieldNames {
    /// The names of one struct. `table` holds one entry per name, sorted by the name's
    /// length: the name's bytes, then its field index as two little-endian bytes.
    /// `by_len[n]` is the offset in `table` of the first entry whose name is `n` bytes
    /// long (or where it would be), for every `n` up to one past the longest name, so
    /// that `by_len[n]..by_len[n + 1]` are the names of `n` bytes. Among names of one
    /// length the first entry that matches wins.
    ///
    /// A table that does not follow this layout gives wrong answers, never a panic.
    pub const fn new(table: &'static [u8], by_len: &'static [u16]) -> Self {
        FieldNames { table, by_len }
    }

    /// The index of the field named `key` (exactly, bytes compared), `None` for a key
    /// the struct does not have.
    ///
    /// On the hot path of every decode (once per key): the names compared are those of
    /// the key's length only, a word at a time, without a `memcmp` call.
    #[inline(never)]
    pub fn index(&self, key: &str) -> Option<usize> {
        let key = key.as_bytes();
        let len = key.len();
        let start = usize::from(*self.by_len.get(len)?);
        let end = usize::from(*self.by_len.get(len + 1)?);
        let mut at = start;
        while at + len + 2 <= end {
            let name = self.table.get(at..at + len)?;
            if same_bytes(name, key) {
                let index = self.table.get(at + len..at + len + 2)?;
                return match index {
                    [lo, hi] => Some(usize::from(u16::from_le_bytes([*lo, *hi]))),
                    _ => None,
                };
            }
            at += len + 2;
        }
        None
    }
}

/// Whether `a` and `b` (of one length) hold the same bytes: 8 bytes at a time (the last
/// word overlapping the one before), or two overlapping 4-byte words for 4 to 7 bytes,
/// which is what a compiled `match` on the names did inline.
#[inline(always)]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n >= 8 {
        let mut at = 0;
        while at + 8 < n {
            if word8(a, at) != word8(b, at) {
                return false;
            }
            at += 8;
        }
        word8(a, n - 8) == word8(b, n - 8)
    } else if n >= 4 {
        word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4)
    } else {
        a.iter().zip(b).all(|(x, y)| x == y)
    }
}

/// The 8 bytes of `s` at `at` as a word (0 past the end, which the callers never ask).
#[inline(always)]
fn word8(s: &[u8], at: usize) -> u64 {
    s.get(at..at + 8)
        .and_then(|w| <[u8; 8]>::try_from(w).ok())
        .map_or(0, u64::from_le_bytes)
}

/// The 4 bytes of `s` at `at` as a word (0 past the end, which the callers never ask).
#[inline(always)]
fn word4(s: &[u8], at: usize) -> u32 {
    s.get(at..at + 4)
        .and_then(|w| <[u8; 4]>::try_from(w).ok())
        .map_or(0, u32::from_le_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    // "name" (0) and "apiVersion" (1).
    static NAMES: FieldNames = FieldNames::new(
        b"name\x00\x00apiVersion\x01\x00",
        &[0, 0, 0, 0, 0, 6, 6, 6, 6, 6, 6, 18],
    );

    #[test]
    fn names_of_one_length_are_all_found_and_the_first_wins() {
        // "a" (3), "bb" (0), "cc" (300), "dd" (1), "bb" again (2, never found).
        static SAME: FieldNames = FieldNames::new(
            b"a\x03\x00bb\x00\x00cc\x2c\x01dd\x01\x00bb\x02\x00",
            &[0, 0, 3, 19],
        );
        assert_eq!(SAME.index("a"), Some(3));
        assert_eq!(SAME.index("bb"), Some(0));
        assert_eq!(SAME.index("cc"), Some(300));
        assert_eq!(SAME.index("dd"), Some(1));
        for missing in ["", "b", "ab", "ccc", "d", "bB"] {
            assert_eq!(SAME.index(missing), None, "{missing:?}");
        }
    }

    #[test]
    fn a_table_out_of_shape_never_panics() {
        static BROKEN: [FieldNames; 4] = [
            // Offsets past the table.
            FieldNames::new(b"ab\x00\x00", &[0, 0, 9, 12]),
            // Offsets backwards.
            FieldNames::new(b"ab\x00\x00", &[0, 4, 4, 0]),
            // An entry cut short.
            FieldNames::new(b"ab\x00", &[0, 0, 0, 3]),
            // Nothing at all.
            FieldNames::new(b"", &[]),
        ];
        // What they find is unspecified; that they answer at all is the point.
        for names in &BROKEN {
            for key in ["", "a", "ab", "abc", "abcdefgh", "abcdefghijklmnopq"] {
                let _ = names.index(key);
            }
        }
        for key in ["", "a", "ab", "abc"] {
            assert_eq!(BROKEN[3].index(key), None);
            assert_eq!(BROKEN[2].index(key), None, "{key:?}");
        }
        // The 4 bytes read as entries of an empty name: the first one's "index".
        assert_eq!(
            BROKEN[1].index(""),
            Some(usize::from(u16::from_le_bytes(*b"ab")))
        );
    }

    #[test]
    fn bytes_compare_equal_only_when_all_are_equal_at_every_length() {
        let text: Vec<u8> = (0u8..40).map(|i| b'a' + i % 26).collect();
        for len in 0..=text.len() {
            let a = &text[..len];
            assert!(same_bytes(a, a), "{len}");
            for at in 0..len {
                let mut b = a.to_vec();
                b[at] ^= 0x20;
                assert!(!same_bytes(a, &b), "{len} {at}");
            }
            assert!(!same_bytes(a, &text[..len.saturating_sub(1)]) || len == 0);
        }
    }

    #[test]
    fn keys_map_to_their_field_index() {
        assert_eq!(NAMES.index("name"), Some(0));
        assert_eq!(NAMES.index("apiVersion"), Some(1));
        assert_eq!(NAMES.index("Name"), None, "keys match exactly");
        assert_eq!(NAMES.index(""), None);
    }
}
