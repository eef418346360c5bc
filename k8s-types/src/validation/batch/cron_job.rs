//! CronJob (Go's `ValidateCronJobCreate`, `ValidateCronJobUpdate` and the `cronjob`
//! strategy).

use crate::validation::{validate_object_meta, validate_object_meta_update};
use apimachinery::apis::meta::v1::validation::name_is_dns_subdomain;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use super::cron_schedule::parse_schedule;
use super::job::job_spec;
use super::time_zone::load_location;
use crate::batch::v1::{CronJob, CronJobSpec, JobTemplateSpec};
use crate::core::v1::PodTemplateSpec;
use crate::validation::{json_value, non_negative};

/// Go's `ValidateCronJobCreate`: metadata (a DNS subdomain name of at most 52
/// characters: its Jobs' names add 11), the spec.
pub fn validate_cron_job(cj: &CronJob) -> ErrorList {
    let mp = Path::new("metadata");
    let mut errs = validate_object_meta(&cj.metadata, true, name_is_dns_subdomain, &mp);
    spec(&cj.spec, None, &mut errs);
    if cj.metadata.name.len() > 52 {
        errs.push(Error::invalid(
            &mp.child("name"),
            &cj.metadata.name,
            "must be no more than 52 characters",
        ));
    }
    errs
}

/// Go's `ValidateCronJobUpdate`: the metadata's identity kept, the spec valid (a
/// `TZ=` schedule the old one had may stay, a time zone is checked when it changes).
pub fn validate_cron_job_update(new: &CronJob, old: &CronJob) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    spec(&new.spec, Some(&old.spec), &mut errs);
    errs
}

/// Go's `validateCronJobSpec`.
fn spec(spec: &CronJobSpec, old: Option<&CronJobSpec>, errs: &mut ErrorList) {
    let fld = Path::new("spec");
    let sp = fld.child("schedule");
    if spec.schedule.is_empty() {
        errs.push(Error::required(&sp, ""));
    } else {
        let allow_tz = old.is_some_and(|o| o.schedule.contains("TZ"));
        schedule(spec, allow_tz, &sp, errs);
    }
    if let Some(s) = spec.starting_deadline_seconds {
        non_negative(s, &fld.child("startingDeadlineSeconds"), errs);
    }
    if old.is_none_or(|o| o.time_zone != spec.time_zone) {
        time_zone(spec.time_zone.as_deref(), &fld.child("timeZone"), errs);
    }
    let cp = fld.child("concurrencyPolicy");
    match spec.concurrency_policy.as_str() {
        "Allow" | "Forbid" | "Replace" => {}
        "" => errs.push(Error::required(&cp, "")),
        other => errs.push(Error::not_supported(
            &cp,
            json_value(other),
            &["Allow", "Forbid", "Replace"],
        )),
    }
    let old_template = old.map(|o| &o.job_template.spec.template);
    job_template(
        &spec.job_template,
        old_template,
        &fld.child("jobTemplate"),
        errs,
    );
    #[cfg(feature = "v1_37")]
    super::job_scheduling::validate_job_scheduling(
        &spec.job_template.spec,
        old.map(|o| &o.job_template.spec),
        &fld.child("jobTemplate").child("spec"),
        errs,
    );
    for (name, v) in [
        (
            "successfulJobsHistoryLimit",
            spec.successful_jobs_history_limit,
        ),
        ("failedJobsHistoryLimit", spec.failed_jobs_history_limit),
    ] {
        if let Some(v) = v {
            non_negative(i64::from(v), &fld.child(name), errs);
        }
    }
}

/// Go's `validateScheduleFormat`: the schedule parses, and carries no `TZ=` (unless the
/// old one did, and no `timeZone` is set besides).
fn schedule(spec: &CronJobSpec, allow_tz: bool, path: &Path, errs: &mut ErrorList) {
    let s = &spec.schedule;
    if let Err(e) = parse_schedule(s) {
        errs.push(Error::invalid(path, s, e));
    }
    let has_tz = s.contains("TZ");
    if allow_tz && has_tz && spec.time_zone.is_some() {
        errs.push(Error::invalid(
            path,
            s,
            "cannot use both timeZone field and TZ or CRON_TZ in schedule",
        ));
    } else if !allow_tz && has_tz {
        errs.push(Error::invalid(
            path,
            s,
            "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
        ));
    }
}

/// Go's `validateTimeZone`: a name of the tz database, not `Local`.
fn time_zone(zone: Option<&str>, path: &Path, errs: &mut ErrorList) {
    let Some(zone) = zone else {
        return;
    };
    let value = || json_value(zone);
    if zone.is_empty() {
        errs.push(Error::invalid(
            path,
            value(),
            "timeZone must be nil or non-empty string",
        ));
        return;
    }
    let valid_part = |part: &str| {
        part != "."
            && part != ".."
            && !part.starts_with('-')
            && (1..=14).contains(&part.len())
            && part
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b".-_+".contains(&b))
    };
    if !zone.split('/').all(valid_part) {
        errs.push(Error::invalid(
            path,
            value(),
            format!("unknown time zone {zone}"),
        ));
        return;
    }
    if zone.eq_ignore_ascii_case("Local") {
        errs.push(Error::invalid(
            path,
            value(),
            "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
        ));
    }
    if let Err(e) = load_location(zone) {
        errs.push(Error::invalid(path, value(), e));
    }
}

/// Go's `ValidateJobTemplateSpec`: the Job spec, without a selector (generated for each
/// Job) and without `manualSelector`.
fn job_template(
    t: &JobTemplateSpec,
    old_template: Option<&PodTemplateSpec>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let sp = path.child("spec");
    job_spec(&t.spec, &sp, old_template, errs);
    if let Some(sel) = &t.spec.selector {
        errs.push(Error::invalid(
            &sp.child("selector"),
            json_value(sel),
            "`selector` will be auto-generated",
        ));
    }
    if t.spec.manual_selector == Some(true) {
        errs.push(Error::not_supported(
            &sp.child("manualSelector"),
            BadValue::Json("true".to_owned()),
            &["nil", "false"],
        ));
    }
}
