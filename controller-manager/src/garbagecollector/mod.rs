//! The garbage collector (Go's `pkg/controller/garbagecollector`): objects whose owners
//! are gone are deleted, across every resource the server can list, watch and delete —
//! built-in and custom, found through discovery (read again every 30 s, so new CRDs are
//! followed) and watched through metadata-only informers. Deletion propagates as the
//! owner's delete asked:
//!
//! - **background**: the owner goes at once; its dependents, their owner now absent
//!   (checked live, by uid), are deleted after it;
//! - **foreground** (`foregroundDeletion` finalizer on the owner): its dependents are
//!   deleted first, in the foreground too; the finalizer is removed once no dependent
//!   whose reference has `blockOwnerDeletion` remains;
//! - **orphan** (`orphan` finalizer): the owner's references are removed from its
//!   dependents, then the finalizer.
//!
//! A dependent keeps living while one of its owners does (references to absent owners,
//! or to owners deleting in the foreground, are removed from it then). A namespaced
//! dependent's namespaced owner is looked for in the dependent's namespace; a
//! cluster-scoped dependent naming a namespaced owner is invalid: as Go, it is reported
//! with a `Warning` Event `OwnerRefInvalidNamespace` and left alone.

mod attempt;
pub mod graph;

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use apimachinery::schema::GroupVersionKind;
use controller_runtime::cache::{Cache, ResourceEventHandlerFuncs};
use controller_runtime::client::Client;
use controller_runtime::manager::{Runnable, RunnableError};
use controller_runtime::workqueue::WorkQueue;
use futures_util::future::BoxFuture;
use k8s_types::meta::v1::PartialObjectMetadata;
use tokio_util::sync::CancellationToken;

use crate::{ControllerContext, Error};
use graph::{FINALIZER_ORPHAN, Graph};

/// How often discovery is read again for new resources (Go's resync of the monitors).
const DISCOVERY_PERIOD: Duration = Duration::from_secs(30);

/// Workers deleting dependents (Go's `--concurrent-gc-syncs`, 20 by default).
const WORKERS: usize = 20;

/// What a worker does with an object.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Work {
    /// Go's `attemptToDeleteItem`: delete it if its owners are gone, remove references
    /// to owners gone, or finish its own foreground deletion.
    AttemptToDelete(String),
    /// Go's `orphanDependents`: remove its dependents' references to it, then its
    /// `orphan` finalizer.
    Orphan(String),
}

/// Registers the collector on the manager.
pub(crate) fn start(context: &ControllerContext<'_>) -> Result<(), Error> {
    let collector = GarbageCollector {
        client: context.manager.api_reader().clone(),
        cache: context.manager.cache().clone(),
        graph: Arc::default(),
        queue: Arc::new(WorkQueue::new()),
        watched: Mutex::default(),
        reported: Mutex::default(),
    };
    context.manager.add(Arc::new(collector));
    Ok(())
}

/// The collector: the graph, fed by metadata informers, and its workers.
pub(crate) struct GarbageCollector {
    pub(crate) client: Client,
    cache: Cache,
    pub(crate) graph: Arc<Mutex<Graph>>,
    pub(crate) queue: Arc<WorkQueue<Work>>,
    watched: Mutex<HashSet<GroupVersionKind>>,
    /// The invalid references reported, by dependent and owner uid.
    pub(crate) reported: Mutex<HashSet<(String, String)>>,
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Runnable for GarbageCollector {
    fn start(
        self: Arc<Self>,
        cancel: CancellationToken,
    ) -> BoxFuture<'static, Result<(), RunnableError>> {
        Box::pin(async move {
            for _ in 0..WORKERS {
                let gc = Arc::clone(&self);
                tokio::spawn(async move { gc.work().await });
            }
            loop {
                if let Err(e) = self.watch_new_resources().await {
                    tracing::warn!("garbage collector: discovery: {e}");
                }
                tokio::select! {
                    () = cancel.cancelled() => break,
                    () = tokio::time::sleep(DISCOVERY_PERIOD) => {}
                }
            }
            self.queue.shut_down();
            Ok(())
        })
    }

    /// Every replica keeps its graph; only the leader would act (no leader election here).
    fn need_leader_election(&self) -> bool {
        true
    }
}

