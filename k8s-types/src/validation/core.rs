//! The core group's validation (Go's `pkg/apis/core/validation`): Pod and PodSpec
//! (containers, init and ephemeral containers, volumes and their sources, ports,
//! env/envFrom, probes and lifecycle handlers, resources, security contexts,
//! restart and DNS policies, hostname/subdomain, tolerations, node affinity), Service,
//! ConfigMap, Secret, Namespace and ServiceAccount.

use std::collections::BTreeSet;

use apimachinery::apis::meta::v1::validation::{
    FIELD_IMMUTABLE_ERROR_MSG, IS_NEGATIVE_ERROR_MSG, name_is_dns_label, name_is_dns_subdomain,
    validate_labels,
};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{
    inclusive_range_error, is_config_map_key, is_dns1123_label, is_dns1123_subdomain,
    is_qualified_name, is_relaxed_env_var_name, is_valid_port_name, is_valid_port_num,
};

use super::pod_dns::{validate_host_aliases, validate_pod_dns_config};
use super::pod_placement::{
    validate_affinity, validate_scheduling_gates, validate_topology_spread_constraints,
};
use super::pod_security::{
    check_host_port_conflicts, validate_host_network_deps, validate_host_users,
    validate_local_descending_path, validate_os, validate_pod_security_context,
    validate_security_context,
};
use super::{
    invalid_each, json_value, non_negative, validate_object_meta, validate_object_meta_update,
};
use crate::core::v1::{
    ConfigMap, Container, ContainerPort, ContainerResizePolicy, EnvFromSource, EnvVar,
    EphemeralContainer, HTTPGetAction, LifecycleHandler, Namespace, Pod, PodResourceClaim, PodSpec,
    Probe, ResourceRequirements, Secret, SecurityContext, ServiceAccount, Toleration, Volume,
    VolumeDevice, VolumeMount,
};
use crate::value::{IntOrString, Quantity};

mod endpoints;
pub(super) mod event;
mod quota;
mod service;
mod service_ips;
pub use endpoints::*;
pub use event::{
    EventVersion, EventView, validate_event, validate_event_create, validate_event_update,
    validate_event_view_update,
};
pub use quota::*;
pub use service::*;

/// Go's `MaxSecretSize` (also a ConfigMap's limit): 1 MiB.
pub const MAX_SECRET_SIZE: usize = 1024 * 1024;

const SUPPORTED_PORT_PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];
const PULL_POLICIES: &[&str] = &["Always", "IfNotPresent", "Never"];
const RESTART_POLICIES: &[&str] = &["Always", "OnFailure", "Never"];
const DNS_POLICIES: &[&str] = &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"];
const TERMINATION_MESSAGE_POLICIES: &[&str] = &["File", "FallbackToLogsOnError"];
const MOUNT_PROPAGATIONS: &[&str] = &["Bidirectional", "HostToContainer", "None"];
const FILE_MODE_ERROR_MSG: &str = "must be a number between 0 and 0777 (octal), both inclusive";

/// Go's `ValidatePortNumOrName`: a port number 1–65535 or an IANA port name.
pub(super) fn validate_port_num_or_name(port: &IntOrString, path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    match port {
        IntOrString::Int(n) => {
            for msg in is_valid_port_num(i64::from(*n)) {
                errs.push(Error::invalid(path, *n, msg));
            }
        }
        IntOrString::String(s) => invalid_each(&mut errs, path, s, is_valid_port_name(s)),
    }
    errs
}

fn protocol(value: &str, path: &Path, errs: &mut ErrorList) {
    if value.is_empty() {
        errs.push(Error::required(path, ""));
    } else if !SUPPORTED_PORT_PROTOCOLS.contains(&value) {
        errs.push(Error::not_supported(path, value, SUPPORTED_PORT_PROTOCOLS));
    }
}

/// One of an enumeration, required (Go's `switch` with a `case ""` that is Required).
fn one_of(value: &str, allowed: &[&str], path: &Path, errs: &mut ErrorList) {
    if value.is_empty() {
        errs.push(Error::required(path, ""));
    } else if !allowed.contains(&value) {
        errs.push(Error::not_supported(path, value, allowed));
    }
}

/// Go's `ValidatePod`: metadata (a DNS subdomain name, namespaced) and the spec.
pub fn validate_pod(pod: &Pod) -> ErrorList {
    let mut errs = validate_object_meta(
        &pod.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    errs.extend(validate_pod_spec_for(&pod.spec, &Path::new("spec"), true));
    errs
}

const POD_UPDATE_MESSAGE: &str = "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/// Go's `ValidatePodUpdate`: the metadata's identity kept and the spec unchanged but for
/// container images, `activeDeadlineSeconds`, added tolerations and a negative grace
/// period set to 1. Go appends a dump of the difference to the message; this
/// message stops before it.
pub fn validate_pod_update(new: &Pod, old: &Pod) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(validate_pod_spec_for(&new.spec, &Path::new("spec"), true));
    let mut munged = new.spec.clone();
    let (new_c, old_c) = (munged.containers.as_mut(), old.spec.containers.as_ref());
    if let (Some(n), Some(o)) = (new_c, old_c) {
        if n.len() == o.len() {
            for (n, o) in n.iter_mut().zip(o) {
                n.image.clone_from(&o.image);
            }
        }
    }
    if munged.init_containers.len() == old.spec.init_containers.len() {
        for (n, o) in munged
            .init_containers
            .iter_mut()
            .zip(&old.spec.init_containers)
        {
            n.image.clone_from(&o.image);
        }
    }
    munged.active_deadline_seconds = old.spec.active_deadline_seconds;
    if old
        .spec
        .tolerations
        .iter()
        .all(|t| munged.tolerations.contains(t))
    {
        munged.tolerations.clone_from(&old.spec.tolerations);
    }
    if old
        .spec
        .termination_grace_period_seconds
        .is_some_and(|g| g < 0)
        && munged.termination_grace_period_seconds == Some(1)
    {
        munged.termination_grace_period_seconds = old.spec.termination_grace_period_seconds;
    }
    if munged != old.spec {
        errs.push(Error::forbidden(&Path::new("spec"), POD_UPDATE_MESSAGE));
    }
    errs
}

/// Go's `ValidatePodSpec`, the parts named in the crate docs, in Go's order (so that
/// the aggregated message lists the errors as kube-apiserver does).
pub fn validate_pod_spec(spec: &PodSpec, path: &Path) -> ErrorList {
    validate_pod_spec_for(spec, path, false)
}

