//! The [`RESTMapper`] trait and what it answers with: [`RESTMapping`] and [`RESTScope`].

use std::fmt;
use std::sync::Arc;

use super::RESTMapperError;
use crate::schema::{GroupKind, GroupVersionKind, GroupVersionResource};

/// Whether the objects of a resource live inside a namespace or at the root of the API.
///
/// The two names are Go's `RESTScopeNameNamespace` (`"namespace"`) and `RESTScopeNameRoot`
/// (`"root"`); they decide whether a request path carries `/namespaces/{ns}/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RESTScopeName {
    /// Objects live in a namespace: pods, deployments, config maps.
    Namespace,
    /// Objects are cluster-wide: nodes, namespaces, persistent volumes.
    Root,
}

impl RESTScopeName {
    /// The name as Go spells it (`"namespace"` or `"root"`), for messages and wire formats.
    pub const fn as_str(self) -> &'static str {
        match self {
            RESTScopeName::Namespace => "namespace",
            RESTScopeName::Root => "root",
        }
    }
}

impl fmt::Display for RESTScopeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The scope a [`RESTMapping`] was registered with.
///
/// Go models the scope as an interface with one method, `Name()`, and two shared values;
/// here it is a small copyable value with the same two constants, [`RESTScope::NAMESPACE`]
/// and [`RESTScope::ROOT`], so mappings can be compared and hashed.
///
/// ```
/// use apimachinery::meta::{RESTScope, RESTScopeName};
/// assert_eq!(RESTScope::NAMESPACE.name(), RESTScopeName::Namespace);
/// assert_eq!(RESTScope::ROOT.name().to_string(), "root");
/// assert_eq!(RESTScope::from_namespaced(false), RESTScope::ROOT);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RESTScope {
    name: RESTScopeName,
}

impl RESTScope {
    /// Go's `RESTScopeNamespace`.
    pub const NAMESPACE: RESTScope = RESTScope {
        name: RESTScopeName::Namespace,
    };
    /// Go's `RESTScopeRoot`.
    pub const ROOT: RESTScope = RESTScope {
        name: RESTScopeName::Root,
    };

    /// The scope's name, which is all a client needs to build request paths.
    pub const fn name(self) -> RESTScopeName {
        self.name
    }

    /// The scope from discovery's `namespaced` flag.
    pub const fn from_namespaced(namespaced: bool) -> RESTScope {
        if namespaced {
            RESTScope::NAMESPACE
        } else {
            RESTScope::ROOT
        }
    }
}

/// Everything a REST client needs to act on objects of one kind: where they live
/// (`resource`), what they look like on the wire (`group_version_kind`) and whether the
/// path is namespaced (`scope`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RESTMapping {
    /// The endpoint, such as `apps/v1, Resource=deployments`.
    pub resource: GroupVersionResource,
    /// The kind to send to and expect from that endpoint.
    pub group_version_kind: GroupVersionKind,
    /// Whether the endpoint is namespaced.
    pub scope: RESTScope,
}

/// Maps between the resources users and URLs name and the kinds objects carry (Go's
/// `meta.RESTMapper`).
///
/// The lookups take a *partial* [`GroupVersionResource`]: only `resource` is required;
/// `group` and `version` narrow the search when given. Resources and kinds are not unique
/// across groups, so the plural methods (`kinds_for`, `resources_for`, `rest_mappings`)
/// return every candidate in priority order and the singular ones fail with an
/// ambiguity error when more than one matches.
///
/// The trait is object safe: wrappers such as [`MultiRESTMapper`](super::MultiRESTMapper)
/// hold `Box<dyn RESTMapper>`, and `Box`, `Arc` and `&` of a mapper are mappers.
///
/// ```
/// use apimachinery::meta::{DefaultRESTMapper, RESTMapper, RESTScope};
/// use apimachinery::schema::{GroupKind, GroupVersion, GroupVersionResource};
///
/// let apps_v1 = GroupVersion::new("apps", "v1");
/// let mut mapper = DefaultRESTMapper::new(vec![apps_v1.clone()]);
/// mapper.add(apps_v1.with_kind("Deployment"), RESTScope::NAMESPACE);
///
/// let mapper: &dyn RESTMapper = &mapper;
/// let kind = mapper.kind_for(&GroupVersionResource::new("", "", "deployments"))?;
/// assert_eq!(kind, apps_v1.with_kind("Deployment"));
/// let mapping = mapper.rest_mapping(&GroupKind::new("apps", "Deployment"), &[])?;
/// assert_eq!(mapping.resource, apps_v1.with_resource("deployments"));
/// # Ok::<(), apimachinery::meta::RESTMapperError>(())
/// ```
pub trait RESTMapper: Send + Sync + fmt::Debug {
    /// The single kind a partial resource names; an ambiguity error when several match.
    fn kind_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<GroupVersionKind, RESTMapperError>;