impl GarbageCollector {
    /// A metadata informer for every resource that supports list, watch and delete and
    /// has none yet (Go's `GetDeletableResources` and monitors).
    async fn watch_new_resources(
        self: &Arc<Self>,
    ) -> Result<(), controller_runtime::client::Error> {
        let found = self.client.discovery().server_preferred_resources().await?;
        if !found.failed.groups.is_empty() {
            tracing::warn!("garbage collector: {}", found.failed);
        }
        for (gvr, resource) in found.supporting(&["list", "watch", "delete"]) {
            let gvk = GroupVersionKind::new(&gvr.group, &gvr.version, &resource.kind);
            if !lock(&self.watched).insert(gvk.clone()) {
                continue;
            }
            let informer = match self.cache.get_metadata_informer(&gvk) {
                Ok(informer) => informer,
                Err(e) => {
                    lock(&self.watched).remove(&gvk);
                    tracing::warn!("garbage collector: watching {gvk}: {e}");
                    continue;
                }
            };
            let (add, update, delete) = (Arc::clone(self), Arc::clone(self), Arc::clone(self));
            let (g1, g2, g3) = (gvk.clone(), gvk.clone(), gvk);
            informer.add_event_handler(
                ResourceEventHandlerFuncs::new()
                    .add_func(move |obj: Arc<PartialObjectMetadata>, _| add.observed(&g1, &obj))
                    .update_func(move |_, obj: Arc<PartialObjectMetadata>| {
                        update.observed(&g2, &obj)
                    })
                    .delete_func(move |obj: Arc<PartialObjectMetadata>| delete.gone(&g3, &obj)),
            );
        }
        Ok(())
    }

    /// An object added or changed (Go's `processGraphChanges` for adds and updates).
    fn observed(&self, gvk: &GroupVersionKind, obj: &PartialObjectMetadata) {
        let mut graph = lock(&self.graph);
        let (node, removed_owners) = graph.upsert(gvk, obj);
        let uid = node.identity.uid.clone();
        // A new or changed reference: the owner may be absent.
        if !node.owners.is_empty() {
            self.queue.add(Work::AttemptToDelete(uid.clone()));
        }
        if node.being_deleted && node.has_finalizer(FINALIZER_ORPHAN) {
            self.queue.add(Work::Orphan(uid.clone()));
        }
        if node.deleting_dependents() {
            // Its dependents go in the foreground; it waits for them.
            for dependent in &node.dependents {
                self.queue.add(Work::AttemptToDelete(dependent.clone()));
            }
            self.queue.add(Work::AttemptToDelete(uid.clone()));
        }
        // Owners waiting for their dependents look again.
        for owner in node
            .owners
            .iter()
            .map(|o| &o.uid)
            .chain(removed_owners.iter())
        {
            if graph
                .get(owner)
                .is_some_and(graph::Node::deleting_dependents)
            {
                self.queue.add(Work::AttemptToDelete(owner.clone()));
            }
        }
    }

    /// An object deleted (Go's `processGraphChanges` for deletions): its dependents look
    /// for their owners; owners waiting for it look again.
    fn gone(&self, _gvk: &GroupVersionKind, obj: &PartialObjectMetadata) {
        let mut graph = lock(&self.graph);
        let Some(node) = graph.remove(&obj.metadata.uid) else {
            return;
        };
        for dependent in &node.dependents {
            self.queue.add(Work::AttemptToDelete(dependent.clone()));
        }
        for owner in &node.owners {
            if graph
                .get(&owner.uid)
                .is_some_and(graph::Node::deleting_dependents)
            {
                self.queue.add(Work::AttemptToDelete(owner.uid.clone()));
            }
        }
    }

    /// A worker: items retried with back-off on errors.
    async fn work(self: Arc<Self>) {
        while let Some(item) = self.queue.get().await {
            let result = match &item {
                Work::AttemptToDelete(uid) => self.attempt_to_delete(uid).await,
                Work::Orphan(uid) => self.orphan_dependents(uid).await,
            };
            match result {
                Ok(()) => self.queue.forget(&item),
                Err(e) => {
                    tracing::debug!("garbage collector: {item:?}: {e}");
                    self.queue.add_rate_limited(item.clone());
                }
            }
            self.queue.done(&item);
        }
    }
}
