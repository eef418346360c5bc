//! Leader election over a `coordination.k8s.io/v1` Lease (client-go's
//! `tools/leaderelection` with the Lease lock, as controller-runtime's manager uses it).
//!
//! Semantics are client-go's: a candidate takes the lease when it is free or when its
//! holder has not renewed it for `lease_duration` *as observed locally* (clocks of
//! different machines are never compared: the candidate times from when it last saw the
//! record change); the leader renews every `retry_period` and steps down when it could not
//! renew for `renew_deadline`; with `release_on_cancel` a leader that stops clears the
//! holder so another candidate takes over at once. Taking over from another holder counts
//! one more `leaseTransitions`. Writes carry the read `resourceVersion`, so two candidates
//! racing for the lease cannot both win.

use std::time::Duration;

use apimachinery::apis::meta::v1::MicroTime;
use k8s_types::coordination::v1::{Lease, LeaseSpec};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::client::{self, Client, ObjectKey};

/// Where and how to elect (client-go's `LeaderElectionConfig` with a Lease lock).
#[derive(Clone, Debug)]
pub struct LeaderElectionConfig {
    /// The Lease's namespace.
    pub namespace: String,
    /// The Lease's name (controller-runtime's `LeaderElectionID`).
    pub name: String,
    /// This candidate's identity (`holderIdentity`); unique per process.
    pub identity: String,
    /// How long a non-renewed lease stays its holder's (default 15 s).
    pub lease_duration: Duration,
    /// How long a leader retries renewing before it steps down (default 10 s).
    pub renew_deadline: Duration,
    /// How often to try to acquire or renew (default 2 s).
    pub retry_period: Duration,
    /// Whether a stopping leader releases the lease (controller-runtime's
    /// `LeaderElectionReleaseOnCancel`).
    pub release_on_cancel: bool,
}

impl LeaderElectionConfig {
    /// controller-runtime's defaults (15 s, 10 s, 2 s, release on cancel) for the lease
    /// `namespace/name` and candidate `identity`.
    pub fn new(
        namespace: impl Into<String>,
        name: impl Into<String>,
        identity: impl Into<String>,
    ) -> Self {
        Self {
            namespace: namespace.into(),
            name: name.into(),
            identity: identity.into(),
            lease_duration: Duration::from_secs(15),
            renew_deadline: Duration::from_secs(10),
            retry_period: Duration::from_secs(2),
            release_on_cancel: true,
        }
    }
}

/// Errors of leader election.
#[derive(Debug, thiserror::Error)]
pub enum LeaderElectionError {
    /// The timings cannot work (client-go's checks).
    #[error("leader election {lease}: {reason}")]
    InvalidConfig {
        /// `namespace/name` of the lease.
        lease: String,
        /// Which rule was broken.
        reason: &'static str,
    },
    /// The leader could not renew within the renew deadline.
    #[error("leader election {lease}: lost the lease (not renewed within {renew_deadline:?})")]
    LeadershipLost {
        /// `namespace/name` of the lease.
        lease: String,
        /// The renew deadline.
        renew_deadline: Duration,
    },
}

/// Runs one candidate's election.
#[derive(Debug)]
pub struct LeaderElector {
    client: Client,
    config: LeaderElectionConfig,
    observed: Option<(LeaseSpec, Instant)>,
}

impl LeaderElector {
    /// A candidate writing the lease through `client`.
    pub fn new(client: Client, config: LeaderElectionConfig) -> Self {
        Self {
            client,
            config,
            observed: None,
        }
    }

    fn lease_name(&self) -> String {
        format!("{}/{}", self.config.namespace, self.config.name)
    }

    fn validate(&self) -> Result<(), LeaderElectionError> {
        let c = &self.config;
        let reason = if c.lease_duration <= c.renew_deadline {
            "lease_duration must be greater than renew_deadline"
        } else if c.renew_deadline.as_secs_f64() <= 1.2 * c.retry_period.as_secs_f64() {
            "renew_deadline must be greater than 1.2 x retry_period"
        } else if c.retry_period.is_zero() {
            "retry_period must be positive"
        } else if c.identity.is_empty() {
            "identity must not be empty"
        } else {
            return Ok(());
        };
        Err(LeaderElectionError::InvalidConfig {
            lease: self.lease_name(),
            reason,
        })
    }

