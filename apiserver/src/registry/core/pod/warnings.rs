//! Go's warnings for Pods and pod templates (`pkg/api/pod/warnings.go`:
//! `GetWarningsForPod`, `GetWarningsForPodTemplate`): deprecated node labels,
//! annotations and volume plugins, overlapping volume paths ([`overlap`]), duplicate
//! host aliases, pull secrets, env variables and ports, fractional byte quantities,
//! null affinity selectors, a negative grace period and IPs in deprecated forms.
//!
//! Go ranges over the node selector and the annotations in map order, which is random;
//! here keys come sorted, so the warnings are the same from one request to the next.

mod overlap;

use std::collections::{BTreeSet, HashMap};

use apimachinery::util::validation::field::{Path, go_quote};
use apimachinery::util::validation::ip::get_warnings_for_ip;
use serde_json::Value;

use crate::registry::core::persistentvolumeclaim::warnings::{
    fractional_bytes, warnings_for_claim_spec,
};
use crate::registry::node::labels::{
    deprecated_message, sorted_keys, warnings_for_node_selector_term,
};

/// Go's `SeccompPodAnnotationKey`.
const SECCOMP_POD_ANNOTATION: &str = "seccomp.security.alpha.kubernetes.io/pod";
/// Go's `SeccompContainerAnnotationKeyPrefix`.
const SECCOMP_CONTAINER_ANNOTATION_PREFIX: &str = "container.seccomp.security.alpha.kubernetes.io/";
/// Go's `DeprecatedAppArmorAnnotationKeyPrefix`.
pub const APPARMOR_ANNOTATION_PREFIX: &str = "container.apparmor.security.beta.kubernetes.io/";

/// Go's `deprecatedAnnotations`: keys and what replaces them.
const DEPRECATED_ANNOTATIONS: [(&str, &str); 3] = [
    (
        "scheduler.alpha.kubernetes.io/critical-pod",
        r#"non-functional in v1.16+; use the "priorityClassName" field instead"#,
    ),
    (
        "security.alpha.kubernetes.io/sysctls",
        r#"non-functional in v1.11+; use the "sysctls" field instead"#,
    ),
    (
        "security.alpha.kubernetes.io/unsafe-sysctls",
        r#"non-functional in v1.11+; use the "sysctls" field instead"#,
    ),
];

/// The deprecated and removed volume plugins: the JSON field, the name in Go's path,
/// and the message. The gitRepo driver's gate (GitRepoVolumeDriver) is off, locked, on
/// 1.36 and 1.37.
const DEPRECATED_VOLUMES: [(&str, &str, &str); 6] = [
    (
        "photonPersistentDisk",
        "photonPersistentDisk",
        "deprecated in v1.11, non-functional in v1.16+",
    ),
    (
        "gitRepo",
        "gitRepo",
        "deprecated in v1.11, and disabled by default in v1.33+",
    ),
    (
        "scaleIO",
        "scaleIO",
        "deprecated in v1.16, non-functional in v1.22+",
    ),
    (
        "flocker",
        "flocker",
        "deprecated in v1.22, non-functional in v1.25+",
    ),
    (
        "storageos",
        "storageOS",
        "deprecated in v1.22, non-functional in v1.25+",
    ),
    (
        "quobyte",
        "quobyte",
        "deprecated in v1.22, non-functional in v1.25+",
    ),
];

/// Plugins checked after the ephemeral claim template (Go's order).
const DEPRECATED_VOLUMES_LATE: [(&str, &str); 3] = [
    ("glusterfs", "deprecated in v1.25, non-functional in v1.26+"),
    ("cephfs", "deprecated in v1.28, non-functional in v1.31+"),
    ("rbd", "deprecated in v1.28, non-functional in v1.31+"),
];

/// `rest` under the template path `prefix` (Go's `fieldPath.Child(...)` on a path that
/// is nil for a Pod).
fn under(prefix: Option<&str>, rest: &str) -> String {
    match prefix {
        Some(p) if !p.is_empty() => format!("{p}.{rest}"),
        _ => rest.to_owned(),
    }
}

