//! The watch cache of one resource (Go's `storage/cacher`): one storage watch on the
//! resource's prefix, kept in a ring of recent events sized as Go sizes its history
//! ([`history`]: at least the last 75 s of events when the resource is busy, a hundred
//! when it is quiet; each object decoded once, when a client first needs it) and fanned
//! out to every client watch, and the current
//! stored value of every object, which writes start from. Its window begins at the
//! storage's revision when the server opened it (Go's caches list the store as the server
//! starts), or where it started when the storage cannot go back there: a client resuming
//! from a revision the window covers gets the events after it replayed, then the live
//! ones, with nothing lost or repeated between the two; one older than the window gets
//! Go's 410 "too old resource version". An exact list at a revision of the window is
//! served from the cache too ([`snapshot`], Go's snapshots of `ListFromCacheSnapshot`),
//! whatever the storage has compacted since.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, OnceLock, PoisonError, Weak};

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::{Object, Scheme};
use futures_util::StreamExt;
use futures_util::stream::{self, BoxStream};
use tokio::sync::{Mutex, broadcast};

use super::codec::decode_stored;
use super::event_lines::EventLines;
use super::resource_info::ResourceInfo;
use crate::storage::{KeyValue, ListOptions, Revision, Storage, interpret_error};

mod apply;
mod history;
mod relay;
mod snapshot;

use apply::{apply, lazy_event};
use history::{Clock, History};
use relay::Relays;
/// How many events a client may fall behind the live stream before its watch is ended
/// (it then re-watches from its last revision, as Go's clients do).
const CLIENT_BUFFER: usize = 1024;
/// How many storage watches in a row may end without an event before the cache stops
/// (ending its clients' watches), and the pause before each of them, growing linearly.
const RESUME_ATTEMPTS: u32 = 5;
const RESUME_PAUSE: std::time::Duration = std::time::Duration::from_millis(200);
/// How long a reader of the whole resource waits for the cache to see the writes this
/// server made before it reads the storage instead.
const CATCH_UP: std::time::Duration = std::time::Duration::from_secs(1);

/// What happened to an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventType {
    /// Created.
    Added,
    /// Replaced.
    Modified,
    /// Deleted.
    Deleted,
    /// No object: the watch has seen every event up to the revision.
    Progress,
}

/// One event, shared by every client. Its objects are decoded on first use and once:
/// a cache no client watches (it also serves writes and `resourceVersion=0` reads from
/// its stored values) decodes nothing, and a client without a selector never needs the
/// object before a modification.
#[derive(Clone, Debug)]
pub struct CacheEvent {
    /// What happened.
    pub event_type: EventType,
    /// The revision of the event.
    pub revision: Revision,
    /// The object after the event (before it, for a deletion).
    object: Lazy,
    /// The object before a modification; for a deletion the deleted object as it was
    /// stored (its own resourceVersion), when the cache had it: what an exact list at
    /// an earlier revision shows.
    prev: Lazy,
    /// Its lines as watchers asked for them, each made once.
    lines: Arc<EventLines>,
}

/// A stored value and the object it decodes to. Cloned for every object of every list
/// served from the cache: both parts are shared, a clone is two reference counts.
#[derive(Clone, Debug, Default)]
struct Lazy {
    stored: Option<Arc<(KeyValue, Arc<Scheme>)>>,
    /// For a deletion: the resourceVersion the object is given (the deletion's).
    deleted_at: Option<Revision>,
    decoded: Arc<OnceLock<Result<Arc<dyn Object>, StatusError>>>,
}

impl Lazy {
    fn new(kv: Option<KeyValue>, scheme: &Arc<Scheme>) -> Self {
        Lazy {
            stored: kv.map(|kv| Arc::new((kv, scheme.clone()))),
            ..Lazy::default()
        }
    }

    fn stored(&self) -> Option<&KeyValue> {
        self.stored.as_deref().map(|(kv, _)| kv)
    }