    /// Campaigns until elected, then renews; `leading` says whether this candidate
    /// leads. Returns `Ok` when `cancel` fires (after releasing the lease, when
    /// configured), an error when leadership is lost.
    pub async fn run(
        mut self,
        cancel: CancellationToken,
        leading: tokio::sync::watch::Sender<bool>,
    ) -> Result<(), LeaderElectionError> {
        self.validate()?;
        // Acquire.
        loop {
            if self.try_acquire_or_renew().await {
                break;
            }
            tokio::select! {
                () = cancel.cancelled() => return Ok(()),
                () = tokio::time::sleep(jitter(self.config.retry_period)) => {}
            }
        }
        leading.send_replace(true);
        // Renew.
        let mut last_renew = Instant::now();
        loop {
            tokio::select! {
                () = cancel.cancelled() => {
                    if self.config.release_on_cancel {
                        self.release().await;
                    }
                    leading.send_replace(false);
                    return Ok(());
                }
                () = tokio::time::sleep(self.config.retry_period) => {}
            }
            if self.try_acquire_or_renew().await {
                last_renew = Instant::now();
            } else if last_renew.elapsed() >= self.config.renew_deadline {
                leading.send_replace(false);
                return Err(LeaderElectionError::LeadershipLost {
                    lease: self.lease_name(),
                    renew_deadline: self.config.renew_deadline,
                });
            }
        }
    }

    /// One attempt (client-go's `tryAcquireOrRenew`): true when this candidate holds the
    /// lease afterwards.
    async fn try_acquire_or_renew(&mut self) -> bool {
        let now = MicroTime::now();
        let key = ObjectKey::new(&self.config.namespace, &self.config.name);
        let lease_seconds = i32::try_from(self.config.lease_duration.as_secs()).unwrap_or(i32::MAX);
        let existing = match self.client.get::<Lease>(&key).await {
            Ok(l) => l,
            Err(e) if e.is_not_found() => {
                let mut lease = Lease::default();
                lease.metadata.namespace = self.config.namespace.clone();
                lease.metadata.name = self.config.name.clone();
                lease.spec = LeaseSpec {
                    holder_identity: Some(self.config.identity.clone()),
                    lease_duration_seconds: Some(lease_seconds),
                    acquire_time: Some(now),
                    renew_time: Some(now),
                    lease_transitions: Some(0),
                    ..LeaseSpec::default()
                };
                return match self.client.create(&lease, &Default::default()).await {
                    Ok(created) => {
                        self.observe(created.spec);
                        true
                    }
                    Err(e) => {
                        log_error(&e, "create");
                        false
                    }
                };
            }
            Err(e) => {
                log_error(&e, "get");
                return false;
            }
        };
        let spec = existing.spec.clone();
        self.observe(spec.clone());
        let holder = spec.holder_identity.clone().unwrap_or_default();
        let am_holder = holder == self.config.identity;
        if !holder.is_empty() && !am_holder {
            let held_for = spec
                .lease_duration_seconds
                .and_then(|s| u64::try_from(s).ok())
                .map_or(self.config.lease_duration, Duration::from_secs);
            let observed_at = self
                .observed
                .as_ref()
                .map_or_else(Instant::now, |(_, t)| *t);
            if observed_at.elapsed() < held_for {
                return false;
            }
        }
        let mut lease = existing;
        let mut new_spec = spec.clone();
        new_spec.holder_identity = Some(self.config.identity.clone());
        new_spec.lease_duration_seconds = Some(lease_seconds);
        new_spec.renew_time = Some(now);
        if !am_holder {
            new_spec.acquire_time = Some(now);
            new_spec.lease_transitions = Some(spec.lease_transitions.unwrap_or(0) + 1);
        }
        lease.spec = new_spec;
        match self.client.update(&lease, &Default::default()).await {
            Ok(updated) => {
                self.observe(updated.spec);
                true
            }
            Err(e) => {
                log_error(&e, "update");
                false
            }
        }
    }

    /// Notes the record read; the observation time moves only when it changed.
    fn observe(&mut self, spec: LeaseSpec) {
        let changed = self.observed.as_ref().is_none_or(|(old, _)| *old != spec);
        if changed {
            self.observed = Some((spec, Instant::now()));
        }
    }

    /// Clears the holder (client-go's `release`), if this candidate still holds it.
    async fn release(&mut self) {
        let key = ObjectKey::new(&self.config.namespace, &self.config.name);
        let Ok(mut lease) = self.client.get::<Lease>(&key).await else {
            return;
        };
        let spec = &mut lease.spec;
        if spec.holder_identity.as_deref() != Some(self.config.identity.as_str()) {
            return;
        }
        let now = MicroTime::now();
        spec.holder_identity = None;
        spec.lease_duration_seconds = Some(1);
        spec.acquire_time = Some(now);
        spec.renew_time = Some(now);
        if let Err(e) = self.client.update(&lease, &Default::default()).await {
            log_error(&e, "release");
        }
    }
}

fn log_error(e: &client::Error, what: &str) {
    tracing::warn!(error = %e, "leader election: {what} of the lease failed");
}

/// client-go's `wait.Jitter(d, 1.2)`: up to 1.2 × d more, so candidates spread out.
fn jitter(d: Duration) -> Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |t| t.subsec_nanos());
    let fraction = f64::from(nanos % 1000) / 1000.0 * 1.2;
    d + d.mul_f64(fraction)
}
