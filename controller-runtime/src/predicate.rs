//! Filters of events before they reach a handler (controller-runtime's `pkg/predicate`).
//!
//! The change predicates ([`GenerationChanged`], [`ResourceVersionChanged`],
//! [`LabelChanged`], [`AnnotationChanged`]) judge updates only and let creations,
//! deletions and generic events through, as Go's do. Combine with [`and`], [`or`] and
//! [`not`]; write one from closures with [`Funcs`] or [`new_predicate_funcs`].
//!
//! ```
//! use controller_runtime::predicate::{self, GenerationChanged, LabelChanged, Predicate};
//!
//! // Reconcile on spec changes or relabelling, not on status-only updates.
//! let p = predicate::or(vec![Box::new(GenerationChanged), Box::new(LabelChanged)]);
//! # let _ = &p as &dyn Predicate;
//! ```

use std::fmt;
use std::sync::Arc;

use apimachinery::apis::meta::v1::ObjectMetaAccessor;
use apimachinery::runtime::Object;

use crate::event::{CreateEvent, DeleteEvent, GenericEvent, UpdateEvent};

/// Whether an event should be handled; every method lets it through by default.
pub trait Predicate: Send + Sync {
    /// Whether a creation is handled.
    fn create(&self, _event: &CreateEvent) -> bool {
        true
    }
    /// Whether an update is handled.
    fn update(&self, _event: &UpdateEvent) -> bool {
        true
    }
    /// Whether a deletion is handled.
    fn delete(&self, _event: &DeleteEvent) -> bool {
        true
    }
    /// Whether a generic event is handled.
    fn generic(&self, _event: &GenericEvent) -> bool {
        true
    }
}

/// A predicate behind a pointer is one. The builder and the controllers hold predicates
/// as `Arc<dyn Predicate>`, so a shared one can also go into [`and`], [`or`] or [`not`]
/// (`Box::new(Arc::clone(&shared))`) without being rebuilt; a `Box` is what those take.
macro_rules! forward_predicate {
    ($($pointer:ident),*) => {$(
        impl<P: Predicate + ?Sized> Predicate for $pointer<P> {
            fn create(&self, event: &CreateEvent) -> bool {
                (**self).create(event)
            }
            fn update(&self, event: &UpdateEvent) -> bool {
                (**self).update(event)
            }
            fn delete(&self, event: &DeleteEvent) -> bool {
                (**self).delete(event)
            }
            fn generic(&self, event: &GenericEvent) -> bool {
                (**self).generic(event)
            }
        }
    )*};
}
forward_predicate!(Arc, Box);

fn metas(event: &UpdateEvent) -> Option<(&dyn ObjectMetaAccessor, &dyn ObjectMetaAccessor)> {
    Some((event.object_old.meta()?, event.object_new.meta()?))
}

/// Updates that changed `metadata.generation`: spec changes, not status-only ones (Go's
/// `GenerationChangedPredicate`). Kinds without a generation (ConfigMaps) always have 0,
/// so this filters out all their updates.
#[derive(Clone, Copy, Debug, Default)]
pub struct GenerationChanged;

impl Predicate for GenerationChanged {
    fn update(&self, event: &UpdateEvent) -> bool {
        metas(event).is_some_and(|(old, new)| old.generation() != new.generation())
    }
}

/// Updates that changed `metadata.resourceVersion`: every real change, not a resync
/// (Go's `ResourceVersionChangedPredicate`).
#[derive(Clone, Copy, Debug, Default)]
pub struct ResourceVersionChanged;

impl Predicate for ResourceVersionChanged {
    fn update(&self, event: &UpdateEvent) -> bool {
        metas(event).is_some_and(|(old, new)| old.resource_version() != new.resource_version())
    }
}

/// Updates that changed the labels (Go's `LabelChangedPredicate`).
#[derive(Clone, Copy, Debug, Default)]
pub struct LabelChanged;

impl Predicate for LabelChanged {
    fn update(&self, event: &UpdateEvent) -> bool {
        metas(event).is_some_and(|(old, new)| old.labels() != new.labels())
    }
}

