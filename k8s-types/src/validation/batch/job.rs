//! Job (Go's `ValidateJob`, `ValidateJobUpdate` and the `job` strategy's options).

use std::collections::BTreeMap;

use crate::validation::{validate_object_meta, validate_object_meta_update};
use apimachinery::apis::meta::v1::ObjectMeta;
use apimachinery::apis::meta::v1::validation::{FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain};
use apimachinery::util::validation::domain::is_domain_prefixed_path;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::is_dns1123_label;

use super::job_policies::{
    internal_pod_failure_policy, internal_success_policy, pod_failure_policy,
    pod_replacement_policy, success_policy,
};
use crate::batch::v1::{Job, JobSpec};
use crate::core::v1::{Affinity, Container, PodTemplateSpec};
use crate::go_internal_json::internal_value;
use crate::validation::label_selector::{
    affinity_selector_invalid, as_selector, has_invalid_label_value, labels_value, mismatch,
    validate_label_selector_with,
};
use crate::validation::semantic::semantic_eq;
use crate::validation::{
    json_value, non_negative, validate_pod_template_spec, validate_pod_template_spec_update,
};

const MAX_PARALLELISM_FOR_INDEXED_JOB: i32 = 100_000;
const MAX_FAILED_INDEXES_FOR_INDEXED_JOB: i32 = 100_000;
const COMPLETIONS_SOFT_LIMIT: i32 = 100_000;
const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS: i32 = 10_000;
const MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS: i32 = 10_000;
const MAX_MANAGED_BY_LENGTH: i64 = 63;

const LEGACY_CONTROLLER_UID_LABEL: &str = "controller-uid";
const LEGACY_JOB_NAME_LABEL: &str = "job-name";
const CONTROLLER_UID_LABEL: &str = "batch.kubernetes.io/controller-uid";
const JOB_NAME_LABEL: &str = "batch.kubernetes.io/job-name";

/// What the `job` strategy decides from the old object (Go's `JobValidationOptions`).
#[derive(Clone, Copy, Debug)]
struct Options<'a> {
    /// An update's old template, from which Go computes the pod validation options
    /// (`GetValidationOptionsFromPodTemplate`).
    old_template: Option<&'a PodTemplateSpec>,
    /// The selector may keep invalid label values the old object had.
    allow_invalid_label_value: bool,
    /// The generated selector's `batch.kubernetes.io/` labels are required (on create,
    /// and on update when the old template had them).
    require_prefixed_labels: bool,
    /// A suspended Job that has not started may change its template's scheduling
    /// directives and its containers' resources.
    allow_mutable_template: bool,
}

impl<'a> Options<'a> {
    fn create() -> Self {
        Options {
            old_template: None,
            allow_invalid_label_value: false,
            require_prefixed_labels: true,
            allow_mutable_template: false,
        }
    }

