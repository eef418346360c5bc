//! A lister/watcher over a set of namespaces (what controller-runtime's
//! `multiNamespaceCache` does with one informer per namespace, done here under ONE informer
//! so that a kind keeps one store, one set of indexes and one set of handlers).
//!
//! `list` lists every namespace and returns the union. `watch` merges one watch per
//! namespace and ends as soon as any of them ends or fails, so that the reflector watches
//! again (or relists) for all of them.
//!
//! Each namespace is its own watch on the server, so their events interleave in no
//! resourceVersion order: namespace `b`'s event 12 may arrive before namespace `a`'s 11.
//! One resourceVersion cannot then say where each watch stands (resuming both from 12
//! loses `a`'s 11; from 11 repeats `b`'s 12), so the lister/watcher remembers each
//! namespace's own resourceVersion (from its list, then from every event and bookmark it
//! hands on) and, asked to watch from the resourceVersion it handed out last, resumes each
//! namespace where that namespace stood. Any other resourceVersion is applied to every
//! namespace.
//!
//! Cluster-scoped kinds have no namespaces: once the first list has learned the kind's
//! scope, they are listed and watched cluster-wide, as Go's multi-namespace cache sends
//! them to its cluster-wide cache.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use apimachinery::runtime::Object;
use apimachinery::schema::GroupVersionKind;
use futures_util::future::{BoxFuture, try_join_all};
use futures_util::stream::{self, StreamExt};

use super::lister_watcher::{ListResult, ListWatchError, ListerWatcher, WatchEvent, WatchStream};

/// Whether a kind's objects live in namespaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    Namespaced,
    Cluster,
}

/// Finds the scope of a kind (through the client's RESTMapper, or a factory).
pub(crate) type ScopeFn = Arc<
    dyn Fn(GroupVersionKind) -> BoxFuture<'static, Result<Scope, ListWatchError>> + Send + Sync,
>;

/// Makes the lister/watcher of one namespace, or of all of them for `None`.
pub(crate) type MakeFn<T> =
    Arc<dyn Fn(Option<String>) -> Result<Arc<dyn ListerWatcher<T>>, ListWatchError> + Send + Sync>;

/// Where the watches stand.
#[derive(Debug, Default)]
struct Positions {
    /// Each namespace's resourceVersion: from its list, then from the last event or
    /// bookmark of it handed on.
    per_namespace: BTreeMap<Arc<str>, String>,
    /// The resourceVersion handed out last (a list's, an event's or a bookmark's).
    handed_out: Option<String>,
}

/// Lists and watches a kind in a set of namespaces.
pub(crate) struct MultiNamespaceListerWatcher<T> {
    gvk: GroupVersionKind,
    namespaces: Vec<(Arc<str>, Arc<dyn ListerWatcher<T>>)>,
    make: MakeFn<T>,
    find_scope: ScopeFn,
    /// Learned on the first list; shared with the cache, whose reads check namespaces
    /// only for namespaced kinds.
    scope: Arc<OnceLock<Scope>>,
    cluster_wide: OnceLock<Arc<dyn ListerWatcher<T>>>,
    positions: Arc<Mutex<Positions>>,
}

/// What to list and watch, once the scope is known.
enum Target<'a, T> {
    ClusterWide(&'a Arc<dyn ListerWatcher<T>>),
    Namespaces,
}

impl<T: Object> MultiNamespaceListerWatcher<T> {
    /// A lister/watcher of `namespaces` (at least one); their lister/watchers are made at
    /// once so that a bad request (such as a malformed selector) fails here.
    pub(crate) fn new(
        gvk: GroupVersionKind,
        namespaces: impl IntoIterator<Item = String>,
        make: MakeFn<T>,
        find_scope: ScopeFn,
        scope: Arc<OnceLock<Scope>>,
    ) -> Result<Self, ListWatchError> {
        let namespaces = namespaces
            .into_iter()
            .map(|ns| Ok((Arc::from(ns.as_str()), make(Some(ns))?)))
            .collect::<Result<Vec<_>, ListWatchError>>()?;
        Ok(MultiNamespaceListerWatcher {
            gvk,
            namespaces,
            make,
            find_scope,
            scope,
            cluster_wide: OnceLock::new(),
            positions: Arc::new(Mutex::new(Positions::default())),
        })
    }

    async fn target(&self) -> Result<Target<'_, T>, ListWatchError> {
        let scope = match self.scope.get() {
            Some(scope) => *scope,
            None => {
                let found = (self.find_scope)(self.gvk.clone()).await?;
                *self.scope.get_or_init(|| found)
            }
        };
        match scope {
            Scope::Namespaced => Ok(Target::Namespaces),
            Scope::Cluster => {
                if let Some(lw) = self.cluster_wide.get() {
                    return Ok(Target::ClusterWide(lw));
                }
                let made = (self.make)(None)?;
                Ok(Target::ClusterWide(self.cluster_wide.get_or_init(|| made)))
            }
        }
    }

    fn positions(&self) -> std::sync::MutexGuard<'_, Positions> {
        self.positions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// The newest of the namespaces' list resourceVersions: the greatest when all are numbers
