//! Whether a Pod fits a Node, and the scheduler's message when it fits none: the filters
//! of kube-scheduler's default profile that apply to simulated Nodes, in its order
//! (`NodeUnschedulable`, `TaintToleration`, `NodeAffinity`, `NodeResourcesFit`), each
//! Node failing at its first filter with that filter's reasons, as Go's framework runs
//! them; and the `LeastAllocated` score that spreads Pods over Nodes.

use std::collections::BTreeMap;

use k8s_types::core::v1::{Container, Node, NodeSelectorRequirement, Pod, Taint};
use k8s_types::value::Quantity;

/// `NodeUnschedulable`'s reason.
pub const REASON_UNSCHEDULABLE: &str = "node(s) were unschedulable";
/// `TaintToleration`'s reason.
pub const REASON_TAINTS: &str = "node(s) had untolerated taint(s)";
/// `NodeAffinity`'s reason (`nodeSelector` and required node affinity).
pub const REASON_AFFINITY: &str = "node(s) didn't match Pod's node affinity/selector";
/// `NodeResourcesFit`'s reason when the Node has no room for another Pod.
pub const REASON_TOO_MANY_PODS: &str = "Too many pods";

/// Requests in the units Go's scheduler counts them: millicores of CPU, bytes of memory
/// and ephemeral storage, and the count of any other (extended) resource.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// CPU, in millicores.
    pub milli_cpu: i64,
    /// Memory, in bytes.
    pub memory: i64,
    /// Ephemeral storage, in bytes.
    pub ephemeral_storage: i64,
    /// Everything else by name (`nvidia.com/gpu`, `hugepages-2Mi`, ...).
    pub scalar: BTreeMap<String, i64>,
}

impl Resources {
    /// The resources of a `requests`/`allocatable` map (`pods` is left out).
    pub fn from_map(map: &BTreeMap<String, Quantity>) -> Self {
        let mut r = Resources::default();
        for (name, q) in map {
            match name.as_str() {
                "cpu" => r.milli_cpu = q.milli_value(),
                "memory" => r.memory = q.value(),
                "ephemeral-storage" => r.ephemeral_storage = q.value(),
                "pods" => {}
                other => {
                    r.scalar.insert(other.to_owned(), q.value());
                }
            }
        }
        r
    }

    fn zip(&mut self, other: &Resources, f: impl Fn(i64, i64) -> i64) {
        self.milli_cpu = f(self.milli_cpu, other.milli_cpu);
        self.memory = f(self.memory, other.memory);
        self.ephemeral_storage = f(self.ephemeral_storage, other.ephemeral_storage);
        for (name, v) in &other.scalar {
            let mine = self.scalar.entry(name.clone()).or_default();
            *mine = f(*mine, *v);
        }
    }

    /// Adds `other`.
    pub fn add(&mut self, other: &Resources) {
        self.zip(other, i64::saturating_add);
    }

    /// Takes `other` away.
    pub fn sub(&mut self, other: &Resources) {
        self.zip(other, i64::saturating_sub);
    }

    fn max(&mut self, other: &Resources) {
        self.zip(other, i64::max);
    }

    fn is_zero(&self) -> bool {
        self.milli_cpu == 0
            && self.memory == 0
            && self.ephemeral_storage == 0
            && self.scalar.values().all(|v| *v == 0)
    }
}

fn requests(c: &Container) -> Resources {
    Resources::from_map(&c.resources.requests)
}

