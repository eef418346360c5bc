//! Controllers (controller-runtime's `pkg/controller` and its internal controller): a
//! work queue of [`Request`]s fed by [`Source`]s, drained by `max_concurrent_reconciles`
//! workers calling the [`Reconciler`].
//!
//! Per request, as controller-runtime does: an error requeues it rate-limited (per-item
//! backoff), unless it is a [`TerminalError`](crate::reconcile::TerminalError), which is
//! counted and logged only; a panic is caught, counted and treated as an error, and the controller
//! goes on; [`Action::requeue_after`](crate::reconcile::Action::requeue_after) forgets
//! the backoff and requeues after the delay; [`Action::requeue`](crate::reconcile::Action::requeue)
//! requeues rate-limited; success forgets the backoff.
//!
//! Most programs build controllers with [`builder::ControllerBuilder`](crate::builder::ControllerBuilder)
//! through a manager; this is the layer below it.

use std::fmt;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::FutureExt as _;
use tokio_util::sync::CancellationToken;

use crate::handler::EventHandler;
use crate::predicate::Predicate;
use crate::reconcile::{Reconciler, Request};
use crate::source::{EventSink, Source, SourceError};
use crate::workqueue::{RateLimiter, WorkQueue, default_controller_rate_limiter};

/// How a controller runs (controller-runtime's `controller.Options`).
pub struct Options {
    /// Workers reconciling at once; distinct requests only (default 1).
    pub max_concurrent_reconciles: usize,
    /// The work queue's rate limiter (default: client-go's default controller rate
    /// limiter).
    pub rate_limiter: Option<Box<dyn RateLimiter<Request>>>,
    /// How long to wait for the sources' initial lists (default 2 minutes).
    pub cache_sync_timeout: Duration,
    /// Whether the controller runs only on the leader (default true).
    pub need_leader_election: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            max_concurrent_reconciles: 1,
            rate_limiter: None,
            cache_sync_timeout: Duration::from_secs(120),
            need_leader_election: true,
        }
    }
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("max_concurrent_reconciles", &self.max_concurrent_reconciles)
            .field("rate_limiter", &self.rate_limiter.is_some())
            .field("cache_sync_timeout", &self.cache_sync_timeout)
            .field("need_leader_election", &self.need_leader_election)
            .finish()
    }
}

/// Errors of running a controller.
#[derive(Debug, thiserror::Error)]
pub enum ControllerError {
    /// A source could not start.
    #[error("controller {controller:?}: {source}")]
    Source {
        /// The controller.
        controller: String,
        /// Why.
        #[source]
        source: SourceError,
    },
    /// A source did not sync within the timeout.
    #[error("controller {controller:?}: {source_name} did not sync within {timeout:?}")]
    CacheSyncTimeout {
        /// The controller.
        controller: String,
        /// The source.
        source_name: String,
        /// The timeout.
        timeout: Duration,
    },
    /// The controller was started twice.
    #[error("controller {controller:?} was already started")]
    AlreadyStarted {
        /// The controller.
        controller: String,
    },
}

/// Counts of reconcile outcomes (controller-runtime's `controller_runtime_reconcile_*`
/// metrics), readable while the controller runs.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Reconciles that returned `Ok` with nothing to requeue.
    pub success: AtomicU64,
    /// Reconciles that returned an error (panics included).
    pub error: AtomicU64,
    /// Reconciles that panicked.
    pub panic: AtomicU64,
    /// Reconciles that failed with a [`TerminalError`](crate::reconcile::TerminalError)
    /// (also counted in `error`), not requeued.
    pub terminal_error: AtomicU64,
    /// Reconciles that asked for a rate-limited requeue.
    pub requeue: AtomicU64,
    /// Reconciles that asked for a requeue after a delay.
    pub requeue_after: AtomicU64,
    /// How long reconciles took, every outcome included.
    pub reconcile_time: ReconcileTime,
}

