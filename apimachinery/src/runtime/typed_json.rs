//! The JSON decode of one registered type, monomorphized: what an
//! [`ObjectType`](crate::runtime::ObjectType) carries so that the serializer reads a
//! typed object straight into the concrete type. (Encoding needs no entry here: every
//! object writes itself through
//! [`Object::encode_json`](crate::runtime::Object::encode_json).)
//!
//! These functions are instantiated once per type by
//! [`ObjectType::of`](crate::runtime::ObjectType::of), with no code in the derive. The
//! decode is the only decoder every type is compiled for: its
//! [`ReadJson`](super::json_reader::ReadJson) over the [`json_reader`](super::json_reader),
//! which also names the path of a failure and, on request, the fields the type ignored;
//! a parsed `serde_json::Value` is written back to text and read by it too. The types'
//! serde `Deserialize` is not instantiated by the scheme.

use super::Object;
use super::json_reader::{self, ReadError, ReadJson, SeenTypeMeta};

/// An object decoded from JSON text, with the top-level `apiVersion` and `kind` the
/// decode met and, when asked for, the paths of the fields its type ignored.
pub(crate) struct DecodedJson<'de> {
    pub object: Box<dyn Object>,
    pub seen: SeenTypeMeta<'de>,
    pub unknown_fields: Vec<String>,
    /// With unknown-field tracking: the reader vouches that no key repeats.
    pub no_duplicate_keys: bool,
}

/// Decodes one whole JSON document as one type; the flag asks for the unknown fields.
pub(crate) type DecodeJsonFn = for<'de> fn(&'de [u8], bool) -> Result<DecodedJson<'de>, ReadError>;

/// The per-type decode: provided methods, so that each type's copy is compiled in its
/// own module's codegen unit (see `registration::TypeShims`).
pub(crate) trait DecodeJson: Object + ReadJson {
    /// Reads `data` as a `Self`, trailing whitespace allowed and nothing else.
    ///
    /// Per type only this call and [`read_boxed`](Self::read_boxed); the document (the
    /// reader, its checks, what it found) is handled by non-generic code.
    fn decode_json(data: &[u8], track_unknown: bool) -> Result<DecodedJson<'_>, ReadError> {
        decode_boxed(data, track_unknown, Self::read_boxed)
    }

    /// A `Self` read and boxed as an object.
    fn read_boxed(
        value: json_reader::ValueReader<'_, '_, '_>,
    ) -> Result<Box<dyn Object>, json_reader::Error> {
        match Self::read_json(value) {
            Ok(object) => Ok(Box::new(object)),
            Err(e) => Err(e),
        }
    }
}

impl<T: Object + ReadJson> DecodeJson for T {}

#[inline(never)]
fn decode_boxed(
    data: &[u8],
    track_unknown: bool,
    read: json_reader::ReadBoxedFn,
) -> Result<DecodedJson<'_>, ReadError> {
    let read = json_reader::read_slice_with(data, track_unknown, read)?;
    Ok(DecodedJson {
        object: read.value,
        seen: read.seen,
        unknown_fields: read.unknown_fields,
        no_duplicate_keys: read.no_duplicate_keys,
    })
}
