//! The health probes of Go's componentstatus `validator.go`: an HTTPS GET of a
//! component's `/healthz` (Go's `HttpServer` through the kubelet's HTTP prober, any
//! certificate accepted) and a request to the storage (Go's `EtcdServer`), each giving
//! the `Healthy` condition of the component's ComponentStatus.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::Request;
use hyper_util::rt::TokioIo;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use serde_json::{Value, json};

use crate::storage::Storage;

/// How long a probe may take (Go's `probeTimeOut`).
const PROBE_TIMEOUT: Duration = Duration::from_secs(20);

/// How much of a component's answer the probe reads (Go's `maxRespBodyLength`, 10 KiB).
const MAX_BODY_BYTES: usize = 10 * 1024;

/// What the prober says of a component (Go's `probe.Result` and message, or error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probed {
    /// The condition's status: `True` (Go's `probe.Success`), `False` (`Failure`) or
    /// `Unknown` (a `Warning`: a redirect not followed).
    pub status: &'static str,
    /// What the component answered, or why it could not be reached.
    pub message: String,
    /// The error of a probe that could not decide.
    pub error: String,
}

impl Probed {
    fn failure(message: String) -> Self {
        Probed {
            status: "False",
            message,
            error: String::new(),
        }
    }

    /// The ComponentStatus `name` (its v1 JSON) with this `Healthy` condition (Go's
    /// `getComponentStatus`).
    pub fn component_status(&self, name: &str) -> Value {
        let mut condition = json!({"type": "Healthy", "status": self.status});
        // Go's message and error are `omitempty`.
        if !self.message.is_empty() {
            condition["message"] = Value::from(self.message.as_str());
        }
        if !self.error.is_empty() {
            condition["error"] = Value::from(self.error.as_str());
        }
        json!({"metadata": {"name": name}, "conditions": [condition]})
    }
}

/// Go's `EtcdServer.DoServerCheck` of the server's storage: healthy (`ok`) when it
/// answers within the probe's time.
pub async fn probe_storage(storage: &dyn Storage) -> Probed {
    match tokio::time::timeout(PROBE_TIMEOUT, storage.current_revision()).await {
        Ok(Ok(_)) => Probed {
            status: "True",
            message: "ok".to_owned(),
            error: String::new(),
        },
        Ok(Err(e)) => Probed {
            status: "False",
            message: String::new(),
            error: e.to_string(),
        },
        Err(_) => Probed {
            status: "False",
            message: String::new(),
            error: "context deadline exceeded".to_owned(),
        },
    }
}

/// Go's `HttpServer.DoServerCheck` of `https://{host}:{port}{path}`: `True` with the
/// body of a 2xx answer, `False` with Go's words for another status or for a server that
/// cannot be reached (`Get "https://127.0.0.1:10259/healthz": dial tcp
/// 127.0.0.1:10259: connect: connection refused`). Go's client follows redirects; this
/// one reports a redirect as Go's prober reports one it stopped at.
pub async fn probe_https(host: &str, port: u16, path: &str) -> Probed {
    let url = format!("https://{host}:{port}{path}");
    match tokio::time::timeout(PROBE_TIMEOUT, get(host, port, path)).await {
        Ok(Ok((status, body))) => answered(status, &body),
        Ok(Err(why)) => Probed::failure(format!("Get \"{url}\": {why}")),
        Err(_) => Probed::failure(format!(
            "Get \"{url}\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
        )),
    }
}

/// Go's `DoHTTPProbe` of an answer.
fn answered(status: u16, body: &[u8]) -> Probed {
    let body = String::from_utf8_lossy(body).into_owned();
    match status {
        200..=299 => Probed {
            status: "True",
            message: body,
            error: String::new(),
        },
        300..=399 => Probed {
            status: "Unknown",
            message: format!("Probe terminated redirects, Response body: {body}"),
            error: String::new(),
        },
        // Go leaves the body out of a failure's message (kubernetes issue 99425).
        _ => Probed::failure(format!("HTTP probe failed with statuscode: {status}")),
    }
}

