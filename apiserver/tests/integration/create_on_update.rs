//! A PUT of a missing object creates it where Go's strategy allows it
//! (`AllowCreateOnUpdate`: Leases, LeaseCandidates, Events, Endpoints, Services,
//! LimitRanges, RuntimeClasses and the RBAC kinds), answered 201 with the server's system
//! fields; elsewhere it is a 404. A uid in the body is a precondition no missing object
//! meets. (The server differential compares the same requests with kube-apiserver.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::client::start;
use serde_json::json;

#[tokio::test]
async fn a_put_creates_a_missing_lease_and_not_a_missing_configmap() {
    let s = start().await;
    let leases = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
    let lease = json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
        "metadata": {"name": "leader", "resourceVersion": "12345", "uid": "",
            "creationTimestamp": "2020-01-01T00:00:00Z"},
        "spec": {"holderIdentity": "a"}});
    let r = s
        .send_json("PUT", &format!("{leases}/leader"), &lease)
        .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let created = r.json();
    assert_eq!(created["spec"]["holderIdentity"], "a");
    assert_ne!(created["metadata"]["resourceVersion"], "12345");
    assert_ne!(
        created["metadata"]["creationTimestamp"],
        "2020-01-01T00:00:00Z"
    );
    assert!(!created["metadata"]["uid"].as_str().unwrap().is_empty());
    let r = s.get(&format!("{leases}/leader")).await;
    assert_eq!(r.status, 200);

    // Go's Lease strategy updates only at a named resourceVersion.
    let mut put = created.clone();
    put["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("resourceVersion");
    let r = s.send_json("PUT", &format!("{leases}/leader"), &put).await;
    assert_eq!(r.status, 422, "{}", String::from_utf8_lossy(&r.body));
    let r = s
        .send_json("PUT", &format!("{leases}/leader"), &created)
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));

    // A uid names an object that is not there: Go's storage precondition.
    let with_uid = json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
        "metadata": {"name": "other", "uid": "00000000-0000-0000-0000-000000000045"}});
    let r = s
        .send_json("PUT", &format!("{leases}/other"), &with_uid)
        .await;
    assert_eq!(r.status, 409, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        r.json()["message"],
        "Operation cannot be fulfilled on leases.coordination.k8s.io \"other\": StorageError: invalid object, Code: 4, Key: /registry/leases/default/other, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 00000000-0000-0000-0000-000000000045, UID in object meta: "
    );

    // A dry run creates nothing.
    let dry = json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "dry"}});
    let r = s
        .send_json("PUT", &format!("{leases}/dry?dryRun=All"), &dry)
        .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(s.get(&format!("{leases}/dry")).await.status, 404);

    let cms = "/api/v1/namespaces/default/configmaps";
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "none"}});
    let r = s.send_json("PUT", &format!("{cms}/none"), &cm).await;
    assert_eq!(r.status, 404, "{}", String::from_utf8_lossy(&r.body));
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_put_of_a_missing_services_status_creates_it_without_a_cluster_ip() {
    let s = start().await;
    let services = "/api/v1/namespaces/default/services";
    let svc = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"},
        "spec": {"ports": [{"port": 80}]}});
    let r = s.send_json("PUT", &format!("{services}/web"), &svc).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    assert!(r.json()["spec"]["clusterIP"].is_string());
    // Go's status store has no BeginCreate: no IP is allocated.
    let gone = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "gone"},
        "spec": {"ports": [{"port": 80}]}});
    let r = s
        .send_json("PUT", &format!("{services}/gone/status"), &gone)
        .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    assert!(r.json()["spec"].get("clusterIP").is_none());
    s.server.shutdown().await;
}