    fn get(&self) -> Option<Result<&Arc<dyn Object>, &StatusError>> {
        let (kv, scheme) = self.stored.as_deref()?;
        Some(
            self.decoded
                .get_or_init(|| {
                    let mut obj = decode_stored(scheme, kv)?;
                    if let (Some(revision), Some(meta)) = (self.deleted_at, obj.meta_mut()) {
                        meta.set_resource_version(&revision.to_string());
                    }
                    Ok(Arc::from(obj))
                })
                .as_ref(),
        )
    }
}

/// One object of a list served from the cache: its key, and the object its stored value
/// decodes to (decoded on first use, once for every list and watch that needs it).
#[derive(Clone, Debug)]
pub struct CachedObject(Lazy);

impl CachedObject {
    /// The object's key in the storage.
    pub fn key(&self) -> &str {
        self.0.stored().map_or("", |kv| kv.key.as_str())
    }

    /// The object at the storage version, its `resourceVersion` set; the error of a
    /// stored value that does not decode.
    pub fn object(&self) -> Result<&Arc<dyn Object>, StatusError> {
        match self.0.get() {
            Some(Ok(obj)) => Ok(obj),
            Some(Err(e)) => Err(e.clone()),
            None => Err(errors::new_internal_error(format!(
                "no stored value at {}",
                self.key()
            ))),
        }
    }
}

impl CacheEvent {
    /// The object after the event (before it, for a deletion, with the deletion's
    /// revision as its resourceVersion), at the storage version; `None` for a progress
    /// event and for a stored value that does not decode (clients skip those: a list
    /// shows the error instead).
    pub fn object(&self) -> Option<&Arc<dyn Object>> {
        self.object.get()?.ok()
    }

    /// The object before the event, when it existed (for a deletion, the deleted object).
    pub fn prev(&self) -> Option<&Arc<dyn Object>> {
        if self.event_type == EventType::Deleted {
            return self.object();
        }
        self.prev.get()?.ok()
    }

    /// The lines watchers made of this event, to share with the watchers asking for the
    /// same encoding.
    pub fn lines(&self) -> &EventLines {
        &self.lines
    }

    /// Whether clients see this event: not when its stored value does not decode (the
    /// list shows the error instead). Decodes the object, as every client needs it.
    fn deliverable(&self) -> bool {
        self.event_type == EventType::Progress || self.object().is_some()
    }

    /// The error of an object that does not decode.
    fn decode_error(&self) -> Option<StatusError> {
        match self.object.get() {
            Some(Err(e)) => Some(e.clone()),
            _ => None,
        }
    }
}

/// The events of one client watch.
pub type CacheWatch = BoxStream<'static, Result<Arc<CacheEvent>, StatusError>>;

/// Whether the storage watch runs; its lock serializes starting it.
#[derive(Debug)]
struct State {
    running: bool,
}

/// What the cache holds (Go's watch cache: its store and its event window), behind one
/// lock that no one holds across an await.
#[derive(Debug)]
struct Window {
    /// The stored values by key (so in key order) as of `seen`, each with the object
    /// it decodes to once a list or a watch needed it (shared with the event that wrote
    /// it), while the storage watch runs (`None` otherwise).
    by_key: Option<BTreeMap<String, Lazy>>,
    /// `by_key` holds nothing older than this revision (the list it was built from).
    valid_from: Revision,
    /// The revision of the last event seen (or the one the cache started at).
    seen: Revision,
    /// A watch from this revision or a later one is served: every event after it is in
    /// `ring` (or live). Go's oldest revision minus one: its list's revision, or once
    /// the ring has dropped events, the revision before its oldest one.
    watch_from: Revision,
    /// An exact list at this revision or a later one (up to `seen`) is served from the
    /// cache (Go's oldest snapshot): its list's revision, or once the ring has been full
    /// its oldest event's then.
    snapshots_from: Revision,
    /// Whether the window begins where the server opened the storage, as Go's does.
    /// When not (a backend that cannot tell, or one that has compacted that revision
    /// since), a watch from before the window is served by a storage watch of its own
    /// (410 once the storage has compacted it), not refused.
    from_opening: bool,
    /// The recent events, for resumed watches and exact lists.
    history: History,
    tx: broadcast::Sender<Arc<CacheEvent>>,
    /// The connection workers' relays of `tx` to their watches.
    relays: Relays,
}

