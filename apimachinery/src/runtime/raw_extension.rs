//! [`RawExtension`]: an embedded object kept as the bytes it came in (Go's
//! `runtime.RawExtension`).

use std::fmt;

use super::Object;
use crate::proto::{Message, ProtobufError, WireDecoder, WireEncoder, WireType, read_bytes};
use crate::raw_json::{deserialize_raw, serialize_raw};
use crate::util::json::{GoJsonWriter, WriteJson};

/// The name Go's errors give the type, for bytes that are not JSON.
const OWNER: &str = "runtime.RawExtension";

/// A field that holds a whole object of any kind (`ControllerRevision.data`, an
/// `AdmissionReview`'s `object`, a `WatchEvent`'s `object`), kept as the bytes it was read
/// from (Go's `runtime.RawExtension`).
///
/// JSON is Go's: reading keeps the value's bytes exactly as they appeared (`null` leaves
/// `raw` empty); writing emits `raw` when it is set, else `object`, else `null`. Like Go's
/// encoder, writing checks that `raw` is JSON, compacts it, and escapes `<`, `>` and `&`;
/// inside pretty output Go re-indents it (its `MarshalIndent` re-indents everything), which
/// a pretty serde_json formatter does in `write_raw_fragment`. Go does not tell an empty
/// `raw` from an absent one when reading, and writes an empty one as an error; here empty
/// means absent.
///
/// serde_json (from text or from a `serde_json::Value`) hands over the value's text as it
/// is. Any other self-describing deserializer (YAML) gives the compact JSON of the value
/// read, with map keys sorted: what Go stores, since Go converts YAML to JSON through a
/// map before decoding. Turning `raw` into a typed object through a scheme is the codec's
/// business, not this type's.
///
/// ```
/// use apimachinery::runtime::RawExtension;
///
/// let ext: RawExtension = serde_json::from_str(r#"{"x": { "kind" : "Widget" } }"#)
///     .map(|v: serde_json::Map<String, serde_json::Value>| {
///         serde_json::from_value(v["x"].clone()).unwrap()
///     })
///     .unwrap();
/// assert_eq!(ext.raw, br#"{"kind":"Widget"}"#);
///
/// #[derive(serde::Deserialize, serde::Serialize)]
/// struct Revision { data: RawExtension }
/// let rev: Revision = serde_json::from_str(r#"{"data": {"b": 1,  "a": [true]}}"#).unwrap();
/// assert_eq!(rev.data.raw, br#"{"b": 1,  "a": [true]}"#); // verbatim, key order too
/// assert_eq!(serde_json::to_string(&rev).unwrap(), r#"{"data":{"b":1,"a":[true]}}"#);
/// ```
#[derive(Clone, Default)]
pub struct RawExtension {
    /// The serialized object, as read (JSON when it came from JSON).
    pub raw: Vec<u8>,
    /// The object, when a caller put one here rather than bytes; written when `raw` is
    /// empty.
    pub object: Option<Box<dyn Object>>,
}

impl RawExtension {
    /// An extension holding `raw` bytes.
    pub fn from_raw(raw: impl Into<Vec<u8>>) -> RawExtension {
        RawExtension {
            raw: raw.into(),
            object: None,
        }
    }

    /// An extension holding an object, written in its place.
    pub fn from_object(object: Box<dyn Object>) -> RawExtension {
        RawExtension {
            raw: Vec::new(),
            object: Some(object),
        }
    }

    /// True when neither bytes nor an object are set (written as `null`).
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty() && self.object.is_none()
    }
}

impl PartialEq for RawExtension {
    /// Equal bytes, and objects that are both absent or serialize to the same JSON value.
    fn eq(&self, other: &RawExtension) -> bool {
        if self.raw != other.raw {
            return false;
        }
        match (&self.object, &other.object) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                a.group_version_kind() == b.group_version_kind()
                    && matches!(
                        (serde_json::to_value(&**a), serde_json::to_value(&**b)),
                        (Ok(x), Ok(y)) if x == y
                    )
            }
            _ => false,
        }
    }
}

impl fmt::Debug for RawExtension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("RawExtension");
        match std::str::from_utf8(&self.raw) {
            Ok(text) => s.field("raw", &text),
            Err(_) => s.field("raw", &self.raw),
        };
        s.field("object", &self.object).finish()
    }
}

impl serde::Serialize for RawExtension {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if !self.raw.is_empty() {
            serialize_raw(OWNER, &self.raw, serializer)
        } else if let Some(object) = &self.object {
            object.serialize(serializer)
        } else {
            serializer.serialize_unit()
        }
    }
}

/// The serde impl's text; bytes are written straight into the output.
impl WriteJson for RawExtension {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), serde_json::Error> {
        if self.raw.is_empty() {
            serde::Serialize::serialize(self, writer)
        } else {
            writer.embedded_json(OWNER, &self.raw)
        }
    }
}

impl<'de> serde::Deserialize<'de> for RawExtension {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = deserialize_raw(deserializer)?;
        Ok(if text == "null" {
            RawExtension::default()
        } else {
            RawExtension::from_raw(text)
        })
    }
}

