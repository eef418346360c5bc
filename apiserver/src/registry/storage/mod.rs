//! The storage.k8s.io group's resources (Go's `pkg/registry/storage`): each but
//! CSIStorageCapacities answers a delete with the deleted object and prints its table;
//! CSIStorageCapacities have Go's default table.

pub mod csidriver;
pub mod csinode;
pub mod csistoragecapacity;
pub mod storageclass;
pub mod volumeattachment;
pub mod volumeattributesclass;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of storage.k8s.io resource `info` (Go's
/// `storage/rest/storage_storage.go`).
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "storageclasses" => storageclass::storage(info, deps),
        "csidrivers" => csidriver::storage(info, deps),
        "csinodes" => csinode::storage(info, deps),
        "volumeattachments" => volumeattachment::storage(info, deps),
        "volumeattributesclasses" => volumeattributesclass::storage(info, deps),
        "csistoragecapacities" => csistoragecapacity::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
