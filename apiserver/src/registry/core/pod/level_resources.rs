//! Pod-level resources completed from the containers' when a Pod is created (Go 1.37's
//! `DefaultPodLevelResources` in `pkg/api/pod/util.go`, which the Pod strategy's
//! `PrepareForCreate` calls while PodLevelResources and PodLevelResourcesFixDefaulting
//! are on, as they are by default in 1.37; 1.36 did none of it in the server).
//!
//! Only a Pod that sets `spec.resources` is touched, and only for the resources
//! supported at pod level (`cpu`, `memory`, `hugepages-*`), in three steps:
//! 1. a hugepage limit neither requested nor limited at pod level is the containers'
//!    aggregated limit;
//! 2. a missing pod-level request is the containers' aggregated request (cpu and
//!    memory), else the pod-level limit;
//! 3. a requested resource without a pod-level limit, when every container limits it,
//!    is limited to the greater of the pod-level request and the containers' aggregated
//!    limit.
//!
//! The aggregate of the containers is Go's `AggregateContainerRequests`/`…Limits`: the
//! sum of the regular and sidecar (restartable init) containers, or the most any init
//! container needs while it runs beside the sidecars before it, whichever is more.

use std::collections::BTreeMap;

use apimachinery::api::resource::{Quantity, parse_quantity};
use serde_json::{Map, Value};

/// A ResourceList.
type Resources = BTreeMap<String, Quantity>;

/// The prefix of hugepage resource names.
const HUGEPAGES: &str = "hugepages-";

/// Go's `IsSupportedPodLevelResource`.
fn supported(name: &str) -> bool {
    name == "cpu" || name == "memory" || name.starts_with(HUGEPAGES)
}

/// The ResourceList `list` of `container`'s resources (`requests`, `limits`); `None`
/// when a quantity does not parse (validation refuses the Pod afterwards).
fn container_list(container: &Value, list: &str) -> Option<Resources> {
    parse(container.get("resources").and_then(|r| r.get(list)))
}

/// A ResourceList's JSON as quantities; `None` when one does not parse.
fn parse(list: Option<&Value>) -> Option<Resources> {
    let mut out = Resources::new();
    for (name, quantity) in list.and_then(Value::as_object).into_iter().flatten() {
        out.insert(name.clone(), parse_quantity(quantity.as_str()?).ok()?);
    }
    Some(out)
}

/// Adds `more` to `list` (Go's `addResourceList`). A sum too large to represent (far
/// beyond any real resource) keeps the first term.
fn add(list: &mut Resources, more: &Resources) {
    for (name, quantity) in more {
        match list.get_mut(name) {
            Some(sum) => {
                let _ = sum.add(quantity);
            }
            None => {
                list.insert(name.clone(), quantity.clone());
            }
        }
    }
}

/// Raises `list` to `other` where `other` is greater (Go's `maxResourceList`).
fn max(list: &mut Resources, other: &Resources) {
    for (name, quantity) in other {
        if list.get(name).is_none_or(|have| quantity > have) {
            list.insert(name.clone(), quantity.clone());
        }
    }
}

