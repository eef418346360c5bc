//! Looking a [`GroupVersionKind`] key up by borrowed strings.
//!
//! Decoding reads an object's `apiVersion` and `kind` as slices of the input; building a
//! `GroupVersionKind` from them to probe the scheme's map would allocate each name, on
//! every decode. A std `HashMap` can be probed with any type its key borrows as, so the
//! key borrows as `dyn GvkParts`, which both the key and a `(group, version, kind)` tuple
//! of slices implement, hashing and comparing exactly as the key does.

use std::borrow::Borrow;
use std::hash::{Hash, Hasher};

use crate::schema::GroupVersionKind;

/// A group, version and kind, however they are held.
pub(crate) trait GvkParts {
    /// The group, version and kind.
    fn parts(&self) -> (&str, &str, &str);
}

impl GvkParts for GroupVersionKind {
    fn parts(&self) -> (&str, &str, &str) {
        (&self.group, &self.version, &self.kind)
    }
}

impl GvkParts for (&str, &str, &str) {
    fn parts(&self) -> (&str, &str, &str) {
        *self
    }
}

impl<'a> Borrow<dyn GvkParts + 'a> for GroupVersionKind {
    fn borrow(&self) -> &(dyn GvkParts + 'a) {
        self
    }
}

/// Must hash as `GroupVersionKind`'s derived `Hash` does: its three names in order, each
/// hashed as its `str`.
impl Hash for dyn GvkParts + '_ {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let (group, version, kind) = self.parts();
        group.hash(state);
        version.hash(state);
        kind.hash(state);
    }
}

impl PartialEq for dyn GvkParts + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.parts() == other.parts()
    }
}

impl Eq for dyn GvkParts + '_ {}

#[cfg(test)]
mod tests {
    use std::hash::BuildHasher;

    use super::*;
    use crate::fx_hash::{FxBuildHasher, FxHashMap};

    #[test]
    fn borrowed_parts_hash_and_compare_as_the_key() {
        let hasher = FxBuildHasher::default();
        let mut map = FxHashMap::default();
        let keys = [
            GroupVersionKind::new("apps", "v1", "Deployment"),
            GroupVersionKind::new("", "v1", "Pod"),
            GroupVersionKind::new("", "", ""),
            // Same letters split differently must stay apart.
            GroupVersionKind::new("a", "pps", "v1Deployment"),
        ];
        for (i, gvk) in keys.iter().enumerate() {
            map.insert(gvk.clone(), i);
        }
        for (i, gvk) in keys.iter().enumerate() {
            let (g, v, k) = gvk.parts();
            let parts: &dyn GvkParts = &(g, v, k);
            assert_eq!(hasher.hash_one(parts), hasher.hash_one(gvk), "{gvk}");
            assert_eq!(map.get(parts), Some(&i), "{gvk}");
        }
        let missing: &dyn GvkParts = &("apps", "v1", "Pod");
        assert_eq!(map.get(missing), None);
    }
}
