//! The scheduling.k8s.io group's resources with something of their own (Go's
//! `pkg/registry/scheduling`).

#[cfg(feature = "v1_37")]
pub mod compositepodgroup;
#[cfg(feature = "v1_37")]
pub mod gated_fields;
pub mod podgroup;
pub mod priorityclass;
pub mod workload;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of scheduling.k8s.io resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        #[cfg(feature = "v1_37")]
        "compositepodgroups" => compositepodgroup::storage(info, deps),
        "podgroups" => podgroup::storage(info, deps),
        "priorityclasses" => priorityclass::storage(info, deps),
        "workloads" => workload::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
