//! Custom resources end to end, in process: a CRD made through the API is served
//! (discovery, aggregated discovery, OpenAPI v3, CRUD, watch), its status written as
//! Go's controllers write it, its objects stored as JSON at kube-apiserver's keys, name
//! conflicts refused, and deleting it deletes its objects and the resource.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::client;
use crate::support::https_webhook;

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use base64::prelude::BASE64_STANDARD;
use client::{TestServer, start};
use serde_json::{Value, json};

const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const WIDGETS: &str = "/apis/example.com/v1/namespaces/default/widgets";

fn widget_crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "shortNames": ["wd"], "categories": ["all"]},
            "versions": [
                {"name": "v1", "served": true, "storage": true,
                 "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                     "spec": {"type": "object", "properties": {
                         "size": {"type": "integer"}, "color": {"type": "string"}}},
                     "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}},
                 "subresources": {"status": {}}},
                {"name": "v1beta1", "served": true, "storage": false,
                 "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}},
            ],
        },
    })
}

/// Waits until the CRD `name` has condition `type_` True, as `kubectl wait
/// --for condition=established` does; the CRD as it then is.
async fn wait_for_condition(s: &TestServer, name: &str, type_: &str) -> Value {
    for _ in 0..200 {
        let crd = s.get(&format!("{CRDS}/{name}")).await.json();
        let done = crd["status"]["conditions"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|c| c["type"] == type_ && c["status"] == "True");
        if done {
            return crd;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{name} never got {type_}");
}

async fn wait_until_gone(s: &TestServer, path: &str) {
    for _ in 0..200 {
        if s.get(path).await.status == 404 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{path} is still there");
}

async fn create(s: &TestServer, path: &str, body: Value) -> Value {
    let r = s.send_json("POST", path, &body).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    r.json()
}

#[tokio::test]
async fn a_crd_is_served_stored_and_removed() {
    let s = start().await;
    assert_eq!(s.get(WIDGETS).await.status, 404);
    create(&s, CRDS, widget_crd()).await;
    let crd = wait_for_condition(&s, "widgets.example.com", "Established").await;
    let status = &crd["status"];
    assert_eq!(status["acceptedNames"]["kind"], "Widget");
    assert_eq!(status["acceptedNames"]["listKind"], "WidgetList");
    assert_eq!(status["storedVersions"], json!(["v1"]));
    let conditions: Vec<(&str, &str, &str)> = status["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["type"].as_str().unwrap(),
                c["status"].as_str().unwrap(),
                c["reason"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        conditions,
        [
            ("NamesAccepted", "True", "NoConflicts"),
            ("Established", "True", "InitialNamesAccepted")
        ]
    );
    // The controllers' status writes are recorded as Go's, through the REST storage.
    let status_entry = crd["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["subresource"] == "status")
        .unwrap();
    assert_eq!(
        (&status_entry["manager"], &status_entry["operation"]),
        (&json!("kube-apiserver"), &json!("Update"))
    );
    let owned = &status_entry["fieldsV1"]["f:status"];
    assert!(owned["f:acceptedNames"]["f:kind"].is_object(), "{owned}");
    assert!(
        owned["f:conditions"]["k:{\"type\":\"Established\"}"].is_object(),
        "{owned}"
    );

    // Discovery, legacy and aggregated.
    let list = s.get("/apis/example.com/v1").await.json();
    let names: Vec<&str> = list["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["widgets", "widgets/status"]);
    assert_eq!(list["resources"][0]["shortNames"], json!(["wd"]));
    let group = s.get("/apis/example.com").await.json();
    assert_eq!(group["preferredVersion"]["version"], "v1");
    assert_eq!(
        group["versions"],
        json!([{"groupVersion": "example.com/v1", "version": "v1"},
               {"groupVersion": "example.com/v1beta1", "version": "v1beta1"}])
    );
    let groups = s.get("/apis").await.json();
    assert!(
        groups["groups"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["name"] == "example.com")
    );
    let agg = s
        .request(
            "GET",
            "/apis",
            &[(
                "Accept",
                "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
            )],
            b"",
        )
        .await
        .json();
    let g = agg["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["metadata"]["name"] == "example.com")
        .expect("example.com in aggregated discovery");
    assert_eq!(g["versions"][0]["resources"][0]["resource"], "widgets");
    assert_eq!(
        g["versions"][0]["resources"][0]["subresources"][0]["subresource"],
        "status"
    );

    // OpenAPI v3: the index names the group version, whose document has the schema.
    let index = s.get("/openapi/v3").await.json();
    let url = index["paths"]["apis/example.com/v1"]["serverRelativeURL"]
        .as_str()
        .expect("apis/example.com/v1 in the OpenAPI index")
        .to_owned();
    let doc = s.get(&url).await.json();
    let schema = &doc["components"]["schemas"]["com.example.v1.Widget"];
    assert_eq!(
        schema["properties"]["spec"]["properties"]["size"]["type"],
        "integer"
    );
    assert_eq!(
        schema["x-kubernetes-group-version-kind"],
        json!([{"group": "example.com", "kind": "Widget", "version": "v1"}])
    );
    assert!(
        doc["components"]["schemas"]["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"].is_object()
    );

    // CRUD in both versions; stored as JSON at the storage version, at Go's key.
    let w = create(
        &s,
        WIDGETS,
        json!({"apiVersion": "example.com/v1", "kind": "Widget",
               "metadata": {"name": "w1"}, "spec": {"size": 3}}),
    )
    .await;
    assert_eq!(w["metadata"]["generation"], 1);
    assert_eq!(w["metadata"]["namespace"], "default");
    assert!(w["metadata"]["uid"].is_string());
    let kv = s
        .storage
        .get("/registry/example.com/widgets/default/w1")
        .await
        .unwrap()
        .expect("stored at kube-apiserver's key");
    let stored: Value = serde_json::from_slice(&kv.value).expect("stored as JSON");
    assert_eq!(stored["apiVersion"], "example.com/v1");
    assert_eq!(stored["spec"]["size"], 3);
    let beta = s
        .get("/apis/example.com/v1beta1/namespaces/default/widgets/w1")
        .await
        .json();
    assert_eq!(beta["apiVersion"], "example.com/v1beta1");
    assert_eq!(beta["spec"]["size"], 3);
    let list = s.get(WIDGETS).await.json();
    assert_eq!(list["kind"], "WidgetList");
    assert_eq!(list["apiVersion"], "example.com/v1");
    assert_eq!(list["items"][0]["kind"], "Widget");
    assert_eq!(list["items"][0]["metadata"]["name"], "w1");
    let r = s
        .patch(
            &format!("{WIDGETS}/w1"),
            "application/merge-patch+json",
            &json!({"spec": {"color": "blue"}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let patched = r.json();
    assert_eq!(patched["spec"], json!({"size": 3, "color": "blue"}));
    assert_eq!(patched["metadata"]["generation"], 2);
    // The status subresource: /status changes only status; the main resource keeps it.
    let mut with_status = patched.clone();
    with_status["status"] = json!({"ready": true});
    with_status["spec"]["size"] = json!(99);
    let r = s
        .send_json("PUT", &format!("{WIDGETS}/w1/status"), &with_status)
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let after = r.json();
    assert_eq!(after["status"], json!({"ready": true}));
    assert_eq!(after["spec"]["size"], 3);
    // A status change is no new generation; a change outside metadata through the
    // main resource is, as Go's custom resource strategy counts them.
    assert_eq!(after["metadata"]["generation"], 2);
    let r = s
        .patch(
            &format!("{WIDGETS}/w1"),
            "application/merge-patch+json",
            &json!({"metadata": {"labels": {"a": "b"}}}),
        )
        .await;
    assert_eq!(r.json()["metadata"]["generation"], 2);
    // Protobuf is not offered for custom resources: JSON is answered instead.
    let r = s
        .request(
            "GET",
            &format!("{WIDGETS}/w1"),
            &[(
                "Accept",
                "application/vnd.kubernetes.protobuf, application/json",
            )],
            b"",
        )
        .await;
    assert_eq!(r.header("content-type"), Some("application/json"));
    let r = s
        .request(
            "GET",
            &format!("{WIDGETS}/w1"),
            &[("Accept", "application/vnd.kubernetes.protobuf")],
            b"",
        )
        .await;
    assert_eq!(r.status, 406);

    // Deleting the CRD deletes its objects, then the CRD, then the resource.
    let r = s.delete(&format!("{CRDS}/widgets.example.com")).await;
    assert!(
        matches!(r.status, 200 | 202),
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    wait_until_gone(&s, &format!("{CRDS}/widgets.example.com")).await;
    assert!(
        s.storage
            .get("/registry/example.com/widgets/default/w1")
            .await
            .unwrap()
            .is_none()
    );
    wait_until_gone(&s, WIDGETS).await;
    assert_eq!(s.get("/apis/example.com/v1").await.status, 404);
    let index = s.get("/openapi/v3").await.json();
    assert!(index["paths"].get("apis/example.com/v1").is_none());
}

#[tokio::test]
async fn name_conflicts_are_refused_as_go_refuses_them() {
    let s = start().await;
    create(&s, CRDS, widget_crd()).await;
    wait_for_condition(&s, "widgets.example.com", "Established").await;
    // Another CRD of the group asking for the kind Widget.
    let mut other = widget_crd();
    other["metadata"]["name"] = json!("gizmos.example.com");
    other["spec"]["names"] = json!({"plural": "gizmos", "kind": "Widget"});
    create(&s, CRDS, other).await;
    // A CRD taking a built-in resource's name: refused by validation before any naming,
    // as Go refuses it (a CRD's group needs a dot; `*.k8s.io` groups an API approval).
    let builtin = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "deployments.apps"},
        "spec": {"group": "apps", "scope": "Namespaced",
                 "names": {"plural": "deployments", "kind": "MyDeployment"},
                 "versions": [{"name": "v9", "served": true, "storage": true,
                               "schema": {"openAPIV3Schema": {"type": "object"}}}]},
    });
    let r = s.send_json("POST", CRDS, &builtin).await;
    assert_eq!(r.status, 422, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        r.json()["details"]["causes"][0]["message"],
        "Invalid value: \"apps\": should be a domain with at least one dot"
    );
    // Go checks the list kind last: its conflict is the one reported.
    let name = "gizmos.example.com";
    let mut found = None;
    for _ in 0..200 {
        let crd = s.get(&format!("{CRDS}/{name}")).await.json();
        if let Some(c) = crd["status"]["conditions"]
            .as_array()
            .and_then(|c| c.iter().find(|c| c["type"] == "NamesAccepted"))
        {
            found = Some((crd.clone(), c.clone()));
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (crd, names) = found.expect("NamesAccepted set");
    assert_eq!(names["status"], "False");
    assert_eq!(names["reason"], "ListKindConflict");
    assert_eq!(names["message"], "\"WidgetList\" is already in use");
    let established = crd["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "Established")
        .unwrap()
        .clone();
    assert_eq!(established["status"], "False");
    assert_eq!(established["reason"], "NotAccepted");
    assert_eq!(
        s.get("/apis/example.com/v1/namespaces/default/gizmos")
            .await
            .status,
        404
    );
    assert_eq!(s.get("/apis/apps/v9").await.status, 404);
    // The built-in resource is untouched.
    assert_eq!(
        s.get("/apis/apps/v1/namespaces/default/deployments")
            .await
            .status,
        200
    );
}

#[tokio::test]
async fn two_servers_on_one_storage_serve_the_same_custom_resources() {
    let a = start().await;
    let b = client::start_with(a.storage.clone()).await;
    create(&a, CRDS, widget_crd()).await;
    wait_for_condition(&a, "widgets.example.com", "Established").await;
    for _ in 0..200 {
        if b.get(WIDGETS).await.status == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    create(
        &b,
        WIDGETS,
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}),
    )
    .await;
    assert_eq!(
        a.get(&format!("{WIDGETS}/w")).await.json()["metadata"]["name"],
        "w"
    );
}

#[tokio::test]
async fn custom_resources_are_watched() {
    let s = start().await;
    create(&s, CRDS, widget_crd()).await;
    wait_for_condition(&s, "widgets.example.com", "Established").await;
    let w = create(
        &s,
        WIDGETS,
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}),
    )
    .await;
    let rv: i64 = w["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    s.delete(&format!("{WIDGETS}/w")).await;
    let r = s
        .get(&format!(
            "{WIDGETS}?watch=true&resourceVersion={}&timeoutSeconds=1",
            rv - 1
        ))
        .await;
    let events = r.events();
    let kinds: Vec<(&str, &str)> = events
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap(),
                e["object"]["kind"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(kinds, [("ADDED", "Widget"), ("DELETED", "Widget")]);
}

fn gadget_crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "gadgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "gadgets", "kind": "Gadget"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "required": ["size"], "properties": {
                        "size": {"type": "integer", "minimum": 1, "maximum": 10},
                        "color": {"type": "string", "enum": ["red", "blue"], "default": "red"},
                        "name": {"type": "string", "maxLength": 5},
                        "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
                        "rule": {"type": "string", "x-kubernetes-validations": [{"rule": "self != 'x'"}]},
                    }}}}}}],
        },
    })
}

