//! Controllers built from what they watch (controller-runtime's `pkg/builder`).
//!
//! - [`for_kind::<T>()`](ControllerBuilder::for_kind): the kind reconciled; its events
//!   enqueue the object itself (Go's `For`, a keyword in Rust);
//! - [`owns::<T>()`](ControllerBuilder::owns): kinds the reconciled kind controls; their
//!   events enqueue their controller owner;
//! - [`watches`](ControllerBuilder::watches): any source with any handler;
//! - [`with_event_filter`](ControllerBuilder::with_event_filter): a predicate on every
//!   watch.
//!
//! See the [`manager`](crate::manager) module for an example.

use std::sync::Arc;

use apimachinery::runtime::{Resource, ResourceScope};
use apimachinery::schema::{GroupKind, GroupVersionKind};

use crate::controller::{Controller, Options};
use crate::handler::{EnqueueRequestForObject, EnqueueRequestForOwner, EventHandler};
use crate::manager::Manager;
use crate::predicate::Predicate;
use crate::reconcile::{AsReconciler, ObjectReconciler, Reconciler};
use crate::source::{self, Source};

/// Where the builder puts a watch: the controller, whatever its reconciler type.
trait WatchSink {
    fn add(
        &self,
        source: Box<dyn Source>,
        handler: Arc<dyn EventHandler>,
        predicates: Vec<Arc<dyn Predicate>>,
    );
}

impl<R: Reconciler> WatchSink for Controller<R> {
    fn add(
        &self,
        source: Box<dyn Source>,
        handler: Arc<dyn EventHandler>,
        predicates: Vec<Arc<dyn Predicate>>,
    ) {
        self.watch_boxed(source, handler, predicates);
    }
}

/// A watch waiting for the controller: source, handler and its own predicates.
type PendingWatch = (
    Box<dyn Source>,
    Arc<dyn EventHandler>,
    Vec<Arc<dyn Predicate>>,
);

/// Builds a controller and adds it to a manager.
pub struct ControllerBuilder<'m> {
    manager: &'m Manager,
    name: Option<String>,
    /// The reconciled kind, as given (its name names the controller).
    for_kind: Option<GroupVersionKind>,
    watches: Vec<PendingWatch>,
    global_predicates: Vec<Arc<dyn Predicate>>,
    owner: Option<(GroupKind, ResourceScope)>,
    options: Options,
    error: Option<BuilderError>,
}

impl std::fmt::Debug for ControllerBuilder<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ControllerBuilder")
            .field("name", &self.name)
            .field("for_kind", &self.for_kind)
            .field("watches", &self.watches.len())
            .finish()
    }
}

/// Errors of building a controller.
#[derive(Debug, thiserror::Error)]
pub enum BuilderError {
    /// Neither `for_kind` nor a name was given, so the controller has no name.
    #[error("controller builder: call for_kind::<T>() or named(..) first")]
    NoName,
    /// `for_kind` was called twice.
    #[error("controller builder: for_kind called twice ({first} and {second})")]
    ForTwice {
        /// The first kind.
        first: String,
        /// The second kind.
        second: String,
    },
    /// [`complete_object`](ControllerBuilder::complete_object)'s reconciler is for
    /// another kind than `for_kind`'s.
    #[error("controller builder: the reconciler is for {reconciler}, for_kind is {for_kind}")]
    ObjectKindMismatch {
        /// The kind `for_kind` was given.
        for_kind: String,
        /// The kind the object reconciler takes.
        reconciler: String,
    },
    /// `owns` was called before `for_kind`, so the owner kind is unknown.
    #[error("controller builder: owns::<{owned}>() needs for_kind::<Owner>() first")]
    OwnsBeforeFor {
        /// The owned kind.
        owned: String,
    },
}

impl<'m> ControllerBuilder<'m> {
    /// A builder for a controller of `manager` (Go's `ControllerManagedBy`).
    pub fn new(manager: &'m Manager) -> Self {
        Self {
            manager,
            name: None,
            for_kind: None,
            watches: Vec::new(),
            global_predicates: Vec::new(),
            owner: None,
            options: Options::default(),
            error: None,
        }
    }

    /// Reconciles `T`: its events enqueue the object (Go's `For`).
    pub fn for_kind<T: Resource>(self) -> Self {
        self.for_kind_with::<T>(Vec::new())
    }

