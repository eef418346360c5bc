//! API errors (Go's `k8s.io/apimachinery/pkg/api/errors`): a [`StatusError`] carries the
//! `metav1.Status` a server answers a failed request with, built by Go's constructors
//! ([`new_not_found`], [`new_invalid`], [`new_conflict`], ...), and the `is_*`
//! predicates tell a failure by its reason the way Go's do: the reason decides, and only a
//! status whose reason Go does not know falls back to its code.
//!
//! Servers build their answers here, and clients ask their errors here through
//! [`ApiStatus`], the trait of every error that holds a `Status` (Go's `APIStatus`), so a
//! reason is matched by one function everywhere.
//!
//! ```
//! use apimachinery::api::errors::{self, ApiStatus};
//! use apimachinery::schema::GroupResource;
//!
//! let err = errors::new_not_found(&GroupResource::new("apps", "deployments"), "web");
//! assert_eq!(err.to_string(), r#"deployments.apps "web" not found"#);
//! assert!(errors::is_not_found(&err));
//! assert!(!errors::is_conflict(&err));
//! assert_eq!(err.status().code, 404);
//! ```

use std::fmt;

use crate::apis::meta::v1::{Status, StatusCause, StatusDetails, TypeMeta};
use crate::runtime::Object;
use crate::schema::{GroupKind, GroupResource};
use crate::util::validation::field::{ErrorList, go_quote};

/// The reasons of Go's `metav1.StatusReason`, as they travel in `Status.reason`.
pub mod reason {
    /// No reason given (Go's `StatusReasonUnknown`).
    pub const UNKNOWN: &str = "";
    /// 401.
    pub const UNAUTHORIZED: &str = "Unauthorized";
    /// 403.
    pub const FORBIDDEN: &str = "Forbidden";
    /// 404.
    pub const NOT_FOUND: &str = "NotFound";
    /// 409 on create: the name is taken.
    pub const ALREADY_EXISTS: &str = "AlreadyExists";
    /// 409: a stale resourceVersion or a failed precondition.
    pub const CONFLICT: &str = "Conflict";
    /// 410 (deprecated for [`EXPIRED`]).
    pub const GONE: &str = "Gone";
    /// 422: the object failed validation.
    pub const INVALID: &str = "Invalid";
    /// 500 with a retry: the server could not finish in time.
    pub const SERVER_TIMEOUT: &str = "ServerTimeout";
    /// 500: what was stored could not be read back.
    pub const STORE_READ_ERROR: &str = "StorageReadError";
    /// 504: the request timed out.
    pub const TIMEOUT: &str = "Timeout";
    /// 429.
    pub const TOO_MANY_REQUESTS: &str = "TooManyRequests";
    /// 400.
    pub const BAD_REQUEST: &str = "BadRequest";
    /// 405.
    pub const METHOD_NOT_ALLOWED: &str = "MethodNotAllowed";
    /// 406.
    pub const NOT_ACCEPTABLE: &str = "NotAcceptable";
    /// 413.
    pub const REQUEST_ENTITY_TOO_LARGE: &str = "RequestEntityTooLarge";
    /// 415.
    pub const UNSUPPORTED_MEDIA_TYPE: &str = "UnsupportedMediaType";
    /// 500.
    pub const INTERNAL_ERROR: &str = "InternalError";
    /// 410: a resourceVersion or continue token older than the server keeps.
    pub const EXPIRED: &str = "Expired";
    /// 503.
    pub const SERVICE_UNAVAILABLE: &str = "ServiceUnavailable";
}

/// Go's `metav1.CauseTypeUnexpectedServerResponse`: the answer was not a `Status`.
pub const CAUSE_TYPE_UNEXPECTED_SERVER_RESPONSE: &str = "UnexpectedServerResponse";

/// Go's `metav1.StatusFailure`.
pub const STATUS_FAILURE: &str = "Failure";

