//! Storage failures as API errors (Go's `storage.InterpretGetError` family): what the
//! registry answers a client when the store refused or failed an operation on an object.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::StatusDetails;
use apimachinery::schema::GroupResource;

use super::StorageError;

/// The conflict of a write based on an object that changed since it was read (Go's
/// `OptimisticLockErrorMsg`).
pub const OPTIMISTIC_LOCK_ERROR_MSG: &str =
    "the object has been modified; please apply your changes to the latest version and try again";

/// The conflict of an update whose object names a uid other than the stored object's
/// (Go's `storage.Preconditions.Check` of the uid an update's body carries, whose
/// `StorageError` of code 4, invalid object, `InterpretUpdateError` makes a 409 Conflict
/// on `name` of `resource`, with the storage error's words, etcd key `key` included).
pub fn uid_precondition_failed(
    resource: &GroupResource,
    name: &str,
    key: &str,
    wanted: &str,
    stored: &str,
) -> StatusError {
    invalid_object(
        resource,
        name,
        key,
        &format!(
            "Precondition failed: UID in precondition: {wanted}, UID in object meta: {stored}"
        ),
    )
}

/// The conflict of an unsafe delete (`ignoreStoreReadErrorWithClusterBreakingPotential`)
/// of an object the storage decodes: Go's etcd store refuses it as an invalid object.
pub fn unsafe_delete_of_decodable(resource: &GroupResource, name: &str, key: &str) -> StatusError {
    invalid_object(
        resource,
        name,
        key,
        "unsafe deletion is not allowed because the object is decodable from storage",
    )
}

/// A `StorageError` of code 4, invalid object, at `key`, as `InterpretUpdateError` and
/// `InterpretDeleteError` answer it: a 409 Conflict on `name` of `resource` with the
/// storage error's words.
fn invalid_object(resource: &GroupResource, name: &str, key: &str, why: &str) -> StatusError {
    errors::new_conflict(
        resource,
        name,
        format!(
            "StorageError: invalid object, Code: 4, Key: {key}, ResourceVersion: 0, AdditionalErrorMsg: {why}"
        ),
    )
}

/// The API error of `err`, a failed operation on `name` (empty for a collection) of
/// `resource`: a key that exists is `AlreadyExists`, a missing one `NotFound`, a failed
/// compare-and-swap Go's optimistic-lock `Conflict`, a compacted revision `Expired`, a
/// future one Go's 504 "Too large resource version", a refused request `BadRequest`, an
/// unreachable store `ServiceUnavailable`, anything else an internal error.
pub fn interpret_error(err: StorageError, resource: &GroupResource, name: &str) -> StatusError {
    match err {
        StorageError::KeyExists { .. } => errors::new_already_exists(resource, name),
        StorageError::KeyNotFound { .. } => errors::new_not_found(resource, name),
        StorageError::Conflict { .. } => {
            errors::new_conflict(resource, name, OPTIMISTIC_LOCK_ERROR_MSG)
        }
        StorageError::Compacted {
            requested,
            compacted,
        } => errors::new_resource_expired(format!(
            "too old resource version: {requested} ({compacted})"
        )),
        // Go's `storage.NewTooLargeResourceVersionError`, answered as a 504 Timeout asking
        // the client to retry after a second.
        StorageError::FutureRevision { requested, current } => StatusError::failure(
            504,
            errors::reason::TIMEOUT,
            format!("Too large resource version: {requested}, current: {current}"),
        )
        .with_details(StatusDetails {
            retry_after_seconds: 1,
            ..StatusDetails::default()
        }),
        StorageError::InvalidRequest { message } => errors::new_bad_request(message),
        StorageError::Unavailable { .. } => errors::new_service_unavailable(err.to_string()),
        other => errors::new_internal_error(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::KeyValue;

    #[test]
    fn storage_failures_become_gos_api_errors() {
        let pods = GroupResource::new("", "pods");
        let missing = interpret_error(StorageError::KeyNotFound { key: "/k".into() }, &pods, "p");
        assert!(errors::is_not_found(&missing));
        let stale = interpret_error(
            StorageError::Conflict {
                key: "/k".into(),
                expected: 1,
                current: Box::new(KeyValue {
                    key: "/k".into(),
                    value: Default::default(),
                    create_revision: 1,
                    mod_revision: 2,
                }),
            },
            &pods,
            "p",
        );
        assert!(errors::is_conflict(&stale));
        assert_eq!(
            stale.to_string(),
            format!("Operation cannot be fulfilled on pods \"p\": {OPTIMISTIC_LOCK_ERROR_MSG}")
        );
        let late = interpret_error(
            StorageError::FutureRevision {
                requested: 9,
                current: 3,
            },
            &pods,
            "",
        );
        assert!(errors::is_timeout(&late));
        assert_eq!(
            late.to_string(),
            "Too large resource version: 9, current: 3"
        );
        assert_eq!(
            suggests(&late),
            Some(1),
            "the client is asked to retry after a second"
        );
    }

    #[test]
    fn a_uid_precondition_failure_is_gos_conflict() {
        let cms = GroupResource::new("", "configmaps");
        let err = uid_precondition_failed(&cms, "cm", "/registry/configmaps/ns/cm", "a", "b");
        assert!(errors::is_conflict(&err));
        assert_eq!(
            err.to_string(),
            "Operation cannot be fulfilled on configmaps \"cm\": StorageError: invalid object, Code: 4, Key: /registry/configmaps/ns/cm, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: a, UID in object meta: b"
        );
    }

    fn suggests(err: &StatusError) -> Option<i32> {
        errors::suggests_client_delay(err)
    }
}
