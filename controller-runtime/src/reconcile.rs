//! What a controller asks its user to do (controller-runtime's `pkg/reconcile`): a
//! [`Request`] names one object, the [`Reconciler`] brings the world in line with it and
//! answers with an [`Action`].
//!
//! ```
//! use controller_runtime::reconcile::{self, Action, Request, Reconciler};
//! use std::time::Duration;
//!
//! let r = reconcile::func(|req: Request| async move {
//!     if req.namespace == "slow" {
//!         return Ok::<_, std::io::Error>(Action::requeue_after(Duration::from_secs(30)));
//!     }
//!     Ok(Action::done())
//! });
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let action = r.reconcile(Request::new("slow", "web")).await.unwrap();
//! assert_eq!(action.requeue_after_duration(), Some(Duration::from_secs(30)));
//! # });
//! ```

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Duration;

use apimachinery::runtime::Resource;

use crate::client::ObjectKey;
use crate::client::delegating::DelegatingClient;

/// The object a reconcile is for: its namespace (empty for cluster-scoped objects) and
/// name (controller-runtime's `reconcile.Request` around `types.NamespacedName`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Request {
    /// The namespace; empty for a cluster-scoped object.
    pub namespace: String,
    /// The name.
    pub name: String,
}

impl Request {
    /// A request for `namespace`/`name`.
    pub fn new(namespace: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            namespace: namespace.into(),
            name: name.into(),
        }
    }

    /// The request for an object, from its metadata; `None` for an object without
    /// metadata.
    pub fn for_object(obj: &dyn apimachinery::runtime::Object) -> Option<Self> {
        let meta = obj.meta()?;
        Some(Self::new(meta.namespace(), meta.name()))
    }
}

/// `namespace/name`, or `name` alone for a cluster-scoped object (Go's
/// `NamespacedName.String` writes `/name` there; the bare name reads better in logs).
impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.namespace.is_empty() {
            f.write_str(&self.name)
        } else {
            write!(f, "{}/{}", self.namespace, self.name)
        }
    }
}

/// What to do after a successful reconcile (controller-runtime's `reconcile.Result`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Action {
    requeue: bool,
    requeue_after: Option<Duration>,
}

impl Action {
    /// Nothing more: the object is in line; its failures are forgotten.
    pub fn done() -> Self {
        Self::default()
    }

    /// Reconcile again, rate-limited (Go's `Result{Requeue: true}`).
    pub fn requeue() -> Self {
        Self {
            requeue: true,
            requeue_after: None,
        }
    }

    /// Reconcile again after `delay` (Go's `Result{RequeueAfter: delay}`); a zero delay
    /// is [`requeue`](Self::requeue).
    pub fn requeue_after(delay: Duration) -> Self {
        if delay.is_zero() {
            return Self::requeue();
        }
        Self {
            requeue: false,
            requeue_after: Some(delay),
        }
    }

    /// Whether a rate-limited requeue was asked for.
    pub fn is_requeue(&self) -> bool {
        self.requeue
    }

    /// The delay of a requeue-after, if one was asked for.
    pub fn requeue_after_duration(&self) -> Option<Duration> {
        self.requeue_after
    }
}

/// The user's part of a controller: brings the cluster in line with one object.
///
/// Errors requeue the request with the controller's backoff, except a
/// [`TerminalError`]; a panic is caught and treated as an error. Implement it with `async fn`:
///
/// ```
/// use controller_runtime::reconcile::{Action, Reconciler, Request};
///
/// struct Noop;
/// impl Reconciler for Noop {
///     type Error = std::convert::Infallible;
///     async fn reconcile(&self, _request: Request) -> Result<Action, Self::Error> {
///         Ok(Action::done())
///     }
/// }
/// ```
pub trait Reconciler: Send + Sync + 'static {
    /// What a failed reconcile reports.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Reconciles the object `request` names.
    fn reconcile(
        &self,
        request: Request,
    ) -> impl Future<Output = Result<Action, Self::Error>> + Send;
}

/// An error that retrying cannot fix (controller-runtime's `reconcile.TerminalError`): a
/// reconcile failing with it, or with an error whose [`source`](std::error::Error::source)
/// chain holds one, is counted and logged but not requeued. The object is reconciled
/// again only when an event about it arrives (or at the next resync).
///
/// ```
/// use controller_runtime::reconcile::{TerminalError, is_terminal};
///
/// let err = TerminalError::new("spec.image names a registry this operator refuses");
/// assert!(is_terminal(&err));
/// assert_eq!(err.to_string(), "terminal error: spec.image names a registry this operator refuses");
/// assert!(!is_terminal(&std::io::Error::other("connection reset")));
/// ```
#[derive(Debug, thiserror::Error)]
#[error("terminal error: {0}")]
pub struct TerminalError(#[source] Box<dyn std::error::Error + Send + Sync>);

impl TerminalError {
    /// Marks `error` as terminal.
    pub fn new(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        TerminalError(error.into())
    }

    /// The error it marks.
    pub fn inner(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        &*self.0
    }
}

impl From<TerminalError> for crate::Error {
    /// Kept whole as the source, so that a reconcile failing with it is not retried.
    fn from(e: TerminalError) -> Self {
        crate::Error::Other(Box::new(e))
    }
}

/// Whether `error` is a [`TerminalError`] or has one in its
/// [`source`](std::error::Error::source) chain (Go's
/// `errors.Is(err, reconcile.TerminalError(nil))`).
pub fn is_terminal(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(error);
    while let Some(e) = next {
        if e.is::<TerminalError>() {
            return true;
        }
        next = e.source();
    }
    false
}

/// A [`Reconciler`] made of a function (controller-runtime's `reconcile.Func`).
#[derive(Clone)]
pub struct Func<F>(F);

impl<F> fmt::Debug for Func<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("reconcile::Func")
    }
}

