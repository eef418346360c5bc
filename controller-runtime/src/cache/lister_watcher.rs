//! What an informer needs from an API client: a list and a watch of one resource
//! (client-go's `ListerWatcher`), as an object-safe trait so that the reflector can be run
//! against the real client, a scripted fake in tests, or anything else.

use futures_util::future::BoxFuture;
use futures_util::stream::BoxStream;

/// A complete list of a resource: its items and the resourceVersion to watch from.
#[derive(Debug, Clone, PartialEq)]
pub struct ListResult<T> {
    /// Every item (all pages).
    pub items: Vec<T>,
    /// The list's `metadata.resourceVersion`.
    pub resource_version: String,
}

/// One watch event (the shape of `client::WatchEvent` without its error item, which
/// arrives as the stream's `Err`).
#[derive(Debug, Clone, PartialEq)]
pub enum WatchEvent<T> {
    /// An object was created (or first seen by this watch).
    Added(T),
    /// An object changed.
    Modified(T),
    /// An object was deleted; its last state.
    Deleted(T),
    /// The server's progress notice: everything up to `resource_version` was sent.
    Bookmark {
        /// The resourceVersion to resume from.
        resource_version: String,
    },
}

/// Why a list or watch failed.
#[derive(Debug, thiserror::Error)]
pub enum ListWatchError {
    /// The resourceVersion asked for is older than the server keeps (HTTP 410 Gone or
    /// a watch error event with reason `Expired`/`Gone`): the reflector must relist.
    #[error("resource version {resource_version:?} is too old: {message}")]
    Expired {
        /// The resourceVersion the watch started from.
        resource_version: String,
        /// The server's message.
        message: String,
    },
    /// Any other failure (connection refused, dropped stream, decode error, 5xx...):
    /// retried with backoff.
    #[error("{context}: {source}")]
    Other {
        /// What was being done, such as `watch configmaps from 42`.
        context: String,
        /// The underlying error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl ListWatchError {
    /// Wraps any error with what was being done.
    pub fn other(
        context: impl Into<String>,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        ListWatchError::Other {
            context: context.into(),
            source: source.into(),
        }
    }

    /// True for [`ListWatchError::Expired`].
    pub fn is_expired(&self) -> bool {
        matches!(self, ListWatchError::Expired { .. })
    }
}

/// A stream of watch events.
pub type WatchStream<T> = BoxStream<'static, Result<WatchEvent<T>, ListWatchError>>;

/// Lists and watches one resource (with whatever namespace, label and field restriction
/// the implementation was made with). Implementations ask the server for bookmarks.
pub trait ListerWatcher<T>: Send + Sync + 'static {
    /// A consistent list of every item (following `continue` tokens).
    fn list(&self) -> BoxFuture<'_, Result<ListResult<T>, ListWatchError>>;
    /// A watch starting after `resource_version`. The stream ends when the server closes
    /// the watch; the reflector then watches again from the last resourceVersion seen.
    fn watch(
        &self,
        resource_version: &str,
    ) -> BoxFuture<'_, Result<WatchStream<T>, ListWatchError>>;
}
