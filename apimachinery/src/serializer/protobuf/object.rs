//! Objects to and from enveloped protobuf through a [`Scheme`] (Go's
//! `runtime/serializer/protobuf` `Serializer`), and the envelope-less form Go uses for
//! objects embedded in other messages.

use crate::proto::{
    ProtobufError, WireDecoder, WireEncoder, decode_envelope, encode_envelope_of, merge_message,
};
use crate::runtime::{Object, Scheme, SchemeError, SchemeErrorKind};
use crate::schema::GroupVersionKind;

/// Why an object could not be encoded or decoded as protobuf.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProtobufSerializerError {
    /// The object's type has no protobuf encoding (custom resources, `Unstructured`):
    /// Go's "does not implement the protobuf marshalling interface".
    #[error(
        "object {type_name} ({gvk}) does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message"
    )]
    NotMarshalable {
        /// The Rust type.
        type_name: &'static str,
        /// The object's kind.
        gvk: GroupVersionKind,
    },
    /// The bytes are not valid protobuf for the type.
    #[error("{gvk}: {source}")]
    Protobuf {
        /// The kind being decoded (empty when the envelope itself is bad).
        gvk: GroupVersionKind,
        /// What was wrong, where.
        source: ProtobufError,
    },
    /// The scheme does not know the kind, or the envelope lacks kind or version.
    #[error(transparent)]
    Scheme(#[from] SchemeError),
}

/// Encodes `obj` in the Kubernetes protobuf envelope, with its own kind and version.
pub fn encode_object(obj: &dyn Object) -> Result<Vec<u8>, ProtobufSerializerError> {
    encode_enveloped(obj, &mut false)
}

/// [`encode_object`], and whether decoding the bytes gives back another object than
/// `obj`: protobuf has no empty list or map, so a `Some` of one (a Go field without
/// `omitempty` set to `[]`, `null` once read back) is written as nothing and reads back
/// as `None`. kube-apiserver answers a write with the object it decodes from the bytes
/// it stored; with this, a caller decodes only when that object differs.
pub fn encode_object_noting_loss(
    obj: &dyn Object,
) -> Result<(Vec<u8>, bool), ProtobufSerializerError> {
    let mut lossy = false;
    let bytes = encode_enveloped(obj, &mut lossy)?;
    Ok((bytes, lossy))
}

/// [`encode_object`], setting `lossy` when the message [`WireEncoder::wrote_unseen`].
fn encode_enveloped(
    obj: &dyn Object,
    lossy: &mut bool,
) -> Result<Vec<u8>, ProtobufSerializerError> {
    let gvk = obj.group_version_kind();
    let message =
        obj.as_proto_message()
            .ok_or_else(|| ProtobufSerializerError::NotMarshalable {
                type_name: obj.type_name(),
                gvk: gvk.clone(),
            })?;
    // Go writes the object's own kind, which is empty for kinds without TypeMeta; its
    // apiVersion is `group/version`, or the version alone in the core group.
    let write = |e: &mut WireEncoder| {
        message.encode_fields(e);
        *lossy = e.wrote_unseen();
    };
    Ok(if !obj.has_type_meta() {
        encode_envelope_of(&[], "", write)
    } else if gvk.group.is_empty() {
        encode_envelope_of(&[gvk.version.as_bytes()], &gvk.kind, write)
    } else {
        let api_version = [gvk.group.as_bytes(), b"/", gvk.version.as_bytes()];
        encode_envelope_of(&api_version, &gvk.kind, write)
    })
}

/// Encodes `obj`'s own message, without the envelope (Go's `RawSerializer`, for objects
/// embedded in other protobuf messages).
pub fn encode_raw_object(obj: &dyn Object) -> Result<Vec<u8>, ProtobufSerializerError> {
    let message =
        obj.as_proto_message()
            .ok_or_else(|| ProtobufSerializerError::NotMarshalable {
                type_name: obj.type_name(),
                gvk: obj.group_version_kind(),
            })?;
    Ok(crate::proto::encode_message(message))
}

