//! The watch cache's recent events, kept for resuming watches and for exact lists (Go's
//! `watchCacheHistory`, `k8s.io/apiserver/pkg/storage/cacher/watch_cache_history.go`),
//! in a ring whose capacity follows the resource's rate of events as Go's does.
//!
//! Go keeps at least [`FRESH`] (75 s, `DefaultEventFreshDuration`) of history when it
//! can: the capacity starts at [`LOWER_BOUND`] (100) events, doubles (up to
//! [`UPPER_BOUND`], 100 × 1,024) when an event arrives at a full ring whose oldest event
//! is younger than that, and halves (down to the lower bound) when the event a quarter
//! of the capacity back is older than that (a quarter, not the oldest, so that the ring
//! does not flap between the two). A client resuming a watch from a revision of the last
//! 75 s is then served from the cache however busy the resource is, and a quiet resource
//! holds only a hundred events.
//!
//! The rule runs on every event, in constant time: two ages compared, the capacity a
//! number. The ring's storage is reallocated only when the capacity changes (reserved
//! to the doubled size at once, released when halved), each time after at least as many
//! events as it moves, so an event costs amortized constant time, as Go's copy on resize
//! does.
//!
//! Each slot is an event's time and a shared reference to it (24 bytes on 64-bit Linux):
//! 2.4 MB at the upper bound. The ring keeps its events alive: about 350 bytes each of
//! bookkeeping (the event, its stored value's handle, the cells of its decoded objects
//! and lines; 35 MB at the upper bound), and the stored key and value of every one not
//! current any more (an object's latest value is shared with the cache's objects), plus
//! the objects and lines made of them once a watcher needed them. Go's history holds its
//! events' decoded objects likewise. A resource reaches the upper bound only at over
//! 1,365 events a second for 75 s.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::CacheEvent;
use crate::storage::Revision;

/// How long the history keeps events when it can (Go's `DefaultEventFreshDuration`,
/// the default `EventsHistoryWindow`: its bookmark frequency, 1 min, plus 15 s).
pub(super) const FRESH: Duration = Duration::from_secs(75);
/// The capacity the history starts at and never goes under (Go's
/// `defaultLowerBoundCapacity`).
pub(super) const LOWER_BOUND: usize = 100;
/// The capacity the history never goes over (Go's `defaultUpperBoundCapacity`, its
/// bound for the default freshness).
pub(super) const UPPER_BOUND: usize = 100 * 1024;

/// Where the history's times come from (Go's `clock.Clock` of the watch cache's
/// config): the monotonic clock, moved ahead by what tests skip, so that they can age
/// events without waiting.
#[derive(Clone, Debug, Default)]
pub(super) struct Clock {
    /// Nanoseconds added to the monotonic clock; always zero outside tests.
    skipped: Arc<AtomicU64>,
}

impl Clock {
    /// The current time.
    pub(super) fn now(&self) -> Instant {
        Instant::now() + Duration::from_nanos(self.skipped.load(Ordering::Relaxed))
    }

    /// Moves the clock ahead by `by`.
    #[cfg(test)]
    pub(super) fn advance(&self, by: Duration) {
        let nanos = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
        self.skipped.fetch_add(nanos, Ordering::Relaxed);
    }
}

/// The ring of recent events, oldest first, each with the time the cache received it.
#[derive(Debug)]
pub(super) struct History {
    events: VecDeque<(Instant, Arc<CacheEvent>)>,
    /// How many events the ring holds at most now, between the bounds.
    capacity: usize,
}

impl Default for History {
    fn default() -> Self {
        History {
            events: VecDeque::with_capacity(LOWER_BOUND),
            capacity: LOWER_BOUND,
        }
    }
}

impl History {
    /// How many events the ring holds at most now.
    #[cfg(test)]
    pub(super) fn capacity(&self) -> usize {
        self.capacity
    }

    /// Whether the ring holds as many events as it may: the next one drops the oldest,
    /// unless the ring grows first.
    pub(super) fn is_full(&self) -> bool {
        self.events.len() >= self.capacity
    }

    /// Adds `event`, received at `at`, after resizing the ring by Go's rule; whether
    /// older events were dropped for it.
    pub(super) fn push(&mut self, event: Arc<CacheEvent>, at: Instant) -> bool {
        let mut dropped = self.resize(at);
        if self.is_full() {
            self.events.pop_front();
            dropped = true;
        }
        self.events.push_back((at, event));
        dropped
    }

    /// Go's `resizeCacheLocked`, for an event arriving at `now`: a full ring whose oldest
    /// event is fresh doubles; one whose event a quarter of the capacity back is stale
    /// halves, dropping its oldest events. Whether events were dropped.
    fn resize(&mut self, now: Instant) -> bool {
        if !self.is_full() {
            return false;
        }
        let age = |index: usize| {
            self.events
                .get(index)
                .map(|(at, _)| now.saturating_duration_since(*at))
        };
        if age(0).is_some_and(|age| age < FRESH) {
            let grown = (self.capacity * 2).min(UPPER_BOUND);
            if grown > self.capacity {
                // One allocation per doubling, not the deque's own steps.
                self.events.reserve_exact(grown - self.events.len());
                self.capacity = grown;
            }
            return false;
        }
        let quarter_back = self.events.len().saturating_sub(self.capacity / 4);
        if age(quarter_back).is_some_and(|age| age > FRESH) {
            let shrunk = (self.capacity / 2).max(LOWER_BOUND);
            if shrunk < self.capacity {
                let excess = self.events.len().saturating_sub(shrunk);
                self.events.drain(..excess);
                self.events.shrink_to(shrunk);
                self.capacity = shrunk;
                return excess > 0;
            }
        }
        false
    }

