//! Kubernetes API machinery for Rust: what Go's `k8s.io/apimachinery` is, with the same
//! package map.
//!
//! | module | Go package | what it holds |
//! | --- | --- | --- |
//! | [`schema`] | `runtime/schema` | group/version/kind/resource identifiers and parsing |
//! | [`runtime`] | `runtime` | [`Object`](runtime::Object), [`Scheme`](runtime::Scheme), [`Unstructured`](runtime::Unstructured) |
//! | [`conversion`] | `conversion` | version conversion ([`Convert`](conversion::Convert), [`Converter`](conversion::Converter)), defaulting, field-label conversion |
//! | [`serializer`] | `runtime/serializer` | JSON, YAML and protobuf serializers, codec traits, codec factory; [`serializer::yaml`] is Go's YAML text layer |
//! | [`proto`] | gogo `proto`, `generated.pb.go` | the protobuf wire format of objects |
//! | [`meta`] | `api/meta` | `RESTMapper` and its implementations |
//! | [`apis::meta::v1`] | `apis/meta/v1` | `ObjectMeta`, `ListMeta`, `Time`, `Status`, discovery documents |
//! | [`api::resource`] | `api/resource` | [`Quantity`](api::resource::Quantity) |
//! | [`api::errors`] | `api/errors` | [`StatusError`](api::errors::StatusError), Go's constructors (`new_not_found`, `new_invalid`, ...) and predicates (`is_not_found`, `is_conflict`, ...) |
//! | [`api`] | `encoding/json` for `[]byte` | [`ByteString`](api::ByteString) |
//! | [`util::intstr`] | `util/intstr` | [`IntOrString`](util::intstr::IntOrString) |
//! | [`util::json`] | `util/json`, `encoding/json` | [`GoJsonWriter`](util::json::GoJsonWriter) (and [`GoFormatter`](util::json::GoFormatter) for `serde_json`): JSON text as Go writes it |
//! | [`managedfields`] | `util/managedfields`, structured-merge-diff | `managedFields`, field sets (`FieldsV1`), server-side apply |
//! | [`util::strategicpatch`] | `util/strategicpatch` | Kubernetes' strategic merge patch |
//! | [`labels`], [`fields`] | `labels`, `fields` | label and field selectors |
//! | [`version`] | `version` | Kubernetes version ordering |
//!
//! # Layers
//!
//! Each module uses only the modules before it in this order (checked by
//! `tests/integration/module_layers.rs`):
//!
//! 1. [`schema`], [`version`], [`labels`], [`fields`], [`util`] (`intstr`, Go's JSON text
//!    in [`util::json`], `strategicpatch`), [`list_field`] (the generated types' list
//!    fields' `Clone` and `Debug`), and the scheme's error type
//!    ([`runtime::SchemeError`], defined down here because a conversion error can carry
//!    it);
//! 2. [`api`]: the value types (`Quantity`, `ByteString`);
//! 3. [`proto`]: the protobuf wire format, a trait types implement, as serde is;
//! 4. [`apis::meta::v1`], then [`managedfields`] (field sets and server-side apply, which
//!    read `meta/v1` times; Go keeps them under `util`) and [`structural_schema`] (CRD
//!    schemas of Rust types, which know `Quantity`, `Time` and `ObjectMeta`);
//! 5. [`conversion`]: conversion functions, defaulting and field labels;
//! 6. [`runtime`]: the object model, the `Scheme` (which holds the conversion and
//!    defaulting functions, and each type's JSON decode and encode as function pointers),
//!    `Unstructured`;
//! 7. [`meta`] (RESTMapper), [`serializer`] (the codecs) and [`api::errors`] (the
//!    `Status` of a failed request, which can be read from any object, so it sits above
//!    the object model though the rest of [`api`] is below it).
//!
//! The codecs are at the top: no value type, no `meta/v1` type and nothing of the object
//! model imports one. No module imports one above it, so there are no cycles.
//!
//! # Cargo features
//!
//! All three on by default; a program that reads and writes only typed JSON or protobuf
//! can turn them off (`default-features = false`), which cuts about half of this
//! crate's release build (`benchmarks/HISTORY.md`, "`apimachinery`'s cargo features"):
//!
//! - `yaml`: the YAML text layer ([`serializer::yaml`], with the `saphyr-parser`
//!   dependency), the JSON serializer's `yaml` option, YAML streams and the codec
//!   factory's `application/yaml`. Without it, reading or writing YAML fails with a
//!   decode or encode error that names the feature.
//! - `rest-mapper`: the [`meta`] module (the RESTMapper and its implementations).
//! - `apply`: [`managedfields`] (field sets, managers, server-side apply) and
//!   [`util::strategicpatch`] (strategic merge patch), what an API server merging writes
//!   needs.
//!
//! Method names are Go's in snake case (`add_known_types`, `object_kinds`, ...), except
//! that getters drop Go's `Get` prefix, as Rust getters do.
//!
//! # Names
//!
//! Type names are Go's, acronyms included (`RESTMapper`, `RESTMapping`, `RESTScope`, and
//! so `RESTMapperError`): they are what readers of Go's code and docs search for. Each
//! concept has one name and each name one concept, so a name read without its module
//! path still says what it is:
//!
//! | concept | name |
//! | --- | --- |
//! | what a codec is: writes, reads, or both (Go's `runtime.Encoder`, `Decoder`, `Serializer`) | the traits [`Encoder`](serializer::Encoder), [`Decoder`](serializer::Decoder), [`Serializer`](serializer::Serializer) |
//! | Go's JSON/YAML serializer | [`JsonSerializer`](serializer::json::JsonSerializer) |
//! | Go's protobuf serializer, with and without the envelope | [`ProtobufSerializer`](serializer::protobuf::ProtobufSerializer), [`RawProtobufSerializer`](serializer::protobuf::RawProtobufSerializer) |
//! | the protobuf wire format (gogo's `proto` package), under the object model | the module [`proto`], its [`WireEncoder`](proto::WireEncoder) and [`WireDecoder`](proto::WireDecoder) |
//! | the protobuf codec of objects through a `Scheme` | the module [`serializer::protobuf`] |
//!
//! ```standalone_crate
//! use apimachinery::{ApiObject, ApiType, apis::meta::v1::ObjectMeta, runtime::Scheme};
//!
//! #[derive(ApiType, Clone, Debug, Default, PartialEq)]
//! pub struct WidgetSpec { pub size: i32 }
//!
//! #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
//! #[api(group = "example.com", version = "v1", kind = "Widget", plural = "widgets",
//!       namespaced, short_names = ["wdg"])]
//! pub struct Widget { pub metadata: ObjectMeta, pub spec: WidgetSpec }
//!
//! let scheme = Scheme::from_registry()?;   // every linked #[derive(ApiObject)] type
//! let obj = scheme.new_object(&"example.com/v1, Kind=Widget".parse()?)?;
//! assert!(obj.is::<Widget>());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Decode, default, convert, encode
//!
//! A codec factory's decoders do what Go's versioning codec does: decode the bytes in
//! their version, set that version's defaults (the scheme's defaulting functions), then
//! convert to the version asked for. Here a `Deployment` written in `v1beta2` without
//! `replicas` is read as `v1`, with the default `v1beta2` gives it, and written as `v1`.
//! The factory owns its scheme (`Arc`), so it could be kept in a server's state and used
//! from any task; [`CodecFactory::without_defaulting`](serializer::CodecFactory::without_defaulting)
//! and [`without_conversion`](serializer::CodecFactory::without_conversion) leave steps out.
//!
//! ```standalone_crate
//! use std::sync::Arc;
//! use apimachinery::{runtime::Scheme, schema::GroupVersion};
//! use apimachinery::serializer::{CodecFactory, DecoderExt, Encoder};
//!
//! pub mod internal {
//!     use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta};
//!     #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
//!     #[api(group = "example.com", version = "__internal", kind = "Deployment", not_resource)]
//!     pub struct Deployment { pub metadata: ObjectMeta, pub replicas: Option<i32> }
//! }
//! pub mod v1beta2 {
//!     use apimachinery::{ApiObject, Convert, apis::meta::v1::ObjectMeta};
//!     #[derive(ApiObject, Convert, Clone, Debug, Default, PartialEq)]
//!     #[api(group = "example.com", version = "v1beta2", kind = "Deployment")]
//!     #[conversion(hub = super::internal::Deployment)]
//!     pub struct Deployment { pub metadata: ObjectMeta, pub replicas: Option<i32> }
//! }
//! pub mod v1 {
//!     use apimachinery::{ApiObject, Convert, apis::meta::v1::ObjectMeta};
//!     #[derive(ApiObject, Convert, Clone, Debug, Default, PartialEq)]
//!     #[api(group = "example.com", version = "v1", kind = "Deployment")]
//!     #[conversion(hub = super::internal::Deployment)]
//!     pub struct Deployment { pub metadata: ObjectMeta, pub replicas: Option<i32> }
//! }
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut scheme = Scheme::from_registry()?;
//! // v1beta2's default, as Go's SetDefaults_Deployment sets it.
//! scheme.add_type_defaulting_func(|d: &mut v1beta2::Deployment| {
//!     d.replicas.get_or_insert(1);
//! });
//! let codecs = CodecFactory::new(Arc::new(scheme));
//! let v1 = GroupVersion::new("example.com", "v1");
//! let decoder = codecs.universal_decoder(std::slice::from_ref(&v1));
//! let json = codecs.serializer_for_media_type("application/json")?.serializer.clone();
//! let encoder = codecs.encoder_for_version(json, Arc::new(v1));
//!
//! let old = br#"{"apiVersion":"example.com/v1beta2","kind":"Deployment","metadata":{"name":"web"}}"#;
//! let deployment: v1::Deployment = decoder.decode_as(old)?;   // decode, default, convert
//! assert_eq!(deployment.replicas, Some(1));
//! assert_eq!(
//!     encoder.encode_to_vec(&deployment)?,
//!     b"{\"kind\":\"Deployment\",\"apiVersion\":\"example.com/v1\",\"metadata\":{\"name\":\"web\"},\"replicas\":1}\n"
//! );
//! # Ok(())
//! # }
//! ```
// Denied, not forbidden: `conversion::vec_in_place`, `conversion::converter` and
// `runtime::assign` alone allow it, each block with its safety argument and the modules
// with tests of their failure and panic positions.
#![deny(unsafe_code)]

