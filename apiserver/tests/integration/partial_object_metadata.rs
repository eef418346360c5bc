//! `Accept: ...;as=PartialObjectMetadata;g=meta.k8s.io;v=v1` (and `v1beta1`, and
//! `PartialObjectMetadataList`), as kube-apiserver answers it for client-go's metadata
//! client and controller-runtime's metadata informers: get, list and watch of built-in
//! and custom resources in JSON, YAML and protobuf, with Go's 406 answers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use crate::client::{self, Response, TestServer};

use apimachinery::runtime::Object;
use apimachinery::schema::GroupVersionKind;
use apimachinery::serializer::Decoder as _;
use k8s_types::meta::{v1, v1beta1};
use serde_json::{Value, json};

const CM: &str = "/api/v1/namespaces/default/configmaps";
const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const WIDGETS: &str = "/apis/example.com/v1/namespaces/default/widgets";

const JSON_META: &str = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
const JSON_META_LIST: &str = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";
const PB_META: &str =
    "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
const PB_META_LIST_BETA: &str =
    "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1";
const GO_406: &str = "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf";

fn configmap(name: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name, "labels": {"app": "web"}, "annotations": {"note": "x"},
                     "finalizers": ["example.com/keep"]},
        "data": {"secret-ish": "not in metadata"},
    })
}

async fn create(s: &TestServer, path: &str, body: Value) -> Value {
    let r = s.send_json("POST", path, &body).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    r.json()
}

async fn get_as(s: &TestServer, path: &str, accept: &str) -> Response {
    s.request("GET", path, &[("Accept", accept)], b"").await
}

fn decode_pb(body: &[u8]) -> Box<dyn Object> {
    let scheme = client::scheme();
    let (obj, _) = apimachinery::serializer::protobuf::ProtobufSerializer::new(&scheme)
        .decode(body, None, None)
        .unwrap();
    obj
}

fn pom(version: &str) -> GroupVersionKind {
    GroupVersionKind::new("meta.k8s.io", version, "PartialObjectMetadata")
}

/// The objects of the protobuf watch frames of a finished watch body.
fn protobuf_events(body: &[u8]) -> Vec<(String, Box<dyn Object>)> {
    apimachinery::proto::LengthDelimitedFrameReader::new(body)
        .map(|frame| {
            let frame = frame.unwrap();
            let mut d = apimachinery::proto::WireDecoder::new(&frame);
            let (mut event_type, mut raw) = (String::new(), Vec::new());
            while !d.is_empty() {
                let (field, _) = d.key().unwrap();
                let bytes = d.length_delimited().unwrap();
                match field {
                    1 => event_type = String::from_utf8(bytes.to_vec()).unwrap(),
                    _ => {
                        let mut inner = apimachinery::proto::WireDecoder::new(bytes);
                        inner.key().unwrap();
                        raw = inner.length_delimited().unwrap().to_vec();
                    }
                }
            }
            (event_type, decode_pb(&raw))
        })
        .collect()
}

