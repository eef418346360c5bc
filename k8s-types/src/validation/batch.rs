//! The batch group's validation (Go's `pkg/apis/batch/validation`): Job and CronJob,
//! with the cron schedule syntax of the parser Kubernetes uses (five fields, ranges,
//! steps, month and weekday names, `@` descriptors).

use apimachinery::apis::meta::v1::validation::{
    FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain, validate_label_selector,
    validate_object_meta, validate_object_meta_update,
};
use apimachinery::util::validation::field::{Error, ErrorList, Path, go_quote};

use super::{json_value, non_negative, validate_pod_template_spec};
use crate::batch::v1::{CronJob, Job, JobSpec};

/// Go's `ValidateJob`: metadata (a DNS subdomain name, namespaced) and the spec.
pub fn validate_job(job: &Job) -> ErrorList {
    let mut errs = validate_object_meta(
        &job.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    errs.extend(validate_job_spec(&job.spec, &Path::new("spec")));
    errs
}

/// Go's `ValidateJobSpec`: counts not negative, completion mode, selector (when set:
/// kube-apiserver generates a Job's selector, this crate does not require one),
/// the pod template restarted `OnFailure` or `Never`.
pub fn validate_job_spec(spec: &JobSpec, fld: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    for (name, v) in [
        ("parallelism", spec.parallelism.map(i64::from)),
        ("completions", spec.completions.map(i64::from)),
        ("activeDeadlineSeconds", spec.active_deadline_seconds),
        ("backoffLimit", spec.backoff_limit.map(i64::from)),
        (
            "ttlSecondsAfterFinished",
            spec.ttl_seconds_after_finished.map(i64::from),
        ),
    ] {
        if let Some(v) = v {
            non_negative(v, &fld.child(name), &mut errs);
        }
    }
    if let Some(mode) = &spec.completion_mode {
        match mode.as_str() {
            "NonIndexed" => {}
            "Indexed" => {
                if spec.completions.is_none() {
                    errs.push(Error::required(
                        &fld.child("completions"),
                        "when completion mode is Indexed",
                    ));
                }
            }
            other => errs.push(Error::not_supported(
                &fld.child("completionMode"),
                other,
                &["NonIndexed", "Indexed"],
            )),
        }
    }
    if let Some(sel) = &spec.selector {
        errs.extend(validate_label_selector(sel, &fld.child("selector")));
        if !sel.matches(&spec.template.metadata.labels) {
            errs.push(Error::invalid(
                &fld.child("template").child("metadata").child("labels"),
                json_value(&spec.template.metadata.labels),
                "`selector` does not match template `labels`",
            ));
        }
    }
    let tp = fld.child("template");
    errs.extend(validate_pod_template_spec(&spec.template, &tp));
    let restart = spec.template.spec.restart_policy.as_str();
    if restart != "OnFailure" && restart != "Never" {
        errs.push(Error::not_supported(
            &tp.child("spec").child("restartPolicy"),
            restart,
            &["OnFailure", "Never"],
        ));
    }
    errs
}

/// Go's `ValidateJobUpdate`: selector, completions and template kept.
pub fn validate_job_update(new: &Job, old: &Job) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(validate_job(new));
    let fld = Path::new("spec");
    if old.spec.selector.is_some() && new.spec.selector != old.spec.selector {
        errs.push(Error::invalid(
            &fld.child("selector"),
            json_value(&new.spec.selector),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    if new.spec.completions != old.spec.completions {
        errs.push(Error::invalid(
            &fld.child("completions"),
            json_value(&new.spec.completions),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    if new.spec.template != old.spec.template {
        errs.push(Error::invalid(
            &fld.child("template"),
            json_value(&new.spec.template),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}

/// Go's `ValidateCronJobCreate`: a name of at most 52 characters (the Jobs' names add
/// 11), the schedule's syntax, concurrency policy, counters and the job template.
pub fn validate_cron_job(cj: &CronJob) -> ErrorList {
    let mp = Path::new("metadata");
    let mut errs = validate_object_meta(&cj.metadata, true, name_is_dns_subdomain, &mp);
    if cj.metadata.name.len() > 52 {
        errs.push(Error::invalid(
            &mp.child("name"),
            &cj.metadata.name,
            "must be no more than 52 characters",
        ));
    }
    let spec = &cj.spec;
    let fld = Path::new("spec");
    let sp = fld.child("schedule");
    if spec.schedule.is_empty() {
        errs.push(Error::required(&sp, ""));
    } else {
        if let Err(e) = parse_schedule(&spec.schedule) {
            errs.push(Error::invalid(&sp, &spec.schedule, e));
        }
        if spec.schedule.contains("TZ") {
            errs.push(Error::invalid(
                &sp,
                &spec.schedule,
                "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
            ));
        }
    }
    if let Some(s) = spec.starting_deadline_seconds {
        non_negative(s, &fld.child("startingDeadlineSeconds"), &mut errs);
    }
    let cp = fld.child("concurrencyPolicy");
    match spec.concurrency_policy.as_str() {
        "Allow" | "Forbid" | "Replace" => {}
        "" => errs.push(Error::required(&cp, "")),
        other => errs.push(Error::not_supported(
            &cp,
            other,
            &["Allow", "Forbid", "Replace"],
        )),
    }
    for (name, v) in [
        (
            "successfulJobsHistoryLimit",
            spec.successful_jobs_history_limit,
        ),
        ("failedJobsHistoryLimit", spec.failed_jobs_history_limit),
    ] {
        if let Some(v) = v {
            non_negative(i64::from(v), &fld.child(name), &mut errs);
        }
    }
    let jt = fld.child("jobTemplate");
    errs.extend(apimachinery::apis::meta::v1::validation::validate_labels(
        &spec.job_template.metadata.labels,
        &jt.child("metadata").child("labels"),
    ));
    errs.extend(validate_job_spec(
        &spec.job_template.spec,
        &jt.child("spec"),
    ));
    errs
}

/// One field of a cron schedule: its bounds and names.
struct CronField {
    min: u32,
    max: u32,
    names: &'static [&'static str],
}

const MONTHS: &[&str] = &[
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const WEEKDAYS: &[&str] = &["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const FIELDS: [CronField; 5] = [
    CronField {
        min: 0,
        max: 59,
        names: &[],
    },
    CronField {
        min: 0,
        max: 23,
        names: &[],
    },
    CronField {
        min: 1,
        max: 31,
        names: &[],
    },
    CronField {
        min: 1,
        max: 12,
        names: MONTHS,
    },
    CronField {
        min: 0,
        max: 6,
        names: WEEKDAYS,
    },
];

/// Go's `strconv.Atoi` and the cron parser's `mustParseInt`, with their messages.
fn parse_int(expr: &str) -> Result<u32, String> {
    let digits = expr.strip_prefix(['+', '-']).unwrap_or(expr);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "failed to parse int from {expr}: strconv.Atoi: parsing {}: invalid syntax",
            go_quote(expr)
        ));
    }
    let Ok(n) = expr.parse::<i64>() else {
        return Err(format!(
            "failed to parse int from {expr}: strconv.Atoi: parsing {}: value out of range",
            go_quote(expr)
        ));
    };
    if n < 0 {
        return Err(format!("negative number ({n}) not allowed: {expr}"));
    }
    Ok(u32::try_from(n).unwrap_or(u32::MAX))
}

fn parse_int_or_name(expr: &str, names: &[&str]) -> Result<u32, String> {
    let lower = expr.to_ascii_lowercase();
    if let Some(i) = names.iter().position(|n| *n == lower) {
        // Months count from 1, weekdays from 0.
        let base = if names.len() == 12 { 1 } else { 0 };
        return Ok(u32::try_from(i).unwrap_or(0) + base);
    }
    parse_int(expr)
}

fn parse_range(expr: &str, f: &CronField) -> Result<(), String> {
    let range_and_step: Vec<&str> = expr.split('/').collect();
    let low_and_high: Vec<&str> = range_and_step[0].split('-').collect();
    let single = low_and_high.len() == 1;
    let (start, mut end) = if low_and_high[0] == "*" || low_and_high[0] == "?" {
        (f.min, f.max)
    } else {
        let start = parse_int_or_name(low_and_high[0], f.names)?;
        let end = match low_and_high.len() {
            1 => start,
            2 => parse_int_or_name(low_and_high[1], f.names)?,
            _ => return Err(format!("too many hyphens: {expr}")),
        };
        (start, end)
    };
    let step = match range_and_step.len() {
        1 => 1,
        2 => {
            let step = parse_int(range_and_step[1])?;
            if single {
                end = f.max;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expr}")),
    };
    if start < f.min {
        return Err(format!(
            "beginning of range ({start}) below minimum ({}): {expr}",
            f.min
        ));
    }
    if end > f.max {
        return Err(format!(
            "end of range ({end}) above maximum ({}): {expr}",
            f.max
        ));
    }
    if start > end {
        return Err(format!(
            "beginning of range ({start}) beyond end of range ({end}): {expr}"
        ));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expr}"));
    }
    Ok(())
}

/// Checks a standard cron schedule as Kubernetes' parser does (`robfig/cron`'s
/// `ParseStandard`), with its error texts: five fields or a descriptor.
pub fn parse_schedule(spec: &str) -> Result<(), String> {
    let trimmed = spec.trim();
    if trimmed.is_empty() {
        return Err("empty spec string".into());
    }
    let mut rest = trimmed;
    if let Some(tz) = rest
        .strip_prefix("TZ=")
        .or_else(|| rest.strip_prefix("CRON_TZ="))
    {
        // The zone itself is checked against the tz database by Go; only its shape here.
        match tz.split_once(char::is_whitespace) {
            Some((_, after)) => rest = after.trim_start(),
            None => {
                return Err(format!(
                    "provided bad location {tz}: unknown time zone {tz}"
                ));
            }
        }
    }
    if let Some(descriptor) = rest.strip_prefix('@') {
        return match descriptor {
            "yearly" | "annually" | "monthly" | "weekly" | "daily" | "midnight" | "hourly" => {
                Ok(())
            }
            d if d.starts_with("every ") => {
                let dur = d.trim_start_matches("every ").trim();
                if is_go_duration(dur) {
                    Ok(())
                } else {
                    Err(format!(
                        "failed to parse duration {rest}: time: invalid duration {}",
                        go_quote(dur)
                    ))
                }
            }
            _ => Err(format!("unrecognized descriptor: {rest}")),
        };
    }
    let fields: Vec<&str> = rest.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(format!(
            "expected exactly 5 fields, found {}: [{}]",
            fields.len(),
            fields.join(" ")
        ));
    }
    for (field, bounds) in fields.iter().zip(FIELDS.iter()) {
        for expr in field.split(',') {
            parse_range(expr, bounds)?;
        }
    }
    Ok(())
}

/// Whether `s` is a Go duration (`1h30m`, `90s`, `1.5h`).
fn is_go_duration(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    if s == "0" {
        return true;
    }
    let mut rest = s;
    let mut any = false;
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if num_len == 0 || rest[..num_len] == *"." {
            return false;
        }
        rest = &rest[num_len..];
        let Some(unit) = ["ns", "us", "µs", "μs", "ms", "s", "m", "h"]
            .iter()
            .find(|u| rest.starts_with(**u))
        else {
            return false;
        };
        rest = &rest[unit.len()..];
        any = true;
    }
    any
}