/// Updates that changed the annotations (Go's `AnnotationChangedPredicate`).
#[derive(Clone, Copy, Debug, Default)]
pub struct AnnotationChanged;

impl Predicate for AnnotationChanged {
    fn update(&self, event: &UpdateEvent) -> bool {
        metas(event).is_some_and(|(old, new)| old.annotations() != new.annotations())
    }
}

type EventFn<E> = Box<dyn Fn(&E) -> bool + Send + Sync>;

/// A predicate of closures, one per event type; a missing one lets the event through
/// (Go's `predicate.Funcs`).
#[derive(Default)]
pub struct Funcs {
    /// Judges creations.
    pub create: Option<EventFn<CreateEvent>>,
    /// Judges updates.
    pub update: Option<EventFn<UpdateEvent>>,
    /// Judges deletions.
    pub delete: Option<EventFn<DeleteEvent>>,
    /// Judges generic events.
    pub generic: Option<EventFn<GenericEvent>>,
}

impl fmt::Debug for Funcs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Funcs")
            .field("create", &self.create.is_some())
            .field("update", &self.update.is_some())
            .field("delete", &self.delete.is_some())
            .field("generic", &self.generic.is_some())
            .finish()
    }
}

impl Predicate for Funcs {
    fn create(&self, event: &CreateEvent) -> bool {
        self.create.as_ref().is_none_or(|f| f(event))
    }
    fn update(&self, event: &UpdateEvent) -> bool {
        self.update.as_ref().is_none_or(|f| f(event))
    }
    fn delete(&self, event: &DeleteEvent) -> bool {
        self.delete.as_ref().is_none_or(|f| f(event))
    }
    fn generic(&self, event: &GenericEvent) -> bool {
        self.generic.as_ref().is_none_or(|f| f(event))
    }
}

/// One filter on the object applied to every event; for an update, to the new object
/// (Go's `NewPredicateFuncs`).
pub fn new_predicate_funcs<F>(filter: F) -> Funcs
where
    F: Fn(&dyn Object) -> bool + Send + Sync + Clone + 'static,
{
    let (c, u, d, g) = (filter.clone(), filter.clone(), filter.clone(), filter);
    Funcs {
        create: Some(Box::new(move |e: &CreateEvent| c(&*e.object))),
        update: Some(Box::new(move |e: &UpdateEvent| u(&*e.object_new))),
        delete: Some(Box::new(move |e: &DeleteEvent| d(&*e.object))),
        generic: Some(Box::new(move |e: &GenericEvent| g(&*e.object))),
    }
}

/// Every predicate passes (Go's `predicate.And`); none given passes.
pub struct And(Vec<Arc<dyn Predicate>>);
/// Any predicate passes (Go's `predicate.Or`); none given fails.
pub struct Or(Vec<Arc<dyn Predicate>>);
/// The predicate fails (Go's `predicate.Not`).
pub struct Not(Arc<dyn Predicate>);

/// Every predicate of `predicates` passes. They are kept shared, as the builder keeps
/// predicates; an `Arc<dyn Predicate>` goes in boxed (`Box::new(shared)`).
pub fn and(predicates: Vec<Box<dyn Predicate>>) -> And {
    And(predicates.into_iter().map(Arc::from).collect())
}
/// Any predicate of `predicates` passes (kept shared, as for [`and`]).
pub fn or(predicates: Vec<Box<dyn Predicate>>) -> Or {
    Or(predicates.into_iter().map(Arc::from).collect())
}
/// `predicate` fails; a shared `Arc<dyn Predicate>` is a predicate too.
pub fn not(predicate: impl Predicate + 'static) -> Not {
    Not(Arc::new(predicate))
}

macro_rules! combinator {
    ($ty:ident, $method:ident, $event:ty) => {
        fn $method(&self, event: &$event) -> bool {
            combinator!(@apply $ty, self, $method, event)
        }
    };
    (@apply And, $self:ident, $method:ident, $event:ident) => {
        $self.0.iter().all(|p| p.$method($event))
    };
    (@apply Or, $self:ident, $method:ident, $event:ident) => {
        $self.0.iter().any(|p| p.$method($event))
    };
}

