//! The certificates group's validation (Go's `pkg/apis/certificates/validation` and the
//! strategies of `pkg/registry/certificates`): CertificateSigningRequest (create,
//! update, `/status`, `/approval`), ClusterTrustBundle, PodCertificateRequest (create,
//! update, `/status`). PEM is read as Go's `encoding/pem` reads it; certificates and
//! PKCS#10 requests are parsed with `x509-parser` and signatures checked with `ring`
//! (see [`x509`] for what differs from Go's `crypto/x509`).

mod csr;
mod pem;
mod pod_certificate_request;
mod trust_bundle;
mod x509;

pub use csr::*;
pub use pod_certificate_request::*;
pub use trust_bundle::*;

use apimachinery::util::validation::field::{Error, ErrorList, Path, go_quote};
use apimachinery::util::validation::{
    DNS1123_LABEL_MAX_LENGTH, DNS1123_SUBDOMAIN_MAX_LENGTH, is_dns1123_label, is_dns1123_subdomain,
};

/// Go's `IsKubernetesSignerName`: a signer of the Kubernetes project (`kubernetes.io` or a
/// subdomain of it).
pub fn is_kubernetes_signer_name(signer_name: &str) -> bool {
    let host = signer_name.split('/').next().unwrap_or_default();
    host == "kubernetes.io" || host.ends_with(".kubernetes.io")
}

/// Go's `ValidateSignerName`: `<domain>/<path>`, the domain of DNS labels with at least
/// one dot, the path of DNS subdomains separated by dots, 571 bytes at most.
pub fn validate_signer_name(fld: &Path, signer_name: &str) -> ErrorList {
    let mut errs = ErrorList::default();
    if signer_name.is_empty() {
        errs.push(Error::required(fld, ""));
        return errs;
    }
    let segments: Vec<&str> = signer_name.split('/').collect();
    let [domain, path] = segments[..] else {
        errs.push(Error::invalid(
            fld,
            signer_name,
            "must be a fully qualified domain and path of the form 'example.com/signer-name'",
        ));
        return errs;
    };
    if domain.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(Error::too_long(fld, DNS1123_SUBDOMAIN_MAX_LENGTH as i64));
    }
    let domain_labels: Vec<&str> = domain.split('.').collect();
    // Only the first bad label is reported: the others would repeat the same message.
    if let Some((label, msgs)) = domain_labels
        .iter()
        .map(|l| (l, is_dns1123_label(l)))
        .find(|(_, m)| !m.is_empty())
    {
        for msg in msgs {
            errs.push(Error::invalid(
                fld,
                domain,
                format!("validating label {}: {msg}", go_quote(label)),
            ));
        }
    }
    if domain_labels.len() < 2 {
        errs.push(Error::invalid(
            fld,
            domain,
            "should be a domain with at least two segments separated by dots",
        ));
    }
    if let Some((label, msgs)) = path
        .split('.')
        .map(|l| (l, is_dns1123_subdomain(l)))
        .find(|(_, m)| !m.is_empty())
    {
        for msg in msgs {
            errs.push(Error::invalid(
                fld,
                path,
                format!("validating label {}: {msg}", go_quote(label)),
            ));
        }
    }
    let max_path = DNS1123_SUBDOMAIN_MAX_LENGTH + DNS1123_LABEL_MAX_LENGTH + 1;
    let max_signer = DNS1123_SUBDOMAIN_MAX_LENGTH + max_path + 1;
    if signer_name.len() > max_signer {
        errs.push(Error::too_long(fld, max_signer as i64));
    }
    errs
}
