//! What a DELETE that removes an object answers, as kube-apiserver's registry stores do:
//! the resources whose store sets `ReturnDeletedObject` (Pods, ServiceAccounts, ...)
//! answer 200 with the object as it was removed, in the request's version; every other
//! kind, custom resources included, a `Status`. Objects kept by finalizers or a grace
//! period answer the object either way, and deletecollection a list.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use crate::client::{self, Response, TestServer};

use apimachinery::serializer::Decoder as _;
use serde_json::{Value, json};

const PODS: &str = "/api/v1/namespaces/default/pods";
const SAS: &str = "/api/v1/namespaces/default/serviceaccounts";
const CM: &str = "/api/v1/namespaces/default/configmaps";
const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const WIDGETS: &str = "/apis/example.com/v1/namespaces/default/widgets";

fn pod(name: &str, node: Option<&str>) -> Value {
    let mut spec = json!({"containers": [{"name": "c", "image": "nginx"}]});
    if let Some(n) = node {
        spec["nodeName"] = json!(n);
    }
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": spec})
}

async fn create(s: &TestServer, path: &str, body: Value) -> Value {
    let r = s.send_json("POST", path, &body).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    r.json()
}

fn rv(v: &Value) -> u64 {
    v["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

fn body(r: &Response) -> String {
    String::from_utf8_lossy(&r.body).into_owned()
}

#[tokio::test]
async fn pods_answer_the_deleted_pod() {
    let s = client::start().await;
    // Not scheduled: deleted at once.
    let created = create(&s, PODS, pod("p", None)).await;
    let r = s.delete(&format!("{PODS}/p")).await;
    assert_eq!(r.status, 200, "{}", body(&r));
    assert_eq!(r.header("content-type"), Some("application/json"));
    let deleted = r.json();
    assert_eq!(deleted["kind"], "Pod");
    assert_eq!(deleted["apiVersion"], "v1");
    assert_eq!(deleted["metadata"]["uid"], created["metadata"]["uid"]);
    assert_eq!(deleted["spec"]["containers"][0]["image"], "nginx");
    // At the revision of the delete, as Go's storage answers it.
    assert!(rv(&deleted) > rv(&created), "{deleted}");
    assert_eq!(s.get(&format!("{PODS}/p")).await.status, 404);

    // Scheduled, with grace period 0: gone too, and answered the same.
    create(&s, PODS, pod("q", Some("node-1"))).await;
    let r = s.delete(&format!("{PODS}/q?gracePeriodSeconds=0")).await;
    assert_eq!(r.status, 200, "{}", body(&r));
    assert_eq!(r.json()["metadata"]["name"], "q");
    assert_eq!(s.get(&format!("{PODS}/q")).await.status, 404);

    // Scheduled with a grace period: marked and kept, the object as before.
    create(&s, PODS, pod("g", Some("node-1"))).await;
    let r = s.delete(&format!("{PODS}/g")).await;
    assert_eq!(r.status, 200);
    assert!(r.json()["metadata"]["deletionTimestamp"].is_string());
    assert_eq!(s.get(&format!("{PODS}/g")).await.status, 200);
    s.server.shutdown().await;
}

#[tokio::test]
async fn the_deleted_object_matches_the_watchs_deleted_event() {
    let s = client::start().await;
    let created = create(
        &s,
        SAS,
        json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "robot"}}),
    )
    .await;
    let addr = s.server.local_addr().to_string();
    let from = rv(&created);
    let watch = tokio::spawn(async move {
        client::request(
            &addr,
            "GET",
            &format!("{SAS}?watch=true&resourceVersion={from}&timeoutSeconds=2"),
            &[],
            b"",
        )
        .await
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let r = s.delete(&format!("{SAS}/robot")).await;
    assert_eq!(r.status, 200, "{}", body(&r));
    let deleted = r.json();
    assert_eq!(deleted["kind"], "ServiceAccount");
    let events = watch.await.unwrap().events();
    let event = events.iter().find(|e| e["type"] == "DELETED").unwrap();
    assert_eq!(
        event["object"]["metadata"]["resourceVersion"],
        deleted["metadata"]["resourceVersion"]
    );
    s.server.shutdown().await;
}

#[tokio::test]
async fn other_kinds_and_custom_resources_answer_a_status() {
    let s = client::start().await;
    let created = create(
        &s,
        CM,
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}),
    )
    .await;
    let r = s.delete(&format!("{CM}/c")).await;
    assert_eq!(r.status, 200);
    let status = r.json();
    assert_eq!(status["kind"], "Status");
    assert_eq!(status["status"], "Success");
    assert_eq!(
        status["details"],
        json!({"name": "c", "kind": "configmaps", "uid": created["metadata"]["uid"]})
    );

    create(
        &s,
        CRDS,
        json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced",
                "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]},
        }),
    )
    .await;
    let mut served = false;
    for _ in 0..300 {
        if s.get(WIDGETS).await.status == 200 {
            served = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(served, "widgets never served");
    let w = create(
        &s,
        WIDGETS,
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}),
    )
    .await;
    let r = s.delete(&format!("{WIDGETS}/w")).await;
    assert_eq!(r.status, 200, "{}", body(&r));
    let status = r.json();
    assert_eq!(status["kind"], "Status");
    assert_eq!(
        status["details"],
        json!({"name": "w", "group": "example.com", "kind": "widgets", "uid": w["metadata"]["uid"]})
    );
    s.server.shutdown().await;
}

