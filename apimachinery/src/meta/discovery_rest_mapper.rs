//! [`DiscoveryRESTMapper`]: the mapper of a live cluster, built from its discovery
//! documents (client-go's `restmapper.NewDiscoveryRESTMapper` with kubectl's shortcut and
//! category expansion).

use std::collections::HashMap;

use super::aggregated_discovery::parse_aggregated_discovery;
use super::kind_to_resource::go_to_lower;
use super::multi_rest_mapper::union;
use super::{
    ANY_KIND, ANY_RESOURCE, ANY_VERSION, AggregatedDiscoveryError, CategoryExpander,
    DefaultRESTMapper, NoResourceMatchError, PriorityRESTMapper, RESTMapper, RESTMapperError,
    RESTMapping, RESTScope, ShortcutExpander, ShortcutRESTMapper, WarningHandler,
    unsafe_guess_kind_to_resource,
};
use crate::apis::meta::v1::{APIGroup, APIGroupList, APIResource, APIResourceList, APIVersions};
use crate::schema::{
    GroupKind, GroupResource, GroupVersion, GroupVersionKind, GroupVersionResource, Name,
};

/// One API group with its resources by version (client-go's `APIGroupResources`): what
/// discovery says about a group, fetched or read from a cache.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct APIGroupResources {
    /// The group, its versions (preferred first) and its preferred version.
    pub group: APIGroup,
    /// The resources each version serves, keyed by version (`v1`).
    pub versioned_resources: HashMap<String, Vec<APIResource>>,
}

impl APIGroupResources {
    /// Pairs each group version of `groups` with its resource list (client-go's
    /// `GetAPIGroupResources`); versions without a list are left out.
    ///
    /// Lists are matched on `groupVersion` (`apps/v1`, `v1`). The core group is not in the
    /// `/apis` list: put [`api_versions_to_api_group`] of `/api` first, as client-go does.
    pub fn from_discovery(
        groups: &APIGroupList,
        resource_lists: &[APIResourceList],
    ) -> Vec<APIGroupResources> {
        let by_group_version: HashMap<&str, &APIResourceList> = resource_lists
            .iter()
            .map(|list| (list.group_version.as_str(), list))
            .collect();
        groups
            .groups
            .iter()
            .flatten()
            .map(|group| APIGroupResources {
                group: group.clone(),
                versioned_resources: group
                    .versions
                    .iter()
                    .flatten()
                    .filter_map(|v| {
                        let list = by_group_version.get(v.group_version.as_str())?;
                        Some((
                            v.version.clone(),
                            list.resources.clone().unwrap_or_default(),
                        ))
                    })
                    .collect(),
            })
            .collect()
    }
}

/// The core group as client-go presents `/api`: the group named `""` whose versions are
/// those served there, the first preferred.
pub fn api_versions_to_api_group(api_versions: &APIVersions) -> APIGroup {
    // Never nil, as in client-go, which starts from an empty slice.
    let versions: Vec<_> = api_versions
        .versions
        .iter()
        .flatten()
        .map(|v| crate::apis::meta::v1::GroupVersionForDiscovery {
            group_version: v.clone(),
            version: v.clone(),
        })
        .collect();
    APIGroup {
        preferred_version: versions.first().cloned().unwrap_or_default(),
        versions: Some(versions),
        ..APIGroup::default()
    }
}

