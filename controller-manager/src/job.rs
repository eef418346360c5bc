//! The Job controller (Go's `pkg/controller/job`) for Jobs whose Pods complete: it runs
//! up to `parallelism` Pods at a time until `completions` have succeeded (or, without
//! `completions`, until one has and none is left running), counts them in `status`
//! (`active`, `ready`, `terminating`, `succeeded`, `failed`, `startTime`,
//! `completionTime`) and finishes the Job as Go 1.36 does: `SuccessCriteriaMet` then
//! `Complete` (reason `CompletionsReached`), or `FailureTarget` then `Failed` when more
//! than `backoffLimit` Pods failed (`BackoffLimitExceeded`) or `activeDeadlineSeconds`
//! passed (`DeadlineExceeded`), its active Pods deleted. A suspended Job's active Pods
//! are deleted and it gets `Suspended=True` (`JobSuspended`), `Suspended=False`
//! (`JobResumed`) when resumed. On simulated Nodes Pods complete as the
//! [kubelet](crate::kubelet) stand-in says.
//!
//! Left out: `Indexed` completion mode, `podFailurePolicy`, `successPolicy`,
//! `backoffLimitPerIndex`, `podReplacementPolicy: Failed`, the exponential delay
//! before a failed Pod is replaced (replaced at once here), `ttlSecondsAfterFinished`
//! (another controller in Go), and Pod-tracking finalizers
//! (`batch.kubernetes.io/job-tracking`): Pods are counted while they exist, so a
//! finished Pod deleted before the Job finishes is not counted.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use apimachinery::apis::meta::v1::Time;
use controller_runtime::builder::ControllerBuilder;
use controller_runtime::controller::Options as ControllerOptions;
use controller_runtime::manager::Manager;
use controller_runtime::reconcile::{Action, ObjectReconciler};
use k8s_types::batch::v1::{Job, JobCondition, JobStatus, UncountedTerminatedPods};
use k8s_types::core::v1::Pod;

use crate::nodes::Clock;
use crate::pods;
use crate::replicaset::BURST_REPLICAS;
use crate::status_update::update_status;
use crate::{ControllerContext, Error, names};

/// What one sync found and decided, before writing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Active Pods.
    pub active: i32,
    /// Active and ready.
    pub ready: i32,
    /// Being deleted, not finished.
    pub terminating: i32,
    /// `Succeeded`.
    pub succeeded: i32,
    /// `Failed`.
    pub failed: i32,
}

/// Counts `owned` Pods.
pub fn count(owned: &[Arc<Pod>]) -> Counts {
    let n = |f: &dyn Fn(&Pod) -> bool| {
        i32::try_from(owned.iter().filter(|p| f(p)).count()).unwrap_or(i32::MAX)
    };
    Counts {
        active: n(&|p| pods::is_active(p)),
        ready: n(&|p| pods::is_active(p) && pods::is_ready(p)),
        terminating: n(&|p| pods::is_terminating(p)),
        succeeded: n(&|p| p.status.phase == "Succeeded"),
        failed: n(&|p| p.status.phase == "Failed"),
    }
}

/// How many Pods should be running (Go's `manageJob` for non-indexed Jobs).
pub fn want_active(job: &Job, counts: &Counts) -> i32 {
    if job.spec.suspend == Some(true) {
        return 0;
    }
    let parallelism = job.spec.parallelism.unwrap_or(1).max(0);
    match job.spec.completions {
        None if counts.succeeded > 0 => counts.active.min(parallelism),
        None => parallelism,
        Some(completions) => (completions - counts.succeeded).clamp(0, parallelism),
    }
}

/// Go's `JobCondition` as `newCondition` makes it.
pub fn condition(
    kind: &str,
    status: &str,
    reason: &str,
    message: &str,
    now: &Time,
) -> JobCondition {
    JobCondition {
        r#type: kind.into(),
        status: status.into(),
        reason: reason.into(),
        message: message.into(),
        last_probe_time: *now,
        last_transition_time: *now,
    }
}

