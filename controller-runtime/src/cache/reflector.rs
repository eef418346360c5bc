//! The reflector: keeps a store equal to the server's state of one resource (client-go's
//! `cache.Reflector`).
//!
//! It lists, replaces the store at once with the list, then watches from the list's
//! resourceVersion, applying each event. Bookmarks move the resourceVersion on without
//! changing the store. A watch that ends or fails is started again from the last
//! resourceVersion seen, with exponential backoff after failures; a watch (or a list)
//! answered with 410 Expired makes it list again. Every `resync_period` the whole store is
//! re-delivered to the handlers as updates.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use apimachinery::runtime::Object;
use futures_util::StreamExt;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::lister_watcher::{ListWatchError, ListerWatcher, WatchEvent};
use super::processor::{Notifier, Processor};
use super::store::{Indexer, StoreError, object_key};
use super::stored::StoreCodec;
use super::transform::TransformFunc;

/// Called with each list or watch failure the reflector recovers from (client-go's
/// `WatchErrorHandler`); the default drops them.
pub type WatchErrorHandler = Arc<dyn Fn(&ListWatchError) + Send + Sync>;

/// How a reflector retries and resyncs.
#[derive(Clone)]
pub struct ReflectorOptions<T> {
    /// Re-deliver every stored object as an update this often; `None` never does
    /// (controller-runtime's default `SyncPeriod` is 10 hours).
    pub resync_period: Option<Duration>,
    /// The first retry delay after a failed list or watch (client-go: 800ms).
    pub initial_backoff: Duration,
    /// The longest retry delay (client-go: 30s).
    pub max_backoff: Duration,
    /// Applied to each object before it is stored.
    pub transform: Option<TransformFunc<T>>,
    /// Told about each failure the reflector recovers from.
    pub watch_error_handler: Option<WatchErrorHandler>,
    /// How the informer's store holds objects: encoded with this codec and decoded on
    /// each read, or shared as decoded when `None` (the default here; the
    /// [`Cache`](super::Cache) sets it from [`CacheOptions::store_encoded`](super::CacheOptions::store_encoded)).
    pub store_codec: Option<StoreCodec<T>>,
}

impl<T> Default for ReflectorOptions<T> {
    fn default() -> Self {
        ReflectorOptions {
            resync_period: None,
            initial_backoff: Duration::from_millis(800),
            max_backoff: Duration::from_secs(30),
            transform: None,
            watch_error_handler: None,
            store_codec: None,
        }
    }
}

impl<T> std::fmt::Debug for ReflectorOptions<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReflectorOptions")
            .field("resync_period", &self.resync_period)
            .field("initial_backoff", &self.initial_backoff)
            .field("max_backoff", &self.max_backoff)
            .field("transform", &self.transform.is_some())
            .field("store_codec", &self.store_codec)
            .finish()
    }
}

/// What a reflector shares with its informer.
pub(crate) struct Reflector<T> {
    pub(crate) lister_watcher: Arc<dyn ListerWatcher<T>>,
    pub(crate) store: Arc<Indexer<T>>,
    pub(crate) processor: Arc<Processor<T>>,
    pub(crate) options: ReflectorOptions<T>,
    pub(crate) synced: watch::Sender<bool>,
    pub(crate) last_sync_resource_version: Arc<Mutex<String>>,
}

enum WatchOutcome {
    /// Relist: the resourceVersion expired.
    Relist,
    /// Watch again from the current resourceVersion; `failed` asks for backoff.
    Rewatch {
        failed: bool,
    },
    Cancelled,
}

struct Backoff {
    initial: Duration,
    max: Duration,
    next: Duration,
}

impl Backoff {
    fn new(initial: Duration, max: Duration) -> Self {
        Backoff {
            initial,
            max,
            next: initial,
        }
    }
    fn reset(&mut self) {
        self.next = self.initial;
    }
    fn step(&mut self) -> Duration {
        let now = self.next;
        self.next = (self.next * 2).min(self.max);
        now
    }
}

impl<T: Object> Reflector<T> {
    fn report(&self, error: &ListWatchError) {
        if let Some(handler) = &self.options.watch_error_handler {
            handler(error);
        }
    }

    fn set_resource_version(&self, rv: &str) {
        let mut last = self
            .last_sync_resource_version
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        rv.clone_into(&mut last);
    }

    fn prepare(&self, obj: T) -> Arc<T> {
        Arc::new(match &self.options.transform {
            Some(t) => t(obj),
            None => obj,
        })
    }

