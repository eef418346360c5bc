//! Nodes (Go's `pkg/registry/core/node`): selectable by `spec.unschedulable`, and the
//! table `kubectl get nodes` prints (Go's `printNode`).

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::Value;

use super::{PROXY_VERBS, sub};
use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, items, string_column, text,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{SelectableField, Strategy};

/// Go's node strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct NodeStrategy;

impl Strategy for NodeStrategy {
    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("spec.unschedulable", "/spec/unschedulable")]
    }
}

const ADDRESSES: &str = "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).";

/// Go's `nodeColumnDefinitions`.
pub const COLUMNS: [Column; 10] = [
    NAME,
    string_column("Status", "The status of the node", 0),
    string_column("Roles", "The roles of the node", 0),
    AGE,
    string_column("Version", "Kubelet Version reported by the node.", 0),
    string_column("Internal-IP", ADDRESSES, 1),
    string_column("External-IP", ADDRESSES, 1),
    string_column(
        "OS-Image",
        "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).",
        1,
    ),
    string_column(
        "Kernel-Version",
        "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
        1,
    ),
    string_column(
        "Container-Runtime",
        "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).",
        1,
    ),
];

/// The Nodes' table convertor.
pub static NODE_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "Node",
    columns: &COLUMNS,
    print: print_node,
};

/// Go's `printNode`: `Ready`, `NotReady` or `Unknown` (and `SchedulingDisabled`), the
/// roles from `node-role.kubernetes.io/ROLE` and `kubernetes.io/role` labels, and the
/// wide columns.
pub fn print_node(obj: &Value) -> Row {
    let ready = items(obj, "/status/conditions")
        .iter()
        .rev()
        .find(|c| text(c, "/type") == "Ready");
    let mut status = match ready {
        Some(c) if text(c, "/status") == "True" => "Ready".to_owned(),
        Some(_) => "NotReady".to_owned(),
        None => "Unknown".to_owned(),
    };
    if obj.pointer("/spec/unschedulable").and_then(Value::as_bool) == Some(true) {
        status.push_str(",SchedulingDisabled");
    }
    let mut roles = BTreeSet::new();
    if let Some(labels) = obj.pointer("/metadata/labels").and_then(Value::as_object) {
        for (k, v) in labels {
            let v = v.as_str().unwrap_or("");
            match k.strip_prefix("node-role.kubernetes.io/") {
                Some(role) if !role.is_empty() => {
                    roles.insert(role.to_owned());
                }
                Some(_) => {}
                None if k == "kubernetes.io/role" && !v.is_empty() => {
                    roles.insert(v.to_owned());
                }
                None => {}
            }
        }
    }
    let roles = if roles.is_empty() {
        "<none>".to_owned()
    } else {
        roles.into_iter().collect::<Vec<_>>().join(",")
    };
    let address = |kind: &str| {
        items(obj, "/status/addresses")
            .iter()
            .find(|a| text(a, "/type") == kind)
            .map_or("<none>", |a| text(a, "/address"))
            .to_owned()
    };
    let info = |key: &str| match text(obj, &format!("/status/nodeInfo/{key}")) {
        "" => "<unknown>".to_owned(),
        v => v.to_owned(),
    };
    let mut kernel = info("kernelVersion");
    let arch = text(obj, "/status/nodeInfo/architecture");
    if !arch.is_empty() {
        kernel.push_str(&format!(" ({arch})"));
    }
    Row::from(vec![
        obj.pointer("/metadata/name")
            .cloned()
            .unwrap_or(Value::from("")),
        Value::from(status),
        Value::from(roles),
        printers::age(obj),
        Value::from(text(obj, "/status/nodeInfo/kubeletVersion")),
        Value::from(address("InternalIP")),
        Value::from(address("ExternalIP")),
        Value::from(info("osImage")),
        Value::from(kernel),
        Value::from(info("containerRuntimeVersion")),
    ])
}

/// The Nodes' REST storage over `info`, with the table.
pub(super) fn storage(mut info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    // `proxy` reaches the Node's kubelet: listed as kube-apiserver lists it, not served.
    info.subresources = vec![sub("proxy", "NodeProxyOptions", PROXY_VERBS)];
    deps.standard_with_table(info, NodeStrategy, Arc::new(NODE_TABLE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nodes_print_as_kubectl_shows_them() {
        let n = json!({"metadata": {"name": "n1", "labels": {"node-role.kubernetes.io/control-plane": "", "kubernetes.io/role": "db"}},
            "spec": {"unschedulable": true},
            "status": {"conditions": [{"type": "Ready", "status": "False"}],
                "addresses": [{"type": "InternalIP", "address": "10.0.0.1"}],
                "nodeInfo": {"kubeletVersion": "v1.36.3", "architecture": "amd64", "kernelVersion": "6.1"}}});
        let mut cells = print_node(&n).cells;
        cells.remove(3);
        assert_eq!(
            Value::from(cells),
            json!([
                "n1",
                "NotReady,SchedulingDisabled",
                "control-plane,db",
                "v1.36.3",
                "10.0.0.1",
                "<none>",
                "<unknown>",
                "6.1 (amd64)",
                "<unknown>"
            ])
        );
        let bare = print_node(&json!({"metadata": {"name": "n2"}})).cells;
        assert_eq!(
            (bare[1].clone(), bare[2].clone()),
            (json!("Unknown"), json!("<none>"))
        );
    }
}
