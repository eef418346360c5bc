//! [`MemoryStorage`]: the whole store in process memory, with etcd's multi-version model
//! (for tests, and `kapi serve` without a data directory).
//!
//! Every key keeps its versions since the last compaction (a deletion is a version
//! without a value, as etcd's tombstones), so a list can read any revision still in the
//! history; every write is also appended to an event log, which a watch from an older
//! revision replays before its live events.
//!
//! History is bounded by revisions, not time: the store keeps the last
//! `history_limit` revisions and compacts the older ones as it writes. A count bounds the
//! memory held whatever the write rate (a time window does not under a burst of writes),
//! and makes behaviour in tests deterministic. kube-apiserver compacts etcd every five
//! minutes; at the default of 10,000 revisions that is about 33 writes a second, more
//! than a test or a single-user server makes, and a client whose revision was compacted
//! gets `410 Expired` and relists, as it would against etcd.

use std::collections::{BTreeMap, VecDeque};
use std::ops::Bound;
use std::sync::atomic::AtomicI64;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use bytes::Bytes;

use super::fanout::{DEFAULT_WATCH_BUFFER, Fanout};
use super::validation::{check_compaction, check_key, check_list, check_revision};
use super::{
    Deleted, KeyValue, ListOptions, ListResult, OwnWrites, Revision, Storage, StorageError,
    WatchEvent, WatchStream,
};

/// How many revisions [`MemoryStorage::new`] keeps.
pub const DEFAULT_HISTORY_LIMIT: usize = 10_000;

/// A [`Storage`] held in memory: thread-safe, usable from any tokio runtime (no operation
/// blocks or awaits anything but a short lock), lost when dropped.
///
/// ```
/// use apiserver::storage::{ListOptions, MemoryStorage, Storage};
/// use bytes::Bytes;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let store = MemoryStorage::new();
/// let created = store
///     .create("/registry/pods/default/web", Bytes::from_static(b"v1"))
///     .await?;
/// // A compare-and-swap on the revision the caller read.
/// store
///     .update("/registry/pods/default/web", Bytes::from_static(b"v2"), created.mod_revision)
///     .await?;
/// // The old value is still readable at its revision.
/// let old = ListOptions { revision: created.mod_revision, ..Default::default() };
/// let listed = store.list("/registry/pods/", &old).await?;
/// assert_eq!(listed.kvs[0].value, Bytes::from_static(b"v1"));
/// # Ok::<(), apiserver::storage::StorageError>(())
/// # }).unwrap();
/// ```
pub struct MemoryStorage {
    state: Mutex<State>,
}

impl std::fmt::Debug for MemoryStorage {
    // The numbers, not the contents: a store's Debug output ends up in logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.lock();
        f.debug_struct("MemoryStorage")
            .field("revision", &state.revision)
            .field("compacted", &state.compacted)
            .field("keys", &state.keys.len())
            .field("history_limit", &state.history_limit)
            .finish()
    }
}

/// One version of a key: its value from `revision` on, or its deletion (`kv: None`).
#[derive(Clone, Debug)]
struct Version {
    revision: Revision,
    kv: Option<KeyValue>,
}

#[derive(Debug)]
struct State {
    /// The revision of the last write.
    revision: Revision,
    /// The revision of the last compaction: reads below it fail.
    compacted: Revision,
    /// At least 1; `usize` limits beyond `Revision::MAX` are `Revision::MAX`.
    history_limit: Revision,
    /// Every key with its versions in revision order, those at or before `compacted`
    /// reduced to the one still visible at `compacted`.
    keys: BTreeMap<String, Vec<Version>>,
    /// One event per write after `compacted`, in revision order.
    events: VecDeque<(String, WatchEvent)>,
    fanout: Fanout,
    own_writes: OwnWrites,
}

impl Default for MemoryStorage {
    fn default() -> Self {
        MemoryStorage::new()
    }
}

impl MemoryStorage {
    /// An empty store keeping the last [`DEFAULT_HISTORY_LIMIT`] revisions.
    pub fn new() -> Self {
        MemoryStorage::with_history_limit(DEFAULT_HISTORY_LIMIT)
    }

    /// An empty store keeping the last `history_limit` revisions (at least 1): lists and
    /// watches at older revisions fail with [`StorageError::Compacted`].
    pub fn with_history_limit(history_limit: usize) -> Self {
        MemoryStorage::with_limits(history_limit, DEFAULT_WATCH_BUFFER)
    }

