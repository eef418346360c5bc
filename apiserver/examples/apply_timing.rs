//! Time per call of the field manager on a Deployment of 20 containers, with the type
//! built from the served apps/v1 OpenAPI document: a server-side apply that changes one
//! image, the same apply again (nothing changes), and the `managedFields` update of a
//! plain write.
//!
//! ```text
//! cargo run --release -p apiserver --example apply_timing -- [ITERATIONS]
//! ```

use std::time::Instant;

use apimachinery::managedfields::{FieldManager, NoConversion};
use apimachinery::schema::GroupVersionKind;
use apiserver::endpoints::fieldmanager::types_for;
use serde_json::{Value, json};

fn deployment(image: &str) -> Value {
    let containers: Vec<Value> = (0..20)
        .map(|i| {
            json!({"name": format!("c{i}"), "image": image,
                   "ports": [{"containerPort": 8000 + i, "protocol": "TCP"}],
                   "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]})
        })
        .collect();
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
           "metadata": {"name": "web", "namespace": "default", "labels": {"app": "web"}},
           "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
                    "template": {"metadata": {"labels": {"app": "web"}},
                                 "spec": {"containers": containers}}}})
}

fn main() {
    let iterations: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(500);
    let started = Instant::now();
    let types = types_for(&GroupVersionKind::new("apps", "v1", "Deployment"));
    println!("type from the OpenAPI document: {:?}", started.elapsed());
    let fm = FieldManager::new(&types, "apps/v1", "", &NoConversion).with_reset_fields(&["status"]);
    let now = "2026-01-01T00:00:00Z";
    let (a, b) = (deployment("nginx:1"), deployment("nginx:2"));
    let live = match fm.apply(
        &json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {}}),
        &a,
        "kubectl",
        false,
        now,
    ) {
        Ok(Some(v)) => v,
        other => {
            eprintln!("the first apply failed: {other:?}");
            std::process::exit(1);
        }
    };
    let time = |name: &str, f: &dyn Fn() -> bool| {
        let start = Instant::now();
        let mut ok = true;
        for _ in 0..iterations {
            ok &= f();
        }
        let per = start.elapsed() / iterations;
        println!(
            "{name:<40} {per:>10.1?} per call{}",
            if ok { "" } else { " (unexpected result)" }
        );
    };
    time("apply, one field changed", &|| {
        matches!(fm.apply(&live, &b, "kubectl", false, now), Ok(Some(_)))
    });
    time("apply, nothing changed", &|| {
        matches!(fm.apply(&live, &a, "kubectl", false, now), Ok(None))
    });
    time("update (managedFields of a plain write)", &|| {
        let mut new = live.clone();
        new["spec"]["replicas"] = json!(4);
        fm.update(Some(&live), &json!({}), &mut new, "editor", now);
        new["metadata"]["managedFields"]
            .as_array()
            .is_some_and(|e| e.len() == 2)
    });
}
