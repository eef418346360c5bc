//! What travels on the wire: protobuf for kinds that have a protobuf encoding (built-in
//! types), JSON for the rest (custom resources, `Unstructured`) or when the client is
//! asked for JSON; decoding goes by the answer's `Content-Type`.

use apimachinery::apis::meta::v1::Status;
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::GroupVersionKind;
use apimachinery::serializer::json::{Serializer as JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::Serializer as ProtobufSerializer;
use apimachinery::serializer::{Decoder, Encoder};

use super::error::ApiError;

/// The protobuf media type.
pub(crate) const PROTOBUF: &str = "application/vnd.kubernetes.protobuf";
/// The JSON media type.
pub(crate) const JSON: &str = "application/json";
/// `Accept` for protobuf with JSON fallback, as client-go sends it.
pub(crate) const ACCEPT_PROTOBUF: &str = "application/vnd.kubernetes.protobuf, application/json";

/// The wire format a client prefers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WireFormat {
    /// Protobuf for kinds that have it (built-in types), JSON for the others.
    #[default]
    Protobuf,
    /// JSON for everything.
    Json,
}

/// True when the answer's content type is protobuf.
pub(crate) fn is_protobuf(content_type: &str) -> bool {
    content_type
        .split(';')
        .next()
        .is_some_and(|e| e.trim().eq_ignore_ascii_case(PROTOBUF))
}

/// True when objects of `gvk` have a protobuf encoding in `scheme`.
pub(crate) fn has_protobuf(scheme: &Scheme, gvk: &GroupVersionKind) -> bool {
    scheme
        .new_object(gvk)
        .is_ok_and(|o| o.as_proto_message().is_some())
}

/// Encodes `obj` in `protobuf` or JSON.
pub(crate) fn encode(scheme: &Scheme, obj: &dyn Object, protobuf: bool) -> Result<Vec<u8>, String> {
    if protobuf {
        ProtobufSerializer::new(scheme)
            .encode_to_vec(obj)
            .map_err(|e| e.to_string())
    } else {
        JsonSerializer::new(scheme, SerializerOptions::default())
            .encode_to_vec(obj)
            .map_err(|e| e.to_string())
    }
}

/// Decodes a typed object of (by default) kind `gvk` from an answer's body.
pub(crate) fn decode(
    scheme: &Scheme,
    content_type: &str,
    body: &[u8],
    gvk: &GroupVersionKind,
) -> Result<(Box<dyn Object>, GroupVersionKind), String> {
    if is_protobuf(content_type) {
        ProtobufSerializer::new(scheme)
            .decode(body, Some(gvk), None)
            .map_err(|e| e.to_string())
    } else {
        JsonSerializer::new(scheme, SerializerOptions::default())
            .decode(body, Some(gvk), None)
            .map_err(|e| e.to_string())
    }
}

/// Reads a `Status` from JSON or protobuf.
pub(crate) fn decode_status(body: &[u8]) -> Option<Status> {
    if body.starts_with(apimachinery::protobuf::MAGIC) {
        let env = apimachinery::protobuf::decode_envelope(body).ok()?;
        if env.kind != "Status" {
            return None;
        }
        return apimachinery::protobuf::decode_message::<Status>(env.raw).ok();
    }
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    if value.get("kind").and_then(|k| k.as_str()) != Some("Status") {
        return None;
    }
    serde_json::from_value(value).ok()
}

/// The API error of a non-2xx answer.
pub(crate) fn api_error(code: u16, body: &[u8]) -> ApiError {
    match decode_status(body) {
        Some(status) => ApiError::from_status(status, code),
        None => ApiError::from_code(code, &String::from_utf8_lossy(body)),
    }
}

/// The API error of a watch `ERROR` event: its object is a `Status`.
pub(crate) fn api_error_of_event(object: &[u8]) -> ApiError {
    match decode_status(object) {
        Some(status) => {
            let code = u16::try_from(status.code).unwrap_or(500);
            ApiError::from_status(status, code)
        }
        None => ApiError::from_code(500, &String::from_utf8_lossy(object)),
    }
}
