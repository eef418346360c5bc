//! Hostile request bodies and queries through the server's handler, in process
//! (`Config::handler`, no socket): each is answered with a `Status` of a client-error
//! code, never a 500 and never a crash. The inputs are the decoders' hostile inputs of
//! issue 22 and what the `server` fuzz target (fuzz/) met.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use apimachinery::runtime::Scheme;
use apiserver::server::{ApiServerHandler, Config};
use apiserver::storage::MemoryStorage;
use axum::body::Body;
use axum::http::{Request, header};
use serde_json::Value;

async fn handler() -> ApiServerHandler {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    Config::new(Arc::new(scheme), Arc::new(MemoryStorage::new()))
        .handler("127.0.0.1:6443")
        .await
        .unwrap()
}

/// The status code and the `Status` object of the answer.
async fn send(
    h: &ApiServerHandler,
    method: &str,
    uri: &str,
    content_type: &str,
    body: Vec<u8>,
) -> (u16, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body))
        .unwrap();
    let response = h.serve_http(request).await;
    let code = response.status().as_u16();
    let body = axum::body::to_bytes(response.into_body(), 64 << 20)
        .await
        .unwrap();
    (code, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

const PODS: &str = "/api/v1/namespaces/default/pods";

#[tokio::test]
async fn a_body_over_3_mib_is_413_with_a_status() {
    let h = handler().await;
    let body = vec![b' '; 3 * 1024 * 1024 + 1];
    let (code, status) = send(&h, "POST", PODS, "application/json", body).await;
    assert_eq!(code, 413);
    assert_eq!(status["kind"], "Status");
    assert_eq!(status["reason"], "RequestEntityTooLarge");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn deeply_nested_json_body_is_400_not_a_stack_overflow() {
    let h = handler().await;
    let depth = 500_000;
    let body = format!(
        r#"{{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"p","annotations":{}{}}}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let (code, status) = send(&h, "POST", PODS, "application/json", body.into_bytes()).await;
    assert_eq!(code, 400, "{status}");
    assert_eq!(status["kind"], "Status");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn yaml_billion_laughs_body_is_400() {
    let h = handler().await;
    let mut body = String::from(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\na: &a [x, x, x, x, x, x, x, x, x, x]\n",
    );
    let mut prev = "a";
    for name in ["b", "c", "d", "e", "f", "g", "h", "i", "j"] {
        body.push_str(&format!(
            "{name}: &{name} [{}]\n",
            vec![format!("*{prev}"); 10].join(", ")
        ));
        prev = name;
    }
    let (code, status) = send(
        &h,
        "POST",
        "/api/v1/namespaces/default/configmaps",
        "application/yaml",
        body.into_bytes(),
    )
    .await;
    assert_eq!(code, 400, "{status}");
    assert!(
        status["message"]
            .as_str()
            .unwrap()
            .contains("excessive aliasing"),
        "{status}"
    );
}

#[tokio::test]
async fn protobuf_length_claiming_2_gib_is_400() {
    let h = handler().await;
    // `k8s\0`, then an Unknown whose TypeMeta field claims 2 GiB.
    let body = b"k8s\0\x0a\x80\x80\x80\x80\x08\x0a\x02v1".to_vec();
    let (code, status) = send(
        &h,
        "POST",
        PODS,
        "application/vnd.kubernetes.protobuf",
        body,
    )
    .await;
    assert_eq!(code, 400, "{status}");
    assert_eq!(status["kind"], "Status");
}

/// Met by the `server` fuzz target: a list (`watch=tru2e` is not true) from a revision
/// the storage has not reached is Go's 504 Timeout "Too large resource version".
#[tokio::test]
async fn list_from_a_future_resource_version_is_504_too_large_resource_version() {
    let h = handler().await;
    let (code, status) = send(
        &h,
        "GET",
        "/apis/apps/v1/deployments?watch=tru2e&timeoutSeconds=1&resourceVersion=5000",
        "",
        Vec::new(),
    )
    .await;
    assert_eq!(code, 504, "{status}");
    assert_eq!(status["reason"], "Timeout");
    assert!(
        status["message"]
            .as_str()
            .unwrap()
            .starts_with("Too large resource version: 5000"),
        "{status}"
    );
}
