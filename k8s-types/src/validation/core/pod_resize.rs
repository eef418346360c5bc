//! A write of a Pod's `/resize` (Go's `ValidatePodResize`, which the resize strategy's
//! `ValidateUpdate` runs): the new pod valid, not a static or Windows pod, its QoS class
//! kept, and nothing changed but the cpu and memory of its containers (and of the pod,
//! with pod-level resources), their resize policies, and none removed.
//!
//! Gates as kube-apiserver's defaults: InPlacePodLevelResourcesVerticalScaling (beta)
//! and InPlacePodVerticalScalingInitContainers (beta in 1.36, GA in 1.37) on,
//! InPlacePodVerticalScalingMemoryBackedVolumes (alpha, 1.37) and
//! DRANodeAllocatableResources (alpha) off.

use std::collections::BTreeMap;

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use crate::core::v1::{Container, Pod, PodSpec, ResourceRequirements};
use crate::validation::validate_object_meta_update;
use crate::value::Quantity;

use super::pod::validate_pod_metadata_and_spec;
use super::pod_qos::{compute_pod_qos, get_pod_qos};

/// Go's `MirrorPodAnnotationKey`.
const MIRROR_POD: &str = "kubernetes.io/config.mirror";
const ONLY_CPU_MEMORY: &str = "only cpu and memory resources are mutable";

/// Go's `ValidatePodResize`, in Go's order (it stops early where Go does).
pub fn validate_pod_resize(new: &Pod, old: &Pod) -> ErrorList {
    let meta = Path::new("metadata");
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, &meta);
    errs.extend(validate_pod_metadata_and_spec(new, Some(old)));
    // Go's `field.NewPath("")`, which it writes as `[]`.
    let empty = Path::root();
    let root = empty.key("");
    if old.metadata.annotations.contains_key(MIRROR_POD) {
        let mut only = ErrorList::default();
        only.push(Error::forbidden(&root, "static pods cannot be resized"));
        return only;
    }
    if old.spec.os.as_ref().is_some_and(|os| os.name == "windows") {
        let mut only = ErrorList::default();
        only.push(Error::forbidden(&root, "windows pods cannot be resized"));
        return only;
    }
    let spec = Path::new("spec");
    if get_pod_qos(old) != compute_pod_qos(new) {
        errs.push(Error::invalid(
            &spec,
            BadValue::json_string(&new.status.qos_class),
            "Pod QOS Class may not change as a result of resizing",
        ));
    }
    if !resize_supported(old) {
        errs.push(Error::forbidden(
            &spec,
            "Pod running on node without support for resize",
        ));
    }
    let mut copy = new.spec.clone();
    if pod_level_set(&old.spec) || pod_level_set(&new.spec) {
        pod_level_resize(new, old, &mut copy, &spec, &mut errs);
    }
    #[cfg(not(feature = "v1_37"))]
    if !old
        .status
        .node_allocatable_resource_claim_statuses
        .is_empty()
    {
        errs.push(Error::forbidden(
            &spec,
            "pods with node allocatable resource claims cannot be resized",
        ));
    }
    let no_containers = Vec::new();
    let new_c = new.spec.containers.as_ref().unwrap_or(&no_containers);
    let old_c = old.spec.containers.as_ref().unwrap_or(&no_containers);
    let (new_i, old_i) = (&new.spec.init_containers, &old.spec.init_containers);
    if !container_ordering(new_c, old_c, new_i, old_i, &spec, &mut errs) {
        return errs;
    }
    let ip = spec.child("initContainers");
    let cp = spec.child("containers");
    for (i, (n, o)) in new_i.iter().zip(old_i).enumerate() {
        // InPlacePodVerticalScalingInitContainers is on: every init container counts.
        let ipi = ip.index(i);
        none_removed(
            &n.resources,
            &o.resources,
            &ipi.child("resources"),
            &mut errs,
        );
    }
    for (i, (n, o)) in new_c.iter().zip(old_c).enumerate() {
        let cpi = cp.index(i);
        none_removed(
            &n.resources,
            &o.resources,
            &cpi.child("resources"),
            &mut errs,
        );
    }
    let mut containers = Vec::with_capacity(new_c.len());
    for (n, o) in new_c.iter().zip(old_c) {
        let c = without_cpu_memory_changes(n, o);
        if c != *o {
            errs.push(Error::forbidden(&spec, ONLY_CPU_MEMORY));
        }
        containers.push(c);
    }
    if copy.containers.is_some() {
        copy.containers = Some(containers);
    }
    let mut init = Vec::with_capacity(new_i.len());
    for (i, (n, o)) in new_i.iter().zip(old_i).enumerate() {
        let restartable = n.restart_policy.as_deref() == Some("Always");
        let modified = n != o;
        let c = without_cpu_memory_changes(n, o);
        if c != *o {
            errs.push(Error::forbidden(
                &ip.index(i),
                "only cpu and memory resources for init or sidecar containers are mutable",
            ));
        }
        if modified && !restartable {
            for policy in &c.resize_policy {
                if policy.restart_policy == "RestartContainer" {
                    errs.push(Error::forbidden(
                        &ip.index(i),
                        "non-sidecar init containers with a resize policy of RestartContainer cannot be resized",
                    ));
                }
            }
        }
        init.push(c);
    }
    copy.init_containers = init;
    #[cfg(feature = "v1_37")]
    if new.spec.volumes != old.spec.volumes {
        errs.push(Error::forbidden(
            &spec.child("volumes"),
            "volumes are immutable on resize when InPlacePodVerticalScalingMemoryBackedVolumes feature gate is disabled",
        ));
    }
    if errs.is_empty() && copy != old.spec {
        errs.push(Error::forbidden(&spec, ONLY_CPU_MEMORY));
    }
    errs
}

