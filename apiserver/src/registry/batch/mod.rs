//! The batch group's resources with something of their own (Go's `pkg/registry/batch`).

pub mod cronjob;
pub mod job;
pub mod job_spec;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of batch resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "jobs" => job::storage(info, deps),
        "cronjobs" => cronjob::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
