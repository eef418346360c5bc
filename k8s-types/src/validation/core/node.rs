//! `v1` Node (Go's `ValidateNode` and `ValidateNodeUpdate`, which the strategy runs
//! together on update and alone for `/status`): taints (in the spec and in the
//! `scheduler.alpha.kubernetes.io/taints` annotation), capacity and allocatable
//! quantities, swap, declared features, pod CIDRs and the fields an update keeps.

use std::collections::{BTreeMap, BTreeSet};

use apimachinery::apis::meta::v1::validation::{
    name_is_dns_label, name_is_dns_subdomain, validate_label_name,
};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::ip::{is_valid_cidr_for_legacy_field, parse_cidr_sloppy};
use apimachinery::util::validation::{is_config_map_key, is_valid_label_value};

use super::super::go_internal::GoStruct;
use super::resources::resource_quantity_value;
use crate::core::v1::{ConfigMapNodeConfigSource, Node, NodeConfigSource, Taint};
use crate::validation::{invalid_each, validate_object_meta, validate_object_meta_update};

/// Go's `core.TaintsAnnotationKey`.
const TAINTS_ANNOTATION: &str = "scheduler.alpha.kubernetes.io/taints";
const TAINT_EFFECTS: &[&str] = &["NoSchedule", "PreferNoSchedule", "NoExecute"];
const PODCIDR_CHANGE_MSG: &str = "node updates may not change podCIDR except from \"\" to valid";

/// What the main strategy runs on create: [`node_checks`], then (Kubernetes 1.37) the
/// declarative rules.
pub fn validate_node(node: &Node) -> ErrorList {
    #[allow(unused_mut)]
    let mut errs = node_checks(node);
    #[cfg(feature = "v1_37")]
    pod_preemption_policy(node, None, &mut errs);
    errs
}

/// Kubernetes 1.37's declarative rule for `spec.podPreemptionPolicy`: forbidden while
/// the alpha gate `InPlacePodVerticalScalingSchedulerPreemption` is off (as by
/// default); on update only when it changed.
#[cfg(feature = "v1_37")]
fn pod_preemption_policy(new: &Node, old: Option<&Node>, errs: &mut ErrorList) {
    let policy = &new.spec.pod_preemption_policy;
    if policy.is_some() && old.is_none_or(|old| old.spec.pod_preemption_policy != *policy) {
        errs.push(Error::forbidden(
            &Path::new("spec").child("podPreemptionPolicy"),
            "",
        ));
    }
}

/// Go's `ValidateNode`: metadata (a DNS-subdomain name), the node's annotations and
/// taints, quantities, swap capacity, declared features and pod CIDRs.
fn node_checks(node: &Node) -> ErrorList {
    let meta = Path::new("metadata");
    let mut errs = validate_object_meta(&node.metadata, false, name_is_dns_subdomain, &meta);
    node_annotations(
        &node.metadata.annotations,
        &meta.child("annotations"),
        &mut errs,
    );
    // Go reports spec taints under `metadata.taints`.
    validate_taints(&node.spec.taints, &meta.child("taints"), &mut errs);
    node_resources(node, &mut errs);
    if let Some(capacity) = node.status.node_info.swap.as_ref().and_then(|s| s.capacity) {
        if capacity <= 0 {
            errs.push(Error::invalid(
                &meta.child("nodeSwapStatus").child("capacity"),
                capacity,
                "must be greater than zero",
            ));
        }
    }
    declared_features(&node.status.declared_features, &mut errs);
    pod_cidrs(&node.spec.pod_cidrs, &mut errs);
    errs
}

/// What the main strategy runs on update: [`validate_node`] on the new node, then
/// [`validate_node_status_update`].
pub fn validate_node_update(new: &Node, old: &Node) -> ErrorList {
    let mut errs = node_checks(new);
    errs.extend(validate_node_status_update(new, old));
    #[cfg(feature = "v1_37")]
    pod_preemption_policy(new, Some(old), &mut errs);
    errs
}