/// Go's `knownReasons`: a status with one of these is judged by its reason alone.
const KNOWN_REASONS: [&str; 19] = [
    reason::UNAUTHORIZED,
    reason::FORBIDDEN,
    reason::NOT_FOUND,
    reason::ALREADY_EXISTS,
    reason::CONFLICT,
    reason::GONE,
    reason::INVALID,
    reason::SERVER_TIMEOUT,
    reason::STORE_READ_ERROR,
    reason::TIMEOUT,
    reason::TOO_MANY_REQUESTS,
    reason::BAD_REQUEST,
    reason::METHOD_NOT_ALLOWED,
    reason::NOT_ACCEPTABLE,
    reason::REQUEST_ENTITY_TOO_LARGE,
    reason::UNSUPPORTED_MEDIA_TYPE,
    reason::INTERNAL_ERROR,
    reason::EXPIRED,
    reason::SERVICE_UNAVAILABLE,
];

/// An error that carries a `Status` (Go's `APIStatus`): what the predicates of this
/// module read.
pub trait ApiStatus {
    /// The status.
    fn status(&self) -> &Status;

    /// The code the predicates fall back to when the reason is not one Go knows: the
    /// status's `code`. A client whose answer's status has none says the HTTP code here.
    fn code(&self) -> i32 {
        self.status().code
    }
}

/// A failed request, carrying the `Status` a server answers with (Go's
/// `errors.StatusError`). Its text is the status's message, as Go's `Error()`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusError {
    /// The body of the answer (boxed: errors travel in every `Result`).
    pub status: Box<Status>,
}

impl fmt::Display for StatusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.status.message)
    }
}

impl std::error::Error for StatusError {}

impl ApiStatus for StatusError {
    fn status(&self) -> &Status {
        &self.status
    }
}

impl From<Status> for StatusError {
    fn from(status: Status) -> Self {
        StatusError {
            status: Box::new(status),
        }
    }
}

impl StatusError {
    /// A `Failure` status of `code`, `reason` and `message`, as Go's constructors and
    /// servers write one literally; `kind: Status` and `apiVersion: v1` are set, as a
    /// server writes them.
    pub fn failure(code: i32, reason: &str, message: impl Into<String>) -> Self {
        StatusError::from(Status {
            type_meta: TypeMeta {
                kind: "Status".into(),
                api_version: "v1".into(),
            },
            status: STATUS_FAILURE.into(),
            message: message.into(),
            reason: reason.to_owned(),
            code,
            ..Status::default()
        })
    }

    /// This error with `details`.
    pub fn with_details(mut self, details: StatusDetails) -> Self {
        self.status.details = Some(details);
        self
    }

    /// The HTTP status code (500 for a status without a valid one).
    pub fn code(&self) -> u16 {
        u16::try_from(self.status.code)
            .ok()
            .filter(|c| (100..=599).contains(c))
            .unwrap_or(500)
    }
}

/// The details naming an object of `resource`.
fn resource_details(resource: &GroupResource, name: &str) -> StatusDetails {
    StatusDetails {
        name: name.to_owned(),
        group: resource.group.to_string(),
        kind: resource.resource.to_string(),
        ..StatusDetails::default()
    }
}

/// 404 `NotFound`: `deployments.apps "web" not found`.
pub fn new_not_found(resource: &GroupResource, name: &str) -> StatusError {
    StatusError::failure(
        404,
        reason::NOT_FOUND,
        format!("{resource} {} not found", go_quote(name)),
    )
    .with_details(resource_details(resource, name))
}

/// 409 `AlreadyExists`: the name is taken.
pub fn new_already_exists(resource: &GroupResource, name: &str) -> StatusError {
    StatusError::failure(
        409,
        reason::ALREADY_EXISTS,
        format!("{resource} {} already exists", go_quote(name)),
    )
    .with_details(resource_details(resource, name))
}

/// 409 `AlreadyExists` for a generated name the server could not make unique.
pub fn new_generate_name_conflict(
    resource: &GroupResource,
    name: &str,
    retry_after_seconds: i32,
) -> StatusError {
    StatusError::failure(
        409,
        reason::ALREADY_EXISTS,
        format!(
            "{resource} {} already exists, the server was not able to generate a unique name for the object",
            go_quote(name)
        ),
    )
    .with_details(StatusDetails {
        retry_after_seconds,
        ..resource_details(resource, name)
    })
}

