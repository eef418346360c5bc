//! What the server knows of each resource it serves: its kind, scope, served versions,
//! storage version, etcd key prefix and subresources, built from the [`Scheme`] and
//! kube-apiserver's storage facts.
//!
//! The facts that are not in the Scheme are kube-apiserver's, as its etcd storage test
//! (`test/integration/etcd/data.go`) pins them: the key prefixes that are not the
//! resource name, and the storage versions that are not the group's preferred version.

use std::collections::BTreeMap;

use apimachinery::meta::APIGroupResources;
use apimachinery::runtime::Scheme;
use apimachinery::runtime::unstructured::object_to_unstructured;
use apimachinery::schema::{GroupKind, GroupResource, GroupVersion, GroupVersionKind};

/// kube-apiserver's etcd key prefixes that are not the resource's plural name, by
/// `(group, resource)`.
const KEY_PREFIXES: &[(&str, &str, &str)] = &[
    ("", "services", "services/specs"),
    ("", "endpoints", "services/endpoints"),
    ("", "nodes", "minions"),
    ("", "replicationcontrollers", "controllers"),
    ("networking.k8s.io", "ingresses", "ingress"),
    (
        "apiextensions.k8s.io",
        "customresourcedefinitions",
        "apiextensions.k8s.io/customresourcedefinitions",
    ),
    (
        "apiregistration.k8s.io",
        "apiservices",
        "apiregistration.k8s.io/apiservices",
    ),
];

/// Where kube-apiserver keeps the objects of `resource` in `group`: `/registry/` and
/// the resource's plural name, or the older name Go keeps for it ([`KEY_PREFIXES`]).
pub fn key_prefix(group: &str, resource: &str) -> String {
    let prefix = KEY_PREFIXES
        .iter()
        .find(|(g, res, _)| *g == group && *res == resource)
        .map_or(resource, |(_, _, p)| *p);
    format!("/registry/{prefix}")
}

/// kube-apiserver's storage versions that are not the group's preferred version serving
/// the resource, by `(group, resource)`: `(version)` in the same group. HorizontalPodAutoscalers
/// and CustomResourceDefinitions are stored as Go's etcd storage test pins them; the rest
/// are the release's `ResourceEncodingOverrides` (`pkg/kubeapiserver/
/// default_storage_factory_builder.go`; an entry naming the preferred version changes
/// nothing). (Go also stores `events.k8s.io` events as core `v1` Events under
/// `/registry/events`: see [`resources_from_scheme`].)
const STORAGE_VERSIONS: &[(&str, &str, &str)] = &[
    ("autoscaling", "horizontalpodautoscalers", "v2"),
    (
        "apiextensions.k8s.io",
        "customresourcedefinitions",
        "v1beta1",
    ),
    ("coordination.k8s.io", "leasecandidates", "v1beta1"),
    ("certificates.k8s.io", "clustertrustbundles", "v1beta1"),
    ("certificates.k8s.io", "podcertificaterequests", "v1beta1"),
    ("resource.k8s.io", "resourcepoolstatusrequests", "v1alpha3"),
    #[cfg(not(feature = "v1_37"))]
    (
        "admissionregistration.k8s.io",
        "mutatingadmissionpolicies",
        "v1beta1",
    ),
    #[cfg(not(feature = "v1_37"))]
    (
        "admissionregistration.k8s.io",
        "mutatingadmissionpolicybindings",
        "v1beta1",
    ),
    #[cfg(not(feature = "v1_37"))]
    ("resource.k8s.io", "devicetaintrules", "v1alpha3"),
    #[cfg(not(feature = "v1_37"))]
    ("scheduling.k8s.io", "workloads", "v1alpha2"),
    #[cfg(not(feature = "v1_37"))]
    ("scheduling.k8s.io", "podgroups", "v1alpha2"),
    // 1.37: MutatingAdmissionPolicies at their preferred `v1`; DeviceTaintRules `v1beta2`
    // now that `v1` is served; the new `v1` of StorageVersionMigrations stored as
    // `v1beta1` (Go names the resource `storagemigrations` in 1.36, which matched none).
    #[cfg(feature = "v1_37")]
    ("resource.k8s.io", "devicetaintrules", "v1beta2"),
    #[cfg(feature = "v1_37")]
    (
        "storagemigration.k8s.io",
        "storageversionmigrations",
        "v1beta1",
    ),
    #[cfg(feature = "v1_37")]
    ("scheduling.k8s.io", "workloads", "v1beta1"),
    #[cfg(feature = "v1_37")]
    ("scheduling.k8s.io", "podgroups", "v1beta1"),
    #[cfg(feature = "v1_37")]
    ("scheduling.k8s.io", "compositepodgroups", "v1alpha3"),
    #[cfg(feature = "v1_37")]
    ("lifecycle.k8s.io", "evictions", "v1alpha1"),
    #[cfg(feature = "v1_37")]
    ("lifecycle.k8s.io", "evictionrequests", "v1alpha1"),
];

