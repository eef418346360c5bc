use std::sync::Arc;

use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::GroupVersion;
use serde_json::{Value, json};

use super::*;
use crate::authorization::{Named, PrivilegedGroups, Union};
use crate::registry::{from_value, resources_from_scheme};
use crate::storage::{MemoryStorage, Storage};

struct Fixture {
    scheme: Arc<Scheme>,
    storage: Arc<dyn Storage>,
    check: EscalationCheck,
}

impl Fixture {
    async fn new() -> Fixture {
        let mut scheme = Scheme::new();
        k8s_types::register(&mut scheme).unwrap();
        let scheme = Arc::new(scheme);
        let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
        let rbac = Rbac::new(scheme.clone(), storage.clone());
        let authorizer: Arc<dyn Authorizer> = Arc::new(
            Union::new(vec![
                Named::new(Named::PRIVILEGED_GROUPS, Arc::new(PrivilegedGroups)),
                Named::new("rbac", rbac.clone()),
            ])
            .unwrap(),
        );
        let f = Fixture {
            scheme,
            storage,
            check: EscalationCheck::new(rbac, authorizer),
        };
        // alice may read and write roles in `a`, and read pods there.
        f.store(
            "roles",
            "a",
            json!({"metadata": {"name": "role-writer"}, "rules": [
                {"verbs": ["create", "update"], "apiGroups": [GROUP], "resources": ["roles", "rolebindings"]},
                {"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]}]}),
        )
        .await;
        f.store(
            "rolebindings",
            "a",
            json!({"metadata": {"name": "alice"}, "roleRef": {"apiGroup": GROUP, "kind": "Role", "name": "role-writer"},
                   "subjects": [{"kind": "User", "apiGroup": GROUP, "name": "alice"}]}),
        )
        .await;
        f
    }

    fn object(&self, resource: &str, value: Value) -> Box<dyn Object> {
        let resources = resources_from_scheme(&self.scheme);
        let info = &resources[&(GROUP.to_owned(), resource.to_owned())];
        from_value(&self.scheme, &info.storage_gvk, value).unwrap()
    }

    async fn store(&self, resource: &str, namespace: &str, value: Value) {
        let resources = resources_from_scheme(&self.scheme);
        let info = resources[&(GROUP.to_owned(), resource.to_owned())].clone();
        let store = crate::authorization::rbac::store(&self.scheme, &self.storage, info);
        store
            .create(namespace, self.object(resource, value), false)
            .await
            .unwrap();
    }

    fn attributes(
        &self,
        operation: Operation,
        user: Info,
        resource: &str,
        object: Value,
        old: Option<Value>,
    ) -> Attributes {
        let gv = GroupVersion::new(GROUP, "v1");
        Attributes {
            operation,
            user,
            kind: gv.with_kind("Role"),
            resource: gv.with_resource(resource),
            subresource: String::new(),
            namespace: "a".into(),
            name: "r".into(),
            object: Some(self.object(resource, object)),
            old_object: old.map(|o| self.object(resource, o)),
            dry_run: false,
            scheme: self.scheme.clone(),
            reports: Default::default(),
        }
    }
}

fn alice() -> Info {
    Info {
        name: "alice".into(),
        groups: vec!["system:authenticated".into()],
        ..Info::default()
    }
}

fn role(verbs: &[&str]) -> Value {
    json!({"metadata": {"name": "r", "namespace": "a"}, "rules": [{"verbs": verbs, "apiGroups": [""], "resources": ["pods"]}]})
}

#[tokio::test]
async fn roles_within_the_writers_rights_pass_and_others_are_refused_with_gos_message() {
    let f = Fixture::new().await;
    let ok = f.attributes(Operation::Create, alice(), "roles", role(&["get"]), None);
    f.check.validate(&ok).await.unwrap();
    let greedy = f.attributes(
        Operation::Create,
        alice(),
        "roles",
        role(&["get", "delete"]),
        None,
    );
    let err = f.check.validate(&greedy).await.unwrap_err();
    assert_eq!(err.code(), 403);
    assert_eq!(
        err.status.message,
        "roles.rbac.authorization.k8s.io \"r\" is forbidden: user \"alice\" (groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"delete\"]}"
    );
    // system:masters may grant anything.
    let root = Info {
        name: "root".into(),
        groups: vec![crate::authentication::user::SYSTEM_PRIVILEGED_GROUP.into()],
        ..Info::default()
    };
    let by_root = f.attributes(Operation::Create, root, "roles", role(&["*"]), None);
    f.check.validate(&by_root).await.unwrap();
}

#[tokio::test]
async fn updates_are_checked_unless_only_garbage_collector_fields_change() {
    let f = Fixture::new().await;
    // An existing role with more than alice holds (written by someone who could).
    let mut touched = role(&["get", "delete"]);
    touched["metadata"]["finalizers"] = json!(["example.com/keep"]);
    let gc_only = f.attributes(
        Operation::Update,
        alice(),
        "roles",
        touched,
        Some(role(&["get", "delete"])),
    );
    f.check.validate(&gc_only).await.unwrap();
    let mut relabelled = role(&["get", "delete"]);
    relabelled["metadata"]["labels"] = json!({"x": "y"});
    let changed = f.attributes(
        Operation::Update,
        alice(),
        "roles",
        relabelled,
        Some(role(&["get", "delete"])),
    );
    assert_eq!(f.check.validate(&changed).await.unwrap_err().code(), 403);
}

#[tokio::test]
async fn bindings_to_missing_roles_are_not_found_and_other_kinds_pass() {
    let f = Fixture::new().await;
    let binding = json!({"metadata": {"name": "b", "namespace": "a"},
        "roleRef": {"apiGroup": GROUP, "kind": "ClusterRole", "name": "nope"},
        "subjects": [{"kind": "User", "apiGroup": GROUP, "name": "bob"}]});
    let err = f
        .check
        .validate(&f.attributes(Operation::Create, alice(), "rolebindings", binding, None))
        .await
        .unwrap_err();
    assert_eq!(err.code(), 404);
    assert_eq!(
        err.status.message,
        "clusterroles.rbac.authorization.k8s.io \"nope\" not found"
    );
    assert!(!f.check.handles(Operation::Delete));
}
