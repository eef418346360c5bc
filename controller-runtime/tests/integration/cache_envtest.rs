//! The cache against the in-process API server: sync, events, field indexes, metadata
//! and unstructured informers, relist after 410 Expired, recovery from a dropped watch,
//! a set of namespaces.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use apimachinery::fields;
use apimachinery::runtime::{Resource, Scheme};
use apiserver::storage::MemoryStorage;
use controller_runtime::cache::{
    Cache, CacheError, CacheOptions, ResourceEventHandler, ResourceEventHandlerFuncs,
};
use controller_runtime::client::{Client, ListOptions, ObjectKey};
use controller_runtime::config::Config;
use controller_runtime::envtest::Environment;
use k8s_types::core::v1::ConfigMap;
use tokio_util::sync::CancellationToken;

fn config_map(ns: &str, name: &str, owner: &str) -> ConfigMap {
    let mut cm = ConfigMap::default();
    cm.metadata.name = name.into();
    cm.metadata.namespace = ns.into();
    cm.data = [("owner".to_string(), owner.to_string())].into();
    cm
}

fn owner(cm: &ConfigMap) -> String {
    cm.data.get("owner").cloned().unwrap_or_default()
}

fn fast_options() -> CacheOptions {
    CacheOptions {
        backoff: (Duration::from_millis(20), Duration::from_millis(200)),
        ..CacheOptions::default()
    }
}