#[tokio::test]
async fn kept_objects_dry_runs_formats_and_collections() {
    let s = client::start().await;
    // Held by a finalizer: the marked object, 200, or 202 when orphanDependents=false
    // asked for it, as before.
    let sa = json!({"apiVersion": "v1", "kind": "ServiceAccount",
        "metadata": {"name": "held", "finalizers": ["example.com/hold"]}});
    create(&s, SAS, sa).await;
    let r = s
        .request(
            "DELETE",
            &format!("{SAS}/held"),
            &[("Content-Type", "application/json")],
            br#"{"orphanDependents": false}"#,
        )
        .await;
    assert_eq!(r.status, 202, "{}", body(&r));
    assert!(r.json()["metadata"]["deletionTimestamp"].is_string());
    assert_eq!(s.get(&format!("{SAS}/held")).await.status, 200);

    // A dry run answers the object, and leaves it.
    create(&s, PODS, pod("dry", None)).await;
    let r = s.delete(&format!("{PODS}/dry?dryRun=All")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["kind"], "Pod");
    assert_eq!(s.get(&format!("{PODS}/dry")).await.status, 200);

    // In protobuf, and as its metadata alone.
    let r = s
        .request(
            "DELETE",
            &format!("{PODS}/dry"),
            &[("Accept", "application/vnd.kubernetes.protobuf")],
            b"",
        )
        .await;
    assert_eq!(r.status, 200);
    let scheme = client::scheme();
    let (obj, gvk) = apimachinery::serializer::protobuf::ProtobufSerializer::new(&scheme)
        .decode(&r.body, None, None)
        .unwrap();
    assert_eq!(gvk.kind, "Pod");
    assert_eq!(obj.meta().unwrap().name(), "dry");
    create(&s, PODS, pod("meta", None)).await;
    let r = s
        .request(
            "DELETE",
            &format!("{PODS}/meta"),
            &[(
                "Accept",
                "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
            )],
            b"",
        )
        .await;
    assert_eq!(r.status, 200, "{}", body(&r));
    assert_eq!(r.json()["kind"], "PartialObjectMetadata");
    assert_eq!(r.json()["metadata"]["name"], "meta");

    // deletecollection answers the list, as before.
    create(&s, PODS, pod("a", None)).await;
    create(&s, PODS, pod("b", None)).await;
    let r = s.delete(PODS).await;
    assert_eq!(r.status, 200, "{}", body(&r));
    let list = r.json();
    assert_eq!(list["kind"], "PodList");
    assert_eq!(list["items"].as_array().unwrap().len(), 2);
    s.server.shutdown().await;
}
