//! The informer and its reflector against a scripted lister/watcher.
#![allow(clippy::unwrap_used)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use apimachinery::apis::meta::v1::ObjectMetaAccessor;
use apimachinery::runtime::Unstructured;
use futures_util::future::BoxFuture;
use serde_json::json;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::*;

type Event = Result<WatchEvent<Unstructured>, ListWatchError>;
type Events = mpsc::UnboundedSender<Event>;

#[derive(Default)]
struct Script {
    lists: VecDeque<Result<ListResult<Unstructured>, ListWatchError>>,
    watches: VecDeque<Result<mpsc::UnboundedReceiver<Event>, ListWatchError>>,
    calls: Vec<String>,
}

#[derive(Default, Clone)]
struct Scripted(Arc<Mutex<Script>>);

impl Scripted {
    fn push_list(&self, rv: &str, items: Vec<Unstructured>) {
        self.0.lock().unwrap().lists.push_back(Ok(ListResult {
            items,
            resource_version: rv.into(),
        }));
    }
    fn push_list_error(&self, error: ListWatchError) {
        self.0.lock().unwrap().lists.push_back(Err(error));
    }
    fn push_watch(&self) -> Events {
        let (tx, rx) = mpsc::unbounded_channel();
        self.0.lock().unwrap().watches.push_back(Ok(rx));
        tx
    }
    fn push_watch_error(&self, error: ListWatchError) {
        self.0.lock().unwrap().watches.push_back(Err(error));
    }
    fn calls(&self) -> Vec<String> {
        self.0.lock().unwrap().calls.clone()
    }
}

impl ListerWatcher<Unstructured> for Scripted {
    fn list(&self) -> BoxFuture<'_, Result<ListResult<Unstructured>, ListWatchError>> {
        let next = {
            let mut s = self.0.lock().unwrap();
            s.calls.push("list".into());
            s.lists.pop_front()
        };
        Box::pin(async move {
            match next {
                Some(r) => r,
                None => std::future::pending().await,
            }
        })
    }
    fn watch(&self, rv: &str) -> BoxFuture<'_, Result<WatchStream<Unstructured>, ListWatchError>> {
        let next = {
            let mut s = self.0.lock().unwrap();
            s.calls.push(format!("watch {rv}"));
            s.watches.pop_front()
        };
        Box::pin(async move {
            match next {
                Some(Ok(rx)) => Ok(
                    Box::pin(futures_util::stream::unfold(rx, |mut rx| async move {
                        rx.recv().await.map(|e| (e, rx))
                    })) as WatchStream<_>,
                ),
                Some(Err(e)) => Err(e),
                None => std::future::pending().await,
            }
        })
    }
}

fn cm(name: &str, rv: &str, data: &str) -> Unstructured {
    Unstructured::from_value(json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name, "namespace": "ns", "resourceVersion": rv,
            "managedFields": [{"manager": "test", "operation": "Update"}]},
        "data": {"k": data}}))
    .unwrap()
}

fn data(obj: &Unstructured) -> String {
    obj.nested_string(&["data", "k"])
        .unwrap()
        .unwrap_or_default()
        .to_owned()
}

#[derive(Default, Clone)]
struct Recorder(Arc<Mutex<Vec<String>>>);

