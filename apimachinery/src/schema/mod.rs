//! Group, version, kind and resource identifiers and their parsing (Go's
//! `k8s.io/apimachinery/pkg/runtime/schema`).
//!
//! | type | `Display` (Go's `String()`) | parse |
//! | --- | --- | --- |
//! | [`GroupVersion`] | `apps/v1`, `v1` | [`parse_group_version`], `str::parse` |
//! | [`GroupVersionKind`] | `apps/v1, Kind=Deployment`, `/v1, Kind=Pod` | `str::parse` |
//! | [`GroupVersionResource`] | `apps/v1, Resource=deployments` | `str::parse` |
//! | [`GroupKind`] | `Deployment.apps`, `Pod` | [`parse_group_kind`], [`parse_kind_arg`] |
//! | [`GroupResource`] | `deployments.apps`, `pods` | [`parse_group_resource`], [`parse_resource_arg`] |
//!
//! Every component is a [`Name`], so these values are cheap to clone, hash and compare.

mod group_version;
mod group_version_kind;
mod group_version_resource;
mod group_versioner;
mod name;

pub(crate) use group_version::split_group_version;
pub use group_version::{GroupVersion, GroupVersions, ParseGroupVersionError, parse_group_version};
pub use group_version_kind::{
    GroupKind, GroupVersionKind, ParseGroupVersionKindError, parse_group_kind, parse_kind_arg,
};
pub use group_version_resource::{
    GroupResource, GroupVersionResource, ParseGroupVersionResourceError, parse_group_resource,
    parse_resource_arg,
};
pub use group_versioner::{
    API_VERSION_INTERNAL, DisabledGroupVersioner, GroupVersioner, InternalGroupVersioner,
    MultiGroupVersioner,
};
pub use name::Name;

#[cfg(test)]
mod proptests;
