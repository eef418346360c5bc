//! What a write answers and what the server's own controllers write, as kube-apiserver:
//!
//! - a create or update (and their dry runs) answers the object read back from what was
//!   stored: protobuf keeps no empty list, so a nullable list sent as `[]` comes back
//!   `null` (Go's etcd3 store decodes its answer from the stored bytes);
//! - API priority and fairness's config consumer gives each FlowSchema its `Dangling`
//!   condition through server-side apply of `/status`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use serde_json::{Value, json};

use crate::client;

const SLICES: &str = "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices";
const SCHEMAS: &str = "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas";
const LEVELS: &str = "/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations";

fn slice(name: &str) -> Value {
    json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
           "metadata": {"name": name}, "addressType": "IPv4", "endpoints": [], "ports": []})
}

#[tokio::test]
async fn writes_answer_empty_nullable_lists_as_stored_null() {
    let s = client::start().await;
    let r = s
        .send_json("POST", &format!("{SLICES}?dryRun=All"), &slice("dry"))
        .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["endpoints"], Value::Null);
    let r = s.send_json("POST", SLICES, &slice("empty")).await;
    assert_eq!(r.status, 201);
    let created = r.json();
    assert_eq!(created["endpoints"], Value::Null);
    assert_eq!(created["ports"], Value::Null);
    assert!(created["metadata"]["resourceVersion"].is_string());

    let mut updated = slice("empty");
    updated["metadata"]["labels"] = json!({"a": "b"});
    let r = s
        .send_json("PUT", &format!("{SLICES}/empty"), &updated)
        .await;
    assert_eq!(r.status, 200);
    let answer = r.json();
    assert_eq!(answer["endpoints"], Value::Null);
    assert_eq!(answer["metadata"]["labels"]["a"], "b");
    assert_ne!(
        answer["metadata"]["resourceVersion"],
        created["metadata"]["resourceVersion"]
    );
    let r = s
        .patch(
            &format!("{SLICES}/empty"),
            "application/merge-patch+json",
            &json!({"metadata": {"labels": {"c": "d"}}, "ports": []}),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["ports"], Value::Null);
    // A list with items is answered as sent.
    let mut full = slice("full");
    full["endpoints"] = json!([{"addresses": ["10.0.0.1"]}]);
    let r = s.send_json("POST", SLICES, &full).await;
    assert_eq!(r.json()["endpoints"][0]["addresses"][0], "10.0.0.1");
    assert_eq!(r.json()["ports"], Value::Null);
    s.server.shutdown().await;
}

/// The schema `name` once its `Dangling` condition is there, within ten seconds.
async fn with_condition(s: &client::TestServer, name: &str, status: &str) -> Value {
    for _ in 0..100 {
        let fs = s.get(&format!("{SCHEMAS}/{name}")).await.json();
        let conditions = fs["status"]["conditions"].as_array().cloned();
        if conditions
            .unwrap_or_default()
            .iter()
            .any(|c| c["type"] == "Dangling" && c["status"] == status)
        {
            return fs;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("FlowSchema {name} has no Dangling condition {status}");
}

#[tokio::test]
async fn flow_schemas_get_their_dangling_condition() {
    let s = client::start().await;
    let level = json!({"apiVersion": "flowcontrol.apiserver.k8s.io/v1",
        "kind": "PriorityLevelConfiguration", "metadata": {"name": "level"},
        "spec": {"type": "Limited", "limited": {"limitResponse": {"type": "Reject"}}}});
    assert_eq!(s.send_json("POST", LEVELS, &level).await.status, 201);
    let schema = |name: &str, level: &str| {
        json!({"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema",
            "metadata": {"name": name},
            "spec": {"priorityLevelConfiguration": {"name": level},
                     "rules": [{"subjects": [{"kind": "User", "user": {"name": "u"}}],
                                "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": ["/x"]}]}]}})
    };
    assert_eq!(
        s.send_json("POST", SCHEMAS, &schema("found", "level"))
            .await
            .status,
        201
    );
    assert_eq!(
        s.send_json("POST", SCHEMAS, &schema("missing", "nothing"))
            .await
            .status,
        201
    );
    let found = with_condition(&s, "found", "False").await;
    let condition = &found["status"]["conditions"][0];
    assert_eq!(condition["reason"], "Found");
    assert_eq!(
        condition["message"],
        "This FlowSchema references the PriorityLevelConfiguration object named \"level\" and it exists"
    );
    let entry = found["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["manager"] == "api-priority-and-fairness-config-consumer-v1")
        .cloned()
        .expect("the consumer's entry");
    assert_eq!(entry["operation"], "Apply");
    assert_eq!(entry["subresource"], "status");
    assert_eq!(
        entry["fieldsV1"],
        json!({"f:status": {"f:conditions": {"k:{\"type\":\"Dangling\"}": {
            ".": {}, "f:lastTransitionTime": {}, "f:message": {}, "f:reason": {},
            "f:status": {}, "f:type": {}}}}})
    );
    let missing = with_condition(&s, "missing", "True").await;
    assert_eq!(missing["status"]["conditions"][0]["reason"], "NotFound");

    // The level goes: the schema naming it dangles; it comes back: it does not.
    assert_eq!(s.delete(&format!("{LEVELS}/level")).await.status, 200);
    with_condition(&s, "found", "True").await;
    assert_eq!(s.send_json("POST", LEVELS, &level).await.status, 201);
    let found = with_condition(&s, "found", "False").await;
    // One entry of the consumer's, one condition.
    assert_eq!(found["status"]["conditions"].as_array().unwrap().len(), 1);
    s.server.shutdown().await;
}
