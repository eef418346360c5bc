//! Mappers built from a [`Scheme`]: the static mappers Go cannot build, because Go's
//! Scheme does not know resource names or scopes while ours does (`#[derive(ApiObject)]`
//! records them).
//!
//! Two flavours, for the two mappers Go users know:
//!
//! * [`ShortcutRESTMapper::from_scheme`]: one [`DefaultRESTMapper`] with Go's semantics,
//!   so a resource served in several versions (`deployments` in `apps/v1` and
//!   `apps/v1beta2`) is ambiguous for `kind_for`, and `kinds_for` lists every version,
//!   preferred first.
//! * [`DiscoveryRESTMapper::from_scheme`]: what kubectl would build from a cluster serving
//!   exactly the scheme's types, whose priorities pick the preferred version
//!   (`deploy` → `apps/v1, Kind=Deployment`).

use std::collections::{BTreeMap, HashMap};

use super::{
    APIGroupResources, DefaultRESTMapper, DiscoveryRESTMapper, RESTScope, ResourceEntry,
    ShortcutRESTMapper,
};
use crate::apis::meta::v1::{APIGroup, APIResource, GroupVersionForDiscovery};
use crate::runtime::{ResourceMetadata, ResourceScope, Scheme};
use crate::schema::{API_VERSION_INTERNAL, GroupVersion, GroupVersionKind, Name};

impl From<ResourceScope> for RESTScope {
    fn from(scope: ResourceScope) -> Self {
        RESTScope::from_namespaced(scope == ResourceScope::Namespaced)
    }
}

impl ResourceEntry {
    /// The entry of a kind registered in a scheme with `metadata`.
    pub fn from_metadata(kind: GroupVersionKind, metadata: &ResourceMetadata) -> Self {
        ResourceEntry::new(
            kind,
            Name::from_static(metadata.plural),
            Name::from_static(metadata.singular),
            metadata.scope.into(),
        )
        .with_short_names(metadata.short_names.iter().copied().map(Name::from_static))
        .with_categories(metadata.categories.iter().copied().map(Name::from_static))
    }
}

/// Whether a registered resource is one a server would serve: hubs (`__internal`) are
/// not, nor are resources without verbs (versions no longer served, kept for
/// conversion).
fn is_served(gvk: &GroupVersionKind, metadata: &ResourceMetadata) -> bool {
    gvk.version != API_VERSION_INTERNAL && !metadata.verbs.is_empty()
}

impl ShortcutRESTMapper<DefaultRESTMapper> {
    /// A mapper over every resource kind registered in `scheme`, with its plural,
    /// singular, scope, short names and categories.
    ///
    /// The default group versions, which order ambiguous answers and pick the version of
    /// a `rest_mapping` without versions, are the scheme's version priorities
    /// ([`Scheme::prioritized_versions_all_groups`]). Internal versions (`__internal`) are
    /// not served and are left out, and so are resources without verbs (versions no
    /// longer served, registered for conversion). When two kinds claim the same short name, the one in
    /// the more preferred group version wins, as kubectl's expander lets the first
    /// discovered resource win.
    ///
    /// ```
    /// use apimachinery::apis::meta::v1::ObjectMeta;
    /// use apimachinery::meta::{RESTMapper, RESTScope, ShortcutRESTMapper};
    /// use apimachinery::runtime::{Resource, Scheme};
    /// use apimachinery::schema::{GroupKind, GroupVersionResource};
    /// use apimachinery::ApiObject;
    ///
    /// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    /// #[api(group = "example.com", version = "v1", kind = "Widget", short_names = ["wd"])]
    /// pub struct Widget { pub metadata: ObjectMeta }
    ///
    /// let mut scheme = Scheme::new();
    /// scheme.register(&Widget::REGISTRATION)?;
    /// let mapper = ShortcutRESTMapper::from_scheme(&scheme);
    ///
    /// let gvk = mapper.kind_for(&GroupVersionResource::new("", "", "wd"))?;
    /// assert_eq!(gvk, Widget::gvk());
    /// let mapping = mapper.rest_mapping(&GroupKind::new("example.com", "Widget"), &[])?;
    /// assert_eq!(mapping.resource, GroupVersionResource::new("example.com", "v1", "widgets"));
    /// assert_eq!(mapping.scope, RESTScope::NAMESPACE);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_scheme(scheme: &Scheme) -> Self {
        let default_group_versions: Vec<GroupVersion> = scheme
            .prioritized_versions_all_groups()
            .into_iter()
            .filter(|gv| gv.version != API_VERSION_INTERNAL)
            .collect();
        let rank: HashMap<&GroupVersion, usize> = default_group_versions
            .iter()
            .enumerate()
            .map(|(i, gv)| (gv, i))
            .collect();
        let mut entries: Vec<(usize, ResourceEntry)> = scheme
            .resources()
            .into_iter()
            .filter(|(gvk, metadata)| is_served(gvk, metadata))
            .map(|(gvk, metadata)| {
                // Every registered version is in the priorities; the fallback only keeps
                // the order total.
                let rank = rank
                    .get(&gvk.group_version())
                    .copied()
                    .unwrap_or(usize::MAX);
                (rank, ResourceEntry::from_metadata(gvk.clone(), metadata))
            })
            .collect();
        // `resources()` is sorted by kind, so a stable sort keeps kinds in order within a
        // group version.
        entries.sort_by_key(|(rank, _)| *rank);
        ShortcutRESTMapper::from_entries(
            default_group_versions,
            entries.into_iter().map(|(_, entry)| entry),
        )
    }
}

