use std::sync::Arc;

use serde_json::{Value, json};

use super::*;
use crate::registry::from_value;
use crate::storage::MemoryStorage;

fn scheme() -> Arc<Scheme> {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    Arc::new(scheme)
}

struct Fixture {
    scheme: Arc<Scheme>,
    storage: Arc<dyn Storage>,
    rbac: Arc<Rbac>,
}

impl Fixture {
    fn new() -> Fixture {
        Fixture::on(Arc::new(MemoryStorage::new()))
    }

    /// The authorizer over `storage`.
    fn on(storage: Arc<dyn Storage>) -> Fixture {
        let scheme = scheme();
        let rbac = Rbac::new(scheme.clone(), storage.clone());
        Fixture {
            scheme,
            storage,
            rbac,
        }
    }

    fn store(&self, resource: &str) -> Store {
        let resources = resources_from_scheme(&self.scheme);
        let info = resources
            .get(&(policy::GROUP.to_owned(), resource.to_owned()))
            .unwrap()
            .clone();
        store(&self.scheme, &self.storage, info)
    }

    async fn create(&self, resource: &str, namespace: &str, value: Value) {
        let store = self.store(resource);
        let obj = from_value(&self.scheme, &store.info().storage_gvk, value).unwrap();
        store.create(namespace, obj, false).await.unwrap();
    }

    async fn delete(&self, resource: &str, namespace: &str, name: &str) {
        self.store(resource)
            .delete(namespace, name, &crate::registry::DeleteParams::default())
            .await
            .unwrap();
    }
}

fn get(user: &str, resource: &str, namespace: &str) -> Attributes {
    Attributes {
        user: Info {
            name: user.into(),
            groups: vec!["system:authenticated".into()],
            ..Info::default()
        },
        verb: "get".into(),
        resource_request: true,
        namespace: namespace.into(),
        api_version: "v1".into(),
        resource: resource.into(),
        name: "x".into(),
        ..Attributes::default()
    }
}

#[tokio::test]
async fn a_binding_is_in_force_for_the_very_next_decision_and_gone_after_its_delete() {
    let f = Fixture::new();
    f.create(
        "roles",
        "a",
        json!({"metadata": {"name": "reader"}, "rules": [{"verbs": ["get"], "apiGroups": [""], "resources": ["secrets"]}]}),
    )
    .await;
    assert_eq!(
        f.rbac.authorize(&get("alice", "secrets", "a")).await.0,
        Decision::NoOpinion
    );
    f.create(
        "rolebindings",
        "a",
        json!({"metadata": {"name": "alice"}, "roleRef": {"apiGroup": policy::GROUP, "kind": "Role", "name": "reader"},
               "subjects": [{"kind": "User", "apiGroup": policy::GROUP, "name": "alice"}]}),
    )
    .await;
    let (decision, reason) = f.rbac.authorize(&get("alice", "secrets", "a")).await;
    assert_eq!(decision, Decision::Allow);
    assert_eq!(
        reason,
        r#"RBAC: allowed by RoleBinding "alice/a" of Role "reader" to User "alice""#
    );
    assert_eq!(
        f.rbac.authorize(&get("alice", "secrets", "b")).await.0,
        Decision::NoOpinion
    );
    assert_eq!(
        f.rbac.authorize(&get("alice", "secrets", "")).await.0,
        Decision::NoOpinion
    );
    assert_eq!(
        f.rbac.authorize(&get("bob", "secrets", "a")).await.0,
        Decision::NoOpinion
    );
    f.delete("rolebindings", "a", "alice").await;
    assert_eq!(
        f.rbac.authorize(&get("alice", "secrets", "a")).await.0,
        Decision::NoOpinion
    );
}

