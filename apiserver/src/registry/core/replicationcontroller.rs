//! ReplicationControllers (Go's `pkg/registry/core/replicationcontroller`): selectable
//! by `status.replicas`, scaled through `/scale` (their selector a plain map), and the
//! table `kubectl get replicationcontrollers` prints (Go's `printReplicationController`).

use std::sync::Arc;

use crate::registry::GarbageCollectionPolicy;
use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::rest::RestStorage;
use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

use crate::registry::core::pod::template::{
    drop_disabled_template_fields, prepare_template_for_update, workload_warnings_on_create,
    workload_warnings_on_update,
};
use crate::registry::core::pod::workload_warnings::Workload;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, container_cells, format_labels, int, integer_column,
    items, string_column, text,
};
use crate::registry::strategy::{
    SelectableField, Strategy, Subresource, prepare_for_update, spec_changed,
};

/// Where a ReplicationController's pod template's metadata is (when it has a template).
const TEMPLATE_METADATA: &str = "/spec/template/metadata";

/// Go's replication controller strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplicationControllerStrategy;

impl Strategy for ReplicationControllerStrategy {
    /// Go's `PrepareForCreate`: the template without what `DropDisabledTemplateFields` drops.
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        drop_disabled_template_fields(scheme, info, None, obj, TEMPLATE_METADATA)
    }

    /// Go's `PrepareForUpdate`: the template without what `DropDisabledTemplateFields` drops too.
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let new =
            prepare_template_for_update(scheme, info, old, new, subresource, TEMPLATE_METADATA)?;
        prepare_for_update(scheme, info, old, new, subresource, spec_changed)
    }

    /// Go's: dependents are orphaned by default at core/v1, for compatibility.
    fn garbage_collection_policy(&self, version: &str) -> GarbageCollectionPolicy {
        if version == "v1" {
            GarbageCollectionPolicy::OrphanDependents
        } else {
            GarbageCollectionPolicy::DeleteDependents
        }
    }

    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("status.replicas", "/status/replicas")]
    }
    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        workload_warnings_on_create(Workload::ReplicationController, obj)
    }

    fn warnings_on_update(&self, obj: &dyn Object, old: &dyn Object) -> Vec<String> {
        workload_warnings_on_update(Workload::ReplicationController, obj, old)
    }
}

/// Go's `replicationControllerColumnDefinitions`.
pub const COLUMNS: [Column; 8] = [
    NAME,
    integer_column(
        "Desired",
        "Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller",
        0,
    ),
    integer_column(
        "Current",
        "Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller",
        0,
    ),
    integer_column(
        "Ready",
        "The number of ready replicas for this replication controller.",
        0,
    ),
    AGE,
    string_column("Containers", "Names of each container in the template.", 1),
    string_column(
        "Images",
        "Images referenced by each container in the template.",
        1,
    ),
    string_column(
        "Selector",
        "Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
        1,
    ),
];

/// The ReplicationControllers' table convertor.
pub static REPLICATION_CONTROLLER_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "ReplicationController",
    columns: &COLUMNS,
    print: print_replication_controller,
};

/// Go's `printReplicationController` (wide): name, the desired replicas (0 unset), the
/// current and the ready ones, age, the template's containers and images, the selector.
pub fn print_replication_controller(obj: &Value) -> Row {
    let [names, images] = container_cells(items(obj, "/spec/template/spec/containers"));
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(int(obj, "/spec/replicas")),
        Value::from(int(obj, "/status/replicas")),
        Value::from(int(obj, "/status/readyReplicas")),
        printers::age(obj),
        names,
        images,
        Value::from(format_labels(obj.pointer("/spec/selector"))),
    ])
}

/// The ReplicationControllers' REST storage over `info`, with Go's `ScaleREST` and the
/// table.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.scalable_with_table(
        info,
        ReplicationControllerStrategy,
        Arc::new(REPLICATION_CONTROLLER_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintReplicationController` cases, with the wide columns server-side
    /// tables always have.
    #[test]
    fn replication_controllers_print_replicas_containers_and_selector() {
        let template = json!({"metadata": {"labels": {"a": "b"}},
            "spec": {"containers": [{"name": "test", "image": "test_image"}]}});
        let basic = json!({"metadata": {"name": "rc1", "namespace": "test-namespace"},
            "spec": {"replicas": 0, "selector": {"a": "b"}, "template": template}});
        assert_eq!(
            Value::from(print_replication_controller(&basic).cells),
            json!(["rc1", 0, 0, 0, "<unknown>", "test", "test_image", "a=b"])
        );
        let scaled = json!({"metadata": {"name": "rc1"},
            "spec": {"replicas": 5, "selector": {"a": "b"}, "template": template},
            "status": {"replicas": 3, "readyReplicas": 1}});
        assert_eq!(
            Value::from(print_replication_controller(&scaled).cells),
            json!(["rc1", 5, 3, 1, "<unknown>", "test", "test_image", "a=b"])
        );
        // No template, no selector, replicas unset (Go's nil pointer: 0).
        let bare = json!({"metadata": {"name": "rc2"}, "spec": {}});
        assert_eq!(
            Value::from(print_replication_controller(&bare).cells),
            json!(["rc2", 0, 0, 0, "<unknown>", "", "", "<none>"])
        );
    }
}
