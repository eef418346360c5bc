//! The Kubernetes protobuf envelope: the magic `k8s\0`, then a `runtime.Unknown` message
//! `{typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2, contentEncoding = 3,
//! contentType = 4}` whose `raw` is the object's own message.

use super::encoder::WireEncoder;
use super::error::{ProtobufError, ProtobufErrorKind};
use super::field::read_str;
use super::scratch::encode_exact;
use super::wire::{WireDecoder, WireType};

/// The four bytes every enveloped Kubernetes protobuf document starts with.
pub const MAGIC: &[u8; 4] = b"k8s\0";

/// An envelope read from bytes, borrowing them: its strings too, since a decode only
/// reads them to find the kind (two allocations fewer per decoded object).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Envelope<'a> {
    /// `apiVersion` of the object.
    pub api_version: &'a str,
    /// `kind` of the object.
    pub kind: &'a str,
    /// The object's message bytes.
    pub raw: &'a [u8],
    /// Offset of `raw` in the input, for errors found inside it.
    pub raw_offset: usize,
    /// How `raw` is encoded (empty: not compressed).
    pub content_encoding: &'a str,
    /// The media type of `raw` (empty: protobuf).
    pub content_type: &'a str,
}

/// Writes the envelope of an object of `api_version` and `kind` whose message fields
/// `write_raw` appends, as Go writes it (`contentEncoding` and `contentType` empty but
/// present).
pub fn encode_envelope(
    api_version: &str,
    kind: &str,
    write_raw: impl FnOnce(&mut WireEncoder),
) -> Vec<u8> {
    encode_envelope_of(&[api_version.as_bytes()], kind, write_raw)
}

/// [`encode_envelope`] of a message already encoded into `raw`: its length is known, so
/// the envelope is written once, in a buffer of its final size, with nothing to move
/// (a long list's body, written through [`encode_envelope`], would move whole to make
/// room for its length).
pub fn encode_envelope_raw(api_version: &str, kind: &str, raw: &[u8]) -> Vec<u8> {
    let size = MAGIC.len() + api_version.len() + kind.len() + raw.len() + 4 * 10;
    let mut e = WireEncoder::with_buffer(Vec::with_capacity(size));
    e.raw(MAGIC);
    e.message(1, |e| {
        e.bytes_field(1, api_version.as_bytes());
        e.bytes_field(2, kind.as_bytes());
    });
    e.bytes_field(2, raw);
    e.bytes_field(3, b"");
    e.bytes_field(4, b"");
    e.into_bytes()
}

/// [`encode_envelope`] with the `apiVersion` given as the pieces it is made of (a group,
/// `/` and a version), so that an object's kind is written without first formatting it
/// into a string.
pub(crate) fn encode_envelope_of(
    api_version: &[&[u8]],
    kind: &str,
    write_raw: impl FnOnce(&mut WireEncoder),
) -> Vec<u8> {
    encode_exact(|e| {
        e.raw(MAGIC);
        e.message(1, |e| {
            e.bytes_field_of(1, api_version);
            e.bytes_field(2, kind.as_bytes());
        });
        e.message(2, write_raw);
        e.bytes_field(3, b"");
        e.bytes_field(4, b"");
    })
}

/// Reads an envelope; fails on a missing magic number or a malformed `Unknown`.
pub fn decode_envelope(bytes: &[u8]) -> Result<Envelope<'_>, ProtobufError> {
    let body = bytes
        .strip_prefix(MAGIC.as_slice())
        .ok_or_else(|| ProtobufError::new(0, ProtobufErrorKind::MissingMagic))?;
    let mut d = WireDecoder::at_offset(body, MAGIC.len());
    let mut envelope = Envelope::default();
    while !d.is_empty() {
        match d.key()? {
            (1, WireType::LengthDelimited) => {
                let mut type_meta = d.nested()?;
                while !type_meta.is_empty() {
                    match type_meta.key()? {
                        (1, wire) => {
                            envelope.api_version = read_str(wire, &mut type_meta)
                                .map_err(|e| e.in_field("apiVersion").in_field("typeMeta"))?;
                        }
                        (2, wire) => {
                            envelope.kind = read_str(wire, &mut type_meta)
                                .map_err(|e| e.in_field("kind").in_field("typeMeta"))?;
                        }
                        (number, wire) => type_meta.skip(number, wire)?,
                    }
                }
            }
            (2, WireType::LengthDelimited) => {
                envelope.raw = d.length_delimited()?;
                envelope.raw_offset = d.offset() - envelope.raw.len();
            }
            (3, wire) => {
                envelope.content_encoding =
                    read_str(wire, &mut d).map_err(|e| e.in_field("contentEncoding"))?;
            }
            (4, wire) => {
                envelope.content_type =
                    read_str(wire, &mut d).map_err(|e| e.in_field("contentType"))?;
            }
            (number @ (1 | 2), wire) => {
                return Err(d
                    .error(ProtobufErrorKind::UnexpectedWireType {
                        found: wire,
                        expected: "a message",
                    })
                    .in_field(if number == 1 { "typeMeta" } else { "raw" }));
            }
            (number, wire) => d.skip(number, wire)?,
        }
    }
    Ok(envelope)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_round_trip() {
        let bytes = encode_envelope("v1", "ConfigMap", |e| e.bytes_field(1, b"x"));
        assert_eq!(&bytes[..4], MAGIC);
        let envelope = decode_envelope(&bytes).unwrap();
        assert_eq!(envelope.api_version, "v1");
        assert_eq!(envelope.kind, "ConfigMap");
        assert_eq!(envelope.raw, b"\x0a\x01x");
        assert_eq!(&bytes[envelope.raw_offset..][..3], b"\x0a\x01x");
        assert_eq!(envelope.content_type, "");
    }

    #[test]
    fn an_encoded_message_gets_the_same_envelope() {
        let raw = vec![7u8; 300];
        assert_eq!(
            encode_envelope_raw("apps/v1", "DeploymentList", &raw),
            encode_envelope("apps/v1", "DeploymentList", |e| e.raw(&raw))
        );
    }

    #[test]
    fn bad_envelopes_are_errors() {
        assert_eq!(
            decode_envelope(b"k8s").unwrap_err().kind(),
            &ProtobufErrorKind::MissingMagic
        );
        let e = decode_envelope(b"k8s\0\x12\x05ab").unwrap_err();
        assert_eq!(e.offset(), 5);
        assert!(matches!(e.kind(), ProtobufErrorKind::LengthPastEnd(5)));
        let e = decode_envelope(b"k8s\0\x08\x01").unwrap_err();
        assert_eq!(e.path(), "typeMeta");
    }
}
