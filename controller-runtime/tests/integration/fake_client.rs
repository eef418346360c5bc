//! The fake client has the server's semantics because it is the server.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Instant;

use controller_runtime::client::fake::{FakeClientBuilder, FakeClientError};
use controller_runtime::client::{DeleteOptions, ListOptions, ObjectKey};
use k8s_types::apps::v1::Deployment;
use k8s_types::core::v1::{ConfigMap, Namespace};

fn deployment(replicas: i32) -> Deployment {
    serde_json::from_value(serde_json::json!({
        "metadata": {"name": "web", "namespace": "team", "labels": {"app": "web"}},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "c", "image": "nginx"}]}
            }
        }
    }))
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_semantics() {
    let mut ns = Namespace::default();
    ns.metadata.name = "team".into();
    let started = Instant::now();
    let fake = FakeClientBuilder::new()
        .with_object(ns)
        .with_object(deployment(1))
        .build()
        .await
        .unwrap();
    eprintln!("fake client ready in {:?}", started.elapsed());

    let d: Deployment = fake.get(&ObjectKey::new("team", "web")).await.unwrap();
    assert_eq!(d.metadata.generation, 1);
    let rv: u64 = d.metadata.resource_version.parse().unwrap();

    // A spec change bumps the generation; a label change does not.
    let mut scaled = d.clone();
    scaled.spec.replicas = Some(3);
    let scaled = fake.update(&scaled, &Default::default()).await.unwrap();
    assert_eq!(scaled.metadata.generation, 2);
    assert!(scaled.metadata.resource_version.parse::<u64>().unwrap() > rv);
    let mut labelled = scaled.clone();
    labelled.metadata.labels.insert("x".into(), "y".into());
    let labelled = fake.update(&labelled, &Default::default()).await.unwrap();
    assert_eq!(labelled.metadata.generation, 2);

    // Stale writes conflict.
    assert!(
        fake.update(&d, &Default::default())
            .await
            .unwrap_err()
            .is_conflict()
    );

    // Finalizers turn deletion into a deletionTimestamp.
    let mut cm = ConfigMap::default();
    cm.metadata.name = "held".into();
    cm.metadata.namespace = "team".into();
    cm.metadata.finalizers = vec!["example.com/hold".into()];
    let cm = fake.create(&cm, &Default::default()).await.unwrap();
    fake.delete(&cm, &DeleteOptions::default()).await.unwrap();
    let mut held: ConfigMap = fake.get(&ObjectKey::new("team", "held")).await.unwrap();
    assert!(held.metadata.deletion_timestamp.is_some());
    held.metadata.finalizers.clear();
    fake.update(&held, &Default::default()).await.unwrap();
    assert!(
        fake.get::<ConfigMap>(&ObjectKey::new("team", "held"))
            .await
            .unwrap_err()
            .is_not_found()
    );

    let listed = fake
        .list::<Deployment>(
            &ListOptions::in_namespace("team")
                .with_labels(apimachinery::labels::Selector::parse("app=web").unwrap()),
        )
        .await
        .unwrap();
    assert_eq!(listed.items.len(), 1);
    fake.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_initial_object_names_itself() {
    let mut cm = ConfigMap::default();
    cm.metadata.name = "x".into();
    cm.metadata.namespace = "missing-ns".into();
    let err = FakeClientBuilder::new()
        .with_object(cm)
        .build()
        .await
        .unwrap_err();
    assert!(
        matches!(err, FakeClientError::InitialObject { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("missing-ns/x"), "{err}");
}
