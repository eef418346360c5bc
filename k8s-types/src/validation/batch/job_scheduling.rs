//! A Job's `spec.scheduling` (Kubernetes 1.37): the declarative rule of
//! `batchv1.JobSpec.Scheduling` (forbidden while the WorkloadWithJob gate is off, its
//! 1.37 default; neither set nor cleared by an update) and the hand-written checks of
//! Go's `validateGangMinCount`, `validateJobScheduling` (the workload builder's
//! controller-policy rules for the Job's one pod group) and
//! `validateJobSchedulingUpdate`.

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use crate::batch::v1::JobSpec;
use crate::scheduling::v1alpha3::WorkloadPodGroupSchedulingPolicy;

/// Whether the WorkloadWithJob gate is on (alpha, off by default in 1.37).
const WORKLOAD_WITH_JOB: bool = false;

/// `spec.scheduling` of the Job spec at `fld`, an update of `old` when there is one.
pub(super) fn validate_job_scheduling(
    spec: &JobSpec,
    old: Option<&JobSpec>,
    fld: &Path,
    errs: &mut ErrorList,
) {
    let path = fld.child("scheduling");
    declarative(spec, old, &path, errs);
    let Some(scheduling) = &spec.scheduling else {
        return;
    };
    let policy = scheduling.scheduling_policy.as_ref();
    // The policy as the workload builder resolves it: Basic unless a gang is asked
    // for (a policy naming both is Basic; one naming neither falls back to Basic).
    let gang = policy
        .filter(|p| p.basic.is_none())
        .and_then(|p| p.gang.as_ref());
    let parallelism = spec.parallelism.unwrap_or(1);
    if let Some(min) = gang.and_then(|g| g.min_count) {
        if min > parallelism {
            errs.push(Error::invalid(
                &path
                    .child("schedulingPolicy")
                    .child("gang")
                    .child("minCount"),
                min,
                format!("must not be greater than parallelism ({parallelism})"),
            ));
        }
    }
    let all = scheduling
        .disruption_mode
        .as_ref()
        .is_some_and(|d| d.single.is_none() && d.all.is_some());
    if gang.is_none() && all {
        errs.push(Error::invalid(
            &path.child("disruptionMode"),
            "",
            "the disruptionMode `all` is not supported with the Basic scheduling policy",
        ));
    }
}

/// Go's `validateJobSchedulingUpdate` (a Job's update, not a CronJob's template): the
/// policy's variant, basic or gang, is kept.
pub(super) fn validate_job_scheduling_update(
    spec: &JobSpec,
    old: &JobSpec,
    fld: &Path,
    errs: &mut ErrorList,
) {
    fn policy(s: &JobSpec) -> Option<&WorkloadPodGroupSchedulingPolicy> {
        s.scheduling
            .as_ref()
            .and_then(|s| s.scheduling_policy.as_ref())
    }
    if let (Some(new), Some(old)) = (policy(spec), policy(old)) {
        if new.basic.is_some() != old.basic.is_some() {
            errs.push(Error::invalid(
                &fld.child("scheduling").child("schedulingPolicy"),
                BadValue::null(),
                "the basic/gang policy variant is immutable after creation; only schedulingPolicy.gang.minCount may be updated",
            ));
        }
    }
}

/// The declarative rules of the field (Go's generated `Validate_JobSpec`): an unchanged
/// value is not checked again; with the gate off a value is forbidden; an update may
/// neither set nor clear it.
fn declarative(spec: &JobSpec, old: Option<&JobSpec>, path: &Path, errs: &mut ErrorList) {
    let (new, old) = (spec.scheduling.as_ref(), old.map(|o| o.scheduling.as_ref()));
    if old == Some(new) {
        return;
    }
    if new.is_some() && !WORKLOAD_WITH_JOB {
        errs.push(Error::forbidden(path, ""));
    }
    match (old, new) {
        (Some(None), Some(_)) => errs.push(Error::invalid(
            path,
            BadValue::null(),
            "field cannot be set once created",
        )),
        (Some(Some(_)), None) => errs.push(Error::invalid(
            path,
            BadValue::null(),
            "field cannot be cleared once set",
        )),
        _ => {}
    }
}
