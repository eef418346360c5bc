//! The autoscaling group's resources with something of their own (Go's
//! `pkg/registry/autoscaling`).

pub mod horizontalpodautoscaler;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of autoscaling resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "horizontalpodautoscalers" => horizontalpodautoscaler::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
