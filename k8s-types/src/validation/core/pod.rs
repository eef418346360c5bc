//! Pods (Go's `ValidatePod`, `ValidatePodUpdate`) and their spec (`ValidatePodSpec`,
//! `ValidatePodTemplateSpec`): the spec's own fields, its resource claims and
//! tolerations, and what only an ephemeral container may not set.

use std::collections::BTreeSet;

use apimachinery::apis::meta::v1::validation::{name_is_dns_subdomain, validate_labels};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{
    inclusive_range_error, is_dns1123_label, is_dns1123_subdomain, is_qualified_name,
};

use crate::core::v1::{
    EphemeralContainer, Pod, PodResourceClaim, PodSchedulingGroup, PodSpec, ResourceRequirements,
    Toleration,
};
use crate::validation::go_value::go_json;
use crate::validation::pod_dns::{validate_host_aliases, validate_pod_dns_config};
use crate::validation::pod_host_process::validate_windows_host_process_pod;
use crate::validation::pod_placement::{
    validate_affinity, validate_scheduling_gates, validate_topology_spread_constraints,
};
use crate::validation::pod_security::{
    check_host_port_conflicts, validate_host_network_deps, validate_host_users, validate_os,
    validate_pod_security_context,
};
use crate::validation::{invalid_each, validate_object_meta};

use super::containers::{
    ContainerView, PodFacts, Role, validate_container, validate_image_only_for_pod,
};
use super::pod_annotations::{
    old_cost_invalid, validate_annotations_match_fields, validate_pod_annotations,
};
use super::resources::{validate_pod_resources, validate_resource_requirements};
use super::volume_sources::VolumeOwner;
use super::volumes::validate_volumes;
use super::{DNS_POLICIES, RESTART_POLICIES, one_of};

/// Go's `ValidatePodCreate`: metadata (a DNS subdomain name, namespaced), the pod's
/// annotations and spec, no ephemeral containers yet, no node while scheduling gates
/// remain, and the seccomp and AppArmor annotations in agreement with their fields.
pub fn validate_pod(pod: &Pod) -> ErrorList {
    let mut errs = validate_pod_metadata_and_spec(pod, None);
    let spec = Path::new("spec");
    if !pod.spec.ephemeral_containers.is_empty() {
        errs.push(Error::forbidden(
            &spec.child("ephemeralContainers"),
            "cannot be set on create",
        ));
    }
    if !pod.spec.node_name.is_empty() && !pod.spec.scheduling_gates.is_empty() {
        errs.push(Error::forbidden(
            &spec.child("nodeName"),
            "cannot be set until all schedulingGates have been cleared",
        ));
    }
    validate_annotations_match_fields(pod, &spec, &mut errs);
    errs
}

/// Go's `validatePodMetadataAndSpec`, what create and update both check: the
/// metadata, the pod's own annotations, the spec (as a pod's, with the options `old`
/// gives), no service account token projected without a service account, and the
/// containers' images without surrounding whitespace.
pub(super) fn validate_pod_metadata_and_spec(pod: &Pod, old: Option<&Pod>) -> ErrorList {
    let meta = Path::new("metadata");
    let mut errs = validate_object_meta(&pod.metadata, true, name_is_dns_subdomain, &meta);
    validate_pod_annotations(
        &pod.metadata.annotations,
        &pod.spec,
        old.is_some_and(old_cost_invalid),
        &meta.child("annotations"),
        &mut errs,
    );
    let spec = Path::new("spec");
    let old_spec = old.map(|o| &o.spec);
    let owner = VolumeOwner {
        pod_name: Some(&pod.metadata.name),
        resource_is_pod: true,
        ..VolumeOwner::default()
    };
    errs.extend(validate_pod_spec_for(&pod.spec, old_spec, &spec, owner));
    if pod.spec.service_account_name.is_empty() {
        let vp = spec.child("volumes");
        for (vi, v) in pod.spec.volumes.iter().enumerate() {
            let Some(projected) = &v.projected else {
                continue;
            };
            let vip = vp.index(vi);
            let sp = vip.child("projected");
            let sources = sp.child("sources");
            for (si, source) in projected.sources.iter().flatten().enumerate() {
                if source.service_account_token.is_some() {
                    errs.push(Error::forbidden(
                        &sources.index(si).child("serviceAccountToken"),
                        "must not be specified when serviceAccountName is not set",
                    ));
                }
            }
        }
    }
    let containers = pod.spec.containers.iter().flatten();
    for (field, list) in [
        ("containers", containers.collect::<Vec<_>>()),
        ("initContainers", pod.spec.init_containers.iter().collect()),
    ] {
        let lp = spec.child(field);
        for (i, c) in list.into_iter().enumerate() {
            validate_image_only_for_pod(&c.image, &lp.index(i), &mut errs);
        }
    }
    errs
}

