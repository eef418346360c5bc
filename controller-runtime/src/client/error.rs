//! The client's errors: API errors carrying the server's `Status` (asked by the
//! predicates of [`apimachinery::api::errors`], Go's `k8s.io/apimachinery/pkg/api/errors`,
//! the same ones the server's own errors answer), transport errors, and the local
//! failures of encoding, decoding and mapping.

use apimachinery::api::errors::{self, ApiStatus, StatusError};
use apimachinery::apis::meta::v1::Status;
use apimachinery::schema::GroupVersionKind;

use crate::transport::TransportError;

/// What a client call fails with.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The server answered with an error `Status` (404, 409, 410, 422, ...); boxed, as
    /// a `Status` is large and errors travel through every `Result`.
    #[error(transparent)]
    Api(Box<ApiError>),
    /// No HTTP answer: the server is unreachable, TLS failed, a timeout, ...
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// The Rust type is not registered in the client's scheme.
    #[error("type {type_name} is not registered in the scheme")]
    NotRegistered {
        /// The type.
        type_name: &'static str,
    },
    /// The kind has no resource on the server (not in discovery, even after a refresh).
    #[error("no resource for {gvk}: {message}")]
    NoMapping {
        /// The kind.
        gvk: GroupVersionKind,
        /// The mapper's message.
        message: String,
    },
    /// Discovery documents could not be read.
    #[error("discovery: {message}")]
    Discovery {
        /// What went wrong.
        message: String,
    },
    /// A namespaced object without a namespace was written.
    #[error("{gvk} {name:?} is namespaced but has no namespace")]
    NamespaceRequired {
        /// The kind.
        gvk: GroupVersionKind,
        /// The object's name.
        name: String,
    },
    /// An object without a name was read, updated or deleted.
    #[error("{gvk}: a name is required")]
    NameRequired {
        /// The kind.
        gvk: GroupVersionKind,
    },
    /// The object could not be encoded.
    #[error("cannot encode {gvk}: {message}")]
    Encode {
        /// The kind.
        gvk: GroupVersionKind,
        /// Why.
        message: String,
    },
    /// The server's answer could not be decoded.
    #[error("cannot decode {what} from {url}: {message}")]
    Decode {
        /// What was expected, such as `apps/v1, Kind=Deployment`.
        what: String,
        /// The request URL.
        url: String,
        /// Why.
        message: String,
    },
    /// A [`Patch::Apply`](super::Patch::Apply) intent names another kind or version
    /// than the object it is applied to, or is not a JSON object.
    #[error("the apply patch for {target} {problem}")]
    ApplyMismatch {
        /// The kind applied to.
        target: GroupVersionKind,
        /// What is wrong with the intent: the `apiVersion` and `kind` it names, or that
        /// it is not an object.
        problem: String,
    },
    /// The server answered with another type than asked for.
    #[error("{url}: expected {expected}, got {got}")]
    UnexpectedType {
        /// The request URL.
        url: String,
        /// The Rust type asked for.
        expected: &'static str,
        /// The Rust type decoded.
        got: &'static str,
    },
}

/// An error `Status` from the server, with its HTTP code (Go's `StatusError`).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{} ({}, {code})", message(.status), if status.reason.is_empty() { "Unknown" } else { &status.reason })]
pub struct ApiError {
    /// The `Status` the server sent (or one made from the HTTP code when the body was not
    /// a `Status`, as client-go does).
    pub status: Status,
    /// The HTTP status code.
    pub code: u16,
}

fn message(status: &Status) -> &str {
    if status.message.is_empty() {
        "the server reported an error"
    } else {
        &status.message
    }
}

/// The `Status` reasons Go's `metav1.StatusReason` names.
pub use apimachinery::api::errors::reason;

/// An [`ApiError`] is asked what it is by apimachinery's predicates (Go's `APIStatus`),
/// the same functions a server's errors are asked by.
impl ApiStatus for ApiError {
    fn status(&self) -> &Status {
        &self.status
    }

    /// The code in the status, else the HTTP code.
    fn code(&self) -> i32 {
        if self.status.code != 0 {
            self.status.code
        } else {
            i32::from(self.code)
        }
    }
}

impl ApiError {
    /// The error of an answer whose body is a `Status`.
    pub fn from_status(status: Status, code: u16) -> Self {
        ApiError { status, code }
    }

