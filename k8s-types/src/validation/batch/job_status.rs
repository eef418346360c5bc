//! The Job's `/status` validator: Go's `jobStatusStrategy.ValidateUpdate`, which picks
//! the checks with `getStatusValidationOptions` (`pkg/registry/batch/job/strategy.go`)
//! and runs `ValidateJobUpdateStatus` (`pkg/apis/batch/validation`).
//!
//! With `JobManagedBy` (GA and locked on since 1.35) a Job's status may be written by a
//! controller other than Kubernetes' own, so its transitions are checked: a finished
//! Job stays finished, counters do not go down, the terminal conditions come with the
//! conditions and times they imply. A check of a transition runs only when a field it
//! concerns changed, so that a status the Job controller will put right in its next
//! sync does not block unrelated writes. The same in 1.36 and 1.37 (1.36's checks of
//! `SuccessCriteriaMet` outside the success policy's scope are switched off by the
//! options its strategy passes).

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path, json_of};

use super::job_policies::indexes_format;
use crate::batch::v1::{Job, JobCondition, UncountedTerminatedPods};
use crate::validation::{non_negative, validate_object_meta_update};

/// Go's `JobConditionType` values the checks read.
const COMPLETE: &str = "Complete";
const FAILED: &str = "Failed";
const FAILURE_TARGET: &str = "FailureTarget";
const SUCCESS_CRITERIA_MET: &str = "SuccessCriteriaMet";
const SUSPENDED: &str = "Suspended";

/// Go's `JobStatusValidationOptions`: which transition checks run.
#[derive(Default)]
struct Options {
    reject_decreasing_succeeded_counter: bool,
    reject_invalid_completed_indexes: bool,
    reject_invalid_failed_indexes: bool,
    reject_completed_indexes_for_non_indexed_job: bool,
    reject_failed_indexes_for_no_backoff_limit_per_index: bool,
    reject_failed_indexes_overlapping_completed: bool,
    reject_failed_job_without_failure_target: bool,
    reject_complete_job_without_success_criteria_met: bool,
    reject_finished_job_with_active_pods: bool,
    reject_finished_job_without_start_time: bool,
    reject_finished_job_with_uncounted_terminated_pods: bool,
    reject_start_time_update_for_unsuspended_job: bool,
    reject_completion_time_before_start_time: bool,
    reject_not_complete_job_with_completion_time: bool,
    reject_complete_job_without_completion_time: bool,
    reject_complete_job_with_failed_condition: bool,
    reject_complete_job_with_failure_target_condition: bool,
    reject_more_ready_than_active_pods: bool,
    reject_finished_job_with_terminating_pods: bool,
}

/// Whether `conditions` has one of type `kind` with status `status`.
fn has(conditions: &[JobCondition], kind: &str, status: &str) -> bool {
    conditions
        .iter()
        .any(|c| c.r#type == kind && c.status == status)
}

/// Go's `IsConditionTrue`.
fn is_true(job: &Job, kind: &str) -> bool {
    has(&job.status.conditions, kind, "True")
}

/// Go's `IsJobFinished`: Complete or Failed.
fn is_finished(job: &Job) -> bool {
    is_true(job, COMPLETE) || is_true(job, FAILED)
}

/// Go's `getStatusValidationOptions` with `JobManagedBy` on.
fn options(new: &Job, old: &Job) -> Options {
    let (n, o) = (&new.status, &old.status);
    let indexed = new.spec.completion_mode.as_deref() == Some("Indexed");
    let changed = |kind: &str| is_true(old, kind) != is_true(new, kind);
    let finished_changed = is_finished(old) != is_finished(new);
    let complete_changed = changed(COMPLETE);
    let failed_changed = changed(FAILED);
    let failure_target_changed = changed(FAILURE_TARGET);
    let success_criteria_met_changed = changed(SUCCESS_CRITERIA_MET);
    let completed_indexes_changed = o.completed_indexes != n.completed_indexes;
    let failed_indexes_changed = o.failed_indexes != n.failed_indexes;
    let active_changed = o.active != n.active;
    let start_time_changed = o.start_time != n.start_time;
    let completion_time_changed = o.completion_time != n.completion_time;
    // Go compares them with `Semantic.DeepEqual`, to which an empty list is a nil one.
    let uncounted_changed = o.uncounted_terminated_pods != n.uncounted_terminated_pods;
    let ready_changed = o.ready != n.ready;
    let terminating_changed = o.terminating != n.terminating;
    let suspended_with_zero_completions =
        new.spec.suspend == Some(true) && new.spec.completions == Some(0);
    // A resume the Job controller reports after the user set `suspend: false`.
    let resuming = is_true(old, SUSPENDED) && has(&n.conditions, SUSPENDED, "False");
    Options {
        // Indexed Jobs of equal parallelism and completions may be scaled down.
        reject_decreasing_succeeded_counter: !indexed
            || new.spec.completions != new.spec.parallelism,
        reject_invalid_completed_indexes: completed_indexes_changed,
        reject_invalid_failed_indexes: failed_indexes_changed,
        reject_completed_indexes_for_non_indexed_job: completed_indexes_changed,
        reject_failed_indexes_for_no_backoff_limit_per_index: failed_indexes_changed,
        reject_failed_indexes_overlapping_completed: failed_indexes_changed
            || completed_indexes_changed,
        reject_failed_job_without_failure_target: failed_changed || failed_indexes_changed,
        reject_complete_job_without_success_criteria_met: complete_changed
            || success_criteria_met_changed,
        reject_finished_job_with_active_pods: finished_changed || active_changed,
        reject_finished_job_without_start_time: (finished_changed || start_time_changed)
            && !suspended_with_zero_completions,
        reject_finished_job_with_uncounted_terminated_pods: finished_changed || uncounted_changed,
        reject_start_time_update_for_unsuspended_job: start_time_changed && !resuming,
        reject_completion_time_before_start_time: start_time_changed || completion_time_changed,
        reject_not_complete_job_with_completion_time: complete_changed || completion_time_changed,
        reject_complete_job_without_completion_time: complete_changed || completion_time_changed,
        reject_complete_job_with_failed_condition: complete_changed || failed_changed,
        reject_complete_job_with_failure_target_condition: complete_changed
            || failure_target_changed,
        reject_more_ready_than_active_pods: ready_changed || active_changed,
        reject_finished_job_with_terminating_pods: finished_changed || terminating_changed,
    }
}

/// Go's `ValidateJobUpdateStatus` with the options the Job's status strategy picks.
pub fn validate_job_status_update(new: &Job, old: &Job) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let opts = options(new, old);
    let path = Path::new("status");
    validate_status(new, &path, &opts, &mut errs);
    validate_transition(new, old, &path, &opts, &mut errs);
    errs
}