/// The mapper kubectl uses: every resource a cluster serves, from its discovery
/// documents, with short names and categories.
///
/// Built as client-go's `NewDiscoveryRESTMapper` builds it, for identical answers:
///
/// * one [`DefaultRESTMapper`] per group version, holding each resource (subresources
///   such as `deployments/scale` are skipped) under its kind, its lower-case kind, and a
///   guessed `<Kind>List`, plus `List`; their union answers lookups;
/// * a [`PriorityRESTMapper`] over the union prefers the core `v1`, then each group's
///   preferred version, then its other versions in discovery order, then anything of the
///   groups in discovery order.
///
/// On top, as kubectl does, short names from discovery are expanded before a resource is
/// looked up (`deploy` → `deployments`; see [`ShortcutExpander`]) and categories are
/// known ([`resources_for_category`](Self::resources_for_category)). For Go's mapper
/// without expansion, use [`without_shortcuts`](Self::without_shortcuts).
///
/// Go's union asks every group version's mapper; this one keeps an index of which
/// mappers know a resource or kind name and asks only those, which gives the same
/// answers at a cost that does not grow with the size of the cluster.
///
/// ```
/// use apimachinery::meta::{DiscoveryRESTMapper, RESTMapper};
/// use apimachinery::schema::{GroupKind, GroupResource, GroupVersionResource};
///
/// let apis = r#"{"kind": "APIGroupDiscoveryList", "apiVersion": "apidiscovery.k8s.io/v2",
///   "items": [{"metadata": {"name": "apps"}, "versions": [{"version": "v1", "resources": [
///     {"resource": "deployments", "singularResource": "deployment", "scope": "Namespaced",
///      "responseKind": {"group": "apps", "version": "v1", "kind": "Deployment"},
///      "verbs": ["get"], "shortNames": ["deploy"], "categories": ["all"]}]}]}]}"#;
/// let mapper = DiscoveryRESTMapper::from_aggregated_discovery(&[apis])?;
///
/// let deploy = GroupVersionResource::new("", "", "deploy");
/// assert_eq!(mapper.resource_for(&deploy)?, GroupVersionResource::new("apps", "v1", "deployments"));
/// let mapping = mapper.rest_mapping(&GroupKind::new("apps", "Deployment"), &[])?;
/// assert_eq!(mapping.resource.resource, "deployments");
/// assert_eq!(mapper.resources_for_category("all"), Some(&[GroupResource::new("apps", "deployments")][..]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct DiscoveryRESTMapper {
    inner: ShortcutRESTMapper<PriorityRESTMapper<GroupVersionMappers>>,
}

impl DiscoveryRESTMapper {
    /// The mapper of the given groups, listed in discovery order (core group first).
    pub fn new(groups: &[APIGroupResources]) -> Self {
        let parts = Parts::new(groups);
        let mut union = GroupVersionMappers::default();
        for mapper in parts.mappers {
            union.push(mapper);
        }
        let priority = PriorityRESTMapper::new(union, parts.resource_priority, parts.kind_priority);
        DiscoveryRESTMapper {
            inner: ShortcutRESTMapper::new(priority, parts.shortcuts, parts.categories),
        }
    }

    /// The mapper of legacy discovery documents: the group list (with the core group,
    /// see [`APIGroupResources::from_discovery`]) and the resource list of each group
    /// version.
    pub fn from_discovery(groups: &APIGroupList, resource_lists: &[APIResourceList]) -> Self {
        Self::new(&APIGroupResources::from_discovery(groups, resource_lists))
    }

    /// The mapper of aggregated discovery documents (`apidiscovery.k8s.io/v2`
    /// `APIGroupDiscoveryList` JSON), given in discovery order: `/api`, then `/apis`.
    pub fn from_aggregated_discovery(documents: &[&str]) -> Result<Self, AggregatedDiscoveryError> {
        Ok(Self::new(&parse_aggregated_discovery(documents)?))
    }

    /// Sends warnings about ambiguous short names to `handler`, as kubectl prints them.
    pub fn with_warning_handler(self, handler: WarningHandler) -> Self {
        DiscoveryRESTMapper {
            inner: self.inner.with_warning_handler(handler),
        }
    }

    /// The resource a user most likely meant by a name that may be a short name.
    pub fn expand_short_name(&self, resource: &GroupVersionResource) -> GroupVersionResource {
        self.inner.expand_short_name(resource)
    }

    /// The resources of a category such as `all`, in discovery order; `None` when no
    /// resource declares it.
    pub fn resources_for_category(&self, category: &str) -> Option<&[GroupResource]> {
        self.inner.resources_for_category(category)
    }

    /// The short names, in priority order.
    pub fn shortcuts(&self) -> &ShortcutExpander {
        &self.inner.shortcuts
    }

    /// The mapper without short-name expansion: exactly client-go's
    /// `NewDiscoveryRESTMapper`.
    pub fn without_shortcuts(&self) -> &dyn RESTMapper {
        &self.inner.delegate
    }
}

/// What discovery turns into: the group versions' mappers, in discovery order, the
/// priority patterns, and the names for expansion.
struct Parts {
    mappers: Vec<DefaultRESTMapper>,
    resource_priority: Vec<GroupVersionResource>,
    kind_priority: Vec<GroupVersionKind>,
    shortcuts: ShortcutExpander,
    categories: CategoryExpander,
}

