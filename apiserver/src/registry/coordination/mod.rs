//! The coordination.k8s.io group's resources with something of their own (Go's
//! `pkg/registry/coordination`): each kind's table.

pub mod lease;
pub mod leasecandidate;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::printers::Printer;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of coordination.k8s.io resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    let table: &'static Printer = match info.resource.as_str() {
        "leases" => &lease::LEASE_TABLE,
        "leasecandidates" => &leasecandidate::LEASE_CANDIDATE_TABLE,
        _ => return deps.standard(info, GenericStrategy::default()),
    };
    // Go's strategies of both set no generation, create on PUT and update only at a
    // named resourceVersion.
    let strategy = GenericStrategy::default()
        .without_generation()
        .requiring_resource_version()
        .creating_on_update();
    deps.standard_with_table(info, strategy, Arc::new(*table))
}