/// 401 `Unauthorized` with `reason` as its message ("not authorized" when empty).
pub fn new_unauthorized(reason: &str) -> StatusError {
    let message = if reason.is_empty() {
        "not authorized"
    } else {
        reason
    };
    StatusError::failure(401, reason::UNAUTHORIZED, message)
}

/// 403 `Forbidden` of `name` (empty for a collection) of `resource` (empty for a path):
/// `secrets "token" is forbidden: <err>`.
pub fn new_forbidden(resource: &GroupResource, name: &str, err: impl fmt::Display) -> StatusError {
    let message = if resource.is_empty() {
        format!("forbidden: {err}")
    } else if name.is_empty() {
        format!("{resource} is forbidden: {err}")
    } else {
        format!("{resource} {} is forbidden: {err}", go_quote(name))
    };
    StatusError::failure(403, reason::FORBIDDEN, message)
        .with_details(resource_details(resource, name))
}

/// 409 `Conflict`: `Operation cannot be fulfilled on pods "p": <err>`.
pub fn new_conflict(resource: &GroupResource, name: &str, err: impl fmt::Display) -> StatusError {
    StatusError::failure(
        409,
        reason::CONFLICT,
        format!(
            "Operation cannot be fulfilled on {resource} {}: {err}",
            go_quote(name)
        ),
    )
    .with_details(resource_details(resource, name))
}

/// 409 `Conflict` of a server-side apply, one cause per conflicting field.
pub fn new_apply_conflict(causes: Vec<StatusCause>, message: impl Into<String>) -> StatusError {
    StatusError::failure(409, reason::CONFLICT, message).with_details(StatusDetails {
        causes,
        ..StatusDetails::default()
    })
}

/// 410 `Gone` (Go deprecates it for [`new_resource_expired`]).
pub fn new_gone(message: impl Into<String>) -> StatusError {
    StatusError::failure(410, reason::GONE, message)
}

/// 410 `Expired`: a resourceVersion or continue token older than the server keeps.
pub fn new_resource_expired(message: impl Into<String>) -> StatusError {
    StatusError::failure(410, reason::EXPIRED, message)
}

/// 422 `Invalid` of `name` of kind `kind`, one cause per error, with Go's message
/// (`Deployment.apps "web" is invalid: [e1, e2]`).
pub fn new_invalid(kind: &GroupKind, name: &str, errs: &ErrorList) -> StatusError {
    let causes = errs
        .iter()
        .map(|e| StatusCause {
            reason: e.error_type.cause_type().to_owned(),
            message: e.error_body(),
            field: e.field.clone(),
        })
        .collect();
    StatusError::failure(
        422,
        reason::INVALID,
        errs.invalid_message(&kind.to_string(), name),
    )
    .with_details(StatusDetails {
        name: name.to_owned(),
        group: kind.group.to_string(),
        kind: kind.kind.to_string(),
        causes,
        ..StatusDetails::default()
    })
}

/// 422 `Invalid` of `name` of kind `kind` from causes already made (a schema validator's,
/// say), worded as [`new_invalid`] words its errors: each cause `field: message` (the
/// message alone without a field), repeats once, several in brackets.
pub fn new_invalid_from_causes(
    kind: &GroupKind,
    name: &str,
    causes: Vec<StatusCause>,
) -> StatusError {
    let mut seen = std::collections::HashSet::new();
    let list: Vec<String> = causes
        .iter()
        .map(|c| {
            if c.field.is_empty() {
                c.message.clone()
            } else {
                format!("{}: {}", c.field, c.message)
            }
        })
        .filter(|m| seen.insert(m.clone()))
        .collect();
    let message = match list.as_slice() {
        [] => format!("{kind} {} is invalid", go_quote(name)),
        [one] => format!("{kind} {} is invalid: {one}", go_quote(name)),
        many => format!(
            "{kind} {} is invalid: [{}]",
            go_quote(name),
            many.join(", ")
        ),
    };
    StatusError::failure(422, reason::INVALID, message).with_details(StatusDetails {
        name: name.to_owned(),
        group: kind.group.to_string(),
        kind: kind.kind.to_string(),
        causes,
        ..StatusDetails::default()
    })
}

