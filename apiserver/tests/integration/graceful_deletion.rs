//! `gracePeriodSeconds` on delete, as kube-apiserver does it (`rest.BeforeDelete` and the
//! pod strategy's `CheckGracefulDelete`): Pods are marked for graceful deletion and stay
//! (there is no kubelet to finish them), every other kind goes at once.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::client::{self, Response, TestServer};

use apimachinery::apis::meta::v1::Time;
use serde_json::{Value, json};

const PODS: &str = "/api/v1/namespaces/default/pods";
const CM: &str = "/api/v1/namespaces/default/configmaps";

fn pod(name: &str, node: Option<&str>, grace: Option<i64>) -> Value {
    let mut spec = json!({"containers": [{"name": "c", "image": "nginx"}]});
    if let Some(n) = node {
        spec["nodeName"] = json!(n);
    }
    if let Some(g) = grace {
        spec["terminationGracePeriodSeconds"] = json!(g);
    }
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": spec})
}

async fn create(s: &TestServer, path: &str, body: Value) -> Value {
    let r = s.send_json("POST", path, &body).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    r.json()
}

async fn delete_with(s: &TestServer, path: &str, options: Value) -> Response {
    s.send_json("DELETE", path, &options).await
}

fn seconds(v: &Value) -> i64 {
    Time::parse_rfc3339(v.as_str().unwrap())
        .unwrap()
        .unix_seconds()
}

/// (deletionTimestamp − creationTimestamp rounded to the request, deletionGracePeriodSeconds)
fn mark(obj: &Value) -> (i64, i64) {
    (
        seconds(&obj["metadata"]["deletionTimestamp"]),
        obj["metadata"]["deletionGracePeriodSeconds"]
            .as_i64()
            .unwrap(),
    )
}

#[tokio::test]
async fn kinds_without_graceful_deletion_go_at_once_whatever_the_grace_period() {
    let s = client::start().await;
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}});
    create(&s, CM, cm).await;
    let r = s.delete(&format!("{CM}/c?gracePeriodSeconds=30")).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["kind"], "Status");
    assert_eq!(s.get(&format!("{CM}/c")).await.status, 404);
    // Not an integer: 400, nothing deleted.
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "d"}});
    create(&s, CM, cm).await;
    let r = s.delete(&format!("{CM}/d?gracePeriodSeconds=soon")).await;
    assert_eq!(r.status, 400);
    let r = delete_with(
        &s,
        &format!("{CM}/d"),
        json!({"gracePeriodSeconds": "soon"}),
    )
    .await;
    assert_eq!(r.status, 400);
    assert_eq!(s.get(&format!("{CM}/d")).await.status, 200);
    s.server.shutdown().await;
}