impl Window {
    /// Adds an event received at `at` to the ring (resized by Go's rule, dropping the
    /// oldest events past its capacity) and moves the window's start as Go's
    /// `watchCacheHistory` and snapshots move theirs.
    fn push(&mut self, event: Arc<CacheEvent>, at: std::time::Instant) {
        let dropped = self.history.push(event, at);
        if let Some(oldest) = self.history.oldest() {
            if dropped {
                self.watch_from = self.watch_from.max(oldest - 1);
            }
            // Go compacts its snapshots to the oldest event whenever the ring is full.
            if self.history.is_full() {
                self.snapshots_from = self.snapshots_from.max(oldest);
            }
        }
    }

    /// The objects under `prefix` from `start` (inclusive) as of `revision`, in key
    /// order; `None` when the window does not cover `revision` (the caller reads the
    /// storage, as Go's delegator does without a snapshot).
    fn exact(&self, prefix: &str, start: &str, revision: Revision) -> Option<Vec<CachedObject>> {
        let by_key = self.by_key.as_ref()?;
        if self.seen < self.valid_from || revision < self.snapshots_from || revision > self.seen {
            return None;
        }
        snapshot::at(by_key, self.history.after(revision), prefix, start)
    }
}

/// The watch cache of one resource.
#[derive(Debug)]
pub struct Cacher {
    scheme: Arc<Scheme>,
    storage: Arc<dyn Storage>,
    info: ResourceInfo,
    state: Mutex<State>,
    /// A lock of its own, never held across an await, so that writers reading their
    /// starting object do not queue behind the watch: a contended async lock is handed
    /// to the next waiter, and everyone behind waits until that task is next polled.
    window: std::sync::Mutex<Window>,
    /// The revision `window` has seen, for readers waiting for it to move.
    seen: tokio::sync::watch::Sender<Revision>,
    /// The highest revision written to the resource through this server.
    written: AtomicI64,
    /// The times of the events, which size the ring.
    clock: Clock,
}

impl Cacher {
    /// A cache of `info`'s prefix in `storage`; its storage watch starts with the first
    /// client.
    pub fn new(scheme: Arc<Scheme>, storage: Arc<dyn Storage>, info: ResourceInfo) -> Self {
        let (tx, _) = broadcast::channel(CLIENT_BUFFER);
        Cacher {
            scheme,
            storage,
            info,
            state: Mutex::new(State { running: false }),
            window: std::sync::Mutex::new(Window {
                by_key: None,
                valid_from: 0,
                seen: 0,
                watch_from: 0,
                snapshots_from: 0,
                from_opening: false,
                history: History::default(),
                tx,
                relays: Relays::default(),
            }),
            seen: tokio::sync::watch::Sender::new(0),
            written: AtomicI64::new(0),
            clock: Clock::default(),
        }
    }

    /// Records a write to the resource at `revision` through this server, so that
    /// [`list_current`](Self::list_current) shows it.
    pub fn note_write(&self, revision: Revision) {
        self.written.fetch_max(revision, Ordering::Relaxed);
    }

