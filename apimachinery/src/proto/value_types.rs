//! The protobuf encoding of the shared value types that are not `meta/v1` messages:
//! `Quantity`, `IntOrString` and Go `[]byte` fields, as their Go packages write them
//! (`RawExtension` and `Unknown`, `runtime` types, implement it next to their types).

use super::encoder::WireEncoder;
use super::error::{ProtobufError, ProtobufErrorKind};
use super::field::{Field, Message, read_str};
use super::wire::{WireDecoder, WireType};
use crate::api::ByteString;
use crate::api::resource::Quantity;
use crate::util::intstr::IntOrString;

/// The bytes of a `bytes` field.
pub(crate) fn read_bytes<'a>(
    wire: WireType,
    d: &mut WireDecoder<'a>,
) -> Result<&'a [u8], ProtobufError> {
    if wire != WireType::LengthDelimited {
        return Err(d.error(ProtobufErrorKind::UnexpectedWireType {
            found: wire,
            expected: "bytes",
        }));
    }
    d.length_delimited()
}

/// A Go `[]byte` field: the bytes, as they are.
impl Field for ByteString {
    const WIRE: WireType = WireType::LengthDelimited;

    fn encode_field(&self, number: u32, e: &mut WireEncoder) {
        e.bytes_field(number, &self.0);
    }

    fn merge_from(&mut self, wire: WireType, d: &mut WireDecoder<'_>) -> Result<(), ProtobufError> {
        let bytes = read_bytes(wire, d)?;
        self.0.clear();
        self.0.extend_from_slice(bytes);
        Ok(())
    }
}

/// `Quantity` is `{string = 1}`, its Go `String()` form; reading parses it.
impl Message for Quantity {
    fn encode_fields(&self, e: &mut WireEncoder) {
        // No `String` per quantity: `to_string` cost a Pod's 29 quantities 7,500
        // instructions (callgrind).
        self.with_text(|text| e.bytes_field(1, text.as_bytes()));
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
        let at = d.offset();
        // Parsed from the input's bytes: a `String` of the text would be allocated and
        // freed again for every quantity (29 of a Pod's 1,010 allocations).
        let text = read_str(wire, d).map_err(|e| e.in_field("string"))?;
        *self = text
            .parse()
            .map_err(|e: crate::api::resource::QuantityError| {
                ProtobufError::new(at, ProtobufErrorKind::Invalid(e.to_string())).in_field("string")
            })?;
        Ok(true)
    }
}

/// `IntOrString` is `{type = 1, intVal = 2, strVal = 3}`, all three always written
/// (type 0 for an int, 1 for a string), as Go's non-pointer fields are.
impl Message for IntOrString {
    fn encode_fields(&self, e: &mut WireEncoder) {
        let (kind, int, string) = match self {
            IntOrString::Int(i) => (0i64, *i, ""),
            IntOrString::String(s) => (1, 0, s.as_str()),
        };
        kind.encode_field(1, e);
        int.encode_field(2, e);
        e.bytes_field(3, string.as_bytes());
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        d: &mut WireDecoder<'_>,
    ) -> Result<bool, ProtobufError> {
        // The three fields may come in any order: keep the one the type names, and move
        // between the variants when the type says so.
        match number {
            1 => {
                let mut kind = 0i64;
                kind.merge_from(wire, d).map_err(|e| e.in_field("type"))?;
                *self = match (kind, std::mem::take(self)) {
                    (0, IntOrString::Int(i)) => IntOrString::Int(i),
                    (0, IntOrString::String(_)) => IntOrString::Int(0),
                    (1, IntOrString::String(s)) => IntOrString::String(s),
                    (1, IntOrString::Int(_)) => IntOrString::String(String::new()),
                    (other, _) => {
                        return Err(d
                            .error(ProtobufErrorKind::Invalid(format!(
                                "unknown IntOrString type {other}"
                            )))
                            .in_field("type"));
                    }
                };
            }
            2 => {
                let mut int = 0i32;
                int.merge_from(wire, d).map_err(|e| e.in_field("intVal"))?;
                if let IntOrString::Int(i) = self {
                    *i = int;
                }
            }
            3 => {
                let mut string = String::new();
                string
                    .merge_from(wire, d)
                    .map_err(|e| e.in_field("strVal"))?;
                if let IntOrString::String(s) = self {
                    *s = string;
                } else if !string.is_empty() {
                    // A string before its type: Go keeps both; remember the string, a
                    // later `type = 0` turns it back into an int.
                    *self = IntOrString::String(string);
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::{decode_message, encode_message};
    use crate::runtime::{RawExtension, Unknown};
    use proptest::prelude::*;

    #[test]
    fn quantities_are_their_strings() {
        let q: Quantity = "1500m".parse().unwrap();
        assert_eq!(encode_message(&q), b"\x0a\x051500m");
        assert_eq!(decode_message::<Quantity>(b"\x0a\x051500m").unwrap(), q);
        let e = decode_message::<Quantity>(b"\x0a\x03abc").unwrap_err();
        assert_eq!(e.path(), "string");
    }

    #[test]
    fn int_or_string_writes_all_three_fields() {
        assert_eq!(
            encode_message(&IntOrString::Int(8080)),
            b"\x08\x00\x10\x90\x3f\x1a\x00"
        );
        assert_eq!(
            encode_message(&IntOrString::String("http".into())),
            b"\x08\x01\x10\x00\x1a\x04http"
        );
        // Fields in another order still give the value.
        assert_eq!(
            decode_message::<IntOrString>(b"\x1a\x04http\x08\x01").unwrap(),
            IntOrString::String("http".into())
        );
        assert!(decode_message::<IntOrString>(b"\x08\x07").is_err());
    }

    #[test]
    fn unknown_round_trips() {
        let unknown = Unknown {
            type_meta: crate::apis::meta::v1::TypeMeta {
                kind: "Pod".into(),
                api_version: "v1".into(),
            },
            raw: b"\x0a\x00".to_vec(),
            content_encoding: String::new(),
            content_type: "application/vnd.kubernetes.protobuf".into(),
        };
        let bytes = encode_message(&unknown);
        assert!(bytes.starts_with(b"\x0a\x09\x0a\x02v1\x12\x03Pod"));
        assert_eq!(decode_message::<Unknown>(&bytes).unwrap(), unknown);
    }

    proptest! {
        #[test]
        fn int_or_string_round_trips(value in prop_oneof![
            any::<i32>().prop_map(IntOrString::Int),
            ".{0,8}".prop_map(IntOrString::String),
        ]) {
            prop_assert_eq!(decode_message::<IntOrString>(&encode_message(&value)).unwrap(), value);
        }

        #[test]
        fn raw_extensions_keep_their_bytes(raw in proptest::collection::vec(any::<u8>(), 1..32)) {
            let ext = RawExtension::from_raw(raw.clone());
            let back: RawExtension = decode_message(&encode_message(&ext)).unwrap();
            prop_assert_eq!(back.raw, raw);
        }
    }
}
