//! DaemonSets (Go's `pkg/registry/apps/daemonset`): the table `kubectl get daemonsets`
//! prints (Go's `printDaemonSet`).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::core::pod::template::PodTemplateStrategy;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, CONTAINERS, Column, IMAGES, NAME, Printer, Row, int, integer_column, string_column,
    text,
};
use crate::registry::rest::RestStorage;

/// Go's `daemonSetColumnDefinitions`.
pub const COLUMNS: [Column; 11] = [
    NAME,
    integer_column(
        "Desired",
        "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/",
        0,
    ),
    integer_column(
        "Current",
        "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/",
        0,
    ),
    integer_column(
        "Ready",
        "numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.",
        0,
    ),
    integer_column(
        "Up-to-date",
        "The total number of nodes that are running updated daemon pod",
        0,
    ),
    integer_column(
        "Available",
        "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)",
        0,
    ),
    string_column(
        "Node Selector",
        "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
        0,
    ),
    AGE,
    CONTAINERS,
    IMAGES,
    string_column(
        "Selector",
        "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
        1,
    ),
];

/// The DaemonSets' table convertor.
pub static DAEMON_SET_TABLE: Printer = Printer {
    api_version: "apps/v1",
    kind: "DaemonSet",
    columns: &COLUMNS,
    print: print_daemon_set,
};

/// Go's `printDaemonSet`: the scheduling counts, the template's node selector, its
/// containers and images, the selector.
pub fn print_daemon_set(obj: &Value) -> Row {
    let [names, images] = super::template_container_cells(obj);
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(int(obj, "/status/desiredNumberScheduled")),
        Value::from(int(obj, "/status/currentNumberScheduled")),
        Value::from(int(obj, "/status/numberReady")),
        Value::from(int(obj, "/status/updatedNumberScheduled")),
        Value::from(int(obj, "/status/numberAvailable")),
        Value::from(printers::format_labels(
            obj.pointer("/spec/template/spec/nodeSelector"),
        )),
        printers::age(obj),
        names,
        images,
        Value::from(printers::format_label_selector(
            obj.pointer("/spec/selector"),
        )),
    ])
}

/// The DaemonSets' REST storage over `info`, with the table.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        PodTemplateStrategy::new(super::TEMPLATE_METADATA),
        Arc::new(DAEMON_SET_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintDaemonSet`, wide.
    #[test]
    fn daemon_sets_print_as_kubectl_shows_them() {
        let ds = json!({"metadata": {"name": "test1"},
            "spec": {"selector": {"matchLabels": {"foo": "bar"}},
                "template": {"spec": {"nodeSelector": {"disk": "ssd", "arch": "amd64"},
                    "containers": [{"name": "fake-container1", "image": "fake-image1"},
                        {"name": "fake-container2", "image": "fake-image2"}]}}},
            "status": {"currentNumberScheduled": 2, "desiredNumberScheduled": 3,
                "numberReady": 1, "updatedNumberScheduled": 2, "numberAvailable": 0}});
        let mut cells = print_daemon_set(&ds).cells;
        cells.remove(7);
        assert_eq!(
            Value::from(cells),
            json!([
                "test1",
                3,
                2,
                1,
                2,
                0,
                "arch=amd64,disk=ssd",
                "fake-container1,fake-container2",
                "fake-image1,fake-image2",
                "foo=bar"
            ])
        );
        assert_eq!(print_daemon_set(&json!({})).cells[6], json!("<none>"));
    }
}
