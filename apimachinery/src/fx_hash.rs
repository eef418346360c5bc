//! The hasher of the scheme's and the converter's maps: rustc's FxHash, a
//! multiply-rotate over 8-byte words.
//!
//! SipHash, std's default, resists hash flooding by untrusted keys at ~3× the cost on
//! the short keys looked up on every decode, encode and conversion (a group, version and
//! kind; a `TypeId` or a pair of them). These keys come from code (registrations), not
//! from input, so the flooding defence buys nothing here; a lookup by a kind read from a
//! document only probes the table, and cannot grow it.

use std::hash::{BuildHasherDefault, Hasher};

/// Builds [`FxHasher`]s, for `HashMap<K, V, FxBuildHasher>`.
pub(crate) type FxBuildHasher = BuildHasherDefault<FxHasher>;

/// A std `HashMap` hashed with [`FxHasher`].
pub(crate) type FxHashMap<K, V> = std::collections::HashMap<K, V, FxBuildHasher>;

/// FxHash: each word is mixed into the state by a rotate, xor and multiply.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FxHasher {
    hash: u64,
}

/// rustc's multiplier: odd, with well-spread bits.
const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            // Built in a register: a short copy to memory read back as a word would stall
            // the store forwarding, and names are mostly tails (`v1`, `apps`).
            let word = rest
                .iter()
                .rev()
                .fold(0u64, |word, &b| (word << 8) | u64::from(b));
            self.add(word);
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.add(i as u64);
        self.add((i >> 64) as u64);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // The multiply leaves the best-mixed bits at the top; hashbrown picks buckets with
        // the low bits, so rotate them down (as rustc-hash 2 does).
        self.hash.rotate_left(26)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::hash::{BuildHasher, Hash};

    use super::*;
    use crate::schema::GroupVersionKind;

    fn hash<T: Hash>(value: &T) -> u64 {
        FxBuildHasher::default().hash_one(value)
    }

    #[test]
    fn equal_keys_hash_equal_and_near_keys_apart() {
        let a = GroupVersionKind::new("apps", "v1", "Deployment");
        assert_eq!(hash(&a), hash(&a.clone()));
        // Every registered-kind-like key of a large scheme lands in its own bucket of a
        // table twice its size (low bits), or nearly so.
        let mut keys = Vec::new();
        for g in 0..100 {
            for v in ["v1", "v1beta1", "v2"] {
                for k in ["Deployment", "DeploymentList", "Pod"] {
                    keys.push(GroupVersionKind::new(format!("group{g}.example.com"), v, k));
                }
            }
        }
        let buckets: HashSet<u64> = keys.iter().map(|k| hash(k) & 2047).collect();
        assert!(
            buckets.len() > keys.len() * 3 / 4,
            "{} of {}",
            buckets.len(),
            keys.len()
        );
        let full: HashSet<u64> = keys.iter().map(hash).collect();
        assert_eq!(full.len(), keys.len());
    }

    #[test]
    fn byte_tails_count() {
        let mut short = FxHasher::default();
        short.write(b"abcdefgh");
        let mut long = FxHasher::default();
        long.write(b"abcdefghi");
        assert_ne!(short.finish(), long.finish());
    }
}
