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
//!
//! Errors are [`RestMapperError`], with Go's messages; [`is_no_match_error`] and
//! [`is_ambiguous_error`] classify them.

mod default_rest_mapper;
mod error;
mod first_hit_rest_mapper;
mod kind_to_resource;
mod multi_rest_mapper;
mod priority_rest_mapper;
mod rest_mapper;

pub use default_rest_mapper::DefaultRESTMapper;
pub use error::{
    AmbiguousKindError, AmbiguousResourceError, NoKindMatchError, NoResourceMatchError,
    RestMapperError, is_ambiguous_error, is_no_match_error,
};
pub use first_hit_rest_mapper::FirstHitRESTMapper;
pub use kind_to_resource::unsafe_guess_kind_to_resource;
pub use multi_rest_mapper::MultiRESTMapper;
pub use priority_rest_mapper::{
    ANY_GROUP, ANY_KIND, ANY_RESOURCE, ANY_VERSION, PriorityRESTMapper,
};
pub use rest_mapper::{RESTMapper, RESTMapping, RESTScope, RESTScopeName};

#[cfg(test)]
#[path = "../../benches/support/naive_rest_mapper.rs"]
mod naive_rest_mapper;
