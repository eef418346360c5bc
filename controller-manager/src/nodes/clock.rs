//! The simulated cluster's clock: real time, or real time sped up, so that a test does
//! not wait out a Pod's 30-second grace period or a Job's simulated run time.

use std::time::{Duration, Instant};

use apimachinery::apis::meta::v1::Time;

/// A clock that starts at the real time and runs `speed` times as fast. Timestamps the
/// simulated kubelet writes (`startTime`, `startedAt`, `finishedAt`) come from
/// [`now`](Self::now); waits on simulated durations (grace periods, run times) last
/// [`real_duration`](Self::real_duration) of them.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    speed: f64,
    origin: Instant,
    origin_unix: Duration,
}

impl Default for Clock {
    fn default() -> Self {
        Clock::real()
    }
}

impl Clock {
    /// Real time.
    pub fn real() -> Self {
        Clock::scaled(1.0)
    }

    /// Time running `speed` times as fast as real time (`speed` ≤ 0 or not finite is
    /// taken as 1).
    pub fn scaled(speed: f64) -> Self {
        let speed = if speed.is_finite() && speed > 0.0 {
            speed
        } else {
            1.0
        };
        let origin_unix = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        Clock {
            speed,
            origin: Instant::now(),
            origin_unix,
        }
    }

    /// How many times as fast as real time the clock runs.
    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// The simulated time now, to the second (as the kubelet's timestamps are written).
    pub fn now(&self) -> Time {
        let simulated = self.origin_unix + self.origin.elapsed().mul_f64(self.speed);
        Time::from_unix(i64::try_from(simulated.as_secs()).unwrap_or(i64::MAX), 0)
    }

    /// How long a simulated `duration` lasts in real time.
    pub fn real_duration(&self, duration: Duration) -> Duration {
        duration.div_f64(self.speed)
    }

    /// The real time left until `seconds` simulated seconds have passed since `since`
    /// (a time of this clock's), zero when they have.
    pub fn until(&self, since: &Time, seconds: i64) -> Duration {
        let due = since.unix_seconds().saturating_add(seconds);
        let left = due.saturating_sub(self.now().unix_seconds());
        if left <= 0 {
            Duration::ZERO
        } else {
            self.real_duration(Duration::from_secs(left.unsigned_abs()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sped_up_clock_shortens_waits() {
        let clock = Clock::scaled(10.0);
        assert_eq!(
            clock.real_duration(Duration::from_secs(30)),
            Duration::from_secs(3)
        );
        let now = clock.now();
        assert_eq!(clock.until(&now, 0), Duration::ZERO);
        let left = clock.until(&now, 30);
        assert!(
            left <= Duration::from_secs(3) && left > Duration::from_secs(2),
            "{left:?}"
        );
    }

    #[test]
    fn a_bad_speed_is_real_time() {
        assert_eq!(Clock::scaled(0.0).speed(), 1.0);
        assert_eq!(Clock::scaled(f64::NAN).speed(), 1.0);
        assert_eq!(Clock::scaled(-2.0).speed(), 1.0);
    }
}