/// [`validate_pod_spec`], with Go's `ResourceIsPod` option: a Pod's own spec (rather
/// than a template's) must have its host-network ports' `hostPort` set.
fn validate_pod_spec_for(spec: &PodSpec, path: &Path, resource_is_pod: bool) -> ErrorList {
    let mut errs = ErrorList::default();
    if spec.termination_grace_period_seconds.is_none() {
        errs.push(Error::required(
            &path.child("terminationGracePeriodSeconds"),
            "",
        ));
    }
    let volumes = validate_volumes(&spec.volumes, &path.child("volumes"), &mut errs);
    let pod = PodFacts {
        // Go's default for `hostUsers` is true: only an explicit false is a user namespace.
        host_users: spec.host_users != Some(false),
        grace_period: spec.termination_grace_period_seconds,
        restart_policy: &spec.restart_policy,
        block_volumes: spec
            .volumes
            .iter()
            .filter(|v| v.persistent_volume_claim.is_some() || v.ephemeral.is_some())
            .map(|v| v.name.as_str())
            .collect(),
    };
    validate_pod_resource_claims(
        &spec.resource_claims,
        &path.child("resourceClaims"),
        &mut errs,
    );
    // Regular containers first: a name repeated by an init or ephemeral container is
    // reported on the later one, as Go does.
    let mut names = BTreeSet::new();
    let containers = spec.containers.as_deref().unwrap_or_default();
    let cpath = path.child("containers");
    if containers.is_empty() {
        errs.push(Error::required(&cpath, ""));
    }
    for (i, c) in containers.iter().enumerate() {
        validate_container(
            c.into(),
            &cpath.index(i),
            &volumes,
            &mut names,
            Role::Regular,
            &pod,
            &mut errs,
        );
    }
    check_host_port_conflicts(containers.iter().map(|c| &c.ports[..]), &cpath, &mut errs);
    let init_path = path.child("initContainers");
    for (i, c) in spec.init_containers.iter().enumerate() {
        let p = init_path.index(i);
        let role = Role::Init;
        validate_container(c.into(), &p, &volumes, &mut names, role, &pod, &mut errs);
        // Init containers run one at a time: Go checks each alone, and reports it at
        // index 0 whatever its place.
        check_host_port_conflicts([&c.ports[..]], &init_path, &mut errs);
    }
    let ephemeral_path = path.child("ephemeralContainers");
    for (i, c) in spec.ephemeral_containers.iter().enumerate() {
        let p = ephemeral_path.index(i);
        let view = ContainerView {
            name: &c.name,
            image: &c.image,
            ports: &c.ports,
            env: &c.env,
            env_from: &c.env_from,
            resources: &c.resources,
            volume_mounts: &c.volume_mounts,
            volume_devices: &c.volume_devices,
            resize_policy: &c.resize_policy,
            liveness: c.liveness_probe.as_ref(),
            readiness: c.readiness_probe.as_ref(),
            startup: c.startup_probe.as_ref(),
            lifecycle: c.lifecycle.as_ref().map(|l| (&l.post_start, &l.pre_stop)),
            termination_message_policy: &c.termination_message_policy,
            image_pull_policy: &c.image_pull_policy,
            security_context: c.security_context.as_ref(),
            restart_policy: c.restart_policy.as_deref(),
        };
        let role = Role::Ephemeral;
        validate_container(view, &p, &volumes, &mut names, role, &pod, &mut errs);
        validate_ephemeral_only(c, spec, &p, &mut errs);
    }
    validate_host_network_deps(spec, path, resource_is_pod, &mut errs);
    one_of(
        &spec.restart_policy,
        RESTART_POLICIES,
        &path.child("restartPolicy"),
        &mut errs,
    );
    one_of(
        &spec.dns_policy,
        DNS_POLICIES,
        &path.child("dnsPolicy"),
        &mut errs,
    );
    errs.extend(validate_labels(
        &spec.node_selector,
        &path.child("nodeSelector"),
    ));
    validate_pod_security_context(spec, path, &mut errs);
    if let Some(affinity) = &spec.affinity {
        validate_affinity(affinity, &path.child("affinity"), &mut errs);
    }
    validate_pod_dns_config(
        spec.dns_config.as_ref(),
        &spec.dns_policy,
        &path.child("dnsConfig"),
        &mut errs,
    );
    let rg = path.child("readinessGates");
    for (i, g) in spec.readiness_gates.iter().enumerate() {
        let ip = rg.index(i);
        invalid_each(
            &mut errs,
            &ip.child("conditionType"),
            &g.condition_type,
            is_qualified_name(&g.condition_type),
        );
    }
    validate_scheduling_gates(
        &spec.scheduling_gates,
        &path.child("schedulingGates"),
        &mut errs,
    );
    validate_topology_spread_constraints(
        &spec.topology_spread_constraints,
        &path.child("topologySpreadConstraints"),
        &mut errs,
    );
    validate_host_users(spec, path, &mut errs);
    if !spec.service_account_name.is_empty() {
        invalid_each(
            &mut errs,
            &path.child("serviceAccountName"),
            &spec.service_account_name,
            name_is_dns_subdomain(&spec.service_account_name, false),
        );
    }
    if !spec.node_name.is_empty() {
        invalid_each(
            &mut errs,
            &path.child("nodeName"),
            &spec.node_name,
            name_is_dns_subdomain(&spec.node_name, false),
        );
    }
    if let Some(ads) = spec.active_deadline_seconds {
        if !(1..=i64::from(i32::MAX)).contains(&ads) {
            errs.push(Error::invalid(
                &path.child("activeDeadlineSeconds"),
                ads,
                inclusive_range_error(1, i64::from(i32::MAX)),
            ));
        }
    }
    for (field, value) in [("hostname", &spec.hostname), ("subdomain", &spec.subdomain)] {
        if !value.is_empty() {
            invalid_each(
                &mut errs,
                &path.child(field),
                value,
                is_dns1123_label(value),
            );
        }
    }
    errs.extend(validate_tolerations(
        &spec.tolerations,
        &path.child("tolerations"),
    ));
    validate_host_aliases(&spec.host_aliases, &path.child("hostAliases"), &mut errs);
    if !spec.priority_class_name.is_empty() {
        invalid_each(
            &mut errs,
            &path.child("priorityClassName"),
            &spec.priority_class_name,
            name_is_dns_subdomain(&spec.priority_class_name, false),
        );
    }
    if let Some(rc) = &spec.runtime_class_name {
        invalid_each(
            &mut errs,
            &path.child("runtimeClassName"),
            rc,
            name_is_dns_subdomain(rc, false),
        );
    }
    if let Some(pp) = &spec.preemption_policy {
        one_of(
            pp,
            &["PreemptLowerPriority", "Never"],
            &path.child("preemptionPolicy"),
            &mut errs,
        );
    }
    if !spec.overhead.is_empty() {
        // Go's `validateOverhead` reuses the container rules with the overhead as limits.
        let overhead = ResourceRequirements {
            limits: spec.overhead.clone(),
            ..ResourceRequirements::default()
        };
        errs.extend(validate_resource_requirements(
            &overhead,
            &path.child("overhead"),
        ));
    }
    validate_os(spec, path, &mut errs);
    errs
}

