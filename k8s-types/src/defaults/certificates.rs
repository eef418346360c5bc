//! `certificates.k8s.io/v1beta1`: a PodCertificateRequest's certificates last at most a
//! day (a `+default=` marker). The `v1beta1` CertificateSigningRequest's usages and
//! signer name, which Go derives by parsing the request's PEM, are not defaulted.

use apimachinery::conversion::Defaulters;

pub(super) fn register(d: &mut Defaulters) {
    d.add(
        |r: &mut crate::certificates::v1beta1::PodCertificateRequest| {
            crate::generated::default_markers::certificates_v1beta1::pod_certificate_request_spec(
                &mut r.spec,
            );
        },
    );
}
