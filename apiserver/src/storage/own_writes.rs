//! The revisions of a storage's own writes under the key prefixes someone follows.
//!
//! A reader that keeps its own copy of some keys from a watch (RBAC's index) must know,
//! before answering, that the copy holds every write acknowledged so far. Asking the
//! store for its current revision costs a round trip to etcd per question, and waiting
//! for the watch to reach that revision needs a watch of every key (etcd then sends each
//! write to that watcher too). What the reader can learn locally instead is the newest
//! write this process made under the prefixes it watches: once its watch has delivered
//! that revision, every write made through this server is in its copy. Writes made by
//! other processes on the same etcd arrive as their events do, as with Go's informers.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, RwLock};

use super::Revision;

/// The newest revision written under each followed prefix, shared by a backend and its
/// clones. Backends call [`record`](Self::record) after every successful write.
#[derive(Debug, Default)]
pub struct OwnWrites {
    followed: RwLock<Vec<(String, Arc<AtomicI64>)>>,
}

impl OwnWrites {
    /// The counter of `prefix`: 0 until a write under it is recorded, then the newest
    /// such write's revision. Following the same prefix twice shares one counter.
    pub fn follow(&self, prefix: &str) -> Arc<AtomicI64> {
        let mut followed = self.followed.write().unwrap_or_else(|e| e.into_inner());
        if let Some((_, counter)) = followed.iter().find(|(p, _)| p == prefix) {
            return counter.clone();
        }
        let counter = Arc::new(AtomicI64::new(0));
        followed.push((prefix.to_owned(), counter.clone()));
        counter
    }

    /// Notes that `key` was written (created, replaced or deleted) at `revision`.
    pub fn record(&self, key: &str, revision: Revision) {
        let followed = self.followed.read().unwrap_or_else(|e| e.into_inner());
        for (prefix, counter) in followed.iter() {
            if key.starts_with(prefix.as_str()) {
                counter.fetch_max(revision, Ordering::AcqRel);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_writes_under_a_followed_prefix_move_its_counter_and_never_back() {
        let writes = OwnWrites::default();
        writes.record("/registry/roles/a/b", 3);
        let roles = writes.follow("/registry/roles/");
        let again = writes.follow("/registry/roles/");
        let pods = writes.follow("/registry/pods/");
        assert_eq!(
            roles.load(Ordering::Acquire),
            0,
            "earlier writes are not counted"
        );
        writes.record("/registry/roles/a/b", 7);
        writes.record("/registry/rolebindings/a/b", 9);
        writes.record("/registry/roles/a/c", 5);
        assert_eq!(roles.load(Ordering::Acquire), 7);
        assert_eq!(again.load(Ordering::Acquire), 7);
        assert_eq!(pods.load(Ordering::Acquire), 0);
    }
}
