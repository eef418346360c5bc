//! `ignoreStoreReadErrorWithClusterBreakingPotential`: deleting an object the storage
//! holds but cannot decode, as kube-apiserver 1.37 does (its
//! `AllowUnsafeMalformedObjectDeletion` gate is on; 1.36 drops the option). The
//! differential area `delete-options` compares the refusals with kube-apiserver; only
//! here is there a corrupt object, written straight into the storage.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::client::{self, TestServer};

use bytes::Bytes;
use serde_json::{Value, json};

const CM: &str = "/api/v1/namespaces/default/configmaps";
const BROKEN_KEY: &str = "/registry/configmaps/default/broken";

fn unsafe_delete(dry_run: bool) -> Value {
    let mut options = json!({
        "kind": "DeleteOptions",
        "apiVersion": "v1",
        "ignoreStoreReadErrorWithClusterBreakingPotential": true,
    });
    if dry_run {
        options["dryRun"] = json!(["All"]);
    }
    options
}

/// A server whose storage holds a ConfigMap `good` and, at a ConfigMap's key, bytes
/// that decode as nothing.
async fn with_corrupt_object() -> TestServer {
    let s = client::start().await;
    let good = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "good"}});
    assert_eq!(s.send_json("POST", CM, &good).await.status, 201);
    s.storage
        .create(BROKEN_KEY, Bytes::from_static(b"\x00not an object"))
        .await
        .unwrap();
    s
}

#[cfg(feature = "v1_37")]
#[tokio::test]
async fn a_corrupt_object_is_deleted_without_being_read() {
    let s = with_corrupt_object().await;
    let broken = format!("{CM}/broken");
    // What makes an unsafe delete needed: the object cannot be read, nor any list
    // that holds it.
    assert_eq!(s.get(&broken).await.status, 500);
    assert_eq!(s.get(CM).await.status, 500);

    // A dry run says the delete would go ahead, and leaves the bytes.
    let r = s.send_json("DELETE", &broken, &unsafe_delete(true)).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert!(s.storage.get(BROKEN_KEY).await.unwrap().is_some());

    // The delete: a Status naming the kind, as Go's handler fills one in.
    let r = s.send_json("DELETE", &broken, &unsafe_delete(false)).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let status = r.json();
    assert_eq!(status["status"], "Success");
    assert_eq!(status["code"], 200);
    assert_eq!(
        status["details"],
        json!({"name": "broken", "kind": "ConfigMap"})
    );
    assert!(s.storage.get(BROKEN_KEY).await.unwrap().is_none());
    let list = s.get(CM).await;
    assert_eq!(list.status, 200);
    assert_eq!(list.json()["items"].as_array().map(Vec::len), Some(1));

    // Once gone, 404; a decodable object is refused and kept.
    let r = s.send_json("DELETE", &broken, &unsafe_delete(false)).await;
    assert_eq!(r.status, 404);
    let r = s
        .send_json("DELETE", &format!("{CM}/good"), &unsafe_delete(false))
        .await;
    assert_eq!(r.status, 409);
    assert!(
        r.json()["message"].as_str().unwrap().ends_with(
            "unsafe deletion is not allowed because the object is decodable from storage"
        )
    );
    assert_eq!(s.get(&format!("{CM}/good")).await.status, 200);
}

#[cfg(not(feature = "v1_37"))]
#[tokio::test]
async fn kubernetes_1_36_drops_the_option() {
    let s = with_corrupt_object().await;
    // The option is not read: a decodable object is deleted as usual.
    let r = s
        .send_json("DELETE", &format!("{CM}/good"), &unsafe_delete(false))
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert!(s.storage.get(BROKEN_KEY).await.unwrap().is_some());
}