impl Predicate for And {
    combinator!(And, create, CreateEvent);
    combinator!(And, update, UpdateEvent);
    combinator!(And, delete, DeleteEvent);
    combinator!(And, generic, GenericEvent);
}

impl Predicate for Or {
    combinator!(Or, create, CreateEvent);
    combinator!(Or, update, UpdateEvent);
    combinator!(Or, delete, DeleteEvent);
    combinator!(Or, generic, GenericEvent);
}

impl Predicate for Not {
    fn create(&self, event: &CreateEvent) -> bool {
        !self.0.create(event)
    }
    fn update(&self, event: &UpdateEvent) -> bool {
        !self.0.update(event)
    }
    fn delete(&self, event: &DeleteEvent) -> bool {
        !self.0.delete(event)
    }
    fn generic(&self, event: &GenericEvent) -> bool {
        !self.0.generic(event)
    }
}

macro_rules! debug_combinator {
    ($($ty:ident),*) => {$(
        impl fmt::Debug for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(stringify!($ty))
            }
        }
    )*};
}
debug_combinator!(And, Or, Not);

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_types::core::v1::ConfigMap;
    use std::sync::Arc;

    fn cm(generation: i64, rv: &str, label: &str, annotation: &str) -> Arc<dyn Object> {
        let mut c = ConfigMap::default();
        c.metadata.name = "a".into();
        c.metadata.generation = generation;
        c.metadata.resource_version = rv.into();
        c.metadata.labels.insert("l".into(), label.into());
        c.metadata.annotations.insert("a".into(), annotation.into());
        Arc::new(c)
    }

    fn update(old: Arc<dyn Object>, new: Arc<dyn Object>) -> UpdateEvent {
        UpdateEvent {
            object_old: old,
            object_new: new,
        }
    }

    #[test]
    fn change_predicates_judge_updates() {
        let base = cm(1, "10", "x", "y");
        let e = update(base.clone(), cm(2, "11", "x", "y"));
        assert!(GenerationChanged.update(&e));
        assert!(ResourceVersionChanged.update(&e));
        assert!(!LabelChanged.update(&e));
        assert!(!AnnotationChanged.update(&e));

        let resync = update(base.clone(), base.clone());
        assert!(!ResourceVersionChanged.update(&resync));
        assert!(!GenerationChanged.update(&resync));

        let relabel = update(base.clone(), cm(1, "12", "z", "w"));
        assert!(LabelChanged.update(&relabel));
        assert!(AnnotationChanged.update(&relabel));
        assert!(!GenerationChanged.update(&relabel));

        let created = CreateEvent {
            object: base,
            is_in_initial_list: false,
        };
        assert!(GenerationChanged.create(&created), "creations pass");
    }

    #[test]
    fn combinators_and_funcs() {
        let e = update(cm(1, "10", "x", "y"), cm(1, "11", "z", "y"));
        assert!(!and(vec![Box::new(GenerationChanged), Box::new(LabelChanged)]).update(&e));
        assert!(or(vec![Box::new(GenerationChanged), Box::new(LabelChanged)]).update(&e));
        assert!(!or(vec![]).update(&e));
        assert!(and(vec![]).update(&e));
        assert!(not(GenerationChanged).update(&e));
        // Shared predicates combine as they are, boxed or not.
        let shared: Arc<dyn Predicate> = Arc::new(LabelChanged);
        assert!(!not(Arc::clone(&shared)).update(&e));
        assert!(and(vec![Box::new(Arc::clone(&shared)), Box::new(shared)]).update(&e));

        let named_a =
            new_predicate_funcs(|o: &dyn Object| o.meta().is_some_and(|m| m.name() == "a"));
        assert!(named_a.update(&e));
        let funcs = Funcs {
            update: Some(Box::new(|_: &UpdateEvent| false)),
            ..Funcs::default()
        };
        assert!(!funcs.update(&e));
        assert!(funcs.generic(&GenericEvent {
            object: cm(1, "1", "", "")
        }));
    }
}
