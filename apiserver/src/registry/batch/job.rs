//! Jobs (Go's `pkg/registry/batch/job`): selectable by `status.successful`; created
//! with the selector Go's strategy generates unless `manualSelector` is set; and the
//! table `kubectl get jobs` prints (Go's `printJob`).

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::{Value, json};

use super::job_spec::without_disabled_fields;
use crate::registry::core::pod::template::{
    drop_disabled_template_fields, prepare_template_for_update, workload_warnings_on_create,
    workload_warnings_on_update,
};
use crate::registry::core::pod::workload_warnings::Workload;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, CONTAINERS, Column, IMAGES, NAME, Printer, Row, int, items, string_column,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{
    SelectableField, Strategy, Subresource, prepare_for_update, spec_changed,
};
use crate::registry::{DeleteParams, GarbageCollectionPolicy};
use crate::registry::{ResourceInfo, from_value, to_json};

/// Go's warning on a Job delete that names no propagation policy.
const DELETE_OPTION_WARNING: &str = "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning";

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

    /// Go's job REST `Delete` and `DeleteCollection`: a delete that names no policy
    /// orphans the Job's pods, which surprises; say so.
    fn warnings_on_delete(&self, params: &DeleteParams) -> Vec<String> {
        let policy = self.garbage_collection_policy(&params.api_version);
        if params.propagation_policy.is_none()
            && params.orphan_dependents.is_none()
            && policy == GarbageCollectionPolicy::OrphanDependents
        {
            vec![DELETE_OPTION_WARNING.to_owned()]
        } else {
            Vec::new()
        }
    }

    /// Go's `generateSelector` (which Go runs in `Validate`, once the object has its
    /// UID): the template gets the `job-name` and `controller-uid` labels (legacy and
    /// `batch.kubernetes.io/` forms; labels the template already has are kept) and the
    /// selector `batch.kubernetes.io/controller-uid=<uid>`, unless `manualSelector` is
    /// true. A Job created with `generateName` has no name yet here, so its `job-name`
    /// labels are left out. And Go's `PrepareForCreate`: the template without what
    /// `DropDisabledTemplateFields` drops, the spec without the fields of disabled features
    /// ([`job_spec`](super::job_spec)).
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let mut job = to_json(&*obj)?;
        if job.pointer("/spec/manualSelector") == Some(&Value::Bool(true)) {
            let obj = without_disabled_fields(scheme, info, None, obj, "/spec")?;
            return drop_disabled_template_fields(scheme, info, None, obj, TEMPLATE_METADATA);
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
        crate::registry::core::pod::template::drop_disabled_template_fields_in(
            &mut job,
            None,
            TEMPLATE_METADATA,
        );
        #[cfg(feature = "v1_37")]
        if let Some(spec) = job.get_mut("spec").and_then(Value::as_object_mut) {
            for field in super::job_spec::GATED {
                spec.remove(*field);
            }
        }
        from_value(scheme, &info.storage_gvk, job)
    }

    /// Go's `PrepareForUpdate`: the template without what `DropDisabledTemplateFields` drops
    /// too, and the spec without the fields of disabled features the stored Job does not use.
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        // Before the generation is counted: a dropped field changes nothing.
        let new = match subresource {
            Subresource::Main => without_disabled_fields(scheme, info, Some(old), new, "/spec")?,
            Subresource::Status
            | Subresource::Finalize
            | Subresource::Resize
            | Subresource::EphemeralContainers
            | Subresource::Approval => new,
        };
        let new =
            prepare_template_for_update(scheme, info, old, new, subresource, TEMPLATE_METADATA)?;
        prepare_for_update(scheme, info, old, new, subresource, spec_changed)
    }

    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("status.successful", "/status/succeeded")]
    }
    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        workload_warnings_on_create(Workload::Job, obj)
    }

    fn warnings_on_update(&self, obj: &dyn Object, old: &dyn Object) -> Vec<String> {
        workload_warnings_on_update(Workload::Job, obj, old)
    }
}

/// The `Selector` column of Jobs and CronJobs (`JobSpec`'s `selector`).
pub const SELECTOR: Column = string_column(
    "Selector",
    "A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
    1,
);

/// Go's `jobColumnDefinitions`.
pub const COLUMNS: [Column; 8] = [
    NAME,
    string_column("Status", "Status of the job.", 0),
    string_column(
        "Completions",
        "The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.",
        0,
    ),
    string_column("Duration", "Time required to complete the job.", 0),
    AGE,
    CONTAINERS,
    IMAGES,
    SELECTOR,
];

