//! A write of a Pod's `/status` (Go's `ValidatePodStatusUpdate`, which the pod status
//! strategy's `ValidateUpdate` runs): the metadata's update and the pod-specific
//! annotations, then the status — conditions, the node name untouched, the nominated
//! node, generations, the QoS class immutable, the containers' statuses
//! ([`container_statuses`](super::container_statuses)), DRA claim statuses, volume
//! health (1.37), `podIPs` and `hostIPs`.
//!
//! Not ported: the image volume digests of `volumeMounts[*].volumeStatus`, checked only
//! with the ImageVolumeWithDigest gate (alpha, off, and the field is dropped with it).

use std::collections::BTreeSet;

use apimachinery::apis::meta::v1::validation::name_is_dns_subdomain;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::ip::{is_valid_ip_for_legacy_field, parse_ip_sloppy};
use apimachinery::util::validation::{is_dns1123_label, is_qualified_name};

use crate::core::v1::{
    NodeAllocatableResourceClaimStatus, Pod, PodExtendedResourceClaimStatus,
    PodResourceClaimStatus, PodSpec, PodStatus,
};
use crate::validation::go_value::go_json;
use crate::validation::{invalid_each, validate_object_meta_update};

use super::container_statuses::{
    Kind, allocated_resources_status, ephemeral_state_transitions, no_allocated_resources_status,
    state_transitions, users,
};
use super::pod_annotations::validate_pod_annotation_updates;
use super::service_ips::STRICT_IP_CIDR;

/// The conditions the kubelet owns, whose types need not be qualified names.
const SYSTEM_CONDITIONS: &[&str] = &["PodScheduled", "Ready", "Initialized"];
const NON_NEGATIVE: &str = "must be a non-negative integer";

/// Go's `ValidatePodStatusUpdate`, in Go's order.
pub fn validate_pod_status_update(new: &Pod, old: &Pod) -> ErrorList {
    let meta = Path::new("metadata");
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, &meta);
    validate_pod_annotation_updates(new, old, &meta.child("annotations"), &mut errs);
    let path = Path::new("status");
    let (status, old_status) = (&new.status, &old.status);
    conditions(status, &path.child("conditions"), &mut errs);
    if new.spec.node_name != old.spec.node_name {
        errs.push(Error::forbidden(
            &path.child("nodeName"),
            "may not be changed directly",
        ));
    }
    let nominated = &status.nominated_node_name;
    let np = path.child("nominatedNodeName");
    if *nominated != old_status.nominated_node_name && !nominated.is_empty() {
        invalid_each(
            &mut errs,
            &np,
            nominated,
            name_is_dns_subdomain(nominated, false),
        );
    }
    // ClearingNominatedNodeNameAfterBinding (beta and on in both releases).
    if !old.spec.node_name.is_empty()
        && !nominated.is_empty()
        && *nominated != old_status.nominated_node_name
    {
        errs.push(Error::forbidden(
            &np,
            "may not be set on pods that are already bound to a node",
        ));
    }
    if status.observed_generation < 0 {
        errs.push(Error::invalid(
            &path.child("observedGeneration"),
            status.observed_generation,
            NON_NEGATIVE,
        ));
    }
    if status.qos_class != old_status.qos_class {
        errs.push(Error::invalid(
            &path.child("qosClass"),
            BadValue::json_string(&status.qos_class),
            "field is immutable",
        ));
    }
    let (spec, old_spec) = (&new.spec, &old.spec);
    let cs = path.child("containerStatuses");
    let ics = path.child("initContainerStatuses");
    let ecs = path.child("ephemeralContainerStatuses");
    state_transitions(
        &status.container_statuses,
        &old_status.container_statuses,
        old_spec,
        Kind::Regular,
        &cs,
        &mut errs,
    );
    state_transitions(
        &status.init_container_statuses,
        &old_status.init_container_statuses,
        old_spec,
        Kind::Init,
        &ics,
        &mut errs,
    );
    ephemeral_state_transitions(
        &status.ephemeral_container_statuses,
        &old_status.ephemeral_container_statuses,
        &ecs,
        &mut errs,
    );
    resource_claim_statuses(
        &status.resource_claim_statuses,
        spec,
        &path.child("resourceClaimStatuses"),
        &mut errs,
    );
    if let Some(extended) = &status.extended_resource_claim_status {
        extended_resource_claim_status(
            extended,
            spec,
            &path.child("extendedResourceClaimStatus"),
            &mut errs,
        );
    }
    node_allocatable_claim_statuses(
        status,
        spec,
        &path.child("nodeAllocatableResourceClaimStatuses"),
        &mut errs,
    );
    #[cfg(feature = "v1_37")]
    volume_health(status, spec, &path.child("volumeHealth"), &mut errs);
    pod_ips(status, old_status, &mut errs);
    host_ips(status, old_status, &mut errs);
    users(&status.container_statuses, spec, &cs, &mut errs);
    users(&status.init_container_statuses, spec, &ics, &mut errs);
    users(&status.ephemeral_container_statuses, spec, &ecs, &mut errs);
    let no_containers = Vec::new();
    let containers = spec.containers.as_ref().unwrap_or(&no_containers);
    allocated_resources_status(
        &status.container_statuses,
        containers,
        status,
        &cs,
        &mut errs,
    );
    allocated_resources_status(
        &status.init_container_statuses,
        &spec.init_containers,
        status,
        &ics,
        &mut errs,
    );
    no_allocated_resources_status(&status.ephemeral_container_statuses, &ecs, &mut errs);
    errs
}

