//! [`FieldsV1`]: a managed-fields entry's set of fields, kept as the JSON bytes it was
//! read from (Go's `metav1.FieldsV1`).

use std::fmt;

use serde_json::Value;

use crate::proto::{Message, ProtobufError, WireDecoder, WireEncoder, WireType, read_bytes};
use crate::raw_json::{deserialize_raw, serialize_raw};
use crate::util::json::{GoJsonWriter, WriteJson};

/// The name Go's errors give the type, for bytes that are not JSON.
const OWNER: &str = "metav1.FieldsV1";

/// The set of fields a manager owns, in the `FieldsV1` trie format (`{"f:data":{"f:k":
/// {}}}`), kept as bytes (Go's `FieldsV1.Raw`).
///
/// Go never decodes it while it decodes an object: it keeps the bytes, and the field
/// manager reads them into a set when it needs one
/// ([`managedfields::fieldpath::Set::from_fields_v1_bytes`](crate::managedfields::fieldpath::Set::from_fields_v1_bytes)).
/// So does this type, which is what a cached object's `managedFields` costs: one
/// allocation of the JSON's length, where a JSON tree costs one per key.
///
/// JSON is Go's: reading keeps the value's bytes as they appeared (key order and number
/// literals included; `null` leaves `raw` empty); writing checks that `raw` is JSON,
/// compacts it and escapes `<`, `>` and `&` inside strings, as Go's encoder does with a
/// `MarshalJSON` result; an empty `raw` is written as `null`. Protobuf carries `raw` as
/// it is, unchecked, both ways, as Go's does. From YAML (any deserializer other than
/// serde_json) `raw` is the compact JSON of the value read, keys sorted, which is what Go
/// stores, as it converts YAML to JSON through a map first.
///
/// ```
/// use apimachinery::apis::meta::v1::FieldsV1;
///
/// let fields: FieldsV1 = serde_json::from_str(r#"{"f:metadata": {"f:labels": {}}}"#)?;
/// assert_eq!(fields.raw, br#"{"f:metadata": {"f:labels": {}}}"#); // verbatim
/// assert_eq!(serde_json::to_string(&fields)?, r#"{"f:metadata":{"f:labels":{}}}"#);
/// assert_eq!(fields.to_value()?["f:metadata"], serde_json::json!({"f:labels": {}}));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct FieldsV1 {
    /// The JSON text of the set, as read (Go's `Raw`); empty when absent.
    pub raw: Vec<u8>,
}

impl FieldsV1 {
    /// A set from its JSON text, taken as it is (as Go's `FieldsV1{Raw: ...}`).
    pub fn from_raw(raw: impl Into<Vec<u8>>) -> FieldsV1 {
        FieldsV1 { raw: raw.into() }
    }

    /// A set from a JSON value, written compact.
    pub fn from_value(value: &Value) -> FieldsV1 {
        // Serializing a `serde_json::Value` to bytes cannot fail.
        FieldsV1::from_raw(serde_json::to_vec(value).unwrap_or_default())
    }

    /// The set as a JSON value (`null` when `raw` is empty); an error names what in
    /// `raw` is not JSON.
    pub fn to_value(&self) -> Result<Value, serde_json::Error> {
        if self.raw.is_empty() {
            return Ok(Value::Null);
        }
        serde_json::from_slice(&self.raw)
    }

    /// True when there are no bytes (written as `null`, left out of protobuf).
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }
}

impl From<Value> for FieldsV1 {
    /// What `FieldsV1(value)` was before the set was kept as bytes.
    fn from(value: Value) -> FieldsV1 {
        FieldsV1::from_value(&value)
    }
}

impl fmt::Debug for FieldsV1 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("FieldsV1");
        match std::str::from_utf8(&self.raw) {
            Ok(text) => s.field("raw", &text),
            Err(_) => s.field("raw", &self.raw),
        };
        s.finish()
    }
}

impl serde::Serialize for FieldsV1 {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.raw.is_empty() {
            serializer.serialize_unit()
        } else {
            serialize_raw(OWNER, &self.raw, serializer)
        }
    }
}