    /// Every stored value under the resource's prefix as the cache has it, sorted by
    /// key, once the cache has seen every write made through this server (a reader sees
    /// its own writes; Go's readers of informers, such as the webhook configuration
    /// manager, see them a moment later). `None` when the cache cannot tell within a
    /// second: the caller reads the storage.
    pub async fn list_current(self: &Arc<Self>) -> Option<Vec<KeyValue>> {
        self.seen_own_writes(Revision::MAX).await?;
        let window = self.window();
        let by_key = window.by_key.as_ref()?;
        if window.seen < window.valid_from {
            return None;
        }
        Some(by_key.values().filter_map(Lazy::stored).cloned().collect())
    }

    /// The objects under `prefix` as of a revision at least `current` (the storage's
    /// revision when the caller's list started), in key order, and that revision: a
    /// consistent list served from the cache, as Go's `ConsistentListFromCache` serves
    /// it once its cache has caught up with etcd's current revision. `None` when the
    /// cache has not seen `current` (after waiting for this server's own writes to reach
    /// it): the caller reads the storage.
    pub async fn list_at_least(
        self: &Arc<Self>,
        prefix: &str,
        current: Revision,
    ) -> Option<(Revision, Vec<CachedObject>)> {
        // A write of this server's the cache has not seen yet is on its way: wait for
        // it. Another writer's (or a write to another resource) may never reach this
        // cache's watch, so the cache is then not known to be fresh.
        self.seen_own_writes(current).await?;
        let window = self.window();
        let by_key = window.by_key.as_ref()?;
        if window.seen < window.valid_from || window.seen < current {
            return None;
        }
        let items = by_key
            .range::<str, _>((
                std::ops::Bound::Included(prefix),
                std::ops::Bound::Unbounded,
            ))
            .take_while(|(key, _)| key.starts_with(prefix))
            .map(|(_, lazy)| CachedObject(lazy.clone()))
            .collect();
        Some((window.seen, items))
    }

    /// The objects under `prefix` from `start` (inclusive; the prefix itself for a
    /// first page) as they were at `revision`, in key order: an exact list (or the next
    /// page of a list at `revision`) served from the cache, as Go's cacher serves one
    /// from its snapshots (`ListFromCacheSnapshot`). `None` when the cache's window
    /// does not cover `revision`, or the cache has not seen it (after waiting for this
    /// server's own writes to reach it): the caller reads the storage, as Go's
    /// delegator does.
    pub async fn list_exact(
        self: &Arc<Self>,
        prefix: &str,
        start: &str,
        revision: Revision,
    ) -> Option<Vec<CachedObject>> {
        self.seen_own_writes(revision).await?;
        self.window().exact(prefix, start, revision)
    }

    /// Starts the cache if it is not running, and waits (up to a second) until it has
    /// seen every write this server made to the resource, up to revision `up_to`;
    /// `None` when it cannot start or does not catch up in time.
    async fn seen_own_writes(self: &Arc<Self>, up_to: Revision) -> Option<()> {
        if self.window().by_key.is_none() {
            let mut st = self.state.lock().await;
            if !st.running && self.start_locked(&mut st).await.is_err() {
                return None;
            }
        }
        let written = self.written.load(Ordering::Relaxed).min(up_to);
        let mut seen = self.seen.subscribe();
        tokio::time::timeout(CATCH_UP, seen.wait_for(|s| *s >= written))
            .await
            .ok()?
            .ok()?;
        Some(())
    }

    /// The latest revision the cache has seen (0 before it started).
    pub async fn last_revision(&self) -> Revision {
        self.window().seen
    }

    /// The stored value of `key` as the cache last saw it (Go's watch cache store), and
    /// the revision the cache has seen; `None` when the cache cannot tell (not running
    /// yet and the storage cannot be listed, catching up after a restart, or the key is
    /// not there: an object created a moment ago may not have reached the cache yet).
    ///
    /// The value may be older than the storage's: writers use it as the object a
    /// compare-and-swap starts from, and read the storage again only when the swap
    /// finds a newer revision (Go's `GuaranteedUpdate` with a cached object); readers
    /// use it where Go's clients accept any recent state (`resourceVersion=0`).
    pub async fn current(self: &Arc<Self>, key: &str) -> Option<(KeyValue, Revision)> {
        if let Some(found) = self.lookup(key) {
            return found;
        }
        {
            let mut st = self.state.lock().await;
            if !st.running && self.start_locked(&mut st).await.is_err() {
                return None;
            }
        }
        self.lookup(key).flatten()
    }

