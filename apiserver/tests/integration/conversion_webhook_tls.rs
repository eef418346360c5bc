//! The conversion webhook client over HTTPS: the `ConversionReview` goes to a server
//! whose certificate the CRD's `caBundle` vouches for, and a server it does not vouch
//! for is refused.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use apiserver::apiextensions::WebhookClientConfig;
use apiserver::apiextensions::conversion::ConversionWebhook;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// An HTTPS conversion webhook with a fresh self-signed certificate for 127.0.0.1;
/// its URL and the certificate's PEM.
async fn webhook() -> (String, String) {
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
        "https://127.0.0.1:{}/convert",
        listener.local_addr().unwrap().port()
    );
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
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
                let review: Value =
                    serde_json::from_slice(&buf[head_end..head_end + length]).unwrap();
                let request = &review["request"];
                let converted: Vec<Value> = request["objects"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|o| {
                        let mut o = o.clone();
                        o["apiVersion"] = request["desiredAPIVersion"].clone();
                        o
                    })
                    .collect();
                let body = serde_json::to_vec(&json!({
                    "apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
                    "response": {"uid": request["uid"], "result": {"status": "Success"},
                                 "convertedObjects": converted},
                }))
                .unwrap();
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

fn config(url: &str, ca: &str) -> WebhookClientConfig {
    WebhookClientConfig {
        url: Some(url.to_owned()),
        service: None,
        ca_bundle: ca.as_bytes().to_vec(),
        review_versions: vec!["v1".into()],
    }
}

fn widget() -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Widget",
           "metadata": {"name": "w", "namespace": "default", "uid": "u1"}, "spec": {"size": 1}})
}

#[tokio::test]
async fn the_ca_bundle_is_what_is_trusted() {
    let (url, pem) = webhook().await;
    let client = ConversionWebhook::new(&config(&url, &pem)).unwrap();
    let out = client
        .convert("Widget", vec![widget()], "example.com/v2")
        .await
        .unwrap();
    assert_eq!(out[0]["apiVersion"], "example.com/v2");
    assert_eq!(out[0]["spec"]["size"], 1);

    // Another CA's bundle: the webhook's certificate is not trusted.
    let other = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()])
        .unwrap()
        .cert
        .pem();
    let client = ConversionWebhook::new(&config(&url, &other)).unwrap();
    let err = client
        .convert("Widget", vec![widget()], "example.com/v2")
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("conversion webhook for example.com/v2, Kind=Widget failed: Post"),
        "{err}"
    );
}
