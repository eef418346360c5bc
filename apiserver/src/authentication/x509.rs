//! Client certificates (Go's `authentication/request/x509`, kube-apiserver's
//! `--client-ca-file`): a certificate chain that verifies to one of the client CAs, for
//! client authentication, names its user by the leaf's subject: CN the user name, each O
//! a group.
//!
//! ```
//! use apiserver::authentication::x509::X509Authenticator;
//!
//! let ca = rcgen::CertificateParams::new(Vec::<String>::new())?
//!     .self_signed(&rcgen::KeyPair::generate()?)?;
//! let authenticator = X509Authenticator::from_pem(ca.pem().as_bytes())?;
//! # let _ = authenticator;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::Arc;

use rustls::server::WebPkiClientVerifier;
use rustls::server::danger::ClientCertVerifier;
use rustls::{DistinguishedName, RootCertStore};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, UnixTime};
use x509_parser::prelude::{FromDer, X509Certificate};

use super::user::Info;
use super::{AuthenticationError, Authenticator, Request};

/// Why a client CA bundle could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ClientCaError {
    /// The bundle holds no PEM certificate, or one that does not parse.
    #[error("client CA bundle: {0}")]
    Pem(String),
    /// rustls refused a certificate as a trust anchor.
    #[error("client CA bundle: {0}")]
    Verifier(String),
}

/// Authenticates requests by their verified client certificate.
#[derive(Clone)]
pub struct X509Authenticator {
    verifier: Arc<dyn ClientCertVerifier>,
}

impl std::fmt::Debug for X509Authenticator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("X509Authenticator").finish_non_exhaustive()
    }
}

/// The certificates of a PEM bundle (`--client-ca-file`, `--tls-cert-file`).
pub fn certificates_from_pem(pem: &[u8]) -> Result<Vec<CertificateDer<'static>>, ClientCaError> {
    let certs = CertificateDer::pem_slice_iter(pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| ClientCaError::Pem(e.to_string()))?;
    if certs.is_empty() {
        return Err(ClientCaError::Pem("no PEM certificate found".to_owned()));
    }
    Ok(certs)
}

