//! StatefulSets (Go's `pkg/registry/apps/statefulset`): `/scale` over `spec.replicas`,
//! and the table `kubectl get statefulsets` prints (Go's `printStatefulSet`).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::core::pod::template::PodTemplateStrategy;
use crate::registry::core::pod::workload_warnings::Workload;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, CONTAINERS, Column, IMAGES, NAME, Printer, Row, int, string_column, text,
};
use crate::registry::rest::RestStorage;

/// Go's `statefulSetColumnDefinitions` (no selector column, unlike the other workloads).
pub const COLUMNS: [Column; 5] = [
    NAME,
    string_column("Ready", "Number of the pod with ready state", 0),
    AGE,
    CONTAINERS,
    IMAGES,
];

/// The StatefulSets' table convertor.
pub static STATEFUL_SET_TABLE: Printer = Printer {
    api_version: "apps/v1",
    kind: "StatefulSet",
    columns: &COLUMNS,
    print: print_stateful_set,
};

/// Go's `printStatefulSet`: ready of desired replicas, the template's containers and
/// images.
pub fn print_stateful_set(obj: &Value) -> Row {
    let [names, images] = super::template_container_cells(obj);
    let desired = super::desired_replicas(obj);
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(format!("{}/{desired}", int(obj, "/status/readyReplicas"))),
        printers::age(obj),
        names,
        images,
    ])
}

/// The StatefulSets' REST storage over `info`: `/scale` and the table.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.scalable_with_table(
        info,
        PodTemplateStrategy::new(super::TEMPLATE_METADATA).warning_as(Workload::StatefulSet),
        Arc::new(STATEFUL_SET_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintStatefulSet`.
    #[test]
    fn stateful_sets_print_as_kubectl_shows_them() {
        let ss = json!({"metadata": {"name": "test1"},
            "spec": {"replicas": 5, "template": {"spec": {"containers": [
                {"name": "fake-container1", "image": "fake-image1"},
                {"name": "fake-container2", "image": "fake-image2"}]}}},
            "status": {"replicas": 5, "readyReplicas": 2}});
        let mut cells = print_stateful_set(&ss).cells;
        cells.remove(2);
        assert_eq!(
            Value::from(cells),
            json!([
                "test1",
                "2/5",
                "fake-container1,fake-container2",
                "fake-image1,fake-image2"
            ])
        );
    }
}
