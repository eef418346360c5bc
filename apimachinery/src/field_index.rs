//! The key lookup of the struct decoders that `#[derive(ApiObject)]` and
//! `#[derive(ApiType)]` generate: [`FieldNames`], a struct's JSON names as a table, and
//! [`FieldIndex`], the serde key reader built on it.
//!
//! serde's own derive gives every struct a field-identifier visitor of its own. When
//! objects are decoded through the scheme (`erased_serde`), each visitor type costs its
//! whole set of erased methods, about thirty, in the generated crate: a thousand
//! structs made that a large part of its build. Here one visitor serves every struct.
//! The lookup itself is one non-generic function over a `static` table per struct
//! rather than a `match` on the names per struct: a thousand string matches were ~136 KB
//! of machine code in `k8s-types`, where the tables are data the compiler only lays out.

use std::fmt;

use serde::de::{self, DeserializeSeed, Visitor};

/// A struct's JSON field names and their field indexes: what a key is looked up in.
/// Built by the derives (see [`FieldNames::new`] for the layout); the lookup is
/// [`index`](Self::index), one hash and one comparison.
///
/// ```
/// use apimachinery::__private::FieldNames;
///
/// // "kind" (0) and "apiVersion" (1), found by a linear scan (no slots).
/// static NAMES: FieldNames =
///     FieldNames::new(b"\x04kind\x00\x00\x0aapiVersion\x01\x00", &[], 0);
/// assert_eq!(NAMES.index("apiVersion"), Some(1));
/// assert_eq!(NAMES.index("Kind"), None);
/// ```
#[derive(Debug)]
pub struct FieldNames {
    table: &'static [u8],
    slots: &'static [u16],
    seed: u32,
}

impl FieldNames {
    /// The names of one struct. `table` holds one entry per name: the name's length as
    /// one byte, its bytes, then its field index as two little-endian bytes. `slots`
    /// maps [`key_slot`]`(key, seed, slots.len())` to one plus the offset in `table` of
    /// the only entry that key can be (0: none), a perfect hash the derive searched a
    /// `seed` for; with no slots the entries are scanned in order.
    ///
    /// A table that does not follow this layout gives wrong answers, never a panic.
    pub const fn new(table: &'static [u8], slots: &'static [u16], seed: u32) -> Self {
        FieldNames { table, slots, seed }
    }

    /// The index of the field named `key` (exactly, bytes compared), `None` for a key
    /// the struct does not have.
    ///
    /// On the hot path of every decode (once per key): a hash of four bytes of the key
    /// picks the one name to compare, a word at a time, as cheap as the per-struct
    /// `match` it replaces (callgrind: ~15 instructions a key).
    #[inline(never)]
    pub fn index(&self, key: &str) -> Option<usize> {
        let key = key.as_bytes();
        if self.slots.is_empty() {
            return self.scan(key);
        }
        let slot = key_slot(key, self.seed, self.slots.len());
        let at = usize::from(*self.slots.get(slot)?);
        self.entry_index(at.checked_sub(1)?, key)
    }

    /// Every entry compared in turn: the layout without slots.
    #[cold]
    fn scan(&self, key: &[u8]) -> Option<usize> {
        let mut at = 0;
        while let Some(&len) = self.table.get(at) {
            if let Some(index) = self.entry_index(at, key) {
                return Some(index);
            }
            at += usize::from(len) + 3;
        }
        None
    }

    /// The field index of the entry at `at` when its name is `key`.
    #[inline(always)]
    fn entry_index(&self, at: usize, key: &[u8]) -> Option<usize> {
        let len = key.len();
        if usize::from(*self.table.get(at)?) != len {
            return None;
        }
        let name = self.table.get(at + 1..at + 1 + len)?;
        if !same_bytes(name, key) {
            return None;
        }
        match self.table.get(at + 1 + len..at + 3 + len)? {
            [lo, hi] => Some(usize::from(u16::from_le_bytes([*lo, *hi]))),
            _ => None,
        }
    }
}

