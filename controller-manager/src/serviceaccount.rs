//! The serviceaccount controller (Go's `pkg/controller/serviceaccount`
//! `ServiceAccountsController`): every active namespace has a ServiceAccount named
//! `default`, created when the namespace is added or changes and again when it is
//! deleted. A namespace that is terminating gets none (the server would refuse it).

use std::sync::Arc;

use apimachinery::api::errors::has_status_cause;
use controller_runtime::builder::ControllerBuilder;
use controller_runtime::client::ObjectKey;
use controller_runtime::client::delegating::DelegatingClient;
use controller_runtime::handler::EnqueueRequestsFromMapFunc;
use controller_runtime::reconcile::{Action, Reconciler, Request};
use k8s_types::core::v1::{Namespace, ServiceAccount};

use crate::names::SERVICE_ACCOUNT_CONTROLLER;
use crate::{ControllerContext, Error, NAMESPACE_ACTIVE, NAMESPACE_TERMINATING_CAUSE};

/// The ServiceAccounts every namespace gets (Go's `DefaultServiceAccountsControllerOptions`).
pub const SERVICE_ACCOUNTS: &[&str] = &["default"];

/// Registers the controller: reconciles namespaces, each ServiceAccount event (Go
/// reacts to deletions) enqueueing its namespace.
pub(crate) fn start(context: &ControllerContext<'_>) -> Result<(), Error> {
    let reconciler = ServiceAccountsController {
        client: context.manager.client().clone(),
    };
    ControllerBuilder::new(context.manager)
        .named(SERVICE_ACCOUNT_CONTROLLER)
        .for_kind::<Namespace>()
        .watches_kind::<ServiceAccount>(EnqueueRequestsFromMapFunc::typed(|sa: &ServiceAccount| {
            let ours = SERVICE_ACCOUNTS.contains(&sa.metadata.name.as_str());
            ours.then(|| Request::new("", &sa.metadata.namespace))
                .into_iter()
                .collect()
        }))
        .complete(reconciler)
        .map(|_| ())
        .map_err(|e| Error::register(SERVICE_ACCOUNT_CONTROLLER, e))
}

struct ServiceAccountsController {
    client: DelegatingClient,
}

impl Reconciler for ServiceAccountsController {
    type Error = controller_runtime::Error;

    /// Go's `syncNamespace`.
    async fn reconcile(&self, request: Request) -> Result<Action, Self::Error> {
        let ns: Arc<Namespace> = match self.client.get(&ObjectKey::cluster(&request.name)).await {
            Ok(ns) => ns,
            Err(e) if e.is_not_found() => return Ok(Action::done()),
            Err(e) => return Err(e),
        };
        if ns.status.phase != NAMESPACE_ACTIVE {
            return Ok(Action::done());
        }
        let mut failures = Vec::new();
        for name in SERVICE_ACCOUNTS {
            let key = ObjectKey::new(&ns.metadata.name, *name);
            match self.client.get::<ServiceAccount>(&key).await {
                Ok(_) => continue,
                Err(e) if e.is_not_found() => {}
                Err(e) => return Err(e),
            }
            let mut sa = ServiceAccount::default();
            (sa.metadata.namespace, sa.metadata.name) = (key.namespace, key.name);
            match self.client.create(&sa, &Default::default()).await {
                Err(e) if e.is_already_exists() => {}
                // A namespace that started terminating since it was read.
                Err(e)
                    if e.api()
                        .is_some_and(|s| has_status_cause(s, NAMESPACE_TERMINATING_CAUSE)) => {}
                Err(e) => failures.push(e),
                Ok(_) => {}
            }
        }
        match failures.pop() {
            None => Ok(Action::done()),
            Some(e) => Err(e),
        }
    }
}
