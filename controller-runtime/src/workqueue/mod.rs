//! A rate-limited, de-duplicating work queue (client-go's `workqueue` package, the
//! `TypedRateLimitingInterface` controllers use).
//!
//! - An item added while it is already waiting is not added twice (the *dirty* set).
//! - An item handed to a worker is *processing* until [`WorkQueue::done`]; adding it again
//!   meanwhile only marks it dirty, and `done` puts it back, so no item is ever handed to
//!   two workers at once and no change is lost.
//! - [`WorkQueue::add_after`] adds an item once a delay has passed (an item waiting twice
//!   keeps the earlier time); [`WorkQueue::add_rate_limited`] waits as long as the
//!   [`RateLimiter`] says, [`WorkQueue::forget`] resets that.
//! - [`WorkQueue::shut_down`] stops new additions; workers still receive what is queued,
//!   then `None`. [`WorkQueue::shut_down_with_drain`] also waits for items being processed.
//!
//! ```
//! use controller_runtime::workqueue::WorkQueue;
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! let queue = WorkQueue::new();
//! queue.add("a");
//! queue.add("a"); // already waiting: de-duplicated
//! queue.add("b");
//! assert_eq!(queue.len(), 2);
//! let item = queue.get().await.unwrap();
//! assert_eq!(item, "a");
//! queue.done(&item);
//! # }
//! ```

mod rate_limiter;

pub use rate_limiter::{
    BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter, RateLimiter,
    default_controller_rate_limiter,
};

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};
use std::fmt;
use std::hash::Hash;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

pub(crate) use rate_limiter::lock;

/// What an item in a [`WorkQueue`] must be: a small key, cloned, hashed and compared.
pub trait QueueItem: Clone + Eq + Hash + Send + Sync + 'static {}
impl<T: Clone + Eq + Hash + Send + Sync + 'static> QueueItem for T {}

/// A rate-limited, de-duplicating, delaying work queue; cheap to clone (all clones are
/// the same queue).
pub struct WorkQueue<T: QueueItem> {
    shared: Arc<Shared<T>>,
}

impl<T: QueueItem> Clone for WorkQueue<T> {
    fn clone(&self) -> Self {
        Self {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<T: QueueItem + fmt::Debug> fmt::Debug for WorkQueue<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = lock(&self.shared.state);
        f.debug_struct("WorkQueue")
            .field("queue", &state.queue)
            .field("processing", &state.processing)
            .field("waiting", &state.waiting.len())
            .field("shutting_down", &state.shutting_down)
            .finish()
    }
}

struct Shared<T> {
    state: Mutex<State<T>>,
    rate_limiter: Box<dyn RateLimiter<T>>,
    /// Wakes workers waiting in `get` (one per added item; all on shutdown).
    item_ready: Notify,
    /// Wakes the delay timer when an earlier deadline arrives, on shutdown and when the
    /// queue is dropped (the timer holds it, not the queue, so it can notice the drop).
    waiting_changed: Arc<Notify>,
    /// Wakes `shut_down_with_drain` as processing items finish.
    drained: Notify,
}

struct State<T> {
    queue: VecDeque<T>,
    dirty: HashSet<T>,
    processing: HashSet<T>,
    /// Delayed items and when each is due (the earliest of its `add_after` calls).
    waiting: HashMap<T, Instant>,
    /// Due times, lazily pruned: an entry whose time no longer matches `waiting` is stale.
    deadlines: BinaryHeap<Reverse<(Instant, u64)>>,
    deadline_items: HashMap<u64, T>,
    next_seq: u64,
    timer_running: bool,
    shutting_down: bool,
    drain: bool,
}

impl<T: QueueItem> Default for WorkQueue<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: QueueItem> WorkQueue<T> {
    /// A queue with client-go's default controller rate limiter
    /// ([`default_controller_rate_limiter`]).
    pub fn new() -> Self {
        Self::with_rate_limiter(default_controller_rate_limiter())
    }

