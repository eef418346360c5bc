//! `certificates.k8s.io/v1beta1` (and `v1` since 1.37, where the kind graduated): a
//! PodCertificateRequest's certificates last at most a day (a `+default=` marker). The
//! `v1beta1` CertificateSigningRequest's usages and signer name, which Go derives by
//! parsing the request's PEM, are not defaulted.

use apimachinery::conversion::Defaulters;

use crate::generated::default_markers::certificates_v1beta1;

pub(super) fn register(d: &mut Defaulters) {
    d.add(
        |r: &mut crate::certificates::v1beta1::PodCertificateRequest| {
            certificates_v1beta1::pod_certificate_request_spec(&mut r.spec);
        },
    );
    #[cfg(feature = "v1_37")]
    d.add(|r: &mut crate::certificates::v1::PodCertificateRequest| {
        crate::generated::default_markers::certificates_v1::pod_certificate_request_spec(
            &mut r.spec,
        );
    });
}