    /// Every kind a partial resource may name, most preferred first.
    fn kinds_for(
        &self,
        resource: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionKind>, RESTMapperError>;

    /// The single fully qualified, plural resource a partial resource names; an ambiguity
    /// error when several match.
    fn resource_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<GroupVersionResource, RESTMapperError>;

    /// Every fully qualified, plural resource a partial resource may name, most preferred
    /// first.
    fn resources_for(
        &self,
        input: &GroupVersionResource,
    ) -> Result<Vec<GroupVersionResource>, RESTMapperError>;

    /// The preferred mapping for a group and kind; `versions`, when given, are tried in
    /// order before the mapper's own preferences.
    fn rest_mapping(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<RESTMapping, RESTMapperError>;

    /// Every mapping for a group and kind when no version is given, else the mappings of
    /// the first given version that exists.
    fn rest_mappings(
        &self,
        gk: &GroupKind,
        versions: &[&str],
    ) -> Result<Vec<RESTMapping>, RESTMapperError>;

    /// The singular name of a plural resource (`pods` to `pod`), for messages to users.
    fn resource_singularizer(&self, resource: &str) -> Result<String, RESTMapperError>;
}

macro_rules! forward_rest_mapper {
    ($($ty:ty),*) => {$(
        impl<T: RESTMapper + ?Sized> RESTMapper for $ty {
            fn kind_for(
                &self,
                resource: &GroupVersionResource,
            ) -> Result<GroupVersionKind, RESTMapperError> {
                (**self).kind_for(resource)
            }
            fn kinds_for(
                &self,
                resource: &GroupVersionResource,
            ) -> Result<Vec<GroupVersionKind>, RESTMapperError> {
                (**self).kinds_for(resource)
            }
            fn resource_for(
                &self,
                input: &GroupVersionResource,
            ) -> Result<GroupVersionResource, RESTMapperError> {
                (**self).resource_for(input)
            }
            fn resources_for(
                &self,
                input: &GroupVersionResource,
            ) -> Result<Vec<GroupVersionResource>, RESTMapperError> {
                (**self).resources_for(input)
            }
            fn rest_mapping(
                &self,
                gk: &GroupKind,
                versions: &[&str],
            ) -> Result<RESTMapping, RESTMapperError> {
                (**self).rest_mapping(gk, versions)
            }
            fn rest_mappings(
                &self,
                gk: &GroupKind,
                versions: &[&str],
            ) -> Result<Vec<RESTMapping>, RESTMapperError> {
                (**self).rest_mappings(gk, versions)
            }
            fn resource_singularizer(&self, resource: &str) -> Result<String, RESTMapperError> {
                (**self).resource_singularizer(resource)
            }
        }
    )*};
}

forward_rest_mapper!(Box<T>, Arc<T>, &T);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_names_are_gos() {
        assert_eq!(RESTScope::NAMESPACE.name().as_str(), "namespace");
        assert_eq!(RESTScope::ROOT.name().as_str(), "root");
        assert_eq!(RESTScope::from_namespaced(true), RESTScope::NAMESPACE);
        assert_ne!(RESTScope::NAMESPACE, RESTScope::ROOT);
    }
}