/// Go's `validatePodResourceClaims`: names (DNS labels, unique) and exactly one of
/// `resourceClaimName` and `resourceClaimTemplateName`, each a DNS subdomain.
fn validate_pod_resource_claims(claims: &[PodResourceClaim], path: &Path, errs: &mut ErrorList) {
    let mut names = BTreeSet::new();
    for (i, claim) in claims.iter().enumerate() {
        let p = path.index(i);
        let np = p.child("name");
        if claim.name.is_empty() {
            errs.push(Error::required(&np, ""));
        } else if names.contains(claim.name.as_str()) {
            errs.push(Error::duplicate(&np, &claim.name));
        } else {
            invalid_each(errs, &np, &claim.name, is_dns1123_label(&claim.name));
            names.insert(claim.name.as_str());
        }
        match (&claim.resource_claim_name, &claim.resource_claim_template_name) {
            (Some(_), Some(_)) => errs.push(Error::invalid(
                &p,
                json_value(claim),
                "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified",
            )),
            (None, None) => errs.push(Error::invalid(
                &p,
                json_value(claim),
                "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`",
            )),
            _ => {}
        }
        for (field, name) in [
            ("resourceClaimName", &claim.resource_claim_name),
            (
                "resourceClaimTemplateName",
                &claim.resource_claim_template_name,
            ),
        ] {
            if let Some(name) = name {
                invalid_each(
                    errs,
                    &p.child(field),
                    name,
                    name_is_dns_subdomain(name, false),
                );
            }
        }
    }
}

