//! The discovery.k8s.io group's resources with something of their own (Go's
//! `pkg/registry/discovery`).

pub mod endpointslice;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of discovery.k8s.io resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "endpointslices" => endpointslice::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
