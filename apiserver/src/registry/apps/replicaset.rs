//! ReplicaSets (Go's `pkg/registry/apps/replicaset`): selectable by `status.replicas`,
//! scaled through `/scale`, and the table `kubectl get replicasets` prints (Go's
//! `printReplicaSet`).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, CONTAINERS, Column, IMAGES, NAME, Printer, Row, int, integer_column, string_column,
    text,
};
use crate::registry::rest::RestStorage;
use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};

use crate::registry::core::pod::template::{
    drop_disabled_template_fields, prepare_template_for_update, workload_warnings_on_create,
    workload_warnings_on_update,
};
use crate::registry::core::pod::workload_warnings::Workload;
use crate::registry::strategy::{
    SelectableField, Strategy, Subresource, prepare_for_update, spec_changed,
};

/// Go's replica set strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplicaSetStrategy;

impl Strategy for ReplicaSetStrategy {
    /// Go's `PrepareForCreate`: the template without what `DropDisabledTemplateFields` drops.
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        drop_disabled_template_fields(scheme, info, None, obj, super::TEMPLATE_METADATA)
    }

    /// Go's `PrepareForUpdate`: the template's too.
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let new = prepare_template_for_update(
            scheme,
            info,
            old,
            new,
            subresource,
            super::TEMPLATE_METADATA,
        )?;
        prepare_for_update(scheme, info, old, new, subresource, spec_changed)
    }

    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("status.replicas", "/status/replicas")]
    }
    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        workload_warnings_on_create(Workload::ReplicaSet, obj)
    }

    fn warnings_on_update(&self, obj: &dyn Object, old: &dyn Object) -> Vec<String> {
        workload_warnings_on_update(Workload::ReplicaSet, obj, old)
    }
}

/// Go's `replicaSetColumnDefinitions`.
pub const COLUMNS: [Column; 8] = [
    NAME,
    integer_column(
        "Desired",
        "Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset",
        0,
    ),
    integer_column(
        "Current",
        "Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset",
        0,
    ),
    integer_column(
        "Ready",
        "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.",
        0,
    ),
    AGE,
    CONTAINERS,
    IMAGES,
    string_column(
        "Selector",
        "Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
        1,
    ),
];

/// The ReplicaSets' table convertor.
pub static REPLICA_SET_TABLE: Printer = Printer {
    api_version: "apps/v1",
    kind: "ReplicaSet",
    columns: &COLUMNS,
    print: print_replica_set,
};

/// Go's `printReplicaSet`: desired, current and ready replicas, the template's containers
/// and images, the selector.
pub fn print_replica_set(obj: &Value) -> Row {
    let [names, images] = super::template_container_cells(obj);
    let desired = super::desired_replicas(obj);
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(desired),
        Value::from(int(obj, "/status/replicas")),
        Value::from(int(obj, "/status/readyReplicas")),
        printers::age(obj),
        names,
        images,
        Value::from(printers::format_label_selector(
            obj.pointer("/spec/selector"),
        )),
    ])
}

/// The ReplicaSets' REST storage over `info`, with Go's `ScaleREST` and the table.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.scalable_with_table(info, ReplicaSetStrategy, Arc::new(REPLICA_SET_TABLE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintReplicaSet`: the counts and, wide, the containers and selector.
    #[test]
    fn replica_sets_print_as_kubectl_shows_them() {
        let rs = json!({"metadata": {"name": "test1"},
            "spec": {"replicas": 5, "selector": {"matchLabels": {"foo": "bar"}},
                "template": {"spec": {"containers": [
                    {"name": "fake-container1", "image": "fake-image1"},
                    {"name": "fake-container2", "image": "fake-image2"}]}}},
            "status": {"replicas": 5, "readyReplicas": 2}});
        let mut cells = print_replica_set(&rs).cells;
        cells.remove(4);
        assert_eq!(
            Value::from(cells),
            json!([
                "test1",
                5,
                5,
                2,
                "fake-container1,fake-container2",
                "fake-image1,fake-image2",
                "foo=bar"
            ])
        );
        let bare = json!({"metadata": {"name": "b"}, "spec": {"replicas": 0}});
        let cells = print_replica_set(&bare).cells;
        assert_eq!(cells[1], json!(0));
        assert_eq!(cells[7], json!("<none>"));
    }
}