    /// `current` when the storage watch runs; `None` when it does not.
    fn lookup(&self, key: &str) -> Option<Option<(KeyValue, Revision)>> {
        let window = self.window();
        let by_key = window.by_key.as_ref()?;
        if window.seen < window.valid_from {
            return Some(None);
        }
        Some(
            by_key
                .get(key)
                .and_then(Lazy::stored)
                .map(|kv| (kv.clone(), window.seen)),
        )
    }

    fn window(&self) -> std::sync::MutexGuard<'_, Window> {
        // Every update of the window leaves it whole between statements (an insert, a
        // push, an assignment): a panic never leaves it half done.
        self.window.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Lists the resource where the cache's window begins: at the revision the storage
    /// was at when the server opened it (Go's caches list then), when the cache starts
    /// for the first time and the storage still has it (and then says so); else at the
    /// current revision.
    async fn first_list(
        &self,
        prefix: &str,
        first: bool,
    ) -> Result<(crate::storage::ListResult, bool), crate::storage::StorageError> {
        if first && let Some(opened) = self.storage.opened_at().filter(|r| *r > 0) {
            let at = ListOptions {
                revision: opened,
                ..ListOptions::default()
            };
            match self.storage.list(prefix, &at).await {
                Err(crate::storage::StorageError::Compacted { .. }) => {}
                listed => return listed.map(|l| (l, true)),
            }
        }
        let listed = self.storage.list(prefix, &ListOptions::default()).await?;
        Ok((listed, false))
    }

    /// Starts the storage watch: lists the resource (the objects the watch then keeps
    /// current) and watches from where the cache stopped, or from the list.
    async fn start_locked(self: &Arc<Self>, st: &mut State) -> Result<(), StatusError> {
        let qualified = self.info.qualified_resource();
        let prefix = self.info.collection_prefix(None);
        let last = self.window().seen;
        let (listed, at_opening) = self
            .first_list(&prefix, last == 0)
            .await
            .map_err(|e| interpret_error(e, &qualified, ""))?;
        let objects: BTreeMap<String, Lazy> = listed
            .kvs
            .into_iter()
            .map(|kv| (kv.key.clone(), Lazy::new(Some(kv), &self.scheme)))
            .collect();
        let start = if last == 0 { listed.revision } else { last };
        // The objects are those at the list's revision: from there on the cache knows
        // every previous value itself and the storage need not send them. Resuming from
        // an older revision, the replay runs behind the objects, so it carries them.
        let (upstream, restarted) = match self
            .storage_watch(&prefix, start, start >= listed.revision)
            .await
        {
            Ok(s) => (s, None),
            Err(e) => {
                // History gone: start over from a list at the current revision (Go's
                // relist); earlier revisions are expired.
                let now = self
                    .storage
                    .list(&prefix, &ListOptions::default())
                    .await
                    .map_err(|e| interpret_error(e, &qualified, ""))?;
                if now.revision == start {
                    return Err(interpret_error(e, &qualified, ""));
                }
                let upstream = self
                    .storage_watch(&prefix, now.revision, true)
                    .await
                    .map_err(|e| interpret_error(e, &qualified, ""))?;
                let objects = now
                    .kvs
                    .into_iter()
                    .map(|kv| (kv.key.clone(), Lazy::new(Some(kv), &self.scheme)))
                    .collect();
                (upstream, Some((now.revision, objects)))
            }
        };
        let tx = {
            let mut window = self.window();
            match restarted {
                Some((now, objects)) => {
                    window.history.clear();
                    window.by_key = Some(objects);
                    window.valid_from = now;
                    window.seen = now;
                    window.watch_from = now;
                    window.snapshots_from = now;
                    window.from_opening = false;
                }
                None => {
                    if window.seen == 0 {
                        window.seen = start;
                        window.watch_from = start;
                        window.snapshots_from = start;
                        window.from_opening = at_opening;
                    }
                    // Resumed from an older revision: the objects are those of the
                    // list, and trusted once the watch has replayed up to it.
                    window.by_key = Some(objects);
                    window.valid_from = listed.revision;
                }
            }
            self.seen.send_replace(window.seen);
            window.tx.clone()
        };
        st.running = true;
        // The pump holds the cache weakly: once the server drops its stores, the cache
        // and its storage go with them (a redb file can be opened again), and the pump
        // ends at the storage watch's next item or end.
        tokio::spawn(Self::pump(Arc::downgrade(self), upstream, tx));
        Ok(())
    }