/// Go's `ValidatePodSpec`, the parts named in the crate docs, in Go's order (so that
/// the aggregated message lists the errors as kube-apiserver does).
pub fn validate_pod_spec(spec: &PodSpec, path: &Path) -> ErrorList {
    validate_pod_spec_for(spec, None, path, VolumeOwner::default())
}

/// [`validate_pod_spec`], with Go's `ResourceIsPod` option: a Pod's own spec (rather
/// than a template's) must have its host-network ports' `hostPort` set; `old` is the
/// spec an update replaces (Go's options computed from it).
pub(super) fn validate_pod_spec_for(
    spec: &PodSpec,
    old: Option<&PodSpec>,
    path: &Path,
    owner: VolumeOwner,
) -> ErrorList {
    let mut errs = ErrorList::default();
    if spec.termination_grace_period_seconds.is_none() {
        errs.push(Error::required(
            &path.child("terminationGracePeriodSeconds"),
            "",
        ));
    }
    let owner = VolumeOwner {
        allow_empty_image_reference: old.is_some_and(|o| {
            o.volumes
                .iter()
                .any(|v| v.image.as_ref().is_some_and(|i| i.reference.is_empty()))
        }),
        ..owner
    };
    let volumes = validate_volumes(&spec.volumes, owner, &path.child("volumes"), &mut errs);
    let pod = PodFacts {
        // Go's default for `hostUsers` is true: only an explicit false is a user namespace.
        host_users: spec.host_users != Some(false),
        grace_period: spec.termination_grace_period_seconds,
        restart_policy: &spec.restart_policy,
        os: spec.os.as_ref().map(|os| os.name.as_str()),
        block_volumes: spec
            .volumes
            .iter()
            .filter(|v| v.persistent_volume_claim.is_some() || v.ephemeral.is_some())
            .map(|v| v.name.as_str())
            .collect(),
        #[cfg(feature = "v1_37")]
        image_volumes: spec
            .volumes
            .iter()
            .filter(|v| v.image.is_some())
            .map(|v| v.name.as_str())
            .collect(),
        allow_sys_admin_without_escalation:
            crate::validation::pod_security::allow_sys_admin_without_escalation(old),
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
    // An ephemeral container's name must differ from every other container's, an init
    // container's empty name included (Go's `validateEphemeralContainers` collects them
    // all, where the init containers' own check leaves the empty one out).
    if spec.init_containers.iter().any(|c| c.name.is_empty()) {
        names.insert("");
    }
    let ephemeral_path = path.child("ephemeralContainers");
    for (i, c) in spec.ephemeral_containers.iter().enumerate() {
        let p = ephemeral_path.index(i);
        let view = ContainerView::from(c);
        let role = Role::Ephemeral;
        validate_container(view, &p, &volumes, &mut names, role, &pod, &mut errs);
        validate_ephemeral_only(c, spec, &p, &mut errs);
    }
    validate_pod_resources(spec, path, &mut errs);
    validate_host_network_deps(spec, path, owner.resource_is_pod, &mut errs);
    validate_windows_host_process_pod(spec, path, &mut errs);
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
    validate_pod_security_context(spec, old, path, &mut errs);
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
    validate_host_users(spec, old, path, &mut errs);
    validate_pod_host_name(spec, path, &mut errs);
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
    if let Some(group) = &spec.scheduling_group {
        validate_scheduling_group(group, &path.child("schedulingGroup"), &mut errs);
    }
    // 1.37: a pod in a scheduling group takes no eviction responders (the hand-written
    // error; the declarative `dependentForbidden` one is alpha).
    #[cfg(feature = "v1_37")]
    if spec.scheduling_group.is_some() && !spec.eviction_responders.is_empty() {
        errs.push(Error::forbidden(
            &path.child("schedulingGroup"),
            "may not be set when evictionResponders is set",
        ));
    }
    #[cfg(feature = "v1_37")]
    super::validate_eviction_responders(spec, old, path, &mut errs);
    errs
}

/// Go's `validatePodHostName`: a `hostnameOverride` neither with `setHostnameAsFQDN`
/// nor with `hostNetwork`, at most 64 characters, a DNS-1123 subdomain.
fn validate_pod_host_name(spec: &PodSpec, path: &Path, errs: &mut ErrorList) {
    let Some(name) = &spec.hostname_override else {
        return;
    };
    let p = path.child("hostnameOverride");
    if spec.set_hostname_as_fqdn == Some(true) {
        errs.push(Error::forbidden(
            &p,
            "may not be specified when setHostnameAsFQDN is true",
        ));
    }
    if spec.host_network {
        errs.push(Error::forbidden(
            &p,
            "may not be specified when hostNetwork is true",
        ));
    }
    if name.len() > 64 {
        errs.push(Error::too_long(&p, 64));
    }
    invalid_each(errs, &p, name, is_dns1123_subdomain(name));
}

/// Go's `validateSchedulingGroup`: a pod group named, by a DNS subdomain.
fn validate_scheduling_group(group: &PodSchedulingGroup, path: &Path, errs: &mut ErrorList) {
    let p = path.child("podGroupName");
    match &group.pod_group_name {
        None => errs.push(Error::invalid(
            &p,
            BadValue::null(),
            "must specify one of: `podGroupName`",
        )),
        Some(name) => invalid_each(errs, &p, name, name_is_dns_subdomain(name, false)),
    }
}

/// Go's `validatePodResourceClaims`: names (DNS labels, unique) and exactly one of
/// `resourceClaimName` and `resourceClaimTemplateName`, each a DNS subdomain.
pub(super) fn validate_pod_resource_claims(
    claims: &[PodResourceClaim],
    path: &Path,
    errs: &mut ErrorList,
) {
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
        // Go prints its internal PodResourceClaim, whose fields have no JSON tags.
        #[derive(serde::Serialize)]
        #[serde(rename_all = "PascalCase")]
        struct GoPodResourceClaim<'a> {
            name: &'a str,
            resource_claim_name: Option<&'a str>,
            resource_claim_template_name: Option<&'a str>,
        }
        let go_claim = || {
            go_json(&GoPodResourceClaim {
                name: &claim.name,
                resource_claim_name: claim.resource_claim_name.as_deref(),
                resource_claim_template_name: claim.resource_claim_template_name.as_deref(),
            })
        };
        match (&claim.resource_claim_name, &claim.resource_claim_template_name) {
            (Some(_), Some(_)) => errs.push(Error::invalid(
                &p,
                go_claim(),
                "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified",
            )),
            (None, None) => errs.push(Error::invalid(
                &p,
                go_claim(),
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
pub(super) fn validate_ephemeral_only(
    c: &EphemeralContainer,
    spec: &PodSpec,
    path: &Path,
    errs: &mut ErrorList,
) {
    validate_image_only_for_pod(&c.image, path, errs);
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
        ("restartPolicyRules", !c.restart_policy_rules.is_empty()),
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

/// Go's `ValidatePodTemplateSpec` under `path`: labels and annotations (Go's paths
/// leave out `metadata`: `template.labels`), the pod spec, and no ephemeral containers.
pub fn validate_pod_template_spec(t: &crate::core::v1::PodTemplateSpec, path: &Path) -> ErrorList {
    pod_template_spec(t, None, path)
}

/// [`validate_pod_template_spec`] for an update from `old`: Go computes the pod
/// validation options from the old template (`GetValidationOptionsFromPodTemplate`),
/// so what the old template already used (an SELinux change policy, host namespaces
/// or volume devices with `hostUsers: false`, ...) stays allowed.
pub fn validate_pod_template_spec_update(
    t: &crate::core::v1::PodTemplateSpec,
    old: &crate::core::v1::PodTemplateSpec,
    path: &Path,
) -> ErrorList {
    pod_template_spec(t, Some(&old.spec), path)
}

/// [`validate_pod_template_spec`] for an update of `old` (Go's options computed from
/// the old template).
pub(super) fn pod_template_spec(
    t: &crate::core::v1::PodTemplateSpec,
    old: Option<&PodSpec>,
    path: &Path,
) -> ErrorList {
    let mut errs = ErrorList::default();
    errs.extend(validate_labels(&t.metadata.labels, &path.child("labels")));
    errs.extend(
        apimachinery::apis::meta::v1::validation::validate_annotations(
            &t.metadata.annotations,
            &path.child("annotations"),
        ),
    );
    errs.extend(validate_pod_spec_for(
        &t.spec,
        old,
        &path.child("spec"),
        VolumeOwner::default(),
    ));
    if !t.spec.ephemeral_containers.is_empty() {
        errs.push(Error::forbidden(
            &path.child("spec").child("ephemeralContainers"),
            "ephemeral containers not allowed in pod template",
        ));
    }
    errs
}
