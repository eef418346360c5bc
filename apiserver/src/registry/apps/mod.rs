//! The apps group's resources with something of their own (Go's `pkg/registry/apps`):
//! the scalable workloads' `/scale`, and each kind's table.

pub mod controllerrevision;
pub mod daemonset;
pub mod deployment;
pub mod replicaset;
pub mod statefulset;

use std::sync::Arc;

use serde_json::Value;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::printers::{container_cells, items};
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// Where the pod template's metadata of the apps workloads is.
pub(crate) const TEMPLATE_METADATA: &str = "/spec/template/metadata";

/// The `Containers` and `Images` cells of a workload's pod template.
pub(crate) fn template_container_cells(obj: &Value) -> [Value; 2] {
    container_cells(items(obj, "/spec/template/spec/containers"))
}

/// A workload's `spec.replicas`; 1, its default, when unset.
pub(crate) fn desired_replicas(obj: &Value) -> i64 {
    obj.pointer("/spec/replicas")
        .and_then(Value::as_i64)
        .unwrap_or(1)
}

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