#[tokio::test]
async fn get_answers_the_metadata_alone_in_json_and_yaml_v1_and_v1beta1() {
    let s = client::start().await;
    let created = create(&s, CM, configmap("n")).await;
    let r = get_as(
        &s,
        &format!("{CM}/n"),
        &format!("{JSON_META},application/json"),
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    let body = String::from_utf8(r.body.clone()).unwrap();
    assert!(
        body.starts_with(r#"{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"n","namespace":"default","#),
        "{body}"
    );
    let v = r.json();
    assert_eq!(v["metadata"], created["metadata"]);
    assert!(v.get("data").is_none());

    let r = get_as(
        &s,
        &format!("{CM}/n"),
        "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1",
    )
    .await;
    assert_eq!(r.json()["apiVersion"], "meta.k8s.io/v1beta1");
    assert_eq!(r.json()["metadata"]["uid"], created["metadata"]["uid"]);

    let r = get_as(
        &s,
        &format!("{CM}/n"),
        "application/yaml;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
    )
    .await;
    assert_eq!(r.header("content-type"), Some("application/yaml"));
    let yaml = String::from_utf8(r.body).unwrap();
    assert!(yaml.contains("kind: PartialObjectMetadata\n"), "{yaml}");
    assert!(yaml.contains("apiVersion: meta.k8s.io/v1\n"), "{yaml}");
    assert!(!yaml.contains("not in metadata"), "{yaml}");
    s.server.shutdown().await;
}

#[tokio::test]
async fn get_and_list_in_protobuf() {
    let s = client::start().await;
    create(&s, CM, configmap("a")).await;
    create(&s, CM, configmap("b")).await;
    let r = get_as(&s, &format!("{CM}/a"), PB_META).await;
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("content-type"),
        Some("application/vnd.kubernetes.protobuf")
    );
    let obj = decode_pb(&r.body);
    assert_eq!(obj.group_version_kind(), pom("v1"));
    let meta = obj.downcast_ref::<v1::PartialObjectMetadata>().unwrap();
    assert_eq!(meta.metadata.name, "a");
    assert_eq!(
        meta.metadata.labels.get("app").map(String::as_str),
        Some("web")
    );

    let r = get_as(&s, CM, PB_META_LIST_BETA).await;
    assert_eq!(r.status, 200);
    let obj = decode_pb(&r.body);
    assert_eq!(
        obj.group_version_kind(),
        GroupVersionKind::new("meta.k8s.io", "v1beta1", "PartialObjectMetadataList")
    );
    let list = obj
        .downcast_ref::<v1beta1::PartialObjectMetadataList>()
        .unwrap();
    let names: Vec<&str> = list
        .items
        .iter()
        .flatten()
        .map(|i| i.metadata.name.as_str())
        .collect();
    assert_eq!(names, ["a", "b"]);
    assert!(!list.metadata.resource_version.is_empty());
    s.server.shutdown().await;
}

#[tokio::test]
async fn lists_carry_their_metadata_and_pages() {
    let s = client::start().await;
    for name in ["a", "b", "c"] {
        create(&s, CM, configmap(name)).await;
    }
    let r = get_as(
        &s,
        &format!("{CM}?limit=2"),
        &format!("{JSON_META_LIST},application/json"),
    )
    .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let v = r.json();
    assert_eq!(v["kind"], "PartialObjectMetadataList");
    assert_eq!(v["apiVersion"], "meta.k8s.io/v1");
    assert!(v["metadata"]["resourceVersion"].is_string());
    assert_eq!(v["metadata"]["remainingItemCount"], 1);
    let token = v["metadata"]["continue"].as_str().unwrap().to_owned();
    let items = v["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    for item in items {
        // Each item names its kind, as Go's list of PartialObjectMetadata does.
        assert_eq!(item["kind"], "PartialObjectMetadata");
        assert_eq!(item["apiVersion"], "meta.k8s.io/v1");
        assert!(item.get("data").is_none());
        assert_eq!(item["metadata"]["labels"]["app"], "web");
    }
    let next = get_as(
        &s,
        &format!("{CM}?limit=2&continue={token}"),
        JSON_META_LIST,
    )
    .await
    .json();
    assert_eq!(next["items"][0]["metadata"]["name"], "c");
    // An empty list is `items: null`, as Go writes the list it builds.
    let empty = get_as(
        &s,
        "/api/v1/namespaces/kube-public/configmaps",
        JSON_META_LIST,
    )
    .await;
    assert_eq!(empty.status, 200);
    assert_eq!(empty.json()["items"], Value::Null);
    s.server.shutdown().await;
}

#[tokio::test]
async fn watch_events_carry_partial_object_metadata() {
    let s = client::start().await;
    create(&s, CM, configmap("w")).await;
    let r = get_as(
        &s,
        &format!("{CM}?watch=true&timeoutSeconds=1&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan"),
        &format!("{JSON_META},application/json"),
    )
    .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let events = r.events();
    assert_eq!(events[0]["type"], "ADDED");
    assert_eq!(events[0]["object"]["kind"], "PartialObjectMetadata");
    assert_eq!(events[0]["object"]["apiVersion"], "meta.k8s.io/v1");
    assert_eq!(events[0]["object"]["metadata"]["name"], "w");
    assert!(events[0]["object"].get("data").is_none());
    // The bookmark that ends the initial events too.
    let bookmark = events.iter().find(|e| e["type"] == "BOOKMARK").unwrap();
    assert_eq!(bookmark["object"]["kind"], "PartialObjectMetadata");
    assert_eq!(
        bookmark["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"],
        "true"
    );

    let r = get_as(&s, &format!("{CM}?watch=true&timeoutSeconds=1"), PB_META).await;
    assert_eq!(
        r.header("content-type"),
        Some("application/vnd.kubernetes.protobuf;stream=watch")
    );
    let events = protobuf_events(&r.body);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].0, "ADDED");
    assert_eq!(events[0].1.group_version_kind(), pom("v1"));
    assert_eq!(events[0].1.meta().unwrap().name(), "w");
    // Events are single objects: asked for as a list, they go as they are (Go's watch
    // encoder falls back to the object when the conversion fails).
    let r = get_as(
        &s,
        &format!("{CM}?watch=true&timeoutSeconds=1"),
        JSON_META_LIST,
    )
    .await;
    assert_eq!(r.events()[0]["object"]["kind"], "ConfigMap");
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_conversion_that_does_not_fit_is_gos_406() {
    let s = client::start().await;
    create(&s, CM, configmap("n")).await;
    let r = get_as(&s, &format!("{CM}/n"), JSON_META_LIST).await;
    assert_eq!(r.status, 406);
    let v = r.json();
    assert_eq!(v["reason"], "NotAcceptable");
    assert_eq!(v["code"], 406);
    assert_eq!(
        v["message"],
        "you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)"
    );
    let r = get_as(&s, CM, JSON_META).await;
    assert_eq!(r.status, 406);
    assert_eq!(
        r.json()["message"],
        "you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)"
    );
    // A missing object is a 404 first, as Go reads before it converts.
    assert_eq!(
        get_as(&s, &format!("{CM}/none"), JSON_META_LIST)
            .await
            .status,
        404
    );
    // An unknown version, or group, is not served: the next entry, or Go's 406.
    let unknown = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2";
    let r = get_as(&s, &format!("{CM}/n"), unknown).await;
    assert_eq!(r.status, 406);
    assert_eq!(r.json()["message"], GO_406);
    let r = get_as(
        &s,
        &format!("{CM}/n"),
        &format!("{unknown},application/json"),
    )
    .await;
    assert_eq!(r.json()["kind"], "ConfigMap");
    // A write whose answer cannot be converted writes nothing.
    let body = serde_json::to_vec(&configmap("never")).unwrap();
    let r = s
        .request(
            "POST",
            CM,
            &[
                ("Content-Type", "application/json"),
                ("Accept", JSON_META_LIST),
            ],
            &body,
        )
        .await;
    assert_eq!(r.status, 406);
    assert_eq!(s.get(&format!("{CM}/never")).await.status, 404);
    // One that can answers its metadata.
    let r = s
        .request(
            "POST",
            CM,
            &[("Content-Type", "application/json"), ("Accept", JSON_META)],
            &serde_json::to_vec(&configmap("made")).unwrap(),
        )
        .await;
    assert_eq!(r.status, 201);
    assert_eq!(r.json()["kind"], "PartialObjectMetadata");
    // Nor do deletes whose answer could not be given: a collection's list asked for
    // as one object, a Pod (answered with the removed Pod) asked for as a list.
    let r = s.request("DELETE", CM, &[("Accept", JSON_META)], b"").await;
    assert_eq!(r.status, 406);
    assert_eq!(
        r.json()["message"],
        "you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)"
    );
    assert_eq!(s.get(&format!("{CM}/made")).await.status, 200);
    let pods = "/api/v1/namespaces/default/pods";
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "c", "image": "nginx"}]}});
    create(&s, pods, pod).await;
    let r = s
        .request(
            "DELETE",
            &format!("{pods}/p"),
            &[("Accept", JSON_META_LIST)],
            b"",
        )
        .await;
    assert_eq!(r.status, 406);
    assert_eq!(
        r.json()["message"],
        "you requested PartialObjectMetadataList, but the requested object is not a list (*core.Pod)"
    );
    assert_eq!(s.get(&format!("{pods}/p")).await.status, 200);
    // A collection's metadata answers its list.
    let r = s
        .request("DELETE", CM, &[("Accept", JSON_META_LIST)], b"")
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["kind"], "PartialObjectMetadataList");
    s.server.shutdown().await;
}