/// 400 `BadRequest` with `reason` as its message.
pub fn new_bad_request(reason: impl Into<String>) -> StatusError {
    StatusError::failure(400, reason::BAD_REQUEST, reason)
}

/// 429 `TooManyRequests`, asking the client to wait `retry_after_seconds`.
pub fn new_too_many_requests(message: impl Into<String>, retry_after_seconds: i32) -> StatusError {
    StatusError::failure(429, reason::TOO_MANY_REQUESTS, message).with_details(StatusDetails {
        retry_after_seconds,
        ..StatusDetails::default()
    })
}

/// 503 `ServiceUnavailable` with `reason` as its message.
pub fn new_service_unavailable(reason: impl Into<String>) -> StatusError {
    StatusError::failure(503, reason::SERVICE_UNAVAILABLE, reason)
}

/// 405 `MethodNotAllowed`: `action is not supported on resources of kind "pods"`.
pub fn new_method_not_supported(resource: &GroupResource, action: &str) -> StatusError {
    StatusError::failure(
        405,
        reason::METHOD_NOT_ALLOWED,
        format!(
            "{action} is not supported on resources of kind {}",
            go_quote(&resource.to_string())
        ),
    )
    .with_details(resource_details(resource, ""))
}

/// 500 `ServerTimeout`: `operation` could not finish in time; try again after
/// `retry_after_seconds`.
pub fn new_server_timeout(
    resource: &GroupResource,
    operation: &str,
    retry_after_seconds: i32,
) -> StatusError {
    StatusError::failure(
        500,
        reason::SERVER_TIMEOUT,
        format!(
            "The {operation} operation against {resource} could not be completed at this time, please try again."
        ),
    )
    .with_details(StatusDetails {
        retry_after_seconds,
        ..resource_details(resource, operation)
    })
}

/// [`new_server_timeout`] naming a kind where Go names a resource.
pub fn new_server_timeout_for_kind(
    kind: &GroupKind,
    operation: &str,
    retry_after_seconds: i32,
) -> StatusError {
    let resource = GroupResource::new(kind.group.clone(), kind.kind.clone());
    new_server_timeout(&resource, operation, retry_after_seconds)
}

/// 500 `InternalError`: `Internal error occurred: <err>`, with `err` as the cause.
pub fn new_internal_error(err: impl fmt::Display) -> StatusError {
    let text = err.to_string();
    StatusError::failure(
        500,
        reason::INTERNAL_ERROR,
        format!("Internal error occurred: {text}"),
    )
    .with_details(StatusDetails {
        causes: vec![StatusCause {
            message: text,
            ..StatusCause::default()
        }],
        ..StatusDetails::default()
    })
}

/// 504 `Timeout`: `Timeout: <message>`.
pub fn new_timeout_error(message: &str, retry_after_seconds: i32) -> StatusError {
    StatusError::failure(504, reason::TIMEOUT, format!("Timeout: {message}")).with_details(
        StatusDetails {
            retry_after_seconds,
            ..StatusDetails::default()
        },
    )
}

/// 429 `TooManyRequests`: `Too many requests: <message>`.
pub fn new_too_many_requests_error(message: &str) -> StatusError {
    StatusError::failure(
        429,
        reason::TOO_MANY_REQUESTS,
        format!("Too many requests: {message}"),
    )
}

/// 413 `RequestEntityTooLarge`: `Request entity too large: <message>`.
pub fn new_request_entity_too_large_error(message: &str) -> StatusError {
    StatusError::failure(
        413,
        reason::REQUEST_ENTITY_TOO_LARGE,
        format!("Request entity too large: {message}"),
    )
}