    /// An empty store keeping the last `history_limit` revisions, whose watchers may fall
    /// `watch_buffer` events behind (at least 1) before their stream is ended with an
    /// error.
    pub fn with_limits(history_limit: usize, watch_buffer: usize) -> Self {
        MemoryStorage {
            state: Mutex::new(State {
                revision: 0,
                compacted: 0,
                history_limit: Revision::try_from(history_limit)
                    .unwrap_or(Revision::MAX)
                    .max(1),
                keys: BTreeMap::new(),
                events: VecDeque::new(),
                fanout: Fanout::new("memory".to_owned(), watch_buffer),
                own_writes: OwnWrites::default(),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // No code panics while holding the lock, and the state is consistent between
        // statements that could; a poisoned lock is still a usable store.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl State {
    fn current(&self, key: &str) -> Option<&KeyValue> {
        self.keys
            .get(key)
            .and_then(|versions| versions.last())
            .and_then(|version| version.kv.as_ref())
    }

    /// Records a write at the next revision: the key's new version, the event, the
    /// watchers, then the automatic compaction.
    fn write(&mut self, key: &str, kv: Option<KeyValue>, event: WatchEvent) {
        let revision = event.revision();
        self.revision = revision;
        self.keys
            .entry(key.to_owned())
            .or_default()
            .push(Version { revision, kv });
        self.own_writes.record(key, revision);
        self.fanout.publish(key, &event);
        self.events.push_back((key.to_owned(), event));
        let keep_from = self.revision.saturating_sub(self.history_limit);
        if keep_from > self.compacted {
            self.compact_to(keep_from);
        }
    }

    fn check_read_revision(&self, revision: Revision) -> Result<(), StorageError> {
        if revision > self.revision {
            return Err(StorageError::FutureRevision {
                requested: revision,
                current: self.revision,
            });
        }
        if revision < self.compacted {
            return Err(StorageError::Compacted {
                requested: revision,
                compacted: self.compacted,
            });
        }
        Ok(())
    }

    /// Forgets everything not visible at `revision` or later. Only keys written at or
    /// before `revision` can have versions to drop, and the event log names them, so the
    /// cost is that of the writes forgotten, not of the store.
    fn compact_to(&mut self, revision: Revision) {
        self.compacted = revision;
        while let Some((_, event)) = self.events.front() {
            if event.revision() > revision {
                break;
            }
            let Some((key, _)) = self.events.pop_front() else {
                break;
            };
            let Some(versions) = self.keys.get_mut(&key) else {
                continue;
            };
            let visible = versions.partition_point(|version| version.revision <= revision);
            if visible == 0 {
                continue;
            }
            versions.drain(..visible - 1);
            if versions.first().is_some_and(|version| version.kv.is_none()) {
                versions.remove(0);
            }
            if versions.is_empty() {
                self.keys.remove(&key);
            }
        }
    }
}

/// The version of `versions` visible at `revision`.
fn at_revision(versions: &[Version], revision: Revision) -> Option<&KeyValue> {
    let visible = versions.partition_point(|version| version.revision <= revision);
    visible
        .checked_sub(1)
        .and_then(|index| versions.get(index))
        .and_then(|version| version.kv.as_ref())
}

#[async_trait::async_trait]
impl Storage for MemoryStorage {
    async fn get(&self, key: &str) -> Result<Option<KeyValue>, StorageError> {
        check_key(key)?;
        Ok(self.lock().current(key).cloned())
    }

    async fn list(&self, prefix: &str, options: &ListOptions) -> Result<ListResult, StorageError> {
        let start = check_list(prefix, options)?;
        let state = self.lock();
        let revision = if options.revision == 0 {
            state.revision
        } else {
            state.check_read_revision(options.revision)?;
            options.revision
        };
        let mut result = ListResult {
            kvs: Vec::new(),
            revision,
            remaining: 0,
        };
        let range = state
            .keys
            .range::<str, _>((Bound::Included(start), Bound::Unbounded))
            .take_while(|(key, _)| key.starts_with(prefix));
        for (_, versions) in range {
            let Some(kv) = at_revision(versions, revision) else {
                continue;
            };
            if options.limit == 0 || result.kvs.len() < options.limit {
                result.kvs.push(kv.clone());
            } else {
                result.remaining += 1;
            }
        }
        Ok(result)
    }

    async fn create(&self, key: &str, value: Bytes) -> Result<KeyValue, StorageError> {
        check_key(key)?;
        let mut state = self.lock();
        if state.current(key).is_some() {
            return Err(StorageError::KeyExists {
                key: key.to_owned(),
            });
        }
        let revision = state.revision + 1;
        let kv = KeyValue {
            key: key.to_owned(),
            value,
            create_revision: revision,
            mod_revision: revision,
        };
        let event = WatchEvent::Put {
            kv: kv.clone(),
            prev: None,
        };
        state.write(key, Some(kv.clone()), event);
        Ok(kv)
    }

    async fn update(
        &self,
        key: &str,
        value: Bytes,
        expected: Revision,
    ) -> Result<KeyValue, StorageError> {
        check_key(key)?;
        let mut state = self.lock();
        let Some(current) = state.current(key) else {
            return Err(StorageError::KeyNotFound {
                key: key.to_owned(),
            });
        };
        if current.mod_revision != expected {
            return Err(StorageError::Conflict {
                key: key.to_owned(),
                expected,
                current: Box::new(current.clone()),
            });
        }
        let prev = current.clone();
        let revision = state.revision + 1;
        let kv = KeyValue {
            key: key.to_owned(),
            value,
            create_revision: prev.create_revision,
            mod_revision: revision,
        };
        let event = WatchEvent::Put {
            kv: kv.clone(),
            prev: Some(prev),
        };
        state.write(key, Some(kv.clone()), event);
        Ok(kv)
    }

    async fn delete(&self, key: &str, expected: Option<Revision>) -> Result<Deleted, StorageError> {
        check_key(key)?;
        let mut state = self.lock();
        let Some(current) = state.current(key) else {
            return Err(StorageError::KeyNotFound {
                key: key.to_owned(),
            });
        };
        if let Some(expected) = expected
            && current.mod_revision != expected
        {
            return Err(StorageError::Conflict {
                key: key.to_owned(),
                expected,
                current: Box::new(current.clone()),
            });
        }
        let prev = current.clone();
        let revision = state.revision + 1;
        let event = WatchEvent::Delete {
            key: key.to_owned(),
            prev: Some(prev.clone()),
            revision,
        };
        state.write(key, None, event);
        Ok(Deleted { prev, revision })
    }

    async fn watch(&self, prefix: &str, from: Revision) -> Result<WatchStream, StorageError> {
        check_revision("watch", from)?;
        let mut state = self.lock();
        let from = if from == 0 { state.revision } else { from };
        if from < state.compacted {
            return Err(StorageError::Compacted {
                requested: from,
                compacted: state.compacted,
            });
        }
        // The log is in revision order: skip to the first event after `from`.
        let first = state
            .events
            .partition_point(|(_, event)| event.revision() <= from);
        let replay = state
            .events
            .range(first..)
            .filter(|(key, _)| key.starts_with(prefix))
            .map(|(_, event)| event.clone())
            .collect();
        Ok(state.fanout.register(prefix, from, replay))
    }

    async fn current_revision(&self) -> Result<Revision, StorageError> {
        Ok(self.lock().revision)
    }

    fn follow_own_writes(&self, prefix: &str) -> Arc<AtomicI64> {
        self.lock().own_writes.follow(prefix)
    }

    async fn compact(&self, revision: Revision) -> Result<(), StorageError> {
        check_compaction(revision)?;
        let mut state = self.lock();
        if revision > state.revision {
            return Err(StorageError::FutureRevision {
                requested: revision,
                current: state.revision,
            });
        }
        if revision <= state.compacted {
            return Err(StorageError::Compacted {
                requested: revision,
                compacted: state.compacted,
            });
        }
        state.compact_to(revision);
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use futures_util::StreamExt;

    fn b(value: &str) -> Bytes {
        Bytes::copy_from_slice(value.as_bytes())
    }

    fn at(revision: Revision) -> ListOptions {
        ListOptions {
            revision,
            ..Default::default()
        }
    }

    #[tokio::test]
    async fn writes_take_consecutive_revisions() {
        let store = MemoryStorage::new();
        let a = store.create("/r/a", b("1")).await.unwrap();
        assert_eq!((a.create_revision, a.mod_revision), (1, 1));
        let a2 = store.update("/r/a", b("2"), 1).await.unwrap();
        assert_eq!((a2.create_revision, a2.mod_revision), (1, 2));
        let deleted = store.delete("/r/a", None).await.unwrap();
        assert_eq!(deleted.revision, 3);
        assert_eq!(deleted.prev, a2);
        assert_eq!(store.current_revision().await.unwrap(), 3);
        // Recreated: a new create_revision.
        let a3 = store.create("/r/a", b("3")).await.unwrap();
        assert_eq!((a3.create_revision, a3.mod_revision), (4, 4));
    }

    #[tokio::test]
    async fn failed_writes_take_no_revision() {
        let store = MemoryStorage::new();
        store.create("/r/a", b("1")).await.unwrap();
        assert!(matches!(
            store.create("/r/a", b("x")).await,
            Err(StorageError::KeyExists { key }) if key == "/r/a"
        ));
        match store.update("/r/a", b("x"), 7).await {
            Err(StorageError::Conflict {
                expected, current, ..
            }) => {
                assert_eq!(expected, 7);
                assert_eq!(current.value, b("1"));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            store.update("/r/b", b("x"), 1).await,
            Err(StorageError::KeyNotFound { .. })
        ));
        assert!(matches!(
            store.delete("/r/a", Some(9)).await,
            Err(StorageError::Conflict { .. })
        ));
        assert_eq!(store.current_revision().await.unwrap(), 1);
    }

    #[tokio::test]
    async fn list_reads_old_revisions_including_deleted_keys() {
        let store = MemoryStorage::new();
        store.create("/r/a", b("a1")).await.unwrap(); // 1
        store.create("/r/b", b("b1")).await.unwrap(); // 2
        store.update("/r/a", b("a2"), 1).await.unwrap(); // 3
        store.delete("/r/b", None).await.unwrap(); // 4
        let values = |result: ListResult| {
            result
                .kvs
                .into_iter()
                .map(|kv| kv.value)
                .collect::<Vec<_>>()
        };
        assert_eq!(values(store.list("/r/", &at(1)).await.unwrap()), [b("a1")]);
        assert_eq!(
            values(store.list("/r/", &at(2)).await.unwrap()),
            [b("a1"), b("b1")]
        );
        assert_eq!(
            values(store.list("/r/", &at(3)).await.unwrap()),
            [b("a2"), b("b1")]
        );
        assert_eq!(values(store.list("/r/", &at(0)).await.unwrap()), [b("a2")]);
        assert!(matches!(
            store.list("/r/", &at(5)).await,
            Err(StorageError::FutureRevision {
                requested: 5,
                current: 4
            })
        ));
    }

    #[tokio::test]
    async fn compaction_keeps_what_is_visible_at_its_revision() {
        let store = MemoryStorage::new();
        store.create("/r/a", b("a1")).await.unwrap(); // 1
        store.create("/r/b", b("b1")).await.unwrap(); // 2
        store.update("/r/a", b("a2"), 1).await.unwrap(); // 3
        store.delete("/r/b", None).await.unwrap(); // 4
        store.create("/r/c", b("c1")).await.unwrap(); // 5
        store.compact(3).await.unwrap();
        assert!(matches!(
            store.list("/r/", &at(2)).await,
            Err(StorageError::Compacted {
                requested: 2,
                compacted: 3
            })
        ));
        let at3 = store.list("/r/", &at(3)).await.unwrap();
        assert_eq!(at3.kvs.len(), 2);
        store.compact(4).await.unwrap();
        {
            let state = store.lock();
            // b's tombstone is gone, a keeps one version, c is untouched.
            assert!(!state.keys.contains_key("/r/b"));
            assert_eq!(state.keys["/r/a"].len(), 1);
            assert_eq!(state.events.len(), 1);
        }
        assert!(matches!(
            store.compact(4).await,
            Err(StorageError::Compacted { .. })
        ));
        assert!(matches!(
            store.compact(6).await,
            Err(StorageError::FutureRevision { .. })
        ));
        assert!(matches!(
            store.watch("/r/", 2).await,
            Err(StorageError::Compacted { .. })
        ));
        assert_eq!(store.get("/r/a").await.unwrap().unwrap().value, b("a2"));
    }

    #[tokio::test]
    async fn history_is_bounded_by_the_limit() {
        let store = MemoryStorage::with_history_limit(3);
        let mut rev = store.create("/r/a", b("0")).await.unwrap().mod_revision;
        for i in 1..10 {
            rev = store
                .update("/r/a", b(&i.to_string()), rev)
                .await
                .unwrap()
                .mod_revision;
        }
        assert_eq!(rev, 10);
        assert!(store.list("/r/", &at(7)).await.is_ok());
        assert!(matches!(
            store.list("/r/", &at(6)).await,
            Err(StorageError::Compacted { compacted: 7, .. })
        ));
        let state = store.lock();
        assert_eq!(state.events.len(), 3);
        assert_eq!(state.keys["/r/a"].len(), 4);
    }

    #[tokio::test]
    async fn watch_replays_then_follows_without_gap_or_duplicate() {
        let store = std::sync::Arc::new(MemoryStorage::new());
        store.create("/r/a", b("1")).await.unwrap(); // 1
        store.create("/other/x", b("1")).await.unwrap(); // 2
        store.update("/r/a", b("2"), 1).await.unwrap(); // 3
        let mut watch = store.watch("/r/", 1).await.unwrap();
        let writer = {
            let store = store.clone();
            tokio::spawn(async move {
                for i in 0..50 {
                    store.create(&format!("/r/k{i:02}"), b("v")).await.unwrap();
                }
            })
        };
        let mut revisions = Vec::new();
        while revisions.len() < 51 {
            let event = watch.next().await.unwrap().unwrap();
            revisions.push(event.revision());
        }
        writer.await.unwrap();
        let expected: Vec<Revision> = std::iter::once(3).chain(4..54).collect();
        assert_eq!(revisions, expected);
    }

    #[tokio::test]
    async fn watch_from_zero_sees_only_new_writes() {
        let store = MemoryStorage::new();
        store.create("/r/a", b("1")).await.unwrap();
        let mut watch = store.watch("/r/", 0).await.unwrap();
        store.delete("/r/a", Some(1)).await.unwrap();
        match watch.next().await.unwrap().unwrap() {
            WatchEvent::Delete {
                key,
                prev: Some(prev),
                revision,
            } => {
                assert_eq!(key, "/r/a");
                assert_eq!(revision, 2);
                assert_eq!(prev.value, b("1"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn slow_watcher_is_ended_with_an_error_and_writers_go_on() {
        let store = MemoryStorage::with_limits(100, 4);
        let mut slow = store.watch("/r/", 0).await.unwrap();
        for i in 0..10 {
            store.create(&format!("/r/{i}"), b("v")).await.unwrap();
        }
        assert_eq!(store.lock().fanout.len(), 0);
        let mut received = Vec::new();
        let error = loop {
            match slow.next().await.unwrap() {
                Ok(event) => received.push(event.revision()),
                Err(error) => break error,
            }
        };
        assert_eq!(received, [1, 2, 3, 4]);
        assert!(matches!(error, StorageError::Unavailable { .. }), "{error}");
        assert!(slow.next().await.is_none());
    }

    #[tokio::test]
    async fn an_unbounded_history_limit_keeps_everything() {
        let store = MemoryStorage::with_history_limit(usize::MAX);
        store.create("/r/a", b("1")).await.unwrap();
        store.update("/r/a", b("2"), 1).await.unwrap();
        assert_eq!(
            store.list("/r/", &at(1)).await.unwrap().kvs[0].value,
            b("1")
        );
    }

    #[tokio::test]
    async fn debug_output_is_a_summary() {
        let store = MemoryStorage::new();
        store.create("/r/secret", b("password")).await.unwrap();
        let printed = format!("{store:?}");
        assert!(printed.contains("revision: 1"), "{printed}");
        assert!(!printed.contains("password"), "{printed}");
    }

    #[tokio::test]
    async fn dropped_watchers_are_forgotten() {
        let store = MemoryStorage::new();
        let watch = store.watch("/r/", 0).await.unwrap();
        drop(watch);
        store.create("/s/a", b("v")).await.unwrap();
        assert_eq!(store.lock().fanout.len(), 0);
    }

    #[tokio::test]
    async fn list_rejects_a_start_key_outside_the_prefix() {
        let store = MemoryStorage::new();
        let options = ListOptions {
            start_key: Some("/s/a".to_owned()),
            ..Default::default()
        };
        assert!(matches!(
            store.list("/r/", &options).await,
            Err(StorageError::InvalidRequest { .. })
        ));
    }
}
