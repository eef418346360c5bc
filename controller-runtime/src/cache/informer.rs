//! A shared informer of one resource: a reflector filling an indexed store, and the
//! event handlers it notifies (client-go's `SharedIndexInformer`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use apimachinery::runtime::Object;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::event_handler::ResourceEventHandler;
use super::lister_watcher::ListerWatcher;
use super::processor::Processor;
use super::reflector::{Reflector, ReflectorOptions};
use super::store::{IndexFunc, Indexer, StoreError};

/// Errors of informer set-up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InformerError {
    /// Indexes can be added only before the informer starts (as in client-go).
    #[error("cannot add index {name:?}: the informer has already started")]
    AlreadyStarted {
        /// The index that was being added.
        name: String,
    },
    /// `start` was called twice.
    #[error("the informer was already started")]
    StartedTwice,
    /// The store refused the index.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A handler's registration, to remove it with [`Informer::remove_event_handler`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HandlerRegistration {
    id: u64,
}

struct Shared<T> {
    reflector: Reflector<T>,
    started: AtomicBool,
    synced: watch::Receiver<bool>,
}

/// A shared informer of one resource (client-go's `SharedIndexInformer`): cheap to
/// clone, every clone is the same informer.
///
/// ```
/// use std::sync::Arc;
/// use apimachinery::runtime::Unstructured;
/// use controller_runtime::cache::{
///     Informer, ListResult, ListWatchError, ListerWatcher, ReflectorOptions,
///     ResourceEventHandlerFuncs, WatchStream,
/// };
/// use futures_util::future::BoxFuture;
///
/// // A lister with one ConfigMap whose watch never sends anything.
/// struct One;
/// impl ListerWatcher<Unstructured> for One {
///     fn list(&self) -> BoxFuture<'_, Result<ListResult<Unstructured>, ListWatchError>> {
///         Box::pin(async {
///             let cm = Unstructured::from_value(serde_json::json!({"apiVersion": "v1",
///                 "kind": "ConfigMap", "metadata": {"name": "a", "namespace": "default"}}))
///                 .map_err(|e| ListWatchError::other("decode", e))?;
///             Ok(ListResult { items: vec![cm], resource_version: "1".into() })
///         })
///     }
///     fn watch(&self, _rv: &str) -> BoxFuture<'_, Result<WatchStream<Unstructured>, ListWatchError>> {
///         Box::pin(async { Ok(Box::pin(futures_util::stream::pending()) as WatchStream<_>) })
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let informer = Informer::new(Arc::new(One), ReflectorOptions::default());
/// informer.add_event_handler(ResourceEventHandlerFuncs::new()
///     .add_func(|obj: Arc<Unstructured>, initial| assert!(initial)));
/// let stop = tokio_util::sync::CancellationToken::new();
/// informer.start(stop.clone()).unwrap();
/// informer.wait_for_sync().await;
/// assert_eq!(informer.indexer().get_by_key("default/a").unwrap().kind(), "ConfigMap");
/// stop.cancel();
/// # });
/// ```
pub struct Informer<T> {
    shared: Arc<Shared<T>>,
}

impl<T> Clone for Informer<T> {
    fn clone(&self) -> Self {
        Informer {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<T: Object> std::fmt::Debug for Informer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Informer")
            .field("started", &self.shared.started.load(Ordering::Relaxed))
            .field("synced", &self.has_synced())
            .field("store", &self.shared.reflector.store)
            .finish()
    }
}

impl<T: Object> Informer<T> {
    /// An informer over `lister_watcher`, not yet started.
    pub fn new(lister_watcher: Arc<dyn ListerWatcher<T>>, options: ReflectorOptions<T>) -> Self {
        let (synced_tx, synced_rx) = watch::channel(false);
        Informer {
            shared: Arc::new(Shared {
                reflector: Reflector {
                    lister_watcher,
                    store: Arc::new(Indexer::with_codec(options.store_codec.clone())),
                    processor: Arc::new(Processor::new()),
                    options,
                    synced: synced_tx,
                    last_sync_resource_version: Arc::new(Mutex::new(String::new())),
                },
                started: AtomicBool::new(false),
                synced: synced_rx,
            }),
        }
    }