impl Parts {
    fn new(groups: &[APIGroupResources]) -> Self {
        fn any(group: &str, version: &str) -> (GroupVersionResource, GroupVersionKind) {
            (
                GroupVersionResource::new(group, version, ANY_RESOURCE),
                GroupVersionKind::new(group, version, ANY_KIND),
            )
        }
        // The core v1 always comes first.
        let (r, k) = any("", "v1");
        let mut parts = Parts {
            mappers: Vec::new(),
            resource_priority: vec![r],
            kind_priority: vec![k],
            shortcuts: ShortcutExpander::default(),
            categories: CategoryExpander::default(),
        };
        fn push_priority(parts: &mut Parts, group: &str, version: &str) {
            let (r, k) = any(group, version);
            parts.resource_priority.push(r);
            parts.kind_priority.push(k);
        }
        for group in groups {
            let name = group.group.name.as_str();
            let preferred = group.group.preferred_version.version.as_str();
            if !preferred.is_empty() && group.versioned_resources.contains_key(preferred) {
                push_priority(&mut parts, name, preferred);
            }
            for version in group.group.versions.iter().flatten() {
                let Some(resources) = group.versioned_resources.get(&version.version) else {
                    continue;
                };
                // Other versions follow, for resources only they serve.
                if version.version != preferred {
                    push_priority(&mut parts, name, &version.version);
                }
                let gv = GroupVersion::new(name, version.version.as_str());
                parts.mappers.push(version_mapper(&gv, resources));
                for resource in resources {
                    register_names(
                        &mut parts.shortcuts,
                        &mut parts.categories,
                        &gv.group,
                        resource,
                    );
                }
            }
        }
        for group in groups {
            push_priority(&mut parts, &group.group.name, ANY_VERSION);
        }
        parts
    }
}

/// A group version's mapper, filled as client-go fills it.
fn version_mapper(gv: &GroupVersion, resources: &[APIResource]) -> DefaultRESTMapper {
    let mut mapper = DefaultRESTMapper::new(vec![gv.clone()]);
    for resource in resources {
        // Subresources have no mappings of their own.
        if resource.name.contains('/') {
            continue;
        }
        let scope = RESTScope::from_namespaced(resource.namespaced);
        let kind = gv.with_kind(resource.kind.as_str());
        let plural = gv.with_resource(resource.name.as_str());
        let singular = if resource.singular_name.is_empty() {
            // Old servers list no singular; guess it.
            unsafe_guess_kind_to_resource(&kind).1
        } else {
            gv.with_resource(resource.singular_name.as_str())
        };
        mapper.add_specific(
            gv.with_kind(go_to_lower(&kind.kind)),
            plural.clone(),
            singular.clone(),
            scope,
        );
        mapper.add_specific(kind.clone(), plural, singular, scope);
        // A guess that may not exist, as client-go makes it.
        mapper.add(gv.with_kind(format!("{}List", resource.kind)), scope);
    }
    mapper.add(gv.with_kind("List"), RESTScope::ROOT);
    mapper
}

fn register_names(
    shortcuts: &mut ShortcutExpander,
    categories: &mut CategoryExpander,
    group: &Name,
    resource: &APIResource,
) {
    let plural = Name::new(&resource.name);
    let short_names: Vec<Name> = resource.short_names.iter().map(Name::from).collect();
    shortcuts.add_resource(
        group,
        &plural,
        &Name::new(&resource.singular_name),
        &short_names,
    );
    for category in &resource.categories {
        categories.add(
            &Name::new(category),
            GroupResource::new(group.clone(), plural.clone()),
        );
    }
}

/// Go's `MultiRESTMapper` of per-group-version mappers, with an index of which mappers
/// know each resource name and kind name.
///
/// A mapper that does not know a name can only answer "no match", which the union skips,
/// so asking only the indexed ones gives the union's answers. The one exception is
/// `resource_singularizer`, whose result when every mapper fails is the last mapper's
/// error; that is reproduced below.
#[derive(Debug, Default)]
struct GroupVersionMappers {
    mappers: Vec<DefaultRESTMapper>,
    /// Resource name → mappers knowing it, ascending.
    by_resource: HashMap<Name, Vec<usize>>,
    /// Kind name → mappers knowing it, ascending.
    by_kind: HashMap<Name, Vec<usize>>,
}