    /// A queue whose `add_rate_limited` asks `rate_limiter`.
    pub fn with_rate_limiter(rate_limiter: impl RateLimiter<T> + 'static) -> Self {
        Self {
            shared: Arc::new(Shared {
                state: Mutex::new(State {
                    queue: VecDeque::new(),
                    dirty: HashSet::new(),
                    processing: HashSet::new(),
                    waiting: HashMap::new(),
                    deadlines: BinaryHeap::new(),
                    deadline_items: HashMap::new(),
                    next_seq: 0,
                    timer_running: false,
                    shutting_down: false,
                    drain: false,
                }),
                rate_limiter: Box::new(rate_limiter),
                item_ready: Notify::new(),
                waiting_changed: Arc::new(Notify::new()),
                drained: Notify::new(),
            }),
        }
    }

    /// Queues `item` unless it is already queued; an item being processed is queued again
    /// when its worker calls [`done`](Self::done). Ignored after shutdown.
    pub fn add(&self, item: T) {
        let mut state = lock(&self.shared.state);
        if self.shared.add_locked(&mut state, item) {
            drop(state);
            self.shared.item_ready.notify_one();
        }
    }

    /// The number of items queued (not those being processed or waiting for a delay).
    pub fn len(&self) -> usize {
        lock(&self.shared.state).queue.len()
    }

    /// Whether no item is queued.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The next item, waiting for one; `None` once the queue is shut down and empty. The
    /// caller must call [`done`](Self::done) with the item when it has processed it.
    pub async fn get(&self) -> Option<T> {
        loop {
            let notified = self.shared.item_ready.notified();
            tokio::pin!(notified);
            // Registered before looking, so an add or shutdown in between is not missed.
            notified.as_mut().enable();
            {
                let mut state = lock(&self.shared.state);
                if let Some(item) = state.queue.pop_front() {
                    state.dirty.remove(&item);
                    state.processing.insert(item.clone());
                    let more = !state.queue.is_empty();
                    drop(state);
                    if more {
                        // Pass on a wake-up this worker may have consumed for another item.
                        self.shared.item_ready.notify_one();
                    }
                    return Some(item);
                }
                if state.shutting_down {
                    return None;
                }
            }
            notified.await;
        }
    }

    /// Marks `item` as processed; if it was added again meanwhile it is queued now.
    pub fn done(&self, item: &T) {
        let mut state = lock(&self.shared.state);
        state.processing.remove(item);
        let requeue = state.dirty.contains(item);
        if requeue {
            state.queue.push_back(item.clone());
        }
        let drained = state.processing.is_empty();
        drop(state);
        if requeue {
            self.shared.item_ready.notify_one();
        }
        if drained {
            self.shared.drained.notify_waiters();
        }
    }

    /// Adds `item` after `delay` (at once for a zero delay). An item already waiting keeps
    /// the earlier of its times. Ignored after shutdown. Needs a tokio runtime.
    pub fn add_after(&self, item: T, delay: Duration) {
        if delay.is_zero() {
            self.add(item);
            return;
        }
        let due = Instant::now() + delay;
        let mut state = lock(&self.shared.state);
        if state.shutting_down {
            return;
        }
        if let Some(existing) = state.waiting.get(&item) {
            if *existing <= due {
                return;
            }
        }
        state.waiting.insert(item.clone(), due);
        let seq = state.next_seq;
        state.next_seq += 1;
        state.deadlines.push(Reverse((due, seq)));
        state.deadline_items.insert(seq, item);
        let start_timer = !state.timer_running;
        state.timer_running = true;
        drop(state);
        if start_timer {
            tokio::spawn(run_timer(Arc::downgrade(&self.shared)));
        } else {
            self.shared.waiting_changed.notify_one();
        }
    }

    /// Adds `item` after the delay the rate limiter gives it (one more failure counted).
    pub fn add_rate_limited(&self, item: T) {
        let delay = self.shared.rate_limiter.when(&item);
        self.add_after(item, delay);
    }

    /// Makes the rate limiter forget `item`'s failures (call it when the item succeeded).
    pub fn forget(&self, item: &T) {
        self.shared.rate_limiter.forget(item);
    }

    /// How many times `item` has been rate-limited since it was last forgotten.
    pub fn num_requeues(&self, item: &T) -> u32 {
        self.shared.rate_limiter.num_requeues(item)
    }

