//! Where a [`Cache`](super::Cache) gets its lister/watchers: one per resource, made by a
//! client for a group-version-kind, an object form and a restriction.
//!
//! The trait is object-safe and hands out type-erased objects (`Box<dyn Object>`, decoded
//! through the Scheme by the client), so that the cache holds one client whatever the
//! kinds it watches; a typed informer downcasts each object once, which moves it out of
//! its box without copying its content.

use std::sync::Arc;

use apimachinery::runtime::Object;
use apimachinery::schema::GroupVersionKind;
use futures_util::future::BoxFuture;
use futures_util::{StreamExt, TryStreamExt};

use super::lister_watcher::{ListResult, ListWatchError, ListerWatcher, WatchEvent, WatchStream};

/// How objects of a resource are decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjectForm {
    /// The Rust type registered in the Scheme for the kind.
    Typed,
    /// [`Unstructured`](apimachinery::runtime::Unstructured).
    Unstructured,
    /// Metadata only (`PartialObjectMetadata`, served by the API server's
    /// `as=PartialObjectMetadata` content negotiation).
    Metadata,
}

/// What a lister/watcher lists and watches.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ListWatchRequest {
    /// The kind.
    pub gvk: GroupVersionKind,
    /// How objects are decoded.
    pub form: ObjectForm,
    /// Only this namespace; `None` for all.
    pub namespace: Option<String>,
    /// A label selector in its string form; `None` for everything.
    pub label_selector: Option<String>,
    /// A field selector in its string form; `None` for everything.
    pub field_selector: Option<String>,
}

/// A lister/watcher of type-erased objects.
pub type DynListerWatcher = Arc<dyn ListerWatcher<Box<dyn Object>>>;

/// Makes lister/watchers for a cache (implemented by the client).
pub trait ListWatchFactory: Send + Sync + 'static {
    /// A lister/watcher for `request`; fails when the kind is unknown to the client's
    /// Scheme or RESTMapper.
    fn lister_watcher(
        &self,
        request: &ListWatchRequest,
    ) -> Result<DynListerWatcher, ListWatchError>;

    /// Whether objects of `gvk` live in namespaces (the RESTMapper's scope). Asked once
    /// per informer restricted to a set of namespaces, so that cluster-scoped kinds are
    /// watched cluster-wide rather than once per namespace.
    fn is_namespaced(&self, gvk: &GroupVersionKind) -> BoxFuture<'_, Result<bool, ListWatchError>>;
}

/// Adapts a type-erased lister/watcher to objects of type `T`.
pub(crate) struct Downcast<T> {
    inner: DynListerWatcher,
    gvk: GroupVersionKind,
    _type: std::marker::PhantomData<fn() -> T>,
}

impl<T> Downcast<T> {
    pub(crate) fn new(inner: DynListerWatcher, gvk: GroupVersionKind) -> Self {
        Downcast {
            inner,
            gvk,
            _type: std::marker::PhantomData,
        }
    }
}

#[derive(Debug, thiserror::Error)]
#[error("the client decoded {gvk} as {got}, not as {expected}")]
struct WrongType {
    gvk: GroupVersionKind,
    got: &'static str,
    expected: &'static str,
}

fn downcast<T: Object>(obj: Box<dyn Object>, gvk: &GroupVersionKind) -> Result<T, ListWatchError> {
    let got = obj.type_name();
    obj.downcast::<T>().map(|b| *b).map_err(|_| {
        ListWatchError::other(
            format!("decode {gvk}"),
            WrongType {
                gvk: gvk.clone(),
                got,
                expected: std::any::type_name::<T>(),
            },
        )
    })
}

impl<T: Object> ListerWatcher<T> for Downcast<T> {
    fn list(&self) -> BoxFuture<'_, Result<ListResult<T>, ListWatchError>> {
        Box::pin(async move {
            let list = self.inner.list().await?;
            let items = list
                .items
                .into_iter()
                .map(|o| downcast::<T>(o, &self.gvk))
                .collect::<Result<Vec<T>, _>>()?;
            Ok(ListResult {
                items,
                resource_version: list.resource_version,
            })
        })
    }

    fn watch(
        &self,
        resource_version: &str,
    ) -> BoxFuture<'_, Result<WatchStream<T>, ListWatchError>> {
        let rv = resource_version.to_owned();
        Box::pin(async move {
            let stream = self.inner.watch(&rv).await?;
            let gvk = self.gvk.clone();
            Ok(stream
                .and_then(move |event| {
                    let gvk = gvk.clone();
                    async move {
                        Ok(match event {
                            WatchEvent::Added(o) => WatchEvent::Added(downcast::<T>(o, &gvk)?),
                            WatchEvent::Modified(o) => {
                                WatchEvent::Modified(downcast::<T>(o, &gvk)?)
                            }
                            WatchEvent::Deleted(o) => WatchEvent::Deleted(downcast::<T>(o, &gvk)?),
                            WatchEvent::Bookmark { resource_version } => {
                                WatchEvent::Bookmark { resource_version }
                            }
                        })
                    }
                })
                .boxed())
        })
    }
}
