//! The core group's resources with something of their own (Go's `pkg/registry/core`),
//! and the LimitRanges, which have nothing but the generic strategy without a
//! generation (Go's `pkg/registry/core/limitrange/strategy.go`).

pub mod componentstatus;
pub mod configmap;
pub mod endpoints;
pub mod event;
pub mod namespace;
pub mod node;
pub mod persistentvolume;
pub mod persistentvolumeclaim;
pub mod pod;
pub mod podtemplate;
pub mod replicationcontroller;
pub mod resourcequota;
pub mod secret;
pub mod service;
pub mod serviceaccount;

use std::sync::Arc;

use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;
use super::{ResourceInfo, SubresourceInfo};

/// The verbs of the `proxy` subresources (Go's proxy REST: connect with every method
/// but `head`, `options` and `trace`, which discovery does not list).
const PROXY_VERBS: &[&str] = &["create", "delete", "get", "patch", "update"];

/// A subresource whose kind is in the core group's version.
const fn sub(
    name: &'static str,
    kind: &'static str,
    verbs: &'static [&'static str],
) -> SubresourceInfo {
    SubresourceInfo {
        name,
        group: "",
        version: "",
        kind,
        verbs,
    }
}

/// The REST storage of core resource `info` (Go's `core/rest/storage_core.go`).
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "bindings" => pod::legacy_binding_storage(info, deps),
        "componentstatuses" => componentstatus::storage(info, deps),
        "configmaps" => configmap::storage(info, deps),
        "endpoints" => endpoints::storage(info, deps),
        "events" => event::storage(info, deps),
        // Go's LimitRange strategy keeps no generation, and creates on PUT.
        "limitranges" => deps.standard(
            info,
            GenericStrategy::default()
                .without_generation()
                .creating_on_update(),
        ),
        "namespaces" => namespace::storage(info, deps),
        "nodes" => node::storage(info, deps),
        "persistentvolumeclaims" => persistentvolumeclaim::storage(info, deps),
        "persistentvolumes" => persistentvolume::storage(info, deps),
        "pods" => pod::storage(info, deps),
        "podtemplates" => podtemplate::storage(info, deps),
        "replicationcontrollers" => replicationcontroller::storage(info, deps),
        "resourcequotas" => resourcequota::storage(info, deps),
        "secrets" => secret::storage(info, deps),
        "services" => service::storage(info, deps),
        "serviceaccounts" => serviceaccount::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
