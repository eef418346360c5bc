//! The crate's one error type, [`Error`]: what the client, the cache, the delegating
//! client ([`Manager::client`](crate::manager::Manager::client)) and
//! [`controllerutil`](crate::controllerutil) fail with, so that `?` works from any of them
//! in a reconciler, and Go's questions (`apierrors.IsNotFound`, `IsConflict`, ...) are
//! asked of it whatever call failed.
//!
//! ```
//! use controller_runtime::Error;
//! use controller_runtime::cache::CacheError;
//! use controller_runtime::client::ApiError;
//!
//! // A cache miss and the server's 404 are both "not found", as in Go.
//! let miss = Error::from(CacheError::NotFound { kind: "ConfigMap".into(), key: "default/a".into() });
//! assert!(miss.is_not_found());
//! let conflict = Error::from(controller_runtime::client::Error::from(ApiError::from_code(409, "")));
//! assert!(conflict.is_conflict() && !conflict.is_not_found());
//! // An error of one's own travels in it too.
//! let mine = Error::other(std::io::Error::other("template missing"));
//! assert_eq!(mine.to_string(), "template missing");
//! ```

use apimachinery::api::errors::StatusError;

use crate::cache::CacheError;
use crate::client::{self, ApiError};
use crate::controllerutil::ControllerUtilError;

/// What a call of this crate fails with; a reconciler can return it as is (the typed
/// [`ObjectReconciler`](crate::reconcile::ObjectReconciler) and
/// [`finalizer`](crate::finalizer::finalizer) do).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The server (or the client talking to it) failed; a cache miss read through the
    /// delegating client is the 404 NotFound the server would answer.
    #[error(transparent)]
    Client(#[from] client::Error),
    /// The cache cannot answer (a field selector on an unindexed field, a namespace it
    /// does not watch, ...).
    #[error(transparent)]
    Cache(#[from] CacheError),
    /// A [`controllerutil`](crate::controllerutil) helper refused (an object already
    /// owned, an owner in another namespace, ...); its client failures are
    /// [`Error::Client`].
    #[error(transparent)]
    ControllerUtil(ControllerUtilError),
    /// Any other error, such as the reconciler's own (see [`Error::other`]); kept as the
    /// source, so a [`TerminalError`](crate::reconcile::TerminalError) in it is still found by
    /// [`is_terminal`](crate::reconcile::is_terminal).
    #[error("{0}")]
    Other(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl From<ControllerUtilError> for Error {
    /// The helper's client failures become [`Error::Client`], so that they answer Go's
    /// questions as any other client call does.
    fn from(e: ControllerUtilError) -> Self {
        match e {
            ControllerUtilError::Client(e) => Error::Client(e),
            other => Error::ControllerUtil(other),
        }
    }
}

impl From<ApiError> for Error {
    fn from(e: ApiError) -> Self {
        Error::Client(e.into())
    }
}

impl From<StatusError> for Error {
    fn from(e: StatusError) -> Self {
        Error::Client(ApiError::from(e).into())
    }
}

/// Asks the client error, when there is one, what `client::Error` answers.
macro_rules! client_questions {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(&self) -> bool {
            self.client().is_some_and(client::Error::$name)
        }
    )*};
}

impl Error {
    /// Wraps an error of one's own (Go code returns any `error`).
    pub fn other(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Error::Other(error.into())
    }

    /// The client error, when the server (or a cache miss read through the delegating
    /// client) answered.
    pub fn client(&self) -> Option<&client::Error> {
        match self {
            Error::Client(e) => Some(e),
            Error::ControllerUtil(ControllerUtilError::Client(e)) => Some(e),
            Error::Other(e) => e.downcast_ref::<client::Error>(),
            _ => None,
        }
    }

    /// The server's error `Status`, when it answered with one.
    pub fn api(&self) -> Option<&ApiError> {
        self.client().and_then(client::Error::api)
    }

    /// 404 NotFound, from the server or a cache miss (Go's `apierrors.IsNotFound`).
    pub fn is_not_found(&self) -> bool {
        matches!(self, Error::Cache(CacheError::NotFound { .. }))
            || self.client().is_some_and(client::Error::is_not_found)
    }

    client_questions! {
        /// 409 on create: the name is taken (Go's `IsAlreadyExists`).
        is_already_exists;
        /// 409 Conflict: a stale resourceVersion or a failed precondition (Go's `IsConflict`).
        is_conflict;
        /// 422 Invalid (Go's `IsInvalid`).
        is_invalid;
        /// 403 Forbidden (Go's `IsForbidden`).
        is_forbidden;
        /// 401 Unauthorized (Go's `IsUnauthorized`).
        is_unauthorized;
        /// 410 Gone (Go's `IsGone`).
        is_gone;
        /// 410 Expired (Go's `IsResourceExpired`).
        is_resource_expired;
        /// A timeout, of the server (504) or of the transport (Go's `IsTimeout`).
        is_timeout;
        /// A server timeout; the request may be retried (Go's `IsServerTimeout`).
        is_server_timeout;
        /// 429 Too Many Requests (Go's `IsTooManyRequests`).
        is_too_many_requests;
        /// 400 Bad Request (Go's `IsBadRequest`).
        is_bad_request;
        /// 405 Method Not Allowed (Go's `IsMethodNotSupported`).
        is_method_not_supported;
        /// 500 Internal Error (Go's `IsInternalError`).
        is_internal_error;
        /// 503 Service Unavailable (Go's `IsServiceUnavailable`).
        is_service_unavailable;
        /// A kind the server does not serve (Go's `meta.IsNoMatchError`).
        is_no_match;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use apimachinery::api::errors;
    use apimachinery::schema::GroupResource;

    fn api(code: u16) -> Error {
        Error::from(ApiError::from_code(code, ""))
    }

    #[test]
    fn every_source_answers_gos_questions() {
        let server = Error::from(errors::new_not_found(
            &GroupResource::new("", "configmaps"),
            "a",
        ));
        assert!(server.is_not_found());
        assert_eq!(server.api().map(|e| e.code), Some(404));
        let util = Error::from(ControllerUtilError::Client(
            ApiError::from_code(409, "").into(),
        ));
        assert!(matches!(util, Error::Client(_)) && util.is_conflict());
        let miss = Error::from(CacheError::NotFound {
            kind: "ConfigMap".into(),
            key: "default/a".into(),
        });
        assert!(miss.is_not_found() && !miss.is_conflict() && miss.api().is_none());
        assert!(api(410).is_gone() && api(403).is_forbidden() && api(422).is_invalid());
        assert!(!api(500).is_not_found());
        // A client error wrapped as `other` is still asked.
        assert!(Error::other(client::Error::from(ApiError::from_code(404, ""))).is_not_found());
    }
}