/// A subresource discovery lists besides `/status` and `/scale` (one of Go's
/// `resource/subresource` storage entries): what kind its REST takes or answers, and
/// its verbs, as Go's installer derives them from the REST's interfaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubresourceInfo {
    /// Its name, such as `binding`.
    pub name: &'static str,
    /// The group of its kind when not the resource's (`policy` for a Pod's
    /// `eviction`), empty otherwise, as discovery writes it.
    pub group: &'static str,
    /// The version of its kind when not the resource's, empty otherwise.
    pub version: &'static str,
    /// Its kind (`Binding`, `PodAttachOptions`).
    pub kind: &'static str,
    /// Its verbs.
    pub verbs: &'static [&'static str],
}

/// One served resource (Go's `APIGroupVersion` storage entry, for all versions at
/// once).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceInfo {
    /// The API group (`""` for core).
    pub group: String,
    /// The plural resource name, such as `deployments`.
    pub resource: String,
    /// The singular name.
    pub singular: String,
    /// The kind, such as `Deployment`.
    pub kind: String,
    /// The kind of its lists, such as `DeploymentList`.
    pub list_kind: String,
    /// Namespaced or cluster-scoped.
    pub namespaced: bool,
    /// Short names.
    pub short_names: Vec<String>,
    /// Categories.
    pub categories: Vec<String>,
    /// The verbs discovery lists.
    pub verbs: Vec<String>,
    /// The versions serving it, most preferred first.
    pub versions: Vec<String>,
    /// The kind objects are stored as.
    pub storage_gvk: GroupVersionKind,
    /// The etcd key prefix without a trailing slash, such as `/registry/deployments`.
    pub key_prefix: String,
    /// Whether its kind has a top-level `spec` (what makes `generation` start at 1).
    pub has_spec: bool,
    /// Whether it has a `/status` subresource.
    pub has_status: bool,
    /// Whether it has a `/scale` subresource (its REST storage has a
    /// [`Scaler`](super::rest::Scaler)).
    pub has_scale: bool,
    /// Its other subresources, which discovery lists: set by the resource's module
    /// (a Pod's `binding`, `eviction`, `log`, ...).
    pub subresources: Vec<SubresourceInfo>,
    /// The served versions that do not serve `/status` or `/scale` although another
    /// version does, as `(version, subresource)`: a CRD's subresources are per version
    /// (Go's `GetSubresourcesForVersion`).
    pub subresources_not_served: Vec<(String, String)>,
}

impl ResourceInfo {
    /// Whether `version` serves `/status`.
    pub fn has_status_at(&self, version: &str) -> bool {
        self.has_status && self.serves_subresource_at(version, "status")
    }

    /// Whether `version` serves `/scale`.
    pub fn has_scale_at(&self, version: &str) -> bool {
        self.has_scale && self.serves_subresource_at(version, "scale")
    }

    fn serves_subresource_at(&self, version: &str, subresource: &str) -> bool {
        !self
            .subresources_not_served
            .iter()
            .any(|(v, s)| v == version && s == subresource)
    }

    /// The kind in `version`.
    pub fn gvk(&self, version: &str) -> GroupVersionKind {
        GroupVersionKind::new(self.group.as_str(), version, self.kind.as_str())
    }

    /// Whether the resource is only created, never stored or read (Go's review
    /// resources, such as `selfsubjectaccessreviews`, and `bindings`).
    pub fn is_create_only(&self) -> bool {
        self.verbs.iter().all(|v| v == "create")
    }

    /// Whether `version` serves the resource.
    pub fn serves(&self, version: &str) -> bool {
        self.versions.iter().any(|v| v == version)
    }

    /// The storage group version.
    pub fn storage_version(&self) -> GroupVersion {
        self.storage_gvk.group_version()
    }

    /// The resource qualified by its group (Go's `qualifiedResource`), which errors
    /// name and write as `deployments.apps`, `pods`.
    pub fn qualified_resource(&self) -> GroupResource {
        GroupResource::new(self.group.as_str(), self.resource.as_str())
    }