    /// The storage watch of `prefix` after `from`; without the previous values when
    /// `exact` (the cache's objects are those at `from`, so it has them itself).
    async fn storage_watch(
        &self,
        prefix: &str,
        from: Revision,
        exact: bool,
    ) -> Result<crate::storage::WatchStream, crate::storage::StorageError> {
        if exact {
            self.storage.watch_without_prev(prefix, from).await
        } else {
            self.storage.watch(prefix, from).await
        }
    }

    /// The events after revision `from` (0: from now on) under the resource's prefix,
    /// and the revision they follow (`from`, or the current one for 0: a list at it and
    /// then these events miss nothing). A `from` older than the cache's window is Go's
    /// 410 Expired "too old resource version", the stream's one item, when the window
    /// begins where Go's would; else it is served by a storage watch of its own.
    pub async fn watch(
        self: &Arc<Self>,
        from: Revision,
    ) -> Result<(Revision, CacheWatch), StatusError> {
        let qualified = self.info.qualified_resource();
        {
            let mut st = self.state.lock().await;
            if !st.running {
                self.start_locked(&mut st).await?;
            }
        }
        let served = {
            let mut window = self.window();
            let from = if from == 0 { window.seen } else { from };
            if from < window.watch_from {
                // Go's answer, or (its window not Go's) the storage's.
                let expired = window.from_opening.then(|| {
                    errors::new_resource_expired(format!(
                        "too old resource version: {from} ({})",
                        window.watch_from
                    ))
                });
                Err((from, expired))
            } else {
                let replay: Vec<Result<Arc<CacheEvent>, StatusError>> = window
                    .history
                    .after(from)
                    .filter(|e| e.deliverable())
                    .cloned()
                    .map(Ok)
                    .collect();
                let window = &mut *window;
                Ok((from, replay, window.relays.subscribe(&window.tx)))
            }
        };
        let (from, replay, rx) = match served {
            Ok(served) => served,
            Err((from, Some(expired))) => {
                return Ok((from, stream::iter([Err(expired)]).boxed()));
            }
            Err((from, None)) => return Ok((from, self.watch_storage(from).await?)),
        };
        // The pump sends an event after adding it to the ring: one this watch replayed
        // may arrive live too, and is skipped (revisions only grow).
        let after = window_last(&replay).max(from);
        // The resource's name travels in the state (it names the resource in the error
        // of a watcher that fell behind), not cloned for every event.
        let live = stream::unfold(Some((rx, qualified)), move |state| async move {
            let (mut rx, qualified) = state?;
            loop {
                match rx.recv().await {
                    Ok(e) if e.revision > after && e.deliverable() => {
                        return Some((Ok(e), Some((rx, qualified))));
                    }
                    Ok(_) => continue,
                    Err(broadcast::error::RecvError::Lagged(n)) => {
                        return Some((
                            Err(errors::new_resource_expired(format!(
                                "watch of {qualified} fell {n} events behind; watch again from the last resourceVersion seen"
                            ))),
                            None,
                        ));
                    }
                    Err(broadcast::error::RecvError::Closed) => return None,
                }
            }
        });
        Ok((from, stream::iter(replay).chain(live).boxed()))
    }