/// The reason Go's [`new_generic_server_response`] gives a bare HTTP `code` of a request
/// with method `verb` (a 409 of a POST is `AlreadyExists`).
pub fn reason_for_code(code: u16, verb: &str) -> &'static str {
    match code {
        409 if verb.eq_ignore_ascii_case("POST") => reason::ALREADY_EXISTS,
        409 => reason::CONFLICT,
        404 => reason::NOT_FOUND,
        400 => reason::BAD_REQUEST,
        401 => reason::UNAUTHORIZED,
        403 => reason::FORBIDDEN,
        406 => reason::NOT_ACCEPTABLE,
        415 => reason::UNSUPPORTED_MEDIA_TYPE,
        405 => reason::METHOD_NOT_ALLOWED,
        422 => reason::INVALID,
        503 => reason::SERVICE_UNAVAILABLE,
        504 => reason::TIMEOUT,
        429 => reason::TOO_MANY_REQUESTS,
        c if c >= 500 => reason::INTERNAL_ERROR,
        _ => reason::UNKNOWN,
    }
}

/// The error of an answer that is not a `Status` (Go's `NewGenericServerResponse`):
/// the reason of `code` (see [`reason_for_code`]) and Go's message for it, naming the
/// request (`verb`, `resource`, `name`) when known; `unexpected` records the server's
/// message as an `UnexpectedServerResponse` cause.
pub fn new_generic_server_response(
    code: u16,
    verb: &str,
    resource: &GroupResource,
    name: &str,
    server_message: &str,
    retry_after_seconds: i32,
    unexpected: bool,
) -> StatusError {
    let reason = reason_for_code(code, verb);
    let mut message = match code {
        409 => "the server reported a conflict".to_owned(),
        404 => "the server could not find the requested resource".to_owned(),
        400 => "the server rejected our request for an unknown reason".to_owned(),
        401 => "the server has asked for the client to provide credentials".to_owned(),
        403 | 415 => server_message.to_owned(),
        406 if server_message.is_empty() || server_message == "unknown" => {
            "the server was unable to respond with a content type that the client supports"
                .to_owned()
        }
        406 => server_message.to_owned(),
        405 => "the server does not allow this method on the requested resource".to_owned(),
        422 => "the server rejected our request due to an error in our request".to_owned(),
        503 => "the server is currently unable to handle the request".to_owned(),
        504 => "the server was unable to return a response in the time allotted, but may still be processing the request".to_owned(),
        429 => "the server has received too many requests and has asked us to try again later".to_owned(),
        c if c >= 500 => format!(
            "an error on the server ({}) has prevented the request from succeeding",
            go_quote(server_message)
        ),
        c => format!(
            "the server responded with the status code {c} but did not return more information"
        ),
    };
    if !resource.is_empty() && !name.is_empty() {
        message = format!(
            "{message} ({} {resource} {name})",
            verb.to_ascii_lowercase()
        );
    } else if !resource.is_empty() {
        message = format!("{message} ({} {resource})", verb.to_ascii_lowercase());
    }
    let causes = if unexpected {
        vec![StatusCause {
            reason: CAUSE_TYPE_UNEXPECTED_SERVER_RESPONSE.to_owned(),
            message: server_message.to_owned(),
            ..StatusCause::default()
        }]
    } else {
        Vec::new()
    };
    StatusError::failure(i32::from(code), reason, message).with_details(StatusDetails {
        causes,
        retry_after_seconds,
        ..resource_details(resource, name)
    })
}

/// The error an object stands for, when it is a `Status` (Go's `FromObject`, e.g. for a
/// watch's ERROR event).
pub fn from_object(obj: &dyn Object) -> Option<StatusError> {
    obj.downcast_ref::<Status>().cloned().map(StatusError::from)
}

/// The reason of an error (Go's `ReasonForError`).
pub fn reason_for_error<E: ApiStatus + ?Sized>(err: &E) -> &str {
    &err.status().reason
}

/// Go's rule of the predicates: the reason decides; a reason Go does not know falls back
/// to the code.
fn is<E: ApiStatus + ?Sized>(err: &E, wanted: &str, code: i32) -> bool {
    let reason = reason_for_error(err);
    reason == wanted || (!KNOWN_REASONS.contains(&reason) && err.code() == code)
}

/// `NotFound`, or 404 with a reason Go does not know (Go's `IsNotFound`).
pub fn is_not_found<E: ApiStatus + ?Sized>(err: &E) -> bool {
    is(err, reason::NOT_FOUND, 404)
}

