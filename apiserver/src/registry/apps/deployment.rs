//! Deployments (Go's `pkg/registry/apps/deployment`): `/scale` over `spec.replicas`, and
//! the table `kubectl get deployments` prints (Go's `printDeployment`).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::core::pod::template::PodTemplateStrategy;
use crate::registry::core::pod::workload_warnings::Workload;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, int, string_column};
use crate::registry::rest::RestStorage;

/// Go's `deploymentColumnDefinitions`.
pub const COLUMNS: [Column; 8] = [
    NAME,
    string_column("Ready", "Number of the pod with ready state", 0),
    string_column(
        "Up-to-date",
        "Total number of non-terminating pods targeted by this deployment that have the desired template spec.",
        0,
    ),
    string_column(
        "Available",
        "Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.",
        0,
    ),
    AGE,
    printers::CONTAINERS,
    printers::IMAGES,
    string_column(
        "Selector",
        "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.",
        1,
    ),
];

/// The Deployments' table convertor.
pub static DEPLOYMENT_TABLE: Printer = Printer {
    api_version: "apps/v1",
    kind: "Deployment",
    columns: &COLUMNS,
    print: print_deployment,
};

/// Go's `printDeployment`.
pub fn print_deployment(obj: &Value) -> Row {
    let [names, images] = super::template_container_cells(obj);
    let replicas = super::desired_replicas(obj);
    // Unlike the other workloads' (`FormatLabelSelector`), an empty selector is an empty
    // cell here, and an invalid one `<invalid>`.
    let selector = printers::label_selector_string(obj.pointer("/spec/selector"))
        .unwrap_or_else(|| "<invalid>".to_owned());
    Row::from(vec![
        obj.pointer("/metadata/name")
            .cloned()
            .unwrap_or(Value::from("")),
        Value::from(format!("{}/{replicas}", int(obj, "/status/readyReplicas"))),
        Value::from(int(obj, "/status/updatedReplicas")),
        Value::from(int(obj, "/status/availableReplicas")),
        printers::age(obj),
        names,
        images,
        Value::from(selector),
    ])
}

/// The Deployments' REST storage over `info`: `/scale` and the table.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.scalable_with_table(
        info,
        PodTemplateStrategy::new(super::TEMPLATE_METADATA).warning_as(Workload::Deployment),
        Arc::new(DEPLOYMENT_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn deployments_print_as_kubectl_shows_them() {
        let d = json!({"metadata": {"name": "web"},
            "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"},
                "matchExpressions": [{"key": "tier", "operator": "In", "values": ["b", "a"]}]},
                "template": {"spec": {"containers": [{"name": "c", "image": "nginx"}, {"name": "s", "image": "envoy"}]}}},
            "status": {"readyReplicas": 1, "updatedReplicas": 2}});
        let mut cells = print_deployment(&d).cells;
        cells.remove(4);
        assert_eq!(
            Value::from(cells),
            json!([
                "web",
                "1/2",
                2,
                0,
                "c,s",
                "nginx,envoy",
                "app=web,tier in (a,b)"
            ])
        );
    }
}