    /// A client's own storage watch, for a revision older than the cache covers.
    async fn watch_storage(&self, from: Revision) -> Result<CacheWatch, StatusError> {
        let qualified = self.info.qualified_resource();
        let upstream = self
            .storage
            .watch(&self.info.collection_prefix(None), from)
            .await
            .map_err(|e| interpret_error(e, &qualified, ""))?;
        let scheme = self.scheme.clone();
        Ok(upstream
            .map(move |item| match item {
                Ok(ev) => {
                    let event = lazy_event(&scheme, ev);
                    match event.decode_error() {
                        Some(e) => Err(e),
                        None => Ok(Arc::new(event)),
                    }
                }
                Err(e) => Err(interpret_error(e, &qualified, "")),
            })
            .boxed())
    }

    async fn pump(
        cache: Weak<Self>,
        mut upstream: crate::storage::WatchStream,
        tx: broadcast::Sender<Arc<CacheEvent>>,
    ) {
        // Storage watches in a row that ended before delivering anything: a backend that
        // is down. After a few, with a pause between them, the cache gives up.
        let mut barren = 0u32;
        loop {
            let mut delivered = false;
            while let Some(item) = upstream.next().await {
                let Ok(ev) = item else {
                    break;
                };
                let Some(this) = cache.upgrade() else {
                    return;
                };
                delivered = true;
                let revision = ev.revision();
                // Read outside the lock, as Go takes its time before its lock.
                let received = this.clock.now();
                let (event, seen) = {
                    let mut window = this.window();
                    let event = Arc::new(apply(&mut window, &this.scheme, ev));
                    window.seen = window.seen.max(revision);
                    if event.event_type != EventType::Progress {
                        window.push(event.clone(), received);
                    }
                    (event, window.seen)
                };
                this.seen.send_replace(seen);
                // Sent outside the lock, so that readers of the window do not wait for
                // the fan-out. No receiver is not an error: the cache keeps running for
                // later clients.
                let _ = tx.send(event);
            }
            // The storage watch ended (a slow consumer, a lost connection): resume where
            // it stopped, so clients miss nothing.
            barren = if delivered { 0 } else { barren + 1 };
            let Some(this) = cache.upgrade() else {
                return;
            };
            if barren > RESUME_ATTEMPTS {
                this.stopped().await;
                return;
            }
            if barren > 0 {
                tokio::time::sleep(RESUME_PAUSE * barren).await;
            }
            let prefix = this.info.collection_prefix(None);
            let (from, exact) = {
                let window = this.window();
                (
                    window.seen,
                    window.by_key.is_some() && window.seen >= window.valid_from,
                )
            };
            match this.storage_watch(&prefix, from, exact).await {
                Ok(next) => upstream = next,
                Err(_) => {
                    this.stopped().await;
                    return;
                }
            }
        }
    }

    /// The storage cannot resume (history compacted, backend gone): every client watch
    /// ends (they re-watch from where they were, and get 410 if that is gone), and the
    /// next client restarts the storage watch.
    async fn stopped(&self) {
        let mut st = self.state.lock().await;
        st.running = false;
        let mut window = self.window();
        window.by_key = None;
        let (tx, _) = broadcast::channel(CLIENT_BUFFER);
        window.tx = tx;
        // The relays of the old channel end with it.
        window.relays = Relays::default();
    }
}

/// The revision of the last event of a replay (0 for none).
fn window_last(replay: &[Result<Arc<CacheEvent>, StatusError>]) -> Revision {
    match replay.last() {
        Some(Ok(e)) => e.revision,
        _ => 0,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests;