#[tokio::test]
async fn a_non_structural_schema_is_refused_with_go_messages() {
    let s = start().await;
    let mut crd = gadget_crd();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"] =
        json!({"properties": {"spec": {"properties": {"x": {"type": "string"}}}}});
    let r = s.send_json("POST", CRDS, &crd).await;
    assert_eq!(r.status, 422, "{}", String::from_utf8_lossy(&r.body));
    let status = r.json();
    assert_eq!(status["reason"], "Invalid");
    let p = "spec.versions[0].schema.openAPIV3Schema";
    assert_eq!(
        status["message"],
        format!(
            "CustomResourceDefinition.apiextensions.k8s.io \"gadgets.example.com\" is invalid: [{p}.properties[spec].type: Required value: must not be empty for specified object fields, {p}.type: Required value: must not be empty at the root]"
        )
    );
    assert_eq!(status["details"]["causes"].as_array().unwrap().len(), 2);
    // Nothing stored.
    assert_eq!(
        s.get(&format!("{CRDS}/gadgets.example.com")).await.status,
        404
    );
}

#[tokio::test]
async fn custom_resources_are_pruned_defaulted_and_validated() {
    let s = start().await;
    create(&s, CRDS, gadget_crd()).await;
    wait_for_condition(&s, "gadgets.example.com", "Established").await;
    let gadgets = "/apis/example.com/v1/namespaces/default/gadgets";
    // Every cause at once, in Go's words.
    let r = s
        .send_json(
            "POST",
            gadgets,
            &json!({"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": {"name": "bad"},
                    "spec": {"size": 11, "color": "pink", "name": "toolong", "tags": ["a", "a"]}}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", String::from_utf8_lossy(&r.body));
    let status = r.json();
    let causes: Vec<(String, String, String)> = status["details"]["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["reason"].as_str().unwrap().to_owned(),
                c["field"].as_str().unwrap().to_owned(),
                c["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let want: Vec<(String, String, String)> = [
        (
            "FieldValueNotSupported",
            "spec.color",
            "Unsupported value: \"pink\": supported values: \"red\", \"blue\"",
        ),
        (
            "FieldValueTooLong",
            "spec.name",
            "Too long: may not be more than 5 bytes",
        ),
        (
            "FieldValueInvalid",
            "spec.size",
            "Invalid value: 11: spec.size in body should be less than or equal to 10",
        ),
        (
            "FieldValueDuplicate",
            "spec.tags[1]",
            "Duplicate value: \"a\"",
        ),
    ]
    .iter()
    .map(|(a, b, c)| ((*a).to_owned(), (*b).to_owned(), (*c).to_owned()))
    .collect();
    assert_eq!(causes, want);
    assert!(
        status["message"]
            .as_str()
            .unwrap()
            .starts_with("Gadget.example.com \"bad\" is invalid: [spec.color: Unsupported value")
    );
    assert_eq!(s.get(&format!("{gadgets}/bad")).await.status, 404);
    let r = s
        .send_json(
            "POST",
            gadgets,
            &json!({"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": {"name": "req"}, "spec": {}}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(
        r.json()["details"]["causes"][0]["message"],
        "Required value"
    );

    // Unknown fields: pruned with a warning by default, refused under Strict.
    let body = json!({"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": {"name": "g"},
                      "spec": {"size": 2, "shape": "round"}, "extra": 1});
    let r = s
        .send_json("POST", &format!("{gadgets}?fieldValidation=Strict"), &body)
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["message"],
        "Gadget in version \"v1\" cannot be handled as a Gadget: strict decoding error: unknown field \"extra\", unknown field \"spec.shape\""
    );
    // Duplicate fields: the decoder's finding, under Strict.
    let r = s
        .request(
            "POST",
            &format!("{gadgets}?fieldValidation=Strict"),
            &[("Content-Type", "application/json")],
            br#"{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"d"},"spec":{"size":2,"size":3}}"#,
        )
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["message"],
        "Gadget in version \"v1\" cannot be handled as a Gadget: strict decoding error: duplicate field \"spec.size\""
    );
    let r = s.send_json("POST", gadgets, &body).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let warnings = r.headers_named("warning");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("unknown field \\\"spec.shape\\\"")
                || w.contains("unknown field \"spec.shape\"")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("x-kubernetes-validations")),
        "{warnings:?}"
    );
    let g = r.json();
    assert!(g.get("extra").is_none());
    assert!(g["spec"].get("shape").is_none());
    // Defaulted on write.
    assert_eq!(g["spec"]["color"], "red");
    let stored: Value = serde_json::from_slice(
        &s.storage
            .get("/registry/example.com/gadgets/default/g")
            .await
            .unwrap()
            .unwrap()
            .value,
    )
    .unwrap();
    assert_eq!(stored["spec"]["color"], "red");

    // Defaulted on read: an object stored without the default gets it when read.
    let mut raw = stored.clone();
    raw["metadata"]["name"] = json!("old");
    raw["metadata"]["uid"] = json!("u-old");
    raw["spec"] = json!({"size": 3});
    s.storage
        .create(
            "/registry/example.com/gadgets/default/old",
            serde_json::to_vec(&raw).unwrap().into(),
        )
        .await
        .unwrap();
    let old = s.get(&format!("{gadgets}/old")).await.json();
    assert_eq!(old["spec"], json!({"size": 3, "color": "red"}));
    // And as it is watched.
    let rv: i64 = old["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let events = s
        .get(&format!(
            "{gadgets}?watch=true&resourceVersion={}&timeoutSeconds=1",
            rv - 1
        ))
        .await
        .events();
    assert_eq!(
        events[0]["object"]["spec"],
        json!({"size": 3, "color": "red"})
    );
}

fn replicated_crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "pools.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "pools", "kind": "Pool"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": {
                        "count": {"type": "integer"}, "flavor": {"type": "string"}}},
                    "status": {"type": "object", "properties": {
                        "ready": {"type": "integer"}, "selector": {"type": "string"}}}}}},
                "subresources": {"status": {}, "scale": {
                    "specReplicasPath": ".spec.count",
                    "statusReplicasPath": ".status.ready",
                    "labelSelectorPath": ".status.selector"}},
                "additionalPrinterColumns": [
                    {"name": "Count", "type": "integer", "jsonPath": ".spec.count"},
                    {"name": "Flavor", "type": "string", "jsonPath": ".spec.flavor", "priority": 1},
                    {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"},
                ]}],
        },
    })
}