async fn eventually(what: &str, mut cond: impl FnMut() -> bool) {
    for _ in 0..1000 {
        if cond() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("timed out waiting for {what}");
}

/// The namespace the real kube-apiserver keeps ConfigMaps of its own in
/// (`kube-apiserver-legacy-service-account-token-tracking`); the in-process server has
/// none. The tests' objects are elsewhere, and what is there is left out of counts.
const SERVERS_OWN: &str = "kube-system";

/// The handler's calls, leaving out the server's own objects.
#[derive(Default, Clone)]
struct Recorder(Arc<Mutex<Vec<String>>>);

impl ResourceEventHandler<ConfigMap> for Recorder {
    fn on_add(&self, obj: Arc<ConfigMap>, initial: bool) {
        if obj.metadata.namespace == SERVERS_OWN {
            return;
        }
        self.0
            .lock()
            .unwrap()
            .push(format!("add {} {initial}", obj.metadata.name));
    }
    fn on_update(&self, old: Arc<ConfigMap>, new: Arc<ConfigMap>) {
        if new.metadata.namespace == SERVERS_OWN {
            return;
        }
        self.0.lock().unwrap().push(format!(
            "update {} {}->{}",
            new.metadata.name,
            owner(&old),
            owner(&new)
        ));
    }
    fn on_delete(&self, obj: Arc<ConfigMap>) {
        if obj.metadata.namespace == SERVERS_OWN {
            return;
        }
        self.0
            .lock()
            .unwrap()
            .push(format!("delete {}", obj.metadata.name));
    }
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    informer_syncs_delivers_events_and_answers_field_index_lookups
);
async fn informer_syncs_delivers_events_and_answers_field_index_lookups(env: Environment) {
    let client = Client::new(env.config(), env.scheme()).unwrap();
    let mut other = k8s_types::core::v1::Namespace::default();
    other.metadata.name = "other".into();
    client.create(&other, &Default::default()).await.unwrap();
    for (name, who) in [("a", "alice"), ("b", "bob")] {
        client
            .create(&config_map("default", name, who), &Default::default())
            .await
            .unwrap();
    }
    client
        .create(&config_map("other", "c", "alice"), &Default::default())
        .await
        .unwrap();

    let cache = Cache::new(client.clone(), env.scheme(), fast_options());
    cache
        .index_field::<ConfigMap>("data.owner", |cm| vec![owner(cm)])
        .unwrap();
    let stop = CancellationToken::new();
    cache.start(stop.clone());
    assert!(cache.wait_for_cache_sync(&stop).await);

    let informer = cache.get_informer::<ConfigMap>().unwrap();
    let rec = Recorder::default();
    informer.add_event_handler(rec.clone());
    let mut initial = rec.0.lock().unwrap().clone();
    initial.sort();
    assert_eq!(initial, vec!["add a true", "add b true", "add c true"]);
    rec.0.lock().unwrap().clear();

    // Field index: everywhere, and in one namespace.
    let alice =
        ListOptions::default().with_fields(fields::Selector::parse("data.owner=alice").unwrap());
    assert_eq!(cache.list::<ConfigMap>(&alice).await.unwrap().len(), 2);
    let alice_default = ListOptions {
        namespace: Some("default".into()),
        ..alice.clone()
    };
    let found = cache.list::<ConfigMap>(&alice_default).await.unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].metadata.name, "a");
    // managedFields were stripped by the default transform; reads share one allocation
    // (objects are held decoded unless `store_encoded`).
    let a = cache
        .get::<ConfigMap>(&ObjectKey::new("default", "a"))
        .await
        .unwrap();
    assert!(a.metadata.managed_fields.is_empty());
    let again = cache
        .get::<ConfigMap>(&ObjectKey::new("default", "a"))
        .await
        .unwrap();
    assert!(Arc::ptr_eq(&a, &again));

    // Changes arrive through the watch.
    client
        .create(&config_map("default", "d", "dan"), &Default::default())
        .await
        .unwrap();
    let mut b = (*cache
        .get::<ConfigMap>(&ObjectKey::new("default", "b"))
        .await
        .unwrap())
    .clone();
    b.data.insert("owner".into(), "alice".into());
    client.update(&b, &Default::default()).await.unwrap();
    client
        .delete(&config_map("other", "c", ""), &Default::default())
        .await
        .unwrap();
    eventually("three events", || rec.0.lock().unwrap().len() == 3).await;
    assert_eq!(
        *rec.0.lock().unwrap(),
        vec!["add d false", "update b bob->alice", "delete c"]
    );
    let alice_default = cache.list::<ConfigMap>(&alice_default).await.unwrap();
    assert_eq!(alice_default.len(), 2);
    assert!(
        cache
            .list::<ConfigMap>(&alice)
            .await
            .unwrap()
            .iter()
            .all(|cm| cm.metadata.namespace == "default")
    );
    stop.cancel();
    env.stop().await;
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    unstructured_and_metadata_informers
);
async fn unstructured_and_metadata_informers(env: Environment) {
    let client = Client::new(env.config(), env.scheme()).unwrap();
    client
        .create(&config_map("default", "a", "alice"), &Default::default())
        .await
        .unwrap();
    let cache = Cache::new(client.clone(), env.scheme(), fast_options());
    let stop = CancellationToken::new();
    cache.start(stop.clone());
    let gvk = ConfigMap::gvk();
    let key = ObjectKey::new("default", "a");
    let u = cache.get_unstructured(&gvk, &key).await.unwrap();
    assert_eq!(u.nested_string(&["data", "owner"]).unwrap(), Some("alice"));
    let m = cache.get_metadata(&gvk, &key).await.unwrap();
    assert_eq!(m.metadata.name, "a");
    assert_eq!(
        cache
            .list_metadata(&gvk, &ListOptions::default())
            .await
            .unwrap()
            .iter()
            .filter(|m| m.metadata.namespace != SERVERS_OWN)
            .count(),
        1
    );
    let missing = cache
        .get_metadata(&gvk, &ObjectKey::new("default", "zz"))
        .await;
    assert!(missing.is_err());
    stop.cancel();
    env.stop().await;
}

