//! Requests per second of a custom resource whose CRD has a 50-field schema (pruning,
//! defaulting and validation all at work on every write, defaulting on every read),
//! beside the same requests for ConfigMaps with 50 keys, through the server's request
//! handling in process (no sockets: the server's own cost).
//!
//! ```text
//! cargo run -p apiserver --example custom_resource_throughput -- [OBJECTS] [LISTS]
//! ```
//!
//! Creates OBJECTS objects (default 2,000) of each, gets each once, then lists the whole
//! collection LISTS times (default 20).

use std::sync::Arc;
use std::time::{Duration, Instant};

use apimachinery::runtime::Scheme;
use apiserver::server::{ApiServerHandler, Config};
use apiserver::storage::MemoryStorage;
use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};
// Linked for the built-in types it registers.
use k8s_types as _;

const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const WIDGETS: &str = "/apis/example.com/v1/namespaces/default/widgets";
const CONFIGMAPS: &str = "/api/v1/namespaces/default/configmaps";

/// The schema: 50 fields under `spec`, of every kind the validator checks, 10 of them
/// defaulted.
fn schema() -> Value {
    let mut props = serde_json::Map::new();
    for i in 0..50 {
        let field = match i % 5 {
            0 => json!({"type": "integer", "minimum": 0, "maximum": 1_000_000}),
            1 => json!({"type": "string", "maxLength": 64, "pattern": "^[a-z0-9-]+$"}),
            2 => json!({"type": "string", "enum": ["red", "green", "blue"]}),
            3 => json!({"type": "boolean"}),
            _ => json!({"type": "array", "maxItems": 8, "x-kubernetes-list-type": "set",
                        "items": {"type": "string", "minLength": 1}}),
        };
        let mut field = field;
        if i % 5 == 0 && i >= 25 {
            field["default"] = json!(i);
        }
        if i % 5 == 2 && i >= 25 {
            field["default"] = json!("green");
        }
        props.insert(format!("f{i:02}"), field);
    }
    json!({"type": "object", "properties": {
        "spec": {"type": "object", "required": ["f00"], "properties": props},
        "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}},
    }})
}

/// A widget setting the 40 fields without defaults, and two the schema does not know.
fn widget(n: usize) -> Value {
    let mut spec = serde_json::Map::new();
    for i in 0..50 {
        if i >= 25 && (i % 5 == 0 || i % 5 == 2) {
            continue;
        }
        let v = match i % 5 {
            0 => json!(n),
            1 => json!(format!("name-{n}-{i}")),
            2 => json!("blue"),
            3 => json!(n % 2 == 0),
            _ => json!(["a", "b", "c"]),
        };
        spec.insert(format!("f{i:02}"), v);
    }
    spec.insert("unknown1".into(), json!(1));
    spec.insert("unknown2".into(), json!({"x": 1}));
    json!({"apiVersion": "example.com/v1", "kind": "Widget",
           "metadata": {"name": format!("w-{n:06}")}, "spec": spec})
}

fn configmap(n: usize) -> Value {
    let data: serde_json::Map<String, Value> = (0..50)
        .map(|i| (format!("k{i:02}"), json!(format!("value-{n}-{i}"))))
        .collect();
    json!({"apiVersion": "v1", "kind": "ConfigMap",
           "metadata": {"name": format!("cm-{n:06}")}, "data": data})
}

async fn send(
    h: &ApiServerHandler,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, Vec<u8>) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
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

fn report(what: &str, n: usize, elapsed: Duration) {
    println!(
        "{what:<28} {n:>6} in {:>7.3}s = {:>8.0}/s",
        elapsed.as_secs_f64(),
        n as f64 / elapsed.as_secs_f64()
    );
}

async fn run(
    h: &ApiServerHandler,
    label: &str,
    path: &str,
    objects: usize,
    lists: usize,
    make: fn(usize) -> Value,
) -> Result<(), String> {
    let started = Instant::now();
    for n in 0..objects {
        let (status, body) = send(h, "POST", path, Some(&make(n))).await;
        if status != 201 {
            return Err(format!(
                "{label} create: {status} {}",
                String::from_utf8_lossy(&body)
            ));
        }
    }
    report(&format!("{label} create"), objects, started.elapsed());
    let started = Instant::now();
    for n in 0..objects {
        let name = make(n)["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let (status, _) = send(h, "GET", &format!("{path}/{name}"), None).await;
        if status != 200 {
            return Err(format!("{label} get: {status}"));
        }
    }
    report(&format!("{label} get"), objects, started.elapsed());
    let started = Instant::now();
    for _ in 0..lists {
        let (status, _) = send(h, "GET", path, None).await;
        if status != 200 {
            return Err(format!("{label} list: {status}"));
        }
    }
    let elapsed = started.elapsed();
    report(&format!("{label} list ({objects} items)"), lists, elapsed);
    report(&format!("{label} listed items"), lists * objects, elapsed);
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let objects: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2_000);
    let lists: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let mut scheme = Scheme::new();
    scheme.add_registry().map_err(|e| e.to_string())?;
    let h = Config::new(Arc::new(scheme), Arc::new(MemoryStorage::new()))
        .handler("127.0.0.1:6443")
        .await
        .map_err(|e| e.to_string())?;
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
                 "names": {"plural": "widgets", "kind": "Widget"},
                 "versions": [{"name": "v1", "served": true, "storage": true,
                               "schema": {"openAPIV3Schema": schema()}}]},
    });
    let (status, body) = send(&h, "POST", CRDS, Some(&crd)).await;
    if status != 201 {
        return Err(format!("CRD: {status} {}", String::from_utf8_lossy(&body)));
    }
    // Served once the controller has established it.
    for _ in 0..1000 {
        if send(&h, "GET", WIDGETS, None).await.0 == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    run(
        &h,
        "widget (50-field schema)",
        WIDGETS,
        objects,
        lists,
        widget,
    )
    .await?;
    run(
        &h,
        "configmap (50 keys)",
        CONFIGMAPS,
        objects,
        lists,
        configmap,
    )
    .await?;
    Ok(())
}
