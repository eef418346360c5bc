//! The list of an informer's event handlers and the lock that orders notifications
//! (client-go's `sharedProcessor`).
//!
//! Every change to the store is made and announced while holding the lock, and a new
//! handler is given the store's content and registered under the same lock: a handler
//! therefore sees every object exactly once as added, then each later change, with no
//! gap and no duplicate, however its registration races with the reflector.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::event_handler::ResourceEventHandler;

type Handlers<T> = Vec<(u64, Arc<dyn ResourceEventHandler<T>>)>;

/// The registered handlers, behind the notification lock.
pub(crate) struct Processor<T> {
    handlers: Mutex<Handlers<T>>,
    next_id: AtomicU64,
}

/// The locked handler list: store writes and their notifications happen while held.
pub(crate) struct Notifier<'a, T> {
    handlers: MutexGuard<'a, Handlers<T>>,
}

impl<T> Processor<T> {
    pub(crate) fn new() -> Self {
        Processor {
            handlers: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(1),
        }
    }

    /// Takes the notification lock. A handler that panicked poisons it; the list itself
    /// is intact, so later notifications go on.
    pub(crate) fn lock(&self) -> Notifier<'_, T> {
        Notifier {
            handlers: self.handlers.lock().unwrap_or_else(PoisonError::into_inner),
        }
    }

    pub(crate) fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }
}

impl<T> Notifier<'_, T> {
    pub(crate) fn register(&mut self, id: u64, handler: Arc<dyn ResourceEventHandler<T>>) {
        self.handlers.push((id, handler));
    }

    pub(crate) fn remove(&mut self, id: u64) -> bool {
        let before = self.handlers.len();
        self.handlers.retain(|(i, _)| *i != id);
        before != self.handlers.len()
    }

    pub(crate) fn len(&self) -> usize {
        self.handlers.len()
    }

    pub(crate) fn add(&self, obj: &Arc<T>, is_in_initial_list: bool) {
        for (_, h) in self.handlers.iter() {
            h.on_add(Arc::clone(obj), is_in_initial_list);
        }
    }

    pub(crate) fn update(&self, old: &Arc<T>, new: &Arc<T>) {
        for (_, h) in self.handlers.iter() {
            h.on_update(Arc::clone(old), Arc::clone(new));
        }
    }

    pub(crate) fn delete(&self, obj: &Arc<T>, final_state_unknown: bool) {
        for (_, h) in self.handlers.iter() {
            if final_state_unknown {
                h.on_delete_final_state_unknown(Arc::clone(obj));
            } else {
                h.on_delete(Arc::clone(obj));
            }
        }
    }
}