/// `AlreadyExists` (Go's `IsAlreadyExists`; the reason alone, as 409 is also a conflict).
pub fn is_already_exists<E: ApiStatus + ?Sized>(err: &E) -> bool {
    reason_for_error(err) == reason::ALREADY_EXISTS
}

/// `Conflict`, or 409 with a reason Go does not know (Go's `IsConflict`).
pub fn is_conflict<E: ApiStatus + ?Sized>(err: &E) -> bool {
    is(err, reason::CONFLICT, 409)
}

/// `Invalid`, or 422 with a reason Go does not know (Go's `IsInvalid`).
pub fn is_invalid<E: ApiStatus + ?Sized>(err: &E) -> bool {
    is(err, reason::INVALID, 422)
}

/// `Gone`, or 410 with a reason Go does not know (Go's `IsGone`).
pub fn is_gone<E: ApiStatus + ?Sized>(err: &E) -> bool {
    is(err, reason::GONE, 410)
}

/// `Expired` (Go's `IsResourceExpired`; the reason alone).
pub fn is_resource_expired<E: ApiStatus + ?Sized>(err: &E) -> bool {
    reason_for_error(err) == reason::EXPIRED
}

/// `NotAcceptable`, or 406 with a reason Go does not know (Go's `IsNotAcceptable`).
pub fn is_not_acceptable<E: ApiStatus + ?Sized>(err: &E) -> bool {
    is(err, reason::NOT_ACCEPTABLE, 406)
}

/// `UnsupportedMediaType`, or 415 with a reason Go does not know.
pub fn is_unsupported_media_type<E: ApiStatus + ?Sized>(err: &E) -> bool {
    is(err, reason::UNSUPPORTED_MEDIA_TYPE, 415)
}

/// `MethodNotAllowed`, or 405 with a reason Go does not know (Go's `IsMethodNotSupported`).
pub fn is_method_not_supported<E: ApiStatus + ?Sized>(err: &E) -> bool {
    is(err, reason::METHOD_NOT_ALLOWED, 405)
}

/// `ServiceUnavailable`, or 503 with a reason Go does not know.
pub fn is_service_unavailable<E: ApiStatus + ?Sized>(err: &E) -> bool {
    is(err, reason::SERVICE_UNAVAILABLE, 503)
}

/// `BadRequest`, or 400 with a reason Go does not know.
pub fn is_bad_request<E: ApiStatus + ?Sized>(err: &E) -> bool {
    is(err, reason::BAD_REQUEST, 400)
}

/// `Unauthorized`, or 401 with a reason Go does not know.
pub fn is_unauthorized<E: ApiStatus + ?Sized>(err: &E) -> bool {
    is(err, reason::UNAUTHORIZED, 401)
}

/// `Forbidden`, or 403 with a reason Go does not know.
pub fn is_forbidden<E: ApiStatus + ?Sized>(err: &E) -> bool {
    is(err, reason::FORBIDDEN, 403)
}

/// `Timeout`, or 504 with a reason Go does not know.
pub fn is_timeout<E: ApiStatus + ?Sized>(err: &E) -> bool {
    is(err, reason::TIMEOUT, 504)
}

/// `ServerTimeout` (Go's `IsServerTimeout`; the reason alone: no code means "retry").
pub fn is_server_timeout<E: ApiStatus + ?Sized>(err: &E) -> bool {
    reason_for_error(err) == reason::SERVER_TIMEOUT
}

/// `InternalError`, or 500 with a reason Go does not know.
pub fn is_internal_error<E: ApiStatus + ?Sized>(err: &E) -> bool {
    is(err, reason::INTERNAL_ERROR, 500)
}

/// `TooManyRequests`, or 429 whatever the reason (Go's check predates the rule of the
/// others and keeps it).
pub fn is_too_many_requests<E: ApiStatus + ?Sized>(err: &E) -> bool {
    reason_for_error(err) == reason::TOO_MANY_REQUESTS || err.code() == 429
}

