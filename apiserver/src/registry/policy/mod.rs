//! The policy group's resources with something of their own (Go's
//! `pkg/registry/policy`).

pub mod poddisruptionbudget;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of policy resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "poddisruptionbudgets" => poddisruptionbudget::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