/// Go's `ValidateTolerations`.
pub fn validate_tolerations(tolerations: &[Toleration], path: &Path) -> ErrorList {
    // Operators and effects are named string types: Go prints them as JSON.
    let named = BadValue::json_string;
    let mut errs = ErrorList::default();
    for (i, t) in tolerations.iter().enumerate() {
        let p = path.index(i);
        if !t.key.is_empty() {
            for msg in is_qualified_name(&t.key) {
                errs.push(Error::invalid(&p.child("key"), &t.key, msg));
            }
        }
        if t.key.is_empty() && t.operator != "Exists" {
            errs.push(Error::invalid(
                &p.child("operator"),
                named(&t.operator),
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        if t.toleration_seconds.is_some() && t.effect != "NoExecute" {
            errs.push(Error::invalid(
                &p.child("effect"),
                named(&t.effect),
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        match t.operator.as_str() {
            "" | "Equal" => {
                let msgs = apimachinery::util::validation::is_valid_label_value(&t.value);
                if !msgs.is_empty() {
                    errs.push(Error::invalid(
                        &p.child("operator"),
                        &t.value,
                        msgs.join(";"),
                    ));
                }
            }
            "Exists" => {
                if !t.value.is_empty() {
                    errs.push(Error::invalid(
                        &p.child("operator"),
                        &t.value,
                        "value must be empty when `operator` is 'Exists'",
                    ));
                }
            }
            // The comparison operators need the TaintTolerationComparisonOperators
            // feature gate, off by default in 1.36 (Go then lists them as supported,
            // and refuses them).
            "Lt" | "Gt" => errs.push(Error::not_supported(
                &p.child("operator"),
                named(&t.operator),
                &["Equal", "Exists", "Lt", "Gt"],
            )),
            _ => errs.push(Error::not_supported(
                &p.child("operator"),
                named(&t.operator),
                &["Equal", "Exists"],
            )),
        }
        if !t.effect.is_empty()
            && !["NoSchedule", "PreferNoSchedule", "NoExecute"].contains(&t.effect.as_str())
        {
            errs.push(Error::not_supported(
                &p.child("effect"),
                named(&t.effect),
                &["NoSchedule", "PreferNoSchedule", "NoExecute"],
            ));
        }
    }
    errs
}

/// What Go checks of an ephemeral container beyond the common container rules: a
/// target that names a regular or init container, no resources (Go's allow-list
/// leaves them out), no sub-paths in volume mounts.
fn validate_ephemeral_only(
    c: &EphemeralContainer,
    spec: &PodSpec,
    path: &Path,
    errs: &mut ErrorList,
) {
    let target = c.target_container_name.as_str();
    if !target.is_empty() {
        let known = spec
            .containers
            .iter()
            .flatten()
            .chain(&spec.init_containers)
            .any(|o| o.name == target);
        if !known {
            errs.push(Error::not_found(&path.child("targetContainerName"), target));
        }
    }
    // Go's allow-list, in the struct's field order.
    for (field, set) in [
        ("ports", !c.ports.is_empty()),
        ("resources", c.resources != ResourceRequirements::default()),
        ("resizePolicy", !c.resize_policy.is_empty()),
        ("restartPolicy", c.restart_policy.is_some()),
        ("livenessProbe", c.liveness_probe.is_some()),
        ("readinessProbe", c.readiness_probe.is_some()),
        ("startupProbe", c.startup_probe.is_some()),
        ("lifecycle", c.lifecycle.is_some()),
    ] {
        if set {
            errs.push(Error::forbidden(
                &path.child(field),
                "cannot be set for an Ephemeral Container",
            ));
        }
    }
    let mp = path.child("volumeMounts");
    for (i, m) in c.volume_mounts.iter().enumerate() {
        let ip = mp.index(i);
        for (field, value) in [("subPath", &m.sub_path), ("subPathExpr", &m.sub_path_expr)] {
            if !value.is_empty() {
                errs.push(Error::forbidden(
                    &ip.child(field),
                    "cannot be set for an Ephemeral Container",
                ));
            }
        }
    }
}

/// Go's `validateVolumes`: names (DNS labels, unique) and exactly one source each;
/// returns the names.
fn validate_volumes<'v>(
    volumes: &'v [Volume],
    path: &Path,
    errs: &mut ErrorList,
) -> BTreeSet<&'v str> {
    let mut names = BTreeSet::new();
    for (i, v) in volumes.iter().enumerate() {
        let p = path.index(i);
        let np = p.child("name");
        if v.name.is_empty() {
            errs.push(Error::required(&np, ""));
        } else {
            invalid_each(errs, &np, &v.name, is_dns1123_label(&v.name));
        }
        if !names.insert(v.name.as_str()) {
            errs.push(Error::duplicate(&np, &v.name));
        }
        validate_volume_source(v, &p, errs);
    }
    names
}

fn validate_volume_source(v: &Volume, path: &Path, errs: &mut ErrorList) {
    // Go's order of checks: the first source set counts, each further one is forbidden.
    let sources: [(&str, bool); 30] = [
        ("emptyDir", v.empty_dir.is_some()),
        ("hostPath", v.host_path.is_some()),
        ("gitRepo", v.git_repo.is_some()),
        ("gcePersistentDisk", v.gce_persistent_disk.is_some()),
        ("awsElasticBlockStore", v.aws_elastic_block_store.is_some()),
        ("secret", v.secret.is_some()),
        ("nfs", v.nfs.is_some()),
        ("iscsi", v.iscsi.is_some()),
        ("glusterfs", v.glusterfs.is_some()),
        ("flexVolume", v.flex_volume.is_some()),
        ("persistentVolumeClaim", v.persistent_volume_claim.is_some()),
        ("rbd", v.rbd.is_some()),
        ("cinder", v.cinder.is_some()),
        ("cephfs", v.cephfs.is_some()),
        ("flocker", v.flocker.is_some()),
        ("downwardAPI", v.downward_api.is_some()),
        ("fc", v.fc.is_some()),
        ("azureFile", v.azure_file.is_some()),
        ("configMap", v.config_map.is_some()),
        ("vsphereVolume", v.vsphere_volume.is_some()),
        ("quobyte", v.quobyte.is_some()),
        ("azureDisk", v.azure_disk.is_some()),
        ("photonPersistentDisk", v.photon_persistent_disk.is_some()),
        ("portworxVolume", v.portworx_volume.is_some()),
        ("projected", v.projected.is_some()),
        ("scaleIO", v.scale_io.is_some()),
        ("storageos", v.storageos.is_some()),
        ("csi", v.csi.is_some()),
        ("ephemeral", v.ephemeral.is_some()),
        ("image", v.image.is_some()),
    ];
    let mut count = 0;
    for (name, set) in sources {
        if !set {
            continue;
        }
        if count > 0 {
            errs.push(Error::forbidden(
                &path.child(name),
                "may not specify more than 1 volume type",
            ));
            continue;
        }
        count += 1;
        let p = path.child(name);
        match name {
            "emptyDir"
                if v.empty_dir
                    .as_ref()
                    .and_then(|e| e.size_limit.as_ref())
                    .is_some_and(|q| q.sign() < 0) =>
            {
                errs.push(Error::forbidden(
                    &p.child("sizeLimit"),
                    "SizeLimit field must be a valid resource quantity",
                ));
            }
            "hostPath" if v.host_path.as_ref().is_some_and(|h| h.path.is_empty()) => {
                errs.push(Error::required(&p.child("path"), ""));
            }
            "secret" => {
                if let Some(s) = &v.secret {
                    if s.secret_name.is_empty() {
                        errs.push(Error::required(&p.child("secretName"), ""));
                    }
                    file_mode(s.default_mode, &p.child("defaultMode"), errs);
                }
            }
            "configMap" => {
                if let Some(c) = &v.config_map {
                    if c.name.is_empty() {
                        errs.push(Error::required(&p.child("name"), ""));
                    } else {
                        invalid_each(
                            errs,
                            &p.child("name"),
                            &c.name,
                            is_dns1123_subdomain(&c.name),
                        );
                    }
                    file_mode(c.default_mode, &p.child("defaultMode"), errs);
                }
            }
            "persistentVolumeClaim"
                if v.persistent_volume_claim
                    .as_ref()
                    .is_some_and(|c| c.claim_name.is_empty()) =>
            {
                errs.push(Error::required(&p.child("claimName"), ""));
            }
            _ => {}
        }
    }
    if count == 0 {
        errs.push(Error::required(path, "must specify a volume type"));
    }
}

fn file_mode(mode: Option<i32>, path: &Path, errs: &mut ErrorList) {
    if let Some(m) = mode {
        if !(0..=0o777).contains(&m) {
            errs.push(Error::invalid(path, m, FILE_MODE_ERROR_MSG));
        }
    }
}

/// What a container's rules need to know of its pod.
struct PodFacts<'a> {
    /// False when the pod runs in its own user namespace.
    host_users: bool,
    /// The pod's `terminationGracePeriodSeconds`, bounding `sleep` actions.
    grace_period: Option<i64>,
    restart_policy: &'a str,
    /// The volumes a block device may come from (PVCs and ephemeral volumes).
    block_volumes: BTreeSet<&'a str>,
}

#[derive(Clone, Copy, PartialEq)]
enum Role {
    Init,
    Regular,
    Ephemeral,
}

/// The fields every kind of container shares, so that one function validates
/// containers, init containers and ephemeral containers alike.
struct ContainerView<'a> {
    name: &'a str,
    image: &'a str,
    ports: &'a [ContainerPort],
    env: &'a [EnvVar],
    env_from: &'a [EnvFromSource],
    resources: &'a ResourceRequirements,
    volume_mounts: &'a [VolumeMount],
    volume_devices: &'a [VolumeDevice],
    resize_policy: &'a [ContainerResizePolicy],
    liveness: Option<&'a Probe>,
    readiness: Option<&'a Probe>,
    startup: Option<&'a Probe>,
    lifecycle: Option<(&'a Option<LifecycleHandler>, &'a Option<LifecycleHandler>)>,
    termination_message_policy: &'a str,
    image_pull_policy: &'a str,
    security_context: Option<&'a SecurityContext>,
    restart_policy: Option<&'a str>,
}

impl<'a> From<&'a Container> for ContainerView<'a> {
    fn from(c: &'a Container) -> Self {
        ContainerView {
            name: &c.name,
            image: &c.image,
            ports: &c.ports,
            env: &c.env,
            env_from: &c.env_from,
            resources: &c.resources,
            volume_mounts: &c.volume_mounts,
            volume_devices: &c.volume_devices,
            resize_policy: &c.resize_policy,
            liveness: c.liveness_probe.as_ref(),
            readiness: c.readiness_probe.as_ref(),
            startup: c.startup_probe.as_ref(),
            lifecycle: c.lifecycle.as_ref().map(|l| (&l.post_start, &l.pre_stop)),
            termination_message_policy: &c.termination_message_policy,
            image_pull_policy: &c.image_pull_policy,
            security_context: c.security_context.as_ref(),
            restart_policy: c.restart_policy.as_deref(),
        }
    }
}

fn validate_container<'a>(
    c: ContainerView<'a>,
    path: &Path,
    volumes: &BTreeSet<&str>,
    names: &mut BTreeSet<&'a str>,
    role: Role,
    pod: &PodFacts,
    errs: &mut ErrorList,
) {
    // Go's `validateContainerCommon` first, then each kind's own rules.
    let np = path.child("name");
    if c.name.is_empty() {
        errs.push(Error::required(&np, ""));
    } else {
        invalid_each(errs, &np, c.name, is_dns1123_label(c.name));
    }
    if c.image.is_empty() {
        errs.push(Error::required(&path.child("image"), ""));
    } else if c.image.trim() != c.image {
        errs.push(Error::invalid(
            &path.child("image"),
            c.image,
            "must not have leading or trailing whitespace",
        ));
    }
    one_of(
        c.termination_message_policy,
        TERMINATION_MESSAGE_POLICIES,
        &path.child("terminationMessagePolicy"),
        errs,
    );
    validate_container_ports(c.ports, &path.child("ports"), errs);
    validate_env(c.env, &path.child("env"), errs);
    validate_env_from(c.env_from, &path.child("envFrom"), errs);
    let privileged = c.security_context.and_then(|sc| sc.privileged) == Some(true);
    validate_volume_mounts(&c, volumes, privileged, &path.child("volumeMounts"), errs);
    validate_volume_devices(&c, volumes, pod, &path.child("volumeDevices"), errs);
    one_of(
        c.image_pull_policy,
        PULL_POLICIES,
        &path.child("imagePullPolicy"),
        errs,
    );
    errs.extend(validate_resource_requirements(
        c.resources,
        &path.child("resources"),
    ));
    validate_resize_policy(
        c.resize_policy,
        pod.restart_policy,
        &path.child("resizePolicy"),
        errs,
    );
    if let Some(sc) = c.security_context {
        validate_security_context(sc, &path.child("securityContext"), pod.host_users, errs);
    }
    let rp = path.child("restartPolicy");
    if role == Role::Init {
        if let Some(policy) = c.restart_policy.filter(|p| *p != "Always") {
            errs.push(Error::not_supported(&rp, policy, &["Always"]));
        }
    }
    // Go leaves an init container without a name out of the set of names.
    let duplicate = if role == Role::Init && c.name.is_empty() {
        names.contains("")
    } else {
        !names.insert(c.name)
    };
    if duplicate {
        errs.push(Error::duplicate(&np, c.name));
    }
    let sidecar = role == Role::Init && c.restart_policy == Some("Always");
    match role {
        // Ephemeral containers' forbidden fields: `validate_ephemeral_only`.
        Role::Ephemeral => {}
        Role::Init if !sidecar => {
            for (field, set) in [
                ("lifecycle", c.lifecycle.is_some()),
                ("livenessProbe", c.liveness.is_some()),
                ("readinessProbe", c.readiness.is_some()),
                ("startupProbe", c.startup.is_some()),
            ] {
                if set {
                    errs.push(Error::forbidden(
                        &path.child(field),
                        "may not be set for init containers without restartPolicy=Always",
                    ));
                }
            }
        }
        _ => {
            if let Some((post_start, pre_stop)) = c.lifecycle {
                let lp = path.child("lifecycle");
                if let Some(h) = post_start {
                    validate_handler(h, pod.grace_period, &lp.child("postStart"), errs);
                }
                if let Some(h) = pre_stop {
                    validate_handler(h, pod.grace_period, &lp.child("preStop"), errs);
                }
            }
            for (field, probe, single_success) in [
                ("livenessProbe", c.liveness, true),
                ("readinessProbe", c.readiness, false),
                ("startupProbe", c.startup, true),
            ] {
                if let Some(p) = probe {
                    let pp = path.child(field);
                    validate_probe(p, &pp, errs);
                    if !single_success {
                        if let Some(g) = p.termination_grace_period_seconds {
                            errs.push(Error::invalid(
                                &pp.child("terminationGracePeriodSeconds"),
                                g,
                                "must not be set for readinessProbes",
                            ));
                        }
                    }
                    if single_success && p.success_threshold != 1 {
                        errs.push(Error::invalid(
                            &pp.child("successThreshold"),
                            p.success_threshold,
                            "must be 1",
                        ));
                    }
                }
            }
            if role == Role::Regular && c.restart_policy.is_some() {
                errs.push(Error::forbidden(
                    &rp,
                    "may not be set for non-init containers",
                ));
            }
        }
    }
}

