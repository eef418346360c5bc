//! Objects and the scheme that knows their types (Go's `k8s.io/apimachinery/pkg/runtime`).
//!
//! - [`Object`]: what every API object can do, typed (`#[derive(ApiObject)]`) or
//!   [`Unstructured`].
//! - [`Scheme`]: which Rust type is which group/version/kind, and back; it also holds the
//!   conversion functions, defaulters, validators and field-label conversions of
//!   [`conversion`](crate::conversion).
//! - [`Resource`], [`ObjectType`], [`Registration`]: what a type brings to a scheme.
//! - [`json_reader`]: the JSON text reader every registered type is decoded with, and
//!   [`ReadJson`](json_reader::ReadJson), the decode the derives generate for it.
//! - [`RawExtension`], [`Unknown`]: embedded or unrecognised objects kept as their bytes.
//! - [`Validators`], [`ValidatorRegistration`]: per-type validation functions (Go's REST
//!   strategies' `Validate`), registered at link time.

// Besides `conversion::vec_in_place` and `conversion::converter`, the crate's only unsafe
// code: one byte swap that moves an object of any registered type into a
// `&mut dyn Object` of the same type, one pointer cast that downcasts a boxed object, and
// one write of a default value into memory allocated for it.
#[allow(unsafe_code)]
mod assign;
pub mod json_reader;
mod json_tree;
mod object;
mod raw_extension;
mod registration;
mod scheme;
mod scheme_builder;
pub(crate) mod typed_json;
mod unknown;
pub mod unstructured;
mod validators;

pub use crate::schema::API_VERSION_INTERNAL;
pub use crate::scheme_error::{SchemeError, SchemeErrorKind};
pub use object::{ListObject, Object};
pub use raw_extension::RawExtension;
pub use registration::{
    CUSTOM_RESOURCE_VERBS, ObjectType, Registration, Resource, ResourceMetadata, ResourceScope,
    VersionPriority,
};
pub use scheme::Scheme;
pub use scheme_builder::SchemeBuilder;
pub use unknown::{CONTENT_TYPE_JSON, Unknown};
pub use unstructured::{Unstructured, UnstructuredList};
pub use validators::{ValidatorRegistration, Validators};
