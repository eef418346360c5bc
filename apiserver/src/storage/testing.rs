//! Test support: a memory storage whose watch streams a test reshapes, to play a backend
//! that behaves differently (etcd's watches without previous values, watches that end
//! early) without a backend of its own.

use bytes::Bytes;

use super::{
    Deleted, KeyValue, ListOptions, ListResult, MemoryStorage, Revision, Storage, StorageError,
    WatchStream,
};

/// A [`MemoryStorage`] whose watches pass through `reshape`, told whether the watch was
/// asked without previous values.
#[derive(Debug)]
pub(crate) struct ReshapedWatches {
    inner: MemoryStorage,
    reshape: fn(WatchStream, bool) -> WatchStream,
    /// The prefix of every watch asked for, in order.
    pub(crate) watched: std::sync::Mutex<Vec<String>>,
    /// How many times `current_revision` was asked.
    pub(crate) revision_reads: std::sync::atomic::AtomicUsize,
    /// What `opened_at` answers (a memory storage's is `None`).
    pub(crate) opened_at: Option<Revision>,
}

impl ReshapedWatches {
    pub(crate) fn new(reshape: fn(WatchStream, bool) -> WatchStream) -> Self {
        ReshapedWatches {
            inner: MemoryStorage::new(),
            reshape,
            watched: Default::default(),
            revision_reads: Default::default(),
            opened_at: None,
        }
    }
}

impl ReshapedWatches {
    fn note_watch(&self, prefix: &str) {
        self.watched
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(prefix.to_owned());
    }
}

#[async_trait::async_trait]
impl Storage for ReshapedWatches {
    async fn get(&self, key: &str) -> Result<Option<KeyValue>, StorageError> {
        self.inner.get(key).await
    }
    async fn list(&self, prefix: &str, options: &ListOptions) -> Result<ListResult, StorageError> {
        self.inner.list(prefix, options).await
    }
    async fn create(&self, key: &str, value: Bytes) -> Result<KeyValue, StorageError> {
        self.inner.create(key, value).await
    }
    async fn update(
        &self,
        key: &str,
        value: Bytes,
        expected: Revision,
    ) -> Result<KeyValue, StorageError> {
        self.inner.update(key, value, expected).await
    }
    async fn delete(&self, key: &str, expected: Option<Revision>) -> Result<Deleted, StorageError> {
        self.inner.delete(key, expected).await
    }
    async fn update_at(
        &self,
        key: &str,
        value: Bytes,
        expected: Revision,
    ) -> Result<Revision, StorageError> {
        self.inner.update_at(key, value, expected).await
    }
    async fn delete_at(&self, key: &str, expected: Revision) -> Result<Revision, StorageError> {
        self.inner.delete_at(key, expected).await
    }
    async fn watch(&self, prefix: &str, from: Revision) -> Result<WatchStream, StorageError> {
        self.note_watch(prefix);
        Ok((self.reshape)(self.inner.watch(prefix, from).await?, false))
    }
    async fn watch_without_prev(
        &self,
        prefix: &str,
        from: Revision,
    ) -> Result<WatchStream, StorageError> {
        self.note_watch(prefix);
        Ok((self.reshape)(self.inner.watch(prefix, from).await?, true))
    }
    async fn current_revision(&self) -> Result<Revision, StorageError> {
        self.revision_reads
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.current_revision().await
    }
    fn opened_at(&self) -> Option<Revision> {
        self.opened_at
    }
    fn follow_own_writes(&self, prefix: &str) -> std::sync::Arc<std::sync::atomic::AtomicI64> {
        self.inner.follow_own_writes(prefix)
    }
    async fn compact(&self, revision: Revision) -> Result<(), StorageError> {
        self.inner.compact(revision).await
    }
}