async fn serve(
    scheme: Arc<Scheme>,
    storage: Arc<MemoryStorage>,
    addr: SocketAddr,
) -> apiserver::server::GenericApiServer {
    // The address is reused right after the previous server on it shut down.
    for _ in 0..50 {
        match apiserver::server::Config::new(Arc::clone(&scheme), storage.clone())
            .serve(addr)
            .await
        {
            Ok(server) => return server,
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    panic!("cannot serve on {addr}");
}

fn scheme() -> Arc<Scheme> {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    Arc::new(scheme)
}

/// The server goes away; while it is away, more writes happen than its history keeps;
/// it comes back on the same address. The informer's watch from its old resourceVersion
/// is answered 410 Expired, it relists, and its store equals the server's again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relists_after_410_and_recovers_from_a_dropped_watch() {
    let scheme = scheme();
    let storage = Arc::new(MemoryStorage::with_history_limit(20));
    let first = serve(
        Arc::clone(&scheme),
        storage.clone(),
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
    )
    .await;
    let addr = first.local_addr();
    let client = Client::new(&Config::new(first.url()), Arc::clone(&scheme)).unwrap();
    for i in 0..5 {
        client
            .create(
                &config_map("default", &format!("old{i}"), "x"),
                &Default::default(),
            )
            .await
            .unwrap();
    }
    let errors = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&errors);
    let cache = Cache::new(
        client.clone(),
        Arc::clone(&scheme),
        CacheOptions {
            watch_error_handler: Some(Arc::new(move |e| seen.lock().unwrap().push(e.is_expired()))),
            ..fast_options()
        },
    );
    let informer = cache.get_informer::<ConfigMap>().unwrap();
    let deleted = Arc::new(Mutex::new(Vec::new()));
    let gone = Arc::clone(&deleted);
    informer.add_event_handler(ResourceEventHandlerFuncs::new().delete_func(
        move |cm: Arc<ConfigMap>| gone.lock().unwrap().push(cm.metadata.name.clone()),
    ));
    let stop = CancellationToken::new();
    cache.start(stop.clone());
    assert!(cache.wait_for_cache_sync(&stop).await);
    assert_eq!(informer.indexer().len(), 5);

    // Dropped watch: the server restarts on the same address and storage; the informer
    // re-watches and sees a write made after the restart.
    first.shutdown().await;
    let second = serve(Arc::clone(&scheme), storage.clone(), addr).await;
    client
        .create(
            &config_map("default", "after-restart", "x"),
            &Default::default(),
        )
        .await
        .unwrap();
    eventually("the write after the restart", || {
        informer
            .indexer()
            .get_by_key("default/after-restart")
            .is_some()
    })
    .await;
    second.shutdown().await;

    // Meanwhile, on another server over the same storage: 60 writes, beyond the 20
    // revisions the storage keeps, and a deletion.
    let side = serve(
        Arc::clone(&scheme),
        storage.clone(),
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
    )
    .await;
    let side_client = Client::new(&Config::new(side.url()), Arc::clone(&scheme)).unwrap();
    for i in 0..60 {
        side_client
            .create(
                &config_map("default", &format!("new{i}"), "y"),
                &Default::default(),
            )
            .await
            .unwrap();
    }
    side_client
        .delete(&config_map("default", "old0", ""), &Default::default())
        .await
        .unwrap();
    side.shutdown().await;
    let _third = serve(Arc::clone(&scheme), storage.clone(), addr).await;

    eventually("the relist", || informer.indexer().len() == 65).await;
    assert!(informer.indexer().get_by_key("default/old0").is_none());
    assert!(informer.indexer().get_by_key("default/new59").is_some());
    assert!(
        errors.lock().unwrap().contains(&true),
        "no 410 seen: {:?}",
        errors.lock().unwrap()
    );
    // old0's deletion happened while nobody watched: a (tombstone) delete at the relist.
    eventually("the tombstone", || {
        deleted.lock().unwrap().contains(&"old0".to_string())
    })
    .await;
    stop.cancel();
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    a_namespace_set_caches_those_namespaces_and_refuses_reads_elsewhere
);
async fn a_namespace_set_caches_those_namespaces_and_refuses_reads_elsewhere(env: Environment) {
    let client = Client::new(env.config(), env.scheme()).unwrap();
    for ns in ["ns-a", "ns-b", "ns-c"] {
        let mut namespace = k8s_types::core::v1::Namespace::default();
        namespace.metadata.name = ns.into();
        client
            .create(&namespace, &Default::default())
            .await
            .unwrap();
    }
    for (ns, name) in [("ns-a", "a1"), ("ns-b", "b1"), ("ns-c", "c1")] {
        client
            .create(&config_map(ns, name, "alice"), &Default::default())
            .await
            .unwrap();
    }
    let cache = Cache::new(
        client.clone(),
        env.scheme(),
        CacheOptions {
            default_namespaces: ["ns-a".to_owned(), "ns-b".to_owned()].into(),
            ..fast_options()
        },
    );
    let informer = cache.get_informer::<ConfigMap>().unwrap();
    let rec = Recorder::default();
    informer.add_event_handler(rec.clone());
    let stop = CancellationToken::new();
    cache.start(stop.clone());
    assert!(cache.wait_for_cache_sync(&stop).await);
    let mut initial = rec.0.lock().unwrap().clone();
    initial.sort();
    assert_eq!(initial, vec!["add a1 true", "add b1 true"]);
    rec.0.lock().unwrap().clear();

    // Written first, so that a watch of ns-c would deliver it before what follows.
    client
        .create(&config_map("ns-c", "c2", "carol"), &Default::default())
        .await
        .unwrap();
    client
        .create(&config_map("ns-a", "a2", "alice"), &Default::default())
        .await
        .unwrap();
    let mut b1 = (*cache
        .get::<ConfigMap>(&ObjectKey::new("ns-b", "b1"))
        .await
        .unwrap())
    .clone();
    b1.data.insert("owner".into(), "bob".into());
    client.update(&b1, &Default::default()).await.unwrap();
    client
        .delete(&config_map("ns-a", "a1", ""), &Default::default())
        .await
        .unwrap();
    client
        .create(&config_map("ns-b", "b2", "bob"), &Default::default())
        .await
        .unwrap();
    eventually("four events", || rec.0.lock().unwrap().len() >= 4).await;
    let mut events = rec.0.lock().unwrap().clone();
    events.sort();
    assert_eq!(
        events,
        vec![
            "add a2 false",
            "add b2 false",
            "delete a1",
            "update b1 alice->bob"
        ]
    );

    let mut all: Vec<_> = cache
        .list::<ConfigMap>(&ListOptions::default())
        .await
        .unwrap()
        .iter()
        .map(|cm| format!("{}/{}", cm.metadata.namespace, cm.metadata.name))
        .collect();
    all.sort();
    // The server's own kube-root-ca.crt ConfigMaps, if it makes them, are there too.
    all.retain(|k| !k.ends_with("/kube-root-ca.crt"));
    assert_eq!(all, vec!["ns-a/a2", "ns-b/b1", "ns-b/b2"]);
    assert_eq!(
        cache
            .list::<ConfigMap>(&ListOptions::in_namespace("ns-b"))
            .await
            .unwrap()
            .iter()
            .filter(|cm| cm.metadata.name.starts_with('b'))
            .count(),
        2
    );
    let outside = cache
        .get::<ConfigMap>(&ObjectKey::new("ns-c", "c1"))
        .await
        .unwrap_err();
    assert_eq!(
        outside.to_string(),
        "unable to get: ns-c/c1 because of unknown namespace for the cache"
    );
    assert!(matches!(
        cache
            .list::<ConfigMap>(&ListOptions::in_namespace("ns-c"))
            .await,
        Err(CacheError::UnknownNamespace { .. })
    ));
    assert!(matches!(
        cache
            .get_metadata(&ConfigMap::gvk(), &ObjectKey::new("ns-c", "c1"))
            .await,
        Err(CacheError::UnknownNamespace { .. })
    ));

    // Namespaces are cluster-scoped (the RESTMapper says so): watched cluster-wide, once.
    let namespaces = cache
        .list::<k8s_types::core::v1::Namespace>(&ListOptions::default())
        .await
        .unwrap();
    assert!(namespaces.iter().any(|n| n.metadata.name == "ns-c"));
    // No namespace check on a kind without namespaces.
    cache
        .get::<k8s_types::core::v1::Namespace>(&ObjectKey::cluster("ns-c"))
        .await
        .unwrap();
    stop.cancel();
    env.stop().await;
}

