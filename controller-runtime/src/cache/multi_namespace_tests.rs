//! The multi-namespace lister/watcher over a fake server whose namespaces each keep a log
//! of committed events: a watch from a resourceVersion replays the log after it, then
//! gets what the test delivers, so each test decides which namespace's event arrives
//! first and when a watch ends.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use k8s_types::core::v1::ConfigMap;
use tokio::sync::mpsc;

use super::lister_watcher::{ListResult, ListWatchError, ListerWatcher, WatchEvent, WatchStream};
use super::multi_namespace::{
    MakeFn, MultiNamespaceListerWatcher, Scope, ScopeFn, newest_resource_version,
};

type Item = Result<WatchEvent<ConfigMap>, ListWatchError>;

fn cm(ns: &str, rv: u64) -> ConfigMap {
    let mut cm = ConfigMap::default();
    cm.metadata.namespace = ns.into();
    cm.metadata.name = format!("cm-{rv}");
    cm.metadata.resource_version = rv.to_string();
    cm
}

#[derive(Default)]
struct Namespace {
    list_rv: u64,
    items: Vec<ConfigMap>,
    /// Committed events, by resourceVersion.
    log: Vec<u64>,
    /// The open watch, if any.
    live: Option<mpsc::UnboundedSender<Item>>,
}

#[derive(Default)]
struct Server {
    namespaces: Mutex<BTreeMap<String, Namespace>>,
    /// Every watch asked for: (namespace, from resourceVersion).
    watches: Mutex<Vec<(String, String)>>,
    lists: Mutex<Vec<Option<String>>>,
}

impl Server {
    fn with(namespaces: &[(&str, u64)]) -> Arc<Self> {
        let server = Server::default();
        for (ns, rv) in namespaces {
            server.namespaces.lock().unwrap().insert(
                (*ns).to_owned(),
                Namespace {
                    list_rv: *rv,
                    items: vec![cm(ns, *rv)],
                    ..Namespace::default()
                },
            );
        }
        Arc::new(server)
    }

    /// An event written on the server, not yet sent to the open watch.
    fn commit(&self, ns: &str, rv: u64) {
        self.namespaces
            .lock()
            .unwrap()
            .get_mut(ns)
            .unwrap()
            .log
            .push(rv);
    }

    /// Sends a committed event to the namespace's open watch.
    fn deliver(&self, ns: &str, rv: u64) {
        let namespaces = self.namespaces.lock().unwrap();
        let live = namespaces[ns].live.as_ref().unwrap();
        live.send(Ok(WatchEvent::Modified(cm(ns, rv)))).unwrap();
    }

    fn commit_and_deliver(&self, ns: &str, rv: u64) {
        self.commit(ns, rv);
        self.deliver(ns, rv);
    }

    fn fail(&self, ns: &str) {
        let namespaces = self.namespaces.lock().unwrap();
        let live = namespaces[ns].live.as_ref().unwrap();
        live.send(Err(ListWatchError::other("watch", "connection reset")))
            .unwrap();
    }

    /// The server closes the namespace's watch.
    fn end(&self, ns: &str) {
        self.namespaces.lock().unwrap().get_mut(ns).unwrap().live = None;
    }

    fn watches(&self) -> Vec<(String, String)> {
        std::mem::take(&mut *self.watches.lock().unwrap())
    }
}

struct NamespaceLw {
    server: Arc<Server>,
    namespace: Option<String>,
}

impl ListerWatcher<ConfigMap> for NamespaceLw {
    fn list(&self) -> BoxFuture<'_, Result<ListResult<ConfigMap>, ListWatchError>> {
        self.server
            .lists
            .lock()
            .unwrap()
            .push(self.namespace.clone());
        let namespaces = self.server.namespaces.lock().unwrap();
        let result = match &self.namespace {
            Some(ns) => ListResult {
                items: namespaces[ns].items.clone(),
                resource_version: namespaces[ns].list_rv.to_string(),
            },
            None => ListResult {
                items: namespaces.values().flat_map(|n| n.items.clone()).collect(),
                resource_version: "100".into(),
            },
        };
        Box::pin(std::future::ready(Ok(result)))
    }

    fn watch(&self, rv: &str) -> BoxFuture<'_, Result<WatchStream<ConfigMap>, ListWatchError>> {
        let Some(ns) = self.namespace.clone() else {
            panic!("a namespaced kind is never watched cluster-wide here");
        };
        self.server
            .watches
            .lock()
            .unwrap()
            .push((ns.clone(), rv.to_owned()));
        let from: u64 = rv.parse().unwrap();
        let (tx, rx) = mpsc::unbounded_channel();
        let mut namespaces = self.server.namespaces.lock().unwrap();
        let state = namespaces.get_mut(&ns).unwrap();
        for committed in state.log.iter().filter(|c| **c > from) {
            tx.send(Ok(WatchEvent::Modified(cm(&ns, *committed))))
                .unwrap();
        }
        state.live = Some(tx);
        let stream =
            futures_util::stream::unfold(
                rx,
                |mut rx| async move { rx.recv().await.map(|e| (e, rx)) },
            );
        Box::pin(std::future::ready(Ok(stream.boxed())))
    }
}