fn has(status: &JobStatus, kind: &str) -> bool {
    status
        .conditions
        .iter()
        .any(|c| c.r#type == kind && c.status == "True")
}

/// Whether the Job is finished (`Complete` or `Failed`).
pub fn is_finished(status: &JobStatus) -> bool {
    has(status, "Complete") || has(status, "Failed")
}

/// The failure that ends the Job, if one does (Go's order: an earlier
/// `FailureTarget`, then `backoffLimit`, then `activeDeadlineSeconds`).
pub fn failure(job: &Job, counts: &Counts, now: &Time) -> Option<(String, String)> {
    if let Some(c) = job
        .status
        .conditions
        .iter()
        .find(|c| c.r#type == "FailureTarget" && c.status == "True")
    {
        return Some((c.reason.clone(), c.message.clone()));
    }
    if counts.failed > job.spec.backoff_limit.unwrap_or(6) {
        return Some((
            "BackoffLimitExceeded".into(),
            "Job has reached the specified backoff limit".into(),
        ));
    }
    let started = job.status.start_time?;
    let deadline = job.spec.active_deadline_seconds?;
    (job.spec.suspend != Some(true) && started.unix_seconds() + deadline <= now.unix_seconds())
        .then(|| {
            (
                "DeadlineExceeded".into(),
                "Job was active longer than specified deadline".into(),
            )
        })
}

/// Whether the Job's Pods have done what it asks.
pub fn is_complete(job: &Job, counts: &Counts, active_after: i32) -> bool {
    match job.spec.completions {
        None => counts.succeeded > 0 && active_after == 0,
        Some(c) => counts.succeeded >= c && active_after == 0,
    }
}

/// Sets a condition of `kind` unless it is there with the same status (Go's
/// `ensureJobConditionStatus`); true when it changed.
fn ensure(status: &mut JobStatus, c: JobCondition) -> bool {
    match status
        .conditions
        .iter_mut()
        .find(|old| old.r#type == c.r#type)
    {
        Some(old) if old.status == c.status => false,
        Some(old) => {
            *old = c;
            true
        }
        None => {
            status.conditions.push(c);
            true
        }
    }
}

/// The Job controller's reconciler.
pub struct JobController {
    mgr: Arc<Manager>,
    clock: Clock,
    /// Pods created and not yet in the cache, by Job UID.
    expected: Mutex<HashMap<String, HashSet<String>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl JobController {
    fn satisfied(&self, uid: &str, owned: &[Arc<Pod>]) -> bool {
        let mut all = lock(&self.expected);
        let Some(names) = all.get_mut(uid) else {
            return true;
        };
        names.retain(|n| !owned.iter().any(|p| &p.metadata.name == n));
        let done = names.is_empty();
        if done {
            all.remove(uid);
        }
        done
    }

    async fn create_pods(&self, job: &Job, n: usize) -> controller_runtime::Result<()> {
        let owner = pods::controller_ref("batch/v1", "Job", &job.metadata.name, &job.metadata.uid);
        let pod = pods::from_template(
            &job.spec.template,
            &job.metadata.namespace,
            &format!("{}-", job.metadata.name),
            owner,
        );
        pods::create_slow_start(&self.mgr, &pod, n.min(BURST_REPLICAS), |name| {
            let mut all = lock(&self.expected);
            all.entry(job.metadata.uid.clone())
                .or_default()
                .insert(name);
        })
        .await
    }

    /// Deletes `victims`; answers how many were deleted.
    async fn delete_pods(&self, victims: &[&Arc<Pod>]) -> controller_runtime::Result<i32> {
        let refs: Vec<&Pod> = victims.iter().map(|p| &***p).collect();
        let mut deleted = 0;
        for result in pods::delete_each(&self.mgr, &refs).await {
            result?;
            deleted += 1;
        }
        Ok(deleted)
    }
}

impl ObjectReconciler<Job> for JobController {
    async fn reconcile(&self, job: Arc<Job>) -> controller_runtime::Result<Action> {
        if is_finished(&job.status)
            || job
                .spec
                .managed_by
                .as_deref()
                .is_some_and(|m| m != "kubernetes.io/job-controller")
        {
            return Ok(Action::done());
        }
        let now = self.clock.now();
        let owned =
            pods::owned(&self.mgr, "Job", &job.metadata.namespace, &job.metadata.uid).await?;
        let satisfied = self.satisfied(&job.metadata.uid, &owned);
        let counts = count(&owned);
        let mut status = job.status.clone();
        if status.start_time.is_none() && job.spec.suspend != Some(true) {
            status.start_time = Some(now);
        }
        let mut job_now = (*job).clone();
        job_now.status.start_time = status.start_time;
        let active: Vec<&Arc<Pod>> = owned.iter().filter(|p| pods::is_active(p)).collect();
        let mut active_after = counts.active;
        let mut terminating = counts.terminating;
        let mut ready = counts.ready;
        let mut requeue = None;
        if let Some((reason, message)) = failure(&job_now, &counts, &now) {
            ensure(
                &mut status,
                condition("FailureTarget", "True", &reason, &message, &now),
            );
            let deleted = self.delete_pods(&active).await?;
            active_after -= deleted;
            terminating += deleted;
            ready = 0;
            if active_after == 0 && satisfied {
                ensure(
                    &mut status,
                    condition("Failed", "True", &reason, &message, &now),
                );
            }
        } else {
            if satisfied && job.metadata.deletion_timestamp.is_none() {
                let want = want_active(&job, &counts);
                if counts.active > want {
                    // The newest Pods go first (Go deletes the lowest-ranked).
                    let mut extra = active.clone();
                    extra.sort_by_key(|p| {
                        (
                            pods::is_ready(p),
                            std::cmp::Reverse(p.metadata.creation_timestamp),
                        )
                    });
                    let n = usize::try_from(counts.active - want).unwrap_or(0);
                    let deleted = self.delete_pods(&extra[..n.min(extra.len())]).await?;
                    active_after -= deleted;
                    terminating += deleted;
                } else if counts.active < want {
                    let n = usize::try_from(want - counts.active).unwrap_or(0);
                    self.create_pods(&job, n).await?;
                    active_after =
                        want.min(counts.active + i32::try_from(n.min(BURST_REPLICAS)).unwrap_or(0));
                }
                let suspended = job.spec.suspend == Some(true);
                let changed = if suspended {
                    ensure(
                        &mut status,
                        condition("Suspended", "True", "JobSuspended", "Job suspended", &now),
                    )
                } else if status.conditions.iter().any(|c| c.r#type == "Suspended") {
                    let resumed = ensure(
                        &mut status,
                        condition("Suspended", "False", "JobResumed", "Job resumed", &now),
                    );
                    if resumed {
                        status.start_time = Some(now);
                    }
                    resumed
                } else {
                    false
                };
                let _ = changed;
            }
            if is_complete(&job, &counts, active_after) {
                let (reason, message) = (
                    "CompletionsReached",
                    "Reached expected number of succeeded pods",
                );
                ensure(
                    &mut status,
                    condition("SuccessCriteriaMet", "True", reason, message, &now),
                );
                if terminating == 0 {
                    ensure(
                        &mut status,
                        condition("Complete", "True", reason, message, &now),
                    );
                }
            }
            if let (Some(deadline), Some(start)) =
                (job.spec.active_deadline_seconds, status.start_time)
            {
                let left = start.unix_seconds() + deadline - now.unix_seconds();
                if left > 0 && job.spec.suspend != Some(true) {
                    requeue = Some(
                        self.clock
                            .real_duration(Duration::from_secs(left.unsigned_abs())),
                    );
                }
            }
        }
        status.active = active_after.max(0);
        status.ready = Some(ready.max(0));
        status.terminating = Some(terminating);
        status.succeeded = counts.succeeded;
        status.failed = counts.failed;
        status.uncounted_terminated_pods = Some(UncountedTerminatedPods::default());
        if is_finished(&status) && status.completion_time.is_none() && has(&status, "Complete") {
            status.completion_time = Some(now);
        }
        if status != job.status {
            let mut updated = (*job).clone();
            updated.status = status;
            if let Some(action) = update_status(&self.mgr, &updated).await? {
                return Ok(action);
            }
        }
        Ok(requeue.map_or_else(Action::done, Action::requeue_after))
    }
}

/// Registers the Job controller on the context's manager (Go's `ConcurrentJobSyncs`, 5 workers).
pub(crate) fn start(context: &ControllerContext<'_>) -> Result<(), Error> {
    let (mgr, clock) = (context.manager, context.options.simulated_clock());
    let register = |message: String| Error::Register {
        controller: names::JOB_CONTROLLER,
        message,
    };
    pods::index_by_controller(mgr, "Job").map_err(|e| register(e.to_string()))?;
    ControllerBuilder::new(mgr)
        .named(names::JOB_CONTROLLER)
        .for_kind::<Job>()
        .owns::<Pod>()
        .with_options(ControllerOptions {
            max_concurrent_reconciles: 5,
            ..ControllerOptions::default()
        })
        .complete_object(JobController {
            mgr: Arc::clone(mgr),
            clock,
            expected: Mutex::default(),
        })
        .map_err(|e| register(e.to_string()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(parallelism: i32, completions: Option<i32>) -> Job {
        let mut j = Job::default();
        j.spec.parallelism = Some(parallelism);
        j.spec.completions = completions;
        j.spec.backoff_limit = Some(2);
        j
    }

    fn counts(active: i32, succeeded: i32, failed: i32) -> Counts {
        Counts {
            active,
            succeeded,
            failed,
            ..Counts::default()
        }
    }

    #[test]
    fn parallelism_and_completions_bound_the_active_pods() {
        assert_eq!(want_active(&job(3, Some(5)), &counts(0, 0, 0)), 3);
        assert_eq!(want_active(&job(3, Some(5)), &counts(2, 4, 0)), 1);
        assert_eq!(want_active(&job(3, Some(5)), &counts(0, 5, 0)), 0);
        assert_eq!(want_active(&job(2, None), &counts(0, 0, 0)), 2);
        assert_eq!(want_active(&job(2, None), &counts(1, 1, 0)), 1);
        let mut suspended = job(2, None);
        suspended.spec.suspend = Some(true);
        assert_eq!(want_active(&suspended, &counts(2, 0, 0)), 0);
    }

    #[test]
    fn completion_and_failure_as_go_decides() {
        let j = job(1, Some(2));
        assert!(!is_complete(&j, &counts(1, 1, 0), 1));
        assert!(is_complete(&j, &counts(0, 2, 0), 0));
        assert!(is_complete(&job(2, None), &counts(0, 1, 0), 0));
        let now = Time::from_unix(100, 0);
        assert_eq!(failure(&j, &counts(0, 0, 2), &now), None);
        assert_eq!(
            failure(&j, &counts(0, 0, 3), &now).map(|f| f.0),
            Some("BackoffLimitExceeded".to_owned())
        );
        let mut deadline = job(1, Some(1));
        deadline.spec.active_deadline_seconds = Some(10);
        deadline.status.start_time = Some(Time::from_unix(80, 0));
        assert_eq!(
            failure(&deadline, &counts(1, 0, 0), &now).map(|f| f.1),
            Some("Job was active longer than specified deadline".to_owned())
        );
    }
}
