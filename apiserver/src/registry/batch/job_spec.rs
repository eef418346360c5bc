//! What Go's `pkg/api/job/util.go` (`DropDisabledFields`) removes from the JobSpec of a
//! Job and of a CronJob's job template on create and update: on Kubernetes 1.37,
//! `spec.scheduling`, whose feature (WorkloadWithJob, alpha) is off by default, unless the
//! stored object uses it already. Kubernetes 1.36 has no such field.

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};

use crate::registry::{ResourceInfo, from_value, to_json};

/// The JobSpec fields behind a feature that is off by default, dropped unless in use.
#[cfg(feature = "v1_37")]
pub const GATED: &[&str] = &["scheduling"];
/// The JobSpec fields behind a feature that is off by default: none on 1.36.
#[cfg(not(feature = "v1_37"))]
pub const GATED: &[&str] = &[];

/// `new` (of the resource `info`, at its storage version) without the JobSpec fields at
/// `spec` (a JSON pointer: `/spec` of a Job, `/spec/jobTemplate/spec` of a CronJob) whose
/// feature is disabled, except those `old` (the stored object of an update) has set.
/// Read back only when there was one to drop.
pub fn without_disabled_fields(
    scheme: &Scheme,
    info: &ResourceInfo,
    old: Option<&dyn Object>,
    new: Box<dyn Object>,
    spec: &str,
) -> Result<Box<dyn Object>, StatusError> {
    if GATED.is_empty() {
        return Ok(new);
    }
    let mut value = to_json(&*new)?;
    let set = |v: &serde_json::Value, field: &str| {
        v.pointer(spec)
            .and_then(|s| s.get(field))
            .is_some_and(|f| !f.is_null())
    };
    let given: Vec<&str> = GATED.iter().copied().filter(|f| set(&value, f)).collect();
    if given.is_empty() {
        return Ok(new);
    }
    let old = old.map(to_json).transpose()?;
    let mut dropped = false;
    for field in given {
        if !old.as_ref().is_some_and(|o| set(o, field)) {
            if let Some(s) = value.pointer_mut(spec).and_then(|s| s.as_object_mut()) {
                s.remove(field);
                dropped = true;
            }
        }
    }
    if dropped {
        return from_value(scheme, &info.storage_gvk, value);
    }
    Ok(new)
}

#[cfg(test)]
#[cfg(feature = "v1_37")]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::Arc;

    use serde_json::{Value, json};

    use super::*;
    use crate::registry::batch::cronjob::CronJobStrategy;
    use crate::registry::batch::job::JobStrategy;
    use crate::registry::core::pod::template::PodTemplateStrategy;
    use crate::registry::core::pod::template::tests as template_tests;
    use crate::registry::strategy::{Strategy, Subresource};

    fn scheme_and_info(resource: &str) -> (Arc<Scheme>, ResourceInfo) {
        let scheme = template_tests::scheme();
        let info = template_tests::info(&scheme, "batch", resource);
        (scheme, info)
    }

    const SCHEDULING: &str = r#"{"schedulingPolicy": {"basic": {}}}"#;

    /// A JobSpec, with `spec.scheduling` when `scheduling`, and `parallelism`.
    fn job_spec(scheduling: bool, parallelism: i64) -> Value {
        let mut spec = json!({"parallelism": parallelism, "manualSelector": true,
            "selector": {"matchLabels": {"app": "j"}},
            "template": {"metadata": {"labels": {"app": "j"}},
                "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "i"}]}}});
        if scheduling {
            spec["scheduling"] = serde_json::from_str(SCHEDULING).unwrap();
        }
        spec
    }

    fn job(scheduling: bool, parallelism: i64) -> Value {
        json!({"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": "j", "namespace": "d", "uid": "u", "generation": 1},
            "spec": job_spec(scheduling, parallelism)})
    }

    fn cron_job(scheduling: bool, parallelism: i64) -> Value {
        json!({"apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": "c", "namespace": "d", "generation": 1},
            "spec": {"schedule": "* * * * *",
                "jobTemplate": {"spec": job_spec(scheduling, parallelism)}}})
    }

    /// Runs `strategy`'s create of `created` and its update of that to each of
    /// `updates` (stored with scheduling or not, sent with or not, and with a new
    /// parallelism or not): whether the result has `spec` at `pointer`'s scheduling, and
    /// the generation.
    fn check(
        strategy: &dyn Strategy,
        resource: &str,
        object: fn(bool, i64) -> Value,
        pointer: &str,
    ) {
        let (s, info) = scheme_and_info(resource);
        let decode = |v: Value| from_value(&s, &info.storage_gvk, v).unwrap();
        let has = |o: &dyn Object| {
            to_json(o)
                .unwrap()
                .pointer(pointer)
                .is_some_and(|v| v.get("scheduling").is_some())
        };
        // Go's PrepareForCreate: dropped.
        let created = strategy
            .prepare_for_create(&s, &info, decode(object(true, 1)))
            .unwrap();
        assert!(!has(&*created), "{resource}: create");
        // Go's PrepareForUpdate: dropped unless stored, before the generation is counted.
        for (stored, sent, parallelism, kept, generation) in [
            (false, true, 1, false, 1),
            (false, true, 2, false, 2),
            (true, true, 2, true, 2),
            (true, false, 1, false, 2),
        ] {
            let old = decode(object(stored, 1));
            let new = decode(object(sent, parallelism));
            let updated = strategy
                .prepare_for_update(&s, &info, &*old, new, Subresource::Main)
                .unwrap();
            let case = format!("{resource}: {stored} {sent} {parallelism}");
            assert_eq!(has(&*updated), kept, "{case}");
            assert_eq!(updated.meta().unwrap().generation(), generation, "{case}");
        }
    }

    #[test]
    fn a_job_loses_the_scheduling_of_the_disabled_feature_unless_stored() {
        check(&JobStrategy, "jobs", job, "/spec");
        // The path generating the selector drops it too.
        let (s, info) = scheme_and_info("jobs");
        let mut generated = job(true, 1);
        generated["spec"]["manualSelector"] = json!(false);
        let obj = from_value(&s, &info.storage_gvk, generated).unwrap();
        let created = JobStrategy.prepare_for_create(&s, &info, obj).unwrap();
        let created = to_json(&*created).unwrap();
        assert!(created["spec"].get("scheduling").is_none());
        assert!(
            created["spec"]["selector"]["matchLabels"]["batch.kubernetes.io/controller-uid"]
                .is_string()
        );
    }

    #[test]
    fn a_cron_job_template_loses_it_too() {
        let strategy = CronJobStrategy {
            template: PodTemplateStrategy::new("/spec/jobTemplate/spec/template/metadata"),
        };
        check(&strategy, "cronjobs", cron_job, "/spec/jobTemplate/spec");
    }
}