/// (as every Kubernetes server's are), else the last namespace's in name order (Go keeps
/// its last list's). It is a token: a watch from it resumes each namespace from its own.
pub(crate) fn newest_resource_version<'a>(
    versions: impl Iterator<Item = &'a String> + Clone,
) -> String {
    let numeric: Option<Vec<u64>> = versions.clone().map(|rv| rv.parse().ok()).collect();
    match numeric.and_then(|n| n.into_iter().max()) {
        Some(max) => max.to_string(),
        None => versions.last().cloned().unwrap_or_default(),
    }
}

fn event_resource_version<T: Object>(event: &WatchEvent<T>) -> Option<&str> {
    let rv = match event {
        WatchEvent::Added(o) | WatchEvent::Modified(o) | WatchEvent::Deleted(o) => {
            o.meta().map(|m| m.resource_version())?
        }
        WatchEvent::Bookmark { resource_version } => resource_version.as_str(),
    };
    (!rv.is_empty()).then_some(rv)
}

/// One namespace's watch, its end marked by `None` so that the merged stream can stop.
type Tagged<T> = (Arc<str>, Option<Result<WatchEvent<T>, ListWatchError>>);

impl<T: Object> ListerWatcher<T> for MultiNamespaceListerWatcher<T> {
    fn list(&self) -> BoxFuture<'_, Result<ListResult<T>, ListWatchError>> {
        Box::pin(async move {
            if let Target::ClusterWide(lw) = self.target().await? {
                return lw.list().await;
            }
            let lists =
                try_join_all(self.namespaces.iter().map(|(ns, lw)| async move {
                    Ok::<_, ListWatchError>((ns, lw.list().await?))
                }))
                .await?;
            let mut items = Vec::new();
            let mut positions = self.positions();
            positions.per_namespace.clear();
            for (ns, list) in lists {
                positions
                    .per_namespace
                    .insert(Arc::clone(ns), list.resource_version);
                items.extend(list.items);
            }
            let resource_version = newest_resource_version(positions.per_namespace.values());
            positions.handed_out = Some(resource_version.clone());
            Ok(ListResult {
                items,
                resource_version,
            })
        })
    }

    fn watch(
        &self,
        resource_version: &str,
    ) -> BoxFuture<'_, Result<WatchStream<T>, ListWatchError>> {
        let rv = resource_version.to_owned();
        Box::pin(async move {
            if let Target::ClusterWide(lw) = self.target().await? {
                return lw.watch(&rv).await;
            }
            let starts: Vec<String> = {
                let mut positions = self.positions();
                if positions.handed_out.as_deref() == Some(rv.as_str()) {
                    self.namespaces
                        .iter()
                        .map(|(ns, _)| {
                            positions
                                .per_namespace
                                .get(ns)
                                .cloned()
                                .unwrap_or_else(|| rv.clone())
                        })
                        .collect()
                } else {
                    for (ns, _) in &self.namespaces {
                        positions.per_namespace.insert(Arc::clone(ns), rv.clone());
                    }
                    positions.handed_out = Some(rv.clone());
                    vec![rv.clone(); self.namespaces.len()]
                }
            };
            let streams = try_join_all(self.namespaces.iter().zip(&starts).map(
                |((ns, lw), start)| async move {
                    let events = lw.watch(start).await?;
                    let ns = Arc::clone(ns);
                    let end = Arc::clone(&ns);
                    Ok::<_, ListWatchError>(
                        events
                            .map(move |item| (Arc::clone(&ns), Some(item)))
                            .chain(stream::once(async move { (end, None) }))
                            .boxed(),
                    )
                },
            ))
            .await?;
            let positions = Arc::clone(&self.positions);
            // Positions move when an event is handed on, not when it arrives: events
            // still queued in a namespace's stream when the merged stream is dropped
            // are sent again by that namespace's next watch.
            let merged =
                stream::select_all(streams).scan(false, move |failed, (ns, item): Tagged<T>| {
                    let out = match item {
                        _ if *failed => None,
                        None => None,
                        Some(Err(error)) => {
                            *failed = true;
                            Some(Err(error))
                        }
                        Some(Ok(event)) => {
                            if let Some(rv) = event_resource_version(&event) {
                                let mut positions =
                                    positions.lock().unwrap_or_else(PoisonError::into_inner);
                                positions.per_namespace.insert(ns, rv.to_owned());
                                positions.handed_out = Some(rv.to_owned());
                            }
                            Some(Ok(event))
                        }
                    };
                    std::future::ready(out)
                });
            Ok(merged.boxed())
        })
    }
}
