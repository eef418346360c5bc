//! The client against the in-process API server: typed CRUD, watch, typed errors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use controller_runtime::client::{
    Client, ClientOptions, DeleteOptions, ListOptions, ObjectKey, WatchEvent, WireFormat,
};
use controller_runtime::envtest::Environment;
use futures_util::StreamExt;
use k8s_types::core::v1::ConfigMap;

fn config_map(ns: &str, name: &str, value: &str) -> ConfigMap {
    let mut cm = ConfigMap::default();
    cm.metadata.name = name.into();
    cm.metadata.namespace = ns.into();
    cm.data = [("k".to_string(), value.to_string())].into();
    cm
}

async fn crud(client: &Client) {
    let created = client
        .create(&config_map("default", "one", "1"), &Default::default())
        .await
        .unwrap();
    assert_eq!(created.metadata.name, "one");
    assert!(!created.metadata.uid.is_empty());
    let rv1 = created.metadata.resource_version.clone();

    let got: ConfigMap = client.get(&ObjectKey::new("default", "one")).await.unwrap();
    assert_eq!(got.data, created.data);

    let mut changed = got.clone();
    changed.data = [("k".to_string(), "2".to_string())].into();
    let updated = client.update(&changed, &Default::default()).await.unwrap();
    assert_ne!(updated.metadata.resource_version, rv1);

    // The stale version conflicts.
    let err = client
        .update(&changed, &Default::default())
        .await
        .unwrap_err();
    assert!(err.is_conflict(), "{err}");

    // Creating it again: AlreadyExists.
    let err = client
        .create(&config_map("default", "one", "x"), &Default::default())
        .await
        .unwrap_err();
    assert!(err.is_already_exists(), "{err}");

    client
        .create(&config_map("default", "two", "2"), &Default::default())
        .await
        .unwrap();
    let list = client
        .list::<ConfigMap>(&ListOptions::in_namespace("default"))
        .await
        .unwrap();
    let mut names: Vec<_> = list
        .items
        .iter()
        .map(|c| c.metadata.name.as_str())
        .collect();
    names.sort();
    assert_eq!(names, ["one", "two"]);
    assert!(!list.metadata.resource_version.is_empty());

    client
        .delete(&updated, &DeleteOptions::default())
        .await
        .unwrap();
    let err = client
        .get::<ConfigMap>(&ObjectKey::new("default", "one"))
        .await
        .unwrap_err();
    assert!(err.is_not_found(), "{err}");
    let err = client
        .delete(&updated, &DeleteOptions::default())
        .await
        .unwrap_err();
    assert!(err.is_not_found(), "{err}");
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    typed_crud_over_protobuf
);
async fn typed_crud_over_protobuf(env: Environment) {
    let client = Client::new(env.config(), env.scheme()).unwrap();
    crud(&client).await;
    // The server (either) offers aggregated discovery; the mapper used it.
    assert_eq!(
        client.rest_mapper().uses_aggregated_discovery().await,
        Some(true)
    );
    env.stop().await;
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    typed_crud_over_json
);
async fn typed_crud_over_json(env: Environment) {
    let client = Client::with_options(
        env.config(),
        env.scheme(),
        ClientOptions {
            wire_format: WireFormat::Json,
        },
    )
    .unwrap();
    crud(&client).await;
    env.stop().await;
}

