//! The cache over a fake client whose lister/watchers serve a fixed list and a
//! watch fed by the test.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use apimachinery::apis::meta::v1::ObjectMeta;
use apimachinery::runtime::{Object, Resource, Scheme, Unstructured};
use apimachinery::{ApiObject, ApiType};
use futures_util::future::BoxFuture;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::*;
use crate::client::{ListOptions, ObjectKey};
use apimachinery::{fields, labels};
use k8s_types::meta::v1::PartialObjectMetadata;

fn fields(s: &str) -> ListOptions {
    ListOptions::default().with_fields(fields::Selector::parse(s).unwrap())
}

fn key(ns: &str, name: &str) -> ObjectKey {
    ObjectKey::new(ns, name)
}

#[derive(ApiType, Clone, Debug, Default, PartialEq)]
pub struct GadgetSpec {
    pub owner: String,
}

#[derive(ApiObject, Clone, Debug, Default, PartialEq)]
#[api(
    group = "test.example.com",
    version = "v1",
    kind = "Gadget",
    plural = "gadgets",
    namespaced
)]
pub struct Gadget {
    pub metadata: ObjectMeta,
    pub spec: GadgetSpec,
}

fn gadget(ns: &str, name: &str, owner: &str, app: &str) -> Gadget {
    let mut g = Gadget::default();
    g.metadata.namespace = ns.into();
    g.metadata.name = name.into();
    g.metadata.resource_version = "1".into();
    g.metadata.labels = [("app".to_owned(), app.to_owned())].into_iter().collect();
    g.spec.owner = owner.into();
    g
}

type Event = Result<WatchEvent<Box<dyn Object>>, ListWatchError>;

/// Serves `items` filtered by the request's namespace, then the test's events.
struct FakeLw {
    items: Vec<Gadget>,
    namespace: Option<String>,
    form: ObjectForm,
    events: Mutex<Option<mpsc::UnboundedReceiver<Event>>>,
}

impl FakeLw {
    fn encode(&self, g: Gadget) -> Box<dyn Object> {
        match self.form {
            ObjectForm::Unstructured => {
                let mut value = serde_json::to_value(&g).unwrap();
                value["apiVersion"] = serde_json::json!(Gadget::API_VERSION);
                value["kind"] = serde_json::json!(Gadget::KIND);
                Box::new(Unstructured::from_value(value).unwrap())
            }
            ObjectForm::Metadata => Box::new(PartialObjectMetadata {
                metadata: g.metadata,
                ..PartialObjectMetadata::default()
            }),
            ObjectForm::Typed => Box::new(g),
        }
    }
}

impl ListerWatcher<Box<dyn Object>> for FakeLw {
    fn list(&self) -> BoxFuture<'_, Result<ListResult<Box<dyn Object>>, ListWatchError>> {
        Box::pin(async move {
            let items = self
                .items
                .iter()
                .filter(|g| {
                    self.namespace
                        .as_ref()
                        .is_none_or(|ns| *ns == g.metadata.namespace)
                })
                .map(|g| self.encode(g.clone()))
                .collect();
            Ok(ListResult {
                items,
                resource_version: "1".into(),
            })
        })
    }
    fn watch(
        &self,
        _rv: &str,
    ) -> BoxFuture<'_, Result<WatchStream<Box<dyn Object>>, ListWatchError>> {
        let rx = self.events.lock().unwrap().take();
        Box::pin(async move {
            match rx {
                Some(rx) => Ok(
                    Box::pin(futures_util::stream::unfold(rx, |mut rx| async move {
                        rx.recv().await.map(|e| (e, rx))
                    })) as WatchStream<_>,
                ),
                None => std::future::pending().await,
            }
        })
    }
}

#[derive(Default)]
struct FakeClient {
    items: Vec<Gadget>,
    requests: Mutex<Vec<ListWatchRequest>>,
    senders: Mutex<HashMap<ObjectForm, mpsc::UnboundedSender<Event>>>,
}

impl ListWatchFactory for Arc<FakeClient> {
    fn lister_watcher(
        &self,
        request: &ListWatchRequest,
    ) -> Result<DynListerWatcher, ListWatchError> {
        self.requests.lock().unwrap().push(request.clone());
        let (tx, rx) = mpsc::unbounded_channel();
        self.senders.lock().unwrap().insert(request.form, tx);
        Ok(Arc::new(FakeLw {
            items: self.items.clone(),
            namespace: request.namespace.clone(),
            form: request.form,
            events: Mutex::new(Some(rx)),
        }))
    }
}

