//! [`RedbStorage`]: the store in one file on disk, through the `redb` embedded database
//! (`kapi serve --data-dir`).
//!
//! Each write is one redb transaction, committed with redb's default immediate
//! durability (the file is synced before the commit returns), so a write that was
//! acknowledged survives a crash or `SIGKILL` of the process. The file holds etcd's
//! multi-version model as the memory backend does: the current keys, every version since
//! the last compaction (deletions as tombstones), and a log naming the key of each
//! revision, from which a watch replays the history after its start. Watchers live in the
//! process; history is bounded the same way as [`MemoryStorage`](super::MemoryStorage)'s,
//! by a count of revisions.
//!
//! redb's calls block (disk I/O, `fsync`), so every operation runs on tokio's blocking
//! thread pool: the store must be used from within a tokio runtime.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicI64;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use ::redb::{Database, ReadableTable, TableDefinition};
use bytes::Bytes;

use super::fanout::{DEFAULT_WATCH_BUFFER, Fanout};
use super::memory::DEFAULT_HISTORY_LIMIT;
use super::validation::{check_compaction, check_key, check_list, check_revision};
use super::{
    Deleted, KeyValue, ListOptions, ListResult, OwnWrites, Revision, Storage, StorageError,
    WatchEvent, WatchStream,
};

/// Current keys: key -> `create_revision`, `mod_revision` (little-endian i64s), value.
const CURRENT: TableDefinition<&str, &[u8]> = TableDefinition::new("current");
/// Every version since the last compaction: (key, revision) -> a tag byte (`PUT` or
/// `TOMBSTONE`), `create_revision`, value.
const VERSIONS: TableDefinition<(&str, i64), &[u8]> = TableDefinition::new("versions");
/// The key written at each revision after the last compaction.
const EVENTS: TableDefinition<i64, &str> = TableDefinition::new("events");
/// `revision` and `compacted`.
const META: TableDefinition<&str, i64> = TableDefinition::new("meta");

const PUT: u8 = 0;
const TOMBSTONE: u8 = 1;
const META_REVISION: &str = "revision";
const META_COMPACTED: &str = "compacted";

/// A [`Storage`] in a redb database file: crash-safe, one process at a time (redb locks
/// the file), watchers in that process.
///
/// ```no_run
/// use apiserver::storage::{RedbStorage, Storage};
/// use bytes::Bytes;
///
/// # async fn run() -> Result<(), apiserver::storage::StorageError> {
/// let store = RedbStorage::open("/var/lib/kapi/data.redb")?;
/// // Once `create` has returned, the write is on disk.
/// store.create("/registry/namespaces/default", Bytes::from_static(b"...")).await?;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct RedbStorage {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    db: Database,
    /// `redb <path>`, for errors.
    backend: String,
    /// At least 1; `usize` limits beyond `Revision::MAX` are `Revision::MAX`.
    history_limit: Revision,
    /// Held across every write transaction (commit included) and every watch
    /// registration: it orders the events the watchers see exactly as the commits.
    fanout: Mutex<Fanout>,
    own_writes: OwnWrites,
}

/// Why an operation inside a transaction stopped: the caller's error, or the
/// database's (turned into [`StorageError::Internal`] naming the file).
enum Failure {
    Storage(StorageError),
    Database(String),
}

impl From<StorageError> for Failure {
    fn from(error: StorageError) -> Self {
        Failure::Storage(error)
    }
}

macro_rules! database_failure {
    ($($error:ty),*) => {
        $(impl From<$error> for Failure {
            fn from(error: $error) -> Self {
                Failure::Database(error.to_string())
            }
        })*
    };
}
database_failure!(
    ::redb::Error,
    ::redb::DatabaseError,
    ::redb::TransactionError,
    ::redb::TableError,
    ::redb::StorageError,
    ::redb::CommitError
);

type Outcome<T> = Result<T, Failure>;

