//! The server on the persistent backends: a redb file that outlives the server, and etcd
//! with kube-apiserver's keys and values (read back with etcdctl), unreachable and back.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::client;
use crate::support;

use std::sync::Arc;

use apiserver::storage::RedbStorage;
use serde_json::json;
use support::TempDir;

const DEPLOY: &str = "/apis/apps/v1/namespaces/default/deployments";

fn deployment() -> serde_json::Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
        "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
                 "template": {"metadata": {"labels": {"app": "web"}},
                              "spec": {"containers": [{"name": "c", "image": "nginx"}]}}},
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn objects_outlive_the_server_in_a_redb_file() {
    let dir = TempDir::new("server-redb");
    let path = dir.0.join("data.redb");
    let s = client::start_with(Arc::new(RedbStorage::open(&path).unwrap())).await;
    let r = s.send_json("POST", DEPLOY, &deployment()).await;
    assert_eq!(r.status, 201);
    let rv = r.json()["metadata"]["resourceVersion"].clone();
    s.server.shutdown().await;
    drop(s.storage);

    let s = client::start_with(Arc::new(RedbStorage::open(&path).unwrap())).await;
    let got = s.get(&format!("{DEPLOY}/web")).await.json();
    assert_eq!(
        (
            got["metadata"]["resourceVersion"].clone(),
            got["spec"]["replicas"].clone()
        ),
        (rv, json!(2))
    );
    let namespaces = s.get("/api/v1/namespaces").await.json();
    assert_eq!(namespaces["items"].as_array().unwrap().len(), 4);
    s.server.shutdown().await;
}

fn etcdctl(etcd: &support::Etcd, args: &[&str]) -> Vec<u8> {
    let out = std::process::Command::new("etcdctl")
        .env("ETCDCTL_API", "3")
        .arg(format!("--endpoints={}", etcd.endpoint))
        .args(args)
        .output()
        .expect("etcdctl runs");
    assert!(
        out.status.success(),
        "etcdctl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn etcd_holds_kube_apiservers_layout_and_the_server_recovers_when_etcd_returns() {
    use std::time::Duration;

    use apimachinery::serializer::PROTOBUF_MAGIC;
    use apiserver::storage::EtcdStorage;
    use support::Etcd;

    let Some(mut etcd) = Etcd::start().await else {
        return;
    };
    let storage = EtcdStorage::connect_with_timeout(&[&etcd.endpoint], Duration::from_secs(2))
        .await
        .unwrap();
    let s = client::start_with(Arc::new(storage)).await;
    let r = s.send_json("POST", DEPLOY, &deployment()).await;
    assert_eq!(r.status, 201);
    // kube-apiserver's key and value: the k8s\0 envelope of apps/v1 Deployment.
    let value = etcdctl(
        &etcd,
        &[
            "get",
            "/registry/deployments/default/web",
            "--print-value-only",
        ],
    );
    assert!(value.starts_with(PROTOBUF_MAGIC.as_slice()), "{value:?}");
    let keys = String::from_utf8(etcdctl(
        &etcd,
        &["get", "/registry/namespaces/", "--prefix", "--keys-only"],
    ))
    .unwrap();
    assert!(keys.contains("/registry/namespaces/kube-system"), "{keys}");
    // resourceVersion is etcd's mod revision.
    let rev = etcdctl(
        &etcd,
        &["get", "/registry/deployments/default/web", "-w", "json"],
    );
    let rev: serde_json::Value = serde_json::from_slice(&rev).unwrap();
    assert_eq!(
        rev["kvs"][0]["mod_revision"].as_i64().unwrap().to_string(),
        r.json()["metadata"]["resourceVersion"]
    );

    let ready = s.get("/readyz?verbose").await;
    assert_eq!(ready.status, 200);
    assert!(String::from_utf8_lossy(&ready.body).contains("[+]etcd ok\n"));

    // etcd down: a 5xx Status, and the server is neither ready nor live; back: served
    // again, and ready.
    etcd.stop();
    let r = s.get(&format!("{DEPLOY}/web")).await;
    assert!(r.status >= 500, "{}", r.status);
    assert_eq!(r.json()["kind"], "Status");
    let ready = s.get("/readyz").await;
    let body = String::from_utf8_lossy(&ready.body).into_owned();
    assert_eq!(ready.status, 500, "{body}");
    assert!(
        body.contains("[-]etcd failed: reason withheld\n")
            && body.contains("[-]etcd-readiness failed: reason withheld\n")
            && body.ends_with("readyz check failed\n"),
        "{body}"
    );
    let etcd_check = s.get("/readyz/etcd").await;
    assert_eq!(etcd_check.status, 500);
    assert!(String::from_utf8_lossy(&etcd_check.body).starts_with("internal server error: "));
    assert_eq!(s.get("/livez").await.status, 500);
    assert_eq!(
        s.get("/readyz?exclude=etcd&exclude=etcd-readiness")
            .await
            .status,
        200
    );
    etcd.run().await;
    let mut last = 0;
    for _ in 0..50 {
        last = s.get(&format!("{DEPLOY}/web")).await.status;
        if last == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(last, 200);
    assert_eq!(s.get("/readyz").await.status, 200);
    s.server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn custom_resources_on_etcd_are_json_at_kube_apiservers_key_and_two_servers_agree() {
    use std::time::Duration;

    use apiserver::storage::EtcdStorage;
    use support::Etcd;

    let Some(etcd) = Etcd::start().await else {
        return;
    };
    let connect = || async {
        Arc::new(
            EtcdStorage::connect_with_timeout(&[&etcd.endpoint], Duration::from_secs(2))
                .await
                .unwrap(),
        )
    };
    let a = client::start_with(connect().await).await;
    let b = client::start_with(connect().await).await;
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
                 "names": {"plural": "widgets", "kind": "Widget"},
                 "versions": [{"name": "v1", "served": true, "storage": true,
                               "schema": {"openAPIV3Schema": {"type": "object",
                                   "x-kubernetes-preserve-unknown-fields": true}}}]},
    });
    let r = a
        .send_json(
            "POST",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            &crd,
        )
        .await;
    assert_eq!(r.status, 201);
    let widgets = "/apis/example.com/v1/namespaces/default/widgets";
    let mut status = 0;
    for _ in 0..100 {
        status = b.get(widgets).await.status;
        if status == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(status, 200, "the other server serves the CRD");
    let r = b
        .send_json(
            "POST",
            widgets,
            &json!({"apiVersion": "example.com/v1", "kind": "Widget",
                    "metadata": {"name": "w"}, "spec": {"size": 1}}),
        )
        .await;
    assert_eq!(r.status, 201);
    let value = etcdctl(
        &etcd,
        &[
            "get",
            "/registry/example.com/widgets/default/w",
            "--print-value-only",
        ],
    );
    let stored: serde_json::Value = serde_json::from_slice(&value).unwrap();
    assert_eq!(stored["apiVersion"], "example.com/v1");
    assert_eq!(stored["spec"]["size"], 1);
    assert_eq!(
        a.get(&format!("{widgets}/w")).await.json()["spec"]["size"],
        1
    );
    a.server.shutdown().await;
    b.server.shutdown().await;
}
