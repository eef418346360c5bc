//! Simulated Nodes, as KWOK makes them for scale tests: `kapi-node-0`, `kapi-node-1`,
//! ... each `Ready`, with a capacity (32 CPUs, 256Gi of memory, 110 Pods: kubelet's
//! default `maxPods`), an internal IP from `172.18.0.0/16` on and a Pod CIDR, a `/24`
//! from `10.64.0.0/10`, that the simulated [kubelet](crate::kubelet) gives its Pods
//! their IPs from. They are marked with the annotation [`SIMULATED`]: the kubelet stand-in
//! runs the Pods bound to marked Nodes only, so real Nodes of a real cluster are left
//! alone. A new Node's `node.kubernetes.io/not-ready` taint (kube-apiserver's
//! `TaintNodesByCondition` admission puts it there) is lifted once the Node is Ready, as
//! Go's node lifecycle controller does.
//!
//! Left out: Node leases and heartbeats (the conditions keep their first time), the node
//! lifecycle controller's other work, and Node images and volumes.

mod clock;

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use apimachinery::apis::meta::v1::Time;
use controller_runtime::client::Client;
use k8s_types::core::v1::{Node, NodeAddress, NodeCondition};
use k8s_types::value::Quantity;

pub use clock::Clock;

/// The annotation that marks a Node as simulated (its value `"true"`).
pub const SIMULATED: &str = "kapi/simulated-node";

/// The most Nodes the Pod CIDRs have room for (`/24`s of `10.64.0.0/10`).
pub const MAX_NODES: usize = 1 << 14;

/// The name of the `index`th simulated Node.
pub fn node_name(index: usize) -> String {
    format!("kapi-node-{index}")
}

/// The internal IP of the `index`th simulated Node: `172.18.0.2` on.
pub fn node_ip(index: usize) -> Ipv4Addr {
    let base = u32::from(Ipv4Addr::new(172, 18, 0, 2));
    Ipv4Addr::from(base.wrapping_add(u32::try_from(index).unwrap_or(u32::MAX)))
}

/// The Pod CIDR's network address of the `index`th simulated Node: `10.64.<index>.0`
/// on, a `/24` each.
pub fn pod_network(index: usize) -> Ipv4Addr {
    let base = u32::from(Ipv4Addr::new(10, 64, 0, 0));
    let index = u32::try_from(index % MAX_NODES).unwrap_or(0);
    Ipv4Addr::from(base + (index << 8))
}

/// What each simulated Node offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeCapacity {
    /// CPUs (a quantity: `"32"`).
    pub cpu: String,
    /// Memory (`"256Gi"`).
    pub memory: String,
    /// Pods (kubelet's `maxPods`, 110 by default).
    pub pods: u32,
}

impl Default for NodeCapacity {
    fn default() -> Self {
        NodeCapacity {
            cpu: "32".into(),
            memory: "256Gi".into(),
            pods: 110,
        }
    }
}

fn quantity(text: &str) -> Quantity {
    Quantity::parse_quantity(text).unwrap_or_default()
}

