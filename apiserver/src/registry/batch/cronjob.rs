//! CronJobs (Go's `pkg/registry/batch/cronjob/strategy.go`): the strategy, and the table
//! `kubectl get cronjobs` prints (Go's `printCronJob`).

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

use super::job::SELECTOR;
use super::job_spec::without_disabled_fields;
use crate::registry::ResourceInfo;
use crate::registry::core::pod::template::PodTemplateStrategy;
use crate::registry::core::pod::workload_warnings::Workload;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, CONTAINERS, Column, IMAGES, NAME, Printer, Row, integer_column, items,
    string_column, text,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{Strategy, Subresource};
use crate::registry::validation::NameValidation;

/// Where a CronJob's pod template's metadata is.
const TEMPLATE_METADATA: &str = "/spec/jobTemplate/spec/template/metadata";

/// Where a CronJob's JobSpec is.
const JOB_SPEC: &str = "/spec/jobTemplate/spec";

/// Go's CronJob strategy: the pod template's (init-container annotations dropped, a new
/// generation when the spec changes), and the job template without the fields of
/// disabled features ([`job_spec`](super::job_spec)) on create and on an update of the
/// object, unless the stored CronJob uses them.
#[derive(Clone, Copy, Debug)]
pub struct CronJobStrategy {
    /// What is not particular to CronJobs.
    pub template: PodTemplateStrategy,
}

impl Strategy for CronJobStrategy {
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let obj = without_disabled_fields(scheme, info, None, obj, JOB_SPEC)?;
        self.template.prepare_for_create(scheme, info, obj)
    }

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
            Subresource::Main => without_disabled_fields(scheme, info, Some(old), new, JOB_SPEC)?,
            Subresource::Status
            | Subresource::Finalize
            | Subresource::Resize
            | Subresource::EphemeralContainers
            | Subresource::Approval => new,
        };
        self.template
            .prepare_for_update(scheme, info, old, new, subresource)
    }

    fn names(&self) -> NameValidation {
        self.template.names()
    }

    fn returns_deleted_object(&self) -> bool {
        self.template.returns_deleted_object()
    }
    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        self.template.warnings_on_create(obj)
    }

    fn warnings_on_update(&self, obj: &dyn Object, old: &dyn Object) -> Vec<String> {
        self.template.warnings_on_update(obj, old)
    }
}

/// Go's `cronJobColumnDefinitions`.
pub const COLUMNS: [Column; 10] = [
    NAME,
    string_column(
        "Schedule",
        "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.",
        0,
    ),
    string_column(
        "Timezone",
        "The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones",
        0,
    ),
    Column {
        type_: "boolean",
        ..string_column(
            "Suspend",
            "This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.",
            0,
        )
    },
    integer_column("Active", "A list of pointers to currently running jobs.", 0),
    string_column(
        "Last Schedule",
        "Information when was the last time the job was successfully scheduled.",
        0,
    ),
    AGE,
    CONTAINERS,
    IMAGES,
    SELECTOR,
];

/// The CronJobs' table convertor.
pub static CRON_JOB_TABLE: Printer = Printer {
    api_version: "batch/v1",
    kind: "CronJob",
    columns: &COLUMNS,
    print: print_cron_job,
};

/// Go's `printCronJob`: the schedule, its time zone (`<none>`), whether it is suspended
/// (`True`, `False`, `<unset>`: a string in the boolean column, as Go's), the active
/// Jobs, how long ago it last scheduled one (`<none>`), and the job template's
/// containers, images and selector.
pub fn print_cron_job(obj: &Value) -> Row {
    let suspend = match obj.pointer("/spec/suspend").and_then(Value::as_bool) {
        Some(true) => "True",
        Some(false) => "False",
        None => "<unset>",
    };
    let last_schedule = match obj.pointer("/status/lastScheduleTime") {
        Some(t) if !t.is_null() => printers::since(Some(t)),
        _ => "<none>".to_owned(),
    };
    let [names, images] = printers::container_cells(items(
        obj,
        "/spec/jobTemplate/spec/template/spec/containers",
    ));
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(text(obj, "/spec/schedule")),
        Value::from(
            obj.pointer("/spec/timeZone")
                .and_then(Value::as_str)
                .unwrap_or("<none>"),
        ),
        Value::from(suspend),
        Value::from(items(obj, "/status/active").len()),
        Value::from(last_schedule),
        printers::age(obj),
        names,
        images,
        Value::from(printers::format_label_selector(
            obj.pointer("/spec/jobTemplate/spec/selector"),
        )),
    ])
}

/// The CronJobs' REST storage over `info`, with the table.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        CronJobStrategy {
            template: PodTemplateStrategy::new(TEMPLATE_METADATA).warning_as(Workload::CronJob),
        },
        Arc::new(CRON_JOB_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintCronJob`'s cases.
    #[test]
    fn cron_jobs_print_as_kubectl_shows_them() {
        let cron = json!({"metadata": {"name": "cronjob1"},
            "spec": {"schedule": "0/5 * * * ?", "suspend": false,
                "jobTemplate": {"spec": {"template": {"spec": {"containers": [
                    {"name": "c", "image": "i"}]}},
                    "selector": {"matchLabels": {"a": "b"}}}}},
            "status": {"active": [{"name": "j"}]}});
        let mut cells = print_cron_job(&cron).cells;
        cells.remove(6);
        assert_eq!(
            Value::from(cells),
            json!([
                "cronjob1",
                "0/5 * * * ?",
                "<none>",
                "False",
                1,
                "<none>",
                "c",
                "i",
                "a=b"
            ])
        );
        let zoned = json!({"metadata": {"name": "cronjob2"},
            "spec": {"schedule": "0/5 * * * ?", "timeZone": "UTC"},
            "status": {"lastScheduleTime": Value::from(apimachinery::apis::meta::v1::Time::now().to_rfc3339())}});
        let cells = print_cron_job(&zoned).cells;
        assert_eq!(cells[2], json!("UTC"));
        assert_eq!(cells[3], json!("<unset>"));
        assert_eq!(cells[4], json!(0));
        assert!(cells[5].as_str().is_some_and(|s| s.ends_with('s')));
        assert_eq!(cells[9], json!("<none>"));
    }
}