fn validate_container_ports(ports: &[ContainerPort], path: &Path, errs: &mut ErrorList) {
    let mut names = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        let p = path.index(i);
        if !port.name.is_empty() {
            let msgs = is_valid_port_name(&port.name);
            if !msgs.is_empty() {
                invalid_each(errs, &p.child("name"), &port.name, msgs);
            } else if !names.insert(port.name.as_str()) {
                errs.push(Error::duplicate(&p.child("name"), &port.name));
            }
        }
        if port.container_port == 0 {
            errs.push(Error::required(&p.child("containerPort"), ""));
        } else {
            for msg in is_valid_port_num(i64::from(port.container_port)) {
                errs.push(Error::invalid(
                    &p.child("containerPort"),
                    port.container_port,
                    msg,
                ));
            }
        }
        if port.host_port != 0 {
            for msg in is_valid_port_num(i64::from(port.host_port)) {
                errs.push(Error::invalid(&p.child("hostPort"), port.host_port, msg));
            }
        }
        protocol(&port.protocol, &p.child("protocol"), errs);
    }
}

fn validate_env(env: &[EnvVar], path: &Path, errs: &mut ErrorList) {
    for (i, ev) in env.iter().enumerate() {
        let p = path.index(i);
        if ev.name.is_empty() {
            errs.push(Error::required(&p.child("name"), ""));
        } else {
            invalid_each(
                errs,
                &p.child("name"),
                &ev.name,
                is_relaxed_env_var_name(&ev.name),
            );
        }
        let Some(from) = &ev.value_from else { continue };
        let fp = p.child("valueFrom");
        let mut sources = 0;
        if from.field_ref.is_some() {
            sources += 1;
        }
        if from.resource_field_ref.is_some() {
            sources += 1;
        }
        if let Some(r) = &from.config_map_key_ref {
            sources += 1;
            key_ref(&r.name, &r.key, &fp.child("configMapKeyRef"), errs);
        }
        if let Some(r) = &from.secret_key_ref {
            sources += 1;
            key_ref(&r.name, &r.key, &fp.child("secretKeyRef"), errs);
        }
        if from.file_key_ref.is_some() {
            sources += 1;
        }
        if sources == 0 {
            errs.push(Error::invalid(
                &fp,
                "",
                "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`",
            ));
        } else if !ev.value.is_empty() {
            errs.push(Error::invalid(
                &fp,
                "",
                "may not be specified when `value` is not empty",
            ));
        } else if sources > 1 {
            errs.push(Error::invalid(
                &fp,
                "",
                "may not have more than one field specified at a time",
            ));
        }
    }
}

fn key_ref(name: &str, key: &str, path: &Path, errs: &mut ErrorList) {
    if key.is_empty() {
        errs.push(Error::required(&path.child("key"), ""));
    } else {
        invalid_each(errs, &path.child("key"), key, is_config_map_key(key));
    }
    if name.is_empty() {
        errs.push(Error::required(&path.child("name"), ""));
    } else {
        invalid_each(errs, &path.child("name"), name, is_dns1123_subdomain(name));
    }
}

fn validate_env_from(env_from: &[EnvFromSource], path: &Path, errs: &mut ErrorList) {
    for (i, ef) in env_from.iter().enumerate() {
        let p = path.index(i);
        if !ef.prefix.is_empty() {
            invalid_each(
                errs,
                &p.child("prefix"),
                &ef.prefix,
                is_relaxed_env_var_name(&ef.prefix),
            );
        }
        let mut sources = 0;
        for (field, name) in [
            ("configMapRef", ef.config_map_ref.as_ref().map(|r| &r.name)),
            ("secretRef", ef.secret_ref.as_ref().map(|r| &r.name)),
        ] {
            let Some(name) = name else { continue };
            sources += 1;
            let fp = p.child(field);
            let np = fp.child("name");
            if name.is_empty() {
                errs.push(Error::required(&np, ""));
            } else {
                invalid_each(errs, &np, name, is_dns1123_subdomain(name));
            }
        }
        if sources == 0 {
            errs.push(Error::invalid(
                &p,
                "",
                "must specify one of: `configMapRef` or `secretRef`",
            ));
        } else if sources > 1 {
            errs.push(Error::invalid(
                &p,
                "",
                "may not have more than one field specified at a time",
            ));
        }
    }
}