impl GroupVersionMappers {
    fn push(&mut self, mapper: DefaultRESTMapper) {
        let at = self.mappers.len();
        for name in mapper.resource_names() {
            push_once(self.by_resource.entry(name.clone()).or_default(), at);
        }
        for name in mapper.kind_names() {
            push_once(self.by_kind.entry(name.clone()).or_default(), at);
        }
        self.mappers.push(mapper);
    }

    fn at<'a>(&'a self, positions: &'a [usize]) -> impl Iterator<Item = &'a dyn RESTMapper> {
        positions
            .iter()
            .map(|&at| &self.mappers[at] as &dyn RESTMapper)
    }

    fn all(&self) -> impl Iterator<Item = &dyn RESTMapper> {
        self.mappers.iter().map(|m| m as &dyn RESTMapper)
    }

    /// The mappers that can match `resource`; all of them when there is no name, so the
    /// first one reports the missing name as Go's union does.
    fn knowing_resource(&self, resource: &str) -> Box<dyn Iterator<Item = &dyn RESTMapper> + '_> {
        let name = go_to_lower(&Name::new(resource));
        if name.is_empty() {
            return Box::new(self.all());
        }
        let positions = self
            .by_resource
            .get(name.as_str())
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        Box::new(self.at(positions))
    }

    fn knowing_kind(&self, kind: &str) -> impl Iterator<Item = &dyn RESTMapper> {
        self.at(self.by_kind.get(kind).map(Vec::as_slice).unwrap_or(&[]))
    }
}

fn push_once(positions: &mut Vec<usize>, at: usize) {
    if positions.last() != Some(&at) {
        positions.push(at);
    }
}

impl RESTMapper for GroupVersionMappers {
    fn kind_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<GroupVersionKind, RESTMapperError> {
        union::kind_for(self.knowing_resource(&resource.resource), resource)
    }

    fn kinds_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionKind>, RESTMapperError> {
        union::kinds_for(self.knowing_resource(&resource.resource), resource)
    }

    fn resource_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<GroupVersionResource, RESTMapperError> {
        union::resource_for(self.knowing_resource(&input.resource), input)
    }

    fn resources_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionResource>, RESTMapperError> {
        union::resources_for(self.knowing_resource(&input.resource), input)
    }

    fn rest_mapping(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<RESTMapping, RESTMapperError> {
        union::rest_mapping(self.knowing_kind(&gk.kind), gk, versions)
    }

    fn rest_mappings(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<Vec<RESTMapping>, RESTMapperError> {
        union::rest_mappings(self.knowing_kind(&gk.kind), gk, versions)
    }

    fn resource_singularizer(&self, resource: &str) -> Result<String, RESTMapperError> {
        let name = go_to_lower(&Name::new(resource));
        if name.is_empty() {
            return union::resource_singularizer(self.all(), resource);
        }
        let positions = self
            .by_resource
            .get(name.as_str())
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let result = union::resource_singularizer(self.at(positions), resource);
        // Go reports the last mapper's error; a mapper outside the index fails with
        // "no match" for the lower-cased name.
        match result {
            Err(_) if positions.last() != self.mappers.len().checked_sub(1).as_ref() => {
                Err(NoResourceMatchError {
                    partial_resource: GroupVersionResource::new(Name::EMPTY, Name::EMPTY, name),
                }
                .into())
            }
            other => other,
        }
    }
}

impl RESTMapper for DiscoveryRESTMapper {
    fn kind_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<GroupVersionKind, RESTMapperError> {
        self.inner.kind_for(resource)
    }

    fn kinds_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionKind>, RESTMapperError> {
        self.inner.kinds_for(resource)
    }

    fn resource_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<GroupVersionResource, RESTMapperError> {
        self.inner.resource_for(input)
    }

    fn resources_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionResource>, RESTMapperError> {
        self.inner.resources_for(input)
    }

    fn rest_mapping(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<RESTMapping, RESTMapperError> {
        self.inner.rest_mapping(gk, versions)
    }

    fn rest_mappings(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<Vec<RESTMapping>, RESTMapperError> {
        self.inner.rest_mappings(gk, versions)
    }

    fn resource_singularizer(&self, resource: &str) -> Result<String, RESTMapperError> {
        self.inner.resource_singularizer(resource)
    }
}

#[cfg(test)]
#[path = "discovery_rest_mapper_tests.rs"]
mod tests;