async fn watch_events(client: &Client) {
    let list = client
        .list::<ConfigMap>(&ListOptions::in_namespace("default"))
        .await
        .unwrap();
    let mut stream = client
        .watch::<ConfigMap>(&ListOptions {
            namespace: Some("default".into()),
            resource_version: Some(list.metadata.resource_version.clone()),
            allow_watch_bookmarks: true,
            ..Default::default()
        })
        .await
        .unwrap();
    let created = client
        .create(&config_map("default", "w", "1"), &Default::default())
        .await
        .unwrap();
    let mut changed = created.clone();
    changed.data = [("k".to_string(), "2".to_string())].into();
    client.update(&changed, &Default::default()).await.unwrap();
    client.delete(&created, &Default::default()).await.unwrap();

    let mut seen = Vec::new();
    while seen.len() < 3 {
        let ev = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .expect("an event in time")
            .expect("the stream goes on")
            .unwrap();
        match ev {
            WatchEvent::Added(cm) => seen.push(("ADDED", cm.data)),
            WatchEvent::Modified(cm) => seen.push(("MODIFIED", cm.data)),
            WatchEvent::Deleted(cm) => seen.push(("DELETED", cm.data)),
            WatchEvent::Bookmark { .. } => {}
        }
    }
    let kinds: Vec<_> = seen.iter().map(|s| s.0).collect();
    assert_eq!(kinds, ["ADDED", "MODIFIED", "DELETED"]);
    assert_eq!(seen[1].1.get("k").map(String::as_str), Some("2"));
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    watch_over_protobuf_and_json
);
async fn watch_over_protobuf_and_json(env: Environment) {
    let client = Client::new(env.config(), env.scheme()).unwrap();
    watch_events(&client).await;
    let json = Client::with_options(
        env.config(),
        env.scheme(),
        ClientOptions {
            wire_format: WireFormat::Json,
        },
    )
    .unwrap();
    watch_events(&json).await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreachable_server_is_a_transport_error() {
    // Bind and drop a listener to get a port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let env = Environment::start().await.unwrap();
    let config = controller_runtime::config::Config::new(format!("http://127.0.0.1:{port}"));
    let client = Client::new(&config, env.scheme()).unwrap();
    let err = client
        .get::<ConfigMap>(&ObjectKey::new("default", "x"))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            controller_runtime::client::Error::Transport(
                controller_runtime::transport::TransportError::Unreachable { .. }
            )
        ),
        "{err:?}"
    );
    env.stop().await;
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    a_watch_ends_cleanly_when_the_server_stops
);
async fn a_watch_ends_cleanly_when_the_server_stops(env: Environment) {
    let client = Client::new(env.config(), env.scheme()).unwrap();
    let mut stream = client
        .watch::<ConfigMap>(&ListOptions::in_namespace("default"))
        .await
        .unwrap();
    env.stop().await;
    // The stream ends (or reports the broken connection once, then ends): no hang, no
    // panic.
    let mut items = 0;
    loop {
        match tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .expect("the watch ends when the server stops")
        {
            None => break,
            Some(Ok(ev)) => panic!("unexpected event {ev:?}"),
            Some(Err(e)) => {
                items += 1;
                assert!(
                    matches!(e, controller_runtime::client::Error::Transport(_)),
                    "{e:?}"
                );
            }
        }
    }
    assert!(items <= 1);
    // New calls to the stopped server are transport errors.
    let err = client
        .get::<ConfigMap>(&ObjectKey::new("default", "x"))
        .await
        .unwrap_err();
    assert!(
        matches!(err, controller_runtime::client::Error::Transport(_)),
        "{err:?}"
    );
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    by_kind_calls_give_the_schemes_types
);
async fn by_kind_calls_give_the_schemes_types(env: Environment) {
    use apimachinery::schema::GroupVersionKind;
    let gvk = GroupVersionKind::new("", "v1", "ConfigMap");
    for wire_format in [WireFormat::Protobuf, WireFormat::Json] {
        let client =
            Client::with_options(env.config(), env.scheme(), ClientOptions { wire_format })
                .unwrap();
        let name = format!("dyn-{wire_format:?}").to_lowercase();
        client
            .create(&config_map("default", &name, "1"), &Default::default())
            .await
            .unwrap();
        let one = client
            .get_dyn(&gvk, &ObjectKey::new("default", &name))
            .await
            .unwrap();
        assert_eq!(one.downcast_ref::<ConfigMap>().unwrap().metadata.name, name);
        let list = client
            .list_dyn(&gvk, &ListOptions::in_namespace("default"))
            .await
            .unwrap();
        assert!(!list.metadata.resource_version.is_empty());
        assert!(list.items.iter().all(|o| o.is::<ConfigMap>()));
        assert!(list.items.iter().any(|o| o.meta().unwrap().name() == name));
        let typed = client
            .list::<ConfigMap>(&ListOptions::in_namespace("default"))
            .await
            .unwrap();
        assert_eq!(typed.items.len(), list.items.len());
        let mut w = client
            .watch_dyn(&gvk, &ListOptions::in_namespace("default"))
            .await
            .unwrap();
        let first = tokio::time::timeout(Duration::from_secs(10), w.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        assert!(first.object().unwrap().is::<ConfigMap>());
    }
    env.stop().await;
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    deletes_take_the_object_or_the_status_answer
);
/// A delete is answered with the removed object for the kinds whose kube-apiserver
/// store sets `ReturnDeletedObject` (Pods, ServiceAccounts) and with a `Status` for the
/// others (ConfigMaps): the client takes either, over both wire formats.
async fn deletes_take_the_object_or_the_status_answer(env: Environment) {
    use k8s_types::core::v1::{Container, Pod, ServiceAccount};
    for wire_format in [WireFormat::Protobuf, WireFormat::Json] {
        let client =
            Client::with_options(env.config(), env.scheme(), ClientOptions { wire_format })
                .unwrap();
        let mut pod = Pod::default();
        pod.metadata.name = "p".into();
        pod.metadata.namespace = "default".into();
        pod.spec.containers = Some(vec![Container {
            name: "c".into(),
            image: "nginx".into(),
            ..Container::default()
        }]);
        let mut sa = ServiceAccount::default();
        sa.metadata.name = "robot".into();
        sa.metadata.namespace = "default".into();
        let pod = client.create(&pod, &Default::default()).await.unwrap();
        let sa = client.create(&sa, &Default::default()).await.unwrap();
        let cm = client
            .create(&config_map("default", "c", "1"), &Default::default())
            .await
            .unwrap();
        client
            .delete(&pod, &DeleteOptions::default())
            .await
            .unwrap();
        client.delete(&sa, &DeleteOptions::default()).await.unwrap();
        client.delete(&cm, &DeleteOptions::default()).await.unwrap();
        let key = |name: &str| ObjectKey::new("default", name);
        assert!(
            client
                .get::<Pod>(&key("p"))
                .await
                .unwrap_err()
                .is_not_found()
        );
        assert!(
            client
                .get::<ServiceAccount>(&key("robot"))
                .await
                .unwrap_err()
                .is_not_found()
        );
        assert!(
            client
                .get::<ConfigMap>(&key("c"))
                .await
                .unwrap_err()
                .is_not_found()
        );
    }
    env.stop().await;
}