/// The server goes away while objects change in the watched namespaces and in another;
/// when it is back, the informer over two namespaces resumes each namespace's watch from
/// where that namespace stood: the changes arrive once each, without a relist.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_namespace_set_resumes_each_namespace_after_a_dropped_watch() {
    let scheme = scheme();
    let storage = Arc::new(MemoryStorage::with_history_limit(1000));
    let first = serve(
        Arc::clone(&scheme),
        storage.clone(),
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
    )
    .await;
    let addr = first.local_addr();
    let client = Client::new(&Config::new(first.url()), Arc::clone(&scheme)).unwrap();
    for ns in ["ns-a", "ns-b", "ns-c"] {
        let mut namespace = k8s_types::core::v1::Namespace::default();
        namespace.metadata.name = ns.into();
        client
            .create(&namespace, &Default::default())
            .await
            .unwrap();
    }
    for (ns, name) in [("ns-a", "a1"), ("ns-b", "b1"), ("ns-c", "c1")] {
        client
            .create(&config_map(ns, name, "x"), &Default::default())
            .await
            .unwrap();
    }
    let errors = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&errors);
    let cache = Cache::new(
        client.clone(),
        Arc::clone(&scheme),
        CacheOptions {
            default_namespaces: ["ns-a".to_owned(), "ns-b".to_owned()].into(),
            watch_error_handler: Some(Arc::new(move |e| seen.lock().unwrap().push(e.is_expired()))),
            ..fast_options()
        },
    );
    let informer = cache.get_informer::<ConfigMap>().unwrap();
    let rec = Recorder::default();
    informer.add_event_handler(rec.clone());
    let stop = CancellationToken::new();
    cache.start(stop.clone());
    assert!(cache.wait_for_cache_sync(&stop).await);
    eventually("the initial adds", || rec.0.lock().unwrap().len() == 2).await;
    rec.0.lock().unwrap().clear();

    first.shutdown().await;
    let side = serve(
        Arc::clone(&scheme),
        storage.clone(),
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
    )
    .await;
    let side_client = Client::new(&Config::new(side.url()), Arc::clone(&scheme)).unwrap();
    for (ns, name) in [("ns-b", "b2"), ("ns-c", "c2"), ("ns-a", "a2")] {
        side_client
            .create(&config_map(ns, name, "y"), &Default::default())
            .await
            .unwrap();
    }
    side_client
        .delete(&config_map("ns-a", "a1", ""), &Default::default())
        .await
        .unwrap();
    side.shutdown().await;
    let _second = serve(Arc::clone(&scheme), storage.clone(), addr).await;

    eventually("the changes made while away", || {
        rec.0.lock().unwrap().len() >= 3
    })
    .await;
    // A last write in each namespace: anything repeated would come before it.
    for (ns, name) in [("ns-a", "a3"), ("ns-b", "b3")] {
        client
            .create(&config_map(ns, name, "z"), &Default::default())
            .await
            .unwrap();
    }
    eventually("the last writes", || {
        let events = rec.0.lock().unwrap();
        events.contains(&"add a3 false".to_owned()) && events.contains(&"add b3 false".to_owned())
    })
    .await;
    let mut events = rec.0.lock().unwrap().clone();
    events.sort();
    assert_eq!(
        events,
        vec![
            "add a2 false",
            "add a3 false",
            "add b2 false",
            "add b3 false",
            "delete a1"
        ]
    );
    assert!(
        !errors.lock().unwrap().contains(&true),
        "a relist was needed"
    );
    let mut keys: Vec<_> = informer
        .indexer()
        .list()
        .iter()
        .map(|cm| format!("{}/{}", cm.metadata.namespace, cm.metadata.name))
        .collect();
    keys.sort();
    assert_eq!(
        keys,
        vec!["ns-a/a2", "ns-a/a3", "ns-b/b1", "ns-b/b2", "ns-b/b3"]
    );
    stop.cancel();
}
