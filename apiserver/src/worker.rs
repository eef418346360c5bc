//! Which connection worker, if any, the current thread is.
//!
//! A server given [`Config::connection_workers`](crate::server::Config::connection_workers)
//! serves each connection on one of several single-threaded runtimes, so that a request,
//! its storage calls and its answer stay on one thread and wake no other. Code below the
//! server asks here to keep per-worker state: the etcd backend keeps its connections to
//! etcd per worker, so that each is driven on the thread of the requests using it.
//! Tasks a request starts (a watch cache's event pump) stay on its worker's runtime for
//! the same reason; they end with the server, as the workers do.

use std::cell::Cell;

thread_local! {
    static CURRENT: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Marks the current thread as connection worker `index`. Called once, first thing on
/// the worker's thread.
pub(crate) fn enter(index: usize) {
    CURRENT.with(|current| current.set(Some(index)));
}

/// The number of the connection worker running on this thread; `None` off the workers
/// (a multi-threaded runtime, a test, a background task).
pub(crate) fn index() -> Option<usize> {
    CURRENT.with(Cell::get)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_worker_thread_has_a_number() {
        assert_eq!(index(), None);
        let seen = std::thread::spawn(|| {
            enter(3);
            index()
        })
        .join()
        .ok()
        .flatten();
        assert_eq!(seen, Some(3));
        assert_eq!(index(), None);
    }
}
