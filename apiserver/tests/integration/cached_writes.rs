//! Writes that start from the watch cache's object (Go's `GuaranteedUpdate` with a cached
//! object): one compare-and-swap and no storage read when the cache is current, and the
//! same answers as from the storage when the cache is behind.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use apiserver::storage::{
    Deleted, KeyValue, ListOptions, ListResult, MemoryStorage, Storage, StorageError, WatchStream,
};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::sync::RwLock;

use crate::client::{self, TestServer};

const CM: &str = "/api/v1/namespaces/default/configmaps";

/// A memory storage whose watch events wait while the gate is held for writing (a
/// watch cache that has fallen behind), which counts the reads of single ConfigMaps and
/// of single Namespaces and the updates, and which, while `lose_answers` is set, applies
/// an update and then answers as a storage that did not answer in time (etcd paused
/// right after it committed).
#[derive(Debug, Default)]
struct GatedStorage {
    inner: MemoryStorage,
    gate: Arc<RwLock<()>>,
    gets: AtomicUsize,
    namespace_gets: AtomicUsize,
    updates: AtomicUsize,
    lose_answers: AtomicBool,
}

#[async_trait::async_trait]
impl Storage for GatedStorage {
    async fn get(&self, key: &str) -> Result<Option<KeyValue>, StorageError> {
        if key.starts_with("/registry/configmaps/") {
            self.gets.fetch_add(1, Ordering::SeqCst);
        }
        if key.starts_with("/registry/namespaces/") {
            self.namespace_gets.fetch_add(1, Ordering::SeqCst);
        }
        self.inner.get(key).await
    }
    async fn list(&self, prefix: &str, options: &ListOptions) -> Result<ListResult, StorageError> {
        self.inner.list(prefix, options).await
    }
    async fn create(&self, key: &str, value: bytes::Bytes) -> Result<KeyValue, StorageError> {
        self.inner.create(key, value).await
    }
    async fn update(
        &self,
        key: &str,
        value: bytes::Bytes,
        expected: i64,
    ) -> Result<KeyValue, StorageError> {
        self.updates.fetch_add(1, Ordering::SeqCst);
        let written = self.inner.update(key, value, expected).await?;
        if self.lose_answers.load(Ordering::SeqCst) {
            return Err(StorageError::Unavailable {
                backend: "gated".into(),
                message: "no answer within 10s".into(),
            });
        }
        Ok(written)
    }
    async fn delete(&self, key: &str, expected: Option<i64>) -> Result<Deleted, StorageError> {
        self.inner.delete(key, expected).await
    }
    async fn watch(&self, prefix: &str, from: i64) -> Result<WatchStream, StorageError> {
        let gate = self.gate.clone();
        let inner = self.inner.watch(prefix, from).await?;
        Ok(inner
            .then(move |item| {
                let gate = gate.clone();
                async move {
                    let _open = gate.read().await;
                    item
                }
            })
            .boxed())
    }
    async fn current_revision(&self) -> Result<i64, StorageError> {
        self.inner.current_revision().await
    }
    fn follow_own_writes(&self, prefix: &str) -> std::sync::Arc<std::sync::atomic::AtomicI64> {
        self.inner.follow_own_writes(prefix)
    }
    async fn compact(&self, revision: i64) -> Result<(), StorageError> {
        self.inner.compact(revision).await
    }
}

fn rv(v: &Value) -> String {
    v["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Waits until the watch cache serves `name` at `want` (`resourceVersion=0` reads it).
async fn cache_reaches(s: &TestServer, name: &str, want: &str) {
    loop {
        let r = s.get(&format!("{CM}/{name}?resourceVersion=0")).await;
        if r.status == 200 && rv(&r.json()) == want {
            return;
        }
        tokio::task::yield_now().await;
    }
}

async fn setup() -> (TestServer, Arc<GatedStorage>, String) {
    let storage = Arc::new(GatedStorage::default());
    let s = client::start_with(storage.clone()).await;
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
                    "metadata": {"name": "c"}, "data": {"a": "1"}});
    let r = s.send_json("POST", CM, &cm).await;
    assert_eq!(r.status, 201);
    let created = rv(&r.json());
    cache_reaches(&s, "c", &created).await;
    (s, storage, created)
}

