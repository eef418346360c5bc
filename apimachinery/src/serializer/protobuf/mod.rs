//! Go's protobuf serializer (`runtime/serializer/protobuf`): objects in the Kubernetes
//! envelope ([`ProtobufSerializer`]) or as their bare message ([`RawProtobufSerializer`]), through the
//! codec traits, and the functions under them ([`encode_object`], [`decode_object`], ...).
//! The wire format itself is [`crate::proto`].

mod object;

use std::io;

pub use object::{
    ProtobufSerializerError, decode_object, decode_raw_object, encode_object,
    encode_object_noting_loss, encode_raw_object,
};

use super::codec::gvk_with_defaults;
use super::{DecodeError, DecodeErrorKind, Decoder, EncodeError, Encoder, Format, SchemeRef};
use crate::proto as pb;
use crate::runtime::{Object, Scheme, Unknown};
use crate::schema::GroupVersionKind;

/// Reads and writes objects in the Kubernetes protobuf envelope (`k8s\0` + `Unknown`).
#[derive(Clone, Debug)]
pub struct ProtobufSerializer<'s> {
    scheme: SchemeRef<'s>,
}

/// Reads and writes an object's bare message, without the envelope: the kind comes from
/// the caller (`defaults` or `into`), as with Go's `protobuf.RawSerializer`.
#[derive(Clone, Debug)]
pub struct RawProtobufSerializer<'s> {
    scheme: SchemeRef<'s>,
}

impl<'s> ProtobufSerializer<'s> {
    /// A serializer creating objects through `scheme`.
    pub fn new(scheme: impl Into<SchemeRef<'s>>) -> Self {
        ProtobufSerializer {
            scheme: scheme.into(),
        }
    }
}

impl<'s> RawProtobufSerializer<'s> {
    /// A serializer creating objects through `scheme`.
    pub fn new(scheme: impl Into<SchemeRef<'s>>) -> Self {
        RawProtobufSerializer {
            scheme: scheme.into(),
        }
    }
}

fn encode_error(e: ProtobufSerializerError, obj: &dyn Object) -> EncodeError {
    match e {
        ProtobufSerializerError::Scheme(e) => EncodeError::Scheme(e),
        other => EncodeError::Serialize {
            format: Format::Protobuf,
            type_name: obj.type_name(),
            message: other.to_string(),
        },
    }
}

fn decode_error(e: ProtobufSerializerError) -> DecodeError {
    match e {
        ProtobufSerializerError::Scheme(e) => DecodeErrorKind::Scheme(e).into(),
        ProtobufSerializerError::Protobuf { gvk, source } => DecodeErrorKind::Protobuf {
            gvk,
            path: source.path(),
            offset: source.offset(),
            message: source.kind().to_string(),
        }
        .into(),
        other => DecodeErrorKind::Unrecognized {
            message: other.to_string(),
        }
        .into(),
    }
}

/// Puts `object` into `into` when the caller's object is of the decoded kind, returning
/// what the caller gets back (Go decodes into `into` and returns it).
fn deliver(
    scheme: &Scheme,
    object: Box<dyn Object>,
    gvk: &GroupVersionKind,
    into: Option<&mut dyn Object>,
) -> Result<Box<dyn Object>, DecodeError> {
    let Some(into) = into else {
        return Ok(object);
    };
    let Ok((kinds, _)) = scheme.object_kinds(into) else {
        return Ok(object);
    };
    if !kinds.contains(gvk) {
        return Ok(object);
    }
    let object_type = scheme
        .object_type(gvk)
        .ok_or_else(|| DecodeError::from(DecodeErrorKind::Scheme(scheme.not_registered(gvk))))?;
    match object_type.assign(into, object) {
        Ok(()) => Ok(into.deep_copy_object()),
        Err(object) => Ok(object),
    }
}