#[tokio::test]
async fn an_unscheduled_or_finished_pod_is_deleted_immediately() {
    let s = client::start().await;
    // Not scheduled (no nodeName): its 30 seconds do not apply.
    create(&s, PODS, pod("pending", None, Some(30))).await;
    let r = s.delete(&format!("{PODS}/pending")).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(s.get(&format!("{PODS}/pending")).await.status, 404);

    // Scheduled but finished.
    for phase in ["Succeeded", "Failed"] {
        let name = phase.to_lowercase();
        let mut created = create(&s, PODS, pod(&name, Some("node-1"), Some(30))).await;
        created["status"] = json!({"phase": phase});
        let r = s
            .send_json("PUT", &format!("{PODS}/{name}/status"), &created)
            .await;
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let r = s.delete(&format!("{PODS}/{name}")).await;
        assert_eq!(r.status, 200);
        assert_eq!(
            s.get(&format!("{PODS}/{name}")).await.status,
            404,
            "{phase}"
        );
    }
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_scheduled_pod_is_marked_and_a_second_delete_may_only_shorten_the_period() {
    let s = client::start().await;
    let created = create(&s, PODS, pod("web", Some("node-1"), Some(30))).await;
    let generation = created["metadata"]["generation"].as_i64().unwrap();
    let path = format!("{PODS}/web");

    // The Pod's own terminationGracePeriodSeconds: marked, 200 with the object, kept.
    let before = Time::now().unix_seconds();
    let r = s.delete(&path).await;
    let after = Time::now().unix_seconds();
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let marked = r.json();
    assert_eq!(marked["kind"], "Pod");
    let (at, period) = mark(&marked);
    assert_eq!(period, 30);
    assert!(
        (before + 30..=after + 30).contains(&at),
        "{at} not in {before}+30..={after}+30"
    );
    assert_eq!(marked["metadata"]["generation"], json!(generation + 1));
    let stored = s.get(&path).await;
    assert_eq!(stored.status, 200);
    assert_eq!(mark(&stored.json()), (at, 30));
    let rv = stored.json()["metadata"]["resourceVersion"].clone();

    // As long, longer, or none: nothing changes, nothing is written.
    for options in [
        json!({}),
        json!({"gracePeriodSeconds": 30}),
        json!({"gracePeriodSeconds": 300}),
    ] {
        let r = delete_with(&s, &path, options.clone()).await;
        assert_eq!(r.status, 200, "{options}");
        assert_eq!(mark(&r.json()), (at, 30), "{options}");
        assert_eq!(s.get(&path).await.json()["metadata"]["resourceVersion"], rv);
    }

    // Shorter: the deadline moves back by the difference (query parameter this time).
    let r = s.delete(&format!("{path}?gracePeriodSeconds=20")).await;
    assert_eq!(r.status, 200);
    assert_eq!(mark(&r.json()), (at - 10, 20));
    assert_eq!(mark(&s.get(&path).await.json()), (at - 10, 20));
    // The generation grows on the first mark only.
    assert_eq!(
        s.get(&path).await.json()["metadata"]["generation"],
        json!(generation + 1)
    );

    // 0: gone at once.
    let r = delete_with(&s, &path, json!({"gracePeriodSeconds": 0})).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(s.get(&path).await.status, 404);
    s.server.shutdown().await;
}

#[tokio::test]
async fn kubectl_s_delete_options_a_dry_run_and_a_negative_period() {
    let s = client::start().await;
    create(&s, PODS, pod("p", Some("node-1"), Some(30))).await;
    let path = format!("{PODS}/p");
    // What `kubectl delete pod p --grace-period=5` sends.
    let options = json!({"kind": "DeleteOptions", "apiVersion": "v1",
                         "gracePeriodSeconds": 5, "propagationPolicy": "Background"});
    // dryRun, in the body as kubectl sends it (beside a body, Go reads none of the
    // query's options): the mark is answered, nothing is stored.
    let mut dry_run = options.clone();
    dry_run["dryRun"] = json!(["All"]);
    let r = delete_with(&s, &path, dry_run).await;
    assert_eq!(r.status, 200);
    assert_eq!(mark(&r.json()).1, 5);
    assert!(
        s.get(&path).await.json()["metadata"]
            .get("deletionTimestamp")
            .is_none()
    );
    let r = delete_with(&s, &path, options).await;
    assert_eq!(r.status, 200);
    assert_eq!(mark(&r.json()).1, 5);
    // Negative is one second.
    let r = delete_with(&s, &path, json!({"gracePeriodSeconds": -3})).await;
    assert_eq!(r.status, 200);
    assert_eq!(mark(&r.json()).1, 1);
    s.server.shutdown().await;
}

/// client-go's typed clients and Go's controller-runtime send DeleteOptions in protobuf
/// for built-in kinds, enveloped under the client's group version (`v1` here); YAML is
/// read too, as Go's handler reads any format of its meta codecs.
#[tokio::test]
async fn delete_options_in_protobuf_and_yaml_are_read_as_go_reads_them() {
    use apimachinery::runtime::Object;
    use apimachinery::schema::GroupVersionKind;
    use apimachinery::serializer::protobuf::encode_object;

    let s = client::start().await;
    create(&s, PODS, pod("p", Some("node-1"), Some(30))).await;
    create(&s, PODS, pod("q", Some("node-1"), Some(30))).await;
    let mut options = k8s_types::meta::v1::DeleteOptions {
        grace_period_seconds: Some(5),
        propagation_policy: Some("Background".into()),
        ..Default::default()
    };
    options.set_group_version_kind(&GroupVersionKind::new("", "v1", "DeleteOptions"));
    let body = encode_object(&options).unwrap();
    let r = s
        .request(
            "DELETE",
            &format!("{PODS}/p"),
            &[("Content-Type", "application/vnd.kubernetes.protobuf")],
            &body,
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(mark(&r.json()).1, 5);

    let r = s
        .request(
            "DELETE",
            &format!("{PODS}/q"),
            &[("Content-Type", "application/yaml")],
            b"kind: DeleteOptions\napiVersion: v1\ngracePeriodSeconds: 7\n",
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(mark(&r.json()).1, 7);

    // An envelope of another kind is a 400 naming it.
    let mut cm = k8s_types::core::v1::ConfigMap::default();
    cm.set_group_version_kind(&GroupVersionKind::new("", "v1", "ConfigMap"));
    let r = s
        .request(
            "DELETE",
            &format!("{PODS}/q"),
            &[("Content-Type", "application/vnd.kubernetes.protobuf")],
            &encode_object(&cm).unwrap(),
        )
        .await;
    assert_eq!(r.status, 400, "{}", String::from_utf8_lossy(&r.body));
    assert!(
        r.json()["message"]
            .as_str()
            .unwrap()
            .contains(r#"not valid DeleteOptions: the envelope holds a "ConfigMap""#),
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_pod_with_finalizers_is_kept_after_a_zero_grace_period_until_they_are_gone() {
    let s = client::start().await;
    let mut p = pod("held", Some("node-1"), Some(30));
    p["metadata"]["finalizers"] = json!(["example.com/hold"]);
    create(&s, PODS, p).await;
    let path = format!("{PODS}/held");
    let r = s.delete(&format!("{path}?gracePeriodSeconds=0")).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(mark(&r.json()).1, 0);
    assert_eq!(s.get(&path).await.status, 200);
    let r = s
        .patch(
            &path,
            "application/merge-patch+json",
            &json!({"metadata": {"finalizers": null}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(s.get(&path).await.status, 404);
    s.server.shutdown().await;
}

/// Go's `ShouldDeleteDuringUpdate`: an update deletes an object being deleted only when
/// its grace period is over (none, or 0): a Pod its kubelet is still stopping takes its
/// status updates, finalizers or not.
#[tokio::test]
async fn a_pod_in_its_grace_period_is_kept_by_updates() {
    let s = client::start().await;
    let mut p = pod("stopping", Some("node-1"), Some(30));
    p["metadata"]["finalizers"] = json!(["example.com/hold"]);
    create(&s, PODS, p).await;
    let path = format!("{PODS}/stopping");
    let r = s.delete(&path).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(mark(&r.json()).1, 30);
    for (patch, at) in [
        (json!({"metadata": {"finalizers": null}}), path.clone()),
        (
            json!({"status": {"phase": "Running"}}),
            format!("{path}/status"),
        ),
    ] {
        let r = s.patch(&at, "application/merge-patch+json", &patch).await;
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        assert_eq!(s.get(&path).await.status, 200, "{patch}");
    }
    // The kubelet's delete ends it.
    let r = s.delete(&format!("{path}?gracePeriodSeconds=0")).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(s.get(&path).await.status, 404);
    s.server.shutdown().await;
}

#[tokio::test]
async fn orphan_dependents_false_answers_202_and_cannot_be_mixed_with_a_policy() {
    let s = client::start().await;
    let mut cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}});
    cm["metadata"]["finalizers"] = json!(["example.com/hold"]);
    create(&s, CM, cm).await;
    let path = format!("{CM}/c");
    let r = delete_with(
        &s,
        &path,
        json!({"orphanDependents": false, "propagationPolicy": "Foreground"}),
    )
    .await;
    assert_eq!(r.status, 422);
    assert_eq!(
        r.json()["message"],
        r#"DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set"#
    );
    let r = delete_with(&s, &path, json!({"orphanDependents": false})).await;
    assert_eq!(r.status, 202, "{}", String::from_utf8_lossy(&r.body));
    // Marking for finalizers: grace 0, and a new generation where there is one.
    assert_eq!(mark(&r.json()).1, 0);
    s.server.shutdown().await;
}
