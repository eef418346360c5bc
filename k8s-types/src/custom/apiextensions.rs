//! The apiextensions types whose JSON is not a struct's: [`JSON`] (any JSON value) and the
//! three unions of a schema with something else, written as Go's `MarshalJSON` writes
//! them. The generated `apiextensions::v1` and `v1beta1` modules use them with their own
//! `JSONSchemaProps` as `P`.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Serialize, Serializer};

use apimachinery::runtime::json_reader::{self, ReadJson, ValueReader};
use apimachinery::util::json::{GoJsonWriter, WriteJson};

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

/// An empty list of property names is `null`, as Go's `MarshalJSON` writes a value with
/// neither schema nor names (what Go reads `null` and `[]` as alike).
impl<P: Serialize> Serialize for JSONSchemaPropsOrStringArray<P> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Schema(s) => s.serialize(serializer),
            Self::Property(v) if v.is_empty() => serializer.serialize_none(),
            Self::Property(v) => v.serialize(serializer),
        }
    }
}

/// Which JSON shapes a union accepts, and how it is named in errors.
struct UnionVisitor<P, T> {
    expecting: &'static str,
    from_bool: Option<fn(bool) -> T>,
    /// What `null` is, for a union that reads it.
    from_null: Option<fn() -> T>,
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

    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        match self.from_null {
            Some(from) => Ok(from()),
            None => Err(E::invalid_type(de::Unexpected::Unit, &self)),
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
            from_null: None,
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
            from_null: None,
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
            // Go reads `null` as neither schema nor names, and writes that as `null`.
            from_null: Some(|| Self::Property(Vec::new())),
            from_map: |p| Self::Schema(Box::new(p)),
            marker: PhantomData,
        })
    }
}

// The scheme's decode (`ReadJson`): the same shapes and messages as the serde impls
// above, read straight from the reader, so that the scheme does not instantiate the
// schemas' serde visitors.

impl ReadJson for JSON {
    fn read_json(value: ValueReader<'_, '_, '_>) -> Result<Self, json_reader::Error> {
        serde_json::Value::read_json(value).map(JSON)
    }
}

impl<P: ReadJson + Default> ReadJson for JSONSchemaPropsOrArray<P> {
    fn read_json(mut value: ValueReader<'_, '_, '_>) -> Result<Self, json_reader::Error> {
        match value.peek_byte()? {
            b'{' => P::read_json(value).map(|p| Self::Schema(Box::new(p))),
            b'[' => Vec::<P>::read_json(value).map(Self::Schemas),
            _ => Err(value.refuse("a schema object or an array of schemas")),
        }
    }
}

impl<P: ReadJson> ReadJson for JSONSchemaPropsOrBool<P> {
    fn read_json(mut value: ValueReader<'_, '_, '_>) -> Result<Self, json_reader::Error> {
        match value.peek_byte()? {
            b'{' => P::read_json(value).map(|p| Self::Schema(Box::new(p))),
            b't' | b'f' => value.read_bool().map(Self::Allows),
            _ => Err(value.refuse("a schema object or a boolean")),
        }
    }
}

impl<P: ReadJson> ReadJson for JSONSchemaPropsOrStringArray<P> {
    fn read_json(mut value: ValueReader<'_, '_, '_>) -> Result<Self, json_reader::Error> {
        match value.peek_byte()? {
            b'{' => P::read_json(value).map(|p| Self::Schema(Box::new(p))),
            b'[' => Vec::<String>::read_json(value).map(Self::Property),
            _ => Err(value.refuse("a schema object or an array of property names")),
        }
    }
}

// The scheme's encode (`WriteJson`): the same text as the serde impls above, without
// instantiating the schemas' `Serialize` for the JSON writer.

apimachinery::write_json_by_serde!(JSON);

impl<P: WriteJson> WriteJson for JSONSchemaPropsOrArray<P> {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), serde_json::Error> {
        match self {
            Self::Schema(s) => s.write_json(writer),
            Self::Schemas(v) => v.write_json(writer),
        }
    }
}

impl<P: WriteJson> WriteJson for JSONSchemaPropsOrBool<P> {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), serde_json::Error> {
        match self {
            Self::Allows(b) => b.write_json(writer),
            Self::Schema(s) => s.write_json(writer),
        }
    }
}

impl<P: WriteJson> WriteJson for JSONSchemaPropsOrStringArray<P> {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), serde_json::Error> {
        match self {
            Self::Schema(s) => s.write_json(writer),
            Self::Property(v) if v.is_empty() => None::<bool>.write_json(writer),
            Self::Property(v) => v.write_json(writer),
        }
    }
}