/// `RawExtension` is `{raw = 1}`: the bytes as read, or the object as compact JSON when
/// only an object is set; nothing when empty (Go's nil `Raw`).
impl Message for RawExtension {
    fn encode_fields(&self, e: &mut WireEncoder) {
        if !self.raw.is_empty() {
            e.bytes_field(1, &self.raw);
        } else if let Some(object) = &self.object {
            // Encoding fails only for types whose Serialize fails; such an object has
            // no bytes to offer.
            let mut json = Vec::new();
            if object
                .encode_json(&mut json, crate::util::json::JsonLayout::Compact)
                .is_ok()
            {
                e.bytes_field(1, &json);
            }
        }
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        d: &mut WireDecoder<'_>,
    ) -> Result<bool, ProtobufError> {
        if number != 1 {
            return Ok(false);
        }
        let bytes = read_bytes(wire, d).map_err(|e| e.in_field("raw"))?;
        self.raw.clear();
        self.raw.extend_from_slice(bytes);
        self.object = None;
        Ok(true)
    }
}

// The same in every API version: converts to itself.
crate::identity_conversion!(RawExtension);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::Unstructured;

    #[derive(serde::Deserialize, serde::Serialize, Debug, PartialEq, Default)]
    struct Revision {
        #[serde(default)]
        data: RawExtension,
    }

    #[test]
    fn reads_bytes_verbatim() {
        let json = "{\"data\" :  {\"z\": 1, \"a\" : [ 1.50, \"<x>\" ],\n \"e\": 1e3} }";
        let rev: Revision = serde_json::from_str(json).unwrap();
        assert_eq!(
            rev.data.raw,
            b"{\"z\": 1, \"a\" : [ 1.50, \"<x>\" ],\n \"e\": 1e3}"
        );
        assert_eq!(
            serde_json::to_string(&rev).unwrap(),
            r#"{"data":{"z":1,"a":[1.50,"\u003cx\u003e"],"e":1e3}}"#
        );
        let from_bytes: Revision = serde_json::from_slice(json.as_bytes()).unwrap();
        assert_eq!(from_bytes, rev);
        let scalar: RawExtension = serde_json::from_str(r#""text""#).unwrap();
        assert_eq!(scalar.raw, br#""text""#);
    }

    #[test]
    fn null_and_absent_are_empty() {
        let rev: Revision = serde_json::from_str(r#"{"data":null}"#).unwrap();
        assert!(rev.data.is_empty());
        assert_eq!(serde_json::to_string(&rev).unwrap(), r#"{"data":null}"#);
        let rev: Revision = serde_json::from_str("{}").unwrap();
        assert!(rev.data.raw.is_empty());
    }

    #[test]
    fn writes_the_object_when_there_are_no_bytes() {
        let mut u = Unstructured::default();
        u.set_api_version("v1");
        u.set_kind("ConfigMap");
        let ext = RawExtension::from_object(Box::new(u));
        let json = serde_json::to_string(&ext).unwrap();
        assert_eq!(json, r#"{"apiVersion":"v1","kind":"ConfigMap"}"#);
        assert_eq!(ext.clone(), ext);
        assert_ne!(ext, RawExtension::default());
        // Bytes win over the object, as in Go.
        let both = RawExtension {
            raw: b"[1]".to_vec(),
            ..ext
        };
        assert_eq!(serde_json::to_string(&both).unwrap(), "[1]");
    }

    #[test]
    fn refuses_to_write_bytes_that_are_not_json() {
        let ext = RawExtension::from_raw(b"\x0a\x02k8s".to_vec());
        let e = serde_json::to_string(&ext).unwrap_err().to_string();
        assert!(
            e.starts_with("runtime.RawExtension: raw bytes are not valid JSON"),
            "{e}"
        );
        assert!(format!("{ext:?}").contains("raw"));
    }

    #[test]
    fn reads_from_a_json_value_and_keeps_it_under_pretty_printing() {
        let value = serde_json::json!({"data": {"b": 2, "a": 1}});
        let rev: Revision = serde_json::from_value(value).unwrap();
        assert_eq!(
            serde_json::from_slice::<serde_json::Value>(&rev.data.raw).unwrap(),
            serde_json::json!({"a": 1, "b": 2})
        );
        // serde_json's pretty printer writes raw values as they are; Go's MarshalIndent
        // would indent them. The JSON codec's formatter owns that.
        let pretty = serde_json::to_string_pretty(&rev).unwrap();
        assert!(pretty.contains(r#""data": {"#), "{pretty}");
    }

    #[test]
    fn other_deserializers_give_compact_json_with_sorted_keys() {
        use serde::Deserialize;
        use serde::de::IntoDeserializer;
        use serde::de::value::{Error, MapDeserializer};
        // A map from a non-JSON deserializer, keys out of order.
        let entries = vec![("z", 1_i64), ("a", 2)];
        let d: MapDeserializer<'_, _, Error> = MapDeserializer::new(entries.into_iter());
        let ext = RawExtension::deserialize(d).unwrap();
        assert_eq!(ext.raw, br#"{"a":2,"z":1}"#);
        let s: serde::de::value::StrDeserializer<'_, Error> = "x<y".into_deserializer();
        assert_eq!(RawExtension::deserialize(s).unwrap().raw, br#""x<y""#);
        let unit: serde::de::value::UnitDeserializer<Error> = ().into_deserializer();
        assert!(RawExtension::deserialize(unit).unwrap().is_empty());
        // serde buffers flattened fields, so the raw text is re-encoded there.
        #[derive(serde::Deserialize)]
        struct Flattened {
            #[serde(flatten)]
            rest: std::collections::BTreeMap<String, RawExtension>,
        }
        let flat: Flattened = serde_json::from_str(r#"{"x": {"b": 1, "a": 2}}"#).unwrap();
        assert_eq!(flat.rest["x"].raw, br#"{"a":2,"b":1}"#);
    }
}
