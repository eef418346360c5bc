//! The filter chain around the handler (Go's `DefaultBuildHandlerChain`), in process: a
//! handler that panics answers 500 and the server goes on; a request that takes longer
//! than the request timeout answers 504, but a watch does not; past the in-flight
//! limit, 429 with `Retry-After`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;
use std::time::Duration;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::Scheme;
use apiserver::admission::{self, Chain, MutationInterface, Operation};
use apiserver::server::{ApiServerHandler, Config};
use apiserver::storage::MemoryStorage;
use axum::body::Body;
use axum::http::{Request, Response};
use serde_json::{Value, json};
use tokio::sync::Semaphore;

/// What an admission plugin does with a ConfigMap named for it.
#[derive(Debug)]
struct Misbehaves {
    /// Held while `slow` ConfigMaps are admitted.
    gate: Arc<Semaphore>,
}

#[async_trait::async_trait]
impl MutationInterface for Misbehaves {
    fn handles(&self, operation: Operation) -> bool {
        operation == Operation::Create
    }

    async fn admit(&self, attributes: &mut admission::Attributes) -> Result<(), StatusError> {
        match attributes.name.as_str() {
            "panics" => panic!("an admission plugin with a bug"),
            "slow" => {
                let _held = self.gate.acquire().await;
                tokio::time::sleep(Duration::from_secs(5)).await;
            }
            "waits" => {
                let _released = self.gate.acquire().await;
            }
            _ => {}
        }
        Ok(())
    }
}

async fn handler(config: impl FnOnce(Config) -> Config, gate: Arc<Semaphore>) -> ApiServerHandler {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    let plugin = Arc::new(Misbehaves { gate });
    config(Config::new(
        Arc::new(scheme),
        Arc::new(MemoryStorage::new()),
    ))
    .admission(Chain::new().with_mutating(plugin))
    .handler("127.0.0.1:6443")
    .await
    .unwrap()
}

fn create(name: &str) -> Request<Body> {
    let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}});
    Request::post("/api/v1/namespaces/default/configmaps")
        .header("content-type", "application/json")
        .body(Body::from(serde_json::to_vec(&body).unwrap()))
        .unwrap()
}

async fn body(resp: Response<Body>) -> (u16, Vec<u8>) {
    let status = resp.status().as_u16();
    let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, bytes.to_vec())
}

#[tokio::test]
async fn a_panicking_handler_answers_500_and_the_server_goes_on() {
    let h = handler(|c| c, Arc::new(Semaphore::new(1))).await;
    let (code, text) = body(h.serve_http(create("panics")).await).await;
    assert_eq!(code, 500);
    assert_eq!(
        text,
        b"This request caused apiserver to panic. Look in the logs for details.\n"
    );
    let (code, _) = body(h.serve_http(create("fine")).await).await;
    assert_eq!(code, 201);
}

#[tokio::test]
async fn a_request_past_the_timeout_answers_504_but_a_watch_stays_open() {
    let h = handler(
        |c| c.request_timeout(Duration::from_millis(300)),
        Arc::new(Semaphore::new(1)),
    )
    .await;
    let (code, text) = body(h.serve_http(create("slow")).await).await;
    assert_eq!(code, 504);
    let status: Value = serde_json::from_slice(&text).unwrap();
    assert_eq!(status["reason"], "Timeout");
    assert_eq!(
        status["message"],
        "Timeout: request did not complete within the allotted timeout"
    );
    // A watch is long-running: it is still streaming after the timeout.
    let watch = h
        .serve_http(
            Request::get("/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=2")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(watch.status(), 200);
    let mut events = watch.into_body().into_data_stream();
    tokio::time::sleep(Duration::from_millis(600)).await;
    let (code, _) = body(h.serve_http(create("late")).await).await;
    assert_eq!(code, 201);
    use futures_util::StreamExt;
    let event = tokio::time::timeout(Duration::from_secs(2), events.next())
        .await
        .expect("the watch is open")
        .expect("an event")
        .unwrap();
    let event: Value = serde_json::from_slice(&event).unwrap();
    assert_eq!(event["type"], "ADDED");
    assert_eq!(event["object"]["metadata"]["name"], "late");
}

#[tokio::test]
async fn past_the_in_flight_limit_requests_answer_429() {
    let gate = Arc::new(Semaphore::new(0));
    let h = Arc::new(handler(|c| c.max_requests_inflight(0, 1), gate.clone()).await);
    // The first create holds the only mutating slot until the gate opens.
    let first = tokio::spawn({
        let h = h.clone();
        async move { body(h.serve_http(create("waits")).await).await }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let resp = h.serve_http(create("second")).await;
    assert_eq!(resp.headers()["retry-after"], "1");
    let (code, text) = body(resp).await;
    assert_eq!(code, 429);
    assert_eq!(text, b"Too many requests, please try again later.\n");
    // Reads are counted apart (and unlimited here).
    let (code, _) = body(
        h.serve_http(
            Request::get("/api/v1/namespaces/default/configmaps")
                .body(Body::empty())
                .unwrap(),
        )
        .await,
    )
    .await;
    assert_eq!(code, 200);
    gate.add_permits(1);
    assert_eq!(first.await.unwrap().0, 201);
    let (code, _) = body(h.serve_http(create("third")).await).await;
    assert_eq!(code, 201);
}