    /// The revision of the oldest event held.
    pub(super) fn oldest(&self) -> Option<Revision> {
        self.events.front().map(|(_, e)| e.revision)
    }

    /// The events held after `revision`, oldest first.
    pub(super) fn after(&self, revision: Revision) -> impl Iterator<Item = &Arc<CacheEvent>> {
        let first = self.events.partition_point(|(_, e)| e.revision <= revision);
        self.events.range(first..).map(|(_, e)| e)
    }

    /// Forgets every event (Go's `ResetLocked`, on a relist), keeping the capacity.
    pub(super) fn clear(&mut self) {
        self.events.clear();
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::registry::cacher::apply::lazy_event;
    use crate::storage::WatchEvent;

    /// An event at `revision` (a progress event: the history holds any kind alike).
    fn event(revision: Revision) -> Arc<CacheEvent> {
        static SCHEME: std::sync::LazyLock<Arc<apimachinery::runtime::Scheme>> =
            std::sync::LazyLock::new(Arc::default);
        Arc::new(lazy_event(&SCHEME, WatchEvent::Progress { revision }))
    }

    /// Pushes events `from..to`, received at `at`; whether any was dropped.
    fn push_all(history: &mut History, from: Revision, to: Revision, at: Instant) -> bool {
        let mut dropped = false;
        for revision in from..to {
            dropped |= history.push(event(revision), at);
        }
        dropped
    }

    fn revisions(history: &History) -> Vec<Revision> {
        history.after(0).map(|e| e.revision).collect()
    }

    #[test]
    fn a_busy_ring_doubles_up_to_the_upper_bound_and_drops_nothing_fresh() {
        let mut history = History::default();
        let now = Instant::now();
        assert!(!push_all(&mut history, 1, 101, now));
        assert_eq!((history.capacity(), history.is_full()), (100, true));
        // The 101st event finds the ring full of fresh events: it doubles.
        assert!(!history.push(event(101), now));
        assert_eq!(history.capacity(), 200);
        assert!(!push_all(&mut history, 102, 1_601, now));
        assert_eq!((history.capacity(), history.is_full()), (1_600, true));
        assert_eq!(history.oldest(), Some(1));
        // Events older than 1,024 back are still held.
        assert_eq!(history.after(1_600 - 1_500).count(), 1_500);
        // Never past the upper bound: there the oldest is dropped however fresh.
        let end = Revision::try_from(UPPER_BOUND).unwrap() + 1;
        assert!(!push_all(&mut history, 1_601, end, now));
        assert_eq!(history.capacity(), UPPER_BOUND);
        assert!(history.push(event(end), now));
        assert_eq!(history.capacity(), UPPER_BOUND);
        assert_eq!(history.oldest(), Some(2));
    }

    #[test]
    fn a_ring_of_stale_events_keeps_its_capacity_and_drops_the_oldest() {
        let mut history = History::default();
        let then = Instant::now();
        push_all(&mut history, 1, 101, then);
        // Exactly the window old: neither fresh (to grow) nor stale (to shrink).
        assert!(history.push(event(101), then + FRESH));
        assert_eq!(history.capacity(), 100);
        assert!(history.push(event(102), then + FRESH * 2));
        assert_eq!(history.capacity(), 100);
        assert_eq!(history.oldest(), Some(3));
    }

    #[test]
    fn a_ring_halves_once_a_quarter_back_is_stale_down_to_the_lower_bound() {
        let mut history = History::default();
        let start = Instant::now();
        // 800 events at once: the ring grows to 800, full.
        push_all(&mut history, 1, 801, start);
        assert_eq!((history.capacity(), history.is_full()), (800, true));
        // 100 s later the oldest is stale (no growth), and so is the event 200 back:
        // it halves, keeping the newest 400, then drops one for the new event.
        let later = start + Duration::from_secs(100);
        assert!(history.push(event(801), later));
        assert_eq!(history.capacity(), 400);
        assert_eq!(history.oldest(), Some(402));
        assert_eq!(revisions(&history).len(), 400);
        // Still full and the event 100 back still stale: it halves again, and again,
        // never under the lower bound.
        history.push(event(802), later);
        assert_eq!(history.capacity(), 200);
        history.push(event(803), later);
        assert_eq!(history.capacity(), 100);
        history.push(event(804), later);
        assert_eq!(history.capacity(), 100);
        assert_eq!(revisions(&history), (705..=804).collect::<Vec<_>>());
    }

    #[test]
    fn a_fresh_quarter_back_keeps_the_capacity() {
        let mut history = History::default();
        let start = Instant::now();
        push_all(&mut history, 1, 101, start);
        history.push(event(101), start);
        assert_eq!(history.capacity(), 200);
        // Half the ring old, the newest half fresh: the oldest is stale (no growth),
        // the event 50 back fresh (no shrink).
        let later = start + Duration::from_secs(100);
        push_all(&mut history, 102, 201, later);
        assert!(history.push(event(201), later));
        assert_eq!(history.capacity(), 200);
    }

    #[test]
    fn clearing_keeps_the_capacity() {
        let mut history = History::default();
        let now = Instant::now();
        push_all(&mut history, 1, 201, now);
        assert_eq!(history.capacity(), 200);
        history.clear();
        assert_eq!((history.capacity(), history.oldest()), (200, None));
        assert!(!history.is_full());
    }

    #[test]
    fn the_clock_moves_ahead_when_told() {
        let clock = Clock::default();
        let before = clock.now();
        clock.advance(FRESH);
        assert!(clock.now().duration_since(before) >= FRESH);
    }
}
