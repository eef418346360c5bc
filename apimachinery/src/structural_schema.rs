//! [`StructuralSchema`]: the OpenAPI v3 schema of a Rust type as a CustomResourceDefinition
//! declares it (`openAPIV3Schema`), so that a CRD is generated from the types that read
//! and write its objects and the two cannot disagree.
//!
//! Implemented here for the scalars, `String`, `Option`, `Box`, `Vec`, string-keyed maps,
//! [`Quantity`], [`IntOrString`], [`Time`], [`MicroTime`], [`ObjectMeta`] (`type:
//! object`, as controller-gen writes it: the server validates metadata itself) and
//! `serde_json::Value` (anything: `x-kubernetes-preserve-unknown-fields`), with the
//! formats and `x-kubernetes-*` markers controller-gen gives Go's types.
//! `#[derive(StructuralSchema)]` writes it for a struct of named fields, with the JSON
//! names `#[derive(ApiType)]`/`#[derive(ApiObject)]` use and the doc comments as
//! descriptions. It is opt-in: types that do not derive it get no code.
//!
//! ```
//! use apimachinery::{ApiType, StructuralSchema, structural_schema::StructuralSchema as _};
//!
//! /// How a gadget looks.
//! #[derive(ApiType, StructuralSchema, Clone, Debug, Default, PartialEq)]
//! pub struct Style {
//!     /// Its colour.
//!     pub colour: String,
//!     pub coats: Option<i32>,
//!     #[api(rename = "labels")]
//!     pub tags: std::collections::BTreeMap<String, String>,
//! }
//!
//! assert_eq!(Style::openapi_v3_schema(), serde_json::json!({
//!     "type": "object",
//!     "description": "How a gadget looks.",
//!     "properties": {
//!         "colour": {"type": "string", "description": "Its colour."},
//!         "coats": {"type": "integer", "format": "int32"},
//!         "labels": {"type": "object", "additionalProperties": {"type": "string"}},
//!     },
//! }));
//! ```
//!
//! Not covered: Rust enums (write the trait by hand, with an `enum:` list), `Vec<u8>`
//! (Go's `[]byte`, `format: byte`: implement it on a newtype), `required` (a missing
//! field reads as its zero value, so none is required), validation markers
//! (`minimum`, `pattern`, ...) and `x-kubernetes-validations` rules.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value, json};

use crate::api::resource::Quantity;
use crate::apis::meta::v1::{MicroTime, ObjectMeta, Time};
use crate::util::intstr::IntOrString;

/// A type's OpenAPI v3 schema, as a CRD's `openAPIV3Schema` (or one of its
/// properties) declares it. The schema is structural: every level has a `type`, except
/// where an `x-kubernetes-int-or-string` or `x-kubernetes-preserve-unknown-fields`
/// marker stands for it.
pub trait StructuralSchema {
    /// The schema, as JSON.
    fn openapi_v3_schema() -> Value;
}

macro_rules! scalar {
    ($($t:ty => $schema:tt),* $(,)?) => {
        $(impl StructuralSchema for $t {
            fn openapi_v3_schema() -> Value {
                json!($schema)
            }
        })*
    };
}

scalar! {
    bool => {"type": "boolean"},
    i8 => {"type": "integer"},
    i16 => {"type": "integer"},
    i32 => {"type": "integer", "format": "int32"},
    i64 => {"type": "integer", "format": "int64"},
    u8 => {"type": "integer"},
    u16 => {"type": "integer"},
    u32 => {"type": "integer", "format": "int32"},
    u64 => {"type": "integer", "format": "int64"},
    f32 => {"type": "number", "format": "float"},
    f64 => {"type": "number", "format": "double"},
    String => {"type": "string"},
    // The RFC 3339 instants, as controller-gen writes metav1.Time and MicroTime.
    Time => {"type": "string", "format": "date-time"},
    MicroTime => {"type": "string", "format": "date-time"},
    // The server validates metadata itself; the schema says only that it is an object.
    ObjectMeta => {"type": "object"},
    IntOrString => {
        "anyOf": [{"type": "integer"}, {"type": "string"}],
        "x-kubernetes-int-or-string": true,
    },
    // controller-gen's schema of resource.Quantity: a number or a string of its syntax.
    Quantity => {
        "anyOf": [{"type": "integer"}, {"type": "string"}],
        "pattern": r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$",
        "x-kubernetes-int-or-string": true,
    },
    Value => {"x-kubernetes-preserve-unknown-fields": true},
}

/// Go's pointers: the same schema (an absent field and `null` both read as unset).
impl<T: StructuralSchema> StructuralSchema for Option<T> {
    fn openapi_v3_schema() -> Value {
        T::openapi_v3_schema()
    }
}