    /// Stops the queue: additions are ignored, delayed items dropped, and `get` returns
    /// what is still queued and then `None`.
    pub fn shut_down(&self) {
        let mut state = lock(&self.shared.state);
        state.shutting_down = true;
        state.waiting.clear();
        state.deadlines.clear();
        state.deadline_items.clear();
        drop(state);
        self.shared.item_ready.notify_waiters();
        self.shared.waiting_changed.notify_one();
    }

    /// [`shut_down`](Self::shut_down), then waits until every item handed out has been
    /// marked [`done`](Self::done).
    pub async fn shut_down_with_drain(&self) {
        lock(&self.shared.state).drain = true;
        self.shut_down();
        loop {
            let notified = self.shared.drained.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if lock(&self.shared.state).processing.is_empty() {
                return;
            }
            notified.await;
        }
    }

    /// Whether [`shut_down`](Self::shut_down) was called.
    pub fn shutting_down(&self) -> bool {
        lock(&self.shared.state).shutting_down
    }

    /// The number of items handed to workers and not yet done.
    pub fn num_processing(&self) -> usize {
        lock(&self.shared.state).processing.len()
    }
}

impl<T> Drop for Shared<T> {
    fn drop(&mut self) {
        // Lets the timer task see that the queue is gone.
        self.waiting_changed.notify_one();
    }
}

impl<T: QueueItem> Shared<T> {
    /// Adds under the lock; whether a worker should be woken.
    fn add_locked(&self, state: &mut State<T>, item: T) -> bool {
        if state.shutting_down || state.dirty.contains(&item) {
            return false;
        }
        state.dirty.insert(item.clone());
        if state.processing.contains(&item) {
            return false;
        }
        state.queue.push_back(item);
        true
    }
}

/// Moves delayed items into the queue as they fall due. One task per queue, started by
/// the first `add_after`; it ends when the queue is shut down or dropped.
async fn run_timer<T: QueueItem>(shared: Weak<Shared<T>>) {
    let Some(waiting_changed) = shared.upgrade().map(|s| Arc::clone(&s.waiting_changed)) else {
        return;
    };
    loop {
        let notified = waiting_changed.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        let Some(strong) = shared.upgrade() else {
            return;
        };
        let next = {
            let mut state = lock(&strong.state);
            if state.shutting_down {
                state.timer_running = false;
                return;
            }
            let now = Instant::now();
            let mut woken = 0usize;
            while let Some(Reverse((due, seq))) = state.deadlines.peek().copied() {
                if due > now {
                    break;
                }
                state.deadlines.pop();
                let Some(item) = state.deadline_items.remove(&seq) else {
                    continue;
                };
                // Stale when the item was re-scheduled earlier (its own entry moved it).
                if state.waiting.get(&item) != Some(&due) {
                    continue;
                }
                state.waiting.remove(&item);
                if strong.add_locked(&mut state, item) {
                    woken += 1;
                }
            }
            for _ in 0..woken {
                strong.item_ready.notify_one();
            }
            state.deadlines.peek().map(|Reverse((due, _))| *due)
        };
        drop(strong);
        match next {
            Some(due) => {
                tokio::select! {
                    () = tokio::time::sleep_until(due) => {}
                    () = &mut notified => {}
                }
            }
            None => notified.await,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    async fn settle() {
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn add_deduplicates_and_is_fifo() {
        let q = WorkQueue::new();
        q.add("a");
        q.add("b");
        q.add("a");
        assert_eq!(q.len(), 2);
        assert_eq!(q.get().await, Some("a"));
        assert_eq!(q.get().await, Some("b"));
        assert!(q.is_empty());
    }

    #[tokio::test]
    async fn item_added_while_processing_waits_for_done() {
        let q = WorkQueue::new();
        q.add(1);
        let item = q.get().await.unwrap();
        q.add(1);
        q.add(1);
        assert_eq!(q.len(), 0, "never queued while a worker holds it");
        q.done(&item);
        assert_eq!(q.len(), 1, "re-queued exactly once after done");
        assert_eq!(q.get().await, Some(1));
        q.done(&1);
        assert_eq!(q.len(), 0);
        assert_eq!(q.num_processing(), 0);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn never_processed_concurrently() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let q = WorkQueue::<u32>::new();
        let active: Arc<[AtomicUsize; 4]> = Arc::new(Default::default());
        let processed = Arc::new(AtomicUsize::new(0));
        let mut workers = Vec::new();
        for _ in 0..4 {
            let (q, active, processed) = (q.clone(), active.clone(), processed.clone());
            workers.push(tokio::spawn(async move {
                while let Some(item) = q.get().await {
                    let slot = &active[item as usize];
                    assert_eq!(slot.fetch_add(1, Ordering::SeqCst), 0, "item {item} twice");
                    tokio::task::yield_now().await;
                    slot.fetch_sub(1, Ordering::SeqCst);
                    processed.fetch_add(1, Ordering::SeqCst);
                    q.done(&item);
                }
            }));
        }
        for round in 0..500u32 {
            q.add(round % 4);
            if round % 7 == 0 {
                tokio::task::yield_now().await;
            }
        }
        q.shut_down_with_drain().await;
        for w in workers {
            w.await.unwrap();
        }
        assert!(processed.load(Ordering::SeqCst) >= 4);
    }

    #[tokio::test(start_paused = true)]
    async fn add_after_waits_and_keeps_the_earlier_time() {
        let q = WorkQueue::new();
        q.add_after("x", Duration::from_secs(10));
        q.add_after("x", Duration::from_secs(5));
        q.add_after("x", Duration::from_secs(20));
        settle().await;
        assert_eq!(q.len(), 0);
        tokio::time::advance(Duration::from_secs(4)).await;
        settle().await;
        assert_eq!(q.len(), 0);
        tokio::time::advance(Duration::from_secs(1)).await;
        settle().await;
        assert_eq!(q.len(), 1);
        assert_eq!(q.get().await, Some("x"));
        q.done(&"x");
        tokio::time::advance(Duration::from_secs(30)).await;
        settle().await;
        assert_eq!(q.len(), 0, "the later calls were folded into the first");
    }

    #[tokio::test(start_paused = true)]
    async fn get_wakes_for_a_delayed_item() {
        let q = WorkQueue::new();
        let start = Instant::now();
        q.add_after(7, Duration::from_millis(250));
        assert_eq!(q.get().await, Some(7));
        assert_eq!(start.elapsed(), Duration::from_millis(250));
    }

    #[tokio::test(start_paused = true)]
    async fn rate_limited_backs_off_exponentially_until_forgotten() {
        let q = WorkQueue::new();
        let mut delays = Vec::new();
        for _ in 0..4 {
            let start = Instant::now();
            q.add_rate_limited("k");
            let item = q.get().await.unwrap();
            delays.push(start.elapsed());
            q.done(&item);
        }
        assert_eq!(delays, [5, 10, 20, 40].map(Duration::from_millis).to_vec());
        assert_eq!(q.num_requeues(&"k"), 4);
        q.forget(&"k");
        assert_eq!(q.num_requeues(&"k"), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn shut_down_hands_out_the_rest_then_none() {
        let q = WorkQueue::new();
        q.add(1);
        q.add(2);
        q.add_after(3, Duration::from_secs(1));
        q.shut_down();
        q.add(4);
        assert!(q.shutting_down());
        assert_eq!(q.get().await, Some(1));
        assert_eq!(q.get().await, Some(2));
        tokio::time::advance(Duration::from_secs(2)).await;
        assert_eq!(q.get().await, None);
    }

    #[tokio::test(start_paused = true)]
    async fn shut_down_wakes_waiting_workers() {
        let q = WorkQueue::<u8>::new();
        let waiter = tokio::spawn({
            let q = q.clone();
            async move { q.get().await }
        });
        settle().await;
        q.shut_down();
        assert_eq!(waiter.await.unwrap(), None);
    }

    #[tokio::test(start_paused = true)]
    async fn drain_waits_for_processing_items() {
        let q = WorkQueue::new();
        q.add("busy");
        let item = q.get().await.unwrap();
        let drained = tokio::spawn({
            let q = q.clone();
            async move { q.shut_down_with_drain().await }
        });
        settle().await;
        assert!(!drained.is_finished());
        q.done(&item);
        drained.await.unwrap();
        assert_eq!(q.get().await, None);
    }
}