/// The value at `key` of `obj` when present and not null (Go's non-nil pointer).
fn set<'a>(obj: &'a Value, key: &str) -> Option<&'a Value> {
    obj.get(key).filter(|v| !v.is_null())
}

/// The list at `key` of `obj` (empty when absent).
fn list<'a>(obj: &'a Value, key: &str) -> &'a [Value] {
    obj.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// The string at `key` of `obj` (empty when absent).
fn str_at<'a>(obj: &'a Value, key: &str) -> &'a str {
    obj.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The integer at `key` of `obj` (0 when absent).
fn int_at(obj: &Value, key: &str) -> i64 {
    obj.get(key).and_then(Value::as_i64).unwrap_or(0)
}

/// Go's `GetWarningsForPod` of the JSON Pod `pod`.
pub fn warnings_for_pod(pod: &Value) -> Vec<String> {
    let empty = Value::Null;
    warnings_for_spec_and_meta(
        None,
        pod.get("spec").unwrap_or(&empty),
        pod.get("metadata").unwrap_or(&empty),
    )
}

/// Go's `GetWarningsForPodTemplate` of the JSON pod template `template` (a
/// `PodTemplateSpec`) at `path` (`spec.template`, `template`, ...).
pub fn warnings_for_pod_template(path: &str, template: &Value) -> Vec<String> {
    let empty = Value::Null;
    warnings_for_spec_and_meta(
        Some(path),
        template.get("spec").unwrap_or(&empty),
        template.get("metadata").unwrap_or(&empty),
    )
}

/// Go's `ApparmorFieldForAnnotation`: the profile (as its JSON form) a deprecated
/// container annotation stands for; `None` for an unknown value.
pub fn apparmor_field_for_annotation(annotation: &str) -> Option<Value> {
    match annotation {
        "unconfined" => Some(serde_json::json!({"type": "Unconfined"})),
        "runtime/default" => Some(serde_json::json!({"type": "RuntimeDefault"})),
        _ => annotation
            .strip_prefix("localhost/")
            .filter(|p| !p.is_empty())
            .map(|p| serde_json::json!({"type": "Localhost", "localhostProfile": p})),
    }
}

/// Whether the container `c` has an AppArmor annotation in `annotations` that Go warns
/// about: no profile field on the container, and the annotation unknown or other than
/// the pod's profile `pod_profile` (Go's check of templates, and its
/// `applyAppArmorVersionSkew` for Pods, which also copies such a profile to the field).
pub fn apparmor_annotation_warning(
    annotations: Option<&Value>,
    pod_profile: Option<&Value>,
    c: &Value,
) -> Option<String> {
    let name = str_at(c, "name");
    let key = format!("{APPARMOR_ANNOTATION_PREFIX}{name}");
    let annotation = annotations?.get(&key)?.as_str().unwrap_or("");
    let has_field = c
        .get("securityContext")
        .and_then(|s| set(s, "appArmorProfile"))
        .is_some();
    if has_field {
        return None;
    }
    let field = apparmor_field_for_annotation(annotation);
    (pod_profile.is_none() || field.as_ref() != pod_profile).then(|| {
        format!(r#"metadata.annotations[{key}]: deprecated since v1.30; use the "appArmorProfile" field instead"#)
    })
}

/// Go's `VisitContainersWithPath`: init containers, containers, then ephemeral
/// containers, each with its path under `spec`.
fn containers<'a>(spec: &'a Value, spec_path: &str) -> Vec<(&'a Value, String)> {
    ["initContainers", "containers", "ephemeralContainers"]
        .into_iter()
        .flat_map(|kind| {
            list(spec, kind)
                .iter()
                .enumerate()
                .map(move |(i, c)| (c, format!("{}[{i}]", under(Some(spec_path), kind))))
        })
        .collect()
}

/// Go's `%+v` of an internal `ContainerPort` (its fields in declaration order).
fn port_struct(port: &Value) -> String {
    format!(
        "{{Name:{} HostPort:{} ContainerPort:{} Protocol:{} HostIP:{}}}",
        str_at(port, "name"),
        int_at(port, "hostPort"),
        int_at(port, "containerPort"),
        str_at(port, "protocol"),
        str_at(port, "hostIP"),
    )
}

