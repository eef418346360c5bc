//! The certificates.k8s.io group's resources (Go's `pkg/registry/certificates`): each
//! prints its table.

pub mod certificatesigningrequest;
pub mod clustertrustbundle;
pub mod podcertificaterequest;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of certificates.k8s.io resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "certificatesigningrequests" => certificatesigningrequest::storage(info, deps),
        "clustertrustbundles" => clustertrustbundle::storage(info, deps),
        "podcertificaterequests" => podcertificaterequest::storage(info, deps),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}