/// The Jobs' table convertor.
pub static JOB_TABLE: Printer = Printer {
    api_version: "batch/v1",
    kind: "Job",
    columns: &COLUMNS,
    print: print_job,
};

/// Go's `printJob`: the status its conditions give, succeeded of the completions (of
/// the parallelism, when completions are not set), how long it ran or has been running,
/// the template's containers and images, the selector.
pub fn print_job(obj: &Value) -> Row {
    let succeeded = int(obj, "/status/succeeded");
    let completions = match obj.pointer("/spec/completions").and_then(Value::as_i64) {
        Some(completions) => format!("{succeeded}/{completions}"),
        None => match int(obj, "/spec/parallelism") {
            parallelism if parallelism > 1 => format!("{succeeded}/1 of {parallelism}"),
            _ => format!("{succeeded}/1"),
        },
    };
    let start = obj
        .pointer("/status/startTime")
        .and_then(printers::unix_seconds);
    let end = obj
        .pointer("/status/completionTime")
        .and_then(printers::unix_seconds);
    let duration = match (start, end) {
        (None, _) => String::new(),
        (Some(_), None) => printers::since(obj.pointer("/status/startTime")),
        (Some(start), Some(end)) => printers::human_duration(end - start),
    };
    let has = |condition: &str| {
        items(obj, "/status/conditions")
            .iter()
            .find(|c| printers::text(c, "/type") == condition)
            .is_some_and(|c| printers::text(c, "/status") == "True")
    };
    let status = if has("Complete") {
        "Complete"
    } else if has("Failed") {
        "Failed"
    } else if obj
        .pointer("/metadata/deletionTimestamp")
        .is_some_and(|t| !t.is_null())
    {
        "Terminating"
    } else if has("Suspended") {
        "Suspended"
    } else if has("FailureTarget") {
        "FailureTarget"
    } else if has("SuccessCriteriaMet") {
        "SuccessCriteriaMet"
    } else {
        "Running"
    };
    let [names, images] = printers::container_cells(items(obj, "/spec/template/spec/containers"));
    Row::from(vec![
        Value::from(printers::text(obj, "/metadata/name")),
        Value::from(status),
        Value::from(completions),
        Value::from(duration),
        printers::age(obj),
        names,
        images,
        Value::from(printers::format_label_selector(
            obj.pointer("/spec/selector"),
        )),
    ])
}

/// The Jobs' REST storage over `info`, with the table.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(info, JobStrategy, Arc::new(JOB_TABLE))
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

    /// Go's `TestPrintJob`'s cases: completions of parallelism, a finished Job's
    /// duration, the status from the conditions.
    #[test]
    fn jobs_print_as_kubectl_shows_them() {
        let cells = |job: Value| {
            let mut cells = print_job(&job).cells;
            cells.remove(4);
            cells.truncate(4);
            Value::from(cells)
        };
        let job = json!({"metadata": {"name": "job1"},
            "spec": {"completions": 2, "template": {"spec": {"containers": [
                {"name": "fake-job-container1", "image": "fake-job-image1"}]}},
                "selector": {"matchLabels": {"job-name": "job1"}}},
            "status": {"succeeded": 1}});
        assert_eq!(cells(job.clone()), json!(["job1", "Running", "1/2", ""]));
        let wide = print_job(&job).cells;
        assert_eq!(
            Value::from(wide[5..].to_vec()),
            json!(["fake-job-container1", "fake-job-image1", "job-name=job1"])
        );
        let parallel = json!({"metadata": {"name": "job2"}, "spec": {"parallelism": 2}});
        assert_eq!(cells(parallel), json!(["job2", "Running", "0/1 of 2", ""]));
        let done = json!({"metadata": {"name": "job3"}, "spec": {"completions": 2},
            "status": {"succeeded": 2, "startTime": "2020-01-01T00:00:00Z",
                "completionTime": "2020-01-01T00:31:00Z",
                "conditions": [{"type": "Complete", "status": "True"}]}});
        assert_eq!(cells(done), json!(["job3", "Complete", "2/2", "31m"]));
        let suspended = json!({"metadata": {"name": "job4"},
            "status": {"conditions": [{"type": "Failed", "status": "False"},
                {"type": "Suspended", "status": "True"}]}});
        assert_eq!(cells(suspended), json!(["job4", "Suspended", "0/1", ""]));
        let deleting = json!({"metadata": {"name": "job5", "deletionTimestamp": "2020-01-01T00:00:00Z"},
            "status": {"conditions": [{"type": "Suspended", "status": "True"}]}});
        assert_eq!(cells(deleting)[1], json!("Terminating"));
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