/// Go's `ValidateVolumeMounts`: a named, known volume at a unique path not used by a
/// volume device, sub-paths relative without `..` (Go reports those two and the
/// propagation on the list's path, without the index), a known mount propagation,
/// `Bidirectional` only for privileged containers.
fn validate_volume_mounts(
    c: &ContainerView,
    volumes: &BTreeSet<&str>,
    privileged: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    let mut points = BTreeSet::new();
    for (i, m) in c.volume_mounts.iter().enumerate() {
        let p = path.index(i);
        if m.name.is_empty() {
            errs.push(Error::required(&p.child("name"), ""));
        }
        if !volumes.contains(m.name.as_str()) {
            errs.push(Error::not_found(&p.child("name"), &m.name));
        }
        if m.mount_path.is_empty() {
            errs.push(Error::required(&p.child("mountPath"), ""));
        }
        if !points.insert(m.mount_path.as_str()) {
            errs.push(Error::invalid(
                &p.child("mountPath"),
                &m.mount_path,
                "must be unique",
            ));
        }
        if c.volume_devices.iter().any(|d| d.name == m.name) {
            errs.push(Error::invalid(
                &p.child("name"),
                &m.name,
                "must not already exist in volumeDevices",
            ));
        }
        if c.volume_devices
            .iter()
            .any(|d| d.device_path == m.mount_path)
        {
            errs.push(Error::invalid(
                &p.child("mountPath"),
                &m.mount_path,
                "must not already exist as a path in volumeDevices",
            ));
        }
        if !m.sub_path.is_empty() {
            validate_local_descending_path(&m.sub_path, &path.child("subPath"), errs);
        }
        if !m.sub_path_expr.is_empty() {
            if !m.sub_path.is_empty() {
                errs.push(Error::invalid(
                    &p.child("subPathExpr"),
                    &m.sub_path_expr,
                    "subPathExpr and subPath are mutually exclusive",
                ));
            }
            validate_local_descending_path(&m.sub_path_expr, &path.child("subPathExpr"), errs);
        }
        if let Some(mp) = &m.mount_propagation {
            let pp = path.child("mountPropagation");
            if !MOUNT_PROPAGATIONS.contains(&mp.as_str()) {
                errs.push(Error::not_supported(&pp, mp, MOUNT_PROPAGATIONS));
            }
            if mp == "Bidirectional" && !privileged {
                errs.push(Error::forbidden(
                    &pp,
                    "Bidirectional mount propagation is available only to privileged containers",
                ));
            }
        }
    }
}

/// Go's `ValidateVolumeDevices`: a named, unique device from a PVC or ephemeral
/// volume, at a unique path without `..`, neither used by a volume mount.
fn validate_volume_devices(
    c: &ContainerView,
    volumes: &BTreeSet<&str>,
    pod: &PodFacts,
    path: &Path,
    errs: &mut ErrorList,
) {
    let mut paths = BTreeSet::new();
    let mut names = BTreeSet::new();
    for (i, d) in c.volume_devices.iter().enumerate() {
        let p = path.index(i);
        let np = p.child("name");
        let dp = p.child("devicePath");
        let (name, dev_path) = (d.name.as_str(), d.device_path.as_str());
        let matched = volumes.contains(name);
        if name.is_empty() {
            errs.push(Error::required(&np, ""));
        }
        if names.contains(name) {
            errs.push(Error::invalid(&np, name, "must be unique"));
        }
        if matched && !pod.block_volumes.contains(name) {
            errs.push(Error::invalid(
                &np,
                name,
                "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode",
            ));
        }
        if !matched {
            errs.push(Error::not_found(&np, name));
        }
        if dev_path.is_empty() {
            errs.push(Error::required(&dp, ""));
        }
        if paths.contains(dev_path) {
            errs.push(Error::invalid(&dp, dev_path, "must be unique"));
        }
        if !dev_path.is_empty() && dev_path.split('/').any(|part| part == "..") {
            errs.push(Error::invalid(
                &dp,
                dev_path,
                "can not contain backsteps ('..')",
            ));
        } else {
            paths.insert(dev_path);
        }
        if c.volume_mounts.iter().any(|m| m.name == name) {
            errs.push(Error::invalid(
                &np,
                name,
                "must not already exist in volumeMounts",
            ));
        }
        if c.volume_mounts.iter().any(|m| m.mount_path == dev_path) {
            errs.push(Error::invalid(
                &dp,
                dev_path,
                "must not already exist as a path in volumeMounts",
            ));
        }
        if !name.is_empty() {
            names.insert(name);
        }
    }
}

/// Go's `validateResizePolicy`: each of `cpu` and `memory` once, a known restart
/// policy, `NotRequired` only when the pod never restarts. Go reports all but the
/// duplicate on the list's path.
fn validate_resize_policy(
    policies: &[ContainerResizePolicy],
    pod_restart_policy: &str,
    path: &Path,
    errs: &mut ErrorList,
) {
    let mut seen = BTreeSet::new();
    for (i, p) in policies.iter().enumerate() {
        if !seen.insert(p.resource_name.as_str()) {
            errs.push(Error::duplicate(&path.index(i), &p.resource_name));
        }
        one_of(&p.resource_name, &["cpu", "memory"], path, errs);
        one_of(
            &p.restart_policy,
            &["NotRequired", "RestartContainer"],
            path,
            errs,
        );
        if pod_restart_policy == "Never" && p.restart_policy != "NotRequired" {
            errs.push(Error::invalid(
                path,
                &p.restart_policy,
                "must be 'NotRequired' when `restartPolicy` is 'Never'",
            ));
        }
    }
}

fn validate_handler(h: &LifecycleHandler, grace: Option<i64>, path: &Path, errs: &mut ErrorList) {
    handler(
        [
            ("exec", h.exec.is_some()),
            ("httpGet", h.http_get.is_some()),
            ("tcpSocket", h.tcp_socket.is_some()),
            ("grpc", false),
            ("sleep", h.sleep.is_some()),
        ],
        path,
        errs,
    );
    if let Some(e) = &h.exec {
        if e.command.is_empty() {
            errs.push(Error::required(&path.child("exec").child("command"), ""));
        }
    }
    if let Some(g) = &h.http_get {
        http_get(g, &path.child("httpGet"), errs);
    }
    if let Some(t) = &h.tcp_socket {
        errs.extend(validate_port_num_or_name(
            &t.port,
            &path.child("tcpSocket").child("port"),
        ));
    }
    // Go's `validateSleepAction` (zero allowed, as the feature gate is on by default);
    // without a grace period the pod's own error says enough.
    if let (Some(s), Some(g)) = (&h.sleep, grace) {
        if s.seconds < 0 || s.seconds > g {
            errs.push(Error::invalid(
                &path.child("sleep"),
                s.seconds,
                format!("must be non-negative and less than terminationGracePeriodSeconds ({g})"),
            ));
        }
    }
}

