//! The apiextensions types whose JSON is not a struct's: [`JSON`] (any JSON value) and the
//! three unions of a schema with something else, written as Go's `MarshalJSON` writes
//! them. The generated `apiextensions::v1` and `v1beta1` modules use them with their own
//! `JSONSchemaProps` as `P`.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Serialize, Serializer};

/// Any JSON value (Go's `apiextensions.JSON`), such as a schema's `default` or `example`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct JSON(pub serde_json::Value);

/// A schema, or a list of schemas (the `items` of an array schema).
///
/// ```
/// use k8s_types::apiextensions::v1::{JSONSchemaProps, JSONSchemaPropsOrArray};
///
/// let one: JSONSchemaPropsOrArray = serde_json::from_str(r#"{"type":"string"}"#)?;
/// assert!(matches!(one, JSONSchemaPropsOrArray::Schema(_)));
/// let many: JSONSchemaPropsOrArray = serde_json::from_str(r#"[{"type":"string"},{}]"#)?;
/// assert!(matches!(&many, JSONSchemaPropsOrArray::Schemas(s) if s.len() == 2));
/// assert_eq!(serde_json::to_string(&many)?, r#"[{"type":"string"},{}]"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum JSONSchemaPropsOrArray<P> {
    /// One schema for every item.
    Schema(Box<P>),
    /// One schema per position.
    Schemas(Vec<P>),
}

/// A schema, or a boolean allowing (`true`) or forbidding (`false`) anything (for
/// `additionalProperties` and `additionalItems`).
#[derive(Clone, Debug, PartialEq)]
pub enum JSONSchemaPropsOrBool<P> {
    /// Anything is allowed, or nothing.
    Allows(bool),
    /// Allowed when matching the schema.
    Schema(Box<P>),
}

/// A schema, or a list of property names (a `dependencies` entry).
#[derive(Clone, Debug, PartialEq)]
pub enum JSONSchemaPropsOrStringArray<P> {
    /// The dependent schema.
    Schema(Box<P>),
    /// The properties required alongside.
    Property(Vec<String>),
}

impl<P: Serialize> Serialize for JSONSchemaPropsOrArray<P> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Schema(s) => s.serialize(serializer),
            Self::Schemas(v) => v.serialize(serializer),
        }
    }
}

impl<P: Serialize> Serialize for JSONSchemaPropsOrBool<P> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Allows(b) => serializer.serialize_bool(*b),
            Self::Schema(s) => s.serialize(serializer),
        }
    }
}

impl<P: Serialize> Serialize for JSONSchemaPropsOrStringArray<P> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Schema(s) => s.serialize(serializer),
            Self::Property(v) => v.serialize(serializer),
        }
    }
}

/// Which JSON shapes a union accepts, and how it is named in errors.
struct UnionVisitor<P, T> {
    expecting: &'static str,
    from_bool: Option<fn(bool) -> T>,
    from_map: fn(P) -> T,
    marker: PhantomData<P>,
}

impl<'de, P: Deserialize<'de>, T: FromSeq<'de>> Visitor<'de> for UnionVisitor<P, T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<T, E> {
        match self.from_bool {
            Some(from) => Ok(from(v)),
            None => Err(E::invalid_type(de::Unexpected::Bool(v), &self)),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        P::deserialize(MapAccessDeserializer::new(map)).map(self.from_map)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::from_seq(seq, &self)
    }
}

/// How a union reads a JSON array.
trait FromSeq<'de>: Sized {
    fn from_seq<A: SeqAccess<'de>>(seq: A, exp: &dyn de::Expected) -> Result<Self, A::Error>;
}

impl<'de, P: Deserialize<'de>> FromSeq<'de> for JSONSchemaPropsOrArray<P> {
    fn from_seq<A: SeqAccess<'de>>(seq: A, _: &dyn de::Expected) -> Result<Self, A::Error> {
        Vec::deserialize(SeqAccessDeserializer::new(seq)).map(Self::Schemas)
    }
}

impl<'de, P> FromSeq<'de> for JSONSchemaPropsOrBool<P> {
    fn from_seq<A: SeqAccess<'de>>(_: A, exp: &dyn de::Expected) -> Result<Self, A::Error> {
        Err(de::Error::invalid_type(de::Unexpected::Seq, exp))
    }
}

impl<'de, P> FromSeq<'de> for JSONSchemaPropsOrStringArray<P> {
    fn from_seq<A: SeqAccess<'de>>(seq: A, _: &dyn de::Expected) -> Result<Self, A::Error> {
        Vec::deserialize(SeqAccessDeserializer::new(seq)).map(Self::Property)
    }
}

impl<'de, P: Deserialize<'de>> Deserialize<'de> for JSONSchemaPropsOrArray<P> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(UnionVisitor {
            expecting: "a schema object or an array of schemas",
            from_bool: None,
            from_map: |p| Self::Schema(Box::new(p)),
            marker: PhantomData,
        })
    }
}

impl<'de, P: Deserialize<'de>> Deserialize<'de> for JSONSchemaPropsOrBool<P> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(UnionVisitor {
            expecting: "a schema object or a boolean",
            from_bool: Some(Self::Allows),
            from_map: |p| Self::Schema(Box::new(p)),
            marker: PhantomData,
        })
    }
}

impl<'de, P: Deserialize<'de>> Deserialize<'de> for JSONSchemaPropsOrStringArray<P> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(UnionVisitor {
            expecting: "a schema object or an array of property names",
            from_bool: None,
            from_map: |p| Self::Schema(Box::new(p)),
            marker: PhantomData,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apiextensions::v1::JSONSchemaProps;

    type OrBool = JSONSchemaPropsOrBool<JSONSchemaProps>;
    type OrStrings = JSONSchemaPropsOrStringArray<JSONSchemaProps>;

    #[test]
    fn unions_round_trip_each_shape() {
        for text in ["true", "false", r#"{"type":"object"}"#] {
            let v: OrBool = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::to_string(&v).unwrap(), text);
        }
        for text in [r#"["a","b"]"#, r#"{"minLength":1}"#] {
            let v: OrStrings = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::to_string(&v).unwrap(), text);
        }
    }

    #[test]
    fn wrong_shapes_are_errors_naming_what_was_expected() {
        let e = serde_json::from_str::<OrBool>("[1]").unwrap_err();
        assert!(
            e.to_string().contains("a schema object or a boolean"),
            "{e}"
        );
        let e = serde_json::from_str::<OrStrings>("3").unwrap_err();
        assert!(e.to_string().contains("array of property names"), "{e}");
        let e = serde_json::from_str::<OrStrings>(r#"[1]"#).unwrap_err();
        assert!(e.to_string().contains("string"), "{e}");
    }

    #[test]
    fn json_keeps_any_value() {
        let v: JSON = serde_json::from_str(r#"{"a":[1,"x",null]}"#).unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"a":[1,"x",null]}"#);
    }
}