/// Decodes an enveloped object: reads its kind from the envelope (missing pieces taken
/// from `defaults`, as Go does), creates the registered type and reads the message into
/// it. The object's kind is set to the one decoded.
pub fn decode_object(
    scheme: &Scheme,
    bytes: &[u8],
    defaults: Option<&GroupVersionKind>,
) -> Result<(Box<dyn Object>, GroupVersionKind), ProtobufSerializerError> {
    let envelope = decode_envelope(bytes).map_err(|source| ProtobufSerializerError::Protobuf {
        gvk: GroupVersionKind::default(),
        source,
    })?;
    let mut gvk = GroupVersionKind::from_api_version_and_kind(envelope.api_version, envelope.kind);
    // Go's copyKindDefaults: a default version brings its group along, replacing a
    // group given without a version.
    if let Some(defaults) = defaults {
        if gvk.kind.is_empty() {
            gvk.kind = defaults.kind.clone();
        }
        if gvk.version.is_empty() && !defaults.version.is_empty() {
            gvk.group = defaults.group.clone();
            gvk.version = defaults.version.clone();
        }
    }
    // As Go, an envelope that still names no kind or no version (`apiVersion: "v/"` is
    // group `v` without one) is refused before the scheme is asked for the type.
    let context = || {
        format!(
            "protobuf envelope (apiVersion {:?}, kind {:?})",
            envelope.api_version, envelope.kind
        )
    };
    if gvk.kind.is_empty() {
        return Err(SchemeError::from(SchemeErrorKind::MissingKind { context: context() }).into());
    }
    if gvk.version.is_empty() {
        return Err(
            SchemeError::from(SchemeErrorKind::MissingVersion { context: context() }).into(),
        );
    }
    let object = decode_raw_at(scheme, &gvk, envelope.raw, envelope.raw_offset)?;
    Ok((object, gvk))
}

/// Decodes an object of kind `gvk` from its own message bytes (no envelope).
pub fn decode_raw_object(
    scheme: &Scheme,
    gvk: &GroupVersionKind,
    raw: &[u8],
) -> Result<Box<dyn Object>, ProtobufSerializerError> {
    decode_raw_at(scheme, gvk, raw, 0)
}

