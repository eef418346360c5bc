//! The apps group's resources with something of their own (Go's `pkg/registry/apps`):
//! the scalable workloads' `/scale`, the Deployments' table.

pub mod deployment;
pub mod replicaset;

use std::sync::Arc;

use super::ResourceInfo;
use super::core::pod::template::PodTemplateStrategy;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// Where the pod template's metadata of the apps workloads is.
pub(crate) const TEMPLATE_METADATA: &str = "/spec/template/metadata";

/// The REST storage of apps resource `info` (Go's `apps/rest/storage_apps.go`).
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        // Go's `ScaleREST` of each: `spec.replicas`, `status.replicas`, `spec.selector`.
        "deployments" => deployment::storage(info, deps),
        "statefulsets" => deps.scalable(info, PodTemplateStrategy::new(TEMPLATE_METADATA)),
        "replicasets" => replicaset::storage(info, deps),
        "daemonsets" => deps.standard(info, PodTemplateStrategy::new(TEMPLATE_METADATA)),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