#[cfg(not(feature = "v1_37"))]
fn provider_id_kept(new: &str, old: &str, spec: &Path, errs: &mut ErrorList) {
    if !old.is_empty() && old != new {
        errs.push(Error::forbidden(
            &spec.child("providerID"),
            "node updates may not change providerID except from \"\" to valid",
        ));
    }
}

/// Kubernetes 1.37: a provider ID once set is neither changed nor cleared (Go's
/// messages name no value).
#[cfg(feature = "v1_37")]
fn provider_id_kept(new: &str, old: &str, spec: &Path, errs: &mut ErrorList) {
    if old.is_empty() || old == new {
        return;
    }
    let why = if new.is_empty() {
        "field cannot be cleared once set"
    } else {
        "field cannot be modified once set"
    };
    errs.push(Error::invalid(
        &spec.child("providerID"),
        BadValue::null(),
        why,
    ));
}

/// Go's `ValidateNodeUpdate` (alone the `/status` strategy's check): metadata kept,
/// annotations, quantities, declared features, unique addresses, pod CIDRs and
/// provider ID set once, the config source and its status, taints, `externalID` kept.
pub fn validate_node_status_update(new: &Node, old: &Node) -> ErrorList {
    let meta = Path::new("metadata");
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, &meta);
    node_annotations(
        &new.metadata.annotations,
        &meta.child("annotations"),
        &mut errs,
    );
    node_resources(new, &mut errs);
    declared_features(&new.status.declared_features, &mut errs);
    let status = Path::new("status");
    let addresses = status.child("addresses");
    let mut seen = BTreeSet::new();
    for (i, a) in new.status.addresses.iter().enumerate() {
        if !seen.insert((a.r#type.as_str(), a.address.as_str())) {
            let value = GoStruct::new()
                .field("Type", a.r#type.as_str())
                .field("Address", a.address.as_str())
                .value();
            errs.push(Error::duplicate(&addresses.index(i), value));
        }
    }
    let spec = Path::new("spec");
    if !old.spec.pod_cidrs.is_empty() {
        let cidrs = spec.child("podCIDRs");
        if old.spec.pod_cidrs.len() != new.spec.pod_cidrs.len() {
            errs.push(Error::forbidden(&cidrs, PODCIDR_CHANGE_MSG));
        } else {
            for (o, n) in old.spec.pod_cidrs.iter().zip(&new.spec.pod_cidrs) {
                if o != n {
                    errs.push(Error::forbidden(&cidrs, PODCIDR_CHANGE_MSG));
                }
            }
        }
    }
    provider_id_kept(
        &new.spec.provider_id,
        &old.spec.provider_id,
        &spec,
        &mut errs,
    );
    if let Some(source) = &new.spec.config_source {
        config_source(source, false, &spec.child("configSource"), &mut errs);
    }
    if let Some(config) = &new.status.config {
        let cp = status.child("config");
        for (name, source) in [
            ("assigned", &config.assigned),
            ("active", &config.active),
            ("lastKnownGood", &config.last_known_good),
        ] {
            if let Some(source) = source {
                config_source(source, true, &cp.child(name), &mut errs);
            }
        }
    }
    validate_taints(&new.spec.taints, &meta.child("taints"), &mut errs);
    if new.spec.external_id != old.spec.external_id {
        errs.push(Error::forbidden(
            &spec.child("externalID"),
            "may not be updated",
        ));
    }
    errs
}

/// Go's `ValidateNodeSpecificAnnotations`: the taints annotation, read as a list of
/// taints and each checked. (Go also reads `scheduler.alpha.kubernetes.io/preferAvoidPods`;
/// that check is not ported: see the module list of rules left out.)
fn node_annotations(annotations: &BTreeMap<String, String>, path: &Path, errs: &mut ErrorList) {
    let Some(text) = annotations.get(TAINTS_ANNOTATION).filter(|t| !t.is_empty()) else {
        return;
    };
    // `from_slice`, as every other serde_json read of k8s-types: one reader type, one
    // copy of serde_json's parser (the text is a `&str`: the same answers).
    match serde_json::from_slice::<Vec<Taint>>(text.as_bytes()) {
        Ok(taints) => validate_taints(&taints, &path.child(TAINTS_ANNOTATION), errs),
        // Go's message is encoding/json's, whose wording serde's does not follow.
        Err(e) => errs.push(Error::invalid(path, TAINTS_ANNOTATION, e.to_string())),
    }
}

/// Go's `validateNodeTaints`: label-name keys, label values, a known effect, and each
/// (key, effect) pair once.
fn validate_taints(taints: &[Taint], path: &Path, errs: &mut ErrorList) {
    let mut unique = BTreeSet::new();
    for (i, t) in taints.iter().enumerate() {
        let p = path.index(i);
        errs.extend(validate_label_name(&t.key, &p.child("key")));
        let msgs = is_valid_label_value(&t.value);
        if !msgs.is_empty() {
            errs.push(Error::invalid(&p.child("value"), &t.value, msgs.join(";")));
        }
        let ep = p.child("effect");
        if t.effect.is_empty() {
            errs.push(Error::required(&ep, ""));
        } else if !TAINT_EFFECTS.contains(&t.effect.as_str()) {
            errs.push(Error::not_supported(
                &ep,
                BadValue::json_string(&t.effect),
                TAINT_EFFECTS,
            ));
        }
        if !unique.insert((t.effect.as_str(), t.key.as_str())) {
            let mut e = Error::duplicate(&p, taint_value(t));
            e.detail = "taints must be unique by key and effect pair".to_owned();
            errs.push(e);
        }
    }
}

/// A taint as Go's `json.Marshal` writes the internal struct.
fn taint_value(t: &Taint) -> BadValue {
    GoStruct::new()
        .field("Key", t.key.as_str())
        .field("Value", t.value.as_str())
        .field("Effect", t.effect.as_str())
        .field("TimeAdded", &t.time_added)
        .value()
}

/// Go's `ValidateNodeResources`: capacity and allocatable quantities.
fn node_resources(node: &Node, errs: &mut ErrorList) {
    let status = Path::new("status");
    for (field, map) in [
        ("capacity", &node.status.capacity),
        ("allocatable", &node.status.allocatable),
    ] {
        let p = status.child(field);
        for (name, q) in map {
            resource_quantity_value(name, q, &p.child(name), errs);
        }
    }
}

/// Go's `validateNodeDeclaredFeatures`: each name valid, the list sorted, no repeats.
fn declared_features(features: &[String], errs: &mut ErrorList) {
    let status = Path::new("status");
    let path = status.child("declaredFeatures");
    for (i, feature) in features.iter().enumerate() {
        if let Some(msg) = declared_feature_error(feature) {
            errs.push(Error::invalid(&path.index(i), feature, msg));
        }
        if let Some(next) = features.get(i + 1) {
            if feature == next {
                errs.push(Error::duplicate(&path.index(i + 1), next.as_str()));
            } else if feature > next {
                errs.push(Error::invalid(
                    &path.index(i + 1),
                    next,
                    "list must be sorted alphabetically",
                ));
            }
        }
    }
}

/// Go's `validateNodeDeclaredFeatureName`: at most 253 characters of
/// `^[A-Z][a-zA-Z0-9]*(/[a-zA-Z][a-zA-Z0-9]*)*$`.
fn declared_feature_error(name: &str) -> Option<String> {
    let quoted = apimachinery::util::validation::field::go_quote(name);
    if name.len() > 253 {
        return Some(format!(
            "invalid feature name {quoted}: must be no more than 253 characters"
        ));
    }
    let mut segments = name.split('/');
    let first_ok = segments.next().is_some_and(|s| {
        s.starts_with(|c: char| c.is_ascii_uppercase())
            && s.chars().all(|c| c.is_ascii_alphanumeric())
    });
    let rest_ok = segments.all(|s| {
        s.starts_with(|c: char| c.is_ascii_alphabetic())
            && s.chars().all(|c| c.is_ascii_alphanumeric())
    });
    (!(first_ok && rest_ok)).then(|| {
        format!(
            "invalid feature name {quoted}: must start with an UpperCamelCase segment, with subsequent segments separated by '/' (e.g., MyFeature or MyFeature/mySubFeature), and contain only alphanumeric characters and slashes"
        )
    })
}

/// Go's pod-CIDR checks: each valid (strictly, `StrictIPCIDRValidation` being on in
/// 1.36), and more than one only as one IPv4 and one IPv6 network.
fn pod_cidrs(cidrs: &[String], errs: &mut ErrorList) {
    let spec = Path::new("spec");
    let path = spec.child("podCIDRs");
    for (i, c) in cidrs.iter().enumerate() {
        errs.extend(is_valid_cidr_for_legacy_field(&path.index(i), c, true, &[]));
    }
    if cidrs.len() < 2 {
        return;
    }
    let mut families = (false, false);
    let mut parse_error = None;
    for (i, c) in cidrs.iter().enumerate() {
        match parse_cidr_sloppy(c) {
            Some(p) if p.is_ipv4() => families.0 = true,
            Some(_) => families.1 = true,
            None => {
                parse_error = Some(format!(
                    "invalid CIDR[{i}]: <nil> (invalid CIDR address: {c})"
                ));
                break;
            }
        }
    }
    let dual_stack = parse_error.is_none() && families.0 && families.1;
    if let Some(e) = parse_error {
        let why = std::io::Error::other(format!(
            "invalid PodCIDRs. failed to check with dual stack with error:{e}"
        ));
        errs.push(Error::internal_error(&path, &why));
    }
    if !dual_stack || cidrs.len() > 2 {
        errs.push(Error::invalid(
            &path,
            BadValue::json_strings(cidrs),
            "may specify no more than one CIDR for each IP family",
        ));
    }
}

/// Go's `validateNodeConfigSource{Spec,Status}`: exactly one reference (a ConfigMap),
/// in the spec without uid and resourceVersion, in the status with both.
fn config_source(source: &NodeConfigSource, status: bool, path: &Path, errs: &mut ErrorList) {
    match &source.config_map {
        Some(cm) => {
            let p = path.child("configMap");
            if status {
                if cm.uid.is_empty() {
                    errs.push(Error::required(&p.child("uid"), ""));
                }
                if cm.resource_version.is_empty() {
                    errs.push(Error::required(&p.child("resourceVersion"), ""));
                }
            } else {
                if !cm.uid.is_empty() {
                    errs.push(Error::forbidden(
                        &p.child("uid"),
                        "uid must not be set in spec",
                    ));
                }
                if !cm.resource_version.is_empty() {
                    errs.push(Error::forbidden(
                        &p.child("resourceVersion"),
                        "resourceVersion must not be set in spec",
                    ));
                }
            }
            config_map_source(cm, &p, errs);
        }
        None => errs.push(Error::invalid(
            path,
            BadValue::Json(r#"{"ConfigMap":null}"#.to_owned()),
            "exactly one reference subfield must be non-nil",
        )),
    }
}

/// Go's `validateConfigMapNodeConfigSource`: namespace, name and kubelet config key.
fn config_map_source(cm: &ConfigMapNodeConfigSource, path: &Path, errs: &mut ErrorList) {
    for (field, value, check) in [
        (
            "namespace",
            &cm.namespace,
            name_is_dns_label as fn(&str, bool) -> Vec<String>,
        ),
        ("name", &cm.name, name_is_dns_subdomain),
    ] {
        if value.is_empty() {
            errs.push(Error::required(&path.child(field), ""));
        } else {
            invalid_each(errs, &path.child(field), value, check(value, false));
        }
    }
    let kp = path.child("kubeletConfigKey");
    if cm.kubelet_config_key.is_empty() {
        errs.push(Error::required(&kp, ""));
    } else {
        invalid_each(
            errs,
            &kp,
            &cm.kubelet_config_key,
            is_config_map_key(&cm.kubelet_config_key),
        );
    }
}
