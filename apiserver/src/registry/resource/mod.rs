//! The resource.k8s.io group's resources with something of their own (Go's
//! `pkg/registry/resource`).

pub mod claimspec;
pub mod deviceclass;
pub mod devicetaintrule;
pub mod resourceclaim;
pub mod resourceclaimtemplate;
pub mod resourcepoolstatusrequest;
pub mod resourceslice;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of resource.k8s.io resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "deviceclasses" => deviceclass::storage(info, deps),
        "devicetaintrules" => devicetaintrule::storage(info, deps),
        "resourceclaims" => resourceclaim::storage(info, deps),
        "resourceclaimtemplates" => resourceclaimtemplate::storage(info, deps),
        "resourcepoolstatusrequests" => resourcepoolstatusrequest::storage(info, deps),
        "resourceslices" => resourceslice::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