/// A Pod's requests as Go's `resource.PodRequests` sums them: the pod-level
/// `spec.resources` when set; else the containers' sum (restartable init containers,
/// sidecars, included) or, if larger, what the init containers need while each runs
/// (beside the sidecars started before it); plus the Pod's overhead.
pub fn pod_requests(pod: &Pod) -> Resources {
    let spec = &pod.spec;
    let mut total = match spec.resources.as_ref().filter(|r| !r.requests.is_empty()) {
        Some(r) => Resources::from_map(&r.requests),
        None => {
            let mut sum = Resources::default();
            for c in spec.containers.iter().flatten() {
                sum.add(&requests(c));
            }
            let mut sidecars = Resources::default();
            let mut init_peak = Resources::default();
            for c in &spec.init_containers {
                let r = requests(c);
                if c.restart_policy.as_deref() == Some("Always") {
                    sidecars.add(&r);
                    init_peak.max(&sidecars);
                } else {
                    let mut running = sidecars.clone();
                    running.add(&r);
                    init_peak.max(&running);
                }
            }
            sum.add(&sidecars);
            sum.max(&init_peak);
            sum
        }
    };
    total.add(&Resources::from_map(&spec.overhead));
    total
}

/// What the scheduler knows of one Node: what it offers and what the Pods on it (bound
/// or being bound) request.
#[derive(Clone, Debug, Default)]
pub struct NodeState {
    /// `status.allocatable`.
    pub allocatable: Resources,
    /// `status.allocatable.pods`.
    pub allowed_pods: i64,
    /// The sum of its Pods' requests.
    pub requested: Resources,
    /// Its Pods.
    pub pods: i64,
}

impl NodeState {
    /// A Node with nothing on it yet.
    pub fn new(node: &Node) -> Self {
        let allocatable = &node.status.allocatable;
        NodeState {
            allocatable: Resources::from_map(allocatable),
            allowed_pods: allocatable.get("pods").map_or(0, Quantity::value),
            requested: Resources::default(),
            pods: 0,
        }
    }
}

/// Go's `FitError` message: `0/3 nodes are available: 1 Too many pods, 2 Insufficient
/// cpu.` — each reason with the count of Nodes that gave it, sorted as strings.
pub fn fit_error_message(all_nodes: usize, reasons: &BTreeMap<String, usize>) -> String {
    if all_nodes == 0 {
        return "no nodes available to schedule pods".into();
    }
    let mut counted: Vec<String> = reasons.iter().map(|(r, n)| format!("{n} {r}")).collect();
    counted.sort();
    let mut message = format!("0/{all_nodes} nodes are available:");
    if !counted.is_empty() {
        message.push_str(&format!(" {}.", counted.join(", ")));
    }
    message
}

/// The reasons `node` cannot take `pod` (empty when it can), from the first filter that
/// fails, as Go's framework stops at it. `requests` is [`pod_requests`] of `pod`.
pub fn filter(pod: &Pod, requests: &Resources, node: &Node, state: &NodeState) -> Vec<String> {
    if node.spec.unschedulable && !tolerates_unschedulable(pod) {
        return vec![REASON_UNSCHEDULABLE.into()];
    }
    let untolerated = node
        .spec
        .taints
        .iter()
        .filter(|t| matches!(t.effect.as_str(), "NoSchedule" | "NoExecute"))
        .any(|t| !tolerated(pod, t));
    if untolerated {
        return vec![REASON_TAINTS.into()];
    }
    if !matches_node_affinity(pod, node) {
        return vec![REASON_AFFINITY.into()];
    }
    fits_resources(requests, state)
}

/// `NodeResourcesFit`'s reasons: `Too many pods`, then `Insufficient <resource>` for
/// each requested resource the Node has too little of.
pub fn fits_resources(requests: &Resources, state: &NodeState) -> Vec<String> {
    let mut reasons = Vec::new();
    if state.pods + 1 > state.allowed_pods {
        reasons.push(REASON_TOO_MANY_PODS.to_owned());
    }
    if requests.is_zero() {
        return reasons;
    }
    let (free, used) = (&state.allocatable, &state.requested);
    let short = |want: i64, have: i64, used: i64| want > 0 && want > have - used;
    if short(requests.milli_cpu, free.milli_cpu, used.milli_cpu) {
        reasons.push("Insufficient cpu".into());
    }
    if short(requests.memory, free.memory, used.memory) {
        reasons.push("Insufficient memory".into());
    }
    if short(
        requests.ephemeral_storage,
        free.ephemeral_storage,
        used.ephemeral_storage,
    ) {
        reasons.push("Insufficient ephemeral-storage".into());
    }
    for (name, want) in &requests.scalar {
        let have = free.scalar.get(name).copied().unwrap_or(0);
        let taken = used.scalar.get(name).copied().unwrap_or(0);
        if short(*want, have, taken) {
            reasons.push(format!("Insufficient {name}"));
        }
    }
    reasons
}

