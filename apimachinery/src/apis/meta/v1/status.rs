//! [`Status`]: the result of an operation that returns no object, such as an error.

use super::{ListMeta, TypeMeta};

/// The outcome of a call that does not return an object: success of a delete, or any
/// failure (Go's `metav1.Status`). Unversioned: it is the same in every group version.
///
/// Like every Go struct, it writes the `kind` and `apiVersion` it holds: a `Status` nested
/// in another object (an admission response's `status`) has neither unless they were set,
/// and the encoders set them on a `Status` they write as the object itself.
#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq, Eq)]
#[api(
    version = "v1",
    kind = "Status",
    unversioned,
    not_resource,
    omit_empty_type_meta,
    protobuf
)]
pub struct Status {
    /// The kind and apiVersion, written as they are (each only when set), as Go does.
    pub type_meta: TypeMeta,
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
#[derive(crate::ApiType, Clone, Debug, Default, PartialEq, Eq)]
pub struct StatusDetails {
    /// The object's name.
    #[api(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The object's group.
    #[api(skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// The object's kind.
    #[api(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// The object's uid.
    #[api(skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// Every cause of the failure.
    #[api(skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<StatusCause>,
    /// Seconds to wait before retrying.
    #[api(skip_serializing_if = "is_zero_i32")]
    pub retry_after_seconds: i32,
}

/// One cause of a failure, often about one field.
#[derive(crate::ApiType, Clone, Debug, Default, PartialEq, Eq)]
pub struct StatusCause {
    /// A machine-readable cause, such as `FieldValueInvalid`.
    #[api(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// A human-readable description.
    #[api(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// The field at fault, as a path such as `spec.containers[0].name`.
    #[api(skip_serializing_if = "String::is_empty")]
    pub field: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::runtime::{Resource, Scheme};
    use crate::schema::GroupVersion;
    use crate::serializer::json::{JsonSerializer, SerializerOptions};
    use crate::serializer::{CodecFactory, Encoder};

    fn not_found() -> Status {
        Status {
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
        }
    }

    #[test]
    fn json_is_gos() {
        // Go's zero Status: the embedded ListMeta is a struct, so always written.
        assert_eq!(
            serde_json::to_string(&Status::default()).unwrap(),
            r#"{"metadata":{}}"#
        );
        let s = not_found();
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(
            json,
            r#"{"metadata":{},"status":"Failure","message":"pods \"x\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}"#
        );
        assert_eq!(serde_json::from_str::<Status>(&json).unwrap(), s);
    }

    #[test]
    fn type_meta_is_written_as_held() {
        let mut s = not_found();
        s.type_meta.kind = "Status".into();
        let json = serde_json::to_string(&s).unwrap();
        assert!(
            json.starts_with(r#"{"kind":"Status","metadata":{}"#),
            "{json}"
        );
        s.type_meta.api_version = "v1".into();
        let json = serde_json::to_string(&s).unwrap();
        assert!(
            json.starts_with(r#"{"kind":"Status","apiVersion":"v1","metadata":{}"#),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Status>(&json).unwrap(), s);
    }

    #[test]
    fn encoded_as_the_object_it_names_its_kind() {
        let mut scheme = Scheme::new();
        scheme.register(&Status::REGISTRATION).unwrap();
        let factory = CodecFactory::new(&scheme);
        let s = not_found();
        // The codec sets the kind on what it writes (Go's versioning encoder), and leaves
        // the caller's object alone.
        for versions in [&[][..], &[GroupVersion::new("", "v1")][..]] {
            let json = factory.legacy_codec(versions).encode_to_vec(&s).unwrap();
            let json = String::from_utf8(json).unwrap();
            assert!(
                json.starts_with(
                    r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure""#
                ),
                "{json}"
            );
        }
        let yaml = JsonSerializer::new(
            &scheme,
            SerializerOptions {
                yaml: true,
                ..Default::default()
            },
        );
        let yaml = factory
            .encoder_for_version(Arc::new(yaml), Arc::new(GroupVersion::new("", "v1")))
            .encode_to_vec(&s)
            .unwrap();
        let yaml = String::from_utf8(yaml).unwrap();
        assert!(
            yaml.starts_with("apiVersion: v1\ncode: 404\ndetails:")
                && yaml.contains("\nkind: Status\n"),
            "{yaml}"
        );
        assert!(s.type_meta.is_empty());
        // The protobuf envelope names the kind too.
        let pb = crate::serializer::protobuf::encode_object(&s).unwrap();
        let envelope = crate::proto::decode_envelope(&pb).unwrap();
        assert_eq!((envelope.api_version, envelope.kind), ("v1", "Status"));
        // The bare serializer, like Go's, writes the object as it is.
        let bare = JsonSerializer::new(&scheme, SerializerOptions::default())
            .encode_to_vec(&s)
            .unwrap();
        assert!(bare.starts_with(br#"{"metadata":{},"#));
    }
}