impl APIGroupResources {
    /// What discovery would report for a server serving the resource kinds of `scheme`:
    /// the core group first, then the other groups in the scheme's priority order, each
    /// with its served versions, most preferred first. Internal versions are not served,
    /// nor are resources without verbs ([`ResourceMetadata::verbs`] empty: `k8s-types`
    /// registers versions Kubernetes no longer serves that way, for conversion).
    pub fn from_scheme(scheme: &Scheme) -> Vec<APIGroupResources> {
        // group → version → resources; versions keep the scheme's priority order below.
        let mut served: BTreeMap<&str, HashMap<String, Vec<APIResource>>> = BTreeMap::new();
        for (gvk, metadata) in scheme.resources() {
            if !is_served(gvk, metadata) {
                continue;
            }
            served
                .entry(gvk.group.as_str())
                .or_default()
                .entry(gvk.version.to_string())
                .or_default()
                .push(APIResource {
                    name: metadata.plural.to_owned(),
                    singular_name: metadata.singular.to_owned(),
                    namespaced: metadata.scope == ResourceScope::Namespaced,
                    group: gvk.group.to_string(),
                    version: gvk.version.to_string(),
                    kind: gvk.kind.to_string(),
                    short_names: metadata.short_names.iter().map(|s| s.to_string()).collect(),
                    categories: metadata.categories.iter().map(|s| s.to_string()).collect(),
                    verbs: Some(metadata.verbs.iter().map(|s| s.to_string()).collect()),
                    ..APIResource::default()
                });
        }
        let mut groups: Vec<Name> = Vec::new();
        for gv in scheme.prioritized_versions_all_groups() {
            if served.contains_key(gv.group.as_str()) && !groups.contains(&gv.group) {
                groups.push(gv.group);
            }
        }
        // Discovery lists `/api` (the core group) before `/apis`.
        groups.sort_by_key(|group| !group.is_empty());
        groups
            .into_iter()
            .filter_map(|group| {
                let mut by_version = served.remove(group.as_str())?;
                let versions: Vec<GroupVersionForDiscovery> = scheme
                    .prioritized_versions_for_group(&group)
                    .into_iter()
                    .filter(|gv| by_version.contains_key(gv.version.as_str()))
                    .map(|gv| GroupVersionForDiscovery {
                        group_version: gv.to_string(),
                        version: gv.version.to_string(),
                    })
                    .collect();
                let versioned_resources = versions
                    .iter()
                    .filter_map(|v| Some((v.version.clone(), by_version.remove(&v.version)?)))
                    .collect();
                Some(APIGroupResources {
                    group: APIGroup {
                        name: group.to_string(),
                        preferred_version: versions.first().cloned().unwrap_or_default(),
                        versions: Some(versions),
                        ..APIGroup::default()
                    },
                    versioned_resources,
                })
            })
            .collect()
    }
}