    /// Runs until `cancel` fires.
    pub(crate) async fn run(&self, cancel: CancellationToken) {
        let mut backoff = Backoff::new(self.options.initial_backoff, self.options.max_backoff);
        let mut first_list = true;
        'relist: loop {
            let listed = tokio::select! {
                _ = cancel.cancelled() => return,
                listed = self.lister_watcher.list() => listed,
            };
            let list = match listed {
                Ok(list) => list,
                Err(error) => {
                    self.report(&error);
                    if sleep_or_cancel(backoff.step(), &cancel).await {
                        return;
                    }
                    continue 'relist;
                }
            };
            backoff.reset();
            self.apply_list(list.items, first_list);
            first_list = false;
            let mut resource_version = list.resource_version;
            self.set_resource_version(&resource_version);
            self.synced.send_replace(true);
            loop {
                match self.watch_once(&mut resource_version, &cancel).await {
                    WatchOutcome::Cancelled => return,
                    WatchOutcome::Relist => continue 'relist,
                    WatchOutcome::Rewatch { failed: false } => backoff.reset(),
                    WatchOutcome::Rewatch { failed: true } => {
                        if sleep_or_cancel(backoff.step(), &cancel).await {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Replaces the store with a fresh list and tells the handlers the difference.
    fn apply_list(&self, items: Vec<T>, first_list: bool) {
        let items: Vec<Arc<T>> = items.into_iter().map(|o| self.prepare(o)).collect();
        let notifier = self.processor.lock();
        let mut old = self.store.replace_entries(&items);
        if notifier.len() == 0 {
            return;
        }
        for obj in &items {
            let key = object_key(obj.as_ref());
            match old.remove(key.as_str()) {
                Some(previous) => match self.store.load_entry(&key, &previous) {
                    Ok(previous) => notifier.update(&previous, obj),
                    Err(error) => self.undecodable_previous(&notifier, &error, obj),
                },
                None => notifier.add(obj, first_list),
            }
        }
        for (key, gone) in &old {
            match self.store.load_entry(key, gone) {
                Ok(gone) => notifier.delete(&gone, true),
                Err(error) => report_undecodable(&error),
            }
        }
    }

    /// An update whose previous state does not decode (a codec bug, logged): handlers
    /// are told the new state as both, so that they still see the change.
    fn undecodable_previous(&self, notifier: &Notifier<'_, T>, error: &StoreError, obj: &Arc<T>) {
        report_undecodable(error);
        notifier.update(obj, obj);
    }

    fn resync(&self) {
        let notifier = self.processor.lock();
        for obj in self.store.list() {
            notifier.update(&obj, &obj);
        }
    }

    async fn watch_once(
        &self,
        resource_version: &mut String,
        cancel: &CancellationToken,
    ) -> WatchOutcome {
        let started = tokio::select! {
            _ = cancel.cancelled() => return WatchOutcome::Cancelled,
            started = self.lister_watcher.watch(resource_version) => started,
        };
        let mut stream = match started {
            Ok(stream) => stream,
            Err(error) => {
                self.report(&error);
                return if error.is_expired() {
                    WatchOutcome::Relist
                } else {
                    WatchOutcome::Rewatch { failed: true }
                };
            }
        };
        let resync_every = self.options.resync_period;
        let mut resync = resync_every.map(|period| {
            let mut interval =
                tokio::time::interval_at(tokio::time::Instant::now() + period, period);
            interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            interval
        });
        loop {
            let event = tokio::select! {
                _ = cancel.cancelled() => return WatchOutcome::Cancelled,
                _ = tick(&mut resync) => {
                    self.resync();
                    continue;
                }
                event = stream.next() => event,
            };
            match event {
                None => return WatchOutcome::Rewatch { failed: false },
                Some(Err(error)) => {
                    self.report(&error);
                    return if error.is_expired() {
                        WatchOutcome::Relist
                    } else {
                        WatchOutcome::Rewatch { failed: true }
                    };
                }
                Some(Ok(WatchEvent::Bookmark {
                    resource_version: rv,
                })) => {
                    *resource_version = rv;
                }
                Some(Ok(WatchEvent::Added(obj) | WatchEvent::Modified(obj))) => {
                    let rv = new_resource_version(&obj);
                    let obj = self.prepare(obj);
                    let notifier = self.processor.lock();
                    // The previous state is decoded only when a handler is told of it.
                    match self.store.add_entry(&obj) {
                        (_, Some(_)) if notifier.len() == 0 => {}
                        (key, Some(old)) => match self.store.load_entry(&key, &old) {
                            Ok(old) => notifier.update(&old, &obj),
                            Err(error) => self.undecodable_previous(&notifier, &error, &obj),
                        },
                        (_, None) => notifier.add(&obj, false),
                    }
                    drop(notifier);
                    if let Some(rv) = rv {
                        *resource_version = rv;
                    }
                }
                Some(Ok(WatchEvent::Deleted(obj))) => {
                    let rv = new_resource_version(&obj);
                    let notifier = self.processor.lock();
                    let key = object_key(&obj);
                    let last = self.store.delete_entry(&key);
                    // The handlers get the state the cache held (transformed as every
                    // other object they see), or the event's object if it held none
                    // (or what it held does not decode).
                    let last = match last {
                        Some(last) if notifier.len() > 0 => self
                            .store
                            .load_entry(&key, &last)
                            .inspect_err(report_undecodable)
                            .ok(),
                        _ => None,
                    };
                    let last = last.unwrap_or_else(|| self.prepare(obj));
                    notifier.delete(&last, false);
                    drop(notifier);
                    if let Some(rv) = rv {
                        *resource_version = rv;
                    }
                }
            }
            self.set_resource_version(resource_version);
        }
    }
}

fn report_undecodable(error: &StoreError) {
    tracing::error!(%error, "cache: the previous state of an object does not decode");
}

fn new_resource_version<T: Object>(obj: &T) -> Option<String> {
    obj.meta()
        .map(|m| m.resource_version())
        .filter(|rv| !rv.is_empty())
        .map(str::to_owned)
}

async fn tick(interval: &mut Option<tokio::time::Interval>) {
    match interval {
        Some(interval) => {
            interval.tick().await;
        }
        None => std::future::pending::<()>().await,
    }
}

/// Sleeps; true if cancelled meanwhile.
async fn sleep_or_cancel(delay: Duration, cancel: &CancellationToken) -> bool {
    tokio::select! {
        _ = cancel.cancelled() => true,
        _ = tokio::time::sleep(delay) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::Backoff;
    use std::time::Duration;

    #[test]
    fn backoff_doubles_up_to_the_cap_and_resets() {
        let mut b = Backoff::new(Duration::from_millis(100), Duration::from_millis(350));
        let steps: Vec<_> = (0..4).map(|_| b.step().as_millis()).collect();
        assert_eq!(steps, vec![100, 200, 350, 350]);
        b.reset();
        assert_eq!(b.step().as_millis(), 100);
    }
}
