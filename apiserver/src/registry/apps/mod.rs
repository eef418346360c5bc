//! The apps group's resources with something of their own (Go's `pkg/registry/apps`):
//! the scalable workloads' `/scale`, and each kind's table.

pub mod controllerrevision;
pub mod daemonset;
pub mod deployment;
pub mod replicaset;
pub mod statefulset;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// Where the pod template's metadata of the apps workloads is.
pub(crate) const TEMPLATE_METADATA: &str = "/spec/template/metadata";

/// The REST storage of apps resource `info` (Go's `apps/rest/storage_apps.go`).
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        // Go's `ScaleREST` of Deployments, StatefulSets and ReplicaSets: `spec.replicas`,
        // `status.replicas`, `spec.selector`.
        "deployments" => deployment::storage(info, deps),
        "statefulsets" => statefulset::storage(info, deps),
        "replicasets" => replicaset::storage(info, deps),
        "daemonsets" => daemonset::storage(info, deps),
        "controllerrevisions" => controllerrevision::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
