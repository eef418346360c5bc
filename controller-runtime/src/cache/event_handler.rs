//! What informers tell their listeners (client-go's `ResourceEventHandler`).

use std::sync::Arc;

/// Receives an informer's notifications (client-go's `ResourceEventHandler`).
///
/// Calls come from the informer's task, one at a time and in the order the changes were
/// applied to the store; a handler should return quickly (typically by enqueueing a key
/// in a work queue) and must not add or remove handlers of the same informer from
/// inside a call.
pub trait ResourceEventHandler<T>: Send + Sync {
    /// An object appeared. `is_in_initial_list` is true for the objects of the first
    /// list of the informer, and for the objects already stored when the handler was
    /// added.
    fn on_add(&self, obj: Arc<T>, is_in_initial_list: bool);
    /// An object changed, or a periodic resync re-delivered it (then `old` and `new` are
    /// the same allocation).
    fn on_update(&self, old: Arc<T>, new: Arc<T>);
    /// An object was deleted; `obj` is its last state the informer saw.
    fn on_delete(&self, obj: Arc<T>);
    /// An object was found gone at a relist, so its deletion was missed and `obj` is its
    /// last known state, not necessarily its final one (client-go's
    /// `DeletedFinalStateUnknown` tombstone). Calls [`on_delete`](Self::on_delete)
    /// unless overridden.
    fn on_delete_final_state_unknown(&self, obj: Arc<T>) {
        self.on_delete(obj)
    }
}

type AddFn<T> = Box<dyn Fn(Arc<T>, bool) + Send + Sync>;
type UpdateFn<T> = Box<dyn Fn(Arc<T>, Arc<T>) + Send + Sync>;
type DeleteFn<T> = Box<dyn Fn(Arc<T>) + Send + Sync>;

/// A [`ResourceEventHandler`] made of closures, any of them optional (client-go's
/// `ResourceEventHandlerFuncs`).
///
/// ```
/// use std::sync::{Arc, atomic::{AtomicUsize, Ordering}};
/// use controller_runtime::cache::{ResourceEventHandler, ResourceEventHandlerFuncs};
///
/// let adds = Arc::new(AtomicUsize::new(0));
/// let counter = Arc::clone(&adds);
/// let handler = ResourceEventHandlerFuncs::<String>::new()
///     .add_func(move |_obj, _initial| { counter.fetch_add(1, Ordering::Relaxed); });
/// handler.on_add(Arc::new("x".to_owned()), true);
/// handler.on_delete(Arc::new("x".to_owned())); // no delete func: ignored
/// assert_eq!(adds.load(Ordering::Relaxed), 1);
/// ```
pub struct ResourceEventHandlerFuncs<T> {
    add: Option<AddFn<T>>,
    update: Option<UpdateFn<T>>,
    delete: Option<DeleteFn<T>>,
}

impl<T> Default for ResourceEventHandlerFuncs<T> {
    fn default() -> Self {
        Self {
            add: None,
            update: None,
            delete: None,
        }
    }
}

impl<T> ResourceEventHandlerFuncs<T> {
    /// Funcs that ignore everything until set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the add function.
    pub fn add_func(mut self, f: impl Fn(Arc<T>, bool) + Send + Sync + 'static) -> Self {
        self.add = Some(Box::new(f));
        self
    }

    /// Sets the update function.
    pub fn update_func(mut self, f: impl Fn(Arc<T>, Arc<T>) + Send + Sync + 'static) -> Self {
        self.update = Some(Box::new(f));
        self
    }

    /// Sets the delete function (also called for tombstones).
    pub fn delete_func(mut self, f: impl Fn(Arc<T>) + Send + Sync + 'static) -> Self {
        self.delete = Some(Box::new(f));
        self
    }
}

impl<T: Send + Sync> ResourceEventHandler<T> for ResourceEventHandlerFuncs<T> {
    fn on_add(&self, obj: Arc<T>, is_in_initial_list: bool) {
        if let Some(f) = &self.add {
            f(obj, is_in_initial_list)
        }
    }
    fn on_update(&self, old: Arc<T>, new: Arc<T>) {
        if let Some(f) = &self.update {
            f(old, new)
        }
    }
    fn on_delete(&self, obj: Arc<T>) {
        if let Some(f) = &self.delete {
            f(obj)
        }
    }
}
