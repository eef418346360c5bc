//! Admission overhead per write (issue 19): a ConfigMap create answered in process
//! (`ApiServerHandler::serve_http`, memory storage) with no webhook configuration, with
//! ten configurations whose rules do not select ConfigMaps (read and matched on every
//! write), and with one mutating webhook that is called (`webhook::Server` over loopback
//! HTTPS, one TLS connection per call).
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use apimachinery::runtime::Scheme;
use apiserver::server::{ApiServerHandler, Config};
use apiserver::storage::MemoryStorage;
use axum::body::Body;
use axum::http::Request;
use base64::Engine;
use controller_runtime::webhook::{
    AdmissionRequest, Defaulter, DefaultingHandler, Denied, RunningServer, Server,
};
use criterion::{Criterion, criterion_group, criterion_main};
use k8s_types::core::v1::ConfigMap;
use serde_json::{Value, json};

const WRITES: u32 = 200;

struct Labeller;

impl Defaulter<ConfigMap> for Labeller {
    async fn default(&self, _: &AdmissionRequest, cm: &mut ConfigMap) -> Result<(), Denied> {
        cm.metadata.labels.insert("defaulted".into(), "true".into());
        Ok(())
    }
}

async fn send(h: &ApiServerHandler, path: &str, body: &Value) -> u16 {
    let req = Request::post(path)
        .header("content-type", "application/json")
        .body(Body::from(serde_json::to_vec(body).unwrap()))
        .unwrap();
    h.serve_http(req).await.status().as_u16()
}

async fn handler() -> ApiServerHandler {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    Config::new(Arc::new(scheme), Arc::new(MemoryStorage::new()))
        .handler("127.0.0.1:6443")
        .await
        .unwrap()
}

fn configuration(kind: &str, name: &str, url: &str, ca: &str, resource: &str) -> Value {
    json!({
        "apiVersion": "admissionregistration.k8s.io/v1", "kind": kind,
        "metadata": {"name": name},
        "webhooks": [{
            "name": format!("{name}.example.com"),
            "clientConfig": {"url": url, "caBundle": base64::engine::general_purpose::STANDARD.encode(ca)},
            "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": [resource]}],
            "sideEffects": "None", "admissionReviewVersions": ["v1"],
        }],
    })
}

async fn webhook() -> (RunningServer, String) {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned()])
        .unwrap()
        .signed_by(&key, &ca, &ca_key)
        .unwrap();
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    let server = Server::new(cert.pem().as_bytes(), key.serialize_pem().as_bytes())
        .unwrap()
        .register(
            "/mutate",
            DefaultingHandler::new(Arc::new(scheme), Labeller),
        )
        .start("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    (server, ca.pem())
}

async fn creates(h: &ApiServerHandler) -> Duration {
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"generateName": "cm-"}});
    let start = Instant::now();
    for _ in 0..WRITES {
        assert_eq!(
            send(h, "/api/v1/namespaces/default/configmaps", &cm).await,
            201
        );
    }
    start.elapsed()
}

fn admission_overhead(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (none, unmatched, called, _server) = rt.block_on(async {
        let none = handler().await;
        let unmatched = handler().await;
        for i in 0..10 {
            let config = configuration(
                "ValidatingWebhookConfiguration",
                &format!("other-{i}"),
                "https://127.0.0.1:1/",
                "unused",
                "secrets",
            );
            let path = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
            assert_eq!(send(&unmatched, path, &config).await, 201);
        }
        let (server, ca) = webhook().await;
        let called = handler().await;
        let url = format!("https://{}/mutate", server.local_addr());
        let config = configuration(
            "MutatingWebhookConfiguration",
            "labeller",
            &url,
            &ca,
            "configmaps",
        );
        let path = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations";
        assert_eq!(send(&called, path, &config).await, 201);
        (none, unmatched, called, server)
    });
    let mut group = c.benchmark_group("admission_overhead_200_creates");
    group.sample_size(10);
    for (name, h) in [
        ("no_configurations", &none),
        ("ten_unmatched_configurations", &unmatched),
        ("one_mutating_webhook_called", &called),
    ] {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    total += rt.block_on(creates(h));
                }
                total
            });
        });
    }
    group.finish();
}

criterion_group!(benches, admission_overhead);
criterion_main!(benches);