/// A GET over TLS, any certificate accepted (Go's `InsecureSkipVerify`): the status and
/// the body's first [`MAX_BODY_BYTES`], or Go's words for what failed.
async fn get(host: &str, port: u16, path: &str) -> Result<(u16, Vec<u8>), String> {
    let tcp = tokio::net::TcpStream::connect((host, port))
        .await
        .map_err(|e| format!("dial tcp {host}:{port}: connect: {}", os_error(&e)))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = Arc::new(AnyCertificate(provider.signature_verification_algorithms));
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("tls: {e}"))?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    let name = ServerName::try_from(host.to_owned()).map_err(|e| e.to_string())?;
    let tls = tokio_rustls::TlsConnector::from(Arc::new(config))
        .connect(name, tcp)
        .await
        .map_err(|e| format!("tls: {e}"))?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tls))
        .await
        .map_err(|e| e.to_string())?;
    let driver = tokio::spawn(connection);
    // Go's prober's headers (`kube-probe/<major>.<minor>`, any content).
    let request = Request::get(path)
        .header(hyper::header::HOST, format!("{host}:{port}"))
        .header(hyper::header::USER_AGENT, probe_user_agent())
        .header(hyper::header::ACCEPT, "*/*")
        .body(Empty::<Bytes>::new())
        .map_err(|e| e.to_string())?;
    let result = match sender.send_request(request).await {
        Ok(response) => {
            let status = response.status().as_u16();
            // A longer body is cut, not refused (Go logs the truncation).
            let mut body = Vec::new();
            let mut incoming = response.into_body();
            while body.len() < MAX_BODY_BYTES {
                match incoming.frame().await {
                    Some(Ok(frame)) => {
                        if let Some(data) = frame.data_ref() {
                            body.extend_from_slice(data);
                        }
                    }
                    Some(Err(e)) => {
                        driver.abort();
                        return Err(e.to_string());
                    }
                    None => break,
                }
            }
            body.truncate(MAX_BODY_BYTES);
            Ok((status, body))
        }
        Err(e) => Err(e.to_string()),
    };
    driver.abort();
    result
}

/// The User-Agent of Go's probes: `kube-probe/` and the release (`1.37`).
fn probe_user_agent() -> String {
    format!("kube-probe/{}", crate::RELEASE)
}

/// An OS error as Go's `syscall.Errno` prints it (`connection refused`): the C
/// library's text, lower-cased, without Rust's `(os error N)`.
fn os_error(e: &std::io::Error) -> String {
    let text = e.to_string();
    let text = match text.rfind(" (os error ") {
        Some(i) => &text[..i],
        None => &text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A certificate verifier that accepts any server certificate (Go's
/// `InsecureSkipVerify`, which the componentstatus probes use: the components' serving
/// certificates are self-signed), still checking the handshake's signatures.
#[derive(Debug)]
struct AnyCertificate(WebPkiSupportedAlgorithms);

impl ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::memory::MemoryStorage;

    /// Go's `DoHTTPProbe` of the answers a component may give.
    #[test]
    fn answers_are_judged_as_go_judges_them() {
        assert_eq!(answered(200, b"ok").status, "True");
        assert_eq!(answered(200, b"ok").message, "ok");
        let redirect = answered(302, b"moved");
        assert_eq!(redirect.status, "Unknown");
        assert_eq!(
            redirect.message,
            "Probe terminated redirects, Response body: moved"
        );
        let failed = answered(500, b"secret");
        assert_eq!(failed.status, "False");
        assert_eq!(failed.message, "HTTP probe failed with statuscode: 500");
    }

    #[test]
    fn os_errors_read_as_go_prints_them() {
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        let from_os = std::io::Error::from_raw_os_error(111);
        assert_eq!(os_error(&from_os), "connection refused");
        assert!(!os_error(&refused).is_empty());
    }

    /// A port nothing listens on answers as Go's dial error does.
    #[tokio::test]
    async fn an_unreachable_component_is_unhealthy_with_the_dial_error() {
        let port = {
            let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            listener.local_addr().unwrap().port()
        };
        let probed = probe_https("127.0.0.1", port, "/healthz").await;
        assert_eq!(probed.status, "False");
        assert_eq!(
            probed.message,
            format!(
                "Get \"https://127.0.0.1:{port}/healthz\": dial tcp 127.0.0.1:{port}: connect: connection refused"
            )
        );
        assert_eq!(
            probed.component_status("scheduler"),
            json!({"metadata": {"name": "scheduler"}, "conditions": [{"type": "Healthy",
                "status": "False", "message": probed.message}]})
        );
    }

    #[tokio::test]
    async fn a_storage_that_answers_is_healthy() {
        let probed = probe_storage(&MemoryStorage::new()).await;
        assert_eq!(
            probed.component_status("etcd-0"),
            json!({"metadata": {"name": "etcd-0"}, "conditions": [{"type": "Healthy",
                "status": "True", "message": "ok"}]})
        );
    }
}
