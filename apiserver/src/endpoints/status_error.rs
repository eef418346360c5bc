//! Errors as the API returns them: a `metav1.Status` with Go's `reason`, `code`,
//! `message` and `details` (Go's `k8s.io/apimachinery/pkg/api/errors`).

use apimachinery::apis::meta::v1::{Status, StatusCause, StatusDetails, TypeMeta};

use crate::storage::StorageError;

/// A failed request, carrying the `Status` the server answers with (Go's
/// `errors.StatusError`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} ({}): {}", status.reason, status.code, status.message)]
pub struct StatusError {
    /// The body of the answer (boxed: errors travel in every `Result` of the server).
    pub status: Box<Status>,
}

fn details(qualified: &str, name: &str) -> Option<StatusDetails> {
    let (kind, group) = qualified.split_once('.').unwrap_or((qualified, ""));
    Some(StatusDetails {
        name: name.to_owned(),
        group: group.to_owned(),
        kind: kind.to_owned(),
        ..StatusDetails::default()
    })
}

impl StatusError {
    fn new(code: i32, reason: &str, message: String, details: Option<StatusDetails>) -> Self {
        StatusError {
            status: Box::new(Status {
                type_meta: TypeMeta {
                    kind: "Status".into(),
                    api_version: "v1".into(),
                },
                status: "Failure".into(),
                message,
                reason: reason.to_owned(),
                details,
                code,
                ..Status::default()
            }),
        }
    }

    /// The HTTP status code.
    pub fn code(&self) -> u16 {
        u16::try_from(self.status.code).unwrap_or(500)
    }

    /// 404 `NotFound` for `name` of `qualified` (`deployments.apps`).
    pub fn not_found(qualified: &str, name: &str) -> Self {
        Self::new(
            404,
            "NotFound",
            format!("{qualified} {name:?} not found"),
            details(qualified, name),
        )
    }

    /// 409 `AlreadyExists`.
    pub fn already_exists(qualified: &str, name: &str) -> Self {
        Self::new(
            409,
            "AlreadyExists",
            format!("{qualified} {name:?} already exists"),
            details(qualified, name),
        )
    }

    /// 409 `Conflict`, with Go's "Operation cannot be fulfilled" message.
    pub fn conflict(qualified: &str, name: &str, why: &str) -> Self {
        Self::new(
            409,
            "Conflict",
            format!("Operation cannot be fulfilled on {qualified} {name:?}: {why}"),
            details(qualified, name),
        )
    }

    /// The conflict of a write based on a stale `resourceVersion`, in Go's words.
    pub fn stale(qualified: &str, name: &str) -> Self {
        Self::conflict(
            qualified,
            name,
            "the object has been modified; please apply your changes to the latest version and try again",
        )
    }

    /// 422 `Invalid` for `name` of kind `kind` in `group`, with one cause per field.
    pub fn invalid(group: &str, kind: &str, name: &str, causes: Vec<StatusCause>) -> Self {
        let qualified_kind = if group.is_empty() {
            kind.to_owned()
        } else {
            format!("{kind}.{group}")
        };
        let list: Vec<String> = causes
            .iter()
            .map(|c| {
                if c.field.is_empty() {
                    c.message.clone()
                } else {
                    format!("{}: {}", c.field, c.message)
                }
            })
            .collect();
        let joined = if list.len() == 1 {
            list.join("")
        } else {
            format!("[{}]", list.join(", "))
        };
        Self::new(
            422,
            "Invalid",
            format!("{qualified_kind} {name:?} is invalid: {joined}"),
            Some(StatusDetails {
                name: name.to_owned(),
                group: group.to_owned(),
                kind: kind.to_owned(),
                causes,
                ..StatusDetails::default()
            }),
        )
    }

    /// 403 `Forbidden` of `name` (empty for collections) of `resource` in `group`
    /// (Go's `NewForbidden`): `secrets "token" is forbidden: <why>`, or
    /// `forbidden: <why>` when there is no resource.
    pub fn forbidden(group: &str, resource: &str, name: &str, why: &str) -> Self {
        let qualified = if group.is_empty() {
            resource.to_owned()
        } else {
            format!("{resource}.{group}")
        };
        let message = if qualified.is_empty() {
            format!("forbidden: {why}")
        } else if name.is_empty() {
            format!("{qualified} is forbidden: {why}")
        } else {
            format!("{qualified} {name:?} is forbidden: {why}")
        };
        Self::new(
            403,
            "Forbidden",
            message,
            Some(StatusDetails {
                name: name.to_owned(),
                group: group.to_owned(),
                kind: resource.to_owned(),
                ..StatusDetails::default()
            }),
        )
    }

    /// 401 `Unauthorized`, worded as Go's (which never says why credentials were refused).
    pub fn unauthorized() -> Self {
        Self::new(401, "Unauthorized", "Unauthorized".to_owned(), None)
    }

