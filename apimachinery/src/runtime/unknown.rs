//! [`Unknown`]: an object of a kind the scheme does not know, kept as bytes (Go's
//! `runtime.Unknown`).

use std::fmt;

use super::Object;
use crate::apis::meta::v1::{ListMetaAccessor, ObjectMetaAccessor, TypeMeta};
use crate::proto::{
    Field, Message, ProtobufError, ProtobufErrorKind, WireDecoder, WireEncoder, WireType,
    read_bytes,
};
use crate::raw_json::{deserialize_raw, serialize_raw};
use crate::schema::GroupVersionKind;

/// The content type of JSON, the only one [`Unknown`] writes as JSON.
pub const CONTENT_TYPE_JSON: &str = "application/json";

/// An object whose kind the decoder did not turn into a type, with its bytes and how they
/// are encoded (Go's `runtime.Unknown`); the protobuf envelope uses the same fields.
///
/// Its JSON is the bytes themselves, as in Go: reading keeps the value's bytes verbatim
/// (`null` included) and clears the other fields; writing emits `raw` (compacted like Go's
/// encoder does, or `null` when empty) and fails when `content_type` is set to something
/// other than JSON.
///
/// ```
/// use apimachinery::runtime::Unknown;
///
/// let u: Unknown = serde_json::from_str(r#"{"kind": "Mystery"}"#).unwrap();
/// assert_eq!(u.raw, br#"{"kind": "Mystery"}"#);
/// assert_eq!(serde_json::to_string(&u).unwrap(), r#"{"kind":"Mystery"}"#);
///
/// let proto = Unknown { content_type: "application/vnd.kubernetes.protobuf".into(), ..u };
/// assert!(serde_json::to_string(&proto).is_err());
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Unknown {
    /// The kind and apiVersion, when the envelope named them (JSON leaves them empty).
    pub type_meta: TypeMeta,
    /// The serialized object.
    pub raw: Vec<u8>,
    /// How `raw` is compressed, if at all (empty for none).
    pub content_encoding: String,
    /// The media type of `raw`; empty means JSON.
    pub content_type: String,
}

impl fmt::Debug for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("Unknown");
        s.field("type_meta", &self.type_meta);
        match std::str::from_utf8(&self.raw) {
            Ok(text) => s.field("raw", &text),
            Err(_) => s.field("raw", &self.raw),
        };
        s.field("content_encoding", &self.content_encoding)
            .field("content_type", &self.content_type)
            .finish()
    }
}

impl serde::Serialize for Unknown {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if !self.content_type.is_empty() && self.content_type != CONTENT_TYPE_JSON {
            return Err(serde::ser::Error::custom(format!(
                "runtime.Unknown: MarshalJSON on non-json data (content type {:?})",
                self.content_type
            )));
        }
        if self.raw.is_empty() {
            return serializer.serialize_unit();
        }
        serialize_raw("runtime.Unknown", &self.raw, serializer)
    }
}

impl<'de> serde::Deserialize<'de> for Unknown {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Unknown {
            raw: deserialize_raw(deserializer)?.into_bytes(),
            ..Unknown::default()
        })
    }
}

impl Object for Unknown {
    fn group_version_kind(&self) -> GroupVersionKind {
        self.type_meta.group_version_kind()
    }

    fn set_group_version_kind(&mut self, gvk: &GroupVersionKind) {
        self.type_meta.set_group_version_kind(gvk);
    }

    fn meta(&self) -> Option<&dyn ObjectMetaAccessor> {
        None
    }

    fn meta_mut(&mut self) -> Option<&mut dyn ObjectMetaAccessor> {
        None
    }

    fn list_meta(&self) -> Option<&dyn ListMetaAccessor> {
        None
    }

    fn deep_copy_object(&self) -> Box<dyn Object> {
        Box::new(self.clone())
    }

    fn encode_json(
        &self,
        out: &mut Vec<u8>,
        layout: crate::util::json::JsonLayout,
    ) -> Result<(), serde_json::Error> {
        crate::util::json::encode_go_json(self, out, layout)
    }