impl Decoder for ProtobufSerializer<'_> {
    fn decode(
        &self,
        data: &[u8],
        defaults: Option<&GroupVersionKind>,
        into: Option<&mut dyn Object>,
    ) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
        if let Some(into) = into {
            if let Some(unknown) = into.downcast_mut::<Unknown>() {
                // Go hands the envelope back undecoded.
                let envelope = pb::decode_envelope(data).map_err(|e| {
                    decode_error(ProtobufSerializerError::Protobuf {
                        gvk: GroupVersionKind::default(),
                        source: e,
                    })
                })?;
                let gvk = GroupVersionKind::from_api_version_and_kind(
                    envelope.api_version,
                    envelope.kind,
                );
                unknown.type_meta.api_version = envelope.api_version.to_owned();
                unknown.type_meta.kind = envelope.kind.to_owned();
                unknown.raw = envelope.raw.to_vec();
                unknown.content_encoding = envelope.content_encoding.to_owned();
                unknown.content_type = envelope.content_type.to_owned();
                return Ok((into.deep_copy_object(), gvk));
            }
            let (object, gvk) =
                decode_object(&self.scheme, data, defaults).map_err(decode_error)?;
            let object = deliver(&self.scheme, object, &gvk, Some(into))?;
            return Ok((object, gvk));
        }
        decode_object(&self.scheme, data, defaults).map_err(decode_error)
    }
}

impl Encoder for ProtobufSerializer<'_> {
    fn encode(&self, obj: &dyn Object, w: &mut dyn io::Write) -> Result<(), EncodeError> {
        let bytes = encode_object(obj).map_err(|e| encode_error(e, obj))?;
        w.write_all(&bytes)?;
        Ok(())
    }

    fn identifier(&self) -> String {
        "protobuf".to_owned()
    }

    /// The encoded vector itself: the default's writes it into another (13 KB for a Pod:
    /// 8% of its encode's instructions).
    fn encode_to_vec(&self, obj: &dyn Object) -> Result<Vec<u8>, EncodeError> {
        encode_object(obj).map_err(|e| encode_error(e, obj))
    }
}

impl Decoder for RawProtobufSerializer<'_> {
    fn decode(
        &self,
        data: &[u8],
        defaults: Option<&GroupVersionKind>,
        into: Option<&mut dyn Object>,
    ) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
        // The bytes name no kind: it is the default's, or else the caller's object's.
        let mut gvk = GroupVersionKind::default();
        if let Some(defaults) = defaults {
            gvk = gvk_with_defaults(gvk, defaults);
        }
        if gvk.kind.is_empty() {
            if let Some(into) = into.as_deref() {
                if let Ok((kinds, _)) = self.scheme.object_kinds(into) {
                    if let Some(first) = kinds.first() {
                        gvk = gvk_with_defaults(gvk, first);
                    }
                }
            }
        }
        if gvk.kind.is_empty() {
            return Err(DecodeErrorKind::MissingKind {
                data: String::from("<protobuf>"),
            }
            .into());
        }
        let object = decode_raw_object(&self.scheme, &gvk, data).map_err(decode_error)?;
        let object = deliver(&self.scheme, object, &gvk, into)?;
        Ok((object, gvk))
    }
}