/// Go's `validatePodConditions`: generations not negative, and the types of conditions
/// other than the kubelet's qualified names (Go's path says `Type`).
fn conditions(status: &PodStatus, path: &Path, errs: &mut ErrorList) {
    for (i, c) in status.conditions.iter().enumerate() {
        let ip = path.index(i);
        if c.observed_generation < 0 {
            errs.push(Error::invalid(
                &ip.child("observedGeneration"),
                c.observed_generation,
                NON_NEGATIVE,
            ));
        }
        if SYSTEM_CONDITIONS.contains(&c.r#type.as_str()) {
            continue;
        }
        invalid_each(
            errs,
            &ip.child("Type"),
            &c.r#type,
            is_qualified_name(&c.r#type),
        );
    }
}

/// Go's `validatePodResourceClaimStatuses`: each names a claim of the spec, once, and
/// its claim's name is a DNS subdomain.
fn resource_claim_statuses(
    statuses: &[PodResourceClaimStatus],
    spec: &PodSpec,
    path: &Path,
    errs: &mut ErrorList,
) {
    let mut names = BTreeSet::new();
    for (i, s) in statuses.iter().enumerate() {
        let ip = path.index(i);
        let np = ip.child("name");
        if !spec.resource_claims.iter().any(|c| c.name == s.name) {
            errs.push(Error::invalid(
                &np,
                &s.name,
                "must match the name of an entry in `spec.resourceClaims`",
            ));
        }
        if !names.insert(s.name.as_str()) {
            errs.push(Error::duplicate(&np, &s.name));
        }
        if let Some(claim) = &s.resource_claim_name {
            let cp = ip.child("resourceClaimName");
            invalid_each(errs, &cp, claim, name_is_dns_subdomain(claim, false));
        }
    }
}

/// Go's `validatePodExtendedResourceClaimStatus`: request mappings, each naming a
/// container and one of its requests, no mapping twice, and the claim's name.
fn extended_resource_claim_status(
    status: &PodExtendedResourceClaimStatus,
    spec: &PodSpec,
    path: &Path,
    errs: &mut ErrorList,
) {
    let rp = path.child("requestMappings");
    let mappings = status.request_mappings.as_deref().unwrap_or_default();
    if mappings.is_empty() {
        errs.push(Error::required(
            &rp,
            "at least one request mapping is required",
        ));
    }
    // A name repeated finds the last container of that name (Go fills a map, regular
    // containers after init containers).
    let containers = spec.containers.iter().flatten();
    let find = |name: &str| {
        spec.init_containers
            .iter()
            .chain(containers.clone())
            .rfind(|c| c.name == name)
    };
    let mut seen = BTreeSet::new();
    for (i, m) in mappings.iter().enumerate() {
        let ip = rp.index(i);
        match find(&m.container_name) {
            Some(c) => {
                if !c.resources.requests.contains_key(&m.resource_name) {
                    errs.push(Error::invalid(
                        &ip.child("resourceName"),
                        &m.resource_name,
                        "must match the extended resource name of an entry in spec.initContainers.resources.requests or spec.containers.resources.requests",
                    ));
                }
            }
            None => errs.push(Error::invalid(
                &ip.child("containerName"),
                &m.container_name,
                "must match the name of an entry in spec.initContainers.name or spec.containers.name",
            )),
        }
        // Go reports the request's name on the status's path, not the mapping's.
        let request = path.child("requestName");
        invalid_each(
            errs,
            &request,
            &m.request_name,
            is_dns1123_label(&m.request_name),
        );
        let key = (&m.container_name, &m.resource_name, &m.request_name);
        if !seen.insert(key) {
            errs.push(Error::duplicate(
                &ip.child("containerName"),
                &m.container_name,
            ));
            errs.push(Error::duplicate(
                &ip.child("resourceName"),
                &m.resource_name,
            ));
            errs.push(Error::duplicate(&ip.child("requestName"), &m.request_name));
        }
    }
    let cp = path.child("resourceClaimName");
    let name = &status.resource_claim_name;
    if name.is_empty() {
        errs.push(Error::required(&cp, ""));
    } else {
        invalid_each(errs, &cp, name, name_is_dns_subdomain(name, false));
    }
}

/// Whether the claim `name` is one the spec names directly or one generated for it.
fn claim_of_pod(name: &str, spec: &PodSpec, status: &PodStatus) -> bool {
    let by_spec = spec
        .resource_claims
        .iter()
        .any(|c| c.resource_claim_name.as_deref() == Some(name));
    by_spec
        || status
            .resource_claim_statuses
            .iter()
            .any(|c| c.resource_claim_name.as_deref() == Some(name))
}

/// Go's `validateNodeAllocatableResourceClaimStatus` (1.37): each status with a claim
/// names one of the pod's, its mapped and overhead resources node-allocatable and not
/// negative.
#[cfg(feature = "v1_37")]
fn node_allocatable_claim_statuses(
    status: &PodStatus,
    spec: &PodSpec,
    path: &Path,
    errs: &mut ErrorList,
) {
    let statuses: &[NodeAllocatableResourceClaimStatus] =
        &status.node_allocatable_resource_claim_statuses;
    for (i, s) in statuses.iter().enumerate() {
        let ip = path.index(i);
        if s.resource_claim_name.is_empty() {
            continue;
        }
        if !claim_of_pod(&s.resource_claim_name, spec, status) {
            errs.push(Error::invalid(
                &ip.child("resourceClaimName"),
                &s.resource_claim_name,
                "no mapping found in pod reference",
            ));
        }
        let mp = ip.child("mapping");
        for (j, m) in s.mapping.iter().enumerate() {
            let jp = mp.index(j);
            allocatable_name(&m.name, &jp, errs);
            non_negative(m.quantity.as_ref(), &jp.child("quantity"), errs);
        }
        let op = ip.child("overhead");
        for (j, o) in s.overhead.iter().enumerate() {
            let jp = op.index(j);
            allocatable_name(&o.name, &jp, errs);
            if o.per_pod.is_none() && o.per_container.is_none() {
                errs.push(Error::invalid(
                    &jp,
                    "",
                    "at least one of perPod or perContainer must be set",
                ));
            } else {
                non_negative(o.per_pod.as_ref(), &jp.child("perPod"), errs);
                non_negative(o.per_container.as_ref(), &jp.child("perContainer"), errs);
            }
        }
    }
}

/// Go's `helper.IsNodeAllocatableResourceName` (cpu, memory, huge pages) of the entry
/// at `path`.
#[cfg(feature = "v1_37")]
fn allocatable_name(name: &str, path: &Path, errs: &mut ErrorList) {
    if !(name == "cpu" || name == "memory" || name.starts_with("hugepages-")) {
        errs.push(Error::invalid(
            &path.child("name"),
            BadValue::json_string(name),
            "must be a node allocatable resource name",
        ));
    }
}

/// A quantity, when set, not below zero.
fn non_negative(q: Option<&crate::value::Quantity>, path: &Path, errs: &mut ErrorList) {
    if let Some(q) = q.filter(|q| q.sign() < 0) {
        errs.push(Error::invalid(
            path,
            q.canonical_string(),
            "must be non-negative",
        ));
    }
}

/// Go's `validateNodeAllocatableResourceClaimStatus` (1.36): each status names one of
/// the pod's claims, its containers and native, non-negative resources.
#[cfg(not(feature = "v1_37"))]
fn node_allocatable_claim_statuses(
    status: &PodStatus,
    spec: &PodSpec,
    path: &Path,
    errs: &mut ErrorList,
) {
    let statuses: &[NodeAllocatableResourceClaimStatus] =
        &status.node_allocatable_resource_claim_statuses;
    for (i, s) in statuses.iter().enumerate() {
        let ip = path.index(i);
        let cp = ip.child("resourceClaimName");
        if s.resource_claim_name.is_empty() {
            errs.push(Error::required(&cp, "must not be empty"));
        }
        if !claim_of_pod(&s.resource_claim_name, spec, status) {
            errs.push(Error::invalid(
                &cp,
                &s.resource_claim_name,
                "no mapping found in pod reference",
            ));
        }
        if s.containers.is_empty() {
            errs.push(Error::required(
                &ip.child("containers"),
                "must not be empty",
            ));
        }
        let rp = ip.child("resources");
        let resources = s.resources.as_ref().filter(|r| !r.is_empty());
        if resources.is_none() {
            errs.push(Error::required(&rp, "must not be empty"));
        }
        for (name, q) in resources.into_iter().flatten() {
            let kp = rp.key(name);
            // Go's `IsNativeResource`: unprefixed, or under `kubernetes.io/`.
            if name.contains('/') && !name.contains("kubernetes.io/") {
                errs.push(Error::invalid(
                    &kp,
                    BadValue::json_string(name),
                    "must be a node allocatable resource name",
                ));
            }
            non_negative(Some(q), &kp, errs);
        }
    }
}

/// Go's `validatePodVolumeHealth` (1.37): each names a volume of the spec, and its
/// conditions' reasons are condition reasons.
#[cfg(feature = "v1_37")]
fn volume_health(status: &PodStatus, spec: &PodSpec, path: &Path, errs: &mut ErrorList) {
    use apimachinery::apis::meta::v1::validation::is_valid_condition_reason;
    for (i, v) in status.volume_health.iter().enumerate() {
        let ip = path.index(i);
        if !v.name.is_empty() && !spec.volumes.iter().any(|s| s.name == v.name) {
            errs.push(Error::not_found(&ip.child("name"), &v.name));
        }
        let cp = ip.child("healthConditions");
        for (j, c) in v.health_conditions.iter().enumerate() {
            if !c.reason.is_empty() {
                let jp = cp.index(j);
                let rp = jp.child("reason");
                invalid_each(errs, &rp, &c.reason, is_valid_condition_reason(&c.reason));
            }
        }
    }
}

/// Go's internal `PodIP`/`HostIP` as `json.Marshal` writes it (no JSON tags).
#[derive(serde::Serialize)]
struct GoIp<'a> {
    #[serde(rename = "IP")]
    ip: &'a str,
}