/// The `index`th simulated Node as created: labels as kubelet sets them, capacity equal
/// to allocatable, `Ready` and the three pressure conditions `False`, addresses and
/// node info.
pub fn simulated_node(index: usize, capacity: &NodeCapacity, now: &Time) -> Node {
    let name = node_name(index);
    let mut node = Node::default();
    node.metadata.name = name.clone();
    node.metadata.labels = BTreeMap::from([
        ("kubernetes.io/arch".to_owned(), "amd64".to_owned()),
        ("kubernetes.io/hostname".to_owned(), name.clone()),
        ("kubernetes.io/os".to_owned(), "linux".to_owned()),
        (
            "node.kubernetes.io/instance-type".to_owned(),
            "kapi".to_owned(),
        ),
        ("type".to_owned(), "kapi".to_owned()),
    ]);
    node.metadata.annotations = BTreeMap::from([(SIMULATED.to_owned(), "true".to_owned())]);
    let cidr = format!("{}/24", pod_network(index));
    node.spec.pod_cidr = cidr.clone();
    node.spec.pod_cidrs = vec![cidr];
    let resources = BTreeMap::from([
        ("cpu".to_owned(), quantity(&capacity.cpu)),
        ("ephemeral-storage".to_owned(), quantity("100Gi")),
        ("memory".to_owned(), quantity(&capacity.memory)),
        ("pods".to_owned(), quantity(&capacity.pods.to_string())),
    ]);
    let status = &mut node.status;
    status.capacity = resources.clone();
    status.allocatable = resources;
    status.phase = "Running".into();
    let condition = |kind: &str, value: &str, reason: &str, message: &str| NodeCondition {
        r#type: kind.into(),
        status: value.into(),
        reason: reason.into(),
        message: message.into(),
        last_heartbeat_time: *now,
        last_transition_time: *now,
    };
    status.conditions = vec![
        condition(
            "MemoryPressure",
            "False",
            "KubeletHasSufficientMemory",
            "kubelet has sufficient memory available",
        ),
        condition(
            "DiskPressure",
            "False",
            "KubeletHasNoDiskPressure",
            "kubelet has no disk pressure",
        ),
        condition(
            "PIDPressure",
            "False",
            "KubeletHasSufficientPID",
            "kubelet has sufficient PID available",
        ),
        condition(
            "Ready",
            "True",
            "KubeletReady",
            "kubelet is posting ready status",
        ),
    ];
    let address = |kind: &str, value: String| NodeAddress {
        r#type: kind.into(),
        address: value,
    };
    status.addresses = vec![
        address("InternalIP", node_ip(index).to_string()),
        address("Hostname", name),
    ];
    let info = &mut status.node_info;
    info.architecture = "amd64".into();
    info.operating_system = "linux".into();
    info.os_image = "kapi simulated node".into();
    info.kubelet_version = format!("{}-kapi", k8s_types::KUBERNETES_VERSION);
    info.container_runtime_version = "kapi://simulated".into();
    node
}

/// Whether `node` is one of the simulated ones.
pub fn is_simulated(node: &Node) -> bool {
    node.metadata.annotations.get(SIMULATED).map(String::as_str) == Some("true")
}

/// Creates the simulated Nodes `0..count` that do not exist yet (their status through
/// the `status` subresource, as a kubelet posts it).
pub async fn ensure_nodes(
    client: &Client,
    count: usize,
    capacity: &NodeCapacity,
    clock: &Clock,
) -> controller_runtime::Result<()> {
    for index in 0..count.min(MAX_NODES) {
        let node = simulated_node(index, capacity, &clock.now());
        let mut created = match client.create(&node, &Default::default()).await {
            Ok(created) => created,
            Err(e) if e.is_already_exists() => continue,
            Err(e) => return Err(e.into()),
        };
        created.status = node.status;
        let mut ready = client
            .status()
            .update(&created, &Default::default())
            .await?;
        // kube-apiserver's TaintNodesByCondition admission taints a new Node
        // `node.kubernetes.io/not-ready:NoSchedule`; Go's node lifecycle controller lifts
        // it once the Node is Ready, which it is from here on.
        let before = ready.spec.taints.len();
        ready.spec.taints.retain(|t| t.key != NOT_READY_TAINT);
        if ready.spec.taints.len() != before {
            client.update(&ready, &Default::default()).await?;
        }
    }
    Ok(())
}

/// The taint a Node that is not ready carries.
const NOT_READY_TAINT: &str = "node.kubernetes.io/not-ready";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_get_distinct_addresses_and_pod_cidrs() {
        assert_eq!(node_name(3), "kapi-node-3");
        assert_eq!(node_ip(0).to_string(), "172.18.0.2");
        assert_eq!(node_ip(300).to_string(), "172.18.1.46");
        assert_eq!(pod_network(0).to_string(), "10.64.0.0");
        assert_eq!(pod_network(257).to_string(), "10.65.1.0");
        assert_eq!(pod_network(MAX_NODES - 1).to_string(), "10.127.255.0");
    }

    #[test]
    fn a_simulated_node_is_ready_with_its_capacity() {
        let node = simulated_node(1, &NodeCapacity::default(), &Time::from_unix(1, 0));
        assert!(is_simulated(&node));
        assert_eq!(node.spec.pod_cidr, "10.64.1.0/24");
        assert_eq!(node.status.allocatable["pods"].value(), 110);
        assert_eq!(node.status.allocatable["cpu"].milli_value(), 32_000);
        let ready = node.status.conditions.iter().find(|c| c.r#type == "Ready");
        assert_eq!(ready.map(|c| c.status.as_str()), Some("True"));
        let json = serde_json::to_value(&node).unwrap();
        assert_eq!(json["status"]["addresses"][0]["address"], "172.18.0.3");
    }
}
