//! kube-apiserver's request handling, in process (no socket): request-info parsing of
//! the path, the query (list and watch options: selectors, limit, continue,
//! resourceVersion, timeoutSeconds, dryRun, fieldValidation ...), content negotiation,
//! body decoding (JSON, YAML, protobuf), the patch appliers (JSON patch, merge patch,
//! strategic merge patch) and the scale subresource, on the memory storage.
//!
//! The input is `METHOD PATH[?QUERY]`, a newline, the content type, a newline and the
//! body. Properties: no panic, and no 500 Internal Server Error: every bad request is
//! answered with a `Status` naming what is wrong. (Other 5xx are Go's answers too: a
//! watch from a resource version ahead of the storage's is 504 Timeout.)
#![no_main]

use std::cell::RefCell;
use std::sync::Arc;

use apimachinery::runtime::Scheme;
use apiserver::server::{ApiServerHandler, Config};
use apiserver::storage::MemoryStorage;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use libfuzzer_sys::fuzz_target;

/// The storage is rebuilt after this many requests, so that what the inputs create does
/// not pile up over a long run.
const REQUESTS_PER_STORAGE: u32 = 2048;

struct State {
    runtime: tokio::runtime::Runtime,
    handler: Option<ApiServerHandler>,
    served: u32,
}

thread_local! {
    static STATE: RefCell<Option<State>> = const { RefCell::new(None) };
}

fn new_handler(runtime: &tokio::runtime::Runtime) -> ApiServerHandler {
    let mut scheme = Scheme::new();
    if let Err(e) = k8s_types::register(&mut scheme) {
        panic!("k8s_types::register failed: {e}");
    }
    let config = Config::new(Arc::new(scheme), Arc::new(MemoryStorage::new()));
    match runtime.block_on(config.handler("127.0.0.1:6443")) {
        Ok(handler) => handler,
        Err(e) => panic!("the server cannot start: {e}"),
    }
}

fn request(data: &[u8]) -> Option<Request<Body>> {
    let mut parts = data.splitn(3, |&b| b == b'\n');
    let line = std::str::from_utf8(parts.next()?).ok()?;
    let content_type = parts.next().and_then(|c| std::str::from_utf8(c).ok());
    let body = parts.next().unwrap_or_default().to_vec();
    let (method, uri) = line.split_once(' ')?;
    let mut builder = Request::builder().method(method).uri(uri);
    if let Some(content_type) = content_type.filter(|c| !c.is_empty()) {
        builder = builder.header(header::CONTENT_TYPE, content_type);
    }
    builder.body(Body::from(body)).ok()
}

fuzz_target!(|data: &[u8]| {
    let Some(request) = request(data) else {
        return;
    };
    STATE.with(|state| {
        let mut state = state.borrow_mut();
        let state = state.get_or_insert_with(|| {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime,
                Err(e) => panic!("no tokio runtime: {e}"),
            };
            State {
                runtime,
                handler: None,
                served: 0,
            }
        });
        if state.served % REQUESTS_PER_STORAGE == 0 {
            state.handler = Some(new_handler(&state.runtime));
        }
        state.served = state.served.wrapping_add(1);
        let Some(handler) = &state.handler else {
            return;
        };
        state.runtime.block_on(async {
            let response = handler.serve_http(request).await;
            let status = response.status();
            let streaming = response.headers().get(header::TRANSFER_ENCODING).is_some();
            // A watch streams until it times out; its first events are enough.
            let body = if streaming {
                Vec::new()
            } else {
                match axum::body::to_bytes(response.into_body(), 64 << 20).await {
                    Ok(body) => body.to_vec(),
                    Err(e) => panic!("the response body cannot be read: {e}"),
                }
            };
            // The 500s that are kube-apiserver's answers too, and nothing else (a panic
            // says "This request caused apiserver to panic"): a watch whose
            // resourceVersion does not parse gets the watch cache's storage error as an
            // internal error; a strategic merge patch that fails other than as malformed
            // (400) or unmergeable (422) is Go's `interpretStrategicMergePatchError`
            // default, "Internal error occurred: ..." (a list item without its merge key).
            let text = String::from_utf8_lossy(&body);
            let gos_watch_answer = text.contains(r#""message":"resourceVersion: Invalid value: "#);
            let gos_patch_answer = String::from_utf8_lossy(data)
                .contains("application/strategic-merge-patch+json")
                && text.contains(r#""message":"Internal error occurred: "#);
            assert!(
                status != StatusCode::INTERNAL_SERVER_ERROR || gos_watch_answer || gos_patch_answer,
                "{status} for {:?}: {text}",
                String::from_utf8_lossy(data),
            );
        });
    });
});