impl RedbStorage {
    /// Opens the database file at `path`, creating it if it does not exist, keeping the
    /// last [`DEFAULT_HISTORY_LIMIT`] revisions.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StorageError> {
        RedbStorage::open_with_history_limit(path, DEFAULT_HISTORY_LIMIT)
    }

    /// Opens the database file at `path` (created if missing), keeping the last
    /// `history_limit` revisions (at least 1).
    pub fn open_with_history_limit(
        path: impl AsRef<Path>,
        history_limit: usize,
    ) -> Result<Self, StorageError> {
        let path: PathBuf = path.as_ref().to_owned();
        let backend = format!("redb {}", path.display());
        let fail = |message: String| StorageError::Internal {
            backend: backend.clone(),
            message,
        };
        let db = Database::create(&path).map_err(|error| fail(error.to_string()))?;
        let setup = || -> Outcome<()> {
            let txn = db.begin_write()?;
            txn.open_table(CURRENT)?;
            txn.open_table(VERSIONS)?;
            txn.open_table(EVENTS)?;
            txn.open_table(META)?;
            txn.commit()?;
            Ok(())
        };
        setup().map_err(|failure| match failure {
            Failure::Storage(error) => error,
            Failure::Database(message) => fail(message),
        })?;
        Ok(RedbStorage {
            inner: Arc::new(Inner {
                db,
                backend: backend.clone(),
                history_limit: Revision::try_from(history_limit)
                    .unwrap_or(Revision::MAX)
                    .max(1),
                fanout: Mutex::new(Fanout::new(backend, DEFAULT_WATCH_BUFFER)),
                own_writes: OwnWrites::default(),
            }),
        })
    }

    /// Runs `operation` on the blocking pool.
    async fn run<T, F>(&self, operation: F) -> Result<T, StorageError>
    where
        T: Send + 'static,
        F: FnOnce(&Inner) -> Outcome<T> + Send + 'static,
    {
        let inner = Arc::clone(&self.inner);
        let backend = inner.backend.clone();
        let joined = tokio::task::spawn_blocking(move || {
            operation(&inner).map_err(|failure| match failure {
                Failure::Storage(error) => error,
                Failure::Database(message) => StorageError::Internal {
                    backend: inner.backend.clone(),
                    message,
                },
            })
        })
        .await;
        joined.unwrap_or_else(|error| {
            Err(StorageError::Internal {
                backend,
                message: format!("storage task failed: {error}"),
            })
        })
    }
}

fn i64_at(bytes: &[u8], at: usize) -> Option<i64> {
    let slice = bytes.get(at..at + 8)?;
    let mut array = [0u8; 8];
    array.copy_from_slice(slice);
    Some(i64::from_le_bytes(array))
}

fn corrupt(what: &str, key: &str) -> Failure {
    Failure::Database(format!("corrupt {what} record for key {key:?}"))
}

fn encode_current(kv: &KeyValue) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + kv.value.len());
    out.extend_from_slice(&kv.create_revision.to_le_bytes());
    out.extend_from_slice(&kv.mod_revision.to_le_bytes());
    out.extend_from_slice(&kv.value);
    out
}

fn decode_current(key: &str, bytes: &[u8]) -> Outcome<KeyValue> {
    let (Some(create_revision), Some(mod_revision)) = (i64_at(bytes, 0), i64_at(bytes, 8)) else {
        return Err(corrupt("current", key));
    };
    Ok(KeyValue {
        key: key.to_owned(),
        value: Bytes::copy_from_slice(&bytes[16..]),
        create_revision,
        mod_revision,
    })
}

fn encode_version(kv: Option<&KeyValue>) -> Vec<u8> {
    match kv {
        Some(kv) => {
            let mut out = Vec::with_capacity(9 + kv.value.len());
            out.push(PUT);
            out.extend_from_slice(&kv.create_revision.to_le_bytes());
            out.extend_from_slice(&kv.value);
            out
        }
        None => vec![TOMBSTONE],
    }
}

