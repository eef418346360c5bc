//! The JSON decode of one registered type, monomorphized: what an
//! [`ObjectType`](crate::runtime::ObjectType) carries so that the serializer reads a
//! typed object with `serde_json` straight into the concrete type. (Encoding needs no
//! entry here: every object writes itself through
//! [`Object::encode_json`](crate::runtime::Object::encode_json).)
//!
//! These functions are instantiated once per type by
//! [`ObjectType::of`](crate::runtime::ObjectType::of), with no code in the derive; the
//! other decoder every type is compiled for reads a parsed `serde_json::Value`
//! ([`from_value_tracking`](crate::runtime::unstructured::from_value_tracking)).

use serde::de::DeserializeOwned;

use super::Object;
use super::type_meta_tap::{SeenTypeMeta, TypeMetaTap};

/// An object decoded from JSON text, with the top-level `apiVersion` and `kind` the
/// decode met.
pub(crate) struct DecodedJson<'de> {
    pub object: Box<dyn Object>,
    pub seen: SeenTypeMeta<'de>,
}

/// Decodes one whole JSON document as one type.
pub(crate) type DecodeJsonFn =
    for<'de> fn(&'de [u8]) -> Result<DecodedJson<'de>, serde_json::Error>;

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
