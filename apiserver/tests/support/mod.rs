//! Backends for the storage tests, each with what must live as long as the test (a
//! temporary directory, an etcd process).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::any::Any;
use std::sync::Arc;

use apiserver::storage::{MemoryStorage, Storage};

/// What a test holds until it ends: dropping it removes the backend's resources.
pub type Guard = Box<dyn Any + Send>;

/// A fresh in-memory store.
pub async fn memory() -> Option<(Arc<dyn Storage>, Guard)> {
    Some((Arc::new(MemoryStorage::new()), Box::new(())))
}
