//! The delegating client against the in-process API server: cached reads, uncached
//! kinds, writes to the server, NotFound from the cache.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;
use std::time::Duration;

use apimachinery::fields;
use apimachinery::runtime::Resource;
use controller_runtime::cache::{Cache, CacheOptions, ObjectForm};
use controller_runtime::client::delegating::{DelegatingClient, DelegatingClientOptions, Reader};
use controller_runtime::client::{Client, ListOptions, ObjectKey};
use controller_runtime::envtest::Environment;
use k8s_types::core::v1::{ConfigMap, Secret};
use tokio_util::sync::CancellationToken;

fn config_map(name: &str, value: &str) -> ConfigMap {
    let mut cm = ConfigMap::default();
    cm.metadata.name = name.into();
    cm.metadata.namespace = "default".into();
    cm.data = [("k".to_string(), value.to_string())].into();
    cm
}

/// Generic over the read interface: works with the direct and the delegating client.
async fn value_of(reader: &impl Reader, name: &str) -> Result<String, controller_runtime::Error> {
    let cm = reader
        .get::<ConfigMap>(&ObjectKey::new("default", name))
        .await?;
    Ok(cm.data.get("k").cloned().unwrap_or_default())
}

async fn setup(
    env: Environment,
    options: DelegatingClientOptions,
) -> (Environment, Client, DelegatingClient, CancellationToken) {
    let client = Client::new(env.config(), env.scheme()).unwrap();
    // Objects shared as decoded, so that a read from the cache is recognised by being
    // the cache's own allocation.
    let cache = Cache::new(
        client.clone(),
        env.scheme(),
        CacheOptions {
            store_encoded: false,
            ..CacheOptions::default()
        },
    );
    let stop = CancellationToken::new();
    cache.start(stop.clone());
    let delegating = DelegatingClient::new(client.clone(), cache, options);
    (env, client, delegating, stop)
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    reads_come_from_the_cache_and_writes_go_to_the_server
);
async fn reads_come_from_the_cache_and_writes_go_to_the_server(env: Environment) {
    let (env, client, delegating, stop) = setup(env, DelegatingClientOptions::default()).await;
    delegating
        .create(&config_map("a", "1"), &Default::default())
        .await
        .unwrap();
    // The first read starts the informer, which lists what the write made.
    let a = delegating
        .get::<ConfigMap>(&ObjectKey::new("default", "a"))
        .await
        .unwrap();
    assert_eq!(a.data["k"], "1");
    assert!(
        delegating
            .cache()
            .has_informer(&ConfigMap::gvk(), ObjectForm::Typed)
    );
    let again = delegating
        .get::<ConfigMap>(&ObjectKey::new("default", "a"))
        .await
        .unwrap();
    assert!(
        Arc::ptr_eq(&a, &again),
        "a cached read is the cache's own object"
    );

    // A cache miss answers as the server would.
    let missing = delegating
        .get::<ConfigMap>(&ObjectKey::new("default", "nope"))
        .await
        .unwrap_err();
    assert!(missing.is_not_found(), "{missing}");
    assert!(
        client
            .get::<ConfigMap>(&ObjectKey::new("default", "nope"))
            .await
            .unwrap_err()
            .is_not_found()
    );

    // An update through the delegating client reaches the cache through the watch.
    let mut changed = (*a).clone();
    changed.data.insert("k".into(), "2".into());
    delegating
        .update(&changed, &Default::default())
        .await
        .unwrap();
    let mut seen = String::new();
    for _ in 0..500 {
        seen = value_of(&delegating, "a").await.unwrap();
        if seen == "2" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(seen, "2");
    assert_eq!(value_of(&client, "a").await.unwrap(), "2");

    // Field selectors in the cache need an index.
    let by_field = ListOptions::default().with_fields(fields::Selector::parse("data.k=2").unwrap());
    assert!(matches!(
        delegating.list::<ConfigMap>(&by_field).await,
        Err(controller_runtime::Error::Cache(
            controller_runtime::cache::CacheError::FieldNotIndexed { .. }
        ))
    ));
    assert_eq!(
        delegating
            .list::<ConfigMap>(&ListOptions::in_namespace("default"))
            .await
            .unwrap()
            .len(),
        1
    );

    // Unstructured reads go to the server by default (Go's CacheOptions.Unstructured).
    let u = delegating
        .get_unstructured(&ConfigMap::gvk(), &ObjectKey::new("default", "a"))
        .await
        .unwrap();
    assert_eq!(u.nested_string(&["data", "k"]).unwrap(), Some("2"));
    assert!(
        !delegating
            .cache()
            .has_informer(&ConfigMap::gvk(), ObjectForm::Unstructured)
    );

    delegating
        .delete(&config_map("a", ""), &Default::default())
        .await
        .unwrap();
    stop.cancel();
    env.stop().await;
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    disabled_and_not_yet_watched_kinds_are_read_from_the_server
);
async fn disabled_and_not_yet_watched_kinds_are_read_from_the_server(env: Environment) {
    let options = DelegatingClientOptions {
        disable_for: [Secret::gvk()].into(),
        uncached_until_watched: true,
        ..DelegatingClientOptions::default()
    };
    let (env, _client, delegating, stop) = setup(env, options).await;
    let mut secret = Secret::default();
    secret.metadata.name = "s".into();
    secret.metadata.namespace = "default".into();
    delegating
        .create(&secret, &Default::default())
        .await
        .unwrap();
    delegating
        .create(&config_map("a", "1"), &Default::default())
        .await
        .unwrap();

    let s = delegating
        .get::<Secret>(&ObjectKey::new("default", "s"))
        .await
        .unwrap();
    assert_eq!(s.metadata.name, "s");
    assert!(
        !delegating
            .cache()
            .has_informer(&Secret::gvk(), ObjectForm::Typed)
    );
    // Not watched yet: read from the server, no informer started.
    assert_eq!(value_of(&delegating, "a").await.unwrap(), "1");
    assert!(
        !delegating
            .cache()
            .has_informer(&ConfigMap::gvk(), ObjectForm::Typed)
    );
    // Once something watches the kind, reads come from the cache.
    let informer = delegating.cache().get_informer::<ConfigMap>().unwrap();
    informer.wait_for_sync().await;
    let cached = delegating
        .get::<ConfigMap>(&ObjectKey::new("default", "a"))
        .await
        .unwrap();
    assert!(Arc::ptr_eq(
        &cached,
        &informer.indexer().get_by_key("default/a").unwrap()
    ));
    stop.cancel();
    env.stop().await;
}
