//! How long an item waits before it is retried (client-go's `workqueue.RateLimiter`).
//!
//! The default controller rate limiter is the larger of a per-item exponential backoff
//! (5 ms doubling to 1000 s) and an overall token bucket (10 per second, burst 100): a
//! single failing item backs off on its own, and a storm of failures is held to the
//! bucket's rate.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// Decides the delay of an item's next retry and remembers its failures.
pub trait RateLimiter<T>: Send + Sync {
    /// The delay before `item` is retried; each call counts one more failure.
    fn when(&self, item: &T) -> Duration;
    /// Forgets `item`'s failures (it succeeded, or was given up on).
    fn forget(&self, item: &T);
    /// How many failures of `item` are remembered.
    fn num_requeues(&self, item: &T) -> u32;
}

/// Per-item exponential backoff: `base * 2^failures`, capped at `max` (client-go's
/// `ItemExponentialFailureRateLimiter`).
#[derive(Debug)]
pub struct ItemExponentialFailureRateLimiter<T> {
    base: Duration,
    max: Duration,
    failures: Mutex<HashMap<T, u32>>,
}

impl<T: Eq + Hash + Clone> ItemExponentialFailureRateLimiter<T> {
    /// A limiter starting at `base` and never waiting longer than `max`.
    pub fn new(base: Duration, max: Duration) -> Self {
        Self {
            base,
            max,
            failures: Mutex::new(HashMap::new()),
        }
    }
}

/// Locks a mutex, taking over a poisoned one: the guarded maps stay consistent even when
/// a panic interrupted another holder (every update is a single insert or remove).
pub(crate) fn lock<V>(m: &Mutex<V>) -> std::sync::MutexGuard<'_, V> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl<T: Eq + Hash + Clone + Send> RateLimiter<T> for ItemExponentialFailureRateLimiter<T> {
    fn when(&self, item: &T) -> Duration {
        let exp = {
            let mut failures = lock(&self.failures);
            let count = failures.entry(item.clone()).or_insert(0);
            let exp = *count;
            *count = count.saturating_add(1);
            exp
        };
        // 2^exp overflows long before it matters: past 2^62 (or any overflow) it is the max.
        let factor = 1u64.checked_shl(exp).filter(|f| *f <= 1 << 62);
        let nanos = factor.and_then(|f| {
            u64::try_from(self.base.as_nanos())
                .ok()
                .and_then(|b| b.checked_mul(f))
        });
        match nanos {
            Some(n) => Duration::from_nanos(n).min(self.max),
            None => self.max,
        }
    }

    fn forget(&self, item: &T) {
        lock(&self.failures).remove(item);
    }

    fn num_requeues(&self, item: &T) -> u32 {
        lock(&self.failures).get(item).copied().unwrap_or(0)
    }
}

/// An overall token bucket (client-go's `BucketRateLimiter` over `x/time/rate`): tokens
/// refill at `qps` up to `burst`; each retry takes one, and when none is left the retry
/// waits until its token will have refilled (reservations may run the bucket negative,
/// so concurrent retries queue up behind each other).
#[derive(Debug)]
pub struct BucketRateLimiter {
    qps: f64,
    burst: f64,
    state: Mutex<BucketState>,
}

#[derive(Debug)]
struct BucketState {
    tokens: f64,
    last: Option<Instant>,
}

impl BucketRateLimiter {
    /// A full bucket of `burst` tokens refilling at `qps` per second.
    pub fn new(qps: f64, burst: u32) -> Self {
        Self {
            qps,
            burst: f64::from(burst),
            state: Mutex::new(BucketState {
                tokens: f64::from(burst),
                last: None,
            }),
        }
    }

    fn reserve(&self) -> Duration {
        let now = Instant::now();
        let mut state = lock(&self.state);
        if let Some(last) = state.last {
            let elapsed = now.saturating_duration_since(last).as_secs_f64();
            state.tokens = (state.tokens + elapsed * self.qps).min(self.burst);
        }
        state.last = Some(now);
        state.tokens -= 1.0;
        if state.tokens >= 0.0 || self.qps <= 0.0 {
            Duration::ZERO
        } else {
            Duration::try_from_secs_f64(-state.tokens / self.qps).unwrap_or(Duration::MAX)
        }
    }
}

