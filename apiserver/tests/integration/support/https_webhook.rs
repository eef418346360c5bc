//! A JSON webhook over HTTPS on a loopback port, with a fresh self-signed certificate for
//! 127.0.0.1: Go accepts conversion webhooks at `https` URLs only, trusting the CRD's
//! `caBundle`. One request per connection (`Connection: close`).

use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// What the webhook answers to a request's JSON body.
pub type Handler = Arc<dyn Fn(Value) -> Value + Send + Sync>;

/// Serves `handler` at `https://127.0.0.1:PORT{path}`: that URL and the certificate's PEM.
pub async fn serve(path: &str, handler: Handler) -> (String, String) {
    let ck = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()]).unwrap();
    let pem = ck.cert.pem();
    let key = PrivateKeyDer::from_pem_slice(ck.key_pair.serialize_pem().as_bytes()).unwrap();
    let certs = vec![CertificateDer::from_pem_slice(pem.as_bytes()).unwrap()];
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!(
        "https://127.0.0.1:{}{path}",
        listener.local_addr().unwrap().port()
    );
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            let handler = handler.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                let (head_end, length) = loop {
                    if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                        let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
                        let length: usize = head
                            .lines()
                            .find_map(|l| l.strip_prefix("content-length:"))
                            .and_then(|v| v.trim().parse().ok())
                            .unwrap_or(0);
                        if buf.len() >= end + 4 + length {
                            break (end + 4, length);
                        }
                    }
                    match tls.read(&mut chunk).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    }
                };
                let request: Value =
                    serde_json::from_slice(&buf[head_end..head_end + length]).unwrap();
                let body = serde_json::to_vec(&handler(request)).unwrap();
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = tls.write_all(head.as_bytes()).await;
                let _ = tls.write_all(&body).await;
                let _ = tls.shutdown().await;
            });
        }
    });
    (url, pem)
}