/// Go's `LeastAllocated` score (0 to 100) of `node` with `requests` added, CPU and
/// memory weighted alike, counting a request of none as Go's non-zero defaults (100m
/// CPU, 200Mi of memory) so that empty Pods spread too.
pub fn least_allocated_score(requests: &Resources, state: &NodeState) -> i64 {
    let cpu = if requests.milli_cpu == 0 {
        100
    } else {
        requests.milli_cpu
    };
    let memory = if requests.memory == 0 {
        200 << 20
    } else {
        requests.memory
    };
    let score = |want: i64, used: i64, capacity: i64| {
        if capacity <= 0 {
            return 0;
        }
        let used = used.saturating_add(want);
        if used > capacity {
            0
        } else {
            (capacity - used).saturating_mul(100) / capacity
        }
    };
    let cpu_score = score(cpu, state.requested.milli_cpu, state.allocatable.milli_cpu);
    let memory_score = score(memory, state.requested.memory, state.allocatable.memory);
    (cpu_score + memory_score) / 2
}

fn tolerates_unschedulable(pod: &Pod) -> bool {
    let taint = Taint {
        key: "node.kubernetes.io/unschedulable".into(),
        effect: "NoSchedule".into(),
        ..Taint::default()
    };
    tolerated(pod, &taint)
}

/// Go's `Toleration.ToleratesTaint`.
fn tolerated(pod: &Pod, taint: &Taint) -> bool {
    pod.spec.tolerations.iter().any(|t| {
        if !t.effect.is_empty() && t.effect != taint.effect {
            return false;
        }
        if !t.key.is_empty() && t.key != taint.key {
            return false;
        }
        match t.operator.as_str() {
            "Exists" => true,
            "" | "Equal" => t.value == taint.value,
            _ => false,
        }
    })
}

/// `nodeSelector` and the required node affinity (any of its terms; a term with no
/// requirement matches nothing, as Go's).
fn matches_node_affinity(pod: &Pod, node: &Node) -> bool {
    let labels = &node.metadata.labels;
    if !pod
        .spec
        .node_selector
        .iter()
        .all(|(k, v)| labels.get(k) == Some(v))
    {
        return false;
    }
    let required = pod
        .spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|a| {
            a.required_during_scheduling_ignored_during_execution
                .as_ref()
        });
    let Some(terms) = required.and_then(|r| r.node_selector_terms.as_ref()) else {
        return true;
    };
    let fields = BTreeMap::from([("metadata.name".to_owned(), node.metadata.name.clone())]);
    terms.iter().any(|term| {
        (!term.match_expressions.is_empty() || !term.match_fields.is_empty())
            && term
                .match_expressions
                .iter()
                .all(|r| requirement(r, labels))
            && term.match_fields.iter().all(|r| requirement(r, &fields))
    })
}

