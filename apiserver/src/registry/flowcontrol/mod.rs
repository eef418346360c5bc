//! The flowcontrol.apiserver.k8s.io group's resources (Go's `pkg/registry/flowcontrol`):
//! FlowSchemas and PriorityLevelConfigurations print their tables; the config consumer
//! of API priority and fairness keeps the FlowSchemas' `Dangling` condition.

pub mod config_consumer;
pub mod flowschema;
pub mod prioritylevelconfiguration;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of flowcontrol.apiserver.k8s.io resource `info` (Go's
/// `flowcontrol/rest/storage_flowcontrol.go`).
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "flowschemas" => flowschema::storage(info, deps),
        "prioritylevelconfigurations" => prioritylevelconfiguration::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
