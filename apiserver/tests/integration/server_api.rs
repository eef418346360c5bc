//! The server end to end, in process: discovery, CRUD in every version with storage at
//! kube-apiserver's keys and storage versions, selectors and paging, watch, patches,
//! subresources, deletion, content negotiation and bad input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::client;

use std::sync::Arc;

use apimachinery::serializer::PROTOBUF_MAGIC;
use client::{TestServer, start};
use serde_json::{Value, json};

fn configmap(name: &str, labels: Value) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name, "labels": labels},
        "data": {"k": "v"},
    })
}

fn deployment(name: &str, replicas: i64) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "c", "image": "nginx"}]},
            },
        },
    })
}

const CM: &str = "/api/v1/namespaces/default/configmaps";
const DEPLOY: &str = "/apis/apps/v1/namespaces/default/deployments";

async fn create(s: &TestServer, path: &str, body: Value) -> Value {
    let r = s.send_json("POST", path, &body).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    r.json()
}

#[tokio::test]
async fn discovery_and_health() {
    let s = start().await;
    for p in ["/healthz", "/livez", "/readyz"] {
        let r = s.get(p).await;
        assert_eq!(
            (r.status, r.body.as_slice()),
            (200, b"ok".as_slice()),
            "{p}"
        );
    }
    let v = s.get("/version").await.json();
    assert_eq!(
        format!(
            "{}.{}",
            v["major"].as_str().unwrap(),
            v["minor"].as_str().unwrap()
        ),
        apiserver::RELEASE
    );
    assert_eq!(s.get("/api").await.json()["versions"], json!(["v1"]));
    let groups = s.get("/apis").await.json();
    let names: Vec<&str> = groups["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"apps") && names.contains(&"autoscaling"),
        "{names:?}"
    );
    let autoscaling = groups["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "autoscaling")
        .unwrap();
    assert_eq!(
        autoscaling["preferredVersion"]["groupVersion"],
        "autoscaling/v2"
    );

    let core = s.get("/api/v1").await.json();
    let pods = core["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "pods")
        .unwrap();
    assert_eq!(pods["shortNames"], json!(["po"]));
    assert_eq!(pods["namespaced"], json!(true));
    assert_eq!(pods["categories"], json!(["all"]));
    assert!(
        core["resources"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["name"] == "pods/status")
    );
    assert!(
        !core["resources"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["name"] == "configmaps/status")
    );
    let authz = s.get("/apis/authorization.k8s.io/v1").await.json();
    let authz_names: Vec<&str> = authz["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert!(authz_names.contains(&"selfsubjectaccessreviews"));
    assert!(
        !authz_names.contains(&"selfsubjectaccessreviews/status"),
        "{authz_names:?}"
    );

    let apps = s.get("/apis/apps/v1").await.json();
    let scale = apps["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "deployments/scale")
        .unwrap();
    assert_eq!(
        (scale["group"].as_str(), scale["kind"].as_str()),
        (Some("autoscaling"), Some("Scale"))
    );
    let deploy = apps["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "deployments")
        .unwrap();
    assert_eq!(
        deploy["verbs"],
        json!([
            "create",
            "delete",
            "deletecollection",
            "get",
            "list",
            "patch",
            "update",
            "watch"
        ])
    );
    assert_eq!(s.get("/apis/apps").await.json()["kind"], "APIGroup");
    assert_eq!(s.get("/apis/nosuch.group/v1").await.status, 404);

    // Aggregated discovery, by Accept, with the exact Content-Type client-go checks.
    let accept =
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json";
    let r = s.request("GET", "/apis", &[("Accept", accept)], b"").await;
    assert_eq!(
        r.header("content-type"),
        Some("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
    );
    let agg = r.json();
    assert_eq!(agg["kind"], "APIGroupDiscoveryList");
    let apps = agg["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["metadata"]["name"] == "apps")
        .unwrap();
    let d = apps["versions"][0]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["resource"] == "deployments")
        .unwrap();
    assert_eq!(d["scope"], "Namespaced");
    assert_eq!(d["subresources"][0]["subresource"], "scale");
    // OpenAPI: the v3 index lists the served group versions only.
    let index = s.get("/openapi/v3").await.json();
    let apps_url = index["paths"]["apis/apps/v1"]["serverRelativeURL"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(index["paths"].get("apis/apps/v1beta1").is_none());
    let doc = s.get(&apps_url).await.json();
    assert!(doc["components"]["schemas"]["io.k8s.api.apps.v1.Deployment"].is_object());
    assert_eq!(s.get("/openapi/v3/apis/nosuch/v1").await.status, 404);
    let r = s.request("GET", "/api", &[("Accept", accept)], b"").await;
    // The core group's has no name, as Go's.
    assert_eq!(r.json()["items"][0]["metadata"], json!({}));
    // Beta and alpha versions are off by default, as kube-apiserver's: in no
    // document, and 404 for their resources.
    assert_eq!(s.get("/apis/storage.k8s.io/v1beta1").await.status, 404);
    assert_eq!(
        s.get("/apis/resource.k8s.io/v1beta2/deviceclasses")
            .await
            .status,
        404
    );
    assert!(index["paths"].get("apis/storage.k8s.io/v1beta1").is_none());
    assert!(index["paths"].get("apis/storage.k8s.io/v1").is_some());
    let versions = s.get("/apis/resource.k8s.io").await.json()["versions"].clone();
    assert_eq!(
        versions,
        json!([{"groupVersion": "resource.k8s.io/v1", "version": "v1"}])
    );
    s.server.shutdown().await;
}

#[tokio::test]
async fn crud_with_server_set_metadata_and_go_errors() {
    let s = start().await;
    // The default namespaces exist.
    for ns in ["default", "kube-system", "kube-public", "kube-node-lease"] {
        let r = s.get(&format!("/api/v1/namespaces/{ns}")).await;
        assert_eq!(r.json()["status"]["phase"], "Active", "{ns}");
    }
    let created = create(&s, CM, configmap("one", json!({"app": "a"}))).await;
    let meta = &created["metadata"];
    assert_eq!(meta["namespace"], "default");
    assert_eq!(meta["uid"].as_str().unwrap().len(), 36);
    assert!(meta["creationTimestamp"].as_str().unwrap().ends_with('Z'));
    let rv = meta["resourceVersion"].as_str().unwrap().to_owned();
    assert!(rv.parse::<i64>().unwrap() > 0);
    // Stored under kube-apiserver's key, in the protobuf envelope, without resourceVersion.
    let kv = s
        .storage
        .get("/registry/configmaps/default/one")
        .await
        .unwrap()
        .unwrap();
    assert!(kv.value.starts_with(PROTOBUF_MAGIC.as_slice()));
    assert_eq!(kv.mod_revision.to_string(), rv);

    let got = s.get(&format!("{CM}/one")).await.json();
    assert_eq!(got["data"], json!({"k": "v"}));
    let dup = s.send_json("POST", CM, &configmap("one", json!({}))).await;
    assert_eq!(dup.status, 409);
    assert_eq!(dup.json()["reason"], "AlreadyExists");
    assert_eq!(dup.json()["message"], "configmaps \"one\" already exists");

    // generateName.
    let mut generated = configmap("", json!({}));
    generated["metadata"] = json!({"generateName": "gen-"});
    let g = create(&s, CM, generated).await;
    let name = g["metadata"]["name"].as_str().unwrap();
    assert!(name.starts_with("gen-") && name.len() == 9, "{name}");

    // Update with the current resourceVersion, then with the stale one: Go's conflict.
    let mut update = got.clone();
    update["data"] = json!({"k": "w"});
    let r = s.send_json("PUT", &format!("{CM}/one"), &update).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_ne!(r.json()["metadata"]["resourceVersion"], json!(rv));
    let stale = s.send_json("PUT", &format!("{CM}/one"), &update).await;
    assert_eq!(stale.status, 409);
    assert_eq!(
        stale.json()["message"],
        "Operation cannot be fulfilled on configmaps \"one\": the object has been modified; please apply your changes to the latest version and try again"
    );
    assert_eq!(stale.json()["details"]["kind"], "configmaps");

    // A namespace must exist; cluster-scoped resources have no namespace.
    let r = s
        .send_json(
            "POST",
            "/api/v1/namespaces/nope/configmaps",
            &configmap("x", json!({})),
        )
        .await;
    assert_eq!(
        (r.status, r.json()["message"].clone()),
        (404, json!("namespaces \"nope\" not found"))
    );
    let ns = create(
        &s,
        "/api/v1/namespaces",
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team"}}),
    )
    .await;
    assert_eq!(ns["metadata"]["namespace"], json!(null));
    create(
        &s,
        "/api/v1/namespaces/team/configmaps",
        configmap("x", json!({})),
    )
    .await;
    let role = create(&s, "/apis/rbac.authorization.k8s.io/v1/clusterroles", json!({
        "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "reader"},
        "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]})).await;
    assert_eq!(role["rules"][0]["verbs"], json!(["get"]));
    assert!(
        s.storage
            .get("/registry/clusterroles/reader")
            .await
            .unwrap()
            .is_some()
    );

    // Deleting a namespace marks it Terminating, as kube-apiserver does; its content
    // stays until the namespace controller deletes it and removes the `kubernetes`
    // finalizer through /finalize, which then deletes the namespace.
    let r = s.delete("/api/v1/namespaces/team").await;
    assert_eq!(r.status, 200);
    let ns = r.json();
    assert_eq!(ns["status"]["phase"], "Terminating", "{ns}");
    assert!(ns["metadata"]["deletionTimestamp"].is_string(), "{ns}");
    assert_eq!(ns["spec"]["finalizers"], json!(["kubernetes"]));
    assert_eq!(
        s.get("/api/v1/namespaces/team/configmaps/x").await.status,
        200
    );
    // Deleting again changes nothing while the finalizer is there.
    let again = s.delete("/api/v1/namespaces/team").await;
    assert_eq!(again.status, 200);
    assert_eq!(
        again.json()["metadata"]["resourceVersion"],
        ns["metadata"]["resourceVersion"]
    );
    // A write of the namespace keeps spec.finalizers; /finalize changes them.
    let mut cleared = ns.clone();
    cleared["spec"]["finalizers"] = json!([]);
    let kept = s
        .send_json("PUT", "/api/v1/namespaces/team", &cleared)
        .await;
    assert_eq!(kept.status, 200);
    assert_eq!(kept.json()["spec"]["finalizers"], json!(["kubernetes"]));
    let mut bad = kept.json();
    bad["spec"]["finalizers"] = json!(["nodomain"]);
    let refused = s
        .send_json("PUT", "/api/v1/namespaces/team/finalize", &bad)
        .await;
    assert_eq!(refused.status, 422, "{}", refused.json());
    assert_eq!(
        refused.json()["details"]["causes"][0]["field"],
        "spec.finalizers[0]"
    );
    let mut finalized = kept.json();
    finalized["spec"]["finalizers"] = json!([]);
    let r = s
        .send_json("PUT", "/api/v1/namespaces/team/finalize", &finalized)
        .await;
    assert_eq!(r.status, 200, "{}", r.json());
    assert_eq!(s.get("/api/v1/namespaces/team").await.status, 404);
    assert_eq!(
        s.get("/api/v1/namespaces/default/finalize").await.status,
        405
    );

    // Reviews are answered, not stored: no authorization here, everything is allowed.
    let before = s.storage.current_revision().await.unwrap();
    let review = create(
        &s,
        "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
        json!({
        "apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
        "spec": {"resourceAttributes": {"verb": "delete", "resource": "pods"}}}),
    )
    .await;
    assert_eq!(review["status"]["allowed"], true);
    assert_eq!(review["spec"]["resourceAttributes"]["verb"], "delete");
    assert_eq!(s.storage.current_revision().await.unwrap(), before);
    assert_eq!(
        s.get("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews")
            .await
            .status,
        405
    );
    let who = create(
        &s,
        "/apis/authentication.k8s.io/v1/selfsubjectreviews",
        json!({
        "apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"}),
    )
    .await;
    assert_eq!(who["status"]["userInfo"]["username"], "system:anonymous");

    // dryRun=All answers as a create would and stores nothing.
    let r = s
        .send_json(
            "POST",
            &format!("{CM}?dryRun=All"),
            &configmap("dry", json!({})),
        )
        .await;
    assert_eq!(r.status, 201);
    assert_eq!(s.get(&format!("{CM}/dry")).await.status, 404);

    // Delete: Go's Success status, then NotFound.
    let r = s.delete(&format!("{CM}/one")).await;
    assert_eq!(r.status, 200);
    assert_eq!(
        (
            r.json()["status"].clone(),
            r.json()["details"]["name"].clone()
        ),
        (json!("Success"), json!("one"))
    );
    let r = s.get(&format!("{CM}/one")).await;
    assert_eq!(
        (r.status, r.json()["reason"].clone()),
        (404, json!("NotFound"))
    );
    assert_eq!(r.json()["message"], "configmaps \"one\" not found");
    s.server.shutdown().await;
}

#[tokio::test]
async fn versions_convert_through_the_storage_version() {
    let s = start().await;
    let hpa = json!({
        "apiVersion": "autoscaling/v2",
        "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "web"},
        "spec": {
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
            "minReplicas": 1,
            "maxReplicas": 5,
            "metrics": [
                {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 50}}},
                {"type": "Resource", "resource": {"name": "memory", "target": {"type": "AverageValue", "averageValue": "100Mi"}}},
            ],
        },
    });
    create(
        &s,
        "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers",
        hpa,
    )
    .await;
    let v1 = s
        .get("/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web")
        .await
        .json();
    assert_eq!(v1["apiVersion"], "autoscaling/v1");
    assert_eq!(v1["spec"]["targetCPUUtilizationPercentage"], 50);
    let annotation = v1["metadata"]["annotations"]["autoscaling.alpha.kubernetes.io/metrics"]
        .as_str()
        .unwrap();
    assert!(annotation.contains("memory"), "{annotation}");
    // Stored as autoscaling/v2 (kube-apiserver's storage version).
    let kv = s
        .storage
        .get("/registry/horizontalpodautoscalers/default/web")
        .await
        .unwrap()
        .unwrap();
    let raw = String::from_utf8_lossy(&kv.value);
    assert!(raw.contains("autoscaling/v2"), "{raw}");

    // The other way: created as v1, read as v2.
    create(&s, "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers", json!({
        "apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "old"},
        "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "old"}, "maxReplicas": 3, "targetCPUUtilizationPercentage": 70}})).await;
    let v2 = s
        .get("/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/old")
        .await
        .json();
    assert_eq!(
        v2["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"],
        70
    );
    // Both versions list both objects.
    let list = s
        .get("/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers")
        .await
        .json();
    assert_eq!(list["kind"], "HorizontalPodAutoscalerList");
    assert_eq!(list["items"].as_array().unwrap().len(), 2);
    assert_eq!(
        list["items"][1]["spec"]["targetCPUUtilizationPercentage"],
        50
    );

    // Both Event APIs share core v1 Events under /registry/events, as kube-apiserver.
    create(&s, "/apis/events.k8s.io/v1/namespaces/default/events", json!({
        "apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "e1"},
        "eventTime": "2026-01-01T00:00:00.000000Z", "reportingController": "ctl", "reportingInstance": "i",
        "action": "Act", "reason": "Why", "type": "Normal", "note": "hello", "regarding": {"kind": "Pod", "name": "p"}})).await;
    let core = s.get("/api/v1/namespaces/default/events/e1").await.json();
    assert_eq!(
        (
            core["message"].as_str(),
            core["involvedObject"]["name"].as_str(),
            core["reportingComponent"].as_str()
        ),
        (Some("hello"), Some("p"), Some("ctl"))
    );
    let kv = s
        .storage
        .get("/registry/events/default/e1")
        .await
        .unwrap()
        .unwrap();
    let stored = apiserver::registry::decode_stored(&client::scheme(), &kv).unwrap();
    assert_eq!(stored.group_version_kind().to_string(), "/v1, Kind=Event");
    let back = s
        .get("/apis/events.k8s.io/v1/namespaces/default/events/e1")
        .await
        .json();
    assert_eq!(
        (back["note"].as_str(), back["regarding"]["kind"].as_str()),
        (Some("hello"), Some("Pod"))
    );
    assert_eq!(
        s.get("/api/v1/namespaces/default/events").await.json()["items"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // The events field selectors `kubectl describe` uses.
    let events = "/api/v1/namespaces/default/events?fieldSelector=";
    let r = s
        .get(&format!(
            "{events}involvedObject.name%3Dp%2CinvolvedObject.kind%3DPod"
        ))
        .await;
    assert_eq!(
        r.json()["items"].as_array().map(Vec::len),
        Some(1),
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    let r = s.get(&format!("{events}involvedObject.name%3Dq")).await;
    assert_eq!(r.json()["items"].as_array().unwrap().len(), 0);
    assert_eq!(
        s.get(&format!("{events}involvedObject.nope%3Dq"))
            .await
            .status,
        400
    );

    // A body of another version than the path's is refused, as Go does.
    let r = s.send_json("POST", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers", &json!({
        "apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "x"}})).await;
    assert_eq!(r.status, 400);
    s.server.shutdown().await;
}

#[tokio::test]
async fn generation_status_and_scale() {
    let s = start().await;
    let d = create(&s, DEPLOY, deployment("web", 2)).await;
    assert_eq!(d["metadata"]["generation"], 1);
    // A metadata-only change keeps the generation; a spec change bumps it.
    let mut m = d.clone();
    m["metadata"]["labels"] = json!({"x": "y"});
    let r = s
        .send_json("PUT", &format!("{DEPLOY}/web"), &m)
        .await
        .json();
    assert_eq!(r["metadata"]["generation"], 1);
    let r = s
        .patch(
            &format!("{DEPLOY}/web"),
            "application/merge-patch+json",
            &json!({"spec": {"replicas": 3}}),
        )
        .await
        .json();
    assert_eq!(
        (
            r["metadata"]["generation"].clone(),
            r["spec"]["replicas"].clone()
        ),
        (json!(2), json!(3))
    );
    // The main resource ignores status; /status changes only status.
    let r = s
        .patch(
            &format!("{DEPLOY}/web"),
            "application/merge-patch+json",
            &json!({"status": {"replicas": 9}}),
        )
        .await
        .json();
    assert_eq!(r["status"]["replicas"], json!(null));
    let r = s
        .patch(
            &format!("{DEPLOY}/web/status"),
            "application/merge-patch+json",
            &json!({"status": {"replicas": 3}, "spec": {"replicas": 7}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let r = r.json();
    assert_eq!(
        (
            r["status"]["replicas"].clone(),
            r["spec"]["replicas"].clone(),
            r["metadata"]["generation"].clone()
        ),
        (json!(3), json!(3), json!(2))
    );
    // /scale.
    let scale = s.get(&format!("{DEPLOY}/web/scale")).await.json();
    assert_eq!(
        (scale["kind"].as_str(), scale["apiVersion"].as_str()),
        (Some("Scale"), Some("autoscaling/v1"))
    );
    assert_eq!(
        (
            scale["spec"]["replicas"].clone(),
            scale["status"]["replicas"].clone()
        ),
        (json!(3), json!(3))
    );
    assert_eq!(scale["status"]["selector"], "app=web");
    let r = s
        .patch(
            &format!("{DEPLOY}/web/scale"),
            "application/merge-patch+json",
            &json!({"spec": {"replicas": 5}}),
        )
        .await;
    assert_eq!(r.json()["spec"]["replicas"], 5);
    let d = s.get(&format!("{DEPLOY}/web")).await.json();
    assert_eq!(
        (
            d["spec"]["replicas"].clone(),
            d["metadata"]["generation"].clone()
        ),
        (json!(5), json!(3))
    );
    // Go's ScaleHandler: the write through /scale is its own entry (subresource scale,
    // at the parent's apiVersion, with no time), the only one owning the replicas; the
    // /status write has its own entry too.
    let entries = d["metadata"]["managedFields"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let by_sub = |sub: &str| {
        entries
            .iter()
            .filter(|e| e["subresource"].as_str().unwrap_or_default() == sub)
            .collect::<Vec<_>>()
    };
    let scale_entries = by_sub("scale");
    assert_eq!(scale_entries.len(), 1, "{entries:?}");
    assert_eq!(scale_entries[0]["apiVersion"], "apps/v1");
    assert_eq!(scale_entries[0]["time"], json!(null));
    assert_eq!(
        scale_entries[0]["fieldsV1"],
        json!({"f:spec": {"f:replicas": {}}})
    );
    assert!(
        by_sub("")
            .iter()
            .all(|e| e["fieldsV1"].pointer("/f:spec/f:replicas").is_none()),
        "{entries:?}"
    );
    assert_eq!(by_sub("status").len(), 1, "{entries:?}");
    let r = s
        .patch(
            &format!("{DEPLOY}/web/scale"),
            "application/merge-patch+json",
            &json!({"spec": {"replicas": -1}}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(
        s.get("/api/v1/namespaces/default/configmaps/x/scale")
            .await
            .status,
        404
    );
    s.server.shutdown().await;
}

#[tokio::test]
async fn patches() {
    let s = start().await;
    create(&s, CM, configmap("p", json!({"a": "1"}))).await;
    let path = format!("{CM}/p");
    let r = s
        .patch(
            &path,
            "application/merge-patch+json",
            &json!({"data": {"k": null, "n": "2"}, "metadata": {"labels": {"b": "2"}}}),
        )
        .await
        .json();
    assert_eq!(r["data"], json!({"n": "2"}));
    assert_eq!(r["metadata"]["labels"], json!({"a": "1", "b": "2"}));
    let r = s
        .patch(
            &path,
            "application/json-patch+json",
            &json!([
                {"op": "add", "path": "/data/j", "value": "3"},
                {"op": "remove", "path": "/metadata/labels/a"},
            ]),
        )
        .await
        .json();
    assert_eq!(r["data"], json!({"n": "2", "j": "3"}));
    assert_eq!(r["metadata"]["labels"], json!({"b": "2"}));
    let r = s
        .patch(
            &path,
            "application/json-patch+json",
            &json!([{"op": "test", "path": "/data/n", "value": "nope"}]),
        )
        .await;
    assert_eq!(r.status, 422);
    let r = s
        .patch(
            &path,
            "application/json-patch+json",
            &json!({"not": "a list"}),
        )
        .await;
    assert_eq!(r.status, 400);
    // A copy bomb is refused before it grows (Go's accumulated copy limit).
    let bomb: Vec<Value> = (0..40)
        .map(|i| json!({"op": "copy", "from": "/data", "path": format!("/data/x{i}")}))
        .collect();
    let r = s
        .patch(&path, "application/json-patch+json", &Value::Array(bomb))
        .await;
    assert_eq!(r.status, 413, "{}", String::from_utf8_lossy(&r.body));
    let many: Vec<Value> = (0..10_001)
        .map(|_| json!({"op": "test", "path": "/data/n", "value": "2"}))
        .collect();
    let r = s
        .patch(&path, "application/json-patch+json", &Value::Array(many))
        .await;
    assert_eq!(r.status, 413);

    // A patch naming a stale resourceVersion is a precondition.
    let r = s
        .patch(
            &path,
            "application/merge-patch+json",
            &json!({"metadata": {"resourceVersion": "1"}, "data": {"z": "z"}}),
        )
        .await;
    assert_eq!(r.status, 409);
    let r = s
        .patch(
            &path,
            "application/strategic-merge-patch+json",
            &json!({"data": {"s": "1"}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["data"], json!({"n": "2", "j": "3", "s": "1"}));
    // Strategic merge patch merges containers by name, from the OpenAPI patch markers.
    let mut d = deployment("smp", 1);
    d["spec"]["template"]["spec"]["containers"] =
        json!([{"name": "a", "image": "a:1"}, {"name": "b", "image": "b:1"}]);
    create(&s, DEPLOY, d).await;
    let r = s
        .patch(
            &format!("{DEPLOY}/smp"),
            "application/strategic-merge-patch+json",
            &json!({"spec": {"template": {"spec": {"containers": [{"name": "b", "image": "b:2"}]}}}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let containers = r.json()["spec"]["template"]["spec"]["containers"].clone();
    // Each container as stored: with the defaults of its creation (a patch of the image
    // keeps the pull policy the first image got).
    let defaulted = |name: &str, image: &str| {
        json!({"name": name, "image": image, "imagePullPolicy": "IfNotPresent", "resources": {},
               "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"})
    };
    assert_eq!(
        containers,
        json!([defaulted("a", "a:1"), defaulted("b", "b:2")])
    );
    let r = s
        .patch(
            &format!("{DEPLOY}/smp"),
            "application/strategic-merge-patch+json",
            &json!({"spec": {"template": {"spec": {"containers": [{"name": "a", "$patch": "delete"}]}}}}),
        )
        .await;
    assert_eq!(
        r.json()["spec"]["template"]["spec"]["containers"][0]["name"],
        "b"
    );
    // Server-side apply needs a field manager (Go's PatchOptions validation).
    let r = s
        .patch(&path, "application/apply-patch+yaml", &json!({}))
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(
        r.json()["message"],
        "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"
    );
    let r = s.patch(&path, "text/plain", &json!({})).await;
    assert_eq!(r.status, 415);
    s.server.shutdown().await;
}

#[tokio::test]
async fn lists_select_and_page() {
    let s = start().await;
    for (i, env) in ["prod", "dev", "prod", "test", "prod"].iter().enumerate() {
        create(
            &s,
            CM,
            configmap(&format!("cm{i}"), json!({"env": env, "n": i.to_string()})),
        )
        .await;
    }
    let names = |v: &Value| -> Vec<String> {
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["metadata"]["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let q = |sel: &str| {
        format!(
            "{CM}?labelSelector={}",
            sel.replace(' ', "%20")
                .replace(',', "%2C")
                .replace('(', "%28")
                .replace(')', "%29")
                .replace('!', "%21")
                .replace('>', "%3E")
                .replace('<', "%3C")
        )
    };
    assert_eq!(
        names(&s.get(&q("env=prod")).await.json()),
        ["cm0", "cm2", "cm4"]
    );
    assert_eq!(names(&s.get(&q("env!=prod")).await.json()), ["cm1", "cm3"]);
    assert_eq!(
        names(&s.get(&q("env in (dev,test)")).await.json()),
        ["cm1", "cm3"]
    );
    assert_eq!(
        names(&s.get(&q("env notin (prod),n>1")).await.json()),
        ["cm3"]
    );
    assert_eq!(names(&s.get(&q("!env")).await.json()), Vec::<String>::new());
    assert_eq!(names(&s.get(&q("env,n<1")).await.json()), ["cm0"]);
    assert_eq!(
        names(
            &s.get(&format!("{CM}?fieldSelector=metadata.name%3Dcm3"))
                .await
                .json()
        ),
        ["cm3"]
    );
    assert_eq!(
        names(
            &s.get("/api/v1/configmaps?fieldSelector=metadata.namespace%3Ddefault")
                .await
                .json()
        )
        .len(),
        5
    );

    // Paging: opaque tokens, remainingItemCount, one revision for all pages.
    let first = s.get(&format!("{CM}?limit=2")).await.json();
    assert_eq!(names(&first), ["cm0", "cm1"]);
    assert_eq!(first["metadata"]["remainingItemCount"], 3);
    let token = first["metadata"]["continue"].as_str().unwrap().to_owned();
    create(&s, CM, configmap("cm9", json!({}))).await;
    let second = s
        .get(&format!("{CM}?limit=2&continue={token}"))
        .await
        .json();
    assert_eq!(names(&second), ["cm2", "cm3"]);
    let token = second["metadata"]["continue"].as_str().unwrap().to_owned();
    let third = s
        .get(&format!("{CM}?limit=2&continue={token}"))
        .await
        .json();
    assert_eq!(names(&third), ["cm4"]);
    assert_eq!(third["metadata"]["continue"], json!(null));
    assert_eq!(
        third["metadata"]["resourceVersion"],
        first["metadata"]["resourceVersion"]
    );
    // Paging with a selector.
    let p = s.get(&format!("{}&limit=2", q("env=prod"))).await.json();
    assert_eq!(names(&p), ["cm0", "cm2"]);
    assert!(p["metadata"]["continue"].is_string());
    // A list at an older resourceVersion.
    let rv = first["metadata"]["resourceVersion"].as_str().unwrap();
    let old = s
        .get(&format!(
            "{CM}?resourceVersion={rv}&resourceVersionMatch=Exact"
        ))
        .await
        .json();
    assert_eq!(names(&old).len(), 5);

    // Without Exact, a resourceVersion is a lower bound: the current state is listed.
    let fresh = s.get(&format!("{CM}?resourceVersion={rv}")).await.json();
    assert_eq!(names(&fresh).len(), 6);
    let r = s.get(&format!("{CM}?resourceVersion=999999")).await;
    assert_eq!(
        (r.status, r.json()["reason"].clone()),
        (504, json!("Timeout"))
    );

    // A negative limit is no limit, as in Go.
    assert_eq!(
        names(&s.get(&format!("{CM}?limit=-1")).await.json()).len(),
        6
    );

    // Bad input: Status errors, 400 for what does not parse, 422 for options that
    // fail Go's ValidateListOptions.
    for (bad, code) in [
        (q("env in (prod"), 400),
        (q("=x"), 400),
        (format!("{CM}?fieldSelector=spec.x%3D1"), 400),
        (format!("{CM}?continue=garbage"), 400),
        (format!("{CM}?limit=99999999999999999999"), 400),
        (format!("{CM}?limit=abc"), 400),
        (format!("{CM}?timeoutSeconds=abc"), 400),
        (format!("{CM}?resourceVersion=abc"), 400),
        (format!("{CM}?resourceVersionMatch=Exact"), 422),
        (
            format!("{CM}?resourceVersion=1&resourceVersionMatch=Newest"),
            422,
        ),
        (format!("{CM}?sendInitialEvents=true"), 422),
    ] {
        let r = s.get(&bad).await;
        assert_eq!(
            (r.status, r.json()["kind"].clone()),
            (code, json!("Status")),
            "{bad}"
        );
    }
    s.server.shutdown().await;
}

#[tokio::test]
async fn watches() {
    let s = start().await;
    create(&s, CM, configmap("before", json!({"w": "yes"}))).await;
    let addr = s.server.local_addr().to_string();
    let watch = |path: String| {
        let addr = addr.clone();
        tokio::spawn(async move { client::request(&addr, "GET", &path, &[], b"").await })
    };
    // Initial ADDED without a resourceVersion, live events after, filtered by label.
    let all = watch(format!(
        "{CM}?watch=true&timeoutSeconds=2&labelSelector=w%3Dyes"
    ));
    let initial = watch("/api/v1/watch/namespaces/default/configmaps?sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=2".to_string());
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let c = create(&s, CM, configmap("during", json!({"w": "yes"}))).await;
    let rv_after_create = c["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_owned();
    s.patch(
        &format!("{CM}/during"),
        "application/merge-patch+json",
        &json!({"data": {"x": "1"}}),
    )
    .await;
    s.patch(
        &format!("{CM}/before"),
        "application/merge-patch+json",
        &json!({"metadata": {"labels": {"w": "no"}}}),
    )
    .await;
    s.delete(&format!("{CM}/during")).await;
    let events = all.await.unwrap().events();
    let summary: Vec<(String, String)> = events
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap().to_owned(),
                e["object"]["metadata"]["name"]
                    .as_str()
                    .unwrap_or("")
                    .to_owned(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = [
        ("ADDED", "before"),
        ("ADDED", "during"),
        ("MODIFIED", "during"),
        ("DELETED", "before"),
        ("DELETED", "during"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(summary, want);
    assert_eq!(events[0]["object"]["apiVersion"], "v1");

    let events = initial.await.unwrap().events();
    assert_eq!(events[0]["type"], "ADDED");
    let bookmark = &events[1];
    assert_eq!(bookmark["type"], "BOOKMARK");
    assert_eq!(
        bookmark["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"],
        "true"
    );

    // Resume from a resourceVersion: only what came after it.
    let r = client::request(
        &addr,
        "GET",
        &format!("{CM}?watch=1&resourceVersion={rv_after_create}&timeoutSeconds=1"),
        &[],
        b"",
    )
    .await;
    let types: Vec<String> = r
        .events()
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(types, ["MODIFIED", "MODIFIED", "DELETED"]);

    // A revision from the future.
    let r = s
        .get(&format!("{CM}?watch=true&resourceVersion=999999"))
        .await;
    assert_eq!(
        (r.status, r.json()["reason"].clone()),
        (504, json!("Timeout"))
    );

    // Bad parameters.
    for bad in [
        "timeoutSeconds=x",
        "sendInitialEvents=true",
        "resourceVersionMatch=Exact",
        "labelSelector=a%20b",
    ] {
        let r = s.get(&format!("{CM}?watch=true&{bad}")).await;
        assert!(r.status == 400 || r.status == 422, "{bad}: {}", r.status);
    }
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_consistent_watch_list_ends_at_the_storages_current_revision() {
    let s = start().await;
    let addr = s.server.local_addr().to_string();
    let watch_list = format!(
        "{CM}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan\
         &allowWatchBookmarks=true&timeoutSeconds=1"
    );
    let bookmark_at = |events: Vec<Value>| -> u64 {
        let bookmark = events
            .iter()
            .find(|e| e["type"] == "BOOKMARK")
            .unwrap_or_else(|| panic!("no bookmark: {events:?}"));
        bookmark["object"]["metadata"]["resourceVersion"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap()
    };
    // The ConfigMaps' cache runs from here on.
    create(&s, CM, configmap("first", json!({}))).await;
    client::request(&addr, "GET", &watch_list, &[], b"").await;
    // A write of another resource moves the storage's revision, not the cache's.
    let secret = create(
        &s,
        "/api/v1/namespaces/default/secrets",
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "later"}}),
    )
    .await;
    let later: u64 = secret["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let events = client::request(&addr, "GET", &watch_list, &[], b"")
        .await
        .events();
    assert_eq!(events[0]["object"]["metadata"]["name"], "first");
    assert!(bookmark_at(events) >= later);
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_too_old_resource_version_is_expired() {
    let storage = std::sync::Arc::new(apiserver::storage::MemoryStorage::with_history_limit(5));
    let s = client::start_with(storage).await;
    for i in 0..20 {
        create(&s, CM, configmap(&format!("c{i}"), json!({}))).await;
    }
    let r = s
        .get(&format!(
            "{CM}?watch=true&resourceVersion=2&timeoutSeconds=1"
        ))
        .await;
    let events = if r.status == 200 {
        r.events()
    } else {
        vec![json!({"type": "ERROR", "object": r.json()})]
    };
    assert_eq!(events[0]["type"], "ERROR", "{events:?}");
    assert_eq!(
        (
            events[0]["object"]["code"].clone(),
            events[0]["object"]["reason"].clone()
        ),
        (json!(410), json!("Expired"))
    );
    let r = s
        .get(&format!(
            "{CM}?resourceVersion=2&resourceVersionMatch=Exact"
        ))
        .await;
    assert_eq!(r.status, 410);
    s.server.shutdown().await;
}

#[tokio::test]
async fn deletion_with_finalizers_preconditions_and_collections() {
    let s = start().await;
    let mut cm = configmap("fin", json!({}));
    cm["metadata"]["finalizers"] = json!(["example.com/hold"]);
    let created = create(&s, CM, cm).await;
    // Marked, not deleted: the object with 200, as Go answers (202 only for the
    // deprecated `orphanDependents: false`).
    let r = s.delete(&format!("{CM}/fin")).await;
    assert_eq!(r.status, 200);
    assert!(r.json()["metadata"]["deletionTimestamp"].is_string());
    // Still there until the last finalizer goes.
    assert_eq!(s.get(&format!("{CM}/fin")).await.status, 200);
    let r = s
        .patch(
            &format!("{CM}/fin"),
            "application/merge-patch+json",
            &json!({"metadata": {"finalizers": null}}),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(s.get(&format!("{CM}/fin")).await.status, 404);

    // Preconditions.
    let c = create(&s, CM, configmap("pre", json!({}))).await;
    let body =
        serde_json::to_vec(&json!({"preconditions": {"uid": created["metadata"]["uid"]}})).unwrap();
    let r = s
        .request(
            "DELETE",
            &format!("{CM}/pre"),
            &[("Content-Type", "application/json")],
            &body,
        )
        .await;
    assert_eq!(r.status, 409);
    assert!(
        r.json()["message"]
            .as_str()
            .unwrap()
            .contains("the UID in the precondition (")
    );
    let body = serde_json::to_vec(&json!({"preconditions": {"resourceVersion": c["metadata"]["resourceVersion"]}, "propagationPolicy": "Background"})).unwrap();
    let r = s
        .request(
            "DELETE",
            &format!("{CM}/pre"),
            &[("Content-Type", "application/json")],
            &body,
        )
        .await;
    assert_eq!(r.status, 200);
    // Foreground deletion is recorded as Go does: a finalizer for the garbage collector.
    create(&s, CM, configmap("fg", json!({}))).await;
    let r = s
        .delete(&format!("{CM}/fg?propagationPolicy=Foreground"))
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json()["metadata"]["finalizers"],
        json!(["foregroundDeletion"])
    );
    assert_eq!(
        s.delete(&format!("{CM}/x?propagationPolicy=Sideways"))
            .await
            .status,
        422
    );

    // deletecollection with a selector.
    for i in 0..3 {
        create(
            &s,
            CM,
            configmap(
                &format!("col{i}"),
                json!({"group": if i < 2 { "a" } else { "b" }}),
            ),
        )
        .await;
    }
    let r = s.delete(&format!("{CM}?labelSelector=group%3Da")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["items"].as_array().unwrap().len(), 2);
    assert_eq!(s.get(&format!("{CM}/col1")).await.status, 404);
    assert_eq!(s.get(&format!("{CM}/col2")).await.status, 200);
    s.server.shutdown().await;
}

#[tokio::test]
async fn content_negotiation_and_field_validation() {
    let s = start().await;
    create(&s, CM, configmap("n", json!({}))).await;
    let r = s
        .request(
            "GET",
            &format!("{CM}/n"),
            &[("Accept", "application/yaml")],
            b"",
        )
        .await;
    assert_eq!(r.header("content-type"), Some("application/yaml"));
    assert!(String::from_utf8_lossy(&r.body).contains("kind: ConfigMap"));
    let r = s
        .request(
            "GET",
            &format!("{CM}/n"),
            &[("Accept", "application/vnd.kubernetes.protobuf")],
            b"",
        )
        .await;
    assert_eq!(
        r.header("content-type"),
        Some("application/vnd.kubernetes.protobuf")
    );
    assert!(r.body.starts_with(PROTOBUF_MAGIC.as_slice()));
    // kubectl's table request: ConfigMaps have Go's printer (NAME DATA AGE).
    let table_accept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
    let r = s
        .request("GET", &format!("{CM}/n"), &[("Accept", table_accept)], b"")
        .await;
    assert_eq!(r.json()["kind"], "Table");
    assert_eq!(r.json()["rows"][0]["cells"][0], "n");
    assert!(r.json()["rows"][0]["cells"][1].is_i64());
    // A kind without a printer (Roles have none in Go either) answers Go's default
    // table: the name and the creation time.
    let r = s
        .request(
            "GET",
            "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles",
            &[("Accept", table_accept)],
            b"",
        )
        .await;
    assert_eq!(r.json()["kind"], "Table");
    let columns = &r.json()["columnDefinitions"];
    assert_eq!(
        (
            &columns[0]["name"],
            &columns[1]["name"],
            &columns[1]["type"]
        ),
        (&json!("Name"), &json!("Created At"), &json!("date"))
    );
    assert_eq!(
        s.request("GET", &format!("{CM}/n"), &[("Accept", "text/html")], b"")
            .await
            .status,
        406
    );
    // A protobuf body.
    let pb = s
        .request(
            "GET",
            &format!("{CM}/n"),
            &[("Accept", "application/vnd.kubernetes.protobuf")],
            b"",
        )
        .await
        .body;
    s.delete(&format!("{CM}/n")).await;
    let r = s
        .request(
            "POST",
            CM,
            &[("Content-Type", "application/vnd.kubernetes.protobuf")],
            &pb,
        )
        .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    // YAML body.
    let yaml = b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yml\ndata:\n  a: b\n";
    let r = s
        .request("POST", CM, &[("Content-Type", "application/yaml")], yaml)
        .await;
    assert_eq!(r.status, 201);

    // fieldValidation: Strict refuses every unknown and duplicate field at once; Warn
    // warns; Ignore ignores.
    let body = br#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fv"},"data":{},"bogus":1,"spec":{"x":1}}"#;
    let r = s
        .request(
            "POST",
            &format!("{CM}?fieldValidation=Strict"),
            &[("Content-Type", "application/json")],
            body,
        )
        .await;
    assert_eq!(r.status, 400);
    let msg = r.json()["message"].as_str().unwrap().to_owned();
    assert!(
        msg.contains("strict decoding error") && msg.contains("bogus") && msg.contains("spec"),
        "{msg}"
    );
    assert_eq!(s.get(&format!("{CM}/fv")).await.status, 404);
    let r = s
        .request(
            "POST",
            &format!("{CM}?fieldValidation=Warn"),
            &[("Content-Type", "application/json")],
            body,
        )
        .await;
    assert_eq!(r.status, 201);
    assert_eq!(r.headers_named("warning").len(), 2, "{:?}", r.headers);
    s.delete(&format!("{CM}/fv")).await;
    let r = s
        .request(
            "POST",
            &format!("{CM}?fieldValidation=Ignore"),
            &[("Content-Type", "application/json")],
            body,
        )
        .await;
    assert_eq!((r.status, r.headers_named("warning").len()), (201, 0));
    // An unknown directive fails Go's ValidateCreateOptions: 422 with a cause.
    let r = s
        .request(
            "POST",
            &format!("{CM}?fieldValidation=Loose"),
            &[("Content-Type", "application/json")],
            body,
        )
        .await;
    assert_eq!(
        (r.status, r.json()["details"]["causes"][0]["field"].clone()),
        (422, json!("fieldValidation"))
    );
    s.server.shutdown().await;
}

#[tokio::test]
async fn bad_input_is_a_status_error_and_stores_nothing() {
    let s = start().await;
    let before = s.storage.current_revision().await.unwrap();
    let post =
        |body: &'static [u8]| s.request("POST", CM, &[("Content-Type", "application/json")], body);
    for (body, code) in [
        (&b"{not json"[..], 400),
        (&br#"{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"}}"#[..], 400),
        (&br#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"}}"#[..], 400),
        (&br#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"Bad_Name"}}"#[..], 422),
        (&br#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{}}"#[..], 422),
        (&br#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","namespace":"other"}}"#[..], 400),
        (&br#"[1,2,3]"#[..], 400),
    ] {
        let r = post(body).await;
        assert_eq!((r.status, r.json()["kind"].clone()), (code, json!("Status")), "{}", String::from_utf8_lossy(body));
    }
    let r = post(br#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"Bad_Name"}}"#)
        .await
        .json();
    assert_eq!(r["reason"], "Invalid");
    assert_eq!(r["details"]["causes"][0]["field"], "metadata.name");
    assert!(r["message"].as_str().unwrap().starts_with("ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain"));
    let r = s
        .request("POST", CM, &[("Content-Type", "text/plain")], b"x")
        .await;
    assert_eq!(r.status, 415);
    let big = vec![b' '; 3 * 1024 * 1024 + 10];
    let r = s
        .request("POST", CM, &[("Content-Type", "application/json")], &big)
        .await;
    assert_eq!(
        (r.status, r.json()["reason"].clone()),
        (413, json!("RequestEntityTooLarge"))
    );
    assert_eq!(s.request("TRACE", CM, &[], b"").await.status, 405);
    assert_eq!(
        s.request(
            "PUT",
            "/api/v1/namespaces/default/configmaps/a/status",
            &[],
            b"{}"
        )
        .await
        .status,
        404
    );
    assert_eq!(s.get("/api/v1/nosuchresources").await.status, 404);
    assert_eq!(
        s.get("/apis/apps/v1beta1/namespaces/default/deployments")
            .await
            .status,
        404
    );
    assert_eq!(s.get("/api/v1/pods/x").await.status, 404);
    assert_eq!(
        s.storage.current_revision().await.unwrap(),
        before,
        "something was stored"
    );
    // Still serving.
    assert_eq!(s.get("/healthz").await.status, 200);
    s.server.shutdown().await;
}

#[tokio::test]
async fn concurrent_writers_lose_no_update() {
    let s = std::sync::Arc::new(start().await);
    create(&s, CM, json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "counter"}, "data": {"n": "0"}})).await;
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            for _ in 0..5 {
                loop {
                    let cur = s.get(&format!("{CM}/counter")).await.json();
                    let n: i64 = cur["data"]["n"].as_str().unwrap().parse().unwrap();
                    let mut next = cur.clone();
                    next["data"]["n"] = json!((n + 1).to_string());
                    let r = s.send_json("PUT", &format!("{CM}/counter"), &next).await;
                    match r.status {
                        200 => break,
                        409 => continue,
                        other => panic!("unexpected {other}"),
                    }
                }
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    assert_eq!(
        s.get(&format!("{CM}/counter")).await.json()["data"]["n"],
        "40"
    );
}

/// A storage counting the watches opened on it.
#[derive(Debug)]
struct CountingStorage {
    inner: apiserver::storage::MemoryStorage,
    watches: std::sync::atomic::AtomicUsize,
}

#[async_trait::async_trait]
impl apiserver::storage::Storage for CountingStorage {
    async fn get(
        &self,
        key: &str,
    ) -> Result<Option<apiserver::storage::KeyValue>, apiserver::storage::StorageError> {
        self.inner.get(key).await
    }
    async fn list(
        &self,
        prefix: &str,
        options: &apiserver::storage::ListOptions,
    ) -> Result<apiserver::storage::ListResult, apiserver::storage::StorageError> {
        self.inner.list(prefix, options).await
    }
    async fn create(
        &self,
        key: &str,
        value: bytes::Bytes,
    ) -> Result<apiserver::storage::KeyValue, apiserver::storage::StorageError> {
        self.inner.create(key, value).await
    }
    async fn update(
        &self,
        key: &str,
        value: bytes::Bytes,
        expected: i64,
    ) -> Result<apiserver::storage::KeyValue, apiserver::storage::StorageError> {
        self.inner.update(key, value, expected).await
    }
    async fn delete(
        &self,
        key: &str,
        expected: Option<i64>,
    ) -> Result<apiserver::storage::Deleted, apiserver::storage::StorageError> {
        self.inner.delete(key, expected).await
    }
    async fn watch(
        &self,
        prefix: &str,
        from: i64,
    ) -> Result<apiserver::storage::WatchStream, apiserver::storage::StorageError> {
        // Only the watches of the resource under test: the server watches CRDs too.
        if prefix.starts_with("/registry/configmaps") {
            self.watches
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        self.inner.watch(prefix, from).await
    }
    async fn current_revision(&self) -> Result<i64, apiserver::storage::StorageError> {
        self.inner.current_revision().await
    }
    fn follow_own_writes(&self, prefix: &str) -> std::sync::Arc<std::sync::atomic::AtomicI64> {
        self.inner.follow_own_writes(prefix)
    }
    async fn compact(&self, revision: i64) -> Result<(), apiserver::storage::StorageError> {
        self.inner.compact(revision).await
    }
}

#[tokio::test]
async fn one_storage_watch_per_resource_fans_out_to_every_client() {
    let storage = std::sync::Arc::new(CountingStorage {
        inner: apiserver::storage::MemoryStorage::new(),
        watches: std::sync::atomic::AtomicUsize::new(0),
    });
    let s = client::start_with(storage.clone()).await;
    let addr = s.server.local_addr().to_string();
    let mut clients = Vec::new();
    for i in 0..10 {
        let addr = addr.clone();
        // Half in one namespace, half across all: one resource, one storage watch.
        let path = if i % 2 == 0 {
            format!("{CM}?watch=true&timeoutSeconds=2")
        } else {
            "/api/v1/configmaps?watch=true&timeoutSeconds=2".to_owned()
        };
        clients.push(tokio::spawn(async move {
            client::request(&addr, "GET", &path, &[], b"").await
        }));
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    create(&s, CM, configmap("fan", json!({}))).await;
    for c in clients {
        let events = c.await.unwrap().events();
        assert_eq!(events.len(), 1, "{events:?}");
        assert_eq!(events[0]["object"]["metadata"]["name"], "fan");
    }
    assert_eq!(storage.watches.load(std::sync::atomic::Ordering::SeqCst), 1);
    s.server.shutdown().await;
}

/// One event's lines are made once per format, version and event type, and shared by
/// every watcher asking for the same (Go's `cachingObject`): each watcher still gets its
/// own format, and the event type its selection gives it.
#[tokio::test]
async fn watchers_of_one_event_each_get_their_format_and_event_type() {
    let s = start().await;
    let addr = s.server.local_addr().to_string();
    create(&s, CM, configmap("moving", json!({"tier": "back"}))).await;
    let rv = s.get(&format!("{CM}/moving")).await.json()["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_owned();
    let watch = |query: &str, accept: &'static str| {
        let addr = addr.clone();
        let path = format!("{CM}?watch=true&resourceVersion={rv}&timeoutSeconds=2{query}");
        tokio::spawn(async move {
            client::request(&addr, "GET", &path, &[("Accept", accept)], b"").await
        })
    };
    let json_a = watch("", "application/json");
    let json_b = watch("", "application/json");
    let protobuf = watch("", "application/vnd.kubernetes.protobuf");
    let entering = watch("&labelSelector=tier%3Dfront", "application/json");
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let r = s
        .send_json(
            "PUT",
            &format!("{CM}/moving"),
            &configmap("moving", json!({"tier": "front"})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));

    let (a, b) = (json_a.await.unwrap(), json_b.await.unwrap());
    assert_eq!(a.body, b.body, "the same line for the same format");
    let events = a.events();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["type"], "MODIFIED");
    assert_eq!(events[0]["object"]["metadata"]["labels"]["tier"], "front");
    let entered = entering.await.unwrap().events();
    assert_eq!(entered.len(), 1, "{entered:?}");
    assert_eq!(
        entered[0]["type"], "ADDED",
        "the object entered the selection"
    );
    let r = protobuf.await.unwrap();
    let frames: Vec<Vec<u8>> = apimachinery::proto::LengthDelimitedFrameReader::new(&r.body[..])
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(frames.len(), 1);
    let (event_type, obj) = decode_watch_event(&frames[0]);
    assert_eq!(
        (event_type.as_str(), obj.meta().unwrap().name()),
        ("MODIFIED", "moving")
    );
    s.server.shutdown().await;
}

/// The type and object of one protobuf watch frame (a bare `metav1.WatchEvent`).
fn decode_watch_event(frame: &[u8]) -> (String, Box<dyn apimachinery::runtime::Object>) {
    use apimachinery::serializer::Decoder as _;
    let mut d = apimachinery::proto::WireDecoder::new(frame);
    let (mut event_type, mut raw) = (String::new(), Vec::new());
    while !d.is_empty() {
        let (field, _) = d.key().unwrap();
        let bytes = d.length_delimited().unwrap();
        match field {
            1 => event_type = String::from_utf8(bytes.to_vec()).unwrap(),
            2 => {
                let mut inner = apimachinery::proto::WireDecoder::new(bytes);
                let (f, _) = inner.key().unwrap();
                assert_eq!(f, 1);
                raw = inner.length_delimited().unwrap().to_vec();
            }
            other => panic!("unexpected WatchEvent field {other}"),
        }
    }
    let scheme = client::scheme();
    let (obj, _) = apimachinery::serializer::protobuf::ProtobufSerializer::new(&scheme)
        .decode(&raw, None, None)
        .unwrap();
    (event_type, obj)
}

#[tokio::test]
async fn protobuf_watches_are_length_delimited_watch_events() {
    let s = start().await;
    create(&s, CM, configmap("pb", json!({}))).await;
    let r = s
        .request(
            "GET",
            &format!("{CM}?watch=true&timeoutSeconds=1"),
            &[(
                "Accept",
                "application/vnd.kubernetes.protobuf, application/json",
            )],
            b"",
        )
        .await;
    assert_eq!(
        r.header("content-type"),
        Some("application/vnd.kubernetes.protobuf;stream=watch")
    );
    let frames: Vec<Vec<u8>> = apimachinery::proto::LengthDelimitedFrameReader::new(&r.body[..])
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(frames.len(), 1);
    let (event_type, obj) = decode_watch_event(&frames[0]);
    assert_eq!(event_type, "ADDED");
    assert_eq!(obj.meta().unwrap().name(), "pb");
    s.server.shutdown().await;
}

#[tokio::test]
async fn readiness_fails_while_the_server_drains() {
    let server = apiserver::server::Config::new(
        client::scheme(),
        Arc::new(apiserver::storage::MemoryStorage::new()),
    )
    .shutdown_delay(std::time::Duration::from_secs(2))
    .serve("127.0.0.1:0".parse().unwrap())
    .await
    .unwrap();
    let addr = server.local_addr().to_string();
    let ready = client::request(&addr, "GET", "/readyz", &[], b"").await;
    assert_eq!(
        (ready.status, ready.body.as_slice()),
        (200, b"ok".as_slice())
    );
    let stopping = tokio::spawn(server.shutdown());
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    // Still serving, but not ready: load balancers move away before the listener closes.
    let ready = client::request(&addr, "GET", "/readyz", &[], b"").await;
    assert_eq!(ready.status, 500);
    assert!(
        String::from_utf8_lossy(&ready.body)
            .contains("[-]shutdown failed: reason withheld\nreadyz check failed"),
        "{}",
        String::from_utf8_lossy(&ready.body)
    );
    assert_eq!(
        client::request(&addr, "GET", "/livez", &[], b"")
            .await
            .status,
        200
    );
    assert_eq!(
        client::request(&addr, "GET", CM, &[], b"").await.status,
        200
    );
    tokio::time::timeout(std::time::Duration::from_secs(5), stopping)
        .await
        .expect("the server stops after its delay")
        .unwrap();
    assert!(tokio::net::TcpStream::connect(&addr).await.is_err());
}

#[tokio::test]
async fn shutdown_ends_open_watches_and_stops_listening() {
    let s = start().await;
    let addr = s.server.local_addr().to_string();
    let watcher = {
        let addr = addr.clone();
        tokio::spawn(async move {
            client::request(&addr, "GET", &format!("{CM}?watch=true"), &[], b"").await
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    tokio::time::timeout(std::time::Duration::from_secs(5), s.server.shutdown())
        .await
        .expect("shutdown waits for nothing but the requests in flight");
    let r = tokio::time::timeout(std::time::Duration::from_secs(5), watcher)
        .await
        .expect("the watch ended with the server")
        .unwrap();
    assert_eq!(r.status, 200);
    assert!(tokio::net::TcpStream::connect(&addr).await.is_err());
}