fn decode_raw_at(
    scheme: &Scheme,
    gvk: &GroupVersionKind,
    raw: &[u8],
    offset: usize,
) -> Result<Box<dyn Object>, ProtobufSerializerError> {
    let mut object = scheme.new_object(gvk)?;
    let type_name = object.type_name();
    let message =
        object
            .as_proto_message_mut()
            .ok_or_else(|| ProtobufSerializerError::NotMarshalable {
                type_name,
                gvk: gvk.clone(),
            })?;
    merge_message(message, &mut WireDecoder::at_offset(raw, offset)).map_err(|source| {
        ProtobufSerializerError::Protobuf {
            gvk: gvk.clone(),
            source,
        }
    })?;
    message.finish_fields();
    object.set_group_version_kind(gvk);
    Ok(object)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apis::meta::v1::{ObjectMeta, TypeMeta};
    use crate::proto::encode_envelope;
    use crate::runtime::{Resource, Unstructured};
    use std::collections::BTreeMap;

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(version = "v1", kind = "ConfigMap", protobuf)]
    struct ConfigMap {
        #[api(skip_serializing_if = "TypeMeta::is_empty")]
        type_meta: TypeMeta,
        metadata: ObjectMeta,
        data: BTreeMap<String, String>,
        immutable: Option<bool>,
    }
    crate::proto_message!(ConfigMap { 1 => metadata, 2 => data, 4 => immutable });

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "example.com", version = "v1", kind = "Widget")]
    struct Widget {
        metadata: ObjectMeta,
    }

    fn scheme() -> Scheme {
        let mut scheme = Scheme::new();
        scheme.register(&ConfigMap::REGISTRATION).unwrap();
        scheme.register(&Widget::REGISTRATION).unwrap();
        scheme
    }

    #[test]
    fn objects_round_trip_through_the_envelope() {
        let mut cm = ConfigMap::default();
        cm.metadata.name = "cfg".into();
        cm.data.insert("k".into(), "v".into());
        cm.immutable = Some(true);
        let bytes = encode_object(&cm).unwrap();
        assert!(bytes.starts_with(b"k8s\0\x0a\x0f\x0a\x02v1\x12\x09ConfigMap"));
        let (decoded, gvk) = decode_object(&scheme(), &bytes, None).unwrap();
        assert_eq!(gvk, ConfigMap::gvk());
        let decoded = decoded.downcast_ref::<ConfigMap>().unwrap();
        assert_eq!(decoded.metadata, cm.metadata);
        assert_eq!(decoded.data, cm.data);
        assert_eq!(decoded.type_meta.kind, "ConfigMap");

        let raw = encode_raw_object(&cm).unwrap();
        let again = decode_raw_object(&scheme(), &ConfigMap::gvk(), &raw).unwrap();
        assert_eq!(again.downcast_ref::<ConfigMap>().unwrap().data, cm.data);
    }

    #[test]
    fn types_without_protobuf_are_refused() {
        assert!(matches!(
            encode_object(&Widget::default()),
            Err(ProtobufSerializerError::NotMarshalable { .. })
        ));
        assert!(matches!(
            encode_object(&Unstructured::default()),
            Err(ProtobufSerializerError::NotMarshalable { .. })
        ));
        let bytes = encode_envelope("example.com/v1", "Widget", |_| {});
        assert!(matches!(
            decode_object(&scheme(), &bytes, None),
            Err(ProtobufSerializerError::NotMarshalable { .. })
        ));
    }

    /// Found by the `protobuf` fuzz target: `v/` is group `v` with no version, which the
    /// JSON decoder refused and this one decoded.
    #[test]
    fn an_envelope_without_a_version_or_kind_is_refused_as_go_refuses_it() {
        for api_version in ["v/", ""] {
            let bytes = encode_envelope(api_version, "ConfigMap", |_| {});
            let e = decode_object(&scheme(), &bytes, None).unwrap_err();
            assert!(
                matches!(&e, ProtobufSerializerError::Scheme(s) if s.is_missing_version()),
                "{api_version:?}: {e}"
            );
        }
        let bytes = encode_envelope("v1", "", |_| {});
        let e = decode_object(&scheme(), &bytes, None).unwrap_err();
        assert!(matches!(&e, ProtobufSerializerError::Scheme(s) if s.is_missing_kind()));
        // A default version replaces a group given alone, as Go's copyKindDefaults does.
        let bytes = encode_envelope("v/", "ConfigMap", |_| {});
        let (_, gvk) = decode_object(&scheme(), &bytes, Some(&ConfigMap::gvk())).unwrap();
        assert_eq!(gvk, ConfigMap::gvk());
    }

    #[test]
    fn unknown_kinds_and_bad_bytes_are_typed_errors() {
        let bytes = encode_envelope("v1", "Nope", |_| {});
        let e = decode_object(&scheme(), &bytes, None).unwrap_err();
        assert!(matches!(&e, ProtobufSerializerError::Scheme(s) if s.is_not_registered()));

        let mut bytes = encode_object(&ConfigMap::default()).unwrap();
        bytes.truncate(bytes.len() - 3);
        assert!(matches!(
            decode_object(&scheme(), &bytes, None),
            Err(ProtobufSerializerError::Protobuf { .. })
        ));
    }

    #[test]
    fn defaults_fill_a_missing_kind() {
        let bytes = encode_envelope("", "", |_| {});
        let (object, gvk) = decode_object(&scheme(), &bytes, Some(&ConfigMap::gvk())).unwrap();
        assert_eq!(gvk, ConfigMap::gvk());
        assert!(object.is::<ConfigMap>());
    }
}