/// `RequestEntityTooLarge`, or 413 whatever the reason (as [`is_too_many_requests`]).
pub fn is_request_entity_too_large_error<E: ApiStatus + ?Sized>(err: &E) -> bool {
    reason_for_error(err) == reason::REQUEST_ENTITY_TOO_LARGE || err.code() == 413
}

/// `StorageReadError`: what was stored could not be read back.
pub fn is_store_read_error<E: ApiStatus + ?Sized>(err: &E) -> bool {
    reason_for_error(err) == reason::STORE_READ_ERROR
}

/// Whether the answer was not a `Status` (Go's `IsUnexpectedServerError`).
pub fn is_unexpected_server_error<E: ApiStatus + ?Sized>(err: &E) -> bool {
    has_status_cause(err, CAUSE_TYPE_UNEXPECTED_SERVER_RESPONSE)
}

/// The cause of type `name` in the error's details (Go's `StatusCause`).
pub fn status_cause<'e, E: ApiStatus + ?Sized>(err: &'e E, name: &str) -> Option<&'e StatusCause> {
    err.status()
        .details
        .as_ref()?
        .causes
        .iter()
        .find(|c| c.reason == name)
}

/// Whether the error's details have a cause of type `name` (Go's `HasStatusCause`).
pub fn has_status_cause<E: ApiStatus + ?Sized>(err: &E, name: &str) -> bool {
    status_cause(err, name).is_some()
}