/// Go's `warningsForPodSpecAndMeta` (the old spec and metadata it takes are unused).
fn warnings_for_spec_and_meta(prefix: Option<&str>, spec: &Value, meta: &Value) -> Vec<String> {
    let mut warnings = Vec::new();
    let spec_path = under(prefix, "spec");
    let annotations = meta.get("annotations").filter(|a| a.is_object());
    let annotation_path = |key: &str| format!("{}[{key}]", under(prefix, "metadata.annotations"));
    let has_annotation = |key: &str| annotations.is_some_and(|a| a.get(key).is_some());

    node_label_warnings(&mut warnings, &spec_path, spec);

    for (key, msg) in DEPRECATED_ANNOTATIONS {
        if has_annotation(key) {
            warnings.push(format!("{}: {msg}", annotation_path(key)));
        }
    }

    volume_warnings(&mut warnings, &spec_path, spec);
    warnings.extend(overlap::warnings_for_overlapping_virtual_paths(
        spec.get("volumes"),
    ));

    let aliases = list(spec, "hostAliases");
    if aliases.len() > 1 {
        let mut seen = BTreeSet::new();
        for (i, alias) in aliases.iter().enumerate() {
            let ip = str_at(alias, "ip");
            if !seen.insert(ip) {
                warnings.push(format!(
                    "{spec_path}.hostAliases[{i}].ip: duplicate ip {}",
                    go_quote(ip)
                ));
            }
        }
    }
    let secrets = list(spec, "imagePullSecrets");
    if secrets.len() > 1 {
        let mut seen = BTreeSet::new();
        for (i, secret) in secrets.iter().enumerate() {
            let name = str_at(secret, "name");
            if !seen.insert(name) {
                warnings.push(format!(
                    "{spec_path}.imagePullSecrets[{i}].name: duplicate name {}",
                    go_quote(name)
                ));
            }
        }
    }
    for (i, secret) in secrets.iter().enumerate() {
        if str_at(secret, "name").is_empty() {
            warnings.push(format!(
                r#"{spec_path}.imagePullSecrets[{i}].name: invalid empty name """#
            ));
        }
    }

    for resource in ["memory", "ephemeral-storage"] {
        let path = format!("{spec_path}.overhead[{resource}]");
        warnings.extend(fractional_bytes(
            &path,
            spec.get("overhead").and_then(|o| o.get(resource)),
        ));
    }

    let security = set(spec, "securityContext");
    let pod_seccomp = security.and_then(|s| set(s, "seccompProfile"));
    if pod_seccomp.is_none() && has_annotation(SECCOMP_POD_ANNOTATION) {
        warnings.push(format!(
            r#"{}: non-functional in v1.27+; use the "seccompProfile" field instead"#,
            annotation_path(SECCOMP_POD_ANNOTATION)
        ));
    }
    let pod_apparmor = security.and_then(|s| set(s, "appArmorProfile"));

    let all = containers(spec, &spec_path);
    for (c, path) in &all {
        container_warnings(&mut warnings, prefix, annotations, pod_apparmor, c, path);
    }
    port_warnings(&mut warnings, &all);

    if let Some(period) = spec
        .get("terminationGracePeriodSeconds")
        .and_then(Value::as_i64)
        && period < 0
    {
        warnings.push(format!(
            "{spec_path}.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"
        ));
    }

    if let Some(affinity) = set(spec, "affinity") {
        for kind in ["podAffinity", "podAntiAffinity"] {
            let Some(terms) = set(affinity, kind) else {
                continue;
            };
            let base = format!("{spec_path}.affinity.{kind}");
            let required = "requiredDuringSchedulingIgnoredDuringExecution";
            for (i, t) in list(terms, required).iter().enumerate() {
                if set(t, "labelSelector").is_none() {
                    warnings.push(format!(
                        "{base}.{required}[{i}].labelSelector: a null labelSelector results in matching no pod"
                    ));
                }
            }
            let preferred = "preferredDuringSchedulingIgnoredDuringExecution";
            for (i, t) in list(terms, preferred).iter().enumerate() {
                let term = t.get("podAffinityTerm").unwrap_or(&Value::Null);
                if set(term, "labelSelector").is_none() {
                    warnings.push(format!(
                        "{base}.{preferred}[{i}].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod"
                    ));
                }
            }
        }
    }

    if let Some(dns) = set(spec, "dnsConfig") {
        for (i, ns) in list(dns, "nameservers").iter().enumerate() {
            let path = format!("{spec_path}.dnsConfig.nameservers[{i}]");
            warnings.extend(get_warnings_for_ip(
                &Path::new(&path),
                ns.as_str().unwrap_or(""),
            ));
        }
    }
    for (i, alias) in aliases.iter().enumerate() {
        let path = format!("{spec_path}.hostAliases[{i}].ip");
        warnings.extend(get_warnings_for_ip(&Path::new(&path), str_at(alias, "ip")));
    }
    warnings
}