/// Go's `isPodResizeRequestSupported`: the first running container reports its
/// resources (its node supports resize); with none running, assumed.
fn resize_supported(pod: &Pod) -> bool {
    pod.status
        .container_statuses
        .iter()
        .find(|c| c.state.running.is_some())
        .is_none_or(|c| c.resources.is_some())
}

/// Whether the spec has pod-level requests or limits.
fn pod_level_set(spec: &PodSpec) -> bool {
    spec.resources
        .as_ref()
        .is_some_and(|r| !r.requests.is_empty() || !r.limits.is_empty())
}

/// Go's `validatePodLevelResourcesResize`: pod-level resources neither removed nor
/// changed but in cpu and memory; `copy` gets the old cpu and memory back.
fn pod_level_resize(new: &Pod, old: &Pod, copy: &mut PodSpec, spec: &Path, errs: &mut ErrorList) {
    let rp = spec.child("resources");
    let Some(new_r) = &new.spec.resources else {
        if old.spec.resources.is_some() {
            errs.push(Error::forbidden(
                &rp,
                "pod-level resources cannot be removed",
            ));
            return;
        }
        return;
    };
    if let Some(old_r) = &old.spec.resources {
        if removed(&new_r.requests, &old_r.requests) {
            errs.push(Error::forbidden(
                &rp.child("requests"),
                "pod-level resource requests cannot be removed",
            ));
        }
        if removed(&new_r.limits, &old_r.limits) {
            errs.push(Error::forbidden(
                &rp.child("limits"),
                "pod-level resource limits cannot be removed",
            ));
        }
    }
    let old_r = old.spec.resources.as_ref();
    if let Some(r) = copy.resources.as_mut() {
        let empty = BTreeMap::new();
        r.requests = without_cpu_memory(&r.requests, old_r.map_or(&empty, |o| &o.requests));
        r.limits = without_cpu_memory(&r.limits, old_r.map_or(&empty, |o| &o.limits));
        if old_r.is_none() && r.requests.is_empty() && r.limits.is_empty() && r.claims.is_empty() {
            copy.resources = None;
        }
    }
    if copy.resources.as_ref() != old_r {
        errs.push(Error::forbidden(
            spec,
            "only cpu and memory resources are mutable at pod-level",
        ));
    }
}

/// Go's `validatePodResizeContainerOrdering`: as many containers and init containers,
/// in the same order (false, and Go stops, when not).
fn container_ordering(
    new_c: &[Container],
    old_c: &[Container],
    new_i: &[Container],
    old_i: &[Container],
    spec: &Path,
    errs: &mut ErrorList,
) -> bool {
    let before = errs.len();
    for (field, what, n, o) in [
        ("containers", "containers", new_c, old_c),
        ("initContainers", "initContainers", new_i, old_i),
    ] {
        let p = spec.child(field);
        if n.len() != o.len() {
            errs.push(Error::forbidden(
                &p,
                format!("{what} may not be added or removed on resize"),
            ));
            continue;
        }
        for (i, (n, o)) in n.iter().zip(o).enumerate() {
            if n.name != o.name {
                let ip = p.index(i);
                errs.push(Error::forbidden(
                    &ip.child("name"),
                    format!("{what} may not be renamed or reordered on resize"),
                ));
            }
        }
    }
    errs.len() == before
}

/// Go's `validateContainerResize`: no request or limit removed.
fn none_removed(
    new: &ResourceRequirements,
    old: &ResourceRequirements,
    path: &Path,
    errs: &mut ErrorList,
) {
    if removed(&new.requests, &old.requests) {
        errs.push(Error::forbidden(
            &path.child("requests"),
            "resource requests cannot be removed",
        ));
    }
    if removed(&new.limits, &old.limits) {
        errs.push(Error::forbidden(
            &path.child("limits"),
            "resource limits cannot be removed",
        ));
    }
}

/// Go's `resourcesRemoved`.
fn removed(new: &BTreeMap<String, Quantity>, old: &BTreeMap<String, Quantity>) -> bool {
    old.len() > new.len() || old.keys().any(|k| !new.contains_key(k))
}

/// Go's `dropCPUMemoryResourcesFromContainer`: the container with its old cpu and
/// memory (its claims kept as written, 1.37).
fn without_cpu_memory_changes(new: &Container, old: &Container) -> Container {
    let mut c = new.clone();
    c.resources.limits = without_cpu_memory(&new.resources.limits, &old.resources.limits);
    c.resources.requests = without_cpu_memory(&new.resources.requests, &old.resources.requests);
    #[cfg(not(feature = "v1_37"))]
    {
        c.resources.claims = Vec::new();
    }
    c
}

/// Go's `dropCPUMemoryUpdates`: `list` with the cpu and memory of `old`.
fn without_cpu_memory(
    list: &BTreeMap<String, Quantity>,
    old: &BTreeMap<String, Quantity>,
) -> BTreeMap<String, Quantity> {
    let mut out = list.clone();
    for name in ["cpu", "memory"] {
        match old.get(name) {
            Some(q) => out.insert(name.to_owned(), q.clone()),
            None => out.remove(name),
        };
    }
    out
}
