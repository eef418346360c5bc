//! `pods/eviction` as `kubectl drain` uses it (Go's `EvictionREST`): a Pod no budget
//! guards goes, with its `DisruptionTarget` condition; a budget with nothing to spare
//! refuses with 429 and its cause; one with a disruption to spare is spent and records
//! the Pod; policy/v1beta1 bodies are taken. The differential suite compares every case
//! with kube-apiserver; this test needs no Go.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::client::{self, TestServer};

use serde_json::{Value, json};

const PODS: &str = "/api/v1/namespaces/default/pods";
const BUDGETS: &str = "/apis/policy/v1/namespaces/default/poddisruptionbudgets";

async fn running_pod(s: &TestServer, name: &str, app: &str) {
    let pod = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "labels": {"app": app}},
        "spec": {"nodeName": "node-1", "containers": [{"name": "c", "image": "nginx"}]}});
    let r = s.send_json("POST", PODS, &pod).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let status = json!({"status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}});
    let r = s
        .patch(
            &format!("{PODS}/{name}/status"),
            "application/merge-patch+json",
            &status,
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
}

async fn budget(s: &TestServer, name: &str, app: &str, allowed: i64) {
    let pdb = json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
        "metadata": {"name": name}, "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": app}}}});
    let r = s.send_json("POST", BUDGETS, &pdb).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let status = json!({"status": {"observedGeneration": 1, "disruptionsAllowed": allowed,
        "currentHealthy": 2, "desiredHealthy": 1, "expectedPods": 2}});
    let r = s
        .patch(
            &format!("{BUDGETS}/{name}/status"),
            "application/merge-patch+json",
            &status,
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
}

async fn evict(s: &TestServer, name: &str, api_version: &str) -> (u16, Value) {
    let eviction =
        json!({"apiVersion": api_version, "kind": "Eviction", "metadata": {"name": name}});
    let r = s
        .send_json("POST", &format!("{PODS}/{name}/eviction"), &eviction)
        .await;
    (r.status, r.json())
}

#[tokio::test]
async fn evictions_spend_budgets_as_go_does() {
    let s = client::start().await;
    running_pod(&s, "free", "free").await;
    running_pod(&s, "db", "db").await;
    running_pod(&s, "api", "api").await;
    budget(&s, "db", "db", 0).await;
    budget(&s, "api", "api", 1).await;

    // No budget: the Pod gets its condition and is deleted gracefully (it is on a node).
    let (code, answer) = evict(&s, "free", "policy/v1").await;
    assert_eq!(
        (code, &answer["status"]),
        (201, &json!("Success")),
        "{answer}"
    );
    let free = s.get(&format!("{PODS}/free")).await.json();
    assert!(free["metadata"]["deletionTimestamp"].is_string(), "{free}");
    let conditions = free["status"]["conditions"].as_array().unwrap();
    assert!(
        conditions
            .iter()
            .any(|c| c["type"] == "DisruptionTarget" && c["reason"] == "EvictionByEvictionAPI"),
        "{free}"
    );

    // Nothing to spare: 429, the budget's cause, the Pod untouched.
    let (code, answer) = evict(&s, "db", "policy/v1").await;
    assert_eq!(code, 429, "{answer}");
    assert_eq!(
        answer["details"]["causes"][0],
        json!({"reason": "DisruptionBudget",
            "message": "The disruption budget db does not allow evicting pods currently"})
    );
    let db = s.get(&format!("{PODS}/db")).await.json();
    assert!(db["metadata"]["deletionTimestamp"].is_null(), "{db}");

    // One to spare (a policy/v1beta1 body): spent, the Pod recorded, the Pod going.
    let (code, answer) = evict(&s, "api", "policy/v1beta1").await;
    assert_eq!(code, 201, "{answer}");
    let pdb = s.get(&format!("{BUDGETS}/api")).await.json();
    assert_eq!(pdb["status"]["disruptionsAllowed"], 0, "{pdb}");
    assert!(pdb["status"]["disruptedPods"]["api"].is_string(), "{pdb}");
    assert_eq!(
        pdb["status"]["conditions"][0]["reason"], "InsufficientPods",
        "{pdb}"
    );
    let manager = pdb["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["manager"] == "kube-apiserver" && m["subresource"] == "status");
    assert!(manager, "{pdb}");

    // What an eviction may not be.
    let (code, answer) = evict(&s, "missing", "policy/v1").await;
    assert_eq!(code, 404, "{answer}");
    let wrong =
        json!({"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": "other"}});
    let r = s
        .send_json("POST", &format!("{PODS}/db/eviction"), &wrong)
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["message"],
        "name in URL does not match name in Eviction object"
    );
    assert_eq!(s.get(&format!("{PODS}/db/eviction")).await.status, 405);
    s.server.shutdown().await;
}
