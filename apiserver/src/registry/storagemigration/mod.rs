//! The storagemigration.k8s.io group's resources (Go's `pkg/registry/storagemigration`):
//! StorageVersionMigrations print their table.

pub mod storageversionmigration;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of storagemigration.k8s.io resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "storageversionmigrations" => storageversionmigration::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