/// A condition check's error: Go omits the value.
fn conditions_error(path: &Path, detail: &str) -> Error {
    Error::invalid(&path.child("conditions"), BadValue::Omit, detail)
}

/// Go's `validateJobStatus`.
fn validate_status(job: &Job, path: &Path, opts: &Options, errs: &mut ErrorList) {
    let s = &job.status;
    non_negative(i64::from(s.active), &path.child("active"), errs);
    non_negative(i64::from(s.succeeded), &path.child("succeeded"), errs);
    non_negative(i64::from(s.failed), &path.child("failed"), errs);
    if let Some(ready) = s.ready {
        non_negative(i64::from(ready), &path.child("ready"), errs);
    }
    if let Some(terminating) = s.terminating {
        non_negative(i64::from(terminating), &path.child("terminating"), errs);
    }
    if let Some(uncounted) = &s.uncounted_terminated_pods {
        uncounted_uids(uncounted, &path.child("uncountedTerminatedPods"), errs);
    }
    let complete = is_true(job, COMPLETE);
    let failed = is_true(job, FAILED);
    let failure_target = is_true(job, FAILURE_TARGET);
    let success_criteria_met = is_true(job, SUCCESS_CRITERIA_MET);
    if opts.reject_complete_job_with_failed_condition && complete && failed {
        errs.push(conditions_error(
            path,
            "cannot set Complete=True and Failed=true conditions",
        ));
    }
    if opts.reject_complete_job_with_failure_target_condition && complete && failure_target {
        errs.push(conditions_error(
            path,
            "cannot set Complete=True and FailureTarget=true conditions",
        ));
    }
    let completion_path = path.child("completionTime");
    if opts.reject_not_complete_job_with_completion_time && !complete {
        if let Some(t) = &s.completion_time {
            errs.push(Error::invalid(
                &completion_path,
                json_of(t),
                "cannot set completionTime when there is no Complete=True condition",
            ));
        }
    }
    if opts.reject_complete_job_without_completion_time && s.completion_time.is_none() && complete {
        errs.push(Error::required(
            &completion_path,
            "completionTime is required for Complete jobs",
        ));
    }
    if opts.reject_completion_time_before_start_time {
        if let (Some(start), Some(end)) = (&s.start_time, &s.completion_time) {
            if end < start {
                errs.push(Error::invalid(
                    &completion_path,
                    json_of(end),
                    "must be equal to or after `startTime`",
                ));
            }
        }
    }
    if opts.reject_failed_job_without_failure_target && failed && !failure_target {
        errs.push(conditions_error(
            path,
            "cannot set Failed=True condition without the FailureTarget=true condition",
        ));
    }
    if opts.reject_complete_job_without_success_criteria_met && complete && !success_criteria_met {
        errs.push(conditions_error(
            path,
            "cannot set Complete=True condition without the SuccessCriteriaMet=true condition",
        ));
    }
    let finished = complete || failed;
    if opts.reject_finished_job_with_active_pods && s.active > 0 && finished {
        errs.push(Error::invalid(
            &path.child("active"),
            s.active,
            "active>0 is invalid for finished job",
        ));
    }
    if opts.reject_finished_job_without_start_time && s.start_time.is_none() && finished {
        errs.push(Error::required(
            &path.child("startTime"),
            "startTime is required for finished job",
        ));
    }
    if opts.reject_finished_job_with_uncounted_terminated_pods && finished {
        if let Some(uncounted) = s
            .uncounted_terminated_pods
            .as_ref()
            .filter(|u| !u.failed.is_empty() || !u.succeeded.is_empty())
        {
            errs.push(Error::invalid(
                &path.child("uncountedTerminatedPods"),
                internal_uncounted_json(uncounted),
                "must be empty for finished job",
            ));
        }
    }
    indexes(job, path, opts, errs);
    if opts.reject_finished_job_with_terminating_pods && finished {
        if let Some(terminating) = s.terminating.filter(|t| *t > 0) {
            errs.push(Error::invalid(
                &path.child("terminating"),
                terminating,
                "terminating>0 is invalid for finished job",
            ));
        }
    }
    if opts.reject_more_ready_than_active_pods {
        if let Some(ready) = s.ready.filter(|r| *r > s.active) {
            errs.push(Error::invalid(
                &path.child("ready"),
                ready,
                "cannot set more ready pods than active",
            ));
        }
    }
    if success_criteria_met && failed {
        errs.push(conditions_error(
            path,
            "cannot set SuccessCriteriaMet=True and Failed=true conditions",
        ));
    }
    if success_criteria_met && failure_target {
        errs.push(conditions_error(
            path,
            "cannot set SuccessCriteriaMet=True and FailureTarget=true conditions",
        ));
    }
    if job.spec.success_policy.is_some() && !success_criteria_met && complete {
        errs.push(conditions_error(
            path,
            "cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True",
        ));
    }
}