/// Deprecated node labels in the node selector (keys sorted), node affinity and
/// topology spread constraints, and topology spread constraints without a selector.
fn node_label_warnings(warnings: &mut Vec<String>, spec_path: &str, spec: &Value) {
    for key in sorted_keys(spec.get("nodeSelector")) {
        if let Some(msg) = deprecated_message(key) {
            warnings.push(format!("{spec_path}.nodeSelector[{key}]: {msg}"));
        }
    }
    if let Some(node) = set(spec, "affinity").and_then(|a| set(a, "nodeAffinity")) {
        let base = format!("{spec_path}.affinity.nodeAffinity");
        if let Some(required) = set(node, "requiredDuringSchedulingIgnoredDuringExecution") {
            for (i, term) in list(required, "nodeSelectorTerms").iter().enumerate() {
                let path = format!(
                    "{base}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[{i}]"
                );
                warnings.extend(warnings_for_node_selector_term(term, false, &path));
            }
        }
        let preferred = list(node, "preferredDuringSchedulingIgnoredDuringExecution");
        for (i, term) in preferred.iter().enumerate() {
            let path =
                format!("{base}.preferredDuringSchedulingIgnoredDuringExecution[{i}].preference");
            let preference = term.get("preference").unwrap_or(&Value::Null);
            warnings.extend(warnings_for_node_selector_term(preference, true, &path));
        }
    }
    for (i, t) in list(spec, "topologySpreadConstraints").iter().enumerate() {
        let path = format!("{spec_path}.topologySpreadConstraints[{i}]");
        let key = str_at(t, "topologyKey");
        if let Some(msg) = deprecated_message(key) {
            warnings.push(format!("{path}.topologyKey: {key} is {msg}"));
        }
        if set(t, "labelSelector").is_none() {
            warnings.push(format!(
                "{path}.labelSelector: a null labelSelector results in matching no pod"
            ));
        }
    }
}

/// Deprecated and removed volume plugins, and ephemeral claim templates' sizes.
fn volume_warnings(warnings: &mut Vec<String>, spec_path: &str, spec: &Value) {
    for (i, v) in list(spec, "volumes").iter().enumerate() {
        let path = format!("{spec_path}.volumes[{i}]");
        for (field, name, msg) in DEPRECATED_VOLUMES {
            if set(v, field).is_some() {
                warnings.push(format!("{path}.{name}: {msg}"));
            }
        }
        if let Some(template) = set(v, "ephemeral").and_then(|e| set(e, "volumeClaimTemplate")) {
            let claim = template.get("spec").unwrap_or(&Value::Null);
            warnings.extend(warnings_for_claim_spec(
                &format!("{path}.ephemeral.volumeClaimTemplate.spec"),
                claim,
            ));
        }
        for (field, msg) in DEPRECATED_VOLUMES_LATE {
            if set(v, field).is_some() {
                warnings.push(format!("{path}.{field}: {msg}"));
            }
        }
    }
}

