//! The node.k8s.io group's resources (Go's `pkg/registry/node`): RuntimeClasses print
//! their table and warn of deprecated node labels ([`labels`], which pods' warnings use
//! too).

pub mod labels;
pub mod runtimeclass;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of node.k8s.io resource `info` (Go's `node/rest/runtime_class.go`).
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "runtimeclasses" => runtimeclass::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
