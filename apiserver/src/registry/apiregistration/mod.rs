//! The apiregistration.k8s.io group's resources (Go's kube-aggregator
//! `pkg/registry`): [`apiservice`]'s strategy and table.

pub mod apiservice;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of apiregistration.k8s.io resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "apiservices" => deps.standard_with_table(
            info,
            apiservice::ApiServiceStrategy,
            Arc::new(apiservice::API_SERVICE_TABLE),
        ),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