/// The serde impl's text, written straight into the output (every object's
/// `managedFields` holds these).
impl WriteJson for FieldsV1 {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), serde_json::Error> {
        if self.raw.is_empty() {
            writer.null();
            Ok(())
        } else {
            writer.embedded_json(OWNER, &self.raw)
        }
    }
}

impl<'de> serde::Deserialize<'de> for FieldsV1 {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = deserialize_raw(deserializer)?;
        Ok(if text == "null" {
            FieldsV1::default()
        } else {
            FieldsV1::from_raw(text)
        })
    }
}

/// `FieldsV1` is `{Raw = 1}`: the bytes as they are, both ways (Go checks nothing here;
/// bytes that are not JSON fail when written as JSON, as in Go); nothing when empty (Go's
/// nil `Raw`).
impl Message for FieldsV1 {
    fn encode_fields(&self, e: &mut WireEncoder) {
        if !self.raw.is_empty() {
            e.bytes_field(1, &self.raw);
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
        let bytes = read_bytes(wire, d).map_err(|e| e.in_field("Raw"))?;
        self.raw.clear();
        self.raw.extend_from_slice(bytes);
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, serde::Serialize, Debug, PartialEq, Default)]
    struct Entry {
        #[serde(rename = "fieldsV1", default, skip_serializing_if = "Option::is_none")]
        fields_v1: Option<FieldsV1>,
    }

    #[test]
    fn reads_bytes_verbatim_and_writes_them_as_go_does() {
        let json =
            "{\"fieldsV1\": {\"f:data\" : {\"f:b\": {}, \"f:a\": {}},\n \"v:\\\"<x>\\\"\": {}}}";
        let entry: Entry = serde_json::from_str(json).unwrap();
        let fields = entry.fields_v1.as_ref().unwrap();
        assert_eq!(
            fields.raw,
            b"{\"f:data\" : {\"f:b\": {}, \"f:a\": {}},\n \"v:\\\"<x>\\\"\": {}}"
        );
        // Compact, key order kept, HTML characters escaped: Go's encoder.
        assert_eq!(
            serde_json::to_string(&entry).unwrap(),
            r#"{"fieldsV1":{"f:data":{"f:b":{},"f:a":{}},"v:\"\u003cx\u003e\"":{}}}"#
        );
        // Through our own reader (the path typed objects take).
        let read = crate::runtime::json_reader::read_slice_tracking::<FieldsV1>(
            br#"{"f:b": {}, "f:a": {}}"#,
            false,
        )
        .unwrap();
        assert_eq!(read.value.raw, br#"{"f:b": {}, "f:a": {}}"#);
    }

    #[test]
    fn null_is_empty_and_empty_is_null() {
        // A pointer in Go: `null` is no set at all.
        let entry: Entry = serde_json::from_str(r#"{"fieldsV1": null}"#).unwrap();
        assert_eq!(entry.fields_v1, None);
        let null: FieldsV1 = serde_json::from_str("null").unwrap();
        assert!(null.is_empty());
        let empty = Entry {
            fields_v1: Some(FieldsV1::default()),
        };
        assert_eq!(
            serde_json::to_string(&empty).unwrap(),
            r#"{"fieldsV1":null}"#
        );
        assert_eq!(FieldsV1::default().to_value().unwrap(), Value::Null);
    }

    #[test]
    fn bytes_that_are_not_json_fail_when_written_as_json_only() {
        let bad = FieldsV1::from_raw(b"{not json".to_vec());
        let e = serde_json::to_string(&bad).unwrap_err().to_string();
        assert!(e.contains("metav1.FieldsV1"), "{e}");
        assert!(bad.to_value().is_err());
        // Protobuf keeps them, as Go does.
        let wire = crate::proto::encode_message(&bad);
        let back: FieldsV1 = crate::proto::decode_message(&wire).unwrap();
        assert_eq!(back, bad);
        assert!(format!("{bad:?}").contains("{not json"));
    }

    #[test]
    fn values_convert_both_ways() {
        let value = serde_json::json!({"f:spec": {"f:replicas": {}}});
        let fields = FieldsV1::from(value.clone());
        assert_eq!(fields.raw, br#"{"f:spec":{"f:replicas":{}}}"#);
        assert_eq!(fields.to_value().unwrap(), value);
        assert!(!fields.is_empty());
    }
}