impl DiscoveryRESTMapper {
    /// The mapper kubectl would build from a server serving exactly the resource kinds
    /// of `scheme` (see [`APIGroupResources::from_scheme`]): ambiguous names resolve to
    /// the preferred version, short names and categories expand.
    ///
    /// ```
    /// use apimachinery::apis::meta::v1::ObjectMeta;
    /// use apimachinery::meta::{DiscoveryRESTMapper, RESTMapper};
    /// use apimachinery::runtime::{Resource, Scheme};
    /// use apimachinery::schema::{GroupVersion, GroupVersionResource};
    /// use apimachinery::ApiObject;
    ///
    /// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    /// #[api(group = "example.com", version = "v1", kind = "Widget", short_names = ["wd"])]
    /// pub struct Widget { pub metadata: ObjectMeta }
    ///
    /// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    /// #[api(group = "example.com", version = "v1beta1", kind = "Widget", short_names = ["wd"])]
    /// pub struct WidgetV1beta1 { pub metadata: ObjectMeta }
    ///
    /// let mut scheme = Scheme::new();
    /// scheme.register(&WidgetV1beta1::REGISTRATION)?;
    /// scheme.register(&Widget::REGISTRATION)?;
    /// scheme.set_version_priority(&[
    ///     GroupVersion::new("example.com", "v1"),
    ///     GroupVersion::new("example.com", "v1beta1"),
    /// ])?;
    /// let mapper = DiscoveryRESTMapper::from_scheme(&scheme);
    /// assert_eq!(mapper.kind_for(&GroupVersionResource::new("", "", "wd"))?, Widget::gvk());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_scheme(scheme: &Scheme) -> Self {
        DiscoveryRESTMapper::new(&APIGroupResources::from_scheme(scheme))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apis::meta::v1::ObjectMeta;
    use crate::meta::{RESTMapper, RESTMapperError};
    use crate::runtime::{CUSTOM_RESOURCE_VERBS, ObjectType, Registration, Resource};
    use crate::schema::{GroupKind, GroupResource, GroupVersionResource};
    use proptest::prelude::*;

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(
        group = "apps",
        version = "v1",
        kind = "Deployment",
        short_names = ["deploy"],
        categories = ["all"],
        extra_versions = ["__internal"]
    )]
    struct Deployment {
        metadata: ObjectMeta,
    }

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(
        group = "apps",
        version = "v1beta2",
        kind = "Deployment",
        short_names = ["deploy"],
        categories = ["all"]
    )]
    struct DeploymentV1beta2 {
        metadata: ObjectMeta,
    }

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(version = "v1", kind = "Pod", short_names = ["po"], categories = ["all"])]
    struct Pod {
        metadata: ObjectMeta,
    }

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(version = "v1", kind = "Endpoints", short_names = ["ep"])]
    struct Endpoints {
        metadata: ObjectMeta,
    }

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(version = "v1", kind = "Node", cluster_scoped, short_names = ["no"])]
    struct Node {
        metadata: ObjectMeta,
    }

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(version = "v1", kind = "DeleteOptions", not_resource)]
    struct DeleteOptions {}

    /// A version no longer served, kept for conversion: no verbs.
    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "extensions", version = "v1beta1", kind = "Deployment", verbs = [])]
    struct DeploymentExtensions {
        metadata: ObjectMeta,
    }

    fn scheme() -> Scheme {
        let mut scheme = Scheme::new();
        for registration in [
            &Pod::REGISTRATION,
            &Endpoints::REGISTRATION,
            &Node::REGISTRATION,
            &DeleteOptions::REGISTRATION,
            &DeploymentV1beta2::REGISTRATION,
            &Deployment::REGISTRATION,
            &DeploymentExtensions::REGISTRATION,
        ] {
            scheme.register(registration).unwrap();
        }
        let apps = |v: &'static str| GroupVersion::from_static("apps", v);
        scheme
            .set_version_priority(&[GroupVersion::from_static("", "v1")])
            .unwrap();
        scheme
            .set_version_priority(&[apps("v1"), apps("v1beta2")])
            .unwrap();
        scheme
    }

    fn bare(resource: &str) -> GroupVersionResource {
        GroupVersionResource::new("", "", resource)
    }

    #[test]
    fn short_names_singulars_and_plurals_resolve() {
        let mapper = ShortcutRESTMapper::from_scheme(&scheme());
        let v1 = GroupVersion::from_static("", "v1");
        let apps = GroupVersion::from_static("apps", "v1");
        assert_eq!(mapper.kind_for(&bare("po")).unwrap(), v1.with_kind("Pod"));
        assert_eq!(mapper.kind_for(&bare("pod")).unwrap(), v1.with_kind("Pod"));
        assert_eq!(mapper.kind_for(&bare("pods")).unwrap(), v1.with_kind("Pod"));
        assert_eq!(
            mapper.kind_for(&bare("ep")).unwrap(),
            v1.with_kind("Endpoints")
        );
        // `deploy` expands to `deployments`, served in two versions: Go's DefaultRESTMapper
        // lists both, preferred first, and will not pick one.
        assert!(matches!(
            mapper.kind_for(&bare("deploy")),
            Err(RESTMapperError::AmbiguousResource(e)) if e.matching_kinds.len() == 2
        ));
        assert_eq!(
            mapper
                .kind_for(&GroupVersionResource::new("apps", "v1", "deploy"))
                .unwrap(),
            apps.with_kind("Deployment")
        );
        assert_eq!(
            mapper.kinds_for(&bare("deployments")).unwrap(),
            vec![
                apps.with_kind("Deployment"),
                GroupVersionKind::from_static("apps", "v1beta2", "Deployment")
            ]
        );
        assert_eq!(
            mapper.resource_singularizer("deploy").unwrap(),
            "deployment"
        );
    }

    #[test]
    fn scopes_and_versions_come_from_the_types() {
        let mapper = ShortcutRESTMapper::from_scheme(&scheme());
        let node = mapper
            .rest_mapping(&GroupKind::new("", "Node"), &[])
            .unwrap();
        assert_eq!(node.scope, RESTScope::ROOT);
        assert_eq!(node.resource, GroupVersionResource::new("", "v1", "nodes"));
        let deployment = mapper
            .rest_mapping(&GroupKind::new("apps", "Deployment"), &[])
            .unwrap();
        assert_eq!(deployment.scope, RESTScope::NAMESPACE);
        assert_eq!(deployment.resource.version, "v1");
        let older = mapper
            .rest_mapping(&GroupKind::new("apps", "Deployment"), &["v1beta2"])
            .unwrap();
        assert_eq!(older.resource.version, "v1beta2");
    }

    #[test]
    fn internal_versions_and_non_resources_are_not_served() {
        let mapper = ShortcutRESTMapper::from_scheme(&scheme());
        assert!(matches!(
            mapper.rest_mapping(&GroupKind::new("apps", "Deployment"), &["__internal"]),
            Ok(m) if m.resource.version == "v1"
        ));
        // The internal version counts as no version.
        assert_eq!(
            mapper
                .kinds_for(&GroupVersionResource::new(
                    "apps",
                    "__internal",
                    "deployments"
                ))
                .unwrap(),
            mapper.kinds_for(&bare("deployments")).unwrap()
        );
        assert!(matches!(
            mapper.kind_for(&bare("deleteoptions")),
            Err(RESTMapperError::NoResourceMatch(_))
        ));
        // Nor are versions without verbs.
        assert!(matches!(
            mapper.kind_for(&GroupVersionResource::new("extensions", "", "deployments")),
            Err(RESTMapperError::NoResourceMatch(_))
        ));
    }

    #[test]
    fn resources_without_verbs_are_not_discovered() {
        let groups = APIGroupResources::from_scheme(&scheme());
        let names: Vec<&str> = groups.iter().map(|g| g.group.name.as_str()).collect();
        assert_eq!(names, ["", "apps"]);
        let deployments = groups[1].versioned_resources["v1"]
            .iter()
            .find(|r| r.name == "deployments")
            .unwrap();
        assert_eq!(deployments.verbs(), CUSTOM_RESOURCE_VERBS);
    }

    #[test]
    fn categories_expand_to_resources_in_preference_order() {
        let mapper = ShortcutRESTMapper::from_scheme(&scheme());
        assert_eq!(
            mapper.resources_for_category("all"),
            Some(
                &[
                    GroupResource::new("", "pods"),
                    GroupResource::new("apps", "deployments"),
                ][..]
            )
        );
    }

    #[test]
    fn the_discovery_flavour_picks_the_preferred_version() {
        let scheme = scheme();
        let groups = APIGroupResources::from_scheme(&scheme);
        let names: Vec<&str> = groups.iter().map(|g| g.group.name.as_str()).collect();
        assert_eq!(names, ["", "apps"]);
        assert_eq!(groups[1].group.preferred_version.version, "v1");
        assert_eq!(
            groups[1]
                .group
                .versions
                .iter()
                .flatten()
                .map(|v| v.group_version.as_str())
                .collect::<Vec<_>>(),
            ["apps/v1", "apps/v1beta2"]
        );

        let mapper = DiscoveryRESTMapper::from_scheme(&scheme);
        let apps = GroupVersion::from_static("apps", "v1");
        assert_eq!(
            mapper.kind_for(&bare("deploy")).unwrap(),
            apps.with_kind("Deployment")
        );
        assert_eq!(
            mapper.resource_for(&bare("no")).unwrap(),
            GroupVersionResource::new("", "v1", "nodes")
        );
        // Go's DefaultRESTMapper lists `endpoints` twice (singular and plural are the same
        // name) and calls it ambiguous; the discovery union de-duplicates, as client-go's.
        assert_eq!(
            mapper.resource_for(&bare("ep")).unwrap(),
            GroupVersionResource::new("", "v1", "endpoints")
        );
        assert!(matches!(
            ShortcutRESTMapper::from_scheme(&scheme).resource_for(&bare("ep")),
            Err(RESTMapperError::AmbiguousResource(_))
        ));
        assert_eq!(
            mapper
                .rest_mapping(&GroupKind::new("apps", "Deployment"), &[])
                .unwrap()
                .resource,
            apps.with_resource("deployments")
        );
        assert!(matches!(
            mapper.kind_for(&bare("deleteoptions")),
            Err(RESTMapperError::NoResourceMatch(_))
        ));
    }

    /// Kind names that are distinct resources once lower-cased and pluralized: a kind
    /// whose singular is another's plural (`Foos` next to `Foo`) is ambiguous in Go too.
    fn distinct_kinds(kinds: Vec<String>) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        let mut taken: Vec<String> = Vec::new();
        for kind in kinds {
            let gvk = GroupVersionKind::new("", "v1", kind.as_str());
            let (plural, singular) = crate::meta::unsafe_guess_kind_to_resource(&gvk);
            if taken.contains(&plural.resource.to_string())
                || taken.contains(&singular.resource.to_string())
            {
                continue;
            }
            taken.push(plural.resource.to_string());
            taken.push(singular.resource.to_string());
            names.push(kind);
        }
        names
    }

    fn leak(s: String) -> &'static str {
        Box::leak(s.into_boxed_str())
    }

    proptest! {
        /// For every registered kind, the resource of its mapping maps back to it.
        #[test]
        fn rest_mapping_then_kind_for_returns_the_kind(
            groups in proptest::collection::vec(
                (
                    "([a-z]{1,6}\\.)?[a-z]{1,6}",
                    proptest::collection::vec("v[1-3](alpha[1-2]|beta[1-2])?", 1..3),
                    proptest::collection::vec("[A-Z][a-zA-Z]{0,8}", 1..5),
                    any::<bool>(),
                ),
                1..5,
            ),
        ) {
            let mut scheme = Scheme::new();
            let mut registered: Vec<GroupVersionKind> = Vec::new();
            let mut seen_groups: Vec<String> = Vec::new();
            for (group, versions, kinds, namespaced) in groups {
                if seen_groups.contains(&group) {
                    continue;
                }
                seen_groups.push(group.clone());
                let group = leak(group);
                let kinds = distinct_kinds(kinds);
                for version in versions {
                    let version = leak(version);
                    for kind in &kinds {
                        let kind = leak(kind.clone());
                        let gvk = GroupVersionKind::from_static(group, version, kind);
                        if registered.contains(&gvk) {
                            continue;
                        }
                        let (plural, singular) = crate::meta::unsafe_guess_kind_to_resource(&gvk);
                        let registration = Registration {
                            group,
                            version,
                            kind,
                            extra_versions: &[],
                            unversioned: false,
                            object_type: ObjectType::with_kind::<Pod>(kind),
                            resource: Some(ResourceMetadata {
                                plural: leak(plural.resource.to_string()),
                                singular: leak(singular.resource.to_string()),
                                short_names: &[],
                                categories: &[],
                                verbs: CUSTOM_RESOURCE_VERBS,
                                scope: if namespaced {
                                    ResourceScope::Namespaced
                                } else {
                                    ResourceScope::Cluster
                                },
                            }),
                        };
                        scheme.register(&registration).unwrap();
                        registered.push(gvk);
                    }
                }
            }
            let mapper = ShortcutRESTMapper::from_scheme(&scheme);
            let discovery = DiscoveryRESTMapper::from_scheme(&scheme);
            for gvk in &registered {
                let mapping = discovery
                    .rest_mapping(&gvk.group_kind(), &[gvk.version.as_str()])
                    .unwrap();
                prop_assert_eq!(&discovery.kind_for(&mapping.resource).unwrap(), gvk);
                let mapping = mapper
                    .rest_mapping(&gvk.group_kind(), &[gvk.version.as_str()])
                    .unwrap();
                prop_assert_eq!(&mapping.group_version_kind, gvk);
                prop_assert_eq!(&mapper.kind_for(&mapping.resource).unwrap(), gvk);
                // Without a version, the mapping is the group's preferred version, which
                // also maps back.
                let preferred = mapper.rest_mapping(&gvk.group_kind(), &[]).unwrap();
                prop_assert_eq!(
                    &mapper.kind_for(&preferred.resource).unwrap(),
                    &preferred.group_version_kind
                );
            }
        }
    }
}
