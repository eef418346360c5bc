//! PodCertificateRequests (Go's `pkg/registry/certificates/podcertificaterequest`):
//! selectable by `spec.signerName`, `spec.podName` and `spec.nodeName`, which the kubelet
//! lists its own node's requests by.

use std::sync::Arc;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{SelectableField, Strategy};

/// Go's pod certificate request strategy, as far as selection goes.
#[derive(Clone, Copy, Debug, Default)]
pub struct PodCertificateRequestStrategy;

impl Strategy for PodCertificateRequestStrategy {
    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[
            ("spec.signerName", "/spec/signerName"),
            ("spec.podName", "/spec/podName"),
            ("spec.nodeName", "/spec/nodeName"),
        ]
    }
}

/// The PodCertificateRequests' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard(info, PodCertificateRequestStrategy)
}