    /// Go's `validationOptionsForJob` for an update.
    fn update(old: &'a Job) -> Self {
        let suspended = old.spec.suspend == Some(true);
        let status = &old.status;
        let not_started = status.start_time.is_none();
        let has_suspended_condition = status
            .conditions
            .iter()
            .any(|c| c.r#type == "Suspended" && c.status == "True");
        let active = status.active;
        let labels = &old.spec.template.metadata.labels;
        Options {
            old_template: Some(&old.spec.template),
            allow_invalid_label_value: affinity_selector_invalid(&old.spec.template.spec)
                || has_invalid_label_value(old.spec.selector.as_ref()),
            require_prefixed_labels: labels.contains_key(JOB_NAME_LABEL)
                && labels.contains_key(CONTROLLER_UID_LABEL),
            allow_mutable_template: suspended
                && (not_started || has_suspended_condition)
                && active == 0,
        }
    }
}

/// Go's `ValidateJob`: metadata (a DNS subdomain name, namespaced), the selector a
/// generated one must be, the spec, and for an Indexed Job a name its pods' hostnames
/// can carry.
pub fn validate_job(job: &Job) -> ErrorList {
    #[allow(unused_mut)]
    let mut errs = job_errors(job, Options::create());
    #[cfg(feature = "v1_37")]
    super::job_scheduling::validate_job_scheduling(&job.spec, None, &Path::new("spec"), &mut errs);
    errs
}

fn job_errors(job: &Job, opts: Options) -> ErrorList {
    let mut errs = validate_object_meta(
        &job.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    generated_selector(job, opts.require_prefixed_labels, &mut errs);
    spec_with_selector(
        &job.spec,
        &Path::new("spec"),
        opts.old_template,
        opts.allow_invalid_label_value,
        &mut errs,
    );
    name_allows_completions(job, &mut errs);
    errs
}

/// Go's `validateNameAllowsCompletions`: an Indexed Job's name, with its last index,
/// must make a pod hostname.
fn name_allows_completions(job: &Job, errs: &mut ErrorList) {
    if job.spec.completion_mode.as_deref() == Some("Indexed") {
        if let Some(completions) = job.spec.completions.filter(|c| *c > 0) {
            let hostname = format!("{}-{}", job.metadata.name, completions - 1);
            if !is_dns1123_label(&hostname).is_empty() {
                errs.push(Error::invalid(
                    &Path::new("metadata").child("name"),
                    &job.metadata.name,
                    format!("will not able to create pod with invalid DNS label: {hostname}"),
                ));
            }
        }
    }
}

/// Go's `ValidateJobSpec`: the spec, a required selector that selects the template.
pub fn validate_job_spec(spec: &JobSpec, fld: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    spec_with_selector(spec, fld, None, false, &mut errs);
    errs
}

fn spec_with_selector(
    spec: &JobSpec,
    fld: &Path,
    old_template: Option<&PodTemplateSpec>,
    allow_invalid: bool,
    errs: &mut ErrorList,
) {
    job_spec(spec, fld, old_template, errs);
    let sel_path = fld.child("selector");
    match &spec.selector {
        None => errs.push(Error::required(&sel_path, "")),
        Some(sel) => errs.extend(validate_label_selector_with(
            Some(sel),
            allow_invalid,
            &sel_path,
        )),
    }
    let labels = &spec.template.metadata.labels;
    if as_selector(spec.selector.as_ref()).is_some_and(|s| !s.matches(labels)) {
        errs.push(mismatch(labels, &fld.child("template")));
    }
}

/// Go's `validateGeneratedSelector`: unless the selector is manual, the template has the
/// labels the server generates for it (the Job's uid and name) and the selector
/// selects them.
fn generated_selector(job: &Job, prefixed: bool, errs: &mut ErrorList) {
    if job.spec.manual_selector == Some(true) {
        return;
    }
    let Some(selector) = &job.spec.selector else {
        return;
    };
    let uid = &job.metadata.uid;
    if uid.is_empty() {
        errs.push(Error::required(&Path::new("metadata").child("uid"), ""));
    }
    let name = &job.metadata.name;
    let template_meta = &job.spec.template.metadata;
    let mut expected = BTreeMap::new();
    let mut labels = vec![
        (LEGACY_CONTROLLER_UID_LABEL, uid),
        (LEGACY_JOB_NAME_LABEL, name),
    ];
    if prefixed {
        labels.extend([(CONTROLLER_UID_LABEL, uid), (JOB_NAME_LABEL, name)]);
    }
    for (key, value) in labels {
        has_label(template_meta, key, value, errs);
        expected.insert(key.to_owned(), value.clone());
    }
    if as_selector(Some(selector)).is_some_and(|s| !s.matches(&expected)) {
        errs.push(Error::invalid(
            &Path::new("spec").child("selector"),
            json_value(selector),
            "`selector` not auto-generated",
        ));
    }
}

/// Go's `ValidateHasLabel` on a template's metadata.
fn has_label(meta: &ObjectMeta, key: &str, expected: &str, errs: &mut ErrorList) {
    let (spec, template) = (Path::new("spec"), "template");
    let tp = spec.child(template);
    let mp = tp.child("metadata");
    let labels = mp.child("labels");
    let path = labels.key(key);
    match meta.labels.get(key) {
        None => errs.push(Error::required(&path, format!("must be '{expected}'"))),
        Some(v) if v != expected => errs.push(Error::invalid(
            &path,
            labels_value(&meta.labels),
            format!("must be '{expected}'"),
        )),
        Some(_) => {}
    }
}

/// Go's `validateJobSpec` (also a CronJob's job template's): counts, completion mode
/// and its limits, policies, the pod template restarted `OnFailure` or `Never`.
pub(super) fn job_spec(
    spec: &JobSpec,
    fld: &Path,
    old_template: Option<&PodTemplateSpec>,
    errs: &mut ErrorList,
) {
    for (name, v) in [
        ("parallelism", spec.parallelism.map(i64::from)),
        ("completions", spec.completions.map(i64::from)),
        ("activeDeadlineSeconds", spec.active_deadline_seconds),
        ("backoffLimit", spec.backoff_limit.map(i64::from)),
        (
            "ttlSecondsAfterFinished",
            spec.ttl_seconds_after_finished.map(i64::from),
        ),
        (
            "backoffLimitPerIndex",
            spec.backoff_limit_per_index.map(i64::from),
        ),
    ] {
        if let Some(v) = v {
            non_negative(v, &fld.child(name), errs);
        }
    }
    if let Some(max_failed) = spec.max_failed_indexes {
        non_negative(i64::from(max_failed), &fld.child("maxFailedIndexes"), errs);
        if spec.backoff_limit_per_index.is_none() {
            errs.push(Error::required(
                &fld.child("backoffLimitPerIndex"),
                "when maxFailedIndexes is specified",
            ));
        }
    }
    if let Some(managed_by) = &spec.managed_by {
        let path = fld.child("managedBy");
        errs.extend(is_domain_prefixed_path(&path, managed_by));
        if managed_by.len() > 63 {
            errs.push(Error::too_long(&path, MAX_MANAGED_BY_LENGTH));
        }
    }
    completion_mode(spec, fld, errs);
    if let Some(policy) = &spec.pod_failure_policy {
        pod_failure_policy(spec, policy, &fld.child("podFailurePolicy"), errs);
    }
    if let Some(policy) = &spec.success_policy {
        let path = fld.child("successPolicy");
        if spec.completion_mode.as_deref() == Some("Indexed") {
            success_policy(spec, policy, &path, errs);
        } else {
            errs.push(Error::invalid(
                &path,
                BadValue::Json(internal_success_policy(policy)),
                "requires indexed completion mode",
            ));
        }
    }
    pod_replacement_policy(spec, &fld.child("podReplacementPolicy"), errs);
    let tp = fld.child("template");
    errs.extend(match old_template {
        Some(old) => validate_pod_template_spec_update(&spec.template, old, &tp),
        None => validate_pod_template_spec(&spec.template, &tp),
    });
    let pod_spec = tp.child("spec");
    let rp = pod_spec.child("restartPolicy");
    match spec.template.spec.restart_policy.as_str() {
        "" | "Always" => errs.push(Error::required(
            &rp,
            "valid values: \"OnFailure\", \"Never\"",
        )),
        "OnFailure" if spec.pod_failure_policy.is_some() => errs.push(Error::invalid(
            &rp,
            json_value("OnFailure"),
            "only \"Never\" is supported when podFailurePolicy is specified",
        )),
        "OnFailure" | "Never" => {}
        other => errs.push(Error::not_supported(
            &rp,
            json_value(other),
            &["OnFailure", "Never"],
        )),
    }
}

/// The completion mode and what an Indexed or NonIndexed Job may set with it.
fn completion_mode(spec: &JobSpec, fld: &Path, errs: &mut ErrorList) {
    let mode = spec.completion_mode.as_deref();
    if let Some(m) = mode {
        if m != "NonIndexed" && m != "Indexed" {
            errs.push(Error::not_supported(
                &fld.child("completionMode"),
                json_value(m),
                &["NonIndexed", "Indexed"],
            ));
        }
    }
    let (parallelism, completions) = (spec.parallelism, spec.completions);
    let (per_index, max_failed) = (spec.backoff_limit_per_index, spec.max_failed_indexes);
    let (pp, mp) = (fld.child("parallelism"), fld.child("maxFailedIndexes"));
    if mode == Some("Indexed") {
        if completions.is_none() {
            errs.push(Error::required(
                &fld.child("completions"),
                "when completion mode is Indexed",
            ));
        }
        if let Some(p) = parallelism.filter(|p| *p > MAX_PARALLELISM_FOR_INDEXED_JOB) {
            errs.push(Error::invalid(
                &pp,
                p,
                format!(
                    "must be less than or equal to {MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed"
                ),
            ));
        }
        if let (Some(c), Some(m)) = (completions, max_failed) {
            if m > c {
                errs.push(Error::invalid(
                    &mp,
                    m,
                    "must be less than or equal to completions",
                ));
            }
        }
        if let Some(m) = max_failed.filter(|m| *m > MAX_FAILED_INDEXES_FOR_INDEXED_JOB) {
            errs.push(Error::invalid(
                &mp,
                m,
                format!("must be less than or equal to {MAX_FAILED_INDEXES_FOR_INDEXED_JOB}"),
            ));
        }
        if completions.is_some_and(|c| c > COMPLETIONS_SOFT_LIMIT) && per_index.is_some() {
            let high = format!(
                "when completions are above {COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index"
            );
            if max_failed.is_none() {
                errs.push(Error::required(
                    &mp,
                    format!("must be specified when completions is above {COMPLETIONS_SOFT_LIMIT}"),
                ));
            }
            if let Some(p) = parallelism.filter(|p| *p > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
                errs.push(Error::invalid(
                    &pp,
                    p,
                    format!(
                        "must be less than or equal to {PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} {high}"
                    ),
                ));
            }
            if let Some(m) =
                max_failed.filter(|m| *m > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS)
            {
                errs.push(Error::invalid(
                    &mp,
                    m,
                    format!(
                        "must be less than or equal to {MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS} {high}"
                    ),
                ));
            }
        }
    }
    if mode.is_none() || mode == Some("NonIndexed") {
        if let Some(b) = per_index {
            errs.push(Error::invalid(
                &fld.child("backoffLimitPerIndex"),
                b,
                "requires indexed completion mode",
            ));
        }
        if let Some(m) = max_failed {
            errs.push(Error::invalid(&mp, m, "requires indexed completion mode"));
        }
    }
}

/// Go's `ValidateJobUpdate` after `ValidateJob`, as the 1.36 strategy runs them (the
/// spec is validated twice, and its errors appear twice, as in Go); 1.37's strategy
/// runs `ValidateJobUpdate` alone, which leaves out the new metadata's names and the
/// generated selector, and checks the name against the completions itself.
pub fn validate_job_update(new: &Job, old: &Job) -> ErrorList {
    let opts = Options::update(old);
    #[cfg(not(feature = "v1_37"))]
    let mut errs = job_errors(new, opts);
    #[cfg(feature = "v1_37")]
    let mut errs = {
        let mut errs = ErrorList::default();
        name_allows_completions(new, &mut errs);
        let fld = Path::new("spec");
        super::job_scheduling::validate_job_scheduling(&new.spec, Some(&old.spec), &fld, &mut errs);
        super::job_scheduling::validate_job_scheduling_update(
            &new.spec, &old.spec, &fld, &mut errs,
        );
        errs
    };
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        &Path::new("metadata"),
    ));
    let (spec, old_spec) = (&new.spec, &old.spec);
    let fld = Path::new("spec");
    spec_with_selector(
        spec,
        &fld,
        opts.old_template,
        opts.allow_invalid_label_value,
        &mut errs,
    );
    completions_update(spec, old_spec, &fld.child("completions"), &mut errs);
    immutable(
        spec.selector.as_ref() != old_spec.selector.as_ref(),
        &fld.child("selector"),
        || json_value(&spec.selector),
        &mut errs,
    );
    template_update(spec, old_spec, &fld, opts, &mut errs);
    immutable(
        spec.completion_mode != old_spec.completion_mode,
        &fld.child("completionMode"),
        || json_value(&spec.completion_mode),
        &mut errs,
    );
    immutable(
        !semantic_eq(&spec.pod_failure_policy, &old_spec.pod_failure_policy),
        &fld.child("podFailurePolicy"),
        || {
            BadValue::Json(
                spec.pod_failure_policy
                    .as_ref()
                    .map_or_else(|| "null".to_owned(), internal_pod_failure_policy),
            )
        },
        &mut errs,
    );
    immutable(
        spec.backoff_limit_per_index != old_spec.backoff_limit_per_index,
        &fld.child("backoffLimitPerIndex"),
        || json_value(&spec.backoff_limit_per_index),
        &mut errs,
    );
    immutable(
        spec.managed_by != old_spec.managed_by,
        &fld.child("managedBy"),
        || json_value(&spec.managed_by),
        &mut errs,
    );
    immutable(
        !semantic_eq(&spec.success_policy, &old_spec.success_policy),
        &fld.child("successPolicy"),
        || {
            BadValue::Json(
                spec.success_policy
                    .as_ref()
                    .map_or_else(|| "null".to_owned(), internal_success_policy),
            )
        },
        &mut errs,
    );
    errs
}

