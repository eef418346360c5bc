//! The apiextensions.k8s.io group's resources (Go's apiextensions-apiserver
//! `pkg/registry`): [`customresourcedefinition`] (CRDs are checked as Go's validation
//! checks them, and deleting one first empties it) and [`customresource`] (the objects a
//! CRD defines).

pub mod customresource;
pub mod customresourcedefinition;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of apiextensions.k8s.io resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "customresourcedefinitions" => customresourcedefinition::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