/// The key at `revision` from its version record, `None` for a tombstone.
fn decode_version(key: &str, revision: Revision, bytes: &[u8]) -> Outcome<Option<KeyValue>> {
    match bytes.first() {
        Some(&TOMBSTONE) => Ok(None),
        Some(&PUT) => {
            let create_revision = i64_at(bytes, 1).ok_or_else(|| corrupt("version", key))?;
            Ok(Some(KeyValue {
                key: key.to_owned(),
                value: Bytes::copy_from_slice(&bytes[9..]),
                create_revision,
                mod_revision: revision,
            }))
        }
        _ => Err(corrupt("version", key)),
    }
}

/// The last version of `key` at or before `revision`: its revision and the key then.
fn version_at<T>(
    versions: &T,
    key: &str,
    revision: Revision,
) -> Outcome<Option<(Revision, Option<KeyValue>)>>
where
    T: ReadableTable<(&'static str, i64), &'static [u8]>,
{
    let mut range = versions.range((key, i64::MIN)..=(key, revision))?;
    match range.next_back() {
        Some(entry) => {
            let (found, bytes) = entry?;
            let (_, found_revision) = found.value();
            Ok(Some((
                found_revision,
                decode_version(key, found_revision, bytes.value())?,
            )))
        }
        None => Ok(None),
    }
}

fn read_meta<T>(meta: &T, name: &str) -> Outcome<i64>
where
    T: ReadableTable<&'static str, i64>,
{
    Ok(meta.get(name)?.map_or(0, |value| value.value()))
}

/// The event of the write at `revision` to `key`, rebuilt from the key's versions.
fn event_at<T>(versions: &T, key: &str, revision: Revision) -> Outcome<WatchEvent>
where
    T: ReadableTable<(&'static str, i64), &'static [u8]>,
{
    let Some((found, kv)) = version_at(versions, key, revision)? else {
        return Err(corrupt("event", key));
    };
    if found != revision {
        return Err(corrupt("event", key));
    }
    let prev = match version_at(versions, key, revision - 1)? {
        Some((_, prev)) => prev,
        None => None,
    };
    match (kv, prev) {
        (Some(kv), prev) => Ok(WatchEvent::Put { kv, prev }),
        (None, Some(prev)) => Ok(WatchEvent::Delete {
            key: key.to_owned(),
            prev: Some(prev),
            revision,
        }),
        (None, None) => Err(corrupt("event", key)),
    }
}

impl Inner {
    fn lock_fanout(&self) -> MutexGuard<'_, Fanout> {
        self.fanout.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// One write transaction: `decide` sees the key's current state and returns the new
    /// one (`None` deletes it) or an error; the write is then recorded at the next
    /// revision, committed, and published to the watchers.
    fn write<R>(
        &self,
        key: &str,
        decide: impl FnOnce(Option<KeyValue>, Revision) -> Result<(Option<KeyValue>, R), StorageError>,
    ) -> Outcome<R> {
        let mut fanout = self.lock_fanout();
        let mut txn = self.db.begin_write()?;
        // redb's default, said out loud: `commit` returns once the data is synced, which
        // is what lets the server acknowledge the write.
        txn.set_durability(::redb::Durability::Immediate);
        let (event, result) = {
            let mut current = txn.open_table(CURRENT)?;
            let mut versions = txn.open_table(VERSIONS)?;
            let mut events = txn.open_table(EVENTS)?;
            let mut meta = txn.open_table(META)?;
            let revision = read_meta(&meta, META_REVISION)? + 1;
            let before = match current.get(key)? {
                Some(bytes) => Some(decode_current(key, bytes.value())?),
                None => None,
            };
            let (after, result) = decide(before.clone(), revision)?;
            let event = match (&after, before) {
                (Some(kv), prev) => {
                    current.insert(key, encode_current(kv).as_slice())?;
                    WatchEvent::Put {
                        kv: kv.clone(),
                        prev,
                    }
                }
                (None, Some(prev)) => {
                    current.remove(key)?;
                    WatchEvent::Delete {
                        key: key.to_owned(),
                        prev: Some(prev),
                        revision,
                    }
                }
                (None, None) => {
                    return Err(Failure::Storage(StorageError::KeyNotFound {
                        key: key.to_owned(),
                    }));
                }
            };
            versions.insert((key, revision), encode_version(after.as_ref()).as_slice())?;
            events.insert(revision, key)?;
            meta.insert(META_REVISION, revision)?;
            let keep_from = revision.saturating_sub(self.history_limit);
            if keep_from > read_meta(&meta, META_COMPACTED)? {
                compact_tables(&mut versions, &mut events, &mut meta, keep_from)?;
            }
            (event, result)
        };
        txn.commit()?;
        self.own_writes.record(key, event.revision());
        fanout.publish(key, &event);
        Ok(result)
    }
}

/// Forgets everything not visible at `revision` or later; only keys named by the events
/// forgotten can have versions to drop.
fn compact_tables(
    versions: &mut ::redb::Table<(&'static str, i64), &'static [u8]>,
    events: &mut ::redb::Table<i64, &'static str>,
    meta: &mut ::redb::Table<&'static str, i64>,
    revision: Revision,
) -> Outcome<()> {
    let mut keys = Vec::new();
    for entry in events.extract_from_if(..=revision, |_, _| true)? {
        let (_, key) = entry?;
        keys.push(key.value().to_owned());
    }
    keys.sort_unstable();
    keys.dedup();
    for key in keys {
        let Some((visible, kv)) = version_at(versions, &key, revision)? else {
            continue;
        };
        // Versions before the visible one are unreadable from now on; so is the visible
        // one if it is a deletion.
        let drop_to = if kv.is_none() { visible } else { visible - 1 };
        versions.retain_in(
            (key.as_str(), i64::MIN)..=(key.as_str(), drop_to),
            |_, _| false,
        )?;
    }
    meta.insert(META_COMPACTED, revision)?;
    Ok(())
}

#[async_trait::async_trait]
impl Storage for RedbStorage {
    async fn get(&self, key: &str) -> Result<Option<KeyValue>, StorageError> {
        check_key(key)?;
        let key = key.to_owned();
        self.run(move |inner| {
            let txn = inner.db.begin_read()?;
            let current = txn.open_table(CURRENT)?;
            match current.get(key.as_str())? {
                Some(bytes) => Ok(Some(decode_current(&key, bytes.value())?)),
                None => Ok(None),
            }
        })
        .await
    }

    async fn list(&self, prefix: &str, options: &ListOptions) -> Result<ListResult, StorageError> {
        let start = check_list(prefix, options)?.to_owned();
        let prefix = prefix.to_owned();
        let options = options.clone();
        self.run(move |inner| {
            let txn = inner.db.begin_read()?;
            let meta = txn.open_table(META)?;
            let current_revision = read_meta(&meta, META_REVISION)?;
            let compacted = read_meta(&meta, META_COMPACTED)?;
            let revision = match options.revision {
                0 => current_revision,
                requested if requested > current_revision => {
                    return Err(Failure::Storage(StorageError::FutureRevision {
                        requested,
                        current: current_revision,
                    }));
                }
                requested if requested < compacted => {
                    return Err(Failure::Storage(StorageError::Compacted {
                        requested,
                        compacted,
                    }));
                }
                requested => requested,
            };
            let mut result = ListResult {
                kvs: Vec::new(),
                revision,
                remaining: 0,
            };
            let mut add = |kv: KeyValue| {
                if options.limit == 0 || result.kvs.len() < options.limit {
                    result.kvs.push(kv);
                } else {
                    result.remaining += 1;
                }
            };
            if revision == current_revision {
                let current = txn.open_table(CURRENT)?;
                for entry in current.range(start.as_str()..)? {
                    let (key, bytes) = entry?;
                    let key = key.value();
                    if !key.starts_with(&prefix) {
                        break;
                    }
                    add(decode_current(key, bytes.value())?);
                }
            } else {
                // Walk the versions key by key, keeping each key's last one at or
                // before the revision.
                let versions = txn.open_table(VERSIONS)?;
                let mut group: Option<(String, Option<KeyValue>)> = None;
                for entry in versions.range((start.as_str(), i64::MIN)..)? {
                    let (id, bytes) = entry?;
                    let (key, version) = id.value();
                    if !key.starts_with(&prefix) {
                        break;
                    }
                    if group.as_ref().is_none_or(|(last, _)| last != key) {
                        if let Some((_, Some(kv))) = group.take() {
                            add(kv);
                        }
                        group = Some((key.to_owned(), None));
                    }
                    if version <= revision {
                        group =
                            Some((key.to_owned(), decode_version(key, version, bytes.value())?));
                    }
                }
                if let Some((_, Some(kv))) = group {
                    add(kv);
                }
            }
            Ok(result)
        })
        .await
    }

    async fn create(&self, key: &str, value: Bytes) -> Result<KeyValue, StorageError> {
        check_key(key)?;
        let key = key.to_owned();
        self.run(move |inner| {
            inner.write(&key, |current, revision| {
                if current.is_some() {
                    return Err(StorageError::KeyExists { key: key.clone() });
                }
                let kv = KeyValue {
                    key: key.clone(),
                    value,
                    create_revision: revision,
                    mod_revision: revision,
                };
                Ok((Some(kv.clone()), kv))
            })
        })
        .await
    }

    async fn update(
        &self,
        key: &str,
        value: Bytes,
        expected: Revision,
    ) -> Result<KeyValue, StorageError> {
        check_key(key)?;
        let key = key.to_owned();
        self.run(move |inner| {
            inner.write(&key, |current, revision| {
                let Some(current) = current else {
                    return Err(StorageError::KeyNotFound { key: key.clone() });
                };
                if current.mod_revision != expected {
                    return Err(StorageError::Conflict {
                        key: key.clone(),
                        expected,
                        current: Box::new(current),
                    });
                }
                let kv = KeyValue {
                    key: key.clone(),
                    value,
                    create_revision: current.create_revision,
                    mod_revision: revision,
                };
                Ok((Some(kv.clone()), kv))
            })
        })
        .await
    }

    async fn delete(&self, key: &str, expected: Option<Revision>) -> Result<Deleted, StorageError> {
        check_key(key)?;
        let key = key.to_owned();
        self.run(move |inner| {
            inner.write(&key, |current, revision| {
                let Some(current) = current else {
                    return Err(StorageError::KeyNotFound { key: key.clone() });
                };
                if let Some(expected) = expected
                    && current.mod_revision != expected
                {
                    return Err(StorageError::Conflict {
                        key: key.clone(),
                        expected,
                        current: Box::new(current),
                    });
                }
                Ok((
                    None,
                    Deleted {
                        prev: current,
                        revision,
                    },
                ))
            })
        })
        .await
    }

    async fn watch(&self, prefix: &str, from: Revision) -> Result<WatchStream, StorageError> {
        check_revision("watch", from)?;
        let prefix = prefix.to_owned();
        self.run(move |inner| {
            // No write commits while the replay is read and the watcher registered.
            let mut fanout = inner.lock_fanout();
            let txn = inner.db.begin_read()?;
            let meta = txn.open_table(META)?;
            let current_revision = read_meta(&meta, META_REVISION)?;
            let compacted = read_meta(&meta, META_COMPACTED)?;
            let from = if from == 0 { current_revision } else { from };
            if from < compacted {
                return Err(Failure::Storage(StorageError::Compacted {
                    requested: from,
                    compacted,
                }));
            }
            let events = txn.open_table(EVENTS)?;
            let versions = txn.open_table(VERSIONS)?;
            let mut replay = VecDeque::new();
            for entry in events.range(from.saturating_add(1)..)? {
                let (revision, key) = entry?;
                let key = key.value();
                if key.starts_with(&prefix) {
                    replay.push_back(event_at(&versions, key, revision.value())?);
                }
            }
            Ok(fanout.register(&prefix, from, replay))
        })
        .await
    }

    async fn current_revision(&self) -> Result<Revision, StorageError> {
        self.run(|inner| {
            let txn = inner.db.begin_read()?;
            let meta = txn.open_table(META)?;
            read_meta(&meta, META_REVISION)
        })
        .await
    }

    fn follow_own_writes(&self, prefix: &str) -> Arc<AtomicI64> {
        self.inner.own_writes.follow(prefix)
    }

    async fn compact(&self, revision: Revision) -> Result<(), StorageError> {
        check_compaction(revision)?;
        self.run(move |inner| {
            let _writes = inner.lock_fanout();
            let txn = inner.db.begin_write()?;
            {
                let mut versions = txn.open_table(VERSIONS)?;
                let mut events = txn.open_table(EVENTS)?;
                let mut meta = txn.open_table(META)?;
                let current = read_meta(&meta, META_REVISION)?;
                let compacted = read_meta(&meta, META_COMPACTED)?;
                if revision > current {
                    return Err(Failure::Storage(StorageError::FutureRevision {
                        requested: revision,
                        current,
                    }));
                }
                if revision <= compacted {
                    return Err(Failure::Storage(StorageError::Compacted {
                        requested: revision,
                        compacted,
                    }));
                }
                compact_tables(&mut versions, &mut events, &mut meta, revision)?;
            }
            txn.commit()?;
            Ok(())
        })
        .await
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use ::redb::ReadableTableMetadata;

    fn b(value: &str) -> Bytes {
        Bytes::copy_from_slice(value.as_bytes())
    }

    fn temp_path(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("apiserver-redb-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("data.redb")
    }

    #[tokio::test]
    async fn data_and_history_survive_reopening() {
        let path = temp_path("reopen");
        {
            let store = RedbStorage::open(&path).unwrap();
            let a = store.create("/r/a", b("1")).await.unwrap();
            store.update("/r/a", b("2"), a.mod_revision).await.unwrap();
            store.create("/r/b", b("b")).await.unwrap();
            store.delete("/r/b", Some(3)).await.unwrap();
        }
        let store = RedbStorage::open(&path).unwrap();
        assert_eq!(store.current_revision().await.unwrap(), 4);
        let a = store.get("/r/a").await.unwrap().unwrap();
        assert_eq!(
            (a.create_revision, a.mod_revision, &a.value[..]),
            (1, 2, &b"2"[..])
        );
        let at3 = ListOptions {
            revision: 3,
            ..Default::default()
        };
        assert_eq!(store.list("/r/", &at3).await.unwrap().kvs.len(), 2);
        assert_eq!(store.create("/r/c", b("c")).await.unwrap().mod_revision, 5);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[tokio::test]
    async fn automatic_compaction_drops_old_versions() {
        let path = temp_path("bounded");
        let store = RedbStorage::open_with_history_limit(&path, 3).unwrap();
        let mut revision = store.create("/r/a", b("0")).await.unwrap().mod_revision;
        for i in 1..10 {
            revision = store
                .update("/r/a", b(&i.to_string()), revision)
                .await
                .unwrap()
                .mod_revision;
        }
        let old = ListOptions {
            revision: 6,
            ..Default::default()
        };
        assert!(matches!(
            store.list("/r/", &old).await,
            Err(StorageError::Compacted { compacted: 7, .. })
        ));
        let txn = store.inner.db.begin_read().unwrap();
        assert_eq!(txn.open_table(VERSIONS).unwrap().len().unwrap(), 4);
        assert_eq!(txn.open_table(EVENTS).unwrap().len().unwrap(), 3);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[tokio::test]
    async fn a_file_that_is_not_a_database_is_an_error() {
        let path = temp_path("garbage");
        std::fs::write(
            &path,
            b"this is not a redb file, just some bytes".repeat(100),
        )
        .unwrap();
        match RedbStorage::open(&path) {
            Err(StorageError::Internal { backend, .. }) => assert!(backend.contains("garbage")),
            other => panic!("{other:?}"),
        }
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