/// Go's `ValidateImmutableField`: `changed` is an error at `path` showing the new value.
fn immutable(changed: bool, path: &Path, value: impl FnOnce() -> BadValue, errs: &mut ErrorList) {
    if changed {
        errs.push(Error::invalid(path, value(), FIELD_IMMUTABLE_ERROR_MSG));
    }
}

/// Go's `validateCompletions`: immutable, but for an Indexed Job changed together with
/// its parallelism.
fn completions_update(spec: &JobSpec, old: &JobSpec, path: &Path, errs: &mut ErrorList) {
    if spec.completion_mode.as_deref() != Some("Indexed") {
        immutable(
            spec.completions != old.completions,
            path,
            || json_value(&spec.completions),
            errs,
        );
        return;
    }
    if spec.completions == old.completions {
        return;
    }
    if let Some(c) = spec.completions {
        if Some(c) != spec.parallelism {
            errs.push(Error::invalid(
                path,
                c,
                "can only be modified in tandem with spec.parallelism",
            ));
        }
    }
}

/// Go's `validatePodTemplateUpdate`: the template immutable, but a suspended Job that
/// has not started may change its scheduling directives (node affinity, node
/// selector, tolerations, labels, annotations, scheduling gates) and its containers'
/// resources.
fn template_update(spec: &JobSpec, old: &JobSpec, fld: &Path, opts: Options, errs: &mut ErrorList) {
    let template = &spec.template;
    let mut old_template = std::borrow::Cow::Borrowed(&old.template);
    if opts.allow_mutable_template {
        let o = old_template.to_mut();
        scheduling_directives_from(template, o);
    }
    let tp = fld.child("template");
    let suspended = old.suspend == Some(true);
    if !suspended || !opts.allow_mutable_template {
        immutable(
            !semantic_eq(template, &*old_template),
            &tp,
            // Go's `json.Marshal` of the internal template.
            || internal_value("core.PodTemplateSpec", template),
            errs,
        );
        return;
    }
    // Only the containers' resources may change besides.
    let mut old_spec = old_template.spec.clone();
    resources_from(
        old_spec.containers.as_deref_mut().unwrap_or_default(),
        template.spec.containers.as_deref().unwrap_or_default(),
    );
    resources_from(
        &mut old_spec.init_containers,
        &template.spec.init_containers,
    );
    immutable(
        !semantic_eq(&template.spec, &old_spec),
        &tp.child("spec"),
        || internal_value("core.PodSpec", &template.spec),
        errs,
    );
}

