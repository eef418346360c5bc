//! The JSON decode and encode of one registered type, monomorphized: what an
//! [`ObjectType`](crate::runtime::ObjectType) carries so that the serializer reads and
//! writes a typed object with `serde_json` straight into and out of the concrete type.
//!
//! These functions are instantiated once per type by
//! [`ObjectType::of`](crate::runtime::ObjectType::of), with no code in the derive; the
//! other decoder every type is compiled for reads a parsed `serde_json::Value`
//! ([`from_value_tracking`](crate::runtime::unstructured::from_value_tracking)).

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::Object;
use super::type_meta_tap::{SeenTypeMeta, TypeMetaTap};
use crate::util::json::GoFormatter;

/// An object decoded from JSON text, with the top-level `apiVersion` and `kind` the
/// decode met.
pub(crate) struct DecodedJson<'de> {
    pub object: Box<dyn Object>,
    pub seen: SeenTypeMeta<'de>,
}

/// Decodes one whole JSON document as one type.
pub(crate) type DecodeJsonFn =
    for<'de> fn(&'de [u8]) -> Result<DecodedJson<'de>, serde_json::Error>;

/// Encodes an object of one type as Go's JSON; `None` when the object is another type.
pub(crate) type EncodeJsonFn =
    fn(&dyn Object, &mut Vec<u8>, GoFormatter<'_>) -> Option<Result<(), serde_json::Error>>;

/// Reads `data` as a `T`, trailing whitespace allowed and nothing else.
pub(crate) fn decode_json<T: Object + DeserializeOwned>(
    data: &[u8],
) -> Result<DecodedJson<'_>, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(data);
    let mut seen = SeenTypeMeta::default();
    let value = T::deserialize(TypeMetaTap::new(&mut de, &mut seen))?;
    de.end()?;
    Ok(DecodedJson {
        object: Box::new(value),
        seen,
    })
}

/// Appends `obj`, when it is a `T`, to `out` with `formatter`'s layout.
pub(crate) fn encode_json<T: Object + Serialize>(
    obj: &dyn Object,
    out: &mut Vec<u8>,
    formatter: GoFormatter<'_>,
) -> Option<Result<(), serde_json::Error>> {
    let value = obj.downcast_ref::<T>()?;
    let mut ser = serde_json::Serializer::with_formatter(out, formatter);
    Some(value.serialize(&mut ser))
}