    /// Adds a handler. It is first told about every object already stored (as adds
    /// with `is_in_initial_list` true), then about every later change.
    pub fn add_event_handler(
        &self,
        handler: impl ResourceEventHandler<T> + 'static,
    ) -> HandlerRegistration {
        self.add_event_handler_arc(Arc::new(handler))
    }

    /// [`add_event_handler`](Self::add_event_handler) for a shared handler.
    pub fn add_event_handler_arc(
        &self,
        handler: Arc<dyn ResourceEventHandler<T>>,
    ) -> HandlerRegistration {
        let reflector = &self.shared.reflector;
        let id = reflector.processor.next_id();
        let mut notifier = reflector.processor.lock();
        for obj in reflector.store.list() {
            handler.on_add(obj, true);
        }
        notifier.register(id, handler);
        HandlerRegistration { id }
    }

    /// Removes a handler; false if it was not registered.
    pub fn remove_event_handler(&self, registration: HandlerRegistration) -> bool {
        self.shared
            .reflector
            .processor
            .lock()
            .remove(registration.id)
    }

    /// Adds indexes (client-go's `AddIndexers`); only before [`start`](Self::start).
    pub fn add_indexers(
        &self,
        indexers: impl IntoIterator<Item = (String, IndexFunc<T>)>,
    ) -> Result<(), InformerError> {
        let indexers: Vec<_> = indexers.into_iter().collect();
        if self.shared.started.load(Ordering::SeqCst) {
            let name = indexers.first().map(|(n, _)| n.clone()).unwrap_or_default();
            return Err(InformerError::AlreadyStarted { name });
        }
        Ok(self.shared.reflector.store.add_indexers(indexers)?)
    }

    /// The informer's store (objects shared as decoded, or encoded and decoded on each
    /// read: see [`ReflectorOptions::store_codec`]).
    pub fn indexer(&self) -> &Arc<Indexer<T>> {
        &self.shared.reflector.store
    }

    /// True once the first list is in the store (client-go's `HasSynced`).
    pub fn has_synced(&self) -> bool {
        *self.shared.synced.borrow()
    }

    /// Waits until the first list is in the store.
    pub async fn wait_for_sync(&self) {
        let mut synced = self.shared.synced.clone();
        // The sender lives as long as `self`, so this cannot fail while we wait.
        let _ = synced.wait_for(|s| *s).await;
    }

    /// The resourceVersion of the last list or event applied (client-go's
    /// `LastSyncResourceVersion`).
    pub fn last_sync_resource_version(&self) -> String {
        self.shared
            .reflector
            .last_sync_resource_version
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// True once started.
    pub fn is_started(&self) -> bool {
        self.shared.started.load(Ordering::SeqCst)
    }

    /// Runs the informer on the current task until `cancel` fires.
    pub async fn run(&self, cancel: CancellationToken) -> Result<(), InformerError> {
        if self.shared.started.swap(true, Ordering::SeqCst) {
            return Err(InformerError::StartedTwice);
        }
        self.shared.reflector.run(cancel).await;
        Ok(())
    }

    /// Spawns the informer on the tokio runtime; it stops when `cancel` fires.
    pub fn start(
        &self,
        cancel: CancellationToken,
    ) -> Result<tokio::task::JoinHandle<()>, InformerError> {
        if self.shared.started.swap(true, Ordering::SeqCst) {
            return Err(InformerError::StartedTwice);
        }
        let shared = Arc::clone(&self.shared);
        Ok(tokio::spawn(async move {
            shared.reflector.run(cancel).await;
        }))
    }
}
