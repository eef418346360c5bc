//! What a source saw happen to an object (controller-runtime's `pkg/event`), as the
//! predicates and event handlers receive it.
//!
//! Objects are shared: `Arc<dyn Object>` is the cache's own `Arc<T>`, unsized, not a
//! copy. Handlers and predicates are written once for every kind (no per-type code);
//! a handler that needs the concrete type downcasts (`obj.downcast_ref::<Pod>()`).

use std::sync::Arc;

use apimachinery::runtime::Object;

/// An object appeared (listed or added).
#[derive(Clone, Debug)]
pub struct CreateEvent {
    /// The object.
    pub object: Arc<dyn Object>,
    /// Whether it came with the informer's initial list rather than a later watch event.
    pub is_in_initial_list: bool,
}

/// An object changed.
#[derive(Clone, Debug)]
pub struct UpdateEvent {
    /// The object before.
    pub object_old: Arc<dyn Object>,
    /// The object after.
    pub object_new: Arc<dyn Object>,
}

/// An object went away.
#[derive(Clone, Debug)]
pub struct DeleteEvent {
    /// The object's last known state.
    pub object: Arc<dyn Object>,
    /// Whether the deletion was missed (seen only as absent from a relist), so `object`
    /// may be stale.
    pub delete_state_unknown: bool,
}

/// Something outside the API server asked for an object to be reconciled.
#[derive(Clone, Debug)]
pub struct GenericEvent {
    /// The object.
    pub object: Arc<dyn Object>,
}