fn requirement(r: &NodeSelectorRequirement, labels: &BTreeMap<String, String>) -> bool {
    let value = labels.get(&r.key);
    let number = |text: &str| text.parse::<i64>().ok();
    match r.operator.as_str() {
        "In" => value.is_some_and(|v| r.values.contains(v)),
        "NotIn" => value.is_none_or(|v| !r.values.contains(v)),
        "Exists" => value.is_some(),
        "DoesNotExist" => value.is_none(),
        "Gt" | "Lt" => {
            let (Some(have), Some(bound)) = (
                value.and_then(|v| number(v)),
                r.values.first().and_then(|v| number(v)),
            ) else {
                return false;
            };
            if r.operator == "Gt" {
                have > bound
            } else {
                have < bound
            }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::{NodeCapacity, simulated_node};
    use apimachinery::apis::meta::v1::Time;

    fn pod(cpu: &str, memory: &str) -> Pod {
        let mut c = Container {
            name: "c".into(),
            ..Container::default()
        };
        for (k, v) in [("cpu", cpu), ("memory", memory)] {
            if !v.is_empty() {
                c.resources
                    .requests
                    .insert(k.into(), Quantity::parse_quantity(v).unwrap());
            }
        }
        let mut p = Pod::default();
        p.spec.containers = Some(vec![c]);
        p
    }

    fn node(i: usize) -> Node {
        simulated_node(i, &NodeCapacity::default(), &Time::from_unix(0, 0))
    }

    #[test]
    fn requests_take_the_larger_of_containers_and_init_containers() {
        let mut p = pod("500m", "1Gi");
        let mut init = Container::default();
        init.resources
            .requests
            .insert("cpu".into(), Quantity::parse_quantity("2").unwrap());
        p.spec.init_containers = vec![init];
        p.spec
            .overhead
            .insert("cpu".into(), Quantity::parse_quantity("100m").unwrap());
        let r = pod_requests(&p);
        assert_eq!((r.milli_cpu, r.memory), (2100, 1 << 30));
    }

    #[test]
    fn the_message_counts_reasons_as_go_does() {
        let n = node(0);
        let mut state = NodeState::new(&n);
        let big = pod("33", "");
        let reasons = filter(&big, &pod_requests(&big), &n, &state);
        assert_eq!(reasons, ["Insufficient cpu"]);
        let counts = BTreeMap::from([("Insufficient cpu".to_owned(), 3)]);
        assert_eq!(
            fit_error_message(3, &counts),
            "0/3 nodes are available: 3 Insufficient cpu."
        );
        let counts = BTreeMap::from([
            (REASON_AFFINITY.to_owned(), 2),
            ("Insufficient memory".to_owned(), 1),
            ("Insufficient cpu".to_owned(), 1),
        ]);
        assert_eq!(
            fit_error_message(3, &counts),
            "0/3 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 2 node(s) didn't match Pod's node affinity/selector."
        );
        assert_eq!(
            fit_error_message(0, &BTreeMap::new()),
            "no nodes available to schedule pods"
        );
        state.pods = 110;
        assert_eq!(
            fits_resources(&pod_requests(&pod("1", "")), &state),
            ["Too many pods"]
        );
    }

    #[test]
    fn selectors_taints_and_unschedulable_nodes_filter_first() {
        let mut n = node(0);
        let state = NodeState::new(&n);
        let mut p = pod("", "");
        p.spec.node_selector.insert("disk".into(), "ssd".into());
        assert_eq!(filter(&p, &pod_requests(&p), &n, &state), [REASON_AFFINITY]);
        n.metadata.labels.insert("disk".into(), "ssd".into());
        assert!(filter(&p, &pod_requests(&p), &n, &state).is_empty());
        n.spec.taints = vec![Taint {
            key: "dedicated".into(),
            value: "db".into(),
            effect: "NoSchedule".into(),
            ..Taint::default()
        }];
        assert_eq!(filter(&p, &pod_requests(&p), &n, &state), [REASON_TAINTS]);
        p.spec.tolerations = vec![k8s_types::core::v1::Toleration {
            key: "dedicated".into(),
            operator: "Exists".into(),
            ..k8s_types::core::v1::Toleration::default()
        }];
        assert!(filter(&p, &pod_requests(&p), &n, &state).is_empty());
        n.spec.unschedulable = true;
        assert_eq!(
            filter(&p, &pod_requests(&p), &n, &state),
            [REASON_UNSCHEDULABLE]
        );
    }

    #[test]
    fn emptier_nodes_score_higher() {
        let n = node(0);
        let empty = NodeState::new(&n);
        let mut busy = NodeState::new(&n);
        busy.requested.milli_cpu = 16_000;
        let r = pod_requests(&pod("1", "1Gi"));
        assert!(least_allocated_score(&r, &empty) > least_allocated_score(&r, &busy));
    }
}