fn handler(kinds: [(&str, bool); 5], path: &Path, errs: &mut ErrorList) {
    let mut count = 0;
    for (name, set) in kinds {
        if set {
            if count > 0 {
                errs.push(Error::forbidden(
                    &path.child(name),
                    "may not specify more than 1 handler type",
                ));
            } else {
                count += 1;
            }
        }
    }
    if count == 0 {
        errs.push(Error::required(path, "must specify a handler type"));
    }
}

/// Go's `IsHTTPHeaderName`.
fn is_http_header_name(name: &str) -> Vec<String> {
    let ok = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if ok {
        return Vec::new();
    }
    vec![
        "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')".to_string(),
    ]
}

fn http_get(g: &HTTPGetAction, path: &Path, errs: &mut ErrorList) {
    let (p, port, scheme) = (&g.path, &g.port, &g.scheme);
    if p.is_empty() {
        errs.push(Error::required(&path.child("path"), ""));
    }
    errs.extend(validate_port_num_or_name(port, &path.child("port")));
    if !scheme.is_empty() && scheme != "HTTP" && scheme != "HTTPS" {
        errs.push(Error::not_supported(
            &path.child("scheme"),
            scheme,
            &["HTTP", "HTTPS"],
        ));
    }
    // Go reports a bad header name on the list's path, without the index.
    let hp = path.child("httpHeaders");
    for h in &g.http_headers {
        invalid_each(errs, &hp, &h.name, is_http_header_name(&h.name));
    }
}

fn validate_probe(probe: &Probe, path: &Path, errs: &mut ErrorList) {
    handler(
        [
            ("exec", probe.exec.is_some()),
            ("httpGet", probe.http_get.is_some()),
            ("tcpSocket", probe.tcp_socket.is_some()),
            ("grpc", probe.grpc.is_some()),
            ("sleep", false),
        ],
        path,
        errs,
    );
    if let Some(e) = &probe.exec {
        if e.command.is_empty() {
            errs.push(Error::required(&path.child("exec").child("command"), ""));
        }
    }
    if let Some(g) = &probe.http_get {
        http_get(g, &path.child("httpGet"), errs);
    }
    if let Some(t) = &probe.tcp_socket {
        errs.extend(validate_port_num_or_name(
            &t.port,
            &path.child("tcpSocket").child("port"),
        ));
    }
    if let Some(g) = &probe.grpc {
        for msg in is_valid_port_num(i64::from(g.port)) {
            errs.push(Error::invalid(
                &path.child("grpc").child("port"),
                g.port,
                msg,
            ));
        }
    }
    for (field, value) in [
        ("initialDelaySeconds", probe.initial_delay_seconds),
        ("timeoutSeconds", probe.timeout_seconds),
        ("periodSeconds", probe.period_seconds),
        ("successThreshold", probe.success_threshold),
        ("failureThreshold", probe.failure_threshold),
    ] {
        non_negative(i64::from(value), &path.child(field), errs);
    }
    if let Some(g) = probe.termination_grace_period_seconds {
        if g <= 0 {
            errs.push(Error::invalid(
                &path.child("terminationGracePeriodSeconds"),
                g,
                "must be greater than 0",
            ));
        }
    }
}

/// Whether Go lets a request be below its limit (`IsOvercommitAllowed`): native
/// resources but hugepages.
fn overcommit_allowed(name: &str) -> bool {
    let native = !name.contains('/') || name.contains("kubernetes.io/");
    native && !name.starts_with("hugepages-")
}

/// Go's `standardResources` (`helper.IsStandardResourceName`, with the hugepages of
/// quota names).
const STANDARD_RESOURCES: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
];

/// Go's `validateResourceName`: a qualified name, and a standard one when it has no
/// domain. A `ResourceName` is a named string type: Go prints it as JSON.
fn validate_resource_name(name: &str, path: &Path, errs: &mut ErrorList) {
    let msgs = is_qualified_name(name);
    if !msgs.is_empty() {
        for msg in msgs {
            errs.push(Error::invalid(path, BadValue::json_string(name), msg));
        }
        return;
    }
    let standard = STANDARD_RESOURCES.contains(&name)
        || name.starts_with("hugepages-")
        || name.starts_with("requests.hugepages-");
    if !name.contains('/') && !standard {
        errs.push(Error::invalid(
            path,
            BadValue::json_string(name),
            "must be a standard resource type or fully qualified",
        ));
    }
}

/// Go's `validateContainerResourceName`: [`validate_resource_name`], then, whatever it
/// found, a name without a domain must be a container's standard resource, and one
/// outside `kubernetes.io/` an extended resource name.
fn validate_container_resource_name(name: &str, path: &Path, errs: &mut ErrorList) {
    validate_resource_name(name, path, errs);
    if !name.contains('/') {
        if !matches!(name, "cpu" | "memory" | "ephemeral-storage")
            && !name.starts_with("hugepages-")
        {
            errs.push(Error::invalid(
                path,
                BadValue::json_string(name),
                "must be a standard resource for containers",
            ));
        }
    } else if !name.contains("kubernetes.io/") && !is_extended_resource_name(name) {
        errs.push(Error::invalid(
            path,
            BadValue::json_string(name),
            "doesn't follow extended resource name standard",
        ));
    }
}

/// Go's `helper.IsExtendedResourceName` for a name with a domain outside
/// `kubernetes.io/`: not a quota name, and a qualified name once `requests.` precedes it.
fn is_extended_resource_name(name: &str) -> bool {
    !name.starts_with("requests.") && is_qualified_name(&format!("requests.{name}")).is_empty()
}

fn quantity_value(q: &Quantity, path: &Path, errs: &mut ErrorList) {
    if q.sign() < 0 {
        errs.push(Error::invalid(path, q.to_string(), IS_NEGATIVE_ERROR_MSG));
    }
}

/// Go's `ValidateContainerResourceRequirements`: standard or extended resource names,
/// quantities not negative, each request at most its limit (equal to it where
/// overcommit is not allowed: hugepages and extended resources, whose limit is then
/// required).
pub fn validate_resource_requirements(r: &ResourceRequirements, path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    let lim = path.child("limits");
    let req = path.child("requests");
    for (name, q) in &r.limits {
        let p = lim.key(name);
        validate_container_resource_name(name, &p, &mut errs);
        quantity_value(q, &p, &mut errs);
    }
    for (name, q) in &r.requests {
        let p = req.key(name);
        validate_container_resource_name(name, &p, &mut errs);
        quantity_value(q, &p, &mut errs);
        match r.limits.get(name) {
            Some(limit) if !overcommit_allowed(name) && q != limit => {
                errs.push(Error::invalid(
                    &req,
                    q.to_string(),
                    format!("must be equal to {name} limit of {limit}"),
                ));
            }
            Some(limit) if q > limit => {
                errs.push(Error::invalid(
                    &req,
                    q.to_string(),
                    format!("must be less than or equal to {name} limit of {limit}"),
                ));
            }
            None if !overcommit_allowed(name) => errs.push(Error::required(
                &lim,
                "Limit must be set for non overcommitable resources",
            )),
            _ => {}
        }
    }
    errs
}