/// The README's quick start, run as a doctest so that it stays true.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

// Lets the derive's `::apimachinery::...` paths resolve inside this crate too.
extern crate self as apimachinery;

pub mod api;
pub mod apis;
// Unsafe code: short byte strings appended to a vector by two overlapping word writes
// into reserved room (the JSON writer's keys and strings, protobuf's short fields).
#[allow(unsafe_code)]
mod append;
pub mod conversion;
mod exact_vec;
mod field_index;
pub mod fields;
mod fx_hash;
pub mod labels;
pub mod list_field;
#[cfg(feature = "apply")]
pub mod managedfields;
#[cfg(feature = "rest-mapper")]
pub mod meta;
pub mod proto;
mod raw_json;
pub mod runtime;
pub mod schema;
mod scheme_error;
pub mod serializer;
pub mod string_field;
pub mod structural_schema;
// Unsafe code: reading ASCII bytes as text without validating them twice, and a short
// ASCII text copied into an allocation of its length by two overlapping word writes
// (the protobuf decoder's strings).
#[allow(unsafe_code)]
mod text;
pub mod util;
pub mod version;

pub use apimachinery_derive::{ApiKind, ApiObject, ApiType, Convert, StructuralSchema};

#[doc(hidden)]
pub mod __private {
    //! Re-exports for code generated by `#[derive(ApiObject)]`; not a public API.
    pub use crate::field_index::FieldNames;
    pub use inventory;
    pub use serde;
    pub use serde_json;
}