impl Encoder for RawProtobufSerializer<'_> {
    fn encode(&self, obj: &dyn Object, w: &mut dyn io::Write) -> Result<(), EncodeError> {
        let bytes = encode_raw_object(obj).map_err(|e| encode_error(e, obj))?;
        w.write_all(&bytes)?;
        Ok(())
    }

    fn identifier(&self) -> String {
        "raw-protobuf".to_owned()
    }

    /// The encoded vector itself, as [`ProtobufSerializer`]'s.
    fn encode_to_vec(&self, obj: &dyn Object) -> Result<Vec<u8>, EncodeError> {
        encode_raw_object(obj).map_err(|e| encode_error(e, obj))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apis::meta::v1::{ObjectMeta, TypeMeta};
    use crate::runtime::Resource;
    use std::collections::BTreeMap;

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(version = "v1", kind = "ConfigMap", protobuf)]
    struct ConfigMap {
        #[api(skip_serializing_if = "TypeMeta::is_empty")]
        type_meta: TypeMeta,
        metadata: ObjectMeta,
        data: BTreeMap<String, String>,
    }
    crate::proto_message!(ConfigMap { 1 => metadata, 2 => data });

    fn scheme() -> Scheme {
        let mut scheme = Scheme::new();
        scheme.register(&ConfigMap::REGISTRATION).unwrap();
        scheme
    }

    fn config_map() -> ConfigMap {
        let mut cm = ConfigMap::default();
        cm.metadata.name = "cfg".into();
        cm.data.insert("k".into(), "v".into());
        cm
    }

    #[test]
    fn envelope_round_trip_and_into() {
        let scheme = scheme();
        let s = ProtobufSerializer::new(&scheme);
        let bytes = s.encode_to_vec(&config_map()).unwrap();
        let (object, gvk) = s.decode(&bytes, None, None).unwrap();
        assert_eq!(gvk, ConfigMap::gvk());
        assert_eq!(
            object.downcast_ref::<ConfigMap>().unwrap().data,
            config_map().data
        );

        let mut into = ConfigMap::default();
        s.decode(&bytes, None, Some(&mut into)).unwrap();
        assert_eq!(into.metadata.name, "cfg");

        let mut unknown = Unknown::default();
        let (_, gvk) = s.decode(&bytes, None, Some(&mut unknown)).unwrap();
        assert_eq!(gvk, ConfigMap::gvk());
        assert_eq!(unknown.type_meta.kind, "ConfigMap");
        assert!(!unknown.raw.is_empty());
    }

    #[test]
    fn raw_messages_take_their_kind_from_the_caller() {
        let scheme = scheme();
        let raw = RawProtobufSerializer::new(&scheme);
        let bytes = raw.encode_to_vec(&config_map()).unwrap();
        assert!(!bytes.starts_with(b"k8s\0"));
        let (object, _) = raw.decode(&bytes, Some(&ConfigMap::gvk()), None).unwrap();
        assert!(object.is::<ConfigMap>());
        let mut into = ConfigMap::default();
        raw.decode(&bytes, None, Some(&mut into)).unwrap();
        assert_eq!(into.metadata.name, "cfg");
        let e = raw.decode(&bytes, None, None).unwrap_err();
        assert!(e.is_missing_kind());
    }

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(version = "v1", kind = "Slice", protobuf)]
    struct Slice {
        #[api(skip_serializing_if = "TypeMeta::is_empty")]
        type_meta: TypeMeta,
        metadata: ObjectMeta,
        #[api(nullable)]
        endpoints: Option<Vec<String>>,
        #[api(nullable)]
        labels: Option<BTreeMap<String, String>>,
    }
    crate::proto_message!(Slice { 1 => metadata, 2 => endpoints, 3 => labels });

    /// A `Some` of an empty list or map is written as nothing and reads back `None`:
    /// said, so that a server answers what it would read back. `None`, and lists and
    /// maps with items, read back as written.
    #[test]
    fn encoding_says_when_an_empty_list_or_map_will_read_back_unset() {
        let lossy = |s: &Slice| encode_object_noting_loss(s).unwrap().1;
        let mut slice = Slice::default();
        assert!(!lossy(&slice));
        slice.endpoints = Some(vec!["a".into()]);
        slice.labels = Some([("k".to_owned(), String::new())].into());
        assert!(!lossy(&slice));
        slice.endpoints = Some(Vec::new());
        assert!(lossy(&slice));
        slice.endpoints = None;
        slice.labels = Some(BTreeMap::new());
        assert!(lossy(&slice));
        let (bytes, _) = encode_object_noting_loss(&slice).unwrap();
        assert_eq!(bytes, encode_object(&slice).unwrap());
        let mut scheme = Scheme::new();
        scheme.register(&Slice::REGISTRATION).unwrap();
        let (back, _) = ProtobufSerializer::new(&scheme)
            .decode(&bytes, None, None)
            .unwrap();
        assert_eq!(back.downcast_ref::<Slice>().unwrap().labels, None);
    }

    #[test]
    fn corrupt_bytes_name_offset_and_field() {
        let scheme = scheme();
        let s = ProtobufSerializer::new(&scheme);
        let mut bytes = s.encode_to_vec(&config_map()).unwrap();
        // Make the name's length run past the end of metadata.
        let at = bytes.windows(4).position(|w| w == b"\x0a\x03cf").unwrap();
        bytes[at + 1] = 0x7f;
        let e = s.decode(&bytes, None, None).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("metadata"), "{text}");
        assert!(text.contains("byte"), "{text}");
    }
}
