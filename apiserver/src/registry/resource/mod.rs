//! The resource.k8s.io group's resources with something of their own (Go's
//! `pkg/registry/resource`).

pub mod resourceslice;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of resource.k8s.io resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "resourceslices" => resourceslice::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
