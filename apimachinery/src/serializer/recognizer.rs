//! [`RecognizingDecoder`]: a decoder that looks at the bytes to pick the format (Go's
//! `runtime/serializer/recognizer`).

use super::json::JsonSerializer;
use super::protobuf::ProtobufSerializer;
use super::{DecodeError, Decoder, Format};
use crate::runtime::Object;
use crate::schema::GroupVersionKind;

/// The magic number that starts the Kubernetes protobuf envelope.
pub use crate::proto::MAGIC as PROTOBUF_MAGIC;

/// Which format a document is in, by its first bytes: the protobuf envelope's magic
/// number, JSON when the first non-whitespace byte is `{` (Go's `IsJSONBuffer`), YAML
/// otherwise (YAML is the only format that cannot be recognized, so it is what is left).
pub fn recognize(data: &[u8]) -> Format {
    if data.starts_with(PROTOBUF_MAGIC.as_slice()) {
        return Format::Protobuf;
    }
    match data.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') => Format::Json,
        _ => Format::Yaml,
    }
}

/// Decodes JSON, YAML (and protobuf, once that serializer exists) by recognizing the
/// format from the bytes; what the codec factory's universal deserializer is.
#[derive(Clone, Debug)]
pub struct RecognizingDecoder<'s> {
    json: JsonSerializer<'s>,
    yaml: JsonSerializer<'s>,
    protobuf: ProtobufSerializer<'s>,
}

impl<'s> RecognizingDecoder<'s> {
    /// A decoder trying `json` for JSON and `yaml` for YAML.
    pub fn new(
        json: JsonSerializer<'s>,
        yaml: JsonSerializer<'s>,
        protobuf: ProtobufSerializer<'s>,
    ) -> Self {
        RecognizingDecoder {
            json,
            yaml,
            protobuf,
        }
    }
}

impl Decoder for RecognizingDecoder<'_> {
    fn decode(
        &self,
        data: &[u8],
        defaults: Option<&GroupVersionKind>,
        into: Option<&mut dyn Object>,
    ) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
        match recognize(data) {
            Format::Json => self.json.decode(data, defaults, into),
            Format::Yaml => self.yaml.decode(data, defaults, into),
            Format::Protobuf => self.protobuf.decode(data, defaults, into),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_recognized_by_their_first_bytes() {
        assert_eq!(recognize(b" \n\t{\"a\":1}"), Format::Json);
        assert_eq!(recognize(b"a: 1"), Format::Yaml);
        assert_eq!(recognize(b"[1]"), Format::Yaml);
        assert_eq!(recognize(b""), Format::Yaml);
        assert_eq!(recognize(b"k8s\0\x0a"), Format::Protobuf);
    }
}
