//! A Pod's quality-of-service class (Go's `pkg/apis/core/helper/qos.ComputePodQOS`),
//! which the Pod strategy records in `status.qosClass` when the Pod is created.
//!
//! Only `cpu` and `memory` count, and only positive quantities. With pod-level
//! `spec.resources` (the `PodLevelResources` gate, on by default since 1.34) those decide;
//! otherwise the containers' and init containers' (ephemeral containers have none).
//! No requests or limits at all is `BestEffort`; limits on cpu and memory for every
//! container (or the pod), with the requests equal to them, is `Guaranteed`; anything
//! else `Burstable`.

use std::collections::{BTreeMap, BTreeSet};

use apimachinery::api::resource::{Quantity, parse_quantity};
use serde_json::Value;

const QOS_RESOURCES: [&str; 2] = ["cpu", "memory"];

/// Adds the positive `cpu` and `memory` quantities of `list` (a ResourceList's JSON) to
/// `into`, and returns the names found. A quantity that does not parse counts as none:
/// validation refuses the object afterwards.
fn add_resources(list: Option<&Value>, into: &mut BTreeMap<String, Quantity>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let Some(list) = list.and_then(Value::as_object) else {
        return found;
    };
    for (name, quantity) in list {
        if !QOS_RESOURCES.contains(&name.as_str()) {
            continue;
        }
        let Some(q) = quantity.as_str().and_then(|s| parse_quantity(s).ok()) else {
            continue;
        };
        if q.sign() <= 0 {
            continue;
        }
        found.insert(name.clone());
        match into.get_mut(name) {
            Some(sum) => {
                // An overflow leaves the sum as it was, as Go's saturating Add would
                // leave it unequal to anything smaller.
                let _ = sum.add(&q);
            }
            None => {
                into.insert(name.clone(), q);
            }
        }
    }
    found
}

/// `BestEffort`, `Burstable` or `Guaranteed` for `pod` (its JSON).
pub fn compute_pod_qos(pod: &Value) -> &'static str {
    let mut requests = BTreeMap::new();
    let mut limits = BTreeMap::new();
    let mut guaranteed = true;
    let has_all = |found: &BTreeSet<String>| QOS_RESOURCES.iter().all(|r| found.contains(*r));
    let spec = pod.get("spec");
    if let Some(resources) = spec
        .and_then(|s| s.get("resources"))
        .filter(|r| r.is_object())
    {
        add_resources(resources.get("requests"), &mut requests);
        let limited = resources.get("limits").and_then(Value::as_object);
        if limited.is_some_and(|l| !l.is_empty()) {
            let found = add_resources(resources.get("limits"), &mut limits);
            if !has_all(&found) {
                guaranteed = false;
            }
        }
    } else {
        let containers = ["containers", "initContainers"]
            .into_iter()
            .filter_map(|k| spec.and_then(|s| s.get(k)).and_then(Value::as_array))
            .flatten();
        for container in containers {
            let resources = container.get("resources");
            add_resources(resources.and_then(|r| r.get("requests")), &mut requests);
            let found = add_resources(resources.and_then(|r| r.get("limits")), &mut limits);
            if !has_all(&found) {
                guaranteed = false;
            }
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort";
    }
    if guaranteed
        && requests
            .iter()
            .all(|(name, request)| limits.get(name) == Some(request))
        && requests.len() == limits.len()
    {
        return "Guaranteed";
    }
    "Burstable"
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(containers: Value) -> Value {
        json!({"spec": {"containers": containers}})
    }

    #[test]
    fn classes_as_go_computes_them() {
        assert_eq!(compute_pod_qos(&pod(json!([{"name": "c"}]))), "BestEffort");
        let both = json!({"cpu": "500m", "memory": "256Mi"});
        let guaranteed = pod(json!([{"resources": {"limits": both, "requests": both}}]));
        assert_eq!(compute_pod_qos(&guaranteed), "Guaranteed");
        // Requests equal in value though written differently.
        let same = pod(
            json!([{"resources": {"limits": {"cpu": "1", "memory": "1Gi"},
            "requests": {"cpu": "1000m", "memory": "1024Mi"}}}]),
        );
        assert_eq!(compute_pod_qos(&same), "Guaranteed");
        let memory_only = pod(json!([{"resources": {"requests": {"memory": "64Mi"}}}]));
        assert_eq!(compute_pod_qos(&memory_only), "Burstable");
        // A second container without limits makes it Burstable.
        let mixed = pod(json!([{"resources": {"limits": both, "requests": both}}, {"name": "b"}]));
        assert_eq!(compute_pod_qos(&mixed), "Burstable");
        // Zero and other resources do not count.
        let zero = pod(json!([{"resources": {"requests": {"cpu": "0", "nvidia.com/gpu": "1"}}}]));
        assert_eq!(compute_pod_qos(&zero), "BestEffort");
        // Pod-level resources decide when present.
        let pod_level = json!({"spec": {"resources": {"limits": both, "requests": both},
            "containers": [{"name": "c"}]}});
        assert_eq!(compute_pod_qos(&pod_level), "Guaranteed");
    }
}