impl Recorder {
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

impl ResourceEventHandler<Unstructured> for Recorder {
    fn on_add(&self, obj: Arc<Unstructured>, initial: bool) {
        self.0
            .lock()
            .unwrap()
            .push(format!("add {} {} {initial}", obj.name(), data(&obj)));
    }
    fn on_update(&self, old: Arc<Unstructured>, new: Arc<Unstructured>) {
        self.0.lock().unwrap().push(format!(
            "update {} {}->{}",
            new.name(),
            data(&old),
            data(&new)
        ));
    }
    fn on_delete(&self, obj: Arc<Unstructured>) {
        self.0
            .lock()
            .unwrap()
            .push(format!("delete {}", obj.name()));
    }
    fn on_delete_final_state_unknown(&self, obj: Arc<Unstructured>) {
        self.0
            .lock()
            .unwrap()
            .push(format!("tombstone {}", obj.name()));
    }
}

fn options() -> ReflectorOptions<Unstructured> {
    ReflectorOptions {
        initial_backoff: Duration::from_millis(1),
        max_backoff: Duration::from_millis(5),
        transform: Some(Arc::new(strip_managed_fields)),
        ..ReflectorOptions::default()
    }
}

/// Polls until `cond` holds (the informer runs on another task).
async fn eventually(what: &str, mut cond: impl FnMut() -> bool) {
    for _ in 0..500 {
        if cond() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    assert!(cond(), "timed out waiting for {what}");
}

#[tokio::test]
async fn lists_then_watches_from_the_list_resource_version() {
    let lw = Scripted::default();
    lw.push_list("10", vec![cm("a", "5", "1"), cm("b", "6", "1")]);
    let tx = lw.push_watch();
    let informer = Informer::new(Arc::new(lw.clone()), options());
    let rec = Recorder::default();
    informer.add_event_handler(rec.clone());
    let stop = CancellationToken::new();
    informer.start(stop.clone()).unwrap();
    informer.wait_for_sync().await;
    assert!(informer.has_synced());
    let mut initial = rec.take();
    initial.sort();
    assert_eq!(initial, vec!["add a 1 true", "add b 1 true"]);
    eventually("watch", || lw.calls() == ["list", "watch 10"]).await;

    tx.send(Ok(WatchEvent::Added(cm("c", "11", "1")))).unwrap();
    tx.send(Ok(WatchEvent::Modified(cm("a", "12", "2"))))
        .unwrap();
    tx.send(Ok(WatchEvent::Deleted(cm("b", "13", "1"))))
        .unwrap();
    eventually("events", || informer.last_sync_resource_version() == "13").await;
    assert_eq!(
        rec.take(),
        vec!["add c 1 false", "update a 1->2", "delete b"]
    );
    let a = informer.indexer().get_by_key("ns/a").unwrap();
    assert_eq!(data(&a), "2");
    // The default transform ran before storing.
    assert!(a.managed_fields().is_empty());
    assert!(informer.indexer().get_by_key("ns/b").is_none());
    assert!(matches!(
        informer.start(stop.clone()),
        Err(InformerError::StartedTwice)
    ));
    stop.cancel();
}

#[tokio::test]
async fn bookmarks_move_the_resource_version_a_rewatch_starts_from() {
    let lw = Scripted::default();
    lw.push_list("10", vec![]);
    let tx = lw.push_watch();
    let _second = lw.push_watch();
    let informer = Informer::new(Arc::new(lw.clone()), options());
    let stop = CancellationToken::new();
    informer.start(stop.clone()).unwrap();
    informer.wait_for_sync().await;
    tx.send(Ok(WatchEvent::Added(cm("a", "15", "1")))).unwrap();
    tx.send(Ok(WatchEvent::Bookmark {
        resource_version: "40".into(),
    }))
    .unwrap();
    drop(tx); // the server closes the watch
    eventually("re-watch", || lw.calls().len() == 3).await;
    assert_eq!(lw.calls(), vec!["list", "watch 10", "watch 40"]);
    assert_eq!(informer.indexer().len(), 1);
    stop.cancel();
}

#[tokio::test]
async fn expired_watch_relists_and_diffs_against_the_store() {
    let lw = Scripted::default();
    lw.push_list("10", vec![cm("a", "5", "1"), cm("b", "6", "1")]);
    let tx = lw.push_watch();
    lw.push_list("50", vec![cm("b", "45", "2"), cm("c", "46", "1")]);
    let _after = lw.push_watch();
    let errors = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&errors);
    let informer = Informer::new(
        Arc::new(lw.clone()),
        ReflectorOptions {
            watch_error_handler: Some(Arc::new(move |e: &ListWatchError| {
                seen.lock().unwrap().push(e.is_expired())
            })),
            ..options()
        },
    );
    let rec = Recorder::default();
    informer.add_event_handler(rec.clone());
    let stop = CancellationToken::new();
    informer.start(stop.clone()).unwrap();
    informer.wait_for_sync().await;
    rec.take();
    tx.send(Err(ListWatchError::Expired {
        resource_version: "10".into(),
        message: "too old resource version: 10 (30)".into(),
    }))
    .unwrap();
    eventually("relist", || lw.calls().len() == 4).await;
    assert_eq!(lw.calls(), vec!["list", "watch 10", "list", "watch 50"]);
    let mut events = rec.take();
    events.sort();
    // b changed, c is new (not in the first list), a vanished while we were not
    // watching: its deletion was missed, so it is a tombstone.
    assert_eq!(
        events,
        vec!["add c 1 false", "tombstone a", "update b 1->2"]
    );
    let mut keys = informer.indexer().list_keys();
    keys.sort();
    assert_eq!(keys, vec!["ns/b", "ns/c"]);
    assert_eq!(*errors.lock().unwrap(), vec![true]);
    stop.cancel();
}

#[tokio::test]
async fn failures_are_retried_with_backoff_from_the_last_resource_version() {
    let lw = Scripted::default();
    lw.push_list_error(ListWatchError::other(
        "list configmaps",
        "connection refused",
    ));
    lw.push_list("10", vec![]);
    lw.push_watch_error(ListWatchError::other(
        "watch configmaps",
        "connection refused",
    ));
    let tx = lw.push_watch();
    let _third = lw.push_watch();
    let informer = Informer::new(Arc::new(lw.clone()), options());
    let stop = CancellationToken::new();
    informer.start(stop.clone()).unwrap();
    informer.wait_for_sync().await;
    eventually("second watch", || lw.calls().len() == 4).await;
    tx.send(Ok(WatchEvent::Added(cm("a", "11", "1")))).unwrap();
    tx.send(Err(ListWatchError::other(
        "watch configmaps",
        "connection reset",
    )))
    .unwrap();
    eventually("third watch", || lw.calls().len() == 5).await;
    assert_eq!(
        lw.calls(),
        vec!["list", "list", "watch 10", "watch 10", "watch 11"]
    );
    stop.cancel();
}

#[tokio::test]
async fn an_expired_watch_start_relists() {
    let lw = Scripted::default();
    lw.push_list("10", vec![]);
    lw.push_watch_error(ListWatchError::Expired {
        resource_version: "10".into(),
        message: "gone".into(),
    });
    lw.push_list("20", vec![]);
    let _w = lw.push_watch();
    let informer = Informer::new(Arc::new(lw.clone()), options());
    let stop = CancellationToken::new();
    informer.start(stop.clone()).unwrap();
    eventually("relist", || lw.calls().len() == 4).await;
    assert_eq!(lw.calls(), vec!["list", "watch 10", "list", "watch 20"]);
    stop.cancel();
}

#[tokio::test]
async fn resync_redelivers_every_object_as_an_update() {
    let lw = Scripted::default();
    lw.push_list("10", vec![cm("a", "5", "1")]);
    let _w = lw.push_watch();
    let informer = Informer::new(
        Arc::new(lw.clone()),
        ReflectorOptions {
            resync_period: Some(Duration::from_millis(20)),
            ..options()
        },
    );
    let rec = Recorder::default();
    informer.add_event_handler(rec.clone());
    let stop = CancellationToken::new();
    informer.start(stop.clone()).unwrap();
    eventually("resync", || rec.0.lock().unwrap().len() >= 3).await;
    let events = rec.take();
    assert_eq!(events[0], "add a 1 true");
    assert!(
        events[1..].iter().all(|e| e == "update a 1->1"),
        "{events:?}"
    );
    stop.cancel();
}

#[tokio::test]
async fn late_handlers_get_the_store_then_changes_and_can_be_removed() {
    let lw = Scripted::default();
    lw.push_list("10", vec![cm("a", "5", "1")]);
    let tx = lw.push_watch();
    let informer = Informer::new(Arc::new(lw.clone()), options());
    let stop = CancellationToken::new();
    informer.start(stop.clone()).unwrap();
    informer.wait_for_sync().await;
    let rec = Recorder::default();
    let registration = informer.add_event_handler(rec.clone());
    assert_eq!(rec.take(), vec!["add a 1 true"]);
    tx.send(Ok(WatchEvent::Modified(cm("a", "11", "2"))))
        .unwrap();
    eventually("update", || informer.last_sync_resource_version() == "11").await;
    assert_eq!(rec.take(), vec!["update a 1->2"]);
    assert!(informer.remove_event_handler(registration));
    assert!(!informer.remove_event_handler(registration));
    tx.send(Ok(WatchEvent::Modified(cm("a", "12", "3"))))
        .unwrap();
    eventually("update", || informer.last_sync_resource_version() == "12").await;
    assert!(rec.take().is_empty());
    stop.cancel();
}

#[tokio::test]
async fn indexes_are_added_before_start_only() {
    let lw = Scripted::default();
    lw.push_list("10", vec![cm("a", "5", "x"), cm("b", "5", "y")]);
    let _w = lw.push_watch();
    let informer = Informer::new(Arc::new(lw.clone()), options());
    let by_data: IndexFunc<Unstructured> = Arc::new(|o: &Unstructured| vec![data(o)]);
    informer
        .add_indexers([("data".to_owned(), Arc::clone(&by_data))])
        .unwrap();
    let stop = CancellationToken::new();
    informer.start(stop.clone()).unwrap();
    informer.wait_for_sync().await;
    assert_eq!(
        informer.indexer().index_keys("data", "x").unwrap(),
        vec!["ns/a"]
    );
    assert!(matches!(
        informer.add_indexers([("late".to_owned(), by_data)]),
        Err(InformerError::AlreadyStarted { name }) if name == "late"
    ));
    stop.cancel();
}

#[tokio::test]
async fn cancel_stops_a_blocked_informer() {
    let lw = Scripted::default(); // list never answers
    let informer = Informer::new(Arc::new(lw), options());
    let stop = CancellationToken::new();
    let handle = informer.start(stop.clone()).unwrap();
    stop.cancel();
    tokio::time::timeout(Duration::from_secs(5), handle)
        .await
        .unwrap()
        .unwrap();
    assert!(!informer.has_synced());
}
