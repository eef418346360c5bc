//! Built-in defaulting on the write path: objects created through the in-process server
//! come back, and are stored, with Kubernetes 1.36's defaults, as kube-apiserver
//! stores them. What kube-apiserver sets outside its defaulters (a Service's allocated
//! `clusterIP`, `clusterIPs`, `ipFamilies` and `ipFamilyPolicy`, node ports) is not
//! made up here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::client;

use client::start;
use serde_json::{Value, json};

#[track_caller]
fn assert_at(v: &Value, expected: &[(&str, Value)]) {
    for (pointer, want) in expected {
        assert_eq!(v.pointer(pointer), Some(want), "at {pointer} in {v:#}");
    }
}

#[tokio::test]
async fn created_deployments_and_services_come_back_defaulted() {
    let s = start().await;
    let deployments = "/apis/apps/v1/namespaces/default/deployments";
    let d = json!({
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
        "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "nginx",
                    "ports": [{"containerPort": 80}],
                    "readinessProbe": {"httpGet": {"port": 80}}}]},
            },
        },
    });
    let r = s.send_json("POST", deployments, &d).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let expected = [
        ("/spec/replicas", json!(1)),
        (
            "/spec/strategy",
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}}),
        ),
        ("/spec/revisionHistoryLimit", json!(10)),
        ("/spec/progressDeadlineSeconds", json!(600)),
        ("/spec/template/spec/restartPolicy", json!("Always")),
        ("/spec/template/spec/dnsPolicy", json!("ClusterFirst")),
        (
            "/spec/template/spec/terminationGracePeriodSeconds",
            json!(30),
        ),
        (
            "/spec/template/spec/schedulerName",
            json!("default-scheduler"),
        ),
        ("/spec/template/spec/securityContext", json!({})),
        (
            "/spec/template/spec/containers/0/imagePullPolicy",
            json!("Always"),
        ),
        (
            "/spec/template/spec/containers/0/terminationMessagePath",
            json!("/dev/termination-log"),
        ),
        (
            "/spec/template/spec/containers/0/ports/0/protocol",
            json!("TCP"),
        ),
        (
            "/spec/template/spec/containers/0/readinessProbe/httpGet/scheme",
            json!("HTTP"),
        ),
        (
            "/spec/template/spec/containers/0/readinessProbe/periodSeconds",
            json!(10),
        ),
    ];
    assert_at(&r.json(), &expected);
    // Stored so: a GET returns the same defaults.
    let got = s.get(&format!("{deployments}/web")).await;
    assert_eq!(got.status, 200);
    assert_at(&got.json(), &expected);

    // An object written in a served older version is defaulted by that version's
    // rules before conversion to storage, and reads back in the preferred one.
    let hpa = json!({
        "apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "web"},
        "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
                 "maxReplicas": 5},
    });
    let r = s
        .send_json(
            "POST",
            "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers",
            &hpa,
        )
        .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    assert_at(&r.json(), &[("/spec/minReplicas", json!(1))]);
    let got = s
        .get("/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web")
        .await
        .json();
    assert_at(&got, &[("/spec/minReplicas", json!(1))]);

    let svc = json!({
        "apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"},
        "spec": {"selector": {"app": "web"}, "ports": [{"port": 80}]},
    });
    let r = s
        .send_json("POST", "/api/v1/namespaces/default/services", &svc)
        .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let v = r.json();
    assert_at(
        &v,
        &[
            ("/spec/type", json!("ClusterIP")),
            ("/spec/sessionAffinity", json!("None")),
            ("/spec/internalTrafficPolicy", json!("Cluster")),
            ("/spec/ports/0/protocol", json!("TCP")),
            ("/spec/ports/0/targetPort", json!(80)),
        ],
    );
    // Allocation is the Service storage's work (from the default 10.0.0.0/24), as in
    // kube-apiserver's registry.
    let ip = v
        .pointer("/spec/clusterIP")
        .and_then(|ip| ip.as_str())
        .unwrap_or_default();
    assert!(ip.starts_with("10.0.0."), "{v:#}");
    assert_eq!(v.pointer("/spec/clusterIPs"), Some(&json!([ip])), "{v:#}");
    assert_eq!(
        v.pointer("/spec/ipFamilyPolicy"),
        Some(&json!("SingleStack")),
        "{v:#}"
    );
    assert_eq!(
        v.pointer("/spec/ipFamilies"),
        Some(&json!(["IPv4"])),
        "{v:#}"
    );
}