fn cache_with(items: Vec<Gadget>, options: CacheOptions) -> (Cache, Arc<FakeClient>) {
    let client = Arc::new(FakeClient {
        items,
        ..FakeClient::default()
    });
    let cache = Cache::from_factory(
        Arc::new(Arc::clone(&client)),
        Arc::new(Scheme::new()),
        options,
    );
    (cache, client)
}

fn names<T: Object>(mut objs: Vec<Arc<T>>) -> Vec<String> {
    objs.sort_by_key(|o| object_key(o.as_ref()));
    objs.iter().map(|o| object_key(o.as_ref())).collect()
}

fn sample() -> Vec<Gadget> {
    vec![
        gadget("a", "g1", "alice", "web"),
        gadget("a", "g2", "bob", "db"),
        gadget("b", "g3", "alice", "web"),
    ]
}

#[tokio::test]
async fn reads_share_the_cached_objects() {
    let (cache, _client) = cache_with(sample(), CacheOptions::default());
    let stop = CancellationToken::new();
    cache.start(stop.clone());
    let first = cache.get::<Gadget>(&key("a", "g1")).await.unwrap();
    let again = cache.get::<Gadget>(&key("a", "g1")).await.unwrap();
    assert!(Arc::ptr_eq(&first, &again));
    assert_eq!(first.spec.owner, "alice");
    assert!(matches!(
        cache.get::<Gadget>(&key("a", "nope")).await,
        Err(CacheError::NotFound { key, .. }) if key == "a/nope"
    ));
    stop.cancel();
}

#[tokio::test]
async fn list_by_namespace_labels_and_field_index() {
    let (cache, _client) = cache_with(sample(), CacheOptions::default());
    cache
        .index_field::<Gadget>("spec.owner", |g| vec![g.spec.owner.clone()])
        .unwrap();
    let stop = CancellationToken::new();
    cache.start(stop.clone());
    assert!(cache.wait_for_cache_sync(&stop).await);
    let all = cache.list::<Gadget>(&ListOptions::default()).await.unwrap();
    assert_eq!(names(all), vec!["a/g1", "a/g2", "b/g3"]);
    let in_a = cache
        .list::<Gadget>(&ListOptions::in_namespace("a"))
        .await
        .unwrap();
    assert_eq!(names(in_a), vec!["a/g1", "a/g2"]);
    let web = ListOptions::default().with_labels(labels::Selector::parse("app=web").unwrap());
    assert_eq!(
        names(cache.list::<Gadget>(&web).await.unwrap()),
        vec!["a/g1", "b/g3"]
    );
    let alice = fields("spec.owner=alice");
    assert_eq!(
        names(cache.list::<Gadget>(&alice).await.unwrap()),
        vec!["a/g1", "b/g3"]
    );
    let alice_in_b = ListOptions {
        namespace: Some("b".into()),
        ..fields("spec.owner=alice")
    };
    assert_eq!(
        names(cache.list::<Gadget>(&alice_in_b).await.unwrap()),
        vec!["b/g3"]
    );
    let by_name = fields("metadata.name=g2");
    assert_eq!(
        names(cache.list::<Gadget>(&by_name).await.unwrap()),
        vec!["a/g2"]
    );
    let unindexed = fields("spec.color=red");
    assert!(matches!(
        cache.list::<Gadget>(&unindexed).await,
        Err(CacheError::FieldNotIndexed { field, .. }) if field == "spec.color"
    ));
    // Too late for an index: the informer runs.
    assert!(matches!(
        cache.index_field::<Gadget>("spec.late", |_| vec![]),
        Err(CacheError::Informer {
            source: InformerError::AlreadyStarted { .. },
            ..
        })
    ));
    stop.cancel();
}