    /// The kind qualified by its group, which validation errors name (`Deployment.apps`).
    pub fn qualified_kind(&self) -> GroupKind {
        GroupKind::new(self.group.as_str(), self.kind.as_str())
    }

    /// The key of one object (`/registry/pods/default/web`).
    pub fn key(&self, namespace: &str, name: &str) -> String {
        if self.namespaced {
            format!("{}/{namespace}/{name}", self.key_prefix)
        } else {
            format!("{}/{name}", self.key_prefix)
        }
    }

    /// The prefix of a collection: every object, or one namespace's.
    pub fn collection_prefix(&self, namespace: Option<&str>) -> String {
        match namespace {
            Some(ns) if self.namespaced => format!("{}/{ns}/", self.key_prefix),
            _ => format!("{}/", self.key_prefix),
        }
    }
}

/// Every resource `scheme` serves (the served versions of [`APIGroupResources::from_scheme`]),
/// keyed by `(group, resource)`.
pub fn resources_from_scheme(scheme: &Scheme) -> BTreeMap<(String, String), ResourceInfo> {
    let mut out: BTreeMap<(String, String), ResourceInfo> = BTreeMap::new();
    for group in APIGroupResources::from_scheme(scheme) {
        for version in group.group.versions.iter().flatten() {
            let Some(resources) = group.versioned_resources.get(&version.version) else {
                continue;
            };
            for r in resources {
                let key = (group.group.name.clone(), r.name.clone());
                if let Some(info) = out.get_mut(&key) {
                    info.versions.push(version.version.clone());
                    continue;
                }
                let storage_version = STORAGE_VERSIONS
                    .iter()
                    .find(|(g, res, _)| *g == group.group.name && *res == r.name)
                    .map(|(_, _, v)| (*v).to_owned())
                    .unwrap_or_else(|| version.version.clone());
                let prefix = key_prefix(&group.group.name, &r.name);
                let storage_gvk = GroupVersionKind::new(
                    group.group.name.as_str(),
                    storage_version,
                    r.kind.as_str(),
                );
                // Create-only resources (reviews, bindings) are answered, not stored, and
                // have no subresources.
                let has_status = r.verbs().iter().any(|v| v == "update")
                    && has_top_level_field(scheme, &storage_gvk, "status");
                let has_spec = has_top_level_field(scheme, &storage_gvk, "spec");
                out.insert(
                    key,
                    ResourceInfo {
                        group: group.group.name.clone(),
                        resource: r.name.clone(),
                        singular: r.singular_name.clone(),
                        kind: r.kind.clone(),
                        list_kind: format!("{}List", r.kind),
                        namespaced: r.namespaced,
                        short_names: r.short_names.clone(),
                        categories: r.categories.clone(),
                        verbs: r.verbs().to_vec(),
                        versions: vec![version.version.clone()],
                        // Set by the resource modules that serve `/scale`.
                        has_scale: false,
                        storage_gvk,
                        key_prefix: prefix,
                        has_spec,
                        has_status,
                        // Set by the resource modules.
                        subresources: Vec::new(),
                        subresources_not_served: Vec::new(),
                    },
                );
            }
        }
    }
    // Both Event APIs keep core v1 Events under `/registry/events`, as kube-apiserver.
    let core_event = GroupVersionKind::new("", "v1", "Event");
    if scheme.recognizes(&core_event) {
        if let Some(info) = out.get_mut(&(
            super::event_conversion::EVENTS_GROUP.to_owned(),
            "events".to_owned(),
        )) {
            info.storage_gvk = core_event;
        }
    }
    // A storage version the scheme does not know (not linked in) falls back to the
    // preferred version, so every resource stays usable.
    for info in out.values_mut() {
        if !scheme.recognizes(&info.storage_gvk) {
            if let Some(v) = info.versions.first() {
                info.storage_gvk = info.gvk(v);
            }
        }
    }
    out
}

/// Whether the kind has a top-level `field`: a `status` is what gives a built-in
/// resource its `/status` subresource (kinds without one, such as ConfigMap, have none),
/// a `spec` what makes its `generation` count. Go's types write a struct field even when
/// empty, so a new object shows it; asked once per resource, not per request.
fn has_top_level_field(scheme: &Scheme, gvk: &GroupVersionKind, field: &str) -> bool {
    scheme.new_object(gvk).is_ok_and(|obj| {
        object_to_unstructured(&*obj).is_ok_and(|content| content.contains_key(field))
    })
}
