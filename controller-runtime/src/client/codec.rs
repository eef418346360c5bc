//! What travels on the wire: protobuf for kinds that have a protobuf encoding (built-in
//! types), JSON for the rest (custom resources, `Unstructured`) or when the client is
//! asked for JSON; decoding goes by the answer's `Content-Type`.

use apimachinery::apis::meta::v1::Status;
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::GroupVersionKind;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::ProtobufSerializer;
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

/// Reads a protobuf list (in its envelope) item by item: the list metadata (field 1)
/// and each item (field 2) decoded as `item_gvk` into its own box.
pub(crate) fn decode_protobuf_list(
    scheme: &Scheme,
    body: &[u8],
    item_gvk: &GroupVersionKind,
) -> Result<(apimachinery::apis::meta::v1::ListMeta, Vec<Box<dyn Object>>), String> {
    use apimachinery::proto::{WireDecoder, WireType};
    let env = apimachinery::proto::decode_envelope(body).map_err(|e| e.to_string())?;
    let mut d = WireDecoder::new(env.raw);
    let mut meta = apimachinery::apis::meta::v1::ListMeta::default();
    let mut items = Vec::new();
    while !d.is_empty() {
        let (field, wire) = d.key().map_err(|e| e.to_string())?;
        match (field, wire) {
            (1, WireType::LengthDelimited) => {
                let bytes = d.length_delimited().map_err(|e| e.to_string())?;
                meta = apimachinery::proto::decode_message(bytes).map_err(|e| e.to_string())?;
            }
            (2, WireType::LengthDelimited) => {
                let bytes = d.length_delimited().map_err(|e| e.to_string())?;
                let mut obj =
                    apimachinery::serializer::protobuf::decode_raw_object(scheme, item_gvk, bytes)
                        .map_err(|e| format!("item {}: {e}", items.len()))?;
                obj.set_group_version_kind(item_gvk);
                items.push(obj);
            }
            (f, w) => d.skip(f, w).map_err(|e| e.to_string())?,
        }
    }
    Ok((meta, items))
}

/// Reads a `Status` from JSON or protobuf.
pub(crate) fn decode_status(body: &[u8]) -> Option<Status> {
    if body.starts_with(apimachinery::proto::MAGIC) {
        let env = apimachinery::proto::decode_envelope(body).ok()?;
        if env.kind != "Status" {
            return None;
        }
        return apimachinery::proto::decode_message::<Status>(env.raw).ok();
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn gone() -> Status {
        Status {
            status: "Failure".into(),
            message: "too old resource version: 1 (5)".into(),
            reason: "Expired".into(),
            code: 410,
            ..Status::default()
        }
    }

    #[test]
    fn error_events_in_json_and_protobuf() {
        let scheme = Scheme::from_registry().unwrap();
        let json = serde_json::to_vec(&serde_json::json!({
            "kind": "Status", "apiVersion": "v1", "status": "Failure",
            "message": "too old resource version: 1 (5)", "reason": "Expired", "code": 410
        }))
        .unwrap();
        let e = api_error_of_event(&json);
        assert!(e.is_resource_expired() && e.code == 410, "{e}");

        let mut status = gone();
        status.set_group_version_kind(&GroupVersionKind::new("", "v1", "Status"));
        let pb = encode(&scheme, &status, true).unwrap();
        assert!(pb.starts_with(b"k8s\0"));
        let e = api_error_of_event(&pb);
        assert!(e.is_gone_or_expired(), "{e}");
        assert_eq!(e.status.message, "too old resource version: 1 (5)");

        // Not a Status: a generic error from the code.
        let e = api_error(503, b"<html>down</html>");
        assert!(e.is_service_unavailable());
        assert!(e.status.message.contains("down"));
    }

    #[test]
    fn content_types() {
        assert!(is_protobuf(
            "application/vnd.kubernetes.protobuf;stream=watch"
        ));
        assert!(is_protobuf("Application/Vnd.Kubernetes.Protobuf"));
        assert!(!is_protobuf("application/json"));
    }
}