/// The slot of `key` in a table of `slots` slots hashed with `seed`: its length, first,
/// middle and last bytes in one word, multiplied by `seed`, scaled to `0..slots`.
/// `apimachinery-derive` computes the same function when it lays out a struct's slots
/// (its tests pin the same values as these).
#[doc(hidden)]
#[inline(always)]
pub fn key_slot(key: &[u8], seed: u32, slots: usize) -> usize {
    let len = key.len();
    let byte = |at: Option<&u8>| u32::from(at.copied().unwrap_or(0));
    let word = (len as u32 & 0xff)
        | byte(key.first()) << 8
        | byte(key.get(len / 2)) << 16
        | byte(key.last()) << 24;
    let hash = word.wrapping_mul(seed);
    let hash = hash ^ (hash >> 15);
    ((u64::from(hash) * slots as u64) >> 32) as usize
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

/// Reads an object key as `Some(index)` of the field it names, `None` for a key the
/// struct does not have (ignored, as Go ignores it).
#[derive(Clone, Copy)]
pub struct FieldIndex(pub &'static FieldNames);

impl<'de> DeserializeSeed<'de> for FieldIndex {
    type Value = Option<usize>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for FieldIndex {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(self.0.index(v))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Self::Value, E> {
        // Keys that are not UTF-8 name no field.
        Ok(std::str::from_utf8(v)
            .ok()
            .and_then(|key| self.0.index(key)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::value::{BytesDeserializer, Error, StrDeserializer};

    /// The table of `names` (field index = position) as the derive lays it out: slots
    /// by the first seed that gives every name a slot of its own, or none.
    fn table(names: &[&str], slots: usize) -> FieldNames {
        let mut table = Vec::new();
        let mut offsets = Vec::new();
        for (index, name) in names.iter().enumerate() {
            offsets.push(table.len());
            table.push(u8::try_from(name.len()).unwrap());
            table.extend_from_slice(name.as_bytes());
            table.extend_from_slice(&u16::try_from(index).unwrap().to_le_bytes());
        }
        let table: &'static [u8] = Box::leak(table.into_boxed_slice());
        if slots == 0 {
            return FieldNames::new(table, &[], 0);
        }
        for seed in (1..10_000u32).map(|i| i.wrapping_mul(0x9E37_79B1) | 1) {
            let mut taken = vec![0u16; slots];
            let free = names.iter().zip(&offsets).all(|(name, at)| {
                let slot = &mut taken[key_slot(name.as_bytes(), seed, slots)];
                let was_free = *slot == 0;
                *slot = u16::try_from(at + 1).unwrap();
                was_free
            });
            if free {
                return FieldNames::new(table, Box::leak(taken.into_boxed_slice()), seed);
            }
        }
        panic!("no seed for {names:?}");
    }

    static NAMES: FieldNames = FieldNames::new(b"\x04name\x00\x00\x0aapiVersion\x01\x00", &[], 0);

    #[test]
    fn every_name_is_found_by_its_slot_or_by_the_scan() {
        let names = [
            "kind",
            "apiVersion",
            "metadata",
            "spec",
            "status",
            "a",
            "bb",
            "cc",
            "dd",
            "",
            "containers",
            "initContainers",
            "nodeName",
            "nodeSelector",
            "x".repeat(40).leak(),
        ];
        for slots in [0, 2 * names.len(), 3 * names.len(), 5 * names.len()] {
            let names_table = table(&names, slots);
            for (index, name) in names.iter().enumerate() {
                assert_eq!(
                    names_table.index(name),
                    Some(index),
                    "{name:?} in {slots} slots"
                );
            }
            for missing in ["b", "ab", "ccc", "Kind", "apiversion", "specs", "node", "x"] {
                assert_eq!(
                    names_table.index(missing),
                    None,
                    "{missing:?} in {slots} slots"
                );
            }
        }
    }

    #[test]
    fn the_slot_function_is_the_one_the_derive_computes() {
        // The same values are pinned in apimachinery-derive's tests.
        assert_eq!(key_slot(b"apiVersion", 0x9E37_79B1, 1000), PINNED[0]);
        assert_eq!(key_slot(b"", 7, 10), PINNED[1]);
        assert_eq!(key_slot(b"x", u32::MAX, 3), PINNED[2]);
    }

    const PINNED: [usize; 3] = [445, 0, 1];

    #[test]
    fn a_table_out_of_shape_never_panics() {
        static BROKEN: [FieldNames; 5] = [
            // Slots past the table.
            FieldNames::new(b"\x02ab\x00\x00", &[9, 12, 40], 5),
            // An entry cut short.
            FieldNames::new(b"\x02ab\x00", &[1, 1, 1], 5),
            // A length past the table, scanned.
            FieldNames::new(b"\xffab", &[], 0),
            // Nothing at all.
            FieldNames::new(b"", &[], 0),
            FieldNames::new(b"", &[1, 2], 0),
        ];
        for names in &BROKEN {
            for key in ["", "a", "ab", "abc", "abcdefgh", "abcdefghijklmnopq"] {
                assert_eq!(names.index(key), None, "{names:?} {key:?}");
            }
        }
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
        let read = |key: &str| FieldIndex(&NAMES).deserialize(StrDeserializer::<Error>::new(key));
        assert_eq!(read("name"), Ok(Some(0)));
        assert_eq!(read("apiVersion"), Ok(Some(1)));
        assert_eq!(read("Name"), Ok(None), "keys match exactly");
        assert_eq!(read(""), Ok(None));
    }

    #[test]
    fn byte_keys_are_read_as_text() {
        let read =
            |key: &[u8]| FieldIndex(&NAMES).deserialize(BytesDeserializer::<Error>::new(key));
        assert_eq!(read(b"name"), Ok(Some(0)));
        assert_eq!(read(b"\xff"), Ok(None));
    }
}
