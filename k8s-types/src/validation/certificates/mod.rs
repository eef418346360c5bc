//! The certificates group's validation (Go's `pkg/apis/certificates/validation` and the
//! strategies of `pkg/registry/certificates`): CertificateSigningRequest (create,
//! update, `/status`, `/approval`), ClusterTrustBundle, PodCertificateRequest (create,
//! update, `/status`). PEM is read as Go's `encoding/pem` reads it. With the
//! `validation-x509` feature, certificates and PKCS#10 requests are parsed with
//! `x509-parser` and signatures checked with `ring` (see `x509` for what differs from Go's
//! `crypto/x509`). Without it, what is inside the PEM blocks is not checked: a
//! request's or a stub request's parse and signature, whether a status certificate or
//! a trust anchor parses as X.509 (and, for a trust anchor, is a CA), whether a PKIX key
//! parses, is of a supported type and size, and its proof of possession verifies. The
//! rest (PEM block types and headers, sizes, names, usages, conditions, immutability)
//! is checked either way.

mod csr;
mod pem;
mod pod_certificate_request;
mod trust_bundle;
#[cfg(feature = "validation-x509")]
mod x509;

pub use csr::*;
pub use pod_certificate_request::*;
pub use trust_bundle::*;

// Go keeps the signer-name rules in core's validation (`names.go`), which the pod's
// projected volumes use too; they are re-exported here, where certificates users look.
pub use super::signer_names::{
    is_kubernetes_signer_name, validate_cluster_trust_bundle_name, validate_signer_name,
};