fn widget_crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}}}}],
        },
    })
}

async fn serve_widgets(s: &TestServer) {
    create(s, CRDS, widget_crd()).await;
    for _ in 0..300 {
        if s.get(WIDGETS).await.status == 200 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("widgets never served");
}

#[tokio::test]
async fn custom_resources_answer_their_metadata_in_json_and_protobuf() {
    let s = client::start().await;
    serve_widgets(&s).await;
    let widget = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w1", "labels": {"tier": "gold"}}, "spec": {"size": 3}});
    let created = create(&s, WIDGETS, widget).await;

    let r = get_as(
        &s,
        &format!("{WIDGETS}/w1"),
        &format!("{JSON_META},application/json"),
    )
    .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let v = r.json();
    assert_eq!(v["kind"], "PartialObjectMetadata");
    assert_eq!(v["metadata"], created["metadata"]);
    assert!(v.get("spec").is_none());

    // Custom resources have no protobuf form, but their metadata has.
    assert_eq!(
        get_as(
            &s,
            &format!("{WIDGETS}/w1"),
            "application/vnd.kubernetes.protobuf"
        )
        .await
        .status,
        406
    );
    let r = get_as(&s, &format!("{WIDGETS}/w1"), PB_META).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let obj = decode_pb(&r.body);
    assert_eq!(obj.group_version_kind(), pom("v1"));
    assert_eq!(obj.meta().unwrap().labels().get("tier").unwrap(), "gold");

    let r = get_as(&s, WIDGETS, PB_META_LIST_BETA).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let list = decode_pb(&r.body);
    let list = list
        .downcast_ref::<v1beta1::PartialObjectMetadataList>()
        .unwrap();
    assert_eq!(list.items.as_ref().unwrap()[0].metadata.name, "w1");

    let r = get_as(&s, WIDGETS, JSON_META_LIST).await.json();
    assert_eq!(r["items"][0]["metadata"]["name"], "w1");
    assert!(r["items"][0].get("spec").is_none());
    let r = get_as(&s, WIDGETS, JSON_META).await;
    assert_eq!(r.status, 406);
    assert_eq!(
        r.json()["message"],
        "you requested PartialObjectMetadata, but the requested object is a list (*unstructured.UnstructuredList)"
    );

    let r = get_as(
        &s,
        &format!("{WIDGETS}?watch=true&timeoutSeconds=1"),
        PB_META,
    )
    .await;
    let events = protobuf_events(&r.body);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].1.group_version_kind(), pom("v1"));
    assert_eq!(events[0].1.meta().unwrap().name(), "w1");
    let r = get_as(
        &s,
        &format!("{WIDGETS}?watch=true&timeoutSeconds=1"),
        JSON_META,
    )
    .await;
    let events = r.events();
    assert_eq!(events[0]["object"]["kind"], "PartialObjectMetadata");
    assert!(events[0]["object"].get("spec").is_none());
    s.server.shutdown().await;
}
