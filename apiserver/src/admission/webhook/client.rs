//! One `AdmissionReview` POST over HTTPS, its server certificate verified against the
//! webhook's `caBundle` with rustls (one connection per call: webhooks are few and
//! their configurations change without notice, so nothing is pooled).

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::Request;
use hyper_util::rt::TokioIo;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};

/// The largest response a webhook may send (Go reads at most 10 MiB of it... of any
/// REST response: the same bound keeps a broken webhook from filling memory).
const MAX_RESPONSE_BYTES: usize = 10 * 1024 * 1024;

/// Where a webhook is called: host, port and path of an `https` URL, and the name its
/// certificate must carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// The URL, as reported in errors.
    pub url: String,
    /// The host to connect to.
    pub host: String,
    /// The port.
    pub port: u16,
    /// The path and query.
    pub path: String,
    /// The name the webhook's certificate must carry (the host, or a Service's
    /// `NAME.NAMESPACE.svc` when it is reached at another address).
    pub server_name: String,
}

/// Why a call failed: Go's wording after `failed calling webhook "NAME": `.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// The URL is not one this server calls.
    #[error("invalid webhook URL {url:?}: {why}")]
    Url {
        /// The URL.
        url: String,
        /// Why.
        why: String,
    },
    /// The `caBundle` holds no usable certificate.
    #[error("invalid caBundle: {0}")]
    CaBundle(String),
    /// The request did not complete (connection, TLS, HTTP, timeout).
    #[error("failed to call webhook: Post {url:?}: {why}")]
    Post {
        /// The URL.
        url: String,
        /// Why.
        why: String,
    },
}

impl Endpoint {
    /// Reads an `https://host[:port]/path` URL (Go's only allowed scheme).
    pub fn from_url(url: &str) -> Result<Endpoint, CallError> {
        let bad = |why: &str| CallError::Url {
            url: url.to_owned(),
            why: why.to_owned(),
        };
        let uri: hyper::Uri = url.parse().map_err(|_| bad("not a URL"))?;
        if uri.scheme_str() != Some("https") {
            return Err(bad("'https' is the only allowed URL scheme"));
        }
        let host = uri.host().ok_or_else(|| bad("no host"))?;
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        Ok(Endpoint {
            url: url.to_owned(),
            server_name: host.clone(),
            host,
            port: uri.port_u16().unwrap_or(443),
            path: uri
                .path_and_query()
                .map(|p| p.as_str().to_owned())
                .unwrap_or_else(|| "/".to_owned()),
        })
    }
}

fn client_config(ca_bundle: &[u8]) -> Result<rustls::ClientConfig, CallError> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca_bundle) {
        let cert = cert.map_err(|e| CallError::CaBundle(e.to_string()))?;
        roots
            .add(cert)
            .map_err(|e| CallError::CaBundle(e.to_string()))?;
    }
    if roots.is_empty() {
        return Err(CallError::CaBundle(
            "no PEM certificate in it (this server has no system roots to fall back on)".into(),
        ));
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Ok(rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| CallError::CaBundle(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth())
}

/// POSTs `body` (JSON) to `endpoint`, trusting `ca_bundle` (PEM), within `timeout`;
/// returns the response body of a 2xx answer.
pub async fn post(
    endpoint: &Endpoint,
    ca_bundle: &[u8],
    body: Vec<u8>,
    timeout: Duration,
) -> Result<Bytes, CallError> {
    let config = client_config(ca_bundle)?;
    let failed = |why: String| CallError::Post {
        url: endpoint.url.clone(),
        why,
    };
    match tokio::time::timeout(timeout, exchange(endpoint, config, body)).await {
        Ok(result) => result.map_err(failed),
        Err(_) => Err(failed(format!(
            "context deadline exceeded (no answer within {}s)",
            timeout.as_secs()
        ))),
    }
}

async fn exchange(
    endpoint: &Endpoint,
    config: rustls::ClientConfig,
    body: Vec<u8>,
) -> Result<Bytes, String> {
    let name = ServerName::try_from(endpoint.server_name.clone()).map_err(|e| e.to_string())?;
    let tcp = tokio::net::TcpStream::connect((endpoint.host.as_str(), endpoint.port))
        .await
        .map_err(|e| format!("dial tcp {}:{}: {e}", endpoint.host, endpoint.port))?;
    let tls = tokio_rustls::TlsConnector::from(Arc::new(config))
        .connect(name, tcp)
        .await
        .map_err(|e| format!("tls: {e}"))?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tls))
        .await
        .map_err(|e| e.to_string())?;
    let driver = tokio::spawn(connection);
    let host = if endpoint.port == 443 {
        endpoint.host.clone()
    } else {
        format!("{}:{}", endpoint.host, endpoint.port)
    };
    let request = Request::post(endpoint.path.as_str())
        .header(hyper::header::HOST, host)
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .header(hyper::header::ACCEPT, "application/json")
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| e.to_string())?;
    let response = sender
        .send_request(request)
        .await
        .map_err(|e| e.to_string());
    let result = match response {
        Ok(response) => {
            let status = response.status();
            let bytes = Limited::new(response.into_body(), MAX_RESPONSE_BYTES)
                .collect()
                .await
                .map(|c| c.to_bytes())
                .map_err(|e| format!("reading the response: {e}"));
            match bytes {
                Ok(bytes) if status.is_success() => Ok(bytes),
                Ok(bytes) => Err(format!(
                    "the server responded with status {}: {}",
                    status.as_u16(),
                    String::from_utf8_lossy(&bytes[..bytes.len().min(256)]).trim()
                )),
                Err(e) => Err(e),
            }
        }
        Err(e) => Err(e),
    };
    driver.abort();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        let e = Endpoint::from_url("https://127.0.0.1:9443/mutate?x=1").unwrap();
        assert_eq!(
            (e.host.as_str(), e.port, e.path.as_str()),
            ("127.0.0.1", 9443, "/mutate?x=1")
        );
        let e = Endpoint::from_url("https://hook.example.com").unwrap();
        assert_eq!((e.port, e.path.as_str()), (443, "/"));
        assert!(Endpoint::from_url("http://127.0.0.1/x").is_err());
        assert!(Endpoint::from_url("not a url").is_err());
    }

    #[test]
    fn ca_bundle_must_hold_a_certificate() {
        assert!(matches!(
            client_config(b"garbage"),
            Err(CallError::CaBundle(_))
        ));
    }
}
