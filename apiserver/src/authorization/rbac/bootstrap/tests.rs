use super::*;
use crate::registry::Store;
use crate::storage::MemoryStorage;

fn setup() -> (Arc<Scheme>, Arc<dyn Storage>, Store, Store) {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    let scheme = Arc::new(scheme);
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
    let resources = resources_from_scheme(&scheme);
    let store = |r: &str| {
        super::super::store(
            &scheme,
            &storage,
            resources[&(GROUP.to_owned(), r.to_owned())].clone(),
        )
    };
    let roles = store("clusterroles");
    let bindings = store("clusterrolebindings");
    (scheme, storage, roles, bindings)
}

async fn put(scheme: &Scheme, store: &Store, value: Value) {
    let obj = from_value(scheme, &store.info().storage_gvk, value).unwrap();
    store.create("", obj, false).await.unwrap();
}

async fn json_of(store: &Store, name: &str) -> Value {
    to_json(&*store.get("", name).await.unwrap()).unwrap()
}

#[tokio::test]
async fn every_default_role_and_binding_is_created_labelled_and_annotated() {
    let (scheme, storage, roles, bindings) = setup();
    let ensured = ensure(&scheme, &storage).await.unwrap();
    assert_eq!(
        ensured.created.len(),
        cluster_roles().len() + cluster_role_bindings().len()
    );
    let view = json_of(&roles, "view").await;
    assert_eq!(
        view["metadata"]["labels"]["kubernetes.io/bootstrapping"],
        "rbac-defaults"
    );
    assert_eq!(view["metadata"]["labels"][AGGREGATE_TO_EDIT], "true");
    assert_eq!(
        view["aggregationRule"]["clusterRoleSelectors"][0]["matchLabels"][AGGREGATE_TO_VIEW],
        "true"
    );
    let admin = json_of(&bindings, "cluster-admin").await;
    assert_eq!(admin["subjects"][0]["name"], "system:masters");
    assert_eq!(
        admin["metadata"]["annotations"][AUTOUPDATE_ANNOTATION.0],
        "true"
    );
}

#[tokio::test]
async fn existing_defaults_get_what_they_lack_unless_autoupdate_is_false() {
    let (scheme, storage, roles, bindings) = setup();
    // An older basic-user without the rules review, and a discovery role opted out.
    put(&scheme, &roles, json!({"metadata": {"name": "system:basic-user"}, "rules": [
        {"verbs": ["create"], "apiGroups": ["authorization.k8s.io"], "resources": ["selfsubjectaccessreviews"]},
        {"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]}]}))
    .await;
    put(
        &scheme,
        &roles,
        json!({"metadata": {"name": "system:discovery",
        "annotations": {AUTOUPDATE_ANNOTATION.0: "false"}}, "rules": []}),
    )
    .await;
    // cluster-admin bound to the wrong role, public-info-viewer to one group only.
    put(
        &scheme,
        &bindings,
        json!({"metadata": {"name": "cluster-admin"},
        "roleRef": {"apiGroup": GROUP, "kind": "ClusterRole", "name": "view"},
        "subjects": [{"kind": "Group", "apiGroup": GROUP, "name": "system:masters"}]}),
    )
    .await;
    put(
        &scheme,
        &bindings,
        json!({"metadata": {"name": "system:public-info-viewer"},
        "roleRef": {"apiGroup": GROUP, "kind": "ClusterRole", "name": "system:public-info-viewer"},
        "subjects": [{"kind": "Group", "apiGroup": GROUP, "name": "system:authenticated"}]}),
    )
    .await;
    let ensured = ensure(&scheme, &storage).await.unwrap();
    assert!(
        ensured
            .reconciled
            .contains(&"clusterroles/system:basic-user".to_owned())
    );
    assert!(
        ensured
            .created
            .contains(&"clusterrolebindings/cluster-admin".to_owned())
    );
    let basic = json_of(&roles, "system:basic-user").await;
    let rules: Vec<PolicyRule> = serde_json::from_value(basic["rules"].clone()).unwrap();
    let default = cluster_roles()
        .into_iter()
        .find(|r| r.name == "system:basic-user")
        .unwrap();
    assert!(super::super::policy::covers(&rules, &default.rules).0);
    assert!(
        rules.contains(&PolicyRule::new(&["get"]).groups(&[""]).resources(&["pods"])),
        "kept"
    );
    assert_eq!(
        basic["metadata"]["labels"]["kubernetes.io/bootstrapping"],
        "rbac-defaults"
    );
    assert_eq!(
        json_of(&roles, "system:discovery").await["rules"],
        json!(null)
    );
    assert_eq!(
        json_of(&bindings, "cluster-admin").await["roleRef"]["name"],
        "cluster-admin"
    );
    let viewer = json_of(&bindings, "system:public-info-viewer").await;
    assert_eq!(viewer["subjects"].as_array().unwrap().len(), 2);
    // Once reconciled, nothing more to do.
    let again = ensure(&scheme, &storage).await.unwrap();
    assert_eq!(again, Ensured::default());
}