/// The uncounted Pods' uids: none empty, none twice across both lists.
fn uncounted_uids(uncounted: &UncountedTerminatedPods, path: &Path, errs: &mut ErrorList) {
    let mut seen = std::collections::HashSet::new();
    let lists = [
        ("succeeded", &uncounted.succeeded),
        ("failed", &uncounted.failed),
    ];
    for (name, uids) in lists {
        let list_path = path.child(name);
        for (i, uid) in uids.iter().enumerate() {
            let p = list_path.index(i);
            // Go prints a `types.UID` through `json.Marshal`.
            if uid.is_empty() {
                errs.push(Error::invalid(
                    &p,
                    BadValue::json_string(uid),
                    "must not be empty",
                ));
            } else if !seen.insert(uid.as_str()) {
                errs.push(Error::duplicate(&p, BadValue::json_string(uid)));
            }
        }
    }
}

/// The uncounted Pods as Go prints its internal struct, which has no JSON tags, through
/// `json.Marshal`. Go tells an empty list from a missing one (`[]`, `null`); decoded,
/// ours do not, and an empty one prints as missing, as one read from storage does.
fn internal_uncounted_json(uncounted: &UncountedTerminatedPods) -> BadValue {
    let list = |uids: &Vec<String>| match uids.as_slice() {
        [] => "null".to_owned(),
        _ => match BadValue::json_strings(uids) {
            BadValue::Json(text) => text,
            _ => "null".to_owned(),
        },
    };
    BadValue::Json(format!(
        "{{\"Succeeded\":{},\"Failed\":{}}}",
        list(&uncounted.succeeded),
        list(&uncounted.failed)
    ))
}