#[tokio::test]
async fn printer_columns_and_scale_follow_the_crd() {
    let s = start().await;
    create(&s, CRDS, replicated_crd()).await;
    wait_for_condition(&s, "pools.example.com", "Established").await;
    let pools = "/apis/example.com/v1/namespaces/default/pools";
    create(
        &s,
        pools,
        json!({"apiVersion": "example.com/v1", "kind": "Pool", "metadata": {"name": "p"},
               "spec": {"count": 2, "flavor": "large"}}),
    )
    .await;
    let table_accept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
    let r = s
        .request("GET", pools, &[("Accept", table_accept)], b"")
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    let table = r.json();
    assert_eq!(table["kind"], "Table");
    let names: Vec<&str> = table["columnDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Name", "Count", "Flavor", "Age"]);
    assert_eq!(table["columnDefinitions"][2]["priority"], 1);
    let cells = &table["rows"][0]["cells"];
    assert_eq!(
        (&cells[0], &cells[1], &cells[2]),
        (&json!("p"), &json!(2), &json!("large"))
    );
    assert!(cells[3].as_str().unwrap().ends_with('s'), "{cells}");
    assert_eq!(table["rows"][0]["object"]["kind"], "PartialObjectMetadata");
    assert!(table["metadata"]["resourceVersion"].is_string());
    let one = s
        .request(
            "GET",
            &format!("{pools}/p"),
            &[("Accept", table_accept)],
            b"",
        )
        .await
        .json();
    assert_eq!(one["rows"].as_array().unwrap().len(), 1);

    // /scale reads and writes the CRD's paths.
    let mut status = s.get(&format!("{pools}/p")).await.json();
    status["status"] = json!({"ready": 1, "selector": "app=p"});
    let r = s
        .send_json("PUT", &format!("{pools}/p/status"), &status)
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let scale = s.get(&format!("{pools}/p/scale")).await.json();
    assert_eq!(scale["kind"], "Scale");
    assert_eq!(scale["apiVersion"], "autoscaling/v1");
    assert_eq!(scale["spec"]["replicas"], 2);
    assert_eq!(scale["status"], json!({"replicas": 1, "selector": "app=p"}));
    let r = s
        .patch(
            &format!("{pools}/p/scale"),
            "application/merge-patch+json",
            &json!({"spec": {"replicas": 5}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["spec"]["replicas"], 5);
    assert_eq!(
        s.get(&format!("{pools}/p")).await.json()["spec"]["count"],
        5
    );
    let discovery = s.get("/apis/example.com/v1").await.json();
    let names: Vec<&str> = discovery["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["pools", "pools/scale", "pools/status"]);
}

/// A conversion webhook on a loopback port, over HTTPS as Go requires: `v1` `spec.size`
/// is `v2` `spec.length`. `mode` makes it misbehave: `fewer` drops an object, `rename`
/// changes a name. Its URL and its certificate's PEM.
async fn conversion_webhook(mode: &'static str) -> (String, String) {
    https_webhook::serve(
        "/convert",
        Arc::new(move |review: Value| {
            let request = &review["request"];
            let desired = request["desiredAPIVersion"].as_str().unwrap().to_owned();
            let mut converted: Vec<Value> = request["objects"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| {
                    let mut o = o.clone();
                    let spec = o["spec"].as_object_mut().unwrap();
                    if desired.ends_with("/v2") {
                        if let Some(v) = spec.remove("size") {
                            spec.insert("length".into(), v);
                        }
                    } else if let Some(v) = spec.remove("length") {
                        spec.insert("size".into(), v);
                    }
                    o["apiVersion"] = json!(desired);
                    o
                })
                .collect();
            match mode {
                "fewer" => {
                    converted.pop();
                }
                "rename" => converted[0]["metadata"]["name"] = json!("renamed"),
                _ => {}
            }
            json!({
                "apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
                "response": {"uid": request["uid"], "result": {"status": "Success"}, "convertedObjects": converted},
            })
        }),
    )
    .await
}

/// A CRD whose `v1` and `v2` the webhook at `url` converts, trusting `ca` (PEM).
fn converted_crd((url, ca): &(String, String)) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "rulers.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "rulers", "kind": "Ruler"},
            "conversion": {"strategy": "Webhook", "webhook": {
                "conversionReviewVersions": ["v1"],
                "clientConfig": {"url": url, "caBundle": BASE64_STANDARD.encode(ca)}}},
            "versions": [
                {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                    "type": "object", "properties": {"spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}}}},
                {"name": "v2", "served": true, "storage": false, "schema": {"openAPIV3Schema": {
                    "type": "object", "properties": {"spec": {"type": "object", "properties": {"length": {"type": "integer"}}}}}}},
            ],
        },
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conversion_webhooks_convert_between_versions() {
    let s = start().await;
    create(&s, CRDS, converted_crd(&conversion_webhook("good").await)).await;
    wait_for_condition(&s, "rulers.example.com", "Established").await;
    let v1 = "/apis/example.com/v1/namespaces/default/rulers";
    let v2 = "/apis/example.com/v2/namespaces/default/rulers";
    // Written in v2, stored in v1 (the webhook renamed the field), read in both.
    let created = create(
        &s,
        v2,
        json!({"apiVersion": "example.com/v2", "kind": "Ruler", "metadata": {"name": "r"}, "spec": {"length": 7}}),
    )
    .await;
    assert_eq!(created["apiVersion"], "example.com/v2");
    assert_eq!(created["spec"], json!({"length": 7}));
    let stored: Value = serde_json::from_slice(
        &s.storage
            .get("/registry/example.com/rulers/default/r")
            .await
            .unwrap()
            .unwrap()
            .value,
    )
    .unwrap();
    assert_eq!(
        (&stored["apiVersion"], &stored["spec"]),
        (&json!("example.com/v1"), &json!({"size": 7}))
    );
    assert_eq!(
        s.get(&format!("{v1}/r")).await.json()["spec"],
        json!({"size": 7})
    );
    let list = s.get(v2).await.json();
    assert_eq!(list["items"][0]["spec"], json!({"length": 7}));
    assert_eq!(list["items"][0]["apiVersion"], "example.com/v2");
    // What the server cannot convert without awaiting the webhook, it refuses.
    let r = s.get(&format!("{v2}?watch=true&timeoutSeconds=1")).await;
    assert_eq!(r.status, 405);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_misbehaving_conversion_webhook_fails_the_request_and_stores_nothing() {
    for (mode, message) in [
        (
            "fewer",
            "conversion webhook for example.com/v1, Kind=Ruler returned 0 objects, expected 1",
        ),
        (
            "rename",
            "conversion webhook for example.com/v1, Kind=Ruler returned invalid converted object at index 0: must have the same name: r != renamed",
        ),
    ] {
        let s = start().await;
        create(&s, CRDS, converted_crd(&conversion_webhook(mode).await)).await;
        wait_for_condition(&s, "rulers.example.com", "Established").await;
        let r = s
            .send_json(
                "POST",
                "/apis/example.com/v2/namespaces/default/rulers",
                &json!({"apiVersion": "example.com/v2", "kind": "Ruler", "metadata": {"name": "r"}, "spec": {"length": 7}}),
            )
            .await;
        assert_eq!(r.status, 500, "{mode}");
        assert_eq!(
            r.json()["message"],
            format!("Internal error occurred: {message}"),
            "{mode}"
        );
        assert!(
            s.storage
                .get("/registry/example.com/rulers/default/r")
                .await
                .unwrap()
                .is_none(),
            "{mode}: nothing stored"
        );
    }
}

#[tokio::test]
async fn a_patch_making_a_crd_non_structural_is_refused() {
    let s = start().await;
    create(&s, CRDS, gadget_crd()).await;
    let r = s
        .patch(
            &format!("{CRDS}/gadgets.example.com"),
            "application/json-patch+json",
            &json!([{"op": "remove", "path": "/spec/versions/0/schema/openAPIV3Schema/type"}]),
        )
        .await;
    assert_eq!(r.status, 422, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        r.json()["details"]["causes"][0]["message"],
        "Required value: must not be empty at the root"
    );
    let crd = s.get(&format!("{CRDS}/gadgets.example.com")).await.json();
    assert_eq!(
        crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["type"],
        "object"
    );
}

/// A CRD with set-typed lists of objects or lists: 1.37 warns of them on create, and on
/// an update only of what the stored definition did not have.
#[cfg(feature = "v1_37")]
#[tokio::test]
async fn set_lists_of_objects_are_warned_of() {
    let s = start().await;
    let set_of =
        |items: Value| json!({"type": "array", "x-kubernetes-list-type": "set", "items": items});
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "gadgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "gadgets", "kind": "Gadget"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": {
                        "ports": set_of(json!({"type": "object", "x-kubernetes-map-type": "atomic",
                            "properties": {"port": {"type": "integer"}}})),
                        "names": set_of(json!({"type": "string"}))}}}}}}],
        },
    });
    let r = s.send_json("POST", CRDS, &crd).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        r.headers_named("warning"),
        [
            "299 - \"x-kubernetes-list-type: set for items of type \\\"object\\\" is not supported by server-side apply or CEL validation rules\""
        ]
    );
    let patch = json!([{"op": "add",
        "path": "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/pairs",
        "value": set_of(json!({"type": "array", "items": {"type": "string"}}))}]);
    let r = s
        .patch(
            &format!("{CRDS}/gadgets.example.com"),
            "application/json-patch+json",
            &patch,
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        r.headers_named("warning"),
        [
            "299 - \"x-kubernetes-list-type: set for items of type \\\"array\\\" is not supported by server-side apply or CEL validation rules\""
        ]
    );
}

