//! A Pod's quality-of-service class (Go's `pkg/apis/core/helper/qos`), which a resize
//! must keep: `GetPodQOS` (the recorded class, else the computed one) and
//! `ComputePodQOS` as each release computes it.

#[cfg(not(feature = "v1_37"))]
use std::collections::BTreeMap;

use crate::core::v1::{Pod, ResourceRequirements};
use crate::value::Quantity;

/// The resources the class looks at.
const QOS_RESOURCES: [&str; 2] = ["cpu", "memory"];

/// Go's `GetPodQOS`: `status.qosClass` when set, else [`compute_pod_qos`].
pub(super) fn get_pod_qos(pod: &Pod) -> String {
    if pod.status.qos_class.is_empty() {
        compute_pod_qos(pod).to_owned()
    } else {
        pod.status.qos_class.clone()
    }
}

/// Go's `ComputePodQOS` of 1.37: pod-level resources decide when they set a resource
/// of their own (PodLevelResourcesFixKubeletQOSClass, beta and on); otherwise each
/// container's class (init containers first), one `Burstable`, or two different,
/// making the pod `Burstable`.
#[cfg(feature = "v1_37")]
pub(super) fn compute_pod_qos(pod: &Pod) -> &'static str {
    if let Some(r) = pod.spec.resources.as_ref().filter(|_| pod_level_set(pod)) {
        return requirements_qos(r);
    }
    let containers = pod.spec.containers.iter().flatten();
    let mut class = "";
    for c in pod.spec.init_containers.iter().chain(containers) {
        let own = requirements_qos(&c.resources);
        if own == "Burstable" {
            return own;
        }
        if class.is_empty() {
            class = own;
        } else if class != own {
            return "Burstable";
        }
    }
    if class.is_empty() {
        "BestEffort"
    } else {
        class
    }
}

/// Go's `helper.IsPodLevelResourcesSet`: pod-level requests or limits of cpu, memory
/// or huge pages.
#[cfg(feature = "v1_37")]
fn pod_level_set(pod: &Pod) -> bool {
    let supported = |n: &String| QOS_RESOURCES.contains(&n.as_str()) || n.starts_with("hugepages-");
    pod.spec
        .resources
        .as_ref()
        .is_some_and(|r| r.requests.keys().chain(r.limits.keys()).any(supported))
}

/// Go's `requirementsQOS`: no requests or limits is `BestEffort`; else cpu and memory
/// each requested as limited (zero counting as unset), all alike.
#[cfg(feature = "v1_37")]
fn requirements_qos(r: &ResourceRequirements) -> &'static str {
    if r.requests.is_empty() && r.limits.is_empty() {
        return "BestEffort";
    }
    let mut class = "";
    for name in QOS_RESOURCES {
        let zero = Quantity::default();
        let req = r.requests.get(name).unwrap_or(&zero);
        let lim = r.limits.get(name).unwrap_or(&zero);
        let own = if req != lim {
            "Burstable"
        } else if req.is_zero() {
            "BestEffort"
        } else {
            "Guaranteed"
        };
        if own == "Burstable" {
            return own;
        }
        if class.is_empty() {
            class = own;
        } else if class != own {
            return "Burstable";
        }
    }
    class
}

/// Go's `ComputePodQOS` of 1.36: the positive cpu and memory requests and limits summed
/// over the containers (or the pod-level ones); none is `BestEffort`, limits of both
/// everywhere equal to the requests `Guaranteed`, anything else `Burstable`.
#[cfg(not(feature = "v1_37"))]
pub(super) fn compute_pod_qos(pod: &Pod) -> &'static str {
    let mut requests = BTreeMap::new();
    let mut limits = BTreeMap::new();
    let mut guaranteed = true;
    let mut add = |r: &ResourceRequirements, pod_level: bool| {
        sum(&r.requests, &mut requests);
        if pod_level && r.limits.is_empty() {
            return;
        }
        let found = sum(&r.limits, &mut limits);
        if found < QOS_RESOURCES.len() {
            guaranteed = false;
        }
    };
    match &pod.spec.resources {
        Some(r) => add(r, true),
        None => {
            let containers = pod.spec.containers.iter().flatten();
            for c in containers.chain(&pod.spec.init_containers) {
                add(&c.resources, false);
            }
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort";
    }
    if guaranteed && requests == limits {
        return "Guaranteed";
    }
    "Burstable"
}

/// Adds the positive cpu and memory quantities of `list` to `into`; how many of the
/// two it had.
#[cfg(not(feature = "v1_37"))]
fn sum(list: &BTreeMap<String, Quantity>, into: &mut BTreeMap<String, Quantity>) -> usize {
    let mut found = 0;
    for name in QOS_RESOURCES {
        let Some(q) = list.get(name).filter(|q| q.sign() > 0) else {
            continue;
        };
        found += 1;
        match into.get_mut(name) {
            // An overflow leaves the sum as it was (Go's Add saturates).
            Some(total) => {
                let _ = total.add(q);
            }
            None => {
                into.insert(name.to_owned(), q.clone());
            }
        }
    }
    found
}