/// A list of addresses as Go prints its `[]PodIP` (`null` when empty).
fn go_ips<'a>(ips: impl Iterator<Item = &'a str>) -> BadValue {
    let ips: Vec<GoIp<'_>> = ips.map(|ip| GoIp { ip }).collect();
    if ips.is_empty() {
        BadValue::Json("null".into())
    } else {
        go_json(&ips)
    }
}

/// The addresses' checks Go's `validatePodIPs` and `validateHostIPs` share: each new
/// address valid (one the pod had may stay), at most one of each family.
fn ip_list(ips: &[&str], old: &[&str], path: &Path, errs: &mut ErrorList) {
    let existing: Vec<String> = old.iter().map(|s| (*s).to_owned()).collect();
    for (i, ip) in ips.iter().enumerate() {
        errs.extend(is_valid_ip_for_legacy_field(
            &path.index(i),
            ip,
            STRICT_IP_CIDR,
            &existing,
        ));
    }
    if ips.len() <= 1 {
        return;
    }
    // Go's `IsDualStackIPStrings`: an address that does not parse is an internal error.
    let mut families = (false, false);
    let mut dual = true;
    for (i, ip) in ips.iter().enumerate() {
        match parse_ip_sloppy(ip) {
            Some(p) if p.to4().is_some() => families.0 = true,
            Some(_) => families.1 = true,
            None => {
                #[derive(Debug)]
                struct DualStack(String);
                impl std::fmt::Display for DualStack {
                    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str(&self.0)
                    }
                }
                impl std::error::Error for DualStack {}
                let why =
                    format!("failed to check for dual stack with error:invalid IP[{i}]: {ip}");
                errs.push(Error::internal_error(path, &DualStack(why)));
                dual = false;
                break;
            }
        }
    }
    if !(dual && families.0 && families.1) || ips.len() > 2 {
        errs.push(Error::invalid(
            path,
            go_ips(ips.iter().copied()),
            "may specify no more than one IP for each IP family",
        ));
    }
}

