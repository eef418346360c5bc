//! The cache's events handed to the watches of one connection worker through one task
//! on that worker (see [`crate::worker`]).
//!
//! A watch's task waits on the cache's broadcast channel; the event pump wakes every
//! waiting watch when it sends. Waking a task of another worker's runtime is a system
//! call (the runtime's event loop is woken through its eventfd), one per watch per
//! event: with 100 watches on two workers, half of a fan-out's wake-ups were system
//! calls. Through a relay the pump wakes one task per worker, which then wakes that
//! worker's watches from their own thread, without a system call.
//!
//! A relay lives while its worker has watches: it ends at the first event after the last
//! of them went (and with the cache's channel), and the next watch on that worker starts
//! another. Off the workers (a multi-threaded runtime, tests), watches receive from the
//! cache's channel themselves.

use std::sync::Arc;

use tokio::sync::broadcast::{self, error::RecvError};
use tokio::task::JoinHandle;

use super::{CLIENT_BUFFER, CacheEvent};

/// What a relay passes on: an event, or that the relay fell that many events behind the
/// cache (so did every watch of its worker, which then ends as one that fell behind).
#[derive(Clone, Debug)]
pub(super) enum Item {
    Event(Arc<CacheEvent>),
    Lagged(u64),
}

/// The running relays of one cache's channel, by worker.
#[derive(Debug, Default)]
pub(super) struct Relays {
    by_worker: Vec<Option<Relay>>,
}

/// One worker's relay: its channel (held strongly by the relay's task alone, so that
/// the channel closes when the task ends) and the task.
#[derive(Debug)]
struct Relay {
    tx: broadcast::WeakSender<Item>,
    task: JoinHandle<()>,
}

/// The events of one watch from the moment it subscribed.
#[derive(Debug)]
pub(super) enum Subscription {
    /// From the cache's channel.
    Direct(broadcast::Receiver<Arc<CacheEvent>>),
    /// Through its worker's relay.
    Relayed(broadcast::Receiver<Item>),
}

impl Subscription {
    /// The next event, as [`broadcast::Receiver::recv`] gives it.
    pub(super) async fn recv(&mut self) -> Result<Arc<CacheEvent>, RecvError> {
        match self {
            Subscription::Direct(rx) => rx.recv().await,
            Subscription::Relayed(rx) => match rx.recv().await {
                Ok(Item::Event(event)) => Ok(event),
                Ok(Item::Lagged(n)) => Err(RecvError::Lagged(n)),
                Err(e) => Err(e),
            },
        }
    }
}

impl Relays {
    /// A subscription to the events `source` sends from now on: through this worker's
    /// relay (started if it has none) on a connection worker, directly elsewhere. Called
    /// with the cache's window locked, so that the subscription starts where the ring
    /// ends: a relay passes on only events sent after it subscribed, and an event it
    /// has not passed on yet arrives after the ring's copy (the watch skips it).
    pub(super) fn subscribe(
        &mut self,
        source: &broadcast::Sender<Arc<CacheEvent>>,
    ) -> Subscription {
        let Some(worker) = crate::worker::index() else {
            return Subscription::Direct(source.subscribe());
        };
        if self.by_worker.len() <= worker {
            self.by_worker.resize_with(worker + 1, || None);
        }
        let slot = &mut self.by_worker[worker];
        // The relay runs on this thread, as does the caller: it cannot end between the
        // upgrade and the subscription.
        if let Some(relay) = slot.as_ref()
            && !relay.task.is_finished()
            && let Some(tx) = relay.tx.upgrade()
        {
            return Subscription::Relayed(tx.subscribe());
        }
        let (tx, rx) = broadcast::channel(CLIENT_BUFFER);
        let weak = tx.downgrade();
        let task = tokio::spawn(relay(source.subscribe(), tx));
        *slot = Some(Relay { tx: weak, task });
        Subscription::Relayed(rx)
    }
}

/// Passes the cache's events on to this worker's watches until none is left or the
/// cache's channel closes.
async fn relay(mut from: broadcast::Receiver<Arc<CacheEvent>>, to: broadcast::Sender<Item>) {
    loop {
        let item = match from.recv().await {
            Ok(event) => Item::Event(event),
            Err(RecvError::Lagged(n)) => Item::Lagged(n),
            Err(RecvError::Closed) => return,
        };
        // No receiver left: the worker's last watch ended.
        if to.send(item).is_err() {
            return;
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::registry::EventType;

    fn event(revision: i64) -> Arc<CacheEvent> {
        Arc::new(CacheEvent {
            event_type: EventType::Progress,
            revision,
            object: Default::default(),
            prev: Default::default(),
            lines: Default::default(),
        })
    }

    /// Runs `f` on a connection worker's thread and runtime.
    fn on_worker<F: std::future::Future<Output = ()>>(f: impl FnOnce() -> F + Send + 'static) {
        std::thread::spawn(move || {
            crate::worker::enter(0);
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(f());
        })
        .join()
        .unwrap();
    }

    async fn revision(sub: &mut Subscription) -> Result<i64, RecvError> {
        sub.recv().await.map(|e| e.revision)
    }

    #[test]
    fn off_the_workers_a_watch_receives_directly() {
        let (source, _) = broadcast::channel(CLIENT_BUFFER);
        let mut relays = Relays::default();
        assert!(matches!(relays.subscribe(&source), Subscription::Direct(_)));
    }

    #[test]
    fn a_worker_shares_one_relay_which_ends_with_its_last_watch() {
        on_worker(|| async {
            let (source, _) = broadcast::channel(CLIENT_BUFFER);
            let mut relays = Relays::default();
            let mut a = relays.subscribe(&source);
            let mut b = relays.subscribe(&source);
            assert!(matches!(a, Subscription::Relayed(_)));
            // One relay: one receiver of the cache's channel.
            assert_eq!(source.receiver_count(), 1);
            source.send(event(1)).unwrap();
            assert_eq!(revision(&mut a).await.unwrap(), 1);
            assert_eq!(revision(&mut b).await.unwrap(), 1);
            drop((a, b));
            // The relay notices at the next event that nobody listens, and ends.
            source.send(event(2)).unwrap();
            let task = &relays.by_worker[0].as_ref().unwrap().task;
            while !task.is_finished() {
                tokio::task::yield_now().await;
            }
            assert_eq!(source.receiver_count(), 0);
            // The next watch starts another, and gets only what is sent after it.
            let mut c = relays.subscribe(&source);
            source.send(event(3)).unwrap();
            assert_eq!(revision(&mut c).await.unwrap(), 3);
        });
    }

    #[test]
    fn a_closed_cache_channel_ends_the_watches() {
        on_worker(|| async {
            let (source, _) = broadcast::channel(CLIENT_BUFFER);
            let mut relays = Relays::default();
            let mut a = relays.subscribe(&source);
            source.send(event(1)).unwrap();
            drop(source);
            assert_eq!(revision(&mut a).await.unwrap(), 1);
            assert!(matches!(revision(&mut a).await, Err(RecvError::Closed)));
        });
    }

    #[test]
    fn a_relay_that_falls_behind_ends_its_watches_as_lagging() {
        on_worker(|| async {
            let (source, _) = broadcast::channel(CLIENT_BUFFER);
            let mut relays = Relays::default();
            let mut a = relays.subscribe(&source);
            // The relay does not run before the channel overflows.
            for r in 0..CLIENT_BUFFER + 5 {
                source.send(event(i64::try_from(r).unwrap())).unwrap();
            }
            assert!(matches!(revision(&mut a).await, Err(RecvError::Lagged(5))));
        });
    }
}
