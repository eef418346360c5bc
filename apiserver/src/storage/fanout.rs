//! In-process delivery of a backend's write events to its watchers: what the memory and
//! redb backends share (etcd delivers its own).
//!
//! The backend calls [`Fanout::register`] and [`Fanout::publish`] while holding the lock
//! that orders its writes, so a new watcher's replay (read from history under that lock)
//! and its live events meet exactly at one revision: nothing lost, nothing twice.
//! Writers never wait on a watcher: each one has a bounded buffer, and one whose buffer is
//! full is dropped; its stream delivers what it had buffered and then ends with an error,
//! after which the caller re-watches from the last revision it saw (kube-apiserver's watch
//! cache treats a too-slow watcher the same way).

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use futures_core::Stream;
use tokio::sync::mpsc;

use super::{Revision, StorageError, WatchEvent, WatchStream};

/// How many live events a watcher may have undelivered before it is dropped, unless the
/// backend chooses otherwise.
pub(crate) const DEFAULT_WATCH_BUFFER: usize = 1024;

/// One registered watcher, as the writer side sees it.
#[derive(Debug)]
struct Watcher {
    prefix: String,
    /// Events below this revision were (or will be) delivered by the replay.
    min_revision: Revision,
    sender: mpsc::Sender<WatchEvent>,
    /// Set when the watcher was dropped for falling behind, so its stream can say why.
    lagged: Arc<AtomicBool>,
}

/// The watchers of one backend.
#[derive(Debug)]
pub(crate) struct Fanout {
    backend: String,
    buffer: usize,
    watchers: Vec<Watcher>,
}

impl Fanout {
    /// A fan-out with no watchers; `backend` names the store in errors, `buffer` is each
    /// watcher's bound (at least 1).
    pub(crate) fn new(backend: String, buffer: usize) -> Self {
        Fanout {
            backend,
            buffer: buffer.max(1),
            watchers: Vec::new(),
        }
    }

    /// Adds a watcher of `prefix` that first yields `replay` (the history after `from`,
    /// already filtered by the prefix) and then every published event of the prefix with
    /// a revision above both `from` and the replay's last event.
    pub(crate) fn register(
        &mut self,
        prefix: &str,
        from: Revision,
        replay: VecDeque<WatchEvent>,
    ) -> WatchStream {
        let (sender, receiver) = mpsc::channel(self.buffer);
        let lagged = Arc::new(AtomicBool::new(false));
        let min_revision = replay
            .back()
            .map_or(from, |last| last.revision().max(from))
            .saturating_add(1);
        self.watchers.push(Watcher {
            prefix: prefix.to_owned(),
            min_revision,
            sender,
            lagged: Arc::clone(&lagged),
        });
        Box::pin(FanoutStream {
            replay,
            receiver,
            lagged,
            prefix: prefix.to_owned(),
            backend: self.backend.clone(),
            buffer: self.buffer,
            finished: false,
        })
    }

    /// Hands `event` (of `key`) to every watcher of a prefix of `key`, dropping watchers
    /// that are gone or too far behind.
    pub(crate) fn publish(&mut self, key: &str, event: &WatchEvent) {
        let revision = event.revision();
        self.watchers.retain(|watcher| {
            if watcher.sender.is_closed() {
                return false;
            }
            if !key.starts_with(&watcher.prefix) || revision < watcher.min_revision {
                return true;
            }
            match watcher.sender.try_send(event.clone()) {
                Ok(()) => true,
                Err(mpsc::error::TrySendError::Full(_)) => {
                    watcher.lagged.store(true, Ordering::Release);
                    false
                }
                Err(mpsc::error::TrySendError::Closed(_)) => false,
            }
        });
    }

    /// How many watchers are registered (for tests and metrics).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.watchers.len()
    }
}

/// The reader side of one watcher: the replay, then the live events, then (if it was
/// dropped for falling behind) one error.
struct FanoutStream {
    replay: VecDeque<WatchEvent>,
    receiver: mpsc::Receiver<WatchEvent>,
    lagged: Arc<AtomicBool>,
    prefix: String,
    backend: String,
    buffer: usize,
    finished: bool,
}

impl Stream for FanoutStream {
    type Item = Result<WatchEvent, StorageError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.finished {
            return Poll::Ready(None);
        }
        if let Some(event) = this.replay.pop_front() {
            return Poll::Ready(Some(Ok(event)));
        }
        match this.receiver.poll_recv(cx) {
            Poll::Ready(Some(event)) => Poll::Ready(Some(Ok(event))),
            Poll::Ready(None) => {
                this.finished = true;
                if this.lagged.load(Ordering::Acquire) {
                    Poll::Ready(Some(Err(StorageError::Unavailable {
                        backend: this.backend.clone(),
                        message: format!(
                            "watch of {:?} fell more than {} events behind the writers and was \
                             ended; watch again from the last revision received",
                            this.prefix, this.buffer
                        ),
                    })))
                } else {
                    Poll::Ready(None)
                }
            }
            Poll::Pending => Poll::Pending,
        }
    }
}