/// The upper bounds, in seconds, of the reconcile time buckets (Go's
/// `controller_runtime_reconcile_time_seconds`).
pub const RECONCILE_TIME_BUCKETS: [f64; 40] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9,
    1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 15.0, 20.0,
    25.0, 30.0, 40.0, 50.0, 60.0,
];

/// A histogram of reconcile durations over [`RECONCILE_TIME_BUCKETS`], lock-free.
#[derive(Debug)]
pub struct ReconcileTime {
    /// Observations per bucket, each counted once (in the first bucket that holds it).
    buckets: [AtomicU64; RECONCILE_TIME_BUCKETS.len()],
    sum_nanos: AtomicU64,
    count: AtomicU64,
}

impl Default for ReconcileTime {
    fn default() -> Self {
        Self {
            buckets: std::array::from_fn(|_| AtomicU64::new(0)),
            sum_nanos: AtomicU64::new(0),
            count: AtomicU64::new(0),
        }
    }
}

impl ReconcileTime {
    /// Records one reconcile that took `took`.
    pub fn observe(&self, took: Duration) {
        let secs = took.as_secs_f64();
        let bucket = RECONCILE_TIME_BUCKETS.partition_point(|&le| le < secs);
        if let Some(b) = self.buckets.get(bucket) {
            b.fetch_add(1, Ordering::Relaxed);
        }
        let nanos = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        self.sum_nanos.fetch_add(nanos, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
    }

    /// How many reconciles were recorded.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// Their total duration.
    pub fn sum(&self) -> Duration {
        Duration::from_nanos(self.sum_nanos.load(Ordering::Relaxed))
    }

    /// Each bucket's upper bound with the number of reconciles that took at most that
    /// (cumulative, as Prometheus writes buckets).
    pub fn cumulative(&self) -> impl Iterator<Item = (f64, u64)> + '_ {
        let mut seen = 0;
        RECONCILE_TIME_BUCKETS
            .iter()
            .zip(&self.buckets)
            .map(move |(&le, n)| {
                seen += n.load(Ordering::Relaxed);
                (le, seen)
            })
    }
}

impl Metrics {
    /// Every reconcile so far.
    pub fn total(&self) -> u64 {
        self.success.load(Ordering::Relaxed)
            + self.error.load(Ordering::Relaxed)
            + self.requeue.load(Ordering::Relaxed)
            + self.requeue_after.load(Ordering::Relaxed)
    }
}

struct Watch {
    source: Box<dyn Source>,
    handler: Arc<dyn EventHandler>,
    predicates: Vec<Arc<dyn Predicate>>,
}

/// A controller: sources, a queue and a reconciler.
pub struct Controller<R: Reconciler> {
    name: String,
    reconciler: Arc<R>,
    queue: WorkQueue<Request>,
    watches: std::sync::Mutex<Vec<Watch>>,
    max_concurrent_reconciles: usize,
    cache_sync_timeout: Duration,
    need_leader_election: bool,
    metrics: Arc<Metrics>,
    started: std::sync::atomic::AtomicBool,
}

impl<R: Reconciler> fmt::Debug for Controller<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Controller")
            .field("name", &self.name)
            .field("max_concurrent_reconciles", &self.max_concurrent_reconciles)
            .finish()
    }
}