/// The resources of the `new` containers copied into the `old` ones, position by
/// position when the lists have the same length and the names match.
fn resources_from(old: &mut [Container], new: &[Container]) {
    if old.len() == new.len() {
        for (o, n) in old.iter_mut().zip(new) {
            if o.name == n.name {
                o.resources.clone_from(&n.resources);
            }
        }
    }
}

/// The scheduling directives of `new` copied into `old`, as Go does before comparing.
fn scheduling_directives_from(new: &PodTemplateSpec, old: &mut PodTemplateSpec) {
    match (&new.spec.affinity, &mut old.spec.affinity) {
        (None, Some(a)) => {
            a.node_affinity = None;
            if *a == Affinity::default() {
                old.spec.affinity = None;
            }
        }
        (Some(n), None) => {
            old.spec.affinity = Some(Affinity {
                node_affinity: n.node_affinity.clone(),
                ..Affinity::default()
            });
        }
        (Some(n), Some(a)) => a.node_affinity.clone_from(&n.node_affinity),
        (None, None) => {}
    }
    old.spec.node_selector.clone_from(&new.spec.node_selector);
    old.spec.tolerations.clone_from(&new.spec.tolerations);
    old.metadata
        .annotations
        .clone_from(&new.metadata.annotations);
    old.metadata.labels.clone_from(&new.metadata.labels);
    old.spec
        .scheduling_gates
        .clone_from(&new.spec.scheduling_gates);
}