/// The completed and failed indexes: their format, whether the Job may have them, and
/// no index both completed and failed.
fn indexes(job: &Job, path: &Path, opts: &Options, errs: &mut ErrorList) {
    let s = &job.status;
    let completions = job.spec.completions;
    let completed_path = path.child("completedIndexes");
    let failed_path = path.child("failedIndexes");
    if opts.reject_invalid_completed_indexes {
        if let Some(completions) = completions {
            if let Err(e) = indexes_format(&s.completed_indexes, completions) {
                errs.push(Error::invalid(
                    &completed_path,
                    s.completed_indexes.as_str(),
                    format!("error parsing completedIndexes: {e}"),
                ));
            }
        }
    }
    if opts.reject_invalid_failed_indexes && job.spec.backoff_limit_per_index.is_some() {
        if let (Some(completions), Some(failed)) = (completions, &s.failed_indexes) {
            if let Err(e) = indexes_format(failed, completions) {
                // The pointer, printed through `json.Marshal`.
                errs.push(Error::invalid(
                    &failed_path,
                    BadValue::json_string(failed),
                    format!("error parsing failedIndexes: {e}"),
                ));
            }
        }
    }
    let indexed = job.spec.completion_mode.as_deref() == Some("Indexed");
    if opts.reject_completed_indexes_for_non_indexed_job
        && !s.completed_indexes.is_empty()
        && !indexed
    {
        errs.push(Error::invalid(
            &completed_path,
            s.completed_indexes.as_str(),
            "cannot set non-empty completedIndexes when non-indexed completion mode",
        ));
    }
    if opts.reject_failed_indexes_for_no_backoff_limit_per_index
        && job.spec.backoff_limit_per_index.is_none()
    {
        if let Some(failed) = &s.failed_indexes {
            errs.push(Error::invalid(
                &failed_path,
                failed.as_str(),
                "cannot set non-null failedIndexes when backoffLimitPerIndex is null",
            ));
        }
    }
    if opts.reject_failed_indexes_overlapping_completed {
        if let (Some(completions), Some(failed)) = (completions, &s.failed_indexes) {
            if let Some(index) = overlap(&s.completed_indexes, failed, completions) {
                errs.push(Error::invalid(
                    &failed_path,
                    failed.as_str(),
                    format!("failedIndexes and completedIndexes overlap at index: {index}"),
                ));
            }
        }
    }
}

/// Go's `validateFailedIndexesNotOverlapCompleted`: the first index both lists hold,
/// walking both in order; an interval that does not parse is skipped (its format is
/// reported by the format checks).
fn overlap(completed: &str, failed: &str, completions: i32) -> Option<i64> {
    if completed.is_empty() || failed.is_empty() {
        return None;
    }
    let completed: Vec<&str> = completed.split(',').collect();
    let failed: Vec<&str> = failed.split(',').collect();
    let parse = |interval: &str| super::job_policies::index_interval(interval, completions).ok();
    let (mut c, mut f) = (0, 0);
    let mut c_range = parse(completed[0]);
    let mut f_range = parse(failed[0]);
    while c < completed.len() && f < failed.len() {
        match (c_range, f_range) {
            (None, _) => {
                c += 1;
                if let Some(next) = completed.get(c) {
                    c_range = parse(next);
                }
            }
            (_, None) => {
                f += 1;
                if let Some(next) = failed.get(f) {
                    f_range = parse(next);
                }
            }
            (Some((cx, cy)), Some((fx, fy))) => {
                if cx <= fy && fx <= cy {
                    return Some(cx.max(fx));
                }
                if cx <= fx {
                    c += 1;
                    if let Some(next) = completed.get(c) {
                        c_range = parse(next);
                    }
                } else {
                    f += 1;
                    if let Some(next) = failed.get(f) {
                        f_range = parse(next);
                    }
                }
            }
        }
    }
    None
}

/// The checks of `ValidateJobStatusUpdate` that compare with the old status.
fn validate_transition(new: &Job, old: &Job, path: &Path, opts: &Options, errs: &mut ErrorList) {
    let (n, o) = (&new.status, &old.status);
    for kind in [FAILED, COMPLETE, FAILURE_TARGET] {
        if is_true(old, kind) && !is_true(new, kind) {
            errs.push(conditions_error(
                path,
                &format!("cannot disable the terminal {kind}=True condition"),
            ));
        }
    }
    if n.failed < o.failed {
        errs.push(Error::invalid(
            &path.child("failed"),
            n.failed,
            "cannot decrease the failed counter",
        ));
    }
    if opts.reject_decreasing_succeeded_counter && n.succeeded < o.succeeded {
        errs.push(Error::invalid(
            &path.child("succeeded"),
            n.succeeded,
            "cannot decrease the succeeded counter",
        ));
    }
    if let (Some(now), Some(before)) = (&n.completion_time, &o.completion_time) {
        if now != before {
            errs.push(Error::invalid(
                &path.child("completionTime"),
                json_of(now),
                "field is immutable",
            ));
        }
    }
    if opts.reject_start_time_update_for_unsuspended_job
        && o.start_time.is_some()
        && o.start_time != n.start_time
        && new.spec.suspend != Some(true)
    {
        let value = n.start_time.as_ref().map_or_else(BadValue::null, json_of);
        errs.push(Error::invalid(
            &path.child("startTime"),
            value,
            "field is immutable for unsuspended job once set",
        ));
    }
    let met = |job: &Job| is_true(job, SUCCESS_CRITERIA_MET);
    if met(old) && !met(new) {
        errs.push(conditions_error(
            path,
            "cannot disable the SuccessCriteriaMet=True condition",
        ));
    }
    if is_true(old, COMPLETE) && !met(old) && met(new) {
        errs.push(conditions_error(
            path,
            "cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions",
        ));
    }
}