/// A CRD's subresources are per version: a version declaring none answers its
/// objects' `/status` and `/scale` as missing objects (Go's crdHandler), lists neither
/// in discovery, and lets a create set the status.
#[tokio::test]
async fn subresources_are_served_only_by_the_versions_declaring_them() {
    let s = start().await;
    let schema = json!({"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}});
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "tools.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "tools", "kind": "Tool"},
            "versions": [
                {"name": "v1", "served": true, "storage": true, "schema": schema,
                 "subresources": {"status": {}, "scale": {
                     "specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}}},
                {"name": "v2", "served": true, "storage": false, "schema": schema},
            ],
        },
    });
    create(&s, CRDS, crd).await;
    wait_for_condition(&s, "tools.example.com", "Established").await;
    let tools = |v: &str| format!("/apis/example.com/{v}/namespaces/default/tools");
    // A create at a version serving /status cannot set it; at one without, it can.
    let made = create(
        &s,
        &tools("v1"),
        json!({"apiVersion": "example.com/v1", "kind": "Tool", "metadata": {"name": "t"},
               "spec": {"replicas": 1}, "status": {"replicas": 1}}),
    )
    .await;
    assert!(made.get("status").is_none(), "{made}");
    let made = create(
        &s,
        &tools("v2"),
        json!({"apiVersion": "example.com/v2", "kind": "Tool", "metadata": {"name": "u"},
               "spec": {"replicas": 1}, "status": {"replicas": 1}}),
    )
    .await;
    assert_eq!(made["status"], json!({"replicas": 1}));
    // Nor does a write of the object at v2 keep the stored status; one at v1 does.
    for (v, sent, kept) in [("v2", 7, 7), ("v1", 9, 7)] {
        let r = s
            .patch(
                &format!("{}/u", tools(v)),
                "application/merge-patch+json",
                &json!({"status": {"replicas": sent}}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        assert_eq!(r.json()["status"]["replicas"], kept, "{v}");
    }
    for sub in ["status", "scale"] {
        assert_eq!(s.get(&format!("{}/t/{sub}", tools("v1"))).await.status, 200);
        let r = s.get(&format!("{}/t/{sub}", tools("v2"))).await;
        assert_eq!(r.status, 404, "{sub}");
        let status = r.json();
        assert_eq!(status["reason"], "NotFound");
        assert_eq!(status["message"], "tools.example.com \"t\" not found");
    }
    let names = |v: &str| {
        let s = &s;
        let v = v.to_owned();
        async move {
            let d = s.get(&format!("/apis/example.com/{v}")).await.json();
            d["resources"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["name"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(names("v1").await, ["tools", "tools/scale", "tools/status"]);
    assert_eq!(names("v2").await, ["tools"]);
}
