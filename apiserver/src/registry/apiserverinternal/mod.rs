//! The internal.apiserver.k8s.io group's resources (Go's `pkg/registry/apiserverinternal`):
//! StorageVersions print their table.

pub mod storageversion;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of internal.apiserver.k8s.io resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "storageversions" => storageversion::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