impl<T> RateLimiter<T> for BucketRateLimiter {
    fn when(&self, _item: &T) -> Duration {
        self.reserve()
    }

    fn forget(&self, _item: &T) {}

    fn num_requeues(&self, _item: &T) -> u32 {
        0
    }
}

/// The longest delay of several limiters (client-go's `MaxOfRateLimiter`); every limiter
/// is asked, so each counts the failure.
pub struct MaxOfRateLimiter<T> {
    limiters: Vec<Box<dyn RateLimiter<T>>>,
}

impl<T> std::fmt::Debug for MaxOfRateLimiter<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MaxOfRateLimiter")
            .field("limiters", &self.limiters.len())
            .finish()
    }
}

impl<T> MaxOfRateLimiter<T> {
    /// The maximum of `limiters`.
    pub fn new(limiters: Vec<Box<dyn RateLimiter<T>>>) -> Self {
        Self { limiters }
    }
}

impl<T> RateLimiter<T> for MaxOfRateLimiter<T> {
    fn when(&self, item: &T) -> Duration {
        self.limiters
            .iter()
            .map(|l| l.when(item))
            .max()
            .unwrap_or(Duration::ZERO)
    }

    fn forget(&self, item: &T) {
        for l in &self.limiters {
            l.forget(item);
        }
    }

    fn num_requeues(&self, item: &T) -> u32 {
        self.limiters
            .iter()
            .map(|l| l.num_requeues(item))
            .max()
            .unwrap_or(0)
    }
}

/// client-go's `DefaultControllerRateLimiter` (what controller-runtime's controllers use):
/// per-item 5 ms..1000 s exponential backoff, max'd with a 10 qps, burst 100 bucket.
pub fn default_controller_rate_limiter<T>() -> MaxOfRateLimiter<T>
where
    T: Eq + Hash + Clone + Send + Sync + 'static,
{
    MaxOfRateLimiter::new(vec![
        Box::new(ItemExponentialFailureRateLimiter::new(
            Duration::from_millis(5),
            Duration::from_secs(1000),
        )),
        Box::new(BucketRateLimiter::new(10.0, 100)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponential_doubles_per_item_and_caps() {
        let l = ItemExponentialFailureRateLimiter::new(
            Duration::from_millis(5),
            Duration::from_secs(1000),
        );
        assert_eq!(l.when(&"a"), Duration::from_millis(5));
        assert_eq!(l.when(&"a"), Duration::from_millis(10));
        assert_eq!(l.when(&"a"), Duration::from_millis(20));
        assert_eq!(
            l.when(&"b"),
            Duration::from_millis(5),
            "items back off on their own"
        );
        assert_eq!(RateLimiter::num_requeues(&l, &"a"), 3);
        for _ in 0..100 {
            l.when(&"a");
        }
        assert_eq!(l.when(&"a"), Duration::from_secs(1000));
        l.forget(&"a");
        assert_eq!(RateLimiter::num_requeues(&l, &"a"), 0);
        assert_eq!(l.when(&"a"), Duration::from_millis(5));
    }

    #[tokio::test(start_paused = true)]
    async fn bucket_allows_burst_then_paces() {
        let b = BucketRateLimiter::new(10.0, 100);
        for _ in 0..100 {
            assert_eq!(RateLimiter::<&str>::when(&b, &"x"), Duration::ZERO);
        }
        let d1 = RateLimiter::<&str>::when(&b, &"x");
        let d2 = RateLimiter::<&str>::when(&b, &"x");
        assert!((d1.as_secs_f64() - 0.1).abs() < 1e-6, "{d1:?}");
        assert!((d2.as_secs_f64() - 0.2).abs() < 1e-6, "{d2:?}");
        tokio::time::advance(Duration::from_secs(20)).await;
        assert_eq!(
            RateLimiter::<&str>::when(&b, &"x"),
            Duration::ZERO,
            "refilled"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn default_is_max_of_both() {
        let l = default_controller_rate_limiter::<u32>();
        for i in 0..100 {
            assert_eq!(l.when(&i), Duration::from_millis(5));
        }
        // The 101st retry finds the bucket empty: 100 ms beats the item's 5 ms.
        assert!(l.when(&1000) >= Duration::from_millis(99));
        assert_eq!(l.num_requeues(&3), 1);
        l.forget(&3);
        assert_eq!(l.num_requeues(&3), 0);
    }
}
