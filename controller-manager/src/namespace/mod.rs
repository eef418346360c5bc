//! The namespace controller (Go's `pkg/controller/namespace`): a Namespace being deleted
//! has its content deleted — every namespaced resource, custom ones included — and then
//! its `kubernetes` finalizer removed, after which the server deletes it. While content
//! remains the Namespace's conditions say what holds it ([`conditions`]), and it is
//! looked at again after an estimate of how long that takes (Pods' grace periods, 15 s
//! for objects with finalizers).

pub mod conditions;
pub mod deletion;

use controller_runtime::builder::ControllerBuilder;
use controller_runtime::reconcile::{Action, Reconciler, Request};
use k8s_types::core::v1::Namespace;

pub use deletion::{DeletionError, FINALIZER_KUBERNETES, NamespacedResourcesDeleter};

use crate::names::NAMESPACE_CONTROLLER;
use crate::{ControllerContext, Error};

/// Registers the controller: reconciles Namespaces, reading each live (Go's reads the
/// Namespace from the server, not its informer).
pub(crate) fn start(context: &ControllerContext<'_>) -> Result<(), Error> {
    let deleter = NamespacedResourcesDeleter::new(context.manager.api_reader().clone());
    ControllerBuilder::new(context.manager)
        .named(NAMESPACE_CONTROLLER)
        .for_kind::<Namespace>()
        .complete(NamespaceController { deleter })
        .map(|_| ())
        .map_err(|e| Error::register(NAMESPACE_CONTROLLER, e))
}

struct NamespaceController {
    deleter: NamespacedResourcesDeleter,
}

impl Reconciler for NamespaceController {
    type Error = DeletionError;

    /// Go's `syncNamespaceFromKey`: content remaining that will go by itself is looked
    /// at again after half its estimate; other failures are retried with back-off.
    async fn reconcile(&self, request: Request) -> Result<Action, DeletionError> {
        match self.deleter.delete(&request.name).await {
            Ok(()) => Ok(Action::done()),
            Err(DeletionError::ResourcesRemaining(estimate)) => {
                Ok(Action::requeue_after(deletion::requeue_after(estimate)))
            }
            Err(e) => Err(e),
        }
    }
}