// `JSON` is the same in every version; the unions convert with their schemas (`v1beta1`'s
// `JSONSchemaProps` to `v1`'s and back).
apimachinery::identity_conversion!(JSON);

mod conversion {
    use apimachinery::conversion::{ConversionError, Convert, Scope};

    use super::{JSONSchemaPropsOrArray, JSONSchemaPropsOrBool, JSONSchemaPropsOrStringArray};

    impl<P: Convert<Q> + 'static, Q: 'static> Convert<JSONSchemaPropsOrArray<Q>>
        for JSONSchemaPropsOrArray<P>
    {
        fn convert(self, scope: &Scope<'_>) -> Result<JSONSchemaPropsOrArray<Q>, ConversionError> {
            Ok(match self {
                Self::Schema(p) => JSONSchemaPropsOrArray::Schema(p.convert(scope)?),
                Self::Schemas(ps) => JSONSchemaPropsOrArray::Schemas(ps.convert(scope)?),
            })
        }

        fn convert_ref(
            &self,
            scope: &Scope<'_>,
        ) -> Result<JSONSchemaPropsOrArray<Q>, ConversionError> {
            Ok(match self {
                Self::Schema(p) => JSONSchemaPropsOrArray::Schema(p.convert_ref(scope)?),
                Self::Schemas(ps) => JSONSchemaPropsOrArray::Schemas(ps.convert_ref(scope)?),
            })
        }
    }

    impl<P: Convert<Q> + 'static, Q: 'static> Convert<JSONSchemaPropsOrBool<Q>>
        for JSONSchemaPropsOrBool<P>
    {
        fn convert(self, scope: &Scope<'_>) -> Result<JSONSchemaPropsOrBool<Q>, ConversionError> {
            Ok(match self {
                Self::Allows(b) => JSONSchemaPropsOrBool::Allows(b),
                Self::Schema(p) => JSONSchemaPropsOrBool::Schema(p.convert(scope)?),
            })
        }

        fn convert_ref(
            &self,
            scope: &Scope<'_>,
        ) -> Result<JSONSchemaPropsOrBool<Q>, ConversionError> {
            Ok(match self {
                Self::Allows(b) => JSONSchemaPropsOrBool::Allows(*b),
                Self::Schema(p) => JSONSchemaPropsOrBool::Schema(p.convert_ref(scope)?),
            })
        }
    }

    impl<P: Convert<Q> + 'static, Q: 'static> Convert<JSONSchemaPropsOrStringArray<Q>>
        for JSONSchemaPropsOrStringArray<P>
    {
        fn convert(
            self,
            scope: &Scope<'_>,
        ) -> Result<JSONSchemaPropsOrStringArray<Q>, ConversionError> {
            Ok(match self {
                Self::Schema(p) => JSONSchemaPropsOrStringArray::Schema(p.convert(scope)?),
                Self::Property(names) => JSONSchemaPropsOrStringArray::Property(names),
            })
        }

        fn convert_ref(
            &self,
            scope: &Scope<'_>,
        ) -> Result<JSONSchemaPropsOrStringArray<Q>, ConversionError> {
            Ok(match self {
                Self::Schema(p) => JSONSchemaPropsOrStringArray::Schema(p.convert_ref(scope)?),
                Self::Property(names) => JSONSchemaPropsOrStringArray::Property(names.clone()),
            })
        }
    }
}

// The protobuf encoding of these types, as Go's hand-written marshalers for them write
// it (field numbers from `apiextensions/v1/generated.proto`).
mod protobuf {
    use apimachinery::proto::{
        Field, Message, ProtobufError, ProtobufErrorKind, WireDecoder, WireEncoder, WireType,
    };

    use super::{
        JSON, JSONSchemaPropsOrArray, JSONSchemaPropsOrBool, JSONSchemaPropsOrStringArray,
    };

    // The zero values a message is read into: Go's zero struct (no schema, nothing else).
    impl<P> Default for JSONSchemaPropsOrArray<P> {
        fn default() -> Self {
            JSONSchemaPropsOrArray::Schemas(Vec::new())
        }
    }

    impl<P> Default for JSONSchemaPropsOrBool<P> {
        fn default() -> Self {
            JSONSchemaPropsOrBool::Allows(false)
        }
    }

    impl<P> Default for JSONSchemaPropsOrStringArray<P> {
        fn default() -> Self {
            JSONSchemaPropsOrStringArray::Property(Vec::new())
        }
    }

