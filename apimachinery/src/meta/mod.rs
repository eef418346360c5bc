//! Mapping between resources and kinds (Go's `k8s.io/apimachinery/pkg/api/meta` REST
//! mappers, and client-go's discovery-built mapper and shortcut expander).
//!
//! A user or a URL names a *resource* (`deployments`, `deploy`, `deployments.v1.apps`); an
//! object carries a *kind* (`apps/v1, Kind=Deployment`). A [`RESTMapper`] answers both
//! ways, and says where a kind is served ([`RESTMapping`]).
//!
//! | type | what it is |
//! | --- | --- |
//! | [`DefaultRESTMapper`] | kinds registered one by one; Go's matching rules, indexed |
//! | [`MultiRESTMapper`] | the union of several mappers |
//! | [`FirstHitRESTMapper`] | several mappers, the first success wins |
//! | [`PriorityRESTMapper`] | one answer out of several, by preference patterns |
//! | [`ShortcutRESTMapper`] | expands short names (`deploy`) first; knows categories (`all`) |
//! | [`DiscoveryRESTMapper`] | a cluster's mapper, from its discovery documents, as kubectl builds it |
//!
//! To build a mapper from the types registered in a [`Scheme`](crate::runtime::Scheme),
//! call [`DiscoveryRESTMapper::from_scheme`] (kubectl's answers: the preferred version
//! wins) or [`ShortcutRESTMapper::from_scheme`] (Go's `DefaultRESTMapper` answers: a
//! resource in several versions is ambiguous); from other types known up front, list them as
//! [`ResourceEntry`] values and call [`ShortcutRESTMapper::from_entries`].
//!
//! Errors are [`RESTMapperError`], with Go's messages; [`is_no_match_error`] and
//! [`is_ambiguous_error`] classify them.

mod aggregated_discovery;
mod category;
mod default_rest_mapper;
mod discovery_rest_mapper;
mod error;
mod first_hit_rest_mapper;
mod kind_to_resource;
mod multi_rest_mapper;
mod priority_rest_mapper;
mod resource_entry;
mod rest_mapper;
mod scheme_rest_mapper;
mod shortcut;

pub use aggregated_discovery::AggregatedDiscoveryError;
pub use category::CategoryExpander;
pub use default_rest_mapper::DefaultRESTMapper;
pub use discovery_rest_mapper::{
    APIGroupResources, DiscoveryRESTMapper, api_versions_to_api_group,
};
pub use error::{
    AmbiguousKindError, AmbiguousResourceError, NoKindMatchError, NoResourceMatchError,
    RESTMapperError, is_ambiguous_error, is_no_match_error,
};
pub use first_hit_rest_mapper::FirstHitRESTMapper;
pub use kind_to_resource::unsafe_guess_kind_to_resource;
pub use multi_rest_mapper::MultiRESTMapper;
pub use priority_rest_mapper::{
    ANY_GROUP, ANY_KIND, ANY_RESOURCE, ANY_VERSION, PriorityRESTMapper,
};
pub use resource_entry::ResourceEntry;
pub use rest_mapper::{RESTMapper, RESTMapping, RESTScope, RESTScopeName};
pub use shortcut::{ResourceShortcut, ShortcutExpander, ShortcutRESTMapper, WarningHandler};

#[cfg(test)]
#[path = "../../benches/support/naive_rest_mapper.rs"]
mod naive_rest_mapper;
