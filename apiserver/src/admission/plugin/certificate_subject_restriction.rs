//! Go's `CertificateSubjectRestriction` admission plugin
//! (`plugin/pkg/admission/certificates/subjectrestriction`): a CertificateSigningRequest
//! for the `kubernetes.io/kube-apiserver-client` signer may not ask for a certificate in
//! the `system:masters` group (an organization of its subject), which would make its
//! holder a superuser that no RBAC rule can limit.

use apimachinery::api::errors::StatusError;
use async_trait::async_trait;
use base64::Engine as _;
use serde_json::Value;
use x509_parser::certification_request::X509CertificationRequest;
use x509_parser::prelude::FromDer;

use super::super::{Attributes, Operation, ValidationInterface};
use crate::authentication::user::SYSTEM_PRIVILEGED_GROUP;
use crate::registry::to_json;

/// The signer whose requests may not name `system:masters`
/// (`certificatesv1.KubeAPIServerClientSignerName`).
pub const KUBE_APISERVER_CLIENT_SIGNER: &str = "kubernetes.io/kube-apiserver-client";

const GROUP: &str = "certificates.k8s.io";

/// The plugin; it reads nothing but the request.
#[derive(Clone, Copy, Debug, Default)]
pub struct CertificateSubjectRestriction;

/// The organizations of the subject of the PEM `CERTIFICATE REQUEST` in `request` (Go's
/// `certificatesapi.ParseCSR`, then `Subject.Organization`); why not when it does not
/// parse.
pub fn subject_organizations(request: &[u8]) -> Result<Vec<String>, String> {
    const BEGIN: &[u8] = b"-----BEGIN";
    // Go's pem.Decode skips whatever comes before the first block.
    let start = request
        .windows(BEGIN.len())
        .position(|w| w == BEGIN)
        .ok_or("PEM block type must be CERTIFICATE REQUEST")?;
    let (_, pem) = x509_parser::pem::parse_x509_pem(&request[start..])
        .map_err(|_| "PEM block type must be CERTIFICATE REQUEST".to_owned())?;
    if pem.label != "CERTIFICATE REQUEST" {
        return Err("PEM block type must be CERTIFICATE REQUEST".to_owned());
    }
    let (_, csr) = X509CertificationRequest::from_der(&pem.contents)
        .map_err(|e| format!("x509: malformed certificate request: {e}"))?;
    Ok(csr
        .certification_request_info
        .subject
        .iter_organization()
        .filter_map(|o| o.as_str().ok())
        .map(str::to_owned)
        .collect())
}

#[async_trait]
impl ValidationInterface for CertificateSubjectRestriction {
    fn handles(&self, operation: Operation) -> bool {
        operation == Operation::Create
    }

    async fn validate(&self, attributes: &Attributes) -> Result<(), StatusError> {
        let resource = &attributes.resource;
        if resource.group != GROUP
            || resource.resource != "certificatesigningrequests"
            || !attributes.subresource.is_empty()
        {
            return Ok(());
        }
        let Some(object) = attributes.object.as_deref() else {
            return Ok(());
        };
        let csr = to_json(object)?;
        let signer = csr
            .pointer("/spec/signerName")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if signer != KUBE_APISERVER_CLIENT_SIGNER {
            return Ok(());
        }
        // `spec.request` is bytes: base64 in JSON.
        let encoded = csr
            .pointer("/spec/request")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let organizations = base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .map_err(|e| e.to_string())
            .and_then(|request| subject_organizations(&request))
            .map_err(|e| attributes.forbidden(format!("failed to parse CSR: {e}")))?;
        if organizations.iter().any(|o| o == SYSTEM_PRIVILEGED_GROUP) {
            return Err(attributes.forbidden(format!(
                "use of {KUBE_APISERVER_CLIENT_SIGNER} signer with {SYSTEM_PRIVILEGED_GROUP} group is not allowed"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A certificate request for `O=<organizations>, CN=someone`, PEM.
    fn request(organizations: &[&str]) -> String {
        let mut params = rcgen::CertificateParams::default();
        for o in organizations {
            params
                .distinguished_name
                .push(rcgen::DnType::OrganizationName, *o);
        }
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "someone");
        let key = rcgen::KeyPair::generate().unwrap();
        params.serialize_request(&key).unwrap().pem().unwrap()
    }

    #[test]
    fn the_subjects_organizations_are_read_from_the_request() {
        let pem = format!("junk before\n{}", request(&["system:masters"]));
        assert_eq!(
            subject_organizations(pem.as_bytes()).unwrap(),
            ["system:masters"]
        );
        assert!(
            subject_organizations(request(&[]).as_bytes())
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            subject_organizations(b"nothing").unwrap_err(),
            "PEM block type must be CERTIFICATE REQUEST"
        );
        let certificate = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
        assert!(subject_organizations(certificate.as_bytes()).is_err());
    }

    #[tokio::test]
    async fn a_kube_apiserver_client_request_for_system_masters_is_refused() {
        use base64::Engine as _;
        let fixture = super::super::tests::Fixture::new();
        let target = (
            "certificates.k8s.io",
            "v1",
            "CertificateSigningRequest",
            "certificatesigningrequests",
        );
        let csr = |signer: &str, organizations: &[&str]| {
            serde_json::json!({
                "metadata": {"name": "csr"},
                "spec": {
                    "signerName": signer,
                    "usages": ["client auth"],
                    "request": base64::engine::general_purpose::STANDARD
                        .encode(request(organizations)),
                }
            })
        };
        let plugin = CertificateSubjectRestriction;
        let masters = fixture.attributes(
            Operation::Create,
            target,
            "",
            "",
            csr(KUBE_APISERVER_CLIENT_SIGNER, &["system:masters"]),
        );
        let refused = plugin.validate(&masters).await.unwrap_err();
        assert_eq!(refused.status.code, 403);
        assert_eq!(
            refused.status.message,
            "certificatesigningrequests.certificates.k8s.io \"csr\" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed"
        );
        for (signer, organizations) in [
            (KUBE_APISERVER_CLIENT_SIGNER, &["developers"][..]),
            ("example.com/signer", &["system:masters"][..]),
        ] {
            let attributes = fixture.attributes(
                Operation::Create,
                target,
                "",
                "",
                csr(signer, organizations),
            );
            plugin.validate(&attributes).await.unwrap();
        }
    }
}