    /// 400 `BadRequest`.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(400, "BadRequest", message.into(), None)
    }

    /// 405 `MethodNotAllowed`.
    pub fn method_not_allowed(method: &str, what: &str) -> Self {
        Self::new(
            405,
            "MethodNotAllowed",
            format!(
                "the server does not allow this method on the requested resource ({method} {what})"
            ),
            None,
        )
    }

    /// 404 for a path that names nothing the server serves.
    pub fn path_not_found(path: &str) -> Self {
        Self::new(
            404,
            "NotFound",
            format!("the server could not find the requested resource ({path})"),
            None,
        )
    }

    /// 415 `UnsupportedMediaType`.
    pub fn unsupported_media_type(message: impl Into<String>) -> Self {
        Self::new(415, "UnsupportedMediaType", message.into(), None)
    }

    /// 406 `NotAcceptable`: no entry of the `Accept` header is served (Go's message,
    /// listing the formats resources are served in).
    pub fn not_acceptable() -> Self {
        Self::not_acceptable_because(
            "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
        )
    }

    /// 406 `NotAcceptable` with Go's message for why (an answer that cannot be
    /// converted as asked).
    pub fn not_acceptable_because(message: impl Into<String>) -> Self {
        Self::new(406, "NotAcceptable", message.into(), None)
    }

    /// 422 for a patch that cannot be applied (a failed `test`, a missing path).
    pub fn unprocessable_patch(message: &str) -> Self {
        Self::new(
            422,
            "Invalid",
            format!("the patch could not be applied: {message}"),
            None,
        )
    }

    /// 413 `RequestEntityTooLarge` for a patch that would grow past the limits.
    pub fn too_large_patch(message: String) -> Self {
        Self::new(413, "RequestEntityTooLarge", message, None)
    }

    /// 413 `RequestEntityTooLarge`.
    pub fn too_large(limit: usize) -> Self {
        Self::new(
            413,
            "RequestEntityTooLarge",
            format!("Request entity too large: limit is {limit}"),
            None,
        )
    }

    /// 410 `Expired`: a resourceVersion older than the server keeps.
    pub fn expired(message: impl Into<String>) -> Self {
        Self::new(410, "Expired", message.into(), None)
    }

    /// 500 `InternalError`.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(
            500,
            "InternalError",
            format!("Internal error occurred: {}", message.into()),
            None,
        )
    }

    /// 503 `ServiceUnavailable`.
    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::new(503, "ServiceUnavailable", message.into(), None)
    }

    /// A storage failure of an operation on `name` of `qualified`, as Go's
    /// `storage.InterpretXxxError` maps them.
    pub fn from_storage(err: StorageError, qualified: &str, name: &str) -> Self {
        match err {
            StorageError::KeyExists { .. } => Self::already_exists(qualified, name),
            StorageError::KeyNotFound { .. } => Self::not_found(qualified, name),
            StorageError::Conflict { .. } => Self::stale(qualified, name),
            StorageError::Compacted {
                requested,
                compacted,
            } => Self::expired(format!(
                "too old resource version: {requested} ({compacted})"
            )),
            StorageError::FutureRevision { requested, current } => {
                let mut e = Self::new(
                    504,
                    "Timeout",
                    format!("Too large resource version: {requested}, current: {current}"),
                    None,
                );
                e.status.details = Some(StatusDetails {
                    retry_after_seconds: 1,
                    ..StatusDetails::default()
                });
                e
            }
            StorageError::InvalidRequest { message } => Self::bad_request(message),
            StorageError::Unavailable { .. } => Self::unavailable(err.to_string()),
            other => Self::internal(other.to_string()),
        }
    }

    /// A cause for [`invalid`](Self::invalid): `FieldValueInvalid` of `field`.
    pub fn invalid_value(field: &str, value: &str, detail: &str) -> StatusCause {
        StatusCause {
            reason: "FieldValueInvalid".into(),
            message: format!("Invalid value: {value:?}: {detail}"),
            field: field.to_owned(),
        }
    }

    /// A cause for [`invalid`](Self::invalid): `FieldValueRequired` of `field`.
    pub fn required(field: &str, detail: &str) -> StatusCause {
        StatusCause {
            reason: "FieldValueRequired".into(),
            message: format!("Required value: {detail}"),
            field: field.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_gos() {
        let e = StatusError::not_found("deployments.apps", "web");
        assert_eq!(e.status.message, "deployments.apps \"web\" not found");
        assert_eq!(e.code(), 404);
        let d = e.status.details.clone().unwrap_or_default();
        assert_eq!((d.kind.as_str(), d.group.as_str()), ("deployments", "apps"));
        assert_eq!(
            StatusError::stale("pods", "p").status.message,
            "Operation cannot be fulfilled on pods \"p\": the object has been modified; please apply your changes to the latest version and try again"
        );
        let inv = StatusError::invalid(
            "apps",
            "Deployment",
            "Bad",
            vec![StatusError::invalid_value("metadata.name", "Bad", "x")],
        );
        assert_eq!(
            inv.status.message,
            "Deployment.apps \"Bad\" is invalid: metadata.name: Invalid value: \"Bad\": x"
        );
    }
}