    /// [`for_kind`](Self::for_kind) with predicates on `T`'s events only.
    pub fn for_kind_with<T: Resource>(mut self, predicates: Vec<Arc<dyn Predicate>>) -> Self {
        let kind = T::gvk();
        if let Some(first) = &self.for_kind {
            self.error.get_or_insert(BuilderError::ForTwice {
                first: first.to_string(),
                second: kind.to_string(),
            });
            return self;
        }
        self.for_kind = Some(kind);
        self.owner = Some((GroupKind::new(T::GROUP, T::KIND), T::SCOPE));
        self.watches.push((
            Box::new(source::Kind::<T>::new(self.manager.cache().clone())),
            Arc::new(EnqueueRequestForObject),
            predicates,
        ));
        self
    }

    /// Watches `T`, enqueueing the controller owner of each object when it is of the
    /// reconciled kind (Go's `Owns`); call [`for_kind`](Self::for_kind) first.
    pub fn owns<T: Resource>(mut self) -> Self {
        let Some((owner, scope)) = self.owner.clone() else {
            self.error.get_or_insert(BuilderError::OwnsBeforeFor {
                owned: T::gvk().to_string(),
            });
            return self;
        };
        self.watches.push((
            Box::new(source::Kind::<T>::new(self.manager.cache().clone())),
            Arc::new(EnqueueRequestForOwner::for_group_kind(owner, scope, true)),
            Vec::new(),
        ));
        self
    }

    /// Watches any source with any handler (Go's `Watches`/`WatchesRawSource`).
    pub fn watches(
        mut self,
        source: impl Source + 'static,
        handler: impl EventHandler + 'static,
        predicates: Vec<Arc<dyn Predicate>>,
    ) -> Self {
        self.watches
            .push((Box::new(source), Arc::new(handler), predicates));
        self
    }

    /// Watches `T` from the manager's cache with `handler` (Go's `Watches(&T{}, h)`).
    pub fn watches_kind<T: Resource>(self, handler: impl EventHandler + 'static) -> Self {
        let source = source::Kind::<T>::new(self.manager.cache().clone());
        self.watches(source, handler, Vec::new())
    }

    /// A predicate applied to every watch (Go's `WithEventFilter`).
    pub fn with_event_filter(mut self, predicate: impl Predicate + 'static) -> Self {
        self.global_predicates.push(Arc::new(predicate));
        self
    }

    /// The controller's options (Go's `WithOptions`).
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// Names the controller (default: the reconciled kind, lowercased).
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Builds the controller around `reconciler` and adds it to the manager (Go's
    /// `Complete`/`Build`); returns it, to read its metrics or queue.
    pub fn complete<R: Reconciler>(
        self,
        reconciler: R,
    ) -> Result<Arc<Controller<R>>, BuilderError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let name = match (self.name, &self.for_kind) {
            (Some(n), _) => n,
            (None, Some(gvk)) => gvk.kind.to_lowercase(),
            (None, None) => return Err(BuilderError::NoName),
        };
        let controller = Arc::new(Controller::new(name, reconciler, self.options));
        for (source, handler, mut predicates) in self.watches {
            predicates.extend(self.global_predicates.iter().cloned());
            WatchSink::add(&*controller, source, handler, predicates);
        }
        self.manager.add_controller(Arc::clone(&controller));
        Ok(controller)
    }

    /// Builds the controller around an [`ObjectReconciler`] of the reconciled kind, handed
    /// each object from the cache (Go's `Complete(reconcile.AsReconciler(client, r))`);
    /// fails when `K` is not the kind given to [`for_kind`](Self::for_kind).
    pub fn complete_object<K: Resource, R: ObjectReconciler<K>>(
        self,
        reconciler: R,
    ) -> Result<Arc<Controller<AsReconciler<K, R>>>, BuilderError> {
        if let Some(for_kind) = self.for_kind.as_ref().filter(|k| **k != K::gvk()) {
            return Err(BuilderError::ObjectKindMismatch {
                for_kind: for_kind.to_string(),
                reconciler: K::gvk().to_string(),
            });
        }
        let client = self.manager.client().clone();
        self.complete(AsReconciler::new(client, reconciler))
    }
}
