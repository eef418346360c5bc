//! The informer cache (Go's `sigs.k8s.io/controller-runtime/pkg/cache` and the parts of
//! client-go's `tools/cache` it is built on).
//!
//! - [`Indexer`] (alias [`Store`]): objects keyed by `namespace/name`, with a namespace
//!   index and named field indexes; held as `Arc<T>` and shared on read (the default), or
//!   (with [`CacheOptions::store_encoded`]) held encoded by a [`StoreCodec`] — protobuf,
//!   or compact JSON for [`Unstructured`](apimachinery::runtime::Unstructured) — and
//!   decoded into a fresh `Arc<T>` on each read, which takes a fraction of the memory
//!   for a read cost above the deep copy Go's cache makes on every read.
//! - [`Informer`]: a reflector (list, then watch from the list's resourceVersion;
//!   bookmarks; relist on 410 Expired; re-watch with backoff; resync) filling an
//!   [`Indexer`] and notifying [`ResourceEventHandler`]s.
//! - [`ListerWatcher`]: what an informer needs from a client, object-safe so that
//!   informers run against the real client or a scripted one.
//! - [`Cache`]: one informer per kind (typed, [`Unstructured`](apimachinery::runtime::Unstructured)
//!   or metadata-only), made lazily, with per-kind restrictions, field indexes
//!   ([`Cache::index_field`]) and reads by namespace, label and field selector.
//! - [`ListWatchFactory`]: what the cache needs from a client.
//! - Namespaces: [`CacheOptions::default_namespaces`] and [`ByObject::namespaces`]
//!   restrict namespaced kinds to a set of namespaces (controller-runtime's
//!   `DefaultNamespaces`/`ByObject.Namespaces`). Each kind keeps one informer, whose
//!   lister/watcher lists every namespace of the set and merges their watches, resuming
//!   each namespace from its own resourceVersion so that no event is lost or repeated
//!   across re-watches; cluster-scoped kinds are watched cluster-wide.
//! - [`transform`]: functions applied before storing (by default,
//!   [`strip_managed_fields`]).
//!
//! Shared rule of the crate: cached objects are handed out as `Arc<T>`; whoever wants to
//! change one clones it. Event handlers get the object of the event itself (decoded once
//! from the wire, shared by every handler), never a decode of the stored form; only the
//! previous state of an update, and reads of the store, decode.

mod client_source;
mod event_handler;
mod informer;
mod informer_cache;
mod lister_watcher;
mod multi_namespace;
mod processor;
mod reflector;
mod source;
mod store;
mod stored;
pub mod transform;

#[cfg(test)]
mod informer_cache_tests;
#[cfg(test)]
mod informer_tests;
#[cfg(test)]
mod multi_namespace_tests;
#[cfg(test)]
mod stored_tests;

pub use event_handler::{ResourceEventHandler, ResourceEventHandlerFuncs};
pub use informer::{HandlerRegistration, Informer, InformerError};
pub use informer_cache::{
    ALL_NAMESPACES_INDEX_KEY, AnyTransform, ByObject, Cache, CacheError, CacheOptions,
    field_index_name,
};
pub use lister_watcher::{ListResult, ListWatchError, ListerWatcher, WatchEvent, WatchStream};
pub use reflector::{ReflectorOptions, WatchErrorHandler};
pub use source::{DynListerWatcher, ListWatchFactory, ListWatchRequest, ObjectForm};
pub use store::{
    IndexFunc, Indexer, NAMESPACE_INDEX, Store, StoreError, namespaced_key, object_key,
};
pub use stored::{StoreCodec, StoredFormat};
pub use transform::{TransformFunc, strip_managed_fields};
