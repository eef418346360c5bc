//! Nodes (Go's `pkg/registry/core/node`): selectable by `spec.unschedulable`, created
//! and updated without the fields Go's `dropDisabledFields` drops, and the table
//! `kubectl get nodes` prints (Go's `printNode`).

use std::collections::BTreeSet;
use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use apimachinery::util::validation::field::Path;
use apimachinery::util::validation::ip::get_warnings_for_cidr;
use serde_json::Value;

use super::{PROXY_VERBS, sub};
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, items, string_column, text,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{
    SelectableField, Strategy, Subresource, generation_rule, prepare_for_update_adjusted,
};
use crate::registry::{ResourceInfo, from_value, to_json};

/// Go's node strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct NodeStrategy;

/// The fields of a Node a write may set only where the stored Node has them, as
/// `(top-level part, field)`: the dynamic kubelet configuration, whose feature is gone
/// (`spec.configSource`, and `status.config` on a write of `/status`), and on 1.37
/// `spec.podPreemptionPolicy` (its gate, InPlacePodVerticalScalingSchedulerPreemption,
/// alpha and off). Go's other drops are of fields whose gates are on (the runtime
/// handlers, features and declared features of the status; 1.37's
/// `status.nodeInfo.runningInUserNamespace`, KubeletInUserNamespace beta and on).
const KEPT_ONLY_IN_USE: &[(&str, &str)] = &[
    ("spec", "configSource"),
    #[cfg(feature = "v1_37")]
    ("spec", "podPreemptionPolicy"),
];

/// Removes `field` of `part` of `node` unless `old` (the stored Node, none on create)
/// has it; whether it removed anything.
fn drop_unless_in_use(node: &mut Value, old: Option<&Value>, part: &str, field: &str) -> bool {
    if old
        .and_then(|o| o.get(part))
        .and_then(|p| p.get(field))
        .is_some_and(|v| !v.is_null())
    {
        return false;
    }
    node.get_mut(part)
        .and_then(Value::as_object_mut)
        .and_then(|p| p.remove(field))
        .is_some()
}

impl Strategy for NodeStrategy {
    /// Go's Node strategy sets no `metadata.generation`.
    fn tracks_generation(&self) -> bool {
        false
    }

    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        to_json(obj).map(|n| node_warnings(&n)).unwrap_or_default()
    }

    fn warnings_on_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        self.warnings_on_create(obj)
    }

    /// Go's `PrepareForCreate`: a Node may be created with its status, all but
    /// `status.config`, and without the [`KEPT_ONLY_IN_USE`] fields.
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let mut node = to_json(&*obj)?;
        let mut dropped = drop_unless_in_use(&mut node, None, "status", "config");
        for (part, field) in KEPT_ONLY_IN_USE {
            dropped |= drop_unless_in_use(&mut node, None, part, field);
        }
        if dropped {
            return from_value(scheme, &info.storage_gvk, node);
        }
        Ok(obj)
    }

    /// Go's `PrepareForUpdate` of the Node and of its `/status`: the status (or the
    /// spec) as stored, and the [`KEPT_ONLY_IN_USE`] fields (`status.config` on
    /// `/status`) only where the stored Node has them.
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        prepare_for_update_adjusted(
            scheme,
            info,
            old,
            new,
            subresource,
            generation_rule(false),
            |old, new, subresource| match subresource {
                Subresource::Status => {
                    drop_unless_in_use(new, Some(old), "status", "config");
                }
                Subresource::Main
                | Subresource::Finalize
                | Subresource::Resize
                | Subresource::EphemeralContainers
                | Subresource::Approval => {
                    for (part, field) in KEPT_ONLY_IN_USE {
                        drop_unless_in_use(new, Some(old), part, field);
                    }
                }
            },
        )
    }

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

/// Go's `nodeWarnings`: the removed dynamic configuration, the unused external ID, and
/// pod CIDRs that are ambiguous or in a non-standard form.
fn node_warnings(node: &Value) -> Vec<String> {
    let mut warnings = Vec::new();
    if node
        .pointer("/spec/configSource")
        .is_some_and(|c| !c.is_null())
    {
        warnings.push("spec.configSource: the feature is removed".to_owned());
    }
    if !text(node, "/spec/externalID").is_empty() {
        warnings.push(
            "spec.externalID: this field is deprecated, and is unused by Kubernetes".to_owned(),
        );
    }
    let spec = Path::new("spec");
    let cidrs = spec.child("podCIDRs");
    for (i, cidr) in items(node, "/spec/podCIDRs").iter().enumerate() {
        let cidr = cidr.as_str().unwrap_or_default();
        warnings.extend(get_warnings_for_cidr(&cidrs.index(i), cidr));
    }
    warnings
}

