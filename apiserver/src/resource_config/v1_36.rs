//! kube-apiserver 1.36's default API enablement (`DefaultAPIResourceConfigSource` of
//! `pkg/controlplane`, with the apiextensions and aggregator servers' own defaults):
//! the GA versions on, every beta and alpha version it can serve off.

/// The group versions served by default, as `(group, version)`.
pub(super) const ENABLED: &[(&str, &str)] = &[
    // The generic control plane's.
    ("admissionregistration.k8s.io", "v1"),
    ("", "v1"),
    ("authentication.k8s.io", "v1"),
    ("authorization.k8s.io", "v1"),
    ("certificates.k8s.io", "v1"),
    ("coordination.k8s.io", "v1"),
    ("events.k8s.io", "v1"),
    ("rbac.authorization.k8s.io", "v1"),
    ("flowcontrol.apiserver.k8s.io", "v1"),
    // kube-apiserver's own.
    ("apps", "v1"),
    ("autoscaling", "v1"),
    ("autoscaling", "v2"),
    ("batch", "v1"),
    ("discovery.k8s.io", "v1"),
    ("networking.k8s.io", "v1"),
    ("node.k8s.io", "v1"),
    ("policy", "v1"),
    ("resource.k8s.io", "v1"),
    ("storage.k8s.io", "v1"),
    ("scheduling.k8s.io", "v1"),
    // The apiextensions and aggregator servers'.
    ("apiextensions.k8s.io", "v1beta1"),
    ("apiextensions.k8s.io", "v1"),
    ("apiregistration.k8s.io", "v1"),
    ("apiregistration.k8s.io", "v1beta1"),
];

/// The group versions kube-apiserver can serve but does not by default (what
/// `--runtime-config=api/beta=true` or `api/alpha=true` turns on).
pub(super) const DISABLED: &[(&str, &str)] = &[
    ("admissionregistration.k8s.io", "v1beta1"),
    ("authentication.k8s.io", "v1beta1"),
    ("certificates.k8s.io", "v1beta1"),
    ("coordination.k8s.io", "v1beta1"),
    ("flowcontrol.apiserver.k8s.io", "v1beta1"),
    ("flowcontrol.apiserver.k8s.io", "v1beta2"),
    ("flowcontrol.apiserver.k8s.io", "v1beta3"),
    ("storagemigration.k8s.io", "v1beta1"),
    ("storage.k8s.io", "v1beta1"),
    ("networking.k8s.io", "v1beta1"),
    ("resource.k8s.io", "v1beta1"),
    ("resource.k8s.io", "v1beta2"),
    ("admissionregistration.k8s.io", "v1alpha1"),
    ("internal.apiserver.k8s.io", "v1alpha1"),
    ("authentication.k8s.io", "v1alpha1"),
    ("coordination.k8s.io", "v1alpha2"),
    ("certificates.k8s.io", "v1alpha1"),
    ("resource.k8s.io", "v1alpha3"),
    ("scheduling.k8s.io", "v1alpha2"),
    ("storage.k8s.io", "v1alpha1"),
];
