//! Cleanup before deletion in one call: [`finalizer`] keeps a finalizer on an object
//! while it lives and runs the cleanup when it is deleted (Go's finalizer pattern with
//! `controllerutil.AddFinalizer`/`RemoveFinalizer`, and the behaviour of kube-rs's
//! `runtime::finalizer`).
//!
//! | the object | what [`finalizer`] does |
//! | --- | --- |
//! | lives, without the finalizer | adds it (an update; its event brings the next reconcile) and returns [`Action::done`] |
//! | lives, with the finalizer | calls the reconcile with [`Event::Apply`] |
//! | is being deleted, with the finalizer | calls it with [`Event::Cleanup`]; once that succeeds, removes the finalizer, which lets the deletion finish |
//! | is being deleted, without the finalizer | nothing: the cleanup is done, or was never ours |
//!
//! The writes are updates carrying the object's `resourceVersion`, so a concurrent change
//! makes them fail with a conflict and the reconcile is retried on the fresh object; the
//! cleanup may therefore run more than once and must be idempotent. With an
//! [`EventRecorder`], adding the finalizer, a failed cleanup and the finalizer's removal
//! are recorded as Events on the object.
//!
//! ```no_run
//! use std::sync::Arc;
//! use controller_runtime::finalizer::{Event, finalizer};
//! use controller_runtime::reconcile::{Action, ObjectReconciler};
//! use controller_runtime::client::delegating::DelegatingClient;
//! use k8s_types::core::v1::ConfigMap;
//!
//! struct Backup { client: DelegatingClient }
//!
//! impl ObjectReconciler<ConfigMap> for Backup {
//!     async fn reconcile(&self, cm: Arc<ConfigMap>) -> controller_runtime::Result<Action> {
//!         finalizer(&self.client, None, "example.com/backup", cm, |event| async move {
//!             match event {
//!                 Event::Apply(cm) => println!("back up {}", cm.metadata.name),
//!                 Event::Cleanup(cm) => println!("delete the backup of {}", cm.metadata.name),
//!             }
//!             Ok(Action::done())
//!         })
//!         .await
//!     }
//! }
//! ```

use std::future::Future;
use std::sync::Arc;

use apimachinery::runtime::Resource;

use crate::client::delegating::DelegatingClient;
use crate::controllerutil;
use crate::reconcile::Action;
use crate::record::{EventRecorder, EventType};

/// What [`finalizer`] asks its reconcile to do.
#[derive(Debug)]
pub enum Event<K> {
    /// The object lives and carries the finalizer: bring the world in line with it.
    Apply(Arc<K>),
    /// The object is being deleted: undo what it made; the finalizer is removed once this
    /// succeeds.
    Cleanup(Arc<K>),
}

/// Runs `reconcile` for `object` under the finalizer `name` (see the [module](self)):
/// adds the finalizer first, passes [`Event::Cleanup`] once the object is being deleted
/// and removes the finalizer when that cleanup succeeds. Writes go through `client`;
/// `recorder`, when given, records what happened as Events on the object.
pub async fn finalizer<K, F, Fut>(
    client: &DelegatingClient,
    recorder: Option<&EventRecorder>,
    name: &str,
    object: Arc<K>,
    reconcile: F,
) -> crate::Result<Action>
where
    K: Resource,
    F: FnOnce(Event<K>) -> Fut,
    Fut: Future<Output = crate::Result<Action>>,
{
    let deleting = object
        .meta()
        .is_some_and(|m| m.deletion_timestamp().is_some());
    let has_finalizer = controllerutil::contains_finalizer(&*object, name);
    let record = async |event_type, reason: &str, action: &str, note: String| {
        if let Some(recorder) = recorder {
            recorder
                .event(&*object, event_type, reason, action, &note)
                .await;
        }
    };
    match (deleting, has_finalizer) {
        (false, true) => reconcile(Event::Apply(Arc::clone(&object))).await,
        (false, false) => {
            let mut updated = (*object).clone();
            controllerutil::add_finalizer(&mut updated, name);
            client.update(&updated, &Default::default()).await?;
            let note = format!("Added finalizer {name}");
            record(EventType::Normal, "FinalizerAdded", "AddFinalizer", note).await;
            Ok(Action::done())
        }
        (true, true) => {
            let action = match reconcile(Event::Cleanup(Arc::clone(&object))).await {
                Ok(action) => action,
                Err(e) => {
                    let note = format!("Cleanup for finalizer {name} failed: {e}");
                    record(EventType::Warning, "CleanupFailed", "Cleanup", note).await;
                    return Err(e);
                }
            };
            let mut updated = (*object).clone();
            controllerutil::remove_finalizer(&mut updated, name);
            match client.update(&updated, &Default::default()).await {
                // Gone already: the deletion finished without us.
                Err(e) if e.is_not_found() => return Ok(action),
                result => result?,
            };
            let note = format!("Cleaned up and removed finalizer {name}");
            record(
                EventType::Normal,
                "FinalizerRemoved",
                "RemoveFinalizer",
                note,
            )
            .await;
            Ok(action)
        }
        (true, false) => Ok(Action::done()),
    }
}
