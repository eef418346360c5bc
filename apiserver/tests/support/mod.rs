//! Backends for the storage tests, each with what must live as long as the test (a
//! temporary directory, an etcd process).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::any::Any;
use std::sync::Arc;

use apiserver::storage::{MemoryStorage, RedbStorage, Storage};

/// What a test holds until it ends: dropping it removes the backend's resources.
pub type Guard = Box<dyn Any + Send>;

/// A fresh in-memory store.
pub async fn memory() -> Option<(Arc<dyn Storage>, Guard)> {
    Some((Arc::new(MemoryStorage::new()), Box::new(())))
}

/// A directory removed when dropped.
pub struct TempDir(pub std::path::PathBuf);

impl TempDir {
    /// A new empty directory under the system's temporary directory.
    pub fn new(name: &str) -> TempDir {
        static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let unique = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "apiserver-test-{}-{name}-{unique}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh redb store in a temporary directory.
pub async fn redb() -> Option<(Arc<dyn Storage>, Guard)> {
    let dir = TempDir::new("redb");
    let store = RedbStorage::open(dir.0.join("data.redb")).unwrap();
    Some((Arc::new(store), Box::new(dir)))
}
