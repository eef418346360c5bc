//! The cache's window of recent events, sized as Go's `watchCacheHistory` sizes it: by
//! how recent its events are, not by a fixed count. It starts small, doubles whenever it
//! is full of events younger than [`EVENT_FRESH`], up to [`UPPER_BOUND`], and halves
//! (down to [`LOWER_BOUND`]) when even its newest quarter is older than that. A burst of
//! writes (a controller creating thousands of objects) thus stays in the window long
//! enough for the watchers that fell behind to resume from it, and are replayed from
//! the cache's events (each encoded once for all of them), rather than each getting a
//! storage watch of its own (every object decoded and encoded again per watcher) or Go's
//! 410; a quiet resource keeps little.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::CacheEvent;

/// Go's `defaultLowerBoundCapacity`: the window's first and smallest capacity.
pub(super) const LOWER_BOUND: usize = 100;
/// Go's `defaultUpperBoundCapacity`, for its default history window.
pub(super) const UPPER_BOUND: usize = 100 * 1024;
/// Go's `DefaultEventFreshDuration` (its bookmark frequency, a minute, plus 15 seconds):
/// how long events are wanted in the window.
pub(super) const EVENT_FRESH: Duration = Duration::from_secs(75);

/// The events of the window, oldest first, with the time each was recorded.
#[derive(Debug)]
pub(super) struct History {
    events: VecDeque<Arc<CacheEvent>>,
    /// When each of `events` was added (the same length, in the same order).
    recorded: VecDeque<Instant>,
    capacity: usize,
}

impl Default for History {
    fn default() -> Self {
        History {
            events: VecDeque::new(),
            recorded: VecDeque::new(),
            capacity: LOWER_BOUND,
        }
    }
}

impl History {
    /// The events, oldest first.
    pub(super) fn events(&self) -> &VecDeque<Arc<CacheEvent>> {
        &self.events
    }

    /// Whether the window holds as many events as it may (Go's `isCacheFullLocked`).
    pub(super) fn is_full(&self) -> bool {
        self.events.len() >= self.capacity
    }

    /// Forgets every event (a relist starts the window over); the capacity stays.
    pub(super) fn clear(&mut self) {
        self.events.clear();
        self.recorded.clear();
    }

    /// Makes every event older by `by`, as if recorded that much earlier (for tests of
    /// the cache around it, whose clock is the real one).
    #[cfg(test)]
    pub(super) fn age_by(&mut self, by: Duration) {
        for t in &mut self.recorded {
            *t = t.checked_sub(by).unwrap_or(*t);
        }
    }

    /// Adds an event recorded at `now`, first resizing the window as Go's
    /// `resizeCacheLocked` does, then dropping the oldest events past its capacity (Go's
    /// `updateCache`): whether any was dropped.
    pub(super) fn push(&mut self, event: Arc<CacheEvent>, now: Instant) -> bool {
        let mut dropped = self.resize(now);
        while self.is_full() {
            self.events.pop_front();
            self.recorded.pop_front();
            dropped = true;
        }
        self.events.push_back(event);
        self.recorded.push_back(now);
        dropped
    }

    /// Doubles a full window whose oldest event is fresh, or halves one whose newest
    /// quarter is stale (dropping its oldest events to fit): whether any was dropped.
    fn resize(&mut self, now: Instant) -> bool {
        if !self.is_full() {
            return false;
        }
        let age = |i: usize| {
            self.recorded
                .get(i)
                .map(|t| now.saturating_duration_since(*t))
        };
        if age(0).is_some_and(|a| a < EVENT_FRESH) {
            self.capacity = (self.capacity * 2).min(UPPER_BOUND);
            return false;
        }
        let newest_quarter = self.events.len() - self.capacity / 4;
        if age(newest_quarter).is_some_and(|a| a > EVENT_FRESH) {
            let smaller = (self.capacity / 2).max(LOWER_BOUND);
            if smaller < self.capacity {
                self.capacity = smaller;
                let excess = self.events.len().saturating_sub(smaller);
                self.events.drain(..excess);
                self.recorded.drain(..excess);
                return excess > 0;
            }
        }
        false
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::registry::cacher::EventType;

    fn event(revision: i64) -> Arc<CacheEvent> {
        Arc::new(CacheEvent {
            event_type: EventType::Progress,
            revision,
            object: Default::default(),
            prev: Default::default(),
            lines: Default::default(),
        })
    }

    fn revisions(h: &History) -> (i64, i64) {
        let e = h.events();
        (e.front().unwrap().revision, e.back().unwrap().revision)
    }

    #[test]
    fn a_burst_of_fresh_events_is_kept_whole_up_to_the_upper_bound() {
        let now = Instant::now();
        let mut h = History::default();
        for r in 1..=1000 {
            assert!(!h.push(event(r), now));
        }
        assert_eq!((h.events().len(), h.capacity), (1000, 1600));
        assert_eq!(revisions(&h), (1, 1000));
        let mut h = History::default();
        let n = i64::try_from(UPPER_BOUND).unwrap() + 10;
        let mut dropped = 0;
        for r in 1..=n {
            dropped += usize::from(h.push(event(r), now));
        }
        assert_eq!((h.events().len(), h.capacity), (UPPER_BOUND, UPPER_BOUND));
        assert_eq!(dropped, 10);
        assert_eq!(revisions(&h), (11, n));
    }

    #[test]
    fn stale_events_make_room_and_a_stale_window_shrinks() {
        let start = Instant::now();
        let mut h = History::default();
        let then = start + Duration::from_secs(50);
        for r in 1..=400 {
            h.push(event(r), if r <= 300 { start } else { then });
        }
        assert_eq!(h.capacity, 400);
        // Full, its oldest event stale but not its newest quarter: the next drops the
        // oldest, without growing or shrinking.
        let later = start + EVENT_FRESH + Duration::from_secs(5);
        assert!(h.push(event(401), later));
        assert_eq!((h.events().len(), h.capacity), (400, 400));
        assert_eq!(revisions(&h), (2, 401));
        // Its newest quarter is stale too once time passes again: halved.
        let much_later = then + EVENT_FRESH + Duration::from_secs(1);
        assert!(h.push(event(402), much_later));
        assert_eq!((h.events().len(), h.capacity), (200, 200));
        assert_eq!(revisions(&h), (203, 402));
        // Never below the lower bound, however stale.
        for r in 403..=1000u32 {
            h.push(event(r.into()), much_later + EVENT_FRESH * 2 * (r - 402));
        }
        assert_eq!(h.capacity, LOWER_BOUND);
        assert_eq!(h.events().len(), LOWER_BOUND);
    }
}
