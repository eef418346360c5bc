//! Conversion between the versions of a kind, and defaulting (Go's
//! `k8s.io/apimachinery/pkg/conversion`, with the conversion half of `runtime.Scheme`).
//!
//! Kubernetes serves one kind in several versions from one storage by converting each
//! version to and from an internal *hub* version (`apps/v1` → `apps/__internal` →
//! `apps/v1beta2`). The pieces:
//!
//! - [`Convert`] / [`AutoConvert`]: static conversion of one Rust type into another, by
//!   value (moves) or by reference (clones). `#[derive(Convert)]` writes both for a type
//!   and its hub: by value field by field, by reference as a clone converted by value;
//!   nested fields use their own `Convert`, so a hand-written conversion of a nested type
//!   is used wherever it is nested.
//! - [`Converter`]: the registry of whole-object functions keyed by type pair, where a
//!   hand-written function beats a generated one; held by the
//!   [`Scheme`](crate::runtime::Scheme), which adds [`convert`](crate::runtime::Scheme::convert)
//!   (typed) and [`convert_to_version`](crate::runtime::Scheme::convert_to_version)
//!   (dynamic, through the hub when no direct function exists).
//! - [`Scope`]: the context every function receives. [`ConversionError`]: failures, with
//!   the field path and the types.
//! - [`InternalForm`]: what Go's trip through the internal version does to a type whose
//!   hub is one of its external versions (a v1 Secret's `stringData` merged into `data`),
//!   applied by the scheme on every conversion, as Go passes every object through it.
//! - [`Defaulters`] and [`FieldLabelConversions`]: the scheme's defaulting functions and
//!   field-selector label conversions.
//!
//! ```standalone_crate
//! use apimachinery::{runtime::Scheme, schema::GroupVersion};
//!
//! pub mod internal {
//!     use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta};
//!     #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
//!     #[api(group = "example.com", version = "__internal", kind = "Widget", not_resource)]
//!     pub struct Widget { pub metadata: ObjectMeta, pub size: i64 }
//! }
//! pub mod v1 {
//!     use super::internal;
//!     use apimachinery::{ApiObject, Convert, apis::meta::v1::ObjectMeta};
//!     #[derive(ApiObject, Convert, Clone, Debug, Default, PartialEq)]
//!     #[api(group = "example.com", version = "v1", kind = "Widget")]
//!     #[conversion(hub = internal::Widget)]
//!     pub struct Widget { pub metadata: ObjectMeta, pub size: i64 }
//! }
//! pub mod v2 {
//!     use super::internal;
//!     use apimachinery::{ApiObject, Convert, apis::meta::v1::ObjectMeta};
//!     #[derive(ApiObject, Convert, Clone, Debug, Default, PartialEq)]
//!     #[api(group = "example.com", version = "v2", kind = "Widget")]
//!     #[conversion(hub = internal::Widget)]
//!     pub struct Widget {
//!         pub metadata: ObjectMeta,
//!         #[conversion(rename = "size")]
//!         pub replicas: i64,
//!     }
//! }
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let scheme = Scheme::from_registry()?;      // types and conversions of every linked crate
//! let old = v1::Widget { size: 3, ..Default::default() };
//! let new: v2::Widget = scheme.convert(&old)?; // v1 -> hub -> v2
//! assert_eq!(new.replicas, 3);
//!
//! let any = scheme.convert_to_version(Box::new(new), &GroupVersion::new("example.com", "v1"))?;
//! assert_eq!(any.downcast_ref::<v1::Widget>(), Some(&old));
//! # Ok(())
//! # }
//! ```

mod convert;
// Unsafe code: a registered pair's shim casts the input and output addresses that
// `ConversionFunc::check` has matched against the pair's `TypeId`s, instead of
// downcasting them again in each pair's copy.
#[allow(unsafe_code)]
mod converter;
mod defaulting;
mod error;
mod field_label;
mod internal_form;
mod registration;
mod scope;
// Unsafe code (with `converter`'s and `runtime::assign`'s, the crate's only): raw parts of a vector,
// converted element by element.
#[allow(unsafe_code)]
mod vec_in_place;

pub use convert::{AutoConvert, Convert};
pub use converter::{ConversionFunc, Converter, Origin};
pub use defaulting::{DefaulterRegistration, Defaulters};
pub use error::{ConversionError, ConversionErrorKind, in_field};
pub use field_label::{
    FieldLabelConversionFunc, FieldLabelConversions, FieldLabelError,
    default_meta_v1_field_selector_conversion,
};
pub use internal_form::{InternalForm, InternalFormRegistration, InternalForms};
pub use registration::{ConversionRegistration, ConversionRegistrations, HubConversions};
pub use scope::Scope;
