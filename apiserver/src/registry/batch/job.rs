//! Jobs (Go's `pkg/registry/batch/job`): selectable by `status.successful`; created
//! with the selector Go's strategy generates unless `manualSelector` is set.

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::{Value, json};

use crate::registry::GarbageCollectionPolicy;
use crate::registry::core::pod::template::{
    prepare_template_for_update, without_init_container_annotations,
};
use crate::registry::dependencies::Dependencies;
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{
    SelectableField, Strategy, Subresource, prepare_for_update, spec_changed,
};
use crate::registry::{ResourceInfo, from_value, to_json};

/// Where a Job's pod template's metadata is.
const TEMPLATE_METADATA: &str = "/spec/template/metadata";

/// Go's job strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct JobStrategy;

impl Strategy for JobStrategy {
    /// Go's: dependents are orphaned by default at batch/v1, for compatibility.
    fn garbage_collection_policy(&self, version: &str) -> GarbageCollectionPolicy {
        if version == "v1" {
            GarbageCollectionPolicy::OrphanDependents
        } else {
            GarbageCollectionPolicy::DeleteDependents
        }
    }

    /// Go's `generateSelector` (which Go runs in `Validate`, once the object has its
    /// UID): the template gets the `job-name` and `controller-uid` labels (legacy and
    /// `batch.kubernetes.io/` forms; labels the template already has are kept) and the
    /// selector `batch.kubernetes.io/controller-uid=<uid>`, unless `manualSelector` is
    /// true. A Job created with `generateName` has no name yet here, so its `job-name`
    /// labels are left out. And Go's `PrepareForCreate`: the template without its
    /// init-container annotations.
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let mut job = to_json(&*obj)?;
        if job.pointer("/spec/manualSelector") == Some(&Value::Bool(true)) {
            return without_init_container_annotations(scheme, info, obj, TEMPLATE_METADATA);
        }
        let text = |p: &str| {
            job.pointer(p)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let (name, uid) = (text("/metadata/name"), text("/metadata/uid"));
        if !job["spec"].is_object() {
            job["spec"] = json!({});
        }
        let spec = &mut job["spec"];
        if !spec["template"].is_object() {
            spec["template"] = json!({});
        }
        if !spec["template"]["metadata"].is_object() {
            spec["template"]["metadata"] = json!({});
        }
        let meta = &mut spec["template"]["metadata"];
        if !meta["labels"].is_object() {
            meta["labels"] = json!({});
        }
        let mut labels = vec![
            ("controller-uid", &uid),
            ("batch.kubernetes.io/controller-uid", &uid),
        ];
        if !name.is_empty() {
            labels.insert(0, ("job-name", &name));
            labels.insert(1, ("batch.kubernetes.io/job-name", &name));
        }
        for (key, value) in labels {
            if meta["labels"].get(key).is_none() {
                meta["labels"][key] = Value::from(value.as_str());
            }
        }
        if !spec["selector"].is_object() {
            spec["selector"] = json!({});
        }
        if !spec["selector"]["matchLabels"].is_object() {
            spec["selector"]["matchLabels"] = json!({});
        }
        let selector = &mut spec["selector"]["matchLabels"];
        if selector.get("batch.kubernetes.io/controller-uid").is_none() {
            selector["batch.kubernetes.io/controller-uid"] = Value::from(uid.as_str());
        }
        #[cfg(feature = "v1_37")]
        crate::registry::core::pod::template::drop_init_container_annotations(
            &mut job,
            TEMPLATE_METADATA,
        );
        from_value(scheme, &info.storage_gvk, job)
    }

    /// Go's `PrepareForUpdate`: the template without its init-container annotations too.
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let new = prepare_for_update(scheme, info, old, new, subresource, spec_changed)?;
        prepare_template_for_update(scheme, info, new, subresource, TEMPLATE_METADATA)
    }

    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("status.successful", "/status/succeeded")]
    }
}

/// The Jobs' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard(info, JobStrategy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::resources_from_scheme;

    fn create(job: Value) -> Value {
        let mut scheme = Scheme::with_name("job-selector-tests");
        scheme.add_registry().unwrap();
        let info = resources_from_scheme(&scheme)
            .into_values()
            .find(|r| r.group == "batch" && r.resource == "jobs")
            .unwrap();
        let obj = from_value(&scheme, &info.storage_gvk, job).unwrap();
        to_json(&*JobStrategy.prepare_for_create(&scheme, &info, obj).unwrap()).unwrap()
    }

    #[test]
    fn a_job_gets_gos_generated_selector() {
        let job = create(
            json!({"metadata": {"name": "pi", "uid": "u-1"}, "spec": {"template": {"metadata": {"labels": {"job-name": "mine"}}}}}),
        );
        assert_eq!(
            job["spec"]["selector"],
            json!({"matchLabels": {"batch.kubernetes.io/controller-uid": "u-1"}})
        );
        let labels = &job["spec"]["template"]["metadata"]["labels"];
        assert_eq!(labels["job-name"], "mine");
        assert_eq!(labels["batch.kubernetes.io/job-name"], "pi");
        assert_eq!(labels["controller-uid"], "u-1");
        assert_eq!(labels["batch.kubernetes.io/controller-uid"], "u-1");
    }

    #[test]
    fn a_manual_selector_is_left_alone() {
        let job = create(
            json!({"metadata": {"name": "pi", "uid": "u-1"}, "spec": {"manualSelector": true, "selector": {"matchLabels": {"a": "b"}}}}),
        );
        assert_eq!(job["spec"]["selector"], json!({"matchLabels": {"a": "b"}}));
        assert!(job["spec"]["template"]["metadata"].get("labels").is_none());
    }
}
