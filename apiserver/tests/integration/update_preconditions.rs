//! The uid an update's body carries is a precondition, as Go's
//! `rest.DefaultUpdatedObjectInfo` makes it: a PUT (of the object or its `/status`)
//! naming another uid is a 409 Conflict with Go's storage error, checked before the
//! resourceVersion; patches, whose objects come from the stored one, take no precondition.
//! Where Go's strategy does not allow unconditional updates, a PUT must name a
//! resourceVersion.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::client::start;
use serde_json::json;

const OTHER: &str = "00000000-0000-0000-0000-000000000041";

#[tokio::test]
async fn a_put_naming_another_uid_is_a_conflict() {
    let s = start().await;
    let cms = "/api/v1/namespaces/default/configmaps";
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}, "data": {"k": "v"}});
    let created = s.send_json("POST", cms, &cm).await.json();
    let uid = created["metadata"]["uid"].as_str().unwrap().to_owned();

    // Another uid, even with a stale resourceVersion: the precondition comes first.
    let mut put = created.clone();
    put["metadata"]["uid"] = json!(OTHER);
    put["metadata"]["resourceVersion"] = json!("1");
    let r = s.send_json("PUT", &format!("{cms}/cm"), &put).await;
    assert_eq!(r.status, 409, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        r.json()["message"],
        format!(
            "Operation cannot be fulfilled on configmaps \"cm\": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/cm, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: {OTHER}, UID in object meta: {uid}"
        )
    );
    assert_eq!(r.json()["reason"], "Conflict");

    // The object's own uid, or none, is no obstacle.
    let mut put = created.clone();
    put["data"] = json!({"k": "w"});
    let r = s.send_json("PUT", &format!("{cms}/cm"), &put).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let mut put = r.json();
    put["metadata"].as_object_mut().unwrap().remove("uid");
    let r = s.send_json("PUT", &format!("{cms}/cm"), &put).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["metadata"]["uid"], json!(uid));

    // A merge patch changing the uid meets validation (the uid is immutable), not a
    // precondition.
    let r = s
        .patch(
            &format!("{cms}/cm"),
            "application/merge-patch+json",
            &json!({"metadata": {"uid": OTHER}}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", String::from_utf8_lossy(&r.body));
    s.server.shutdown().await;
}

#[tokio::test]
async fn a_status_put_naming_another_uid_is_a_conflict() {
    let s = start().await;
    let pdbs = "/apis/policy/v1/namespaces/default/poddisruptionbudgets";
    let pdb = json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "pdb"},
        "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "web"}}}});
    let created = s.send_json("POST", pdbs, &pdb).await.json();
    let uid = created["metadata"]["uid"].as_str().unwrap().to_owned();
    let mut put = created.clone();
    put["metadata"]["uid"] = json!(OTHER);
    let r = s
        .send_json("PUT", &format!("{pdbs}/pdb/status"), &put)
        .await;
    assert_eq!(r.status, 409, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        r.json()["message"],
        format!(
            "Operation cannot be fulfilled on poddisruptionbudgets.policy \"pdb\": StorageError: invalid object, Code: 4, Key: /registry/poddisruptionbudgets/default/pdb, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: {OTHER}, UID in object meta: {uid}"
        )
    );
    s.server.shutdown().await;
}

/// A kind whose Go strategy does not allow unconditional updates (PodDisruptionBudgets')
/// refuses a PUT of the object or of its `/status` naming no resourceVersion: 422 with
/// Go's store's words, the resource where the kind usually is. A patch, whose object
/// comes from the stored one, carries its resourceVersion and goes through.
#[tokio::test]
async fn a_put_without_resource_version_is_refused_where_go_requires_one() {
    let s = start().await;
    let pdbs = "/apis/policy/v1/namespaces/default/poddisruptionbudgets";
    let pdb = json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "pdb"},
        "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "web"}}}});
    let created = s.send_json("POST", pdbs, &pdb).await.json();
    let mut put = created.clone();
    put["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("resourceVersion");
    put["spec"]["minAvailable"] = json!(2);
    for path in [format!("{pdbs}/pdb"), format!("{pdbs}/pdb/status")] {
        let r = s.send_json("PUT", &path, &put).await;
        assert_eq!(r.status, 422, "{}", String::from_utf8_lossy(&r.body));
        let status = r.json();
        assert_eq!(
            status["message"],
            "poddisruptionbudgets.policy \"pdb\" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update"
        );
        assert_eq!(status["details"]["kind"], "poddisruptionbudgets");
        assert_eq!(status["details"]["group"], "policy");
    }
    put["metadata"]["resourceVersion"] = created["metadata"]["resourceVersion"].clone();
    let r = s.send_json("PUT", &format!("{pdbs}/pdb"), &put).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let r = s
        .patch(
            &format!("{pdbs}/pdb"),
            "application/merge-patch+json",
            &json!({"spec": {"minAvailable": 3}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    s.server.shutdown().await;
}
