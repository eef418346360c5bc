//! The key reader of the serde implementations that `#[derive(ApiObject)]` and
//! `#[derive(ApiType)]` generate.
//!
//! serde's own derive gives every struct a field-identifier visitor of its own. When
//! objects are decoded through the scheme (`erased_serde`), each visitor type costs its
//! whole set of erased methods, about thirty, in the generated crate: a thousand
//! structs made that a large part of its build. Here one visitor serves every struct,
//! which passes a plain `fn` mapping a key to the index of its field.

use std::fmt;

use serde::de::{self, DeserializeSeed, Visitor};

/// Reads an object key as `Some(index)` of the field it names, `None` for a key the
/// struct does not have (ignored, as Go ignores it).
#[derive(Clone, Copy)]
pub struct FieldIndex(pub fn(&str) -> Option<usize>);

impl<'de> DeserializeSeed<'de> for FieldIndex {
    type Value = Option<usize>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for FieldIndex {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok((self.0)(v))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Self::Value, E> {
        // Keys that are not UTF-8 name no field.
        Ok(std::str::from_utf8(v).ok().and_then(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::value::{BytesDeserializer, Error, StrDeserializer};

    fn lookup(name: &str) -> Option<usize> {
        match name {
            "name" => Some(0),
            "apiVersion" => Some(1),
            _ => None,
        }
    }

    #[test]
    fn keys_map_to_their_field_index() {
        let read = |key: &str| FieldIndex(lookup).deserialize(StrDeserializer::<Error>::new(key));
        assert_eq!(read("name"), Ok(Some(0)));
        assert_eq!(read("apiVersion"), Ok(Some(1)));
        assert_eq!(read("Name"), Ok(None), "keys match exactly");
        assert_eq!(read(""), Ok(None));
    }

    #[test]
    fn byte_keys_are_read_as_text() {
        let read =
            |key: &[u8]| FieldIndex(lookup).deserialize(BytesDeserializer::<Error>::new(key));
        assert_eq!(read(b"name"), Ok(Some(0)));
        assert_eq!(read(b"\xff"), Ok(None));
    }
}