impl<T: StructuralSchema> StructuralSchema for Box<T> {
    fn openapi_v3_schema() -> Value {
        T::openapi_v3_schema()
    }
}

impl<T: StructuralSchema> StructuralSchema for Vec<T> {
    fn openapi_v3_schema() -> Value {
        json!({"type": "array", "items": T::openapi_v3_schema()})
    }
}

impl<T: StructuralSchema> StructuralSchema for BTreeMap<String, T> {
    fn openapi_v3_schema() -> Value {
        json!({"type": "object", "additionalProperties": T::openapi_v3_schema()})
    }
}

impl<T: StructuralSchema, S> StructuralSchema for HashMap<String, T, S> {
    fn openapi_v3_schema() -> Value {
        json!({"type": "object", "additionalProperties": T::openapi_v3_schema()})
    }
}

/// The schema of a struct, from its properties: `(JSON name, description, schema)`. An empty description is left out. What
/// `#[derive(StructuralSchema)]` calls; kept here so that the derive's expansion stays a
/// list of fields.
pub fn object(description: &str, properties: Vec<(&str, &str, Value)>) -> Value {
    let mut props = Map::new();
    for (name, description, schema) in properties {
        props.insert(name.to_owned(), with_description(schema, description));
    }
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    if !description.is_empty() {
        schema.insert("description".into(), description.into());
    }
    schema.insert("properties".into(), Value::Object(props));
    Value::Object(schema)
}

/// `schema` with `description` set, unless empty (a field's own doc comment wins over
/// its type's).
pub fn with_description(mut schema: Value, description: &str) -> Value {
    if let (Value::Object(map), false) = (&mut schema, description.is_empty()) {
        map.insert("description".into(), description.into());
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_and_containers_have_controller_gens_shapes() {
        assert_eq!(
            <Option<Vec<i64>>>::openapi_v3_schema(),
            json!({"type": "array", "items": {"type": "integer", "format": "int64"}})
        );
        assert_eq!(
            <BTreeMap<String, Quantity>>::openapi_v3_schema()["additionalProperties"]["x-kubernetes-int-or-string"],
            true
        );
        assert_eq!(
            IntOrString::openapi_v3_schema(),
            json!({"anyOf": [{"type": "integer"}, {"type": "string"}],
                   "x-kubernetes-int-or-string": true})
        );
        assert_eq!(Time::openapi_v3_schema()["format"], "date-time");
        assert_eq!(ObjectMeta::openapi_v3_schema(), json!({"type": "object"}));
        assert_eq!(
            <Box<f64>>::openapi_v3_schema(),
            json!({"type": "number", "format": "double"})
        );
    }

    /// A generic struct: its parameter's schema is its field's.
    #[derive(crate::StructuralSchema)]
    #[api(crate = "crate")]
    #[allow(dead_code)]
    struct Pair<T> {
        /// The left one.
        left: T,
        right: Option<T>,
    }

    /// An object: `apiVersion` and `kind` come with `metadata`.
    #[derive(crate::StructuralSchema)]
    #[api(crate = "crate")]
    #[allow(dead_code)]
    struct Holder {
        /// Its metadata: the schema keeps no description of it (Go's CRD validation
        /// forbids anything but `type: object` there).
        metadata: ObjectMeta,
        pair: Pair<bool>,
    }

    #[test]
    fn the_derive_follows_fields_generics_and_objects() {
        assert_eq!(
            <Pair<i32>>::openapi_v3_schema(),
            json!({"type": "object", "description": "A generic struct: its parameter's schema is its field's.",
                   "properties": {
                       "left": {"type": "integer", "format": "int32", "description": "The left one."},
                       "right": {"type": "integer", "format": "int32"}}})
        );
        let holder = Holder::openapi_v3_schema();
        let keys: Vec<&String> = holder["properties"]
            .as_object()
            .map(|m| m.keys().collect())
            .unwrap_or_default();
        assert_eq!(keys, ["apiVersion", "kind", "metadata", "pair"]);
        assert_eq!(holder["properties"]["metadata"], json!({"type": "object"}));
        assert_eq!(
            holder["properties"]["pair"]["properties"]["left"]["type"],
            "boolean"
        );
    }

    #[test]
    fn objects_carry_their_properties_and_descriptions() {
        let schema = object(
            "A thing.",
            vec![
                ("b", "", String::openapi_v3_schema()),
                ("a", "The a.", bool::openapi_v3_schema()),
            ],
        );
        let keys: Vec<&String> = schema["properties"]
            .as_object()
            .map(|m| m.keys().collect())
            .unwrap_or_default();
        assert_eq!(keys, ["a", "b"]);
        assert_eq!(schema["properties"]["a"]["description"], "The a.");
        assert!(schema["properties"]["b"].get("description").is_none());
        assert_eq!(schema["description"], "A thing.");
    }
}
