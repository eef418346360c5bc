//! CertificateSigningRequests (Go's `pkg/registry/certificates/certificates`):
//! selectable by `spec.signerName`.

use std::sync::Arc;

use crate::registry::dependencies::Dependencies;
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{SelectableField, Strategy};
use crate::registry::{ResourceInfo, SubresourceInfo};

/// Go's certificate signing request strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct CertificateSigningRequestStrategy;

impl Strategy for CertificateSigningRequestStrategy {
    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("spec.signerName", "/spec/signerName")]
    }
}

/// The CertificateSigningRequests' REST storage over `info`.
pub(super) fn storage(mut info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    // `approval` (Go's ApprovalREST), listed as kube-apiserver lists it; not served yet.
    info.subresources = vec![SubresourceInfo {
        name: "approval",
        group: "",
        version: "",
        kind: "CertificateSigningRequest",
        verbs: &["get", "patch", "update"],
    }];
    deps.standard(info, CertificateSigningRequestStrategy)
}