fn multi(
    server: &Arc<Server>,
    namespaces: &[&str],
    scope: Scope,
) -> MultiNamespaceListerWatcher<ConfigMap> {
    let for_make = Arc::clone(server);
    let make: MakeFn<ConfigMap> = Arc::new(move |namespace| {
        Ok(Arc::new(NamespaceLw {
            server: Arc::clone(&for_make),
            namespace,
        }) as Arc<dyn ListerWatcher<ConfigMap>>)
    });
    let find_scope: ScopeFn = Arc::new(move |_gvk| Box::pin(std::future::ready(Ok(scope))));
    MultiNamespaceListerWatcher::new(
        <ConfigMap as apimachinery::runtime::Resource>::gvk(),
        namespaces.iter().map(|ns| (*ns).to_owned()),
        make,
        find_scope,
        Arc::new(OnceLock::new()),
    )
    .unwrap()
}

/// `namespace/resourceVersion` of the next event.
async fn next(stream: &mut WatchStream<ConfigMap>) -> Option<String> {
    match stream.next().await? {
        Ok(WatchEvent::Modified(cm)) => Some(format!(
            "{}/{}",
            cm.metadata.namespace, cm.metadata.resource_version
        )),
        other => panic!("unexpected {other:?}"),
    }
}

fn pair(ns: &str, rv: &str) -> (String, String) {
    (ns.to_owned(), rv.to_owned())
}

#[tokio::test]
async fn list_is_the_union_and_hands_out_the_newest_resource_version() {
    let server = Server::with(&[("a", 5), ("b", 10)]);
    let lw = multi(&server, &["a", "b"], Scope::Namespaced);
    let list = lw.list().await.unwrap();
    assert_eq!(list.resource_version, "10");
    let mut names: Vec<_> = list
        .items
        .iter()
        .map(|c| format!("{}/{}", c.metadata.namespace, c.metadata.name))
        .collect();
    names.sort();
    assert_eq!(names, vec!["a/cm-5", "b/cm-10"]);
    // Watching from the list's resourceVersion resumes each namespace from its own.
    let _watch = lw.watch("10").await.unwrap();
    assert_eq!(server.watches(), vec![pair("a", "5"), pair("b", "10")]);
}

#[tokio::test]
async fn no_event_is_missed_when_a_newer_one_of_another_namespace_came_first() {
    let server = Server::with(&[("a", 5), ("b", 10)]);
    let lw = multi(&server, &["a", "b"], Scope::Namespaced);
    let rv = lw.list().await.unwrap().resource_version;
    let mut watch = lw.watch(&rv).await.unwrap();
    server.commit_and_deliver("b", 12);
    assert_eq!(next(&mut watch).await.as_deref(), Some("b/12"));
    // a's older event is written but its watch closes before sending it; the merged
    // watch ends with it.
    server.commit("a", 11);
    server.end("b");
    assert_eq!(next(&mut watch).await, None);
    drop(watch);
    server.watches();
    // The reflector watches again from the last resourceVersion it saw, 12: a resumes
    // from 5 (it sent nothing since its list) and gets 11; b resumes from 12.
    let mut watch = lw.watch("12").await.unwrap();
    assert_eq!(server.watches(), vec![pair("a", "5"), pair("b", "12")]);
    assert_eq!(next(&mut watch).await.as_deref(), Some("a/11"));
}

#[tokio::test]
async fn no_event_is_repeated_when_an_older_one_of_another_namespace_came_last() {
    let server = Server::with(&[("a", 5), ("b", 10)]);
    let lw = multi(&server, &["a", "b"], Scope::Namespaced);
    let rv = lw.list().await.unwrap().resource_version;
    let mut watch = lw.watch(&rv).await.unwrap();
    // b's 14 arrives before a's older 13; the reflector's resourceVersion ends at 13.
    server.commit("a", 13);
    server.commit_and_deliver("b", 14);
    assert_eq!(next(&mut watch).await.as_deref(), Some("b/14"));
    server.deliver("a", 13);
    assert_eq!(next(&mut watch).await.as_deref(), Some("a/13"));
    server.end("a");
    assert_eq!(next(&mut watch).await, None);
    drop(watch);
    server.watches();
    let mut watch = lw.watch("13").await.unwrap();
    // Resuming b from 13 would send its 14 again.
    assert_eq!(server.watches(), vec![pair("a", "13"), pair("b", "14")]);
    server.commit_and_deliver("a", 15);
    server.commit_and_deliver("b", 16);
    let mut first_two = vec![
        next(&mut watch).await.unwrap(),
        next(&mut watch).await.unwrap(),
    ];
    first_two.sort();
    assert_eq!(first_two, vec!["a/15", "b/16"]);
}

