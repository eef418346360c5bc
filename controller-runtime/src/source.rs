//! Where a controller's events come from (controller-runtime's `pkg/source`).
//!
//! - [`Kind`]: the events of one kind's informer in the [`Cache`]; the cache's own
//!   `Arc<T>` is handed on (as `Arc<dyn Object>`), never copied.
//! - [`Channel`]: generic events sent by the program itself (a timer, a webhook, another
//!   system).
//!
//! A source feeds events through the controller's predicates into an
//! [`EventHandler`], which puts [`Request`]s on the work queue.

use std::fmt;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};

use apimachinery::runtime::{Object, Resource};
use futures_util::future::BoxFuture;
use tokio_util::sync::CancellationToken;

use crate::cache::{Cache, CacheError, Informer, ResourceEventHandler};
use crate::event::{CreateEvent, DeleteEvent, GenericEvent, UpdateEvent};
use crate::handler::EventHandler;
use crate::predicate::Predicate;
use crate::reconcile::Request;
use crate::workqueue::WorkQueue;

/// Errors of starting a source.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// The cache could not make the kind's informer (a kind the Scheme does not know).
    #[error("source for {kind}: {source}")]
    Cache {
        /// The kind.
        kind: String,
        /// Why.
        #[source]
        source: CacheError,
    },
    /// A channel source was started twice (its receiver is consumed by the first start).
    #[error("channel source {name:?} started twice")]
    ChannelStartedTwice {
        /// The source's name.
        name: String,
    },
}

/// Where the events of a source go: the handler, behind the predicates, onto the queue.
#[derive(Clone)]
pub struct EventSink {
    handler: Arc<dyn EventHandler>,
    predicates: Arc<[Arc<dyn Predicate>]>,
    queue: WorkQueue<Request>,
}

impl fmt::Debug for EventSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventSink")
            .field("predicates", &self.predicates.len())
            .finish()
    }
}

impl EventSink {
    /// A sink handing events that pass every predicate to `handler` with `queue`.
    pub fn new(
        handler: Arc<dyn EventHandler>,
        predicates: Vec<Arc<dyn Predicate>>,
        queue: WorkQueue<Request>,
    ) -> Self {
        Self {
            handler,
            predicates: predicates.into(),
            queue,
        }
    }

    /// A creation.
    pub fn create(&self, event: CreateEvent) {
        if self.predicates.iter().all(|p| p.create(&event)) {
            self.handler.create(&event, &self.queue);
        }
    }

    /// An update.
    pub fn update(&self, event: UpdateEvent) {
        if self.predicates.iter().all(|p| p.update(&event)) {
            self.handler.update(&event, &self.queue);
        }
    }

    /// A deletion.
    pub fn delete(&self, event: DeleteEvent) {
        if self.predicates.iter().all(|p| p.delete(&event)) {
            self.handler.delete(&event, &self.queue);
        }
    }

    /// A generic event.
    pub fn generic(&self, event: GenericEvent) {
        if self.predicates.iter().all(|p| p.generic(&event)) {
            self.handler.generic(&event, &self.queue);
        }
    }
}

/// A source of events for a controller.
pub trait Source: Send + Sync {
    /// Starts delivering events into `sink` until `cancel` fires.
    fn start(&self, sink: EventSink, cancel: CancellationToken) -> Result<(), SourceError>;

    /// Waits until the source has delivered its initial state (an informer's first list);
    /// false if `cancel` fired first.
    fn wait_for_sync<'a>(&'a self, cancel: &'a CancellationToken) -> BoxFuture<'a, bool>;

    /// What the source watches, for errors and logs.
    fn describe(&self) -> String;
}

/// The events of the informer of `T` in a [`Cache`] (controller-runtime's
/// `source.Kind`).
pub struct Kind<T> {
    cache: Cache,
    informer: Mutex<Option<Informer<T>>>,
    _type: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for Kind<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("source::Kind")
    }
}

impl<T: Resource> Kind<T> {
    /// The events of `T` from `cache`.
    pub fn new(cache: Cache) -> Self {
        Self {
            cache,
            informer: Mutex::new(None),
            _type: PhantomData,
        }
    }
}

/// Hands an informer's typed events on as the controller's type-erased events.
struct InformerAdapter {
    sink: EventSink,
}

impl<T: Object> ResourceEventHandler<T> for InformerAdapter {
    fn on_add(&self, obj: Arc<T>, is_in_initial_list: bool) {
        self.sink.create(CreateEvent {
            object: obj,
            is_in_initial_list,
        });
    }
    fn on_update(&self, old: Arc<T>, new: Arc<T>) {
        self.sink.update(UpdateEvent {
            object_old: old,
            object_new: new,
        });
    }
    fn on_delete(&self, obj: Arc<T>) {
        self.sink.delete(DeleteEvent {
            object: obj,
            delete_state_unknown: false,
        });
    }
    fn on_delete_final_state_unknown(&self, obj: Arc<T>) {
        self.sink.delete(DeleteEvent {
            object: obj,
            delete_state_unknown: true,
        });
    }
}

impl<T: Resource> Source for Kind<T> {
    fn start(&self, sink: EventSink, _cancel: CancellationToken) -> Result<(), SourceError> {
        let informer = self
            .cache
            .get_informer::<T>()
            .map_err(|source| SourceError::Cache {
                kind: T::gvk().to_string(),
                source,
            })?;
        // The registration lives as long as the informer: the controller runs as long as
        // the cache does.
        informer.add_event_handler(InformerAdapter { sink });
        *crate::workqueue::lock(&self.informer) = Some(informer);
        Ok(())
    }

    fn wait_for_sync<'a>(&'a self, cancel: &'a CancellationToken) -> BoxFuture<'a, bool> {
        let informer = crate::workqueue::lock(&self.informer).clone();
        Box::pin(async move {
            let Some(informer) = informer else {
                return false;
            };
            tokio::select! {
                () = cancel.cancelled() => false,
                () = informer.wait_for_sync() => true,
            }
        })
    }

    fn describe(&self) -> String {
        format!("kind source: {}", T::gvk())
    }
}

/// Generic events sent through a channel (controller-runtime's `source.Channel`).
pub struct Channel {
    name: String,
    receiver: Mutex<Option<tokio::sync::mpsc::Receiver<GenericEvent>>>,
}

impl fmt::Debug for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Channel").field("name", &self.name).finish()
    }
}

impl Channel {
    /// A source named `name` and the sender that feeds it (`buffer` events may wait).
    pub fn new(
        name: impl Into<String>,
        buffer: usize,
    ) -> (Self, tokio::sync::mpsc::Sender<GenericEvent>) {
        let (tx, rx) = tokio::sync::mpsc::channel(buffer.max(1));
        (
            Self {
                name: name.into(),
                receiver: Mutex::new(Some(rx)),
            },
            tx,
        )
    }
}

impl Source for Channel {
    fn start(&self, sink: EventSink, cancel: CancellationToken) -> Result<(), SourceError> {
        let Some(mut rx) = crate::workqueue::lock(&self.receiver).take() else {
            return Err(SourceError::ChannelStartedTwice {
                name: self.name.clone(),
            });
        };
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    () = cancel.cancelled() => return,
                    event = rx.recv() => match event {
                        Some(event) => sink.generic(event),
                        None => return,
                    },
                }
            }
        });
        Ok(())
    }

    fn wait_for_sync<'a>(&'a self, _cancel: &'a CancellationToken) -> BoxFuture<'a, bool> {
        Box::pin(async { true })
    }

    fn describe(&self) -> String {
        format!("channel source: {}", self.name)
    }
}