/// Go's `ValidateConfigMap`: keys, no key in both `data` and `binaryData`, at most 1 MiB.
pub fn validate_config_map(cm: &ConfigMap) -> ErrorList {
    let mut errs = validate_object_meta(
        &cm.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let mut total = 0usize;
    let data = Path::new("data");
    for (k, v) in &cm.data {
        let p = data.key(k);
        invalid_each(&mut errs, &p, k, is_config_map_key(k));
        if cm.binary_data.contains_key(k) {
            errs.push(Error::invalid(
                &p,
                k,
                "duplicate of key present in binaryData",
            ));
        }
        total += v.len();
    }
    let binary_data = Path::new("binaryData");
    for (k, v) in &cm.binary_data {
        invalid_each(&mut errs, &binary_data.key(k), k, is_config_map_key(k));
        total += v.len();
    }
    if total > MAX_SECRET_SIZE {
        errs.push(Error::too_long(&Path::root(), MAX_SECRET_SIZE as i64));
    }
    errs
}

fn immutable_data<T: PartialEq>(
    new_immutable: Option<bool>,
    old_immutable: Option<bool>,
    fields: &[(&str, &T, &T)],
) -> ErrorList {
    let mut errs = ErrorList::default();
    if old_immutable == Some(true) {
        if new_immutable != Some(true) {
            errs.push(Error::forbidden(
                &Path::new("immutable"),
                "field is immutable when `immutable` is set",
            ));
        }
        for (name, new, old) in fields {
            if new != old {
                errs.push(Error::forbidden(
                    &Path::new(name),
                    "field is immutable when `immutable` is set",
                ));
            }
        }
    }
    errs
}

/// Go's `ValidateConfigMapUpdate`: once `immutable`, `data` and `binaryData` stay.
pub fn validate_config_map_update(new: &ConfigMap, old: &ConfigMap) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(immutable_data(
        new.immutable,
        old.immutable,
        &[("data", &new.data, &old.data)],
    ));
    if old.immutable == Some(true) && new.binary_data != old.binary_data {
        errs.push(Error::forbidden(
            &Path::new("binaryData"),
            "field is immutable when `immutable` is set",
        ));
    }
    errs.extend(validate_config_map(new));
    errs
}

/// Go's `ValidateSecret`: keys, at most 1 MiB, and each built-in type's required keys
/// (`kubernetes.io/service-account-token`'s annotation, `.dockercfg`,
/// `.dockerconfigjson` as JSON, basic-auth, ssh-auth and TLS keys).
pub fn validate_secret(s: &Secret) -> ErrorList {
    let mut errs = validate_object_meta(
        &s.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let dp = Path::new("data");
    let mut total = 0usize;
    for (k, v) in &s.data {
        invalid_each(&mut errs, &dp.key(k), k, is_config_map_key(k));
        total += v.len();
    }
    if total > MAX_SECRET_SIZE {
        errs.push(Error::too_long(&dp, MAX_SECRET_SIZE as i64));
    }
    let has = |k: &str| s.data.get(k).is_some_and(|v| !v.is_empty());
    match s.r#type.as_str() {
        "kubernetes.io/service-account-token" => {
            let key = "kubernetes.io/service-account.name";
            if s.metadata.annotations.get(key).is_none_or(String::is_empty) {
                errs.push(Error::required(
                    &Path::new("metadata").child("annotations").key(key),
                    "",
                ));
            }
        }
        "kubernetes.io/dockercfg" | "kubernetes.io/dockerconfigjson" => {
            let key = if s.r#type == "kubernetes.io/dockercfg" {
                ".dockercfg"
            } else {
                ".dockerconfigjson"
            };
            match s.data.get(key) {
                // Go's json.Unmarshal into a map, and its message.
                Some(v) => {
                    if let Some(msg) = apimachinery::util::json::unmarshal_into_map_error(v) {
                        errs.push(Error::invalid(
                            &dp.key(key),
                            "<secret contents redacted>",
                            msg,
                        ));
                    }
                }
                None => errs.push(Error::required(&dp.key(key), "")),
            }
        }
        "kubernetes.io/basic-auth"
            if !s.data.contains_key("username") && !s.data.contains_key("password") =>
        {
            errs.push(Error::required(&dp.key("username"), ""));
            errs.push(Error::required(&dp.key("password"), ""));
        }
        "kubernetes.io/ssh-auth" if !has("ssh-privatekey") => {
            errs.push(Error::required(&dp.key("ssh-privatekey"), ""));
        }
        "kubernetes.io/tls" => {
            for key in ["tls.crt", "tls.key"] {
                if !s.data.contains_key(key) {
                    errs.push(Error::required(&dp.key(key), ""));
                }
            }
        }
        _ => {}
    }
    errs
}

/// Go's `ValidateSecretUpdate`: `type` kept, and `data` kept once `immutable`.
pub fn validate_secret_update(new: &Secret, old: &Secret) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    if new.r#type != old.r#type {
        errs.push(Error::invalid(
            &Path::new("type"),
            BadValue::json_string(&new.r#type),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs.extend(immutable_data(
        new.immutable,
        old.immutable,
        &[("data", &new.data, &old.data)],
    ));
    errs.extend(validate_secret(new));
    errs
}

/// Go's `ValidateNamespace`: a DNS-1123 label name, cluster-scoped, and finalizer names.
pub fn validate_namespace(ns: &Namespace) -> ErrorList {
    let mut errs = validate_object_meta(
        &ns.metadata,
        false,
        name_is_dns_label,
        &Path::new("metadata"),
    );
    // Go checks each spec finalizer against the list's path, without an index.
    let spec = Path::new("spec");
    let finalizers = spec.child("finalizers");
    for f in &ns.spec.finalizers {
        errs.extend(super::object_meta::validate_finalizer_name(f, &finalizers));
    }
    errs
}

/// Go's `ValidateServiceAccount`: a DNS subdomain name, namespaced.
pub fn validate_service_account(sa: &ServiceAccount) -> ErrorList {
    validate_object_meta(
        &sa.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    )
}

/// Go's `ValidatePodTemplateSpec` under `path`: labels, annotations and the pod spec.
pub fn validate_pod_template_spec(t: &crate::core::v1::PodTemplateSpec, path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    let mp = path.child("metadata");
    errs.extend(validate_labels(&t.metadata.labels, &mp.child("labels")));
    errs.extend(
        apimachinery::apis::meta::v1::validation::validate_annotations(
            &t.metadata.annotations,
            &mp.child("annotations"),
        ),
    );
    errs.extend(validate_pod_spec(&t.spec, &path.child("spec")));
    errs
}