/// Wraps `f` as a [`Reconciler`].
pub fn func<F, Fut, E>(f: F) -> Func<F>
where
    F: Fn(Request) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Action, E>> + Send,
    E: std::error::Error + Send + Sync + 'static,
{
    Func(f)
}

impl<F, Fut, E> Reconciler for Func<F>
where
    F: Fn(Request) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Action, E>> + Send,
    E: std::error::Error + Send + Sync + 'static,
{
    type Error = E;

    fn reconcile(&self, request: Request) -> impl Future<Output = Result<Action, E>> + Send {
        (self.0)(request)
    }
}

/// A reconciler handed the object itself rather than its name (controller-runtime's
/// `reconcile.ObjectReconciler`): the object comes from the cache, so the get and its
/// not-found branch every [`Reconciler`] starts with are done once, here. Build a
/// controller with it by [`ControllerBuilder::complete_object`](crate::builder::ControllerBuilder::complete_object),
/// or wrap it with [`AsReconciler`].
///
/// ```
/// use std::sync::Arc;
/// use controller_runtime::reconcile::{Action, ObjectReconciler};
/// use k8s_types::core::v1::ConfigMap;
///
/// struct CountKeys;
/// impl ObjectReconciler<ConfigMap> for CountKeys {
///     async fn reconcile(&self, cm: Arc<ConfigMap>) -> controller_runtime::Result<Action> {
///         println!("{} has {} keys", cm.metadata.name, cm.data.len());
///         Ok(Action::done())
///     }
/// }
/// ```
pub trait ObjectReconciler<K: Resource>: Send + Sync + 'static {
    /// Brings the cluster in line with `object`, as the cache has it (shared: clone it to
    /// change it).
    fn reconcile(&self, object: Arc<K>) -> impl Future<Output = crate::Result<Action>> + Send;

    /// The object `request` names is gone from the cache (deleted, or never seen).
    /// Default: nothing to do, as Go's `AsReconciler` (cleaning up after a deletion is what
    /// owner references and [`finalizer`](crate::finalizer::finalizer) are for).
    fn deleted(&self, request: Request) -> impl Future<Output = crate::Result<Action>> + Send {
        let _ = request;
        std::future::ready(Ok(Action::done()))
    }
}

/// A [`Reconciler`] around an [`ObjectReconciler`] (controller-runtime's
/// `reconcile.AsReconciler`): reads the requested object through a client (the
/// manager's, so from the cache), calls [`ObjectReconciler::reconcile`] with it, or
/// [`ObjectReconciler::deleted`] when it is not found; other read failures are the
/// reconcile's error (retried with backoff).
pub struct AsReconciler<K, R> {
    client: DelegatingClient,
    inner: R,
    kind: PhantomData<fn() -> K>,
}

impl<K, R> fmt::Debug for AsReconciler<K, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AsReconciler")
            .field("kind", &std::any::type_name::<K>())
            .finish_non_exhaustive()
    }
}

impl<K: Resource, R: ObjectReconciler<K>> AsReconciler<K, R> {
    /// Wraps `inner`, reading objects through `client`.
    pub fn new(client: DelegatingClient, inner: R) -> Self {
        Self {
            client,
            inner,
            kind: PhantomData,
        }
    }

    /// The wrapped reconciler.
    pub fn inner(&self) -> &R {
        &self.inner
    }
}

impl<K: Resource, R: ObjectReconciler<K>> Reconciler for AsReconciler<K, R> {
    type Error = crate::Error;

    async fn reconcile(&self, request: Request) -> crate::Result<Action> {
        let key = ObjectKey::new(&request.namespace, &request.name);
        match self.client.get::<K>(&key).await {
            Ok(object) => self.inner.reconcile(object).await,
            Err(e) if e.is_not_found() => self.inner.deleted(request).await,
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_display() {
        assert_eq!(Request::new("ns", "a").to_string(), "ns/a");
        assert_eq!(Request::new("", "node-1").to_string(), "node-1");
    }

    #[derive(Debug, thiserror::Error)]
    #[error("could not apply the template")]
    struct Wrapping(#[source] TerminalError);

    #[test]
    fn a_terminal_error_is_found_anywhere_in_the_source_chain() {
        let inner = std::io::Error::other("bad spec");
        assert!(is_terminal(&Wrapping(TerminalError::new(inner))));
        let terminal = TerminalError::new("bad spec");
        assert_eq!(terminal.inner().to_string(), "bad spec");
        assert!(!is_terminal(terminal.inner()));
    }

    #[test]
    fn a_terminal_error_stays_terminal_in_the_crate_error() {
        let e = crate::Error::from(TerminalError::new("bad spec"));
        assert!(is_terminal(&e));
        assert!(!is_terminal(&crate::Error::other("connection reset")));
    }

    #[test]
    fn zero_requeue_after_is_requeue() {
        assert_eq!(Action::requeue_after(Duration::ZERO), Action::requeue());
        assert!(!Action::done().is_requeue());
        assert_eq!(
            Action::requeue_after(Duration::from_secs(1)).requeue_after_duration(),
            Some(Duration::from_secs(1))
        );
    }
}