    /// The error of an answer whose body is not a `Status`: client-go's generic server
    /// response, with the reason of the code and the body as message.
    pub fn from_code(code: u16, body: &str) -> Self {
        let body = body.trim();
        let message = if body.is_empty() {
            format!(
                "the server responded with the status code {code} but did not return more information"
            )
        } else {
            body.chars().take(1024).collect()
        };
        ApiError {
            status: Status {
                status: "Failure".into(),
                message,
                // The method is not known here: a 409 reads as a Conflict.
                reason: errors::reason_for_code(code, "").into(),
                code: i32::from(code),
                ..Status::default()
            },
            code,
        }
    }

    /// The reason, as Go's `ReasonForError`.
    pub fn reason(&self) -> &str {
        errors::reason_for_error(self)
    }

    /// 404 Not Found (Go's `IsNotFound`).
    pub fn is_not_found(&self) -> bool {
        errors::is_not_found(self)
    }
    /// 409 on create: the name is taken.
    pub fn is_already_exists(&self) -> bool {
        errors::is_already_exists(self)
    }
    /// 409 Conflict: a stale resourceVersion or a failed precondition.
    pub fn is_conflict(&self) -> bool {
        errors::is_conflict(self)
    }
    /// 422 Invalid: validation failed; the causes name the fields.
    pub fn is_invalid(&self) -> bool {
        errors::is_invalid(self)
    }
    /// 403 Forbidden.
    pub fn is_forbidden(&self) -> bool {
        errors::is_forbidden(self)
    }
    /// 401 Unauthorized.
    pub fn is_unauthorized(&self) -> bool {
        errors::is_unauthorized(self)
    }
    /// 410 Gone: a watch or list from a resourceVersion the server no longer has.
    pub fn is_gone(&self) -> bool {
        errors::is_gone(self)
    }
    /// 410 Expired: an expired continue token or resourceVersion.
    pub fn is_resource_expired(&self) -> bool {
        errors::is_resource_expired(self)
    }
    /// Either 410: what a reflector answers with a relist.
    pub fn is_gone_or_expired(&self) -> bool {
        self.is_gone() || self.is_resource_expired()
    }
    /// 504 Timeout.
    pub fn is_timeout(&self) -> bool {
        errors::is_timeout(self)
    }
    /// A server timeout (the request may be retried).
    pub fn is_server_timeout(&self) -> bool {
        errors::is_server_timeout(self)
    }
    /// 429 Too Many Requests.
    pub fn is_too_many_requests(&self) -> bool {
        errors::is_too_many_requests(self)
    }
    /// 400 Bad Request.
    pub fn is_bad_request(&self) -> bool {
        errors::is_bad_request(self)
    }
    /// 405 Method Not Allowed.
    pub fn is_method_not_supported(&self) -> bool {
        errors::is_method_not_supported(self)
    }
    /// 500 Internal Error.
    pub fn is_internal_error(&self) -> bool {
        errors::is_internal_error(self)
    }
    /// 503 Service Unavailable.
    pub fn is_service_unavailable(&self) -> bool {
        errors::is_service_unavailable(self)
    }
}

impl From<StatusError> for ApiError {
    /// The error a server answered with, as the client reports it.
    fn from(e: StatusError) -> Self {
        let code = e.code();
        ApiError {
            status: *e.status,
            code,
        }
    }
}

impl From<ApiError> for Error {
    fn from(e: ApiError) -> Self {
        Error::Api(Box::new(e))
    }
}

