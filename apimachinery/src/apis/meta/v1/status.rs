//! [`Status`]: the result of an operation that returns no object, such as an error.

use serde::{Deserialize, Serialize};

use super::ListMeta;

/// The outcome of a call that does not return an object: success of a delete, or any
/// failure (Go's `metav1.Status`). Unversioned: it is the same in every group version.
#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq, Eq)]
#[api(version = "v1", kind = "Status", unversioned, not_resource, protobuf)]
pub struct Status {
    /// List metadata (Go embeds `ListMeta` here).
    pub metadata: ListMeta,
    /// `Success` or `Failure`.
    #[api(skip_serializing_if = "String::is_empty")]
    pub status: String,
    /// A human-readable description.
    #[api(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// A machine-readable reason, such as `NotFound`.
    #[api(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// More about the reason.
    pub details: Option<StatusDetails>,
    /// The HTTP status code.
    #[api(skip_serializing_if = "is_zero_i32")]
    pub code: i32,
}

fn is_zero_i32(v: &i32) -> bool {
    *v == 0
}

/// The object a [`Status`] is about, and the causes of a failure.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusDetails {
    /// The object's name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The object's group.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// The object's kind.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// The object's uid.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// Every cause of the failure.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<StatusCause>,
    /// Seconds to wait before retrying.
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub retry_after_seconds: i32,
}

/// One cause of a failure, often about one field.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusCause {
    /// A machine-readable cause, such as `FieldValueInvalid`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// A human-readable description.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// The field at fault, as a path such as `spec.containers[0].name`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub field: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_gos() {
        let s = Status {
            status: "Failure".into(),
            message: "pods \"x\" not found".into(),
            reason: "NotFound".into(),
            details: Some(StatusDetails {
                name: "x".into(),
                kind: "pods".into(),
                ..Default::default()
            }),
            code: 404,
            ..Default::default()
        };
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(
            json,
            r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"x\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}"#
        );
        assert_eq!(serde_json::from_str::<Status>(&json).unwrap(), s);
    }
}
