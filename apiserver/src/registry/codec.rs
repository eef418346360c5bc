//! Objects to and from what is stored and sent (Go's `runtime` codec helpers as the
//! registry and everything above it use them): the JSON of an object, an object from
//! JSON, conversion between versions, encoding in a wire format, and decoding a stored
//! value.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::unstructured::object_to_unstructured;
use apimachinery::runtime::{Object, Scheme, Unstructured};
use apimachinery::schema::{GroupVersion, GroupVersionKind};
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::ProtobufSerializer;
use apimachinery::serializer::{Decoder, Encoder, PROTOBUF_MAGIC};
use serde_json::Value;

use super::event_conversion::{convert_event, crosses_event_groups};
use crate::storage::KeyValue;

/// The formats objects are read and written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MediaType {
    /// `application/json`.
    Json,
    /// `application/yaml`.
    Yaml,
    /// `application/vnd.kubernetes.protobuf`.
    Protobuf,
}

impl MediaType {
    /// The `Content-Type` of an answer in this format.
    pub fn content_type(self) -> &'static str {
        match self {
            MediaType::Json => "application/json",
            MediaType::Yaml => "application/yaml",
            MediaType::Protobuf => "application/vnd.kubernetes.protobuf",
        }
    }
}

/// The JSON of an object, for patches and strategies.
pub fn to_json(obj: &dyn Object) -> Result<Value, StatusError> {
    object_to_unstructured(obj)
        .map(Value::Object)
        .map_err(|e| errors::new_internal_error(format!("writing object: {e}")))
}

/// Reads a JSON value of kind `gvk` into its typed object (an
/// [`Unstructured`] for a kind the scheme does not know: a custom resource's).
pub fn from_value(
    scheme: &Scheme,
    gvk: &GroupVersionKind,
    mut value: Value,
) -> Result<Box<dyn Object>, StatusError> {
    if let Some(map) = value.as_object_mut() {
        let (api_version, kind) = gvk.to_api_version_and_kind();
        map.insert("apiVersion".into(), Value::from(api_version));
        map.insert("kind".into(), Value::from(kind.to_owned()));
    }
    if !scheme.recognizes(gvk) {
        if let Value::Object(map) = value {
            return Ok(Box::new(Unstructured::new(map)));
        }
    }
    let bytes = serde_json::to_vec(&value)
        .map_err(|e| errors::new_internal_error(format!("writing {gvk}: {e}")))?;
    JsonSerializer::new(scheme, SerializerOptions::default())
        .decode(&bytes, Some(gvk), None)
        .map(|(o, _)| o)
        .map_err(|e| errors::new_internal_error(format!("reading {gvk}: {e}")))
}

/// Converts `obj` to `gv` through the scheme. A custom resource (a kind the scheme does
/// not know) changes its `apiVersion` alone, as its CRD's `None` conversion does (a
/// conversion webhook is its strategy's); the two Event APIs convert into each other, as
/// kube-apiserver stores both as core Events.
pub fn convert(
    scheme: &Scheme,
    obj: Box<dyn Object>,
    gv: &GroupVersion,
) -> Result<Box<dyn Object>, StatusError> {
    if crosses_event_groups(&*obj, gv) {
        return convert_event(scheme, obj, gv);
    }
    if obj.is_unstructured() {
        let gvk = obj.group_version_kind();
        if !scheme.recognizes(&gvk) {
            let mut obj = obj;
            obj.set_group_version_kind(&gv.with_kind(gvk.kind.clone()));
            return Ok(obj);
        }
    }
    scheme
        .convert_to_version(obj, gv)
        .map_err(|e| errors::new_internal_error(format!("converting to {gv}: {e}")))
}

/// Encodes `obj` in `media`.
pub fn encode(scheme: &Scheme, media: MediaType, obj: &dyn Object) -> Result<Vec<u8>, StatusError> {
    let out = match media {
        MediaType::Protobuf => ProtobufSerializer::new(scheme).encode_to_vec(obj),
        MediaType::Json | MediaType::Yaml => JsonSerializer::new(
            scheme,
            SerializerOptions {
                yaml: media == MediaType::Yaml,
                ..SerializerOptions::default()
            },
        )
        .encode_to_vec(obj),
    };
    out.map_err(|e| {
        errors::new_internal_error(format!("encoding {}: {e}", obj.group_version_kind()))
    })
}

/// Decodes a value as stored (protobuf envelope, or JSON as some writers store it and
/// custom resources are stored) and sets `resourceVersion` from the revision.
pub fn decode_stored(scheme: &Scheme, kv: &KeyValue) -> Result<Box<dyn Object>, StatusError> {
    let decoded = if kv.value.starts_with(PROTOBUF_MAGIC.as_slice()) {
        ProtobufSerializer::new(scheme).decode(&kv.value, None, None)
    } else {
        match JsonSerializer::new(scheme, SerializerOptions::default())
            .decode(&kv.value, None, None)
        {
            // A custom resource: a kind the scheme does not know, kept as it is.
            Err(e) if e.is_not_registered() => {
                JsonSerializer::unstructured(SerializerOptions::default())
                    .decode(&kv.value, None, None)
            }
            other => other,
        }
    };
    let (mut obj, _) = decoded.map_err(|e| {
        errors::new_internal_error(format!("decoding stored object {}: {e}", kv.key))
    })?;
    if let Some(meta) = obj.meta_mut() {
        meta.set_resource_version(&kv.mod_revision.to_string());
    }
    Ok(obj)
}