impl Error {
    /// The API error, when the server answered with one.
    pub fn api(&self) -> Option<&ApiError> {
        match self {
            Error::Api(e) => Some(&**e),
            _ => None,
        }
    }
    /// See [`ApiError::is_not_found`].
    pub fn is_not_found(&self) -> bool {
        self.api().is_some_and(ApiError::is_not_found)
    }
    /// See [`ApiError::is_already_exists`].
    pub fn is_already_exists(&self) -> bool {
        self.api().is_some_and(ApiError::is_already_exists)
    }
    /// See [`ApiError::is_conflict`].
    pub fn is_conflict(&self) -> bool {
        self.api().is_some_and(ApiError::is_conflict)
    }
    /// See [`ApiError::is_invalid`].
    pub fn is_invalid(&self) -> bool {
        self.api().is_some_and(ApiError::is_invalid)
    }
    /// See [`ApiError::is_forbidden`].
    pub fn is_forbidden(&self) -> bool {
        self.api().is_some_and(ApiError::is_forbidden)
    }
    /// See [`ApiError::is_unauthorized`].
    pub fn is_unauthorized(&self) -> bool {
        self.api().is_some_and(ApiError::is_unauthorized)
    }
    /// See [`ApiError::is_gone`].
    pub fn is_gone(&self) -> bool {
        self.api().is_some_and(ApiError::is_gone)
    }
    /// See [`ApiError::is_resource_expired`].
    pub fn is_resource_expired(&self) -> bool {
        self.api().is_some_and(ApiError::is_resource_expired)
    }
    /// See [`ApiError::is_gone_or_expired`]: a reflector relists.
    pub fn is_gone_or_expired(&self) -> bool {
        self.api().is_some_and(ApiError::is_gone_or_expired)
    }
    /// See [`ApiError::is_timeout`]; also a transport timeout.
    pub fn is_timeout(&self) -> bool {
        self.api().is_some_and(ApiError::is_timeout)
            || matches!(self, Error::Transport(TransportError::Timeout { .. }))
    }
    /// See [`ApiError::is_server_timeout`].
    pub fn is_server_timeout(&self) -> bool {
        self.api().is_some_and(ApiError::is_server_timeout)
    }
    /// See [`ApiError::is_too_many_requests`].
    pub fn is_too_many_requests(&self) -> bool {
        self.api().is_some_and(ApiError::is_too_many_requests)
    }
    /// See [`ApiError::is_bad_request`].
    pub fn is_bad_request(&self) -> bool {
        self.api().is_some_and(ApiError::is_bad_request)
    }
    /// See [`ApiError::is_method_not_supported`].
    pub fn is_method_not_supported(&self) -> bool {
        self.api().is_some_and(ApiError::is_method_not_supported)
    }
    /// See [`ApiError::is_internal_error`].
    pub fn is_internal_error(&self) -> bool {
        self.api().is_some_and(ApiError::is_internal_error)
    }
    /// See [`ApiError::is_service_unavailable`].
    pub fn is_service_unavailable(&self) -> bool {
        self.api().is_some_and(ApiError::is_service_unavailable)
    }
    /// True for a kind the server does not serve (Go's `meta.IsNoMatchError`).
    pub fn is_no_match(&self) -> bool {
        matches!(self, Error::NoMapping { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(reason: &str, code: i32) -> ApiError {
        ApiError::from_status(
            Status {
                reason: reason.into(),
                code,
                ..Status::default()
            },
            u16::try_from(code).unwrap_or(500),
        )
    }

    #[test]
    fn reason_decides_as_in_go() {
        assert!(status("NotFound", 404).is_not_found());
        assert!(status("AlreadyExists", 409).is_already_exists());
        assert!(!status("AlreadyExists", 409).is_conflict());
        assert!(status("Conflict", 409).is_conflict());
        assert!(status("Invalid", 422).is_invalid());
        assert!(status("Expired", 410).is_resource_expired());
        assert!(status("Expired", 410).is_gone_or_expired());
        assert!(status("Gone", 410).is_gone());
        assert!(!status("Gone", 410).is_resource_expired());
        assert!(status("Forbidden", 403).is_forbidden());
        assert!(!status("Forbidden", 403).is_not_found());
    }

    #[test]
    fn a_bare_code_falls_back_to_its_reason() {
        let e = ApiError::from_code(404, "404 page not found");
        assert!(e.is_not_found());
        assert_eq!(e.reason(), "NotFound");
        assert!(ApiError::from_code(401, "").is_unauthorized());
        assert!(ApiError::from_code(410, "").is_gone_or_expired());
        assert!(!ApiError::from_code(418, "").is_not_found());
        // A status without reason is judged by its code.
        assert!(status("", 409).is_conflict());
    }

    #[test]
    fn the_client_error_asks_its_api_error() {
        type Is = fn(&Error) -> bool;
        let cases: [(&str, i32, Is); 6] = [
            ("ServerTimeout", 500, Error::is_server_timeout),
            ("TooManyRequests", 429, Error::is_too_many_requests),
            ("BadRequest", 400, Error::is_bad_request),
            ("MethodNotAllowed", 405, Error::is_method_not_supported),
            ("InternalError", 500, Error::is_internal_error),
            ("ServiceUnavailable", 503, Error::is_service_unavailable),
        ];
        for (i, (reason, code, is)) in cases.iter().enumerate() {
            assert!(is(&Error::from(status(reason, *code))), "{reason}");
            // No other reason of the list answers to it, the same code or not.
            for (j, (other, other_code, _)) in cases.iter().enumerate() {
                if i != j {
                    assert!(
                        !is(&Error::from(status(other, *other_code))),
                        "{reason}: {other}"
                    );
                }
            }
        }
        assert!(
            !Error::NoMapping {
                gvk: Default::default(),
                message: String::new(),
            }
            .is_bad_request()
        );
    }
}