    /// `JSON` is `{raw = 1}`, the value's JSON text as Go's `json.Marshal` writes it
    /// (`<`, `>`, `&` escaped, Go's number format), which is what Go's conversion from the
    /// internal version puts there.
    impl Message for JSON {
        fn encode_fields(&self, e: &mut WireEncoder) {
            let mut raw = Vec::new();
            // Writing a `serde_json::Value` cannot fail.
            let _ = apimachinery::util::json::encode_go_json(
                &self.0,
                &mut raw,
                apimachinery::util::json::JsonLayout::Compact,
            );
            e.bytes_field(1, &raw);
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
            let mut raw = apimachinery::api::ByteString::default();
            let at = d.offset();
            raw.merge_from(wire, d).map_err(|e| e.in_field("raw"))?;
            self.0 = if raw.0.is_empty() {
                serde_json::Value::Null
            } else {
                serde_json::from_slice(&raw.0).map_err(|err| {
                    ProtobufError::new(at, ProtobufErrorKind::Invalid(format!("not JSON: {err}")))
                        .in_field("raw")
                })?
            };
            Ok(true)
        }
    }

    /// `{schema = 1, jSONSchemas = 2}`.
    impl<P: Message + Default> Message for JSONSchemaPropsOrArray<P> {
        fn encode_fields(&self, e: &mut WireEncoder) {
            match self {
                JSONSchemaPropsOrArray::Schema(schema) => schema.encode_field(1, e),
                JSONSchemaPropsOrArray::Schemas(schemas) => schemas.encode_field(2, e),
            }
        }

        fn merge_field(
            &mut self,
            number: u32,
            wire: WireType,
            d: &mut WireDecoder<'_>,
        ) -> Result<bool, ProtobufError> {
            match number {
                1 => {
                    let mut schema = Box::<P>::default();
                    schema
                        .merge_from(wire, d)
                        .map_err(|e| e.in_field("schema"))?;
                    *self = JSONSchemaPropsOrArray::Schema(schema);
                }
                2 => {
                    if !matches!(self, JSONSchemaPropsOrArray::Schemas(_)) {
                        *self = JSONSchemaPropsOrArray::Schemas(Vec::new());
                    }
                    if let JSONSchemaPropsOrArray::Schemas(schemas) = self {
                        schemas
                            .merge_from(wire, d)
                            .map_err(|e| e.in_field("jSONSchemas"))?;
                    }
                }
                _ => return Ok(false),
            }
            Ok(true)
        }
    }

    /// `{allows = 1, schema = 2}`; Go sets `allows` with a schema too.
    impl<P: Message + Default> Message for JSONSchemaPropsOrBool<P> {
        fn encode_fields(&self, e: &mut WireEncoder) {
            match self {
                JSONSchemaPropsOrBool::Allows(allows) => allows.encode_field(1, e),
                JSONSchemaPropsOrBool::Schema(schema) => {
                    true.encode_field(1, e);
                    schema.encode_field(2, e);
                }
            }
        }

        fn merge_field(
            &mut self,
            number: u32,
            wire: WireType,
            d: &mut WireDecoder<'_>,
        ) -> Result<bool, ProtobufError> {
            match number {
                1 => {
                    let mut allows = false;
                    allows
                        .merge_from(wire, d)
                        .map_err(|e| e.in_field("allows"))?;
                    if let JSONSchemaPropsOrBool::Allows(a) = self {
                        *a = allows;
                    }
                }
                2 => {
                    let mut schema = Box::<P>::default();
                    schema
                        .merge_from(wire, d)
                        .map_err(|e| e.in_field("schema"))?;
                    *self = JSONSchemaPropsOrBool::Schema(schema);
                }
                _ => return Ok(false),
            }
            Ok(true)
        }
    }

    /// `{schema = 1, property = 2}`.
    impl<P: Message + Default> Message for JSONSchemaPropsOrStringArray<P> {
        fn encode_fields(&self, e: &mut WireEncoder) {
            match self {
                JSONSchemaPropsOrStringArray::Schema(schema) => schema.encode_field(1, e),
                JSONSchemaPropsOrStringArray::Property(names) => names.encode_field(2, e),
            }
        }

        fn merge_field(
            &mut self,
            number: u32,
            wire: WireType,
            d: &mut WireDecoder<'_>,
        ) -> Result<bool, ProtobufError> {
            match number {
                1 => {
                    let mut schema = Box::<P>::default();
                    schema
                        .merge_from(wire, d)
                        .map_err(|e| e.in_field("schema"))?;
                    *self = JSONSchemaPropsOrStringArray::Schema(schema);
                }
                2 => {
                    if !matches!(self, JSONSchemaPropsOrStringArray::Property(_)) {
                        *self = JSONSchemaPropsOrStringArray::Property(Vec::new());
                    }
                    if let JSONSchemaPropsOrStringArray::Property(names) = self {
                        names
                            .merge_from(wire, d)
                            .map_err(|e| e.in_field("property"))?;
                    }
                }
                _ => return Ok(false),
            }
            Ok(true)
        }
    }
}