impl<R: Reconciler> Controller<R> {
    /// A controller named `name` (names appear in errors and logs).
    pub fn new(name: impl Into<String>, reconciler: R, options: Options) -> Self {
        let queue = match options.rate_limiter {
            Some(limiter) => WorkQueue::with_rate_limiter(BoxedLimiter(limiter)),
            None => WorkQueue::with_rate_limiter(default_controller_rate_limiter()),
        };
        Self {
            name: name.into(),
            reconciler: Arc::new(reconciler),
            queue,
            watches: std::sync::Mutex::new(Vec::new()),
            max_concurrent_reconciles: options.max_concurrent_reconciles.max(1),
            cache_sync_timeout: options.cache_sync_timeout,
            need_leader_election: options.need_leader_election,
            metrics: Arc::new(Metrics::default()),
            started: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Adds a source whose events go through `predicates` to `handler` (Go's `Watch`).
    /// Sources added after the start are started at the next start only; add them first.
    pub fn watch(
        &self,
        source: impl Source + 'static,
        handler: impl EventHandler + 'static,
        predicates: Vec<Arc<dyn Predicate>>,
    ) {
        self.watch_boxed(Box::new(source), Arc::new(handler), predicates);
    }

    /// [`watch`](Self::watch) with the source and handler already boxed.
    pub fn watch_boxed(
        &self,
        source: Box<dyn Source>,
        handler: Arc<dyn EventHandler>,
        predicates: Vec<Arc<dyn Predicate>>,
    ) {
        crate::workqueue::lock(&self.watches).push(Watch {
            source,
            handler,
            predicates,
        });
    }

    /// The controller's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The work queue (to enqueue requests by hand, or to look at its length).
    pub fn queue(&self) -> &WorkQueue<Request> {
        &self.queue
    }

    /// How many reconciles may run at once (`Options::max_concurrent_reconciles`, at least 1).
    pub fn max_concurrent_reconciles(&self) -> usize {
        self.max_concurrent_reconciles
    }

    /// The reconcile counters.
    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }

    /// Whether the controller should run only while leading.
    pub fn need_leader_election(&self) -> bool {
        self.need_leader_election
    }

    /// Runs the controller until `cancel` fires: starts the sources, waits for them to
    /// sync, runs the workers; on cancel, stops taking requests and waits for the
    /// reconciles in flight.
    pub async fn start(&self, cancel: CancellationToken) -> Result<(), ControllerError> {
        if self.started.swap(true, Ordering::SeqCst) {
            return Err(ControllerError::AlreadyStarted {
                controller: self.name.clone(),
            });
        }
        let watches = std::mem::take(&mut *crate::workqueue::lock(&self.watches));
        for w in &watches {
            let sink = EventSink::new(
                Arc::clone(&w.handler),
                w.predicates.clone(),
                self.queue.clone(),
            );
            w.source
                .start(sink, cancel.clone())
                .map_err(|source| ControllerError::Source {
                    controller: self.name.clone(),
                    source,
                })?;
        }
        for w in &watches {
            let synced =
                tokio::time::timeout(self.cache_sync_timeout, w.source.wait_for_sync(&cancel))
                    .await;
            match synced {
                Ok(true) => {}
                // Cancelled while waiting: a clean stop.
                Ok(false) => {
                    self.queue.shut_down();
                    return Ok(());
                }
                Err(_) => {
                    self.queue.shut_down();
                    return Err(ControllerError::CacheSyncTimeout {
                        controller: self.name.clone(),
                        source_name: w.source.describe(),
                        timeout: self.cache_sync_timeout,
                    });
                }
            }
        }
        let mut workers = tokio::task::JoinSet::new();
        for _ in 0..self.max_concurrent_reconciles {
            let worker = Worker {
                name: self.name.clone(),
                reconciler: Arc::clone(&self.reconciler),
                queue: self.queue.clone(),
                metrics: Arc::clone(&self.metrics),
            };
            workers.spawn(worker.run());
        }
        cancel.cancelled().await;
        // Workers finish the reconcile they are in, then see the queue shut down.
        self.queue.shut_down();
        while workers.join_next().await.is_some() {}
        Ok(())
    }
}

/// A boxed limiter as a limiter (the queue takes `impl RateLimiter`).
struct BoxedLimiter(Box<dyn RateLimiter<Request>>);

impl RateLimiter<Request> for BoxedLimiter {
    fn when(&self, item: &Request) -> Duration {
        self.0.when(item)
    }
    fn forget(&self, item: &Request) {
        self.0.forget(item);
    }
    fn num_requeues(&self, item: &Request) -> u32 {
        self.0.num_requeues(item)
    }
}

struct Worker<R> {
    name: String,
    reconciler: Arc<R>,
    queue: WorkQueue<Request>,
    metrics: Arc<Metrics>,
}

impl<R: Reconciler> Worker<R> {
    async fn run(self) {
        while let Some(request) = self.queue.get().await {
            self.reconcile_handler(&request).await;
            self.queue.done(&request);
        }
    }

    async fn reconcile_handler(&self, request: &Request) {
        let start = std::time::Instant::now();
        let outcome = AssertUnwindSafe(self.reconciler.reconcile(request.clone()))
            .catch_unwind()
            .await;
        let m = &self.metrics;
        m.reconcile_time.observe(start.elapsed());
        match outcome {
            Err(panic) => {
                m.panic.fetch_add(1, Ordering::Relaxed);
                m.error.fetch_add(1, Ordering::Relaxed);
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "non-string panic payload".to_owned());
                tracing::error!(controller = %self.name, %request, panic = %message, "reconcile panicked");
                self.queue.add_rate_limited(request.clone());
            }
            Ok(Err(error)) => {
                m.error.fetch_add(1, Ordering::Relaxed);
                tracing::error!(controller = %self.name, %request, %error, "reconcile failed");
                // As controller-runtime: a terminal error neither requeues nor forgets the
                // item's backoff; the next event about the object brings it back.
                if crate::reconcile::is_terminal(&error) {
                    m.terminal_error.fetch_add(1, Ordering::Relaxed);
                } else {
                    self.queue.add_rate_limited(request.clone());
                }
            }
            Ok(Ok(action)) => {
                if let Some(delay) = action.requeue_after_duration() {
                    m.requeue_after.fetch_add(1, Ordering::Relaxed);
                    self.queue.forget(request);
                    self.queue.add_after(request.clone(), delay);
                } else if action.is_requeue() {
                    m.requeue.fetch_add(1, Ordering::Relaxed);
                    self.queue.add_rate_limited(request.clone());
                } else {
                    m.success.fetch_add(1, Ordering::Relaxed);
                    self.queue.forget(request);
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::event::GenericEvent;
    use crate::handler::EnqueueRequestForObject;
    use crate::reconcile::{self, Action};
    use crate::source::Channel;
    use k8s_types::core::v1::ConfigMap;
    use std::collections::HashMap;
    use std::sync::Mutex;

    fn cm(name: &str) -> GenericEvent {
        let mut c = ConfigMap::default();
        c.metadata.name = name.into();
        c.metadata.namespace = "ns".into();
        GenericEvent {
            object: Arc::new(c),
        }
    }

    #[derive(Debug, thiserror::Error)]
    #[error("boom")]
    struct Boom;

    async fn until(cond: impl Fn() -> bool) {
        for _ in 0..2000 {
            if cond() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        panic!("condition not reached");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn errors_requeue_with_backoff_and_panics_are_caught() {
        let calls: Arc<Mutex<HashMap<String, u32>>> = Arc::default();
        let c2 = calls.clone();
        let r = reconcile::func(move |req: Request| {
            let calls = c2.clone();
            async move {
                let n = {
                    let mut calls = calls.lock().unwrap();
                    let n = calls.entry(req.name.clone()).or_insert(0);
                    *n += 1;
                    *n
                };
                match req.name.as_str() {
                    "fails-twice" if n <= 2 => Err(Boom),
                    "panics-once" if n == 1 => panic!("reconcile bug"),
                    _ => Ok(Action::done()),
                }
            }
        });
        let controller = Arc::new(Controller::new("test", r, Options::default()));
        let (source, tx) = Channel::new("events", 10);
        controller.watch(source, EnqueueRequestForObject, vec![]);
        let cancel = CancellationToken::new();
        let run = tokio::spawn({
            let (c, cancel) = (controller.clone(), cancel.clone());
            async move { c.start(cancel).await }
        });
        for name in ["ok", "fails-twice", "panics-once"] {
            tx.send(cm(name)).await.unwrap();
        }
        let m = controller.metrics().clone();
        until(|| m.success.load(Ordering::Relaxed) == 3).await;
        assert_eq!(m.error.load(Ordering::Relaxed), 3);
        assert_eq!(m.panic.load(Ordering::Relaxed), 1);
        let calls = calls.lock().unwrap().clone();
        assert_eq!(calls["fails-twice"], 3);
        assert_eq!(calls["panics-once"], 2);
        assert_eq!(calls["ok"], 1);
        // Success forgot the backoff.
        assert_eq!(
            controller
                .queue()
                .num_requeues(&Request::new("ns", "fails-twice")),
            0
        );
        cancel.cancel();
        run.await.unwrap().unwrap();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_terminal_error_is_not_retried_until_the_next_event() {
        let calls = Arc::new(AtomicU64::new(0));
        let c = calls.clone();
        let r = reconcile::func(move |_req: Request| {
            let c = c.clone();
            async move {
                c.fetch_add(1, Ordering::SeqCst);
                Err::<Action, _>(reconcile::TerminalError::new(Boom))
            }
        });
        let controller = Arc::new(Controller::new("terminal", r, Options::default()));
        let (source, tx) = Channel::new("events", 10);
        controller.watch(source, EnqueueRequestForObject, vec![]);
        let cancel = CancellationToken::new();
        let run = tokio::spawn({
            let (c, cancel) = (controller.clone(), cancel.clone());
            async move { c.start(cancel).await }
        });
        tx.send(cm("bad")).await.unwrap();
        let m = controller.metrics().clone();
        until(|| m.terminal_error.load(Ordering::Relaxed) == 1).await;
        // A retry would come after the queue's first backoff (5 ms); give it ample time
        // to show up if it were scheduled.
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        assert_eq!(controller.queue().len(), 0);
        // A new event about the object reconciles it again.
        tx.send(cm("bad")).await.unwrap();
        until(|| m.terminal_error.load(Ordering::Relaxed) == 2).await;
        assert_eq!(m.error.load(Ordering::Relaxed), 2);
        assert_eq!(calls.load(Ordering::SeqCst), 2);
        cancel.cancel();
        run.await.unwrap().unwrap();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn requeue_after_and_concurrency() {
        let active = Arc::new(AtomicU64::new(0));
        let peak = Arc::new(AtomicU64::new(0));
        let calls = Arc::new(AtomicU64::new(0));
        let (a, p, c) = (active.clone(), peak.clone(), calls.clone());
        let r = reconcile::func(move |req: Request| {
            let (a, p, c) = (a.clone(), p.clone(), c.clone());
            async move {
                let now = a.fetch_add(1, Ordering::SeqCst) + 1;
                p.fetch_max(now, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(20)).await;
                a.fetch_sub(1, Ordering::SeqCst);
                let n = c.fetch_add(1, Ordering::SeqCst);
                if req.name == "again" && n < 100 {
                    return Ok::<_, Boom>(Action::requeue_after(Duration::from_millis(10)));
                }
                Ok(Action::done())
            }
        });
        let options = Options {
            max_concurrent_reconciles: 4,
            ..Options::default()
        };
        let controller = Arc::new(Controller::new("conc", r, options));
        let (source, tx) = Channel::new("events", 100);
        controller.watch(source, EnqueueRequestForObject, vec![]);
        let cancel = CancellationToken::new();
        let run = tokio::spawn({
            let (c, cancel) = (controller.clone(), cancel.clone());
            async move { c.start(cancel).await }
        });
        for i in 0..8 {
            tx.send(cm(&format!("o{i}"))).await.unwrap();
        }
        tx.send(cm("again")).await.unwrap();
        let m = controller.metrics().clone();
        until(|| m.success.load(Ordering::Relaxed) == 9).await;
        assert!(m.requeue_after.load(Ordering::Relaxed) >= 1);
        let peak = peak.load(Ordering::SeqCst);
        assert!((2..=4).contains(&peak), "peak concurrency {peak}");
        cancel.cancel();
        run.await.unwrap().unwrap();
        assert_eq!(
            active.load(Ordering::SeqCst),
            0,
            "shutdown waited for reconciles"
        );
    }
}
