//! The lifecycle.k8s.io group (Kubernetes 1.37, `v1alpha1`; Go's
//! `pkg/registry/lifecycle`): the resources with something of their own.

pub mod eviction;
pub mod evictionrequest;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of lifecycle.k8s.io resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "evictions" => eviction::storage(info, deps),
        "evictionrequests" => evictionrequest::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
