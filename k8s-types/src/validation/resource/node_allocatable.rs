//! A device's node-allocatable resources: in 1.36 `nodeAllocatableResourceMappings`, which
//! 1.37 replaced (Go tombstoned the field) by `nodeAllocatableResources`, each a mapping
//! of the device's capacity or an overhead per Pod or container.

use std::collections::BTreeMap;

use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::super::json_value;
use crate::resource::v1::DeviceCapacity;
#[cfg(not(feature = "v1_37"))]
use crate::resource::v1::NodeAllocatableResourceMapping;
#[cfg(feature = "v1_37")]
use crate::resource::v1::{
    NodeAllocatableMapping, NodeAllocatableOverhead, NodeAllocatableResource,
};

/// Go's check of a node-allocatable resource name. On 1.36 `IsNativeResource`: a
/// native resource name (no domain, or one of `kubernetes.io`), not an extended one.
#[cfg(not(feature = "v1_37"))]
fn is_node_allocatable(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

/// Go's check of a node-allocatable resource name. On 1.37 core's
/// `IsNodeAllocatableResourceName`: `cpu`, `memory` or a huge-pages size.
#[cfg(feature = "v1_37")]
fn is_node_allocatable(name: &str) -> bool {
    name == "cpu" || name == "memory" || name.starts_with("hugepages-")
}

/// Go's `validateNodeAllocatableResourceMappings` (1.36).
#[cfg(not(feature = "v1_37"))]
pub(super) fn validate_node_allocatable_resource_mappings(
    mappings: &BTreeMap<String, NodeAllocatableResourceMapping>,
    capacity: &BTreeMap<String, DeviceCapacity>,
    path: &Path,
    errs: &mut ErrorList,
) {
    for (name, m) in mappings {
        let kp = path.key(name);
        if !is_node_allocatable(name) {
            errs.push(Error::invalid(
                &kp,
                json_value(name),
                "must be a node allocatable resource name",
            ));
        }
        if m.allocation_multiplier.is_none() && m.capacity_key.is_none() {
            errs.push(Error::invalid(
                &kp,
                "",
                "at least one of allocationMultiplier or capacityKey must be set",
            ));
            continue;
        }
        if let Some(mult) = &m.allocation_multiplier {
            if mult.sign() <= 0 {
                errs.push(Error::invalid(
                    &kp.child("allocationMultiplier"),
                    mult.to_string(),
                    "must be positive",
                ));
            }
        }
        if let Some(key) = &m.capacity_key {
            let cp = kp.child("capacityKey");
            if key.is_empty() {
                errs.push(Error::invalid(
                    &cp,
                    "",
                    "capacityKey must not be an empty string",
                ));
            } else if !capacity.contains_key(key) {
                errs.push(Error::not_found(&cp, json_value(key)));
            }
        }
    }
}

/// Go's `validateNodeAllocatableResources` (1.37): each key a node-allocatable resource
/// name, each entry a mapping or an overhead or both.
#[cfg(feature = "v1_37")]
pub(super) fn validate_node_allocatable_resources(
    resources: &BTreeMap<String, NodeAllocatableResource>,
    capacity: &BTreeMap<String, DeviceCapacity>,
    path: &Path,
    errs: &mut ErrorList,
) {
    for (name, r) in resources {
        let kp = path.key(name);
        if !is_node_allocatable(name) {
            errs.push(Error::invalid(
                &kp,
                json_value(name),
                "must be a node allocatable resource name",
            ));
        }
        if r.mapping.is_none() && r.overhead.is_none() {
            errs.push(Error::required(
                &kp,
                "at least one of mapping or overhead must be set",
            ));
        }
        if let Some(m) = &r.mapping {
            validate_mapping(m, capacity, &kp.child("mapping"), errs);
        }
        if let Some(o) = &r.overhead {
            validate_overhead(o, &kp.child("overhead"), errs);
        }
    }
}

/// Go's `validateNodeAllocatableMapping`: a capacity key names one of the device's
/// capacities and comes with a positive multiplier; a device multiplier is positive.
#[cfg(feature = "v1_37")]
fn validate_mapping(
    m: &NodeAllocatableMapping,
    capacity: &BTreeMap<String, DeviceCapacity>,
    path: &Path,
    errs: &mut ErrorList,
) {
    // The declarative union of `capacityKey` and `deviceMultiplier` (not beta: always
    // enforced on 1.37).
    match (m.capacity_key.is_some(), m.device_multiplier.is_some()) {
        (true, true) => errs.push(Error::invalid(
            path,
            "{capacityKey, deviceMultiplier}",
            "must specify exactly one of: `capacityKey`, `deviceMultiplier`",
        )),
        (false, false) => errs.push(Error::invalid(
            path,
            "",
            "must specify one of: `capacityKey`, `deviceMultiplier`",
        )),
        _ => {}
    }
    if let Some(key) = &m.capacity_key {
        let cp = path.child("capacityKey");
        if key.is_empty() {
            errs.push(Error::invalid(
                &cp,
                "",
                "capacityKey must not be an empty string",
            ));
        } else if !capacity.contains_key(key) {
            errs.push(Error::not_found(&cp, json_value(key)));
        }
        match &m.capacity_multiplier {
            None => errs.push(Error::required(
                &path.child("capacityMultiplier"),
                "capacityMultiplier is required when capacityKey is set",
            )),
            Some(q) if q.sign() <= 0 => errs.push(Error::invalid(
                &path.child("capacityMultiplier"),
                q.to_string(),
                "must be positive",
            )),
            Some(_) => {}
        }
    }
    if let Some(q) = &m.device_multiplier {
        if q.sign() <= 0 {
            errs.push(Error::invalid(
                &path.child("deviceMultiplier"),
                q.to_string(),
                "must be positive",
            ));
        }
    }
    if m.capacity_multiplier.is_some() && m.capacity_key.is_none() {
        errs.push(Error::required(
            &path.child("capacityKey"),
            "capacityKey is required when capacityMultiplier is set",
        ));
    }
}

/// Go's `validateNodeAllocatableOverheadMapping`: per Pod or per container (or both),
/// neither negative.
#[cfg(feature = "v1_37")]
fn validate_overhead(o: &NodeAllocatableOverhead, path: &Path, errs: &mut ErrorList) {
    if o.per_pod.is_none() && o.per_container.is_none() {
        errs.push(Error::invalid(
            path,
            "",
            "at least one of perPod or perContainer must be set",
        ));
        return;
    }
    for (q, field) in [(&o.per_pod, "perPod"), (&o.per_container, "perContainer")] {
        if let Some(q) = q {
            if q.sign() < 0 {
                errs.push(Error::invalid(
                    &path.child(field),
                    q.to_string(),
                    "must be non-negative",
                ));
            }
        }
    }
}
