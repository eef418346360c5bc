//! The events.k8s.io group (Go serves its Events from the core Event storage,
//! `pkg/registry/core/event`): kept as core Events, selected by the same fields.

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of events.k8s.io resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "events" => super::core::event::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