/// Go's `validatePodIPs` (1.37 also: `podIP` set exactly when `podIPs` is, and equal to
/// its first).
fn pod_ips(status: &PodStatus, old: &PodStatus, errs: &mut ErrorList) {
    let path = Path::new("status");
    let path = path.child("podIPs");
    let ips: Vec<&str> = status.pod_ips.iter().map(|p| p.ip.as_str()).collect();
    let old_ips: Vec<&str> = old.pod_ips.iter().map(|p| p.ip.as_str()).collect();
    ip_list(&ips, &old_ips, &path, errs);
    if cfg!(feature = "v1_37") {
        match ips.first() {
            None if !status.pod_ip.is_empty() => errs.push(Error::invalid(
                &path,
                go_ips(ips.iter().copied()),
                "podIP and podIPs must either both be set or both be unset",
            )),
            Some(_) if status.pod_ip.is_empty() => errs.push(Error::invalid(
                &path,
                go_ips(ips.iter().copied()),
                "podIP and podIPs must either both be set or both be unset",
            )),
            Some(first) if *first != status.pod_ip => errs.push(Error::invalid(
                &path.index(0).child("ip"),
                *first,
                "must be equal to `podIP`",
            )),
            _ => {}
        }
    }
}

/// Go's `validateHostIPs`: with `hostIPs`, `hostIP` its first, then [`ip_list`].
fn host_ips(status: &PodStatus, old: &PodStatus, errs: &mut ErrorList) {
    let Some(first) = status.host_ips.first() else {
        return;
    };
    let path = Path::new("status");
    let path = path.child("hostIPs");
    if status.host_ip != first.ip {
        errs.push(Error::invalid(
            &path.index(0).child("ip"),
            &first.ip,
            "must be equal to `hostIP`",
        ));
    }
    let ips: Vec<&str> = status.host_ips.iter().map(|p| p.ip.as_str()).collect();
    let old_ips: Vec<&str> = old.host_ips.iter().map(|p| p.ip.as_str()).collect();
    ip_list(&ips, &old_ips, &path, errs);
}
