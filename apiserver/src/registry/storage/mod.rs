//! The storage.k8s.io group's resources (Go's `pkg/registry/storage`): their stores
//! answer a delete with the deleted object; StorageClasses print their table.

pub mod storageclass;

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
        "csidrivers" | "csinodes" | "volumeattachments" | "volumeattributesclasses" => {
            deps.standard(info, GenericStrategy::returning_deleted_object())
        }
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
