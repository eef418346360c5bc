//! The namespace controller against the in-process server and the real kube-apiserver:
//! a deleted Namespace's content goes, custom resources included, then the Namespace;
//! content held by a finalizer keeps it, with Go's conditions saying why.

use std::time::Duration;

use apimachinery::runtime::Unstructured;
use apimachinery::schema::GroupVersionKind;
use controller_manager::namespace::conditions::{
    NAMESPACE_CONTENT_REMAINING, NAMESPACE_DELETION_CONTENT_FAILURE, NAMESPACE_FINALIZERS_REMAINING,
};
use controller_runtime::client::{Client, ObjectKey};
use controller_runtime::envtest::Environment;
use k8s_types::apiextensions::v1::CustomResourceDefinition;
use k8s_types::core::v1::{ConfigMap, Namespace, Secret};
use serde_json::json;

async fn namespace(client: &Client, name: &str) -> Option<Namespace> {
    client.get(&ObjectKey::cluster(name)).await.ok()
}

async fn create_namespace(client: &Client, name: &str) {
    let mut ns = Namespace::default();
    ns.metadata.name = name.into();
    client.create(&ns, &Default::default()).await.unwrap();
}

fn config_map(ns: &str, name: &str) -> ConfigMap {
    let mut cm = ConfigMap::default();
    (cm.metadata.namespace, cm.metadata.name) = (ns.into(), name.into());
    cm
}

/// A namespaced CRD, `widgets.example.com`, established and in the client's mapper.
async fn install_widgets(client: &Client) -> GroupVersionKind {
    let crd: CustomResourceDefinition = serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}
    }))
    .unwrap();
    client.create(&crd, &Default::default()).await.unwrap();
    crate::servers::until("the CRD established", || async {
        let c: CustomResourceDefinition = client
            .get(&ObjectKey::cluster("widgets.example.com"))
            .await
            .ok()?;
        c.status
            .conditions
            .iter()
            .flatten()
            .any(|c| c.r#type == "Established" && c.status == "True")
            .then_some(())
    })
    .await;
    // Established is not yet served: kube-apiserver adds the CRD's group to discovery
    // after it (its discovery controller runs apart, late under load), so the client's
    // first mapping could miss it. Go's envtest waits for discovery too (`WaitForCRDs`);
    // each try here reads discovery anew.
    let gvk = GroupVersionKind::new("example.com", "v1", "Widget");
    crate::servers::until("the CRD in discovery", || async {
        client.rest_mapper().reset().await;
        client.rest_mapping(&gvk).await.ok()
    })
    .await;
    gvk
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    a_deleted_namespace_loses_its_content_then_goes,
    "namespace"
);
async fn a_deleted_namespace_loses_its_content_then_goes(env: Environment, client: Client) {
    let widgets = install_widgets(&client).await;
    create_namespace(&client, "doomed").await;
    client
        .create(&config_map("doomed", "a"), &Default::default())
        .await
        .unwrap();
    let mut secret = Secret::default();
    (secret.metadata.namespace, secret.metadata.name) = ("doomed".into(), "s".into());
    client.create(&secret, &Default::default()).await.unwrap();
    let widget = Unstructured::from_value(json!({
        "apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "namespace": "doomed"}, "spec": {"size": 1}
    }))
    .unwrap();
    client.create(&widget, &Default::default()).await.unwrap();
    // A namespace not deleted keeps its content.
    create_namespace(&client, "kept").await;
    client
        .create(&config_map("kept", "a"), &Default::default())
        .await
        .unwrap();

    let ns = namespace(&client, "doomed").await.unwrap();
    client.delete(&ns, &Default::default()).await.unwrap();
    crate::servers::until("the namespace gone", || async {
        namespace(&client, "doomed").await.is_none().then_some(())
    })
    .await;
    let cm: Result<ConfigMap, _> = client.get(&ObjectKey::new("doomed", "a")).await;
    assert!(cm.unwrap_err().is_not_found());
    let gone = client
        .get_unstructured(&widgets, &ObjectKey::new("doomed", "w"))
        .await;
    assert!(gone.unwrap_err().is_not_found());
    let kept: ConfigMap = client.get(&ObjectKey::new("kept", "a")).await.unwrap();
    assert_eq!(kept.metadata.name, "a");
    env.stop().await;
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    content_held_by_a_finalizer_keeps_the_namespace_with_gos_conditions,
    "namespace"
);
async fn content_held_by_a_finalizer_keeps_the_namespace_with_gos_conditions(
    env: Environment,
    client: Client,
) {
    create_namespace(&client, "held").await;
    let mut cm = config_map("held", "held");
    cm.metadata.finalizers = vec!["example.com/hold".into()];
    client.create(&cm, &Default::default()).await.unwrap();
    let ns = namespace(&client, "held").await.unwrap();
    client.delete(&ns, &Default::default()).await.unwrap();

    let condition = |ns: &Namespace, type_: &str| {
        ns.status
            .conditions
            .iter()
            .find(|c| c.r#type == type_)
            .cloned()
    };
    let ns = crate::servers::until("the conditions", || async {
        let ns = namespace(&client, "held").await?;
        condition(&ns, NAMESPACE_FINALIZERS_REMAINING)
            .filter(|c| c.status == "True")
            .map(|_| ns)
    })
    .await;
    assert_eq!(ns.status.phase, "Terminating");
    let remaining = condition(&ns, NAMESPACE_CONTENT_REMAINING).unwrap();
    assert_eq!(
        (
            remaining.status.as_str(),
            remaining.reason.as_str(),
            remaining.message.as_str()
        ),
        (
            "True",
            "SomeResourcesRemain",
            "Some resources are remaining: configmaps. has 1 resource instances"
        )
    );
    let finalizers = condition(&ns, NAMESPACE_FINALIZERS_REMAINING).unwrap();
    assert_eq!(finalizers.reason, "SomeFinalizersRemain");
    assert_eq!(
        finalizers.message,
        "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances"
    );
    let content = condition(&ns, NAMESPACE_DELETION_CONTENT_FAILURE).unwrap();
    assert_eq!(
        (content.status.as_str(), content.reason.as_str()),
        ("False", "ContentDeleted")
    );
    assert_eq!(ns.status.conditions.len(), 5);
    // The held object is marked; once its finalizer goes, so does the namespace (Go
    // looks again after half of its 15 s estimate, plus one).
    let mut held: ConfigMap = client.get(&ObjectKey::new("held", "held")).await.unwrap();
    assert!(held.metadata.deletion_timestamp.is_some());
    held.metadata.finalizers.clear();
    client.update(&held, &Default::default()).await.unwrap();
    for _ in 0..200 {
        if namespace(&client, "held").await.is_none() {
            env.stop().await;
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the namespace stayed");
}