    fn type_name(&self) -> &'static str {
        std::any::type_name::<Unknown>()
    }
}

/// `Unknown` is `{typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2, contentEncoding = 3,
/// contentType = 4}` (`runtime.TypeMeta` numbers apiVersion first).
impl Message for Unknown {
    fn encode_fields(&self, e: &mut WireEncoder) {
        e.message(1, |e| {
            e.bytes_field(1, self.type_meta.api_version.as_bytes());
            e.bytes_field(2, self.type_meta.kind.as_bytes());
        });
        e.bytes_field(2, &self.raw);
        e.bytes_field(3, self.content_encoding.as_bytes());
        e.bytes_field(4, self.content_type.as_bytes());
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        d: &mut WireDecoder<'_>,
    ) -> Result<bool, ProtobufError> {
        match number {
            1 => {
                if wire != WireType::LengthDelimited {
                    return Err(d
                        .error(ProtobufErrorKind::UnexpectedWireType {
                            found: wire,
                            expected: "a message",
                        })
                        .in_field("typeMeta"));
                }
                let mut type_meta = d.nested()?;
                while !type_meta.is_empty() {
                    match type_meta.key()? {
                        (1, wire) => self
                            .type_meta
                            .api_version
                            .merge_from(wire, &mut type_meta)
                            .map_err(|e| e.in_field("apiVersion").in_field("typeMeta"))?,
                        (2, wire) => self
                            .type_meta
                            .kind
                            .merge_from(wire, &mut type_meta)
                            .map_err(|e| e.in_field("kind").in_field("typeMeta"))?,
                        (n, wire) => type_meta.skip(n, wire)?,
                    }
                }
            }
            2 => {
                let bytes = read_bytes(wire, d).map_err(|e| e.in_field("raw"))?;
                self.raw.clear();
                self.raw.extend_from_slice(bytes);
            }
            3 => self
                .content_encoding
                .merge_from(wire, d)
                .map_err(|e| e.in_field("contentEncoding"))?,
            4 => self
                .content_type
                .merge_from(wire, d)
                .map_err(|e| e.in_field("contentType"))?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_the_raw_bytes() {
        let u: Unknown = serde_json::from_str(" {\"kind\" : \"X\"} ").unwrap();
        assert_eq!(u.raw, br#"{"kind" : "X"}"#);
        assert!(u.type_meta.is_empty() && u.content_type.is_empty());
        assert_eq!(serde_json::to_string(&u).unwrap(), r#"{"kind":"X"}"#);
        // Go hands `null` to UnmarshalJSON, which keeps it.
        let n: Unknown = serde_json::from_str("null").unwrap();
        assert_eq!(n.raw, b"null");
        assert_eq!(serde_json::to_string(&Unknown::default()).unwrap(), "null");
        let json_typed = Unknown {
            content_type: CONTENT_TYPE_JSON.into(),
            raw: b"1".to_vec(),
            ..Unknown::default()
        };
        assert_eq!(serde_json::to_string(&json_typed).unwrap(), "1");
        let proto = Unknown {
            content_type: "application/vnd.kubernetes.protobuf".into(),
            ..json_typed
        };
        let e = serde_json::to_string(&proto).unwrap_err().to_string();
        assert!(
            e.contains("MarshalJSON on non-json data") && e.contains("protobuf"),
            "{e}"
        );
    }

    #[test]
    fn is_an_object() {
        let mut u = Unknown::default();
        let gvk = GroupVersionKind::new("apps", "v1", "Deployment");
        u.set_group_version_kind(&gvk);
        let boxed: Box<dyn Object> = u.deep_copy_object();
        assert_eq!(boxed.group_version_kind(), gvk);
        assert!(boxed.meta().is_none());
        assert!(boxed.is::<Unknown>());
        assert_eq!(u.type_meta.api_version, "apps/v1");
        assert!(format!("{u:?}").starts_with("Unknown {"));
    }
}
