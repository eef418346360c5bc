//! What a metadata-only list costs beside a full one: the same collection of ConfigMaps
//! (50 keys each) listed as objects and as `PartialObjectMetadataList` (the `Accept`
//! of client-go's metadata client and controller-runtime's metadata informers), in
//! JSON and protobuf, through the server's request handling in process (no sockets).
//!
//! ```text
//! cargo run -p apiserver --example metadata_list_timing -- [OBJECTS] [LISTS]
//! ```
//!
//! Creates OBJECTS ConfigMaps (default 2,000), then lists the collection LISTS times
//! (default 10) in each form, printing the time per list and the answer's size.

use std::sync::Arc;
use std::time::Instant;

use apimachinery::runtime::Scheme;
use apiserver::server::{ApiServerHandler, Config};
use apiserver::storage::MemoryStorage;
use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};
// Linked for the built-in types it registers.
use k8s_types as _;

const CONFIGMAPS: &str = "/api/v1/namespaces/default/configmaps";

fn configmap(n: usize) -> Value {
    let data: serde_json::Map<String, Value> = (0..50)
        .map(|i| (format!("k{i:02}"), json!(format!("value-{n}-{i}"))))
        .collect();
    json!({"apiVersion": "v1", "kind": "ConfigMap",
           "metadata": {"name": format!("cm-{n:06}"), "labels": {"app": "web", "n": n.to_string()}},
           "data": data})
}

async fn send(
    h: &ApiServerHandler,
    method: &str,
    path: &str,
    accept: &str,
    body: Option<&Value>,
) -> (u16, Vec<u8>) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .header("accept", accept)
        .body(match body {
            Some(b) => Body::from(serde_json::to_vec(b).unwrap_or_default()),
            None => Body::empty(),
        })
        .unwrap_or_default();
    let response = h.serve_http(request).await;
    let status = response.status().as_u16();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .map(|b| b.to_vec())
        .unwrap_or_default();
    (status, bytes)
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let objects: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2_000);
    let lists: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let mut scheme = Scheme::new();
    scheme.add_registry().map_err(|e| e.to_string())?;
    let h = Config::new(Arc::new(scheme), Arc::new(MemoryStorage::new()))
        .handler("127.0.0.1:6443")
        .await
        .map_err(|e| e.to_string())?;
    for n in 0..objects {
        let (status, body) = send(
            &h,
            "POST",
            CONFIGMAPS,
            "application/json",
            Some(&configmap(n)),
        )
        .await;
        if status != 201 {
            return Err(format!(
                "create: {status} {}",
                String::from_utf8_lossy(&body)
            ));
        }
    }
    let forms = [
        ("objects, JSON", "application/json"),
        ("objects, protobuf", "application/vnd.kubernetes.protobuf"),
        (
            "metadata, JSON",
            "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
        ),
        (
            "metadata, protobuf",
            "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
        ),
    ];
    println!("{objects} ConfigMaps (50 keys each), {lists} lists per form");
    for (label, accept) in forms {
        let started = Instant::now();
        let mut size = 0;
        for _ in 0..lists {
            let (status, body) = send(&h, "GET", CONFIGMAPS, accept, None).await;
            if status != 200 {
                return Err(format!(
                    "{label}: {status} {}",
                    String::from_utf8_lossy(&body)
                ));
            }
            size = body.len();
        }
        let per_list = started.elapsed().as_secs_f64() * 1000.0 / lists as f64;
        println!("{label:<20} {per_list:>9.1} ms per list {:>10} bytes", size);
    }
    Ok(())
}