/// One container's warnings: seccomp and (templates only) AppArmor annotations without
/// their fields, fractional byte quantities, env variables hiding earlier ones.
fn container_warnings(
    warnings: &mut Vec<String>,
    prefix: Option<&str>,
    annotations: Option<&Value>,
    pod_apparmor: Option<&Value>,
    c: &Value,
    path: &str,
) {
    let security = set(c, "securityContext");
    if security.and_then(|s| set(s, "seccompProfile")).is_none() {
        let key = format!("{SECCOMP_CONTAINER_ANNOTATION_PREFIX}{}", str_at(c, "name"));
        if annotations.is_some_and(|a| a.get(&key).is_some()) {
            warnings.push(format!(
                r#"{}[{key}]: non-functional in v1.27+; use the "seccompProfile" field instead"#,
                under(prefix, "metadata.annotations")
            ));
        }
    }
    // Pods are warned in their strategy's `PrepareForCreate` (Go's
    // `applyAppArmorVersionSkew`); templates here.
    if let Some(prefix) = prefix
        && let Some(w) = apparmor_annotation_warning(annotations, pod_apparmor, c)
    {
        warnings.push(format!("{prefix}.{w}"));
    }
    let resources = c.get("resources");
    for (kind, resource) in [
        ("limits", "memory"),
        ("requests", "memory"),
        ("limits", "ephemeral-storage"),
        ("requests", "ephemeral-storage"),
    ] {
        let value = resources
            .and_then(|r| r.get(kind))
            .and_then(|r| r.get(resource));
        warnings.extend(fractional_bytes(
            &format!("{path}.resources.{kind}[{resource}]"),
            value,
        ));
    }
    let env = list(c, "env");
    if env.len() > 1 {
        let mut seen = BTreeSet::new();
        for (i, item) in env.iter().enumerate() {
            let name = str_at(item, "name");
            if seen.insert(name) {
                continue;
            }
            // A redefinition is fine only as `X=...$(X)...` (it extends the earlier one).
            let reference = format!("$({name})");
            let value = str_at(item, "value");
            let bad = set(item, "valueFrom").is_some()
                || value == reference
                || !value.contains(&reference);
            if bad {
                warnings.push(format!(
                    "{path}.env[{i}]: hides previous definition of {}, which may be dropped when using apply",
                    go_quote(name)
                ));
            }
        }
    }
}

/// Ports across all containers: a host IP without a host port, definitions duplicating,
/// overlapping or ambiguously sharing one port and protocol, and duplicate names.
fn port_warnings(warnings: &mut Vec<String>, all: &[(&Value, String)]) {
    let mut by_port: HashMap<String, Vec<(String, &Value)>> = HashMap::new();
    for (c, container_path) in all {
        for (i, port) in list(c, "ports").iter().enumerate() {
            let path = format!("{container_path}.ports[{i}]");
            let host_ip = str_at(port, "hostIP");
            let host_port = int_at(port, "hostPort");
            if !host_ip.is_empty() && host_port == 0 {
                warnings.push(format!(
                    "{path}: hostIP set without hostPort: {}",
                    port_struct(port)
                ));
            }
            let key = format!(
                "{}/{}",
                int_at(port, "containerPort"),
                str_at(port, "protocol")
            );
            let others = by_port.entry(key).or_default();
            for (other_path, other) in others.iter() {
                let (other_ip, other_port) = (str_at(other, "hostIP"), int_at(other, "hostPort"));
                if host_ip == other_ip && host_port == other_port {
                    warnings.push(format!(
                        "{path}: duplicate port definition with {other_path}"
                    ));
                } else if host_port == 0 || other_port == 0 {
                    warnings.push(format!(
                        "{path}: overlapping port definition with {other_path}"
                    ));
                } else if host_port == other_port && (host_ip.is_empty() != other_ip.is_empty()) {
                    warnings.push(format!(
                        "{path}: dangerously ambiguous port definition with {other_path}"
                    ));
                }
            }
            others.push((path, port));
        }
    }
    let mut names: HashMap<&str, String> = HashMap::new();
    for (c, container_path) in all {
        for (i, port) in list(c, "ports").iter().enumerate() {
            let name = str_at(port, "name");
            if name.is_empty() {
                continue;
            }
            let path = format!("{container_path}.ports[{i}]");
            match names.get(name) {
                Some(other) => warnings.push(format!(
                    "{path}: duplicate port name {} with {other}, services and probes that select ports by name will use {other}",
                    go_quote(name)
                )),
                None => {
                    names.insert(name, path);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