/// The client certificate verifier of `roots`, for the TLS listener and the
/// authenticator alike: chains to one of them, valid now, for client authentication. A
/// connection without a certificate is let through (to be authenticated otherwise).
pub fn client_verifier(
    roots: &[CertificateDer<'static>],
) -> Result<Arc<dyn ClientCertVerifier>, ClientCaError> {
    let mut store = RootCertStore::empty();
    for cert in roots {
        store
            .add(cert.clone())
            .map_err(|e| ClientCaError::Verifier(e.to_string()))?;
    }
    WebPkiClientVerifier::builder_with_provider(
        Arc::new(store),
        Arc::new(rustls::crypto::ring::default_provider()),
    )
    .allow_unauthenticated()
    .build()
    .map_err(|e| ClientCaError::Verifier(e.to_string()))
}

impl X509Authenticator {
    /// Trusts the client CAs `roots`.
    pub fn new(roots: &[CertificateDer<'static>]) -> Result<X509Authenticator, ClientCaError> {
        Ok(X509Authenticator {
            verifier: client_verifier(roots)?,
        })
    }

    /// Trusts the client CAs of a PEM bundle.
    pub fn from_pem(pem: &[u8]) -> Result<X509Authenticator, ClientCaError> {
        X509Authenticator::new(&certificates_from_pem(pem)?)
    }

    /// The CA names a TLS server asks client certificates of.
    pub fn root_hint_subjects(&self) -> Vec<DistinguishedName> {
        self.verifier.root_hint_subjects().to_vec()
    }
}

/// The user of a verified leaf certificate: CN and O's; `None` without a CN (Go's
/// `CommonNameUserConversion`).
fn user_of(leaf: &[u8]) -> Result<Option<Info>, AuthenticationError> {
    let (_, cert) = X509Certificate::from_der(leaf)
        .map_err(|e| AuthenticationError(format!("parsing client certificate: {e}")))?;
    let subject = cert.subject();
    let name = subject
        .iter_common_name()
        .next()
        .and_then(|cn| cn.as_str().ok())
        .unwrap_or_default();
    if name.is_empty() {
        return Ok(None);
    }
    let groups = subject
        .iter_organization()
        .filter_map(|o| o.as_str().ok())
        .map(str::to_owned)
        .collect();
    Ok(Some(Info {
        name: name.to_owned(),
        groups,
        ..Info::default()
    }))
}

#[async_trait::async_trait]
impl Authenticator for X509Authenticator {
    async fn authenticate(
        &self,
        request: &Request<'_>,
    ) -> Result<Option<Info>, AuthenticationError> {
        let Some((leaf, intermediates)) = request.client_certificates.split_first() else {
            return Ok(None);
        };
        let leaf = CertificateDer::from(leaf.as_slice());
        let intermediates: Vec<CertificateDer<'_>> = intermediates
            .iter()
            .map(|c| CertificateDer::from(c.as_slice()))
            .collect();
        self.verifier
            .verify_client_cert(&leaf, &intermediates, UnixTime::now())
            .map_err(|e| AuthenticationError(format!("verifying client certificate: {e}")))?;
        user_of(&leaf)
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderMap;
    use rcgen::{CertificateParams, DistinguishedName, DnType, IsCa, KeyPair, KeyUsagePurpose};

    use super::*;

    struct Ca {
        cert: rcgen::Certificate,
        key: KeyPair,
    }

    fn ca(name: &str) -> Ca {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.distinguished_name = DistinguishedName::new();
        params.distinguished_name.push(DnType::CommonName, name);
        params.is_ca = IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign];
        let key = KeyPair::generate().unwrap();
        Ca {
            cert: params.self_signed(&key).unwrap(),
            key,
        }
    }

    fn client(ca: &Ca, cn: &str, orgs: &[&str]) -> Vec<u8> {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.distinguished_name = DistinguishedName::new();
        if !cn.is_empty() {
            params.distinguished_name.push(DnType::CommonName, cn);
        }
        for o in orgs {
            params.distinguished_name.push(DnType::OrganizationName, *o);
        }
        params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ClientAuth];
        let key = KeyPair::generate().unwrap();
        params
            .signed_by(&key, &ca.cert, &ca.key)
            .unwrap()
            .der()
            .to_vec()
    }

    async fn ask(
        a: &X509Authenticator,
        chain: &[Vec<u8>],
    ) -> Result<Option<Info>, AuthenticationError> {
        let headers = HeaderMap::new();
        a.authenticate(&Request {
            headers: &headers,
            client_certificates: chain,
        })
        .await
    }

    #[tokio::test]
    async fn a_certificate_of_the_client_ca_names_user_and_groups() {
        let ca = ca("client-ca");
        let a = X509Authenticator::from_pem(ca.cert.pem().as_bytes()).unwrap();
        // (rcgen writes one attribute of a type; Go's O's are each a group.)
        let user = ask(&a, &[client(&ca, "alice", &["system:masters"])])
            .await
            .unwrap()
            .unwrap();
        assert_eq!(user.name, "alice");
        assert_eq!(user.groups, ["system:masters"]);
        assert!(ask(&a, &[]).await.unwrap().is_none());
    }

    #[tokio::test]
    async fn a_certificate_of_another_ca_is_refused() {
        let trusted = ca("client-ca");
        let other = ca("client-ca");
        let a = X509Authenticator::from_pem(trusted.cert.pem().as_bytes()).unwrap();
        assert!(
            ask(&a, &[client(&other, "alice", &["system:masters"])])
                .await
                .is_err()
        );
        assert!(ask(&a, &[b"not a certificate".to_vec()]).await.is_err());
    }

    #[tokio::test]
    async fn a_certificate_without_common_name_is_no_user() {
        let ca = ca("client-ca");
        let a = X509Authenticator::from_pem(ca.cert.pem().as_bytes()).unwrap();
        assert!(
            ask(&a, &[client(&ca, "", &["dev"])])
                .await
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn a_bundle_without_certificates_is_an_error() {
        assert!(X509Authenticator::from_pem(b"hello").is_err());
    }
}
