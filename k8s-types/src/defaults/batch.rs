//! `batch/v1` and `batch/v1beta1` (Go's `pkg/apis/batch/<version>/defaults.go`): a Job
//! runs one pod at a time to one completion, retries 6 times, is `NonIndexed`, not
//! suspended, selects its pods by the selector the server generates (`manualSelector:
//! false`), and replaces pods once terminating or failed (`Failed` with a pod failure
//! policy); a CronJob allows concurrent runs and keeps 3 successful and 1 failed Job. A
//! CronJob's job template gets the pod spec defaults only, not a Job's: Go defaults the
//! Job when the controller creates it.

use apimachinery::conversion::Defaulters;

use super::GetOrInsertStr as _;

use super::core::pod_template_spec;
use crate::batch::v1::{Job, JobSpec};

fn job(obj: &mut Job) {
    let spec = &mut obj.spec;
    if spec.completions.is_none() && spec.parallelism.is_none() {
        spec.completions = Some(1);
    }
    spec.parallelism.get_or_insert(1);
    if spec.backoff_limit.is_none() {
        // A Job with per-index limits has no global one.
        spec.backoff_limit = Some(if spec.backoff_limit_per_index.is_some() {
            i32::MAX
        } else {
            6
        });
    }
    let labels = &spec.template.metadata.labels;
    if !labels.is_empty() && obj.metadata.labels.is_empty() {
        obj.metadata.labels = labels.clone();
    }
    spec.completion_mode.get_or_insert_str("NonIndexed");
    spec.suspend.get_or_insert(false);
    for pattern in spec
        .pod_failure_policy
        .iter_mut()
        .flat_map(|p| p.rules.iter_mut().flatten())
        .flat_map(|r| r.on_pod_conditions.iter_mut())
    {
        if pattern.status.is_empty() {
            pattern.status = "True".to_owned();
        }
    }
    // Feature JobPodReplacementPolicy (GA).
    if spec.pod_replacement_policy.is_none() {
        spec.pod_replacement_policy = Some(if spec.pod_failure_policy.is_some() {
            "Failed".to_owned()
        } else {
            "TerminatingOrFailed".to_owned()
        });
    }
    // Go's fuzzer always sets it, so the oracle never sees it unset; kube-apiserver
    // answers a Job created without it with `manualSelector: false`.
    spec.manual_selector.get_or_insert(false);
    pod_template_spec(&mut spec.template);
}

fn job_template_spec(spec: &mut JobSpec) {
    pod_template_spec(&mut spec.template);
}

macro_rules! cron_job {
    ($d:ident, $ty:ty) => {
        $d.add(|obj: &mut $ty| {
            let spec = &mut obj.spec;
            if spec.concurrency_policy.is_empty() {
                spec.concurrency_policy = "Allow".to_owned();
            }
            spec.suspend.get_or_insert(false);
            spec.successful_jobs_history_limit.get_or_insert(3);
            spec.failed_jobs_history_limit.get_or_insert(1);
            job_template_spec(&mut spec.job_template.spec);
        });
    };
}

pub(super) fn register(d: &mut Defaulters) {
    d.add(job);
    cron_job!(d, crate::batch::v1::CronJob);
    cron_job!(d, crate::batch::v1beta1::CronJob);
}