#[tokio::test]
async fn with_a_current_cache_a_patch_and_a_delete_read_nothing_from_storage() {
    let (s, storage, _) = setup().await;
    let before = storage.gets.load(Ordering::SeqCst);
    let r = s
        .patch(
            &format!("{CM}/c"),
            "application/merge-patch+json",
            &json!({"data": {"b": "2"}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(storage.gets.load(Ordering::SeqCst), before);
    let patched = rv(&r.json());
    cache_reaches(&s, "c", &patched).await;
    let before = storage.gets.load(Ordering::SeqCst);
    let r = s.delete(&format!("{CM}/c")).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(storage.gets.load(Ordering::SeqCst), before);
    assert_eq!(s.get(&format!("{CM}/c")).await.status, 404);
    s.server.shutdown().await;
}

#[tokio::test]
async fn with_a_cache_behind_writes_apply_to_the_storage_s_object() {
    let (s, storage, created) = setup().await;
    let path = format!("{CM}/c");
    // The cache stops seeing writes.
    let held = storage.gate.write().await;
    let r = s
        .patch(
            &path,
            "application/merge-patch+json",
            &json!({"data": {"b": "2"}}),
        )
        .await;
    assert_eq!(r.status, 200);
    let second = rv(&r.json());
    // resourceVersion=0 is the cache's (older) object; a plain get the storage's.
    assert_eq!(
        rv(&s.get(&format!("{path}?resourceVersion=0")).await.json()),
        created
    );
    assert_eq!(rv(&s.get(&path).await.json()), second);

    // A patch on the cached object would lose "b": it is redone on the storage's.
    let r = s
        .patch(
            &path,
            "application/merge-patch+json",
            &json!({"data": {"c": "3"}}),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["data"], json!({"a": "1", "b": "2", "c": "3"}));
    let third = rv(&r.json());

    // An update carrying the storage's resourceVersion applies; the cache's is stale.
    let mut current = s.get(&path).await.json();
    current["data"]["d"] = json!("4");
    let r = s.send_json("PUT", &path, &current).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let fourth = rv(&r.json());
    assert_ne!(fourth, third);
    current["metadata"]["resourceVersion"] = json!(created);
    assert_eq!(s.send_json("PUT", &path, &current).await.status, 409);

    // A no-op patch answers the storage's object, not the cache's.
    let r = s
        .patch(
            &path,
            "application/merge-patch+json",
            &json!({"data": {"a": "1"}}),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(rv(&r.json()), fourth);

    // A delete with the storage's resourceVersion as precondition applies.
    let body = serde_json::to_vec(&json!({"preconditions": {"resourceVersion": fourth}})).unwrap();
    let r = s
        .request(
            "DELETE",
            &path,
            &[("Content-Type", "application/json")],
            &body,
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(s.get(&path).await.status, 404);
    drop(held);
    s.server.shutdown().await;
}

#[tokio::test]
async fn the_namespace_check_reads_the_cache_and_the_storage_when_it_must() {
    let (s, storage, _) = setup().await;
    // With the namespaces' cache current, a create and a patch read no namespace.
    let before = storage.namespace_gets.load(Ordering::SeqCst);
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "d"}});
    assert_eq!(s.send_json("POST", CM, &cm).await.status, 201);
    let r = s
        .patch(
            &format!("{CM}/d"),
            "application/merge-patch+json",
            &json!({"data": {"b": "2"}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(storage.namespace_gets.load(Ordering::SeqCst), before);

    // A namespace the cache has not seen yet is read from the storage (Go's live
    // lookup) rather than refused.
    let held = storage.gate.write().await;
    // A finalizer of its own keeps it, terminating, once deleted.
    let ns = json!({"apiVersion": "v1", "kind": "Namespace",
                    "metadata": {"name": "fresh", "finalizers": ["example.com/hold"]}});
    assert_eq!(
        s.send_json("POST", "/api/v1/namespaces", &ns).await.status,
        201
    );
    let fresh = "/api/v1/namespaces/fresh/configmaps";
    let r = s.send_json("POST", fresh, &cm).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    assert!(storage.namespace_gets.load(Ordering::SeqCst) > before);
    drop(held);

    // Once the cache has it (a create reads no namespace), deleting it through this
    // server makes the next create in it read the storage, which says terminating,
    // though the cache does not know yet.
    for i in 0.. {
        let seen = storage.namespace_gets.load(Ordering::SeqCst);
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
                        "metadata": {"name": format!("w{i}")}});
        assert_eq!(s.send_json("POST", fresh, &cm).await.status, 201);
        if storage.namespace_gets.load(Ordering::SeqCst) == seen {
            break;
        }
        tokio::task::yield_now().await;
    }
    let held = storage.gate.write().await;
    let r = s.delete("/api/v1/namespaces/fresh").await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "e"}});
    let r = s.send_json("POST", fresh, &cm).await;
    assert_eq!(r.status, 403, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        r.json()["details"]["causes"][0]["reason"],
        "NamespaceTerminating"
    );
    drop(held);
    s.server.shutdown().await;
}

/// A write whose answer the storage lost (etcd paused right after it committed, so the
/// request timed out) may have happened: the client is told the storage's error, and the
/// write is neither retried into a 409 against the very object it wrote (a PUT) nor
/// applied a second time (a patch). Found by the fault runs of `history` (issue 48):
/// PUTs answered 409 whose values were then in the storage.
#[tokio::test]
async fn a_write_whose_answer_was_lost_is_not_retried() {
    let (s, storage, created) = setup().await;
    let path = format!("{CM}/c");
    let mut current = s.get(&path).await.json();
    assert_eq!(rv(&current), created);
    current["data"]["b"] = json!("2");
    storage.lose_answers.store(true, Ordering::SeqCst);
    let before = storage.updates.load(Ordering::SeqCst);
    let r = s.send_json("PUT", &path, &current).await;
    assert_eq!(r.status, 503, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(storage.updates.load(Ordering::SeqCst), before + 1);
    // It did happen.
    let stored = s.get(&path).await.json();
    assert_eq!(stored["data"]["b"], "2");

    let before = storage.updates.load(Ordering::SeqCst);
    let r = s
        .patch(
            &path,
            "application/merge-patch+json",
            &json!({"data": {"c": "3"}}),
        )
        .await;
    assert_eq!(r.status, 503, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        storage.updates.load(Ordering::SeqCst),
        before + 1,
        "the patch was written twice"
    );
    storage.lose_answers.store(false, Ordering::SeqCst);
    s.server.shutdown().await;
}