/// The same promise on the embedded database, whose watch is fed after its commits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_binding_is_in_force_at_once_on_redb_too() {
    let dir = std::env::temp_dir().join(format!("rbac-redb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let storage: Arc<dyn Storage> =
        Arc::new(crate::storage::RedbStorage::open(dir.join("data.redb")).unwrap());
    let f = Fixture::on(storage);
    f.create(
        "clusterroles",
        "",
        json!({"metadata": {"name": "pod-reader"}, "rules": [{"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]}]}),
    )
    .await;
    for i in 0..20 {
        let user = format!("user-{i}");
        f.create(
            "rolebindings",
            "a",
            json!({"metadata": {"name": user}, "roleRef": {"apiGroup": policy::GROUP, "kind": "ClusterRole", "name": "pod-reader"},
                   "subjects": [{"kind": "User", "apiGroup": policy::GROUP, "name": user}]}),
        )
        .await;
        assert_eq!(
            f.rbac.authorize(&get(&user, "pods", "a")).await.0,
            Decision::Allow,
            "{user}"
        );
    }
    drop(f);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_binding_to_a_missing_role_refuses_with_gos_reason() {
    let f = Fixture::new();
    f.create(
        "clusterrolebindings",
        "",
        json!({"metadata": {"name": "dangling"}, "roleRef": {"apiGroup": policy::GROUP, "kind": "ClusterRole", "name": "nope"},
               "subjects": [{"kind": "Group", "apiGroup": policy::GROUP, "name": "system:authenticated"}]}),
    )
    .await;
    let (decision, reason) = f.rbac.authorize(&get("alice", "pods", "a")).await;
    assert_eq!(decision, Decision::NoOpinion);
    assert_eq!(
        reason,
        r#"RBAC: clusterrole.rbac.authorization.k8s.io "nope" not found"#
    );
}

#[tokio::test]
async fn service_accounts_are_matched_by_their_user_name() {
    let f = Fixture::new();
    f.create(
        "clusterroles",
        "",
        json!({"metadata": {"name": "pod-reader"}, "rules": [{"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]}]}),
    )
    .await;
    f.create(
        "rolebindings",
        "ci",
        json!({"metadata": {"name": "builder"}, "roleRef": {"apiGroup": policy::GROUP, "kind": "ClusterRole", "name": "pod-reader"},
               "subjects": [{"kind": "ServiceAccount", "name": "builder"}]}),
    )
    .await;
    let (decision, reason) = f
        .rbac
        .authorize(&get("system:serviceaccount:ci:builder", "pods", "ci"))
        .await;
    assert_eq!(decision, Decision::Allow, "{reason}");
    assert_eq!(
        reason,
        r#"RBAC: allowed by RoleBinding "builder/ci" of ClusterRole "pod-reader" to ServiceAccount "builder/ci""#
    );
    assert_eq!(
        f.rbac
            .authorize(&get("system:serviceaccount:other:builder", "pods", "ci"))
            .await
            .0,
        Decision::NoOpinion
    );
}

#[tokio::test]
async fn aggregated_roles_grant_at_once_and_their_stored_rules_follow() {
    let f = Fixture::new();
    f.create(
        "clusterroles",
        "",
        json!({"metadata": {"name": "monitoring"}, "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"example.com/aggregate-to-monitoring": "true"}}]}}),
    )
    .await;
    f.create(
        "clusterrolebindings",
        "",
        json!({"metadata": {"name": "alice-monitors"}, "roleRef": {"apiGroup": policy::GROUP, "kind": "ClusterRole", "name": "monitoring"},
               "subjects": [{"kind": "User", "apiGroup": policy::GROUP, "name": "alice"}]}),
    )
    .await;
    assert_eq!(
        f.rbac.authorize(&get("alice", "pods", "a")).await.0,
        Decision::NoOpinion
    );
    f.create(
        "clusterroles",
        "",
        json!({"metadata": {"name": "pod-reader", "labels": {"example.com/aggregate-to-monitoring": "true"}},
               "rules": [{"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]}]}),
    )
    .await;
    assert_eq!(
        f.rbac.authorize(&get("alice", "pods", "a")).await.0,
        Decision::Allow
    );
    // The aggregation controller's write reaches the stored role.
    let store = f.store("clusterroles");
    let mut stored = Value::Null;
    for _ in 0..1000 {
        let obj = store.get("", "monitoring").await.unwrap();
        stored = crate::registry::to_json(&*obj).unwrap();
        if stored
            .get("rules")
            .is_some_and(|r| r.as_array().is_some_and(|a| !a.is_empty()))
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        stored["rules"],
        json!([{"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]}])
    );
}

#[tokio::test]
async fn the_index_starts_from_what_is_stored() {
    let scheme = scheme();
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
    bootstrap::ensure(&scheme, &storage).await.unwrap();
    let rbac = Rbac::new(scheme, storage);
    let anonymous = Attributes::for_path(Info::anonymous(), "GET", "/healthz");
    let (decision, reason) = rbac.authorize(&anonymous).await;
    assert_eq!(decision, Decision::Allow);
    assert_eq!(
        reason,
        r#"RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:unauthenticated""#
    );
    let apis = Attributes::for_path(Info::anonymous(), "GET", "/apis");
    assert_eq!(rbac.authorize(&apis).await.0, Decision::NoOpinion);
    assert!(rbac.len().await >= bootstrap::cluster_roles().len());
}

#[test]
fn aggregated_errors_read_as_gos() {
    assert_eq!(aggregate_errors(&["a".into()]), "a");
    assert_eq!(
        aggregate_errors(&["a".into(), "b".into(), "a".into()]),
        "[a, b]"
    );
}

/// Watches that end after one event, as a backend's do when it cannot keep up or loses
/// its connection.
fn short(events: crate::storage::WatchStream, _lean: bool) -> crate::storage::WatchStream {
    Box::pin(events.take(1))
}

#[tokio::test]
async fn the_index_lists_again_when_its_watch_ends_and_misses_nothing() {
    let storage: Arc<dyn Storage> = Arc::new(crate::storage::testing::ReshapedWatches::new(short));
    let f = Fixture::on(storage);
    f.create(
        "clusterroles",
        "",
        json!({"metadata": {"name": "pod-reader"}, "rules": [{"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]}]}),
    )
    .await;
    for (i, user) in ["alice", "bob", "carol"].iter().enumerate() {
        f.create(
            "clusterrolebindings",
            "",
            json!({"metadata": {"name": format!("b{i}")}, "roleRef": {"apiGroup": policy::GROUP, "kind": "ClusterRole", "name": "pod-reader"},
                   "subjects": [{"kind": "User", "apiGroup": policy::GROUP, "name": user}]}),
        )
        .await;
        assert_eq!(
            f.rbac.authorize(&get(user, "pods", "a")).await.0,
            Decision::Allow,
            "{user}"
        );
    }
    f.delete("clusterrolebindings", "", "b1").await;
    assert_eq!(
        f.rbac.authorize(&get("bob", "pods", "a")).await.0,
        Decision::NoOpinion
    );
    assert_eq!(
        f.rbac.authorize(&get("carol", "pods", "a")).await.0,
        Decision::Allow
    );
}

#[tokio::test]
async fn the_index_watches_rbacs_kinds_only_and_decides_without_asking_the_store() {
    let observed = Arc::new(crate::storage::testing::ReshapedWatches::new(|w, _| w));
    let storage: Arc<dyn Storage> = observed.clone();
    let f = Fixture::on(storage);
    f.create(
        "clusterroles",
        "",
        json!({"metadata": {"name": "pod-reader"}, "rules": [{"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]}]}),
    )
    .await;
    f.create(
        "clusterrolebindings",
        "",
        json!({"metadata": {"name": "b"}, "roleRef": {"apiGroup": policy::GROUP, "kind": "ClusterRole", "name": "pod-reader"},
               "subjects": [{"kind": "User", "apiGroup": policy::GROUP, "name": "alice"}]}),
    )
    .await;
    assert_eq!(
        f.rbac.authorize(&get("alice", "pods", "a")).await.0,
        Decision::Allow
    );
    let reads = observed
        .revision_reads
        .load(std::sync::atomic::Ordering::Relaxed);
    for _ in 0..10 {
        assert_eq!(
            f.rbac.authorize(&get("alice", "pods", "a")).await.0,
            Decision::Allow
        );
    }
    assert_eq!(
        observed
            .revision_reads
            .load(std::sync::atomic::Ordering::Relaxed),
        reads,
        "a decision asked the store for its revision"
    );
    let mut watched = observed.watched.lock().unwrap().clone();
    watched.sort();
    assert_eq!(
        watched,
        [
            "/registry/clusterrolebindings/",
            "/registry/clusterroles/",
            "/registry/rolebindings/",
            "/registry/roles/"
        ]
    );
}