#[tokio::test]
async fn bookmarks_move_their_namespace_on() {
    let server = Server::with(&[("a", 5), ("b", 10)]);
    let lw = multi(&server, &["a", "b"], Scope::Namespaced);
    let rv = lw.list().await.unwrap().resource_version;
    let mut watch = lw.watch(&rv).await.unwrap();
    {
        let namespaces = server.namespaces.lock().unwrap();
        namespaces["a"]
            .live
            .as_ref()
            .unwrap()
            .send(Ok(WatchEvent::Bookmark {
                resource_version: "20".into(),
            }))
            .unwrap();
    }
    assert!(matches!(
        watch.next().await,
        Some(Ok(WatchEvent::Bookmark { resource_version })) if resource_version == "20"
    ));
    drop(watch);
    server.watches();
    let _watch = lw.watch("20").await.unwrap();
    assert_eq!(server.watches(), vec![pair("a", "20"), pair("b", "10")]);
}

#[tokio::test]
async fn another_resource_version_applies_to_every_namespace() {
    let server = Server::with(&[("a", 5), ("b", 10)]);
    let lw = multi(&server, &["a", "b"], Scope::Namespaced);
    lw.list().await.unwrap();
    let _watch = lw.watch("7").await.unwrap();
    assert_eq!(server.watches(), vec![pair("a", "7"), pair("b", "7")]);
}

#[tokio::test]
async fn an_error_on_one_namespace_is_the_merged_watch_error_and_ends_it() {
    let server = Server::with(&[("a", 5), ("b", 10)]);
    let lw = multi(&server, &["a", "b"], Scope::Namespaced);
    let rv = lw.list().await.unwrap().resource_version;
    let mut watch = lw.watch(&rv).await.unwrap();
    server.fail("b");
    assert!(matches!(
        watch.next().await,
        Some(Err(ListWatchError::Other { .. }))
    ));
    server.commit_and_deliver("a", 11);
    assert!(watch.next().await.is_none());
}

#[tokio::test]
async fn cluster_scoped_kinds_are_listed_once_cluster_wide() {
    let server = Server::with(&[("a", 5), ("b", 10), ("c", 12)]);
    let lw = multi(&server, &["a", "b"], Scope::Cluster);
    let list = lw.list().await.unwrap();
    assert_eq!(list.items.len(), 3);
    assert_eq!(list.resource_version, "100");
    assert_eq!(*server.lists.lock().unwrap(), vec![None]);
}

#[test]
fn newest_is_the_greatest_number_or_else_the_last() {
    let rvs = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    assert_eq!(newest_resource_version(rvs(&["9", "10", "2"]).iter()), "10");
    assert_eq!(newest_resource_version(rvs(&["x", "10"]).iter()), "10");
    assert_eq!(newest_resource_version(rvs(&["10", "x"]).iter()), "x");
    assert_eq!(newest_resource_version(rvs(&[]).iter()), "");
}

async fn eventually(what: &str, mut cond: impl FnMut() -> bool) {
    for _ in 0..1000 {
        if cond() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    panic!("timed out waiting for {what}");
}

/// The same race through an informer: its reflector watches again from the last
/// resourceVersion it saw, and the store gets a's older event once.
#[tokio::test]
async fn an_informer_over_namespaces_gets_every_event_across_a_rewatch() {
    let server = Server::with(&[("a", 5), ("b", 10)]);
    let informer = super::Informer::new(
        Arc::new(multi(&server, &["a", "b"], Scope::Namespaced)),
        super::ReflectorOptions::default(),
    );
    let stop = tokio_util::sync::CancellationToken::new();
    informer.start(stop.clone()).unwrap();
    informer.wait_for_sync().await;
    eventually("the first watches", || {
        server.watches.lock().unwrap().len() == 2
    })
    .await;
    server.commit_and_deliver("b", 12);
    eventually("b's event", || {
        informer.last_sync_resource_version() == "12"
    })
    .await;
    server.commit("a", 11);
    server.end("b");
    eventually("a's older event", || {
        informer.indexer().get_by_key("a/cm-11").is_some()
    })
    .await;
    assert_eq!(
        server.watches(),
        vec![
            pair("a", "5"),
            pair("b", "10"),
            pair("a", "5"),
            pair("b", "12")
        ]
    );
    assert_eq!(informer.indexer().len(), 4);
    stop.cancel();
}
