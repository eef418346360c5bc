//! Built-in validation on the write path: creates, updates and patches of invalid
//! objects get kube-apiserver's 422 `Invalid` Status, every cause listed, and nothing
//! is stored.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::client;

use client::start;
use serde_json::{Value, json};

fn deployment(labels: Value) -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
        "spec": {
            "replicas": -1,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": labels},
                "spec": {"containers": [{"name": "web", "image": "nginx"}]},
            },
        },
    })
}

#[tokio::test]
async fn invalid_creates_get_422_with_every_cause_and_are_not_stored() {
    let s = start().await;
    let deployments = "/apis/apps/v1/namespaces/default/deployments";
    let r = s
        .send_json("POST", deployments, &deployment(json!({"app": "api"})))
        .await;
    assert_eq!(r.status, 422, "{}", String::from_utf8_lossy(&r.body));
    let status = r.json();
    assert_eq!(status["kind"], "Status");
    assert_eq!(status["reason"], "Invalid");
    assert_eq!(
        status["message"],
        "Deployment.apps \"web\" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.template.metadata.labels: Invalid value: {\"app\":\"api\"}: `selector` does not match template `labels`]"
    );
    assert_eq!(
        status["details"],
        json!({"name": "web", "group": "apps", "kind": "Deployment", "causes": [
            {"reason": "FieldValueInvalid", "message": "Invalid value: -1: must be greater than or equal to 0", "field": "spec.replicas"},
            {"reason": "FieldValueInvalid", "message": "Invalid value: {\"app\":\"api\"}: `selector` does not match template `labels`", "field": "spec.template.metadata.labels"},
        ]})
    );
    let got = s.get(&format!("{deployments}/web")).await;
    assert_eq!(got.status, 404);

    // A Pod without image, in the core group: the kind alone qualifies the message.
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "c"}]}});
    let r = s
        .send_json("POST", "/api/v1/namespaces/default/pods", &pod)
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(
        r.json()["message"],
        "Pod \"p\" is invalid: spec.containers[0].image: Required value"
    );
}

#[tokio::test]
async fn updates_and_patches_are_validated_against_the_stored_object() {
    let s = start().await;
    let deployments = "/apis/apps/v1/namespaces/default/deployments";
    let mut d = deployment(json!({"app": "web"}));
    d["spec"]["replicas"] = json!(2);
    let r = s.send_json("POST", deployments, &d).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));

    // The selector is immutable.
    let patch = json!({"spec": {"selector": {"matchLabels": {"app": "x"}},
        "template": {"metadata": {"labels": {"app": "x"}}}}});
    let r = s
        .patch(
            &format!("{deployments}/web"),
            "application/merge-patch+json",
            &patch,
        )
        .await;
    assert_eq!(r.status, 422, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        r.json()["message"],
        "Deployment.apps \"web\" is invalid: spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"x\"}}: field is immutable"
    );

    // A PUT with a bad replica count; the stored object is unchanged.
    let mut current = s.get(&format!("{deployments}/web")).await.json();
    current["spec"]["replicas"] = json!(-3);
    let r = s
        .send_json("PUT", &format!("{deployments}/web"), &current)
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["details"]["causes"][0]["field"], "spec.replicas");
    let stored = s.get(&format!("{deployments}/web")).await.json();
    assert_eq!(stored["spec"]["replicas"], 2);

    // A valid patch goes through.
    let r = s
        .patch(
            &format!("{deployments}/web"),
            "application/merge-patch+json",
            &json!({"spec": {"replicas": 3}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
}

#[tokio::test]
async fn status_writes_are_validated_by_the_kinds_status_rules() {
    let s = start().await;
    let rcs = "/api/v1/namespaces/default/replicationcontrollers";
    let rc = json!({"apiVersion": "v1", "kind": "ReplicationController",
        "metadata": {"name": "rc"},
        "spec": {"replicas": 1, "selector": {"app": "rc"},
            "template": {"metadata": {"labels": {"app": "rc"}},
                "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}});
    let r = s.send_json("POST", rcs, &rc).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));

    // Go's `ValidateReplicationControllerStatusUpdate`: counts not negative, none above
    // the replicas. Nothing of the refused write is stored.
    let status = format!("{rcs}/rc/status");
    let bad = json!({"status": {"replicas": 1, "readyReplicas": 2, "observedGeneration": -1}});
    let r = s.patch(&status, "application/merge-patch+json", &bad).await;
    assert_eq!(r.status, 422, "{}", String::from_utf8_lossy(&r.body));
    let got = r.json();
    assert_eq!(got["reason"], "Invalid");
    assert_eq!(
        got["message"],
        "ReplicationController \"rc\" is invalid: [status.observedGeneration: Invalid value: -1: must be greater than or equal to 0, status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas]"
    );
    let stored = s.get(&format!("{rcs}/rc")).await.json();
    assert_eq!(stored["status"].get("readyReplicas"), None, "{stored}");

    let good = json!({"status": {"replicas": 1, "readyReplicas": 1}});
    let r = s
        .patch(&status, "application/merge-patch+json", &good)
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["status"]["readyReplicas"], 1);

    // Go's `ValidateServiceStatusUpdate`: a load balancer's ingress only on a
    // LoadBalancer Service.
    let services = "/api/v1/namespaces/default/services";
    let svc = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "svc"},
        "spec": {"ports": [{"port": 80}]}});
    let r = s.send_json("POST", services, &svc).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let ingress = json!({"status": {"loadBalancer": {"ingress": [{"ip": "10.0.0.1"}]}}});
    let r = s
        .patch(
            &format!("{services}/svc/status"),
            "application/merge-patch+json",
            &ingress,
        )
        .await;
    assert_eq!(r.status, 422, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        r.json()["message"],
        "Service \"svc\" is invalid: status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'"
    );
}

/// The warnings recorded before a write is refused stay on the answer, as Go's warning
/// recorder keeps them: an unknown field warned of (`fieldValidation=Warn`) in a body
/// that validation then refuses.
#[tokio::test]
async fn decoding_warnings_stay_on_a_refused_write() {
    let s = start().await;
    let mut body = deployment(json!({"app": "web"}));
    body["spec"]["bogus"] = json!(1);
    let r = s
        .send_json(
            "POST",
            "/apis/apps/v1/namespaces/default/deployments?fieldValidation=Warn",
            &body,
        )
        .await;
    assert_eq!(r.status, 422, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        r.headers_named("warning"),
        [r#"299 - "unknown field \"spec.bogus\"""#]
    );
}
