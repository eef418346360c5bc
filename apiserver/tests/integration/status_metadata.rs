//! What a `/status` write does to the metadata, kind by kind, as Go's status strategies
//! do it: a Job's stores the labels, annotations and finalizers written; a
//! Deployment's keeps the stored labels only; a custom resource's keeps the whole
//! stored metadata; and server-side apply on `/status` owns only what it may change.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::client::{TestServer, start};

use std::time::Duration;

use serde_json::{Value, json};

const JOBS: &str = "/apis/batch/v1/namespaces/default/jobs";
const DEPLOYMENTS: &str = "/apis/apps/v1/namespaces/default/deployments";
const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

fn template(restart: &str) -> Value {
    json!({"metadata": {"labels": {"app": "a"}}, "spec": {"restartPolicy": restart,
        "containers": [{"name": "c", "image": "busybox"}]}})
}

async fn created(s: &TestServer, path: &str, body: Value) -> Value {
    let r = s.send_json("POST", path, &body).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    r.json()
}

/// A merge patch of `/status` changing the labels, annotations and finalizers; the
/// answer's metadata.
async fn patch_status_metadata(s: &TestServer, path: &str) -> Value {
    let r = s
        .patch(
            &format!("{path}/status"),
            "application/merge-patch+json",
            &json!({"metadata": {"labels": {"new": "1"}, "annotations": {"note": "x"},
                "finalizers": ["example.com/hold"]}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    r.json()["metadata"].clone()
}

#[tokio::test]
async fn most_kinds_store_the_metadata_a_status_write_sends() {
    let s = start().await;
    created(
        &s,
        JOBS,
        json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j", "labels": {"old": "1"}},
            "spec": {"template": template("Never")}}),
    )
    .await;
    let meta = patch_status_metadata(&s, &format!("{JOBS}/j")).await;
    assert_eq!(meta["labels"], json!({"old": "1", "new": "1"}));
    assert_eq!(meta["annotations"], json!({"note": "x"}));
    assert_eq!(meta["finalizers"], json!(["example.com/hold"]));
}

#[tokio::test]
async fn a_deployment_status_write_keeps_the_stored_labels() {
    let s = start().await;
    created(
        &s,
        DEPLOYMENTS,
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "labels": {"old": "1"}},
            "spec": {"selector": {"matchLabels": {"app": "a"}}, "template": template("Always")}}),
    )
    .await;
    let meta = patch_status_metadata(&s, &format!("{DEPLOYMENTS}/d")).await;
    assert_eq!(meta["labels"], json!({"old": "1"}));
    assert_eq!(meta["annotations"]["note"], "x");
    assert_eq!(meta["finalizers"], json!(["example.com/hold"]));
    // The status manager owns the annotations, not the labels (Go's reset fields).
    let entry = meta["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["subresource"] == "status")
        .unwrap();
    let owned = &entry["fieldsV1"]["f:metadata"];
    assert!(owned.get("f:labels").is_none(), "{entry}");
    assert!(owned.get("f:annotations").is_some(), "{entry}");
}

#[tokio::test]
async fn a_custom_resource_status_write_keeps_the_stored_metadata() {
    let s = start().await;
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "things.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "things", "kind": "Thing"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
                "subresources": {"status": {}}}],
        },
    });
    created(&s, CRDS, crd).await;
    let things = "/apis/example.com/v1/namespaces/default/things";
    let mut made = None;
    for _ in 0..200 {
        let r = s
            .send_json(
                "POST",
                things,
                &json!({"apiVersion": "example.com/v1", "kind": "Thing",
                    "metadata": {"name": "t", "labels": {"old": "1"}}, "spec": {"a": 1}}),
            )
            .await;
        if r.status == 201 {
            made = Some(r.json());
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(made.is_some(), "the custom resource is never served");
    let meta = patch_status_metadata(&s, &format!("{things}/t")).await;
    assert_eq!(meta["labels"], json!({"old": "1"}));
    assert!(meta.get("annotations").is_none(), "{meta}");
    assert!(meta.get("finalizers").is_none(), "{meta}");
}