/// The Nodes' REST storage over `info`, with the table.
pub(super) fn storage(mut info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    // `proxy` reaches the Node's kubelet: listed as kube-apiserver lists it, not served.
    info.subresources = vec![sub("proxy", "NodeProxyOptions", PROXY_VERBS)];
    deps.standard_with_table(info, NodeStrategy, Arc::new(NODE_TABLE))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::registry::core::pod::template::tests::{info, scheme};
    use serde_json::json;

    /// Whether 1.37's `spec.podPreemptionPolicy` is dropped (its gate is off).
    const PREEMPTION: bool = cfg!(feature = "v1_37");

    fn node_with_everything() -> Value {
        let mut node = json!({"metadata": {"name": "n1"},
            "spec": {"unschedulable": true, "configSource": {"configMap": {"namespace": "kube-system", "name": "kubelet", "kubeletConfigKey": "kubelet"}}},
            "status": {"capacity": {"cpu": "4"}, "config": {"error": "none"}}});
        if PREEMPTION {
            node["spec"]["podPreemptionPolicy"] =
                json!({"disableResizePreemption": ["example.com/a"]});
        }
        node
    }

    #[test]
    fn a_node_is_created_without_what_go_drops() {
        let s = scheme();
        let nodes = info(&s, "", "nodes");
        let obj = from_value(&s, &nodes.storage_gvk, node_with_everything()).unwrap();
        let created = to_json(&*NodeStrategy.prepare_for_create(&s, &nodes, obj).unwrap()).unwrap();
        assert_eq!(created["spec"], json!({"unschedulable": true}));
        assert_eq!(created["status"].get("config"), None);
        assert_eq!(created["status"]["capacity"], json!({"cpu": "4"}));
    }

    #[test]
    fn an_update_keeps_only_what_the_stored_node_has() {
        let s = scheme();
        let nodes = info(&s, "", "nodes");
        let bare = json!({"metadata": {"name": "n1"}, "spec": {"unschedulable": true}});
        let update = |old: &Value, new: &Value, subresource| {
            let old = from_value(&s, &nodes.storage_gvk, old.clone()).unwrap();
            let new = from_value(&s, &nodes.storage_gvk, new.clone()).unwrap();
            to_json(
                &*NodeStrategy
                    .prepare_for_update(&s, &nodes, &*old, new, subresource)
                    .unwrap(),
            )
            .unwrap()
        };
        // Set by a write: dropped.
        let got = update(&bare, &node_with_everything(), Subresource::Main);
        assert_eq!(got["spec"], json!({"unschedulable": true}));
        let got = update(&bare, &node_with_everything(), Subresource::Status);
        assert_eq!(got["status"].get("config"), None);
        assert_eq!(got["status"]["capacity"], json!({"cpu": "4"}));
        // Stored already: a write may keep or change them.
        let stored = node_with_everything();
        let got = update(&stored, &stored, Subresource::Main);
        assert_eq!(got["spec"], stored["spec"]);
        let got = update(&stored, &stored, Subresource::Status);
        assert_eq!(got["status"]["config"], stored["status"]["config"]);
    }

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

    /// Go's `nodeWarnings` cases.
    #[test]
    fn removed_and_unused_fields_and_ambiguous_pod_cidrs_are_warned_about() {
        let node = json!({"spec": {"configSource": {"configMap": {}}, "externalID": "x",
            "podCIDRs": ["10.0.0.0/24", "10.0.1.1/24"]}});
        assert_eq!(
            node_warnings(&node),
            [
                "spec.configSource: the feature is removed",
                "spec.externalID: this field is deprecated, and is unused by Kubernetes",
                "spec.podCIDRs[1]: CIDR value \"10.0.1.1/24\" is ambiguous in this context (should be \"10.0.1.0/24\" or \"10.0.1.1/32\"?)",
            ]
        );
        assert!(node_warnings(&json!({"spec": {}})).is_empty());
    }
}
