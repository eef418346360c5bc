//! [`NameIndex`]: names with the index of their last occurrence, in name order. Go
//! keys such lists by name in a `map[string]int`; ours was a `BTreeMap<&str, usize>`
//! (and a `HashMap` in one place), each a std map compiled for its own key and value
//! types (insertion, removal, iteration, drop: thousands of IR lines) for checks that
//! run once per write on lists of a few entries. A sorted `Vec` gives the same answers
//! and order with code k8s-types compiles anyway.

/// Names and the index each last had, sorted by name (as a `BTreeMap<&str, usize>`
/// built by the same insertions would iterate).
#[derive(Debug, Default)]
pub(crate) struct NameIndex<'a>(Vec<(&'a str, usize)>);

impl<'a> NameIndex<'a> {
    /// No name.
    pub(crate) fn new() -> Self {
        NameIndex(Vec::new())
    }

    /// Where `name` is, or where it would go.
    fn find(&self, name: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(n, _)| (*n).cmp(name))
    }

    /// Sets `name`'s index, replacing the one it had.
    pub(crate) fn insert(&mut self, name: &'a str, index: usize) {
        match self.find(name) {
            Ok(at) => {
                if let Some(entry) = self.0.get_mut(at) {
                    entry.1 = index;
                }
            }
            Err(at) => self.0.insert(at, (name, index)),
        }
    }

    /// The index `name` has, if it is there.
    pub(crate) fn get(&self, name: &str) -> Option<usize> {
        let at = self.find(name).ok()?;
        self.0.get(at).map(|(_, i)| *i)
    }

    /// Whether `name` is there.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.find(name).is_ok()
    }

    /// Takes `name` out, if it is there.
    pub(crate) fn remove(&mut self, name: &str) {
        if let Ok(at) = self.find(name) {
            self.0.remove(at);
        }
    }

    /// The names and their indices, in name order.
    pub(crate) fn into_entries(self) -> Vec<(&'a str, usize)> {
        self.0
    }
}

impl<'a> FromIterator<(&'a str, usize)> for NameIndex<'a> {
    /// The pairs inserted in order: a repeated name keeps its last index.
    fn from_iter<I: IntoIterator<Item = (&'a str, usize)>>(pairs: I) -> Self {
        let mut index = NameIndex::new();
        for (name, i) in pairs {
            index.insert(name, i);
        }
        index
    }
}
