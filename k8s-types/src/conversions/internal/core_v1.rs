//! Go's `pkg/apis/core/v1/conversion.go`, as internal forms of the `v1` types.
//!
//! Kubernetes 1.37 gave Go's internal core types the `v1` pod's own fields
//! (`serviceAccount`, the host namespaces, `podIP`) and dropped the pod conversions: the
//! pairs are kept in step by the 1.37 defaulters (`SetDefaults_PodSpec`,
//! `SetDefaults_PodStatus`; see `crate::defaults`), a Pod's negative grace period by
//! `SetDefaults_Pod`, and the init-container annotations are dropped by the pod
//! strategies, not by conversion. The pod functions here are therefore 1.36's only.

#[cfg(not(feature = "v1_37"))]
use std::collections::BTreeMap;

use apimachinery::conversion::ConversionError;

use crate::core::v1::{NodeSpec, Secret};
#[cfg(not(feature = "v1_37"))]
use crate::core::v1::{Pod, PodIP, PodSecurityContext, PodSpec, PodStatus, PodTemplateSpec};

/// The annotations pods carried their init containers in before the field existed: Go
/// drops them both ways, "so they don't take effect on legacy kubelets".
#[cfg(not(feature = "v1_37"))]
const INIT_CONTAINER_ANNOTATIONS: [&str; 4] = [
    "pod.beta.kubernetes.io/init-containers",
    "pod.alpha.kubernetes.io/init-containers",
    "pod.beta.kubernetes.io/init-container-statuses",
    "pod.alpha.kubernetes.io/init-container-statuses",
];

#[cfg(not(feature = "v1_37"))]
fn drop_init_container_annotations(annotations: &mut BTreeMap<String, String>) {
    for key in INIT_CONTAINER_ANNOTATIONS {
        annotations.remove(key);
    }
}

/// A Secret's `stringData` is written over `data` (the internal type has no
/// `stringData`).
pub fn secret_internalize(secret: &mut Secret) -> Result<(), ConversionError> {
    for (key, value) in std::mem::take(&mut secret.string_data) {
        secret.data.insert(key, value.into_bytes().into());
    }
    Ok(())
}

/// Nothing: the internal Secret has nothing `v1` lacks.
pub fn secret_externalize(_: &mut Secret) {}

/// Init-container annotations dropped; a negative `terminationGracePeriodSeconds` (of a
/// Pod, not of a template) made 1.
#[cfg(not(feature = "v1_37"))]
pub fn pod_internalize(pod: &mut Pod) -> Result<(), ConversionError> {
    pod_fix_up(pod);
    Ok(())
}

/// As [`pod_internalize`]: Go does the same both ways.
#[cfg(not(feature = "v1_37"))]
pub fn pod_externalize(pod: &mut Pod) {
    pod_fix_up(pod);
}

#[cfg(not(feature = "v1_37"))]
fn pod_fix_up(pod: &mut Pod) {
    drop_init_container_annotations(&mut pod.metadata.annotations);
    if pod
        .spec
        .termination_grace_period_seconds
        .is_some_and(|s| s < 0)
    {
        pod.spec.termination_grace_period_seconds = Some(1);
    }
}

/// Init-container annotations dropped.
#[cfg(not(feature = "v1_37"))]
pub fn pod_template_spec_internalize(
    template: &mut PodTemplateSpec,
) -> Result<(), ConversionError> {
    drop_init_container_annotations(&mut template.metadata.annotations);
    Ok(())
}

/// Init-container annotations dropped.
#[cfg(not(feature = "v1_37"))]
pub fn pod_template_spec_externalize(template: &mut PodTemplateSpec) {
    drop_init_container_annotations(&mut template.metadata.annotations);
}

/// `serviceAccount` is an alias of `serviceAccountName`, which wins when both are set;
/// the host namespace fields live in the internal `securityContext`, which is therefore
/// always there.
#[cfg(not(feature = "v1_37"))]
pub fn pod_spec_internalize(spec: &mut PodSpec) -> Result<(), ConversionError> {
    let alias = std::mem::take(&mut spec.service_account);
    if spec.service_account_name.is_empty() {
        spec.service_account_name = alias;
    }
    spec.security_context
        .get_or_insert_with(PodSecurityContext::default);
    Ok(())
}

/// `serviceAccount` set from `serviceAccountName`; the host namespace fields come from
/// the internal `securityContext`, and are cleared without one.
#[cfg(not(feature = "v1_37"))]
pub fn pod_spec_externalize(spec: &mut PodSpec) {
    spec.service_account = spec.service_account_name.clone();
    if spec.security_context.is_none() {
        spec.host_pid = false;
        spec.host_network = false;
        spec.host_ipc = false;
        spec.share_process_namespace = None;
        spec.host_users = None;
    }
}

/// `podIP` goes into `podIPs`: alone when they differ (`podIP` is authoritative, for
/// older kubelets), or as the only one when `podIPs` is empty.
#[cfg(not(feature = "v1_37"))]
pub fn pod_status_internalize(status: &mut PodStatus) -> Result<(), ConversionError> {
    let ip = std::mem::take(&mut status.pod_ip);
    if !ip.is_empty() && status.pod_ips.first().is_none_or(|first| first.ip != ip) {
        status.pod_ips = vec![PodIP { ip }];
    }
    Ok(())
}

/// `podIP` is the first of `podIPs`.
#[cfg(not(feature = "v1_37"))]
pub fn pod_status_externalize(status: &mut PodStatus) {
    if let Some(first) = status.pod_ips.first() {
        status.pod_ip = first.ip.clone();
    }
}

/// `podCIDR` goes into `podCIDRs`, as a pod's `podIP`.
pub fn node_spec_internalize(spec: &mut NodeSpec) -> Result<(), ConversionError> {
    let cidr = std::mem::take(&mut spec.pod_cidr);
    if !cidr.is_empty() && spec.pod_cidrs.first().is_none_or(|first| *first != cidr) {
        spec.pod_cidrs = vec![cidr];
    }
    Ok(())
}

/// `podCIDR` is the first of `podCIDRs`.
pub fn node_spec_externalize(spec: &mut NodeSpec) {
    if let Some(first) = spec.pod_cidrs.first() {
        spec.pod_cidr = first.clone();
    }
}