/// Go's `aggregateContainerResourcesByFn` over the spec's `list` of each container and
/// init container.
fn aggregate(spec: &Value, list: &str) -> Option<Resources> {
    let containers = |key: &str| {
        spec.get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let mut result = Resources::new();
    for container in containers("containers") {
        add(&mut result, &container_list(&container, list)?);
    }
    let mut sidecars = Resources::new();
    let mut init = Resources::new();
    for container in containers("initContainers") {
        let mut resources = container_list(&container, list)?;
        if container.get("restartPolicy").and_then(Value::as_str) == Some("Always") {
            add(&mut result, &resources);
            add(&mut sidecars, &resources);
            resources = sidecars.clone();
        } else {
            add(&mut resources, &sidecars);
        }
        max(&mut init, &resources);
    }
    max(&mut result, &init);
    Some(result)
}

/// Whether every container (init and ephemeral ones too) limits `name`.
fn all_limit(spec: &Value, name: &str) -> bool {
    ["initContainers", "containers", "ephemeralContainers"]
        .into_iter()
        .flat_map(|key| {
            spec.get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
        })
        .all(|c| {
            c.pointer("/resources/limits")
                .and_then(|l| l.get(name))
                .is_some()
        })
}

/// Go's `DefaultPodLevelResources` on a Pod's JSON.
pub fn default_pod_level_resources(pod: &mut Value) {
    let Some(spec) = pod.get_mut("spec") else {
        return;
    };
    let Some(resources) = spec.get("resources").filter(|r| r.is_object()) else {
        return;
    };
    let (Some(mut requests), Some(mut limits)) = (
        parse(resources.get("requests")),
        parse(resources.get("limits")),
    ) else {
        return;
    };
    if requests.is_empty() && limits.is_empty() {
        return;
    }
    let (Some(container_requests), Some(container_limits)) =
        (aggregate(spec, "requests"), aggregate(spec, "limits"))
    else {
        return;
    };
    // 1. Hugepage limits.
    for (name, limit) in &container_limits {
        if name.starts_with(HUGEPAGES) && !requests.contains_key(name) {
            limits.entry(name.clone()).or_insert_with(|| limit.clone());
        }
    }
    // 2. Requests: the containers' where overcommit is allowed (not hugepages), then
    // the pod-level limits'.
    for (name, request) in &container_requests {
        if supported(name) && !name.starts_with(HUGEPAGES) {
            requests
                .entry(name.clone())
                .or_insert_with(|| request.clone());
        }
    }
    for (name, limit) in &limits {
        if supported(name) {
            requests
                .entry(name.clone())
                .or_insert_with(|| limit.clone());
        }
    }
    // 3. Limits of what is requested, where every container has one.
    let candidates: Vec<&String> = requests
        .keys()
        .filter(|name| supported(name) && !limits.contains_key(*name) && all_limit(spec, name))
        .collect();
    let mut defaulted = Vec::new();
    for name in candidates {
        if let Some(aggregated) = container_limits.get(name) {
            let request = &requests[name];
            let limit = if request > aggregated {
                request
            } else {
                aggregated
            };
            defaulted.push((name.clone(), limit.clone()));
        }
    }
    limits.extend(defaulted);
    let as_json = |list: &Resources| -> Value {
        Value::Object(
            list.iter()
                .map(|(name, q)| (name.clone(), Value::from(q.to_string())))
                .collect::<Map<String, Value>>(),
        )
    };
    if let Some(resources) = spec.get_mut("resources").and_then(Value::as_object_mut) {
        if !requests.is_empty() {
            resources.insert("requests".into(), as_json(&requests));
        }
        if !limits.is_empty() {
            resources.insert("limits".into(), as_json(&limits));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn defaulted(mut pod: Value) -> Value {
        default_pod_level_resources(&mut pod);
        pod["spec"]["resources"].clone()
    }

    #[test]
    fn a_pod_without_pod_level_resources_is_left_alone() {
        let pod = json!({"spec": {"containers": [{"name": "c",
            "resources": {"requests": {"cpu": "1"}}}]}});
        let mut same = pod.clone();
        default_pod_level_resources(&mut same);
        assert_eq!(same, pod);
        let empty = json!({"spec": {"resources": {}, "containers": [{"name": "c",
            "resources": {"requests": {"cpu": "1"}}}]}});
        assert_eq!(defaulted(empty), json!({}));
    }

    #[test]
    fn requests_come_from_the_containers_and_limits_where_all_containers_limit() {
        let pod = json!({"spec": {
            "resources": {"requests": {"cpu": "1"}},
            "initContainers": [
                {"name": "sidecar", "restartPolicy": "Always", "resources": {
                    "requests": {"cpu": "100m", "memory": "64Mi"},
                    "limits": {"cpu": "200m", "memory": "64Mi"}}},
                {"name": "init", "resources": {
                    "requests": {"memory": "1Gi"}, "limits": {"memory": "1Gi"}}},
            ],
            "containers": [
                {"name": "a", "resources": {
                    "requests": {"cpu": "250m", "memory": "128Mi"},
                    "limits": {"memory": "256Mi"}}},
                {"name": "b", "resources": {
                    "requests": {"memory": "128Mi"}, "limits": {"memory": "128Mi"}}},
            ],
        }});
        // memory: regular 128Mi + 128Mi + the sidecar's 64Mi = 320Mi, but the init
        // container needs 1Gi + 64Mi beside the sidecar: 1088Mi. Limits: every container
        // limits memory (the sum 448Mi, the init container's 1088Mi); not cpu.
        assert_eq!(
            defaulted(pod),
            json!({"requests": {"cpu": "1", "memory": "1088Mi"}, "limits": {"memory": "1088Mi"}})
        );
    }

    #[test]
    fn a_pod_level_request_above_the_containers_limits_raises_the_limit() {
        let pod = json!({"spec": {
            "resources": {"requests": {"memory": "2Gi"}},
            "containers": [{"name": "a", "resources": {
                "requests": {"memory": "1Gi"}, "limits": {"memory": "1Gi"}}}],
        }});
        assert_eq!(
            defaulted(pod),
            json!({"requests": {"memory": "2Gi"}, "limits": {"memory": "2Gi"}})
        );
    }

    #[test]
    fn hugepage_limits_come_from_the_containers_and_requests_from_the_limits() {
        let pod = json!({"spec": {
            "resources": {"limits": {"cpu": "2"}},
            "containers": [{"name": "a", "resources": {
                "requests": {"cpu": "500m", "hugepages-2Mi": "4Mi"},
                "limits": {"hugepages-2Mi": "4Mi"}}}],
        }});
        // cpu: the containers' request 500m comes first; the pod-level limit stays.
        assert_eq!(
            defaulted(pod),
            json!({
                "requests": {"cpu": "500m", "hugepages-2Mi": "4Mi"},
                "limits": {"cpu": "2", "hugepages-2Mi": "4Mi"},
            })
        );
    }
}