#[tokio::test]
async fn unstructured_and_metadata_informers_have_field_indexes_of_their_own() {
    let (cache, _client) = cache_with(sample(), CacheOptions::default());
    cache
        .index_field_for_kind(&Gadget::gvk(), "spec.owner", |g| {
            g.nested_string(&["spec", "owner"])
                .ok()
                .flatten()
                .map(str::to_owned)
                .into_iter()
                .collect()
        })
        .unwrap();
    cache
        .index_metadata_field(&Gadget::gvk(), "metadata.labels.app", |m| {
            m.metadata.labels.get("app").cloned().into_iter().collect()
        })
        .unwrap();
    let stop = CancellationToken::new();
    cache.start(stop.clone());
    assert!(cache.wait_for_cache_sync(&stop).await);
    let alice = cache
        .list_unstructured(&Gadget::gvk(), &fields("spec.owner=alice"))
        .await
        .unwrap();
    assert_eq!(names(alice), vec!["a/g1", "b/g3"]);
    let web = cache
        .list_metadata(&Gadget::gvk(), &fields("metadata.labels.app=web"))
        .await
        .unwrap();
    assert_eq!(names(web), vec!["a/g1", "b/g3"]);
    // The typed informer is another informer, without those indexes.
    assert!(matches!(
        cache.list::<Gadget>(&fields("spec.owner=alice")).await,
        Err(CacheError::FieldNotIndexed { .. })
    ));
    stop.cancel();
}

#[tokio::test]
async fn watch_events_reach_the_store_and_indexes() {
    let (cache, client) = cache_with(sample(), CacheOptions::default());
    cache
        .index_field::<Gadget>("spec.owner", |g| vec![g.spec.owner.clone()])
        .unwrap();
    let stop = CancellationToken::new();
    cache.start(stop.clone());
    let informer = cache.get_informer::<Gadget>().unwrap();
    informer.wait_for_sync().await;
    let tx = client
        .senders
        .lock()
        .unwrap()
        .get(&ObjectForm::Typed)
        .cloned()
        .unwrap();
    let mut moved = gadget("a", "g1", "carol", "web");
    moved.metadata.resource_version = "5".into();
    tx.send(Ok(WatchEvent::Modified(Box::new(moved)))).unwrap();
    for _ in 0..500 {
        if informer.last_sync_resource_version() == "5" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let carol = fields("spec.owner=carol");
    assert_eq!(
        names(cache.list::<Gadget>(&carol).await.unwrap()),
        vec!["a/g1"]
    );
    let alice = fields("spec.owner=alice");
    assert_eq!(
        names(cache.list::<Gadget>(&alice).await.unwrap()),
        vec!["b/g3"]
    );
    stop.cancel();
}

#[tokio::test]
async fn per_kind_restrictions_reach_the_client_and_unstructured_is_separate() {
    let mut options = CacheOptions::default();
    options.by_object.insert(
        Gadget::gvk(),
        ByObject {
            namespace: Some("b".into()),
            label_selector: Some("app=web".into()),
            ..ByObject::default()
        },
    );
    let (cache, client) = cache_with(sample(), options);
    let stop = CancellationToken::new();
    cache.start(stop.clone());
    let typed = cache.list::<Gadget>(&ListOptions::default()).await.unwrap();
    assert_eq!(names(typed), vec!["b/g3"]);
    let unstructured = cache
        .list_unstructured(&Gadget::gvk(), &ListOptions::default())
        .await
        .unwrap();
    assert_eq!(names(unstructured.clone()), vec!["b/g3"]);
    assert_eq!(
        unstructured[0].nested_string(&["spec", "owner"]).unwrap(),
        Some("alice")
    );
    let requests = client.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 2);
    assert!(
        requests.iter().all(|r| r.namespace.as_deref() == Some("b")
            && r.label_selector.as_deref() == Some("app=web"))
    );
    stop.cancel();
}

#[tokio::test]
async fn disabled_kinds_are_not_cached() {
    let mut options = CacheOptions::default();
    options.disable_for.insert(Gadget::gvk());
    let (cache, client) = cache_with(sample(), options);
    assert!(!cache.is_cached(&Gadget::gvk()));
    assert!(matches!(
        cache.get::<Gadget>(&key("a", "g1")).await,
        Err(CacheError::NotCached { .. })
    ));
    assert!(client.requests.lock().unwrap().is_empty());
}

#[tokio::test]
async fn per_kind_transform_replaces_the_default() {
    let mut options = CacheOptions::default();
    options.by_object.insert(
        Gadget::gvk(),
        ByObject {
            transform: Some(Arc::new(|obj: &mut dyn Object| {
                if let Some(g) = obj.downcast_mut::<Gadget>() {
                    g.spec.owner = g.spec.owner.to_uppercase();
                }
            })),
            ..ByObject::default()
        },
    );
    let (cache, _client) = cache_with(sample(), options);
    let stop = CancellationToken::new();
    cache.start(stop.clone());
    assert_eq!(
        cache
            .get::<Gadget>(&key("a", "g2"))
            .await
            .unwrap()
            .spec
            .owner,
        "BOB"
    );
    stop.cancel();
}