/// The seconds the server asks the client to wait, when it asks (Go's
/// `SuggestsClientDelay`): a `ServerTimeout`'s, or any positive `retryAfterSeconds`.
pub fn suggests_client_delay<E: ApiStatus + ?Sized>(err: &E) -> Option<i32> {
    let status = err.status();
    let details = status.details.as_ref()?;
    if status.reason == reason::SERVER_TIMEOUT || details.retry_after_seconds > 0 {
        return Some(details.retry_after_seconds);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::validation::field::{Error, Path};

    fn status(reason: &str, code: i32) -> StatusError {
        StatusError::from(Status {
            reason: reason.into(),
            code,
            ..Status::default()
        })
    }

    #[test]
    fn messages_and_details_are_gos() {
        let e = new_not_found(&GroupResource::new("apps", "deployments"), "web");
        assert_eq!(e.status.message, r#"deployments.apps "web" not found"#);
        assert_eq!(e.code(), 404);
        let d = e.status.details.clone().unwrap_or_default();
        assert_eq!((d.kind.as_str(), d.group.as_str()), ("deployments", "apps"));
        assert_eq!(
            new_conflict(
                &GroupResource::new("", "pods"),
                "p",
                "the object has been modified"
            )
            .status
            .message,
            r#"Operation cannot be fulfilled on pods "p": the object has been modified"#
        );
        let mut errs = ErrorList::default();
        errs.push(Error::invalid(
            &Path::new("metadata").child("name"),
            "Bad",
            "x",
        ));
        let inv = new_invalid(&GroupKind::new("apps", "Deployment"), "Bad", &errs);
        assert_eq!(
            inv.status.message,
            r#"Deployment.apps "Bad" is invalid: metadata.name: Invalid value: "Bad": x"#
        );
        let causes = inv.status.details.clone().unwrap_or_default().causes;
        assert_eq!(causes[0].reason, "FieldValueInvalid");
        let from_causes =
            new_invalid_from_causes(&GroupKind::new("apps", "Deployment"), "Bad", causes);
        assert_eq!(from_causes, inv);
        assert_eq!(
            new_forbidden(&GroupResource::new("", "secrets"), "token", "no")
                .status
                .message,
            r#"secrets "token" is forbidden: no"#
        );
        assert_eq!(
            new_forbidden(&GroupResource::default(), "", "no")
                .status
                .message,
            "forbidden: no"
        );
        assert_eq!(new_unauthorized("").status.message, "not authorized");
        let internal = new_internal_error("boom");
        assert_eq!(internal.to_string(), "Internal error occurred: boom");
        assert_eq!(
            internal.status.details.unwrap_or_default().causes[0].message,
            "boom"
        );
    }

    #[test]
    fn the_reason_decides_and_an_unknown_one_falls_back_to_the_code() {
        assert!(is_not_found(&status("NotFound", 404)));
        assert!(is_already_exists(&status("AlreadyExists", 409)));
        assert!(!is_conflict(&status("AlreadyExists", 409)));
        assert!(is_conflict(&status("Conflict", 409)));
        assert!(is_invalid(&status("Invalid", 422)));
        assert!(is_resource_expired(&status("Expired", 410)));
        assert!(!is_gone(&status("Expired", 410)));
        assert!(is_gone(&status("Gone", 410)));
        assert!(!is_not_found(&status("Forbidden", 404)));
        // No reason, or one Go does not know: the code.
        assert!(is_conflict(&status("", 409)));
        assert!(is_not_found(&status("Teapot", 404)));
        assert!(!is_already_exists(&status("", 409)));
        // 429 and 413 are judged by their code whatever the reason.
        assert!(is_too_many_requests(&status("Forbidden", 429)));
        assert!(is_request_entity_too_large_error(&status(
            "BadRequest",
            413
        )));
        assert!(is_server_timeout(&new_server_timeout(
            &GroupResource::new("", "pods"),
            "get",
            2
        )));
    }

    #[test]
    fn every_constructor_answers_its_own_predicate() {
        type Is = fn(&StatusError) -> bool;
        let r = GroupResource::new("", "pods");
        let k = GroupKind::new("", "Pod");
        let cases: Vec<(StatusError, Is)> = vec![
            (new_not_found(&r, "a"), is_not_found),
            (new_already_exists(&r, "a"), is_already_exists),
            (new_generate_name_conflict(&r, "a", 1), is_already_exists),
            (new_unauthorized("x"), is_unauthorized),
            (new_forbidden(&r, "a", "x"), is_forbidden),
            (new_conflict(&r, "a", "x"), is_conflict),
            (new_apply_conflict(Vec::new(), "x"), is_conflict),
            (new_gone("x"), is_gone),
            (new_resource_expired("x"), is_resource_expired),
            (new_invalid(&k, "a", &ErrorList::default()), is_invalid),
            (new_bad_request("x"), is_bad_request),
            (new_too_many_requests("x", 1), is_too_many_requests),
            (new_service_unavailable("x"), is_service_unavailable),
            (new_method_not_supported(&r, "x"), is_method_not_supported),
            (new_server_timeout_for_kind(&k, "x", 1), is_server_timeout),
            (new_internal_error("x"), is_internal_error),
            (new_timeout_error("x", 1), is_timeout),
            (new_too_many_requests_error("x"), is_too_many_requests),
            (
                new_request_entity_too_large_error("x"),
                is_request_entity_too_large_error,
            ),
        ];
        for (err, is) in &cases {
            assert!(is(err), "{err:?}");
        }
    }

    #[test]
    fn generic_responses_are_worded_as_client_go_words_them() {
        let r = GroupResource::new("apps", "deployments");
        let e = new_generic_server_response(404, "GET", &r, "web", "", 0, true);
        assert!(is_not_found(&e));
        assert!(is_unexpected_server_error(&e));
        assert_eq!(
            e.to_string(),
            "the server could not find the requested resource (get deployments.apps web)"
        );
        let conflict = new_generic_server_response(409, "POST", &r, "", "", 0, false);
        assert!(is_already_exists(&conflict));
        assert!(!is_unexpected_server_error(&conflict));
        let teapot =
            new_generic_server_response(418, "GET", &GroupResource::default(), "", "", 0, false);
        assert_eq!(
            teapot.to_string(),
            "the server responded with the status code 418 but did not return more information"
        );
        assert_eq!(
            suggests_client_delay(&new_too_many_requests("x", 3)),
            Some(3)
        );
        assert_eq!(suggests_client_delay(&new_bad_request("x")), None);
    }

    #[test]
    fn a_status_object_is_an_error() {
        let status = new_not_found(&GroupResource::new("", "pods"), "p").status;
        let err = from_object(&*status);
        assert!(err.as_ref().is_some_and(is_not_found));
    }
}
