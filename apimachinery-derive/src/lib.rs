//! `#[derive(ApiObject)]`: turns a struct into a Kubernetes API object for the
//! `apimachinery` crate. Use it through `apimachinery::ApiObject`. Also
//! `#[derive(ApiType)]`, the same serde implementations for structs nested in objects,
//! `#[derive(ApiKind)]`, an object's serde implementations without the scheme's traits,
//! and `#[derive(Convert)]`, conversions to a hub version.
//!
//! Built like `serde_derive`: the input is parsed once into a typed model
//! ([`model`]), checked ([`check`]), then expanded ([`expand`]); every problem found is
//! reported at once, each at the span of the attribute or item at fault.
//!
//! # Container attributes: `#[api(...)]`
//!
//! | key | meaning | default |
//! | --- | --- | --- |
//! | `group = "..."` | API group | `""` (core) |
//! | `version = "..."` | version (required) | |
//! | `kind = "..."` | kind | the struct's name |
//! | `plural = "..."` | resource name | Go's `UnsafeGuessKindToResource` (1.36 rules) |
//! | `singular = "..."` | singular resource name | kind in lower case |
//! | `short_names = [..]`, `categories = [..]` | discovery extras | none |
//! | `verbs = [..]` | the verbs discovery lists (`get`, `list`, `watch`, ...) | a custom resource's (`apimachinery::runtime::CUSTOM_RESOURCE_VERBS`); `[]` for a kind no longer served (discovery leaves it out) |
//! | `namespaced` / `cluster_scoped` | scope | namespaced |
//! | `list_kind = "..."` | kind of the list | kind + `List` |
//! | `unversioned` | register with `add_unversioned_types` | |
//! | `extra_versions = [..]` | more versions of the group the type is known in, such as `"__internal"` | |
//! | `not_resource` | not served as a REST resource (options, reviews) | lists are never resources |
//! | `no_type_meta` | write neither `kind` nor `apiVersion`, for Go types without `TypeMeta` (`WatchEvent`) | both written first |
//! | `omit_empty_type_meta` | write `kind` and `apiVersion` from the `TypeMeta` field as they are, each omitted when empty, as Go does (for types also nested in others) | empty ones written as the type's own |
//! | `protobuf` | the type implements `proto::Message` (the object's own message, without its `TypeMeta`), so the protobuf serializer can encode it | not protobuf |
//! | `inline` | mark the JSON codec methods (`ReadJson`, `WriteJson` and their helpers) `#[inline]`, so that they are compiled in the crates that call them and not in the one that defines the type, as serde's generic impls are; for crates of many types most programs use few of (a generator writes `#[cfg_attr(..., api(inline))]`) | compiled where the type is defined |
//! | `crate = "path"` | path of the `apimachinery` crate | `::apimachinery` |
//!
//! # Field attributes: `#[api(...)]`
//!
//! `rename = "jsonName"` (default: the field name in lower camel case),
//! `skip_serializing_if = "path"` (default: `Option::is_none` for `Option` fields; other
//! fields are always written, as Go writes struct fields without `omitempty`) and
//! `nullable` (an `Option` written as `null` when `None`, as Go writes a nil pointer,
//! slice or map without `omitempty`).
//!
//! A field of type `TypeMeta` holds the declared kind; `metadata: ObjectMeta` or
//! `metadata: ListMeta` is the metadata; `items: Vec<T>` or `items: Option<Vec<T>>` (Go's
//! `[]T` without `omitempty`, whose nil is `null`) makes the type a list.

mod check;
mod conversion;
mod expand;
mod model;
mod naming;
mod serde_impls;
mod structural_schema;

use proc_macro::TokenStream;

/// Derives `Object`, `Resource`, the scheme's decode
/// `apimachinery::runtime::json_reader::ReadJson`, the encode
/// `apimachinery::util::json::WriteJson` (Go's JSON text, `kind` and `apiVersion` first),
/// serde's `Serialize`/`Deserialize` through those two (`serialize_by_write_json`,
/// `deserialize_by_read_json`: one line per type, for any serde format) and a link-time
/// registration. See the crate documentation for the attributes.
#[proc_macro_derive(ApiObject, attributes(api))]
pub fn derive_api_object(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    model::Container::from_ast(&input)
        .and_then(|container| check::check(&container).map(|()| container))
        .map(|container| expand::expand(&container))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Derives what `#[derive(ApiObject)]` derives for the wire alone: serde's `Serialize`
/// and `Deserialize` (with `kind` and `apiVersion` first),
/// `apimachinery::runtime::json_reader::ReadJson` and `apimachinery::util::json::WriteJson`,
/// the very code `ApiObject` generates,
/// but neither `Object`, `Resource`, `ListObject` nor the link-time registration. For
/// crates that offer a kind with and without a `Scheme` (`k8s-types` without its
/// `scheme` feature): a program that never builds a `Scheme` then compiles none of the
/// registry's per-kind code. It takes the same attributes as `ApiObject` and checks them
/// the same way, so the two can be swapped with `cfg_attr`.
///
/// ```
/// use apimachinery::{ApiKind, apis::meta::v1::ObjectMeta};
///
/// #[derive(ApiKind, Clone, Debug, Default, PartialEq)]
/// #[api(group = "example.com", version = "v1", kind = "Widget")]
/// pub struct Widget {
///     pub metadata: ObjectMeta,
///     pub size: Option<i32>,
/// }
///
/// let w: Widget = serde_json::from_str(r#"{"kind":"Widget","size":3}"#)?;
/// assert_eq!(w.size, Some(3));
/// assert_eq!(
///     serde_json::to_string(&w)?,
///     r#"{"kind":"Widget","apiVersion":"example.com/v1","metadata":{},"size":3}"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[proc_macro_derive(ApiKind, attributes(api))]
pub fn derive_api_kind(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    model::Container::from_ast(&input)
        .and_then(|container| check::check(&container).map(|()| container))
        .map(|container| expand::expand_kind(&container))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Derives the scheme's decode `apimachinery::runtime::json_reader::ReadJson` (a field
/// whose type has no `ReadJson` is read through its serde `Deserialize`), the encode
/// `apimachinery::util::json::WriteJson` (likewise, a field without it written through
/// its `Serialize`), and serde's `Serialize` and `Deserialize` through those two, for a
/// struct of the API that is not an object itself (a spec, a status, a condition), with Go's JSON rules: fields named in
/// lower camel case (`#[api(rename = "...")]` to change), written in declaration order,
/// `Option` fields omitted when `None` (`#[api(skip_serializing_if = "path")]` for
/// others, such as Go's `omitempty` on lists), unknown keys ignored, and `null` or a
/// missing key read as the field's zero value. The struct must implement `Default`.
///
/// The expansion is smaller than serde's derive (no sequence form, one shared key
/// lookup, serde's impls one line each), which is what a crate of a thousand generated
/// types compiles fastest.
/// The only container keys are `#[api(crate = "path")]` and `#[api(inline)]` (see the
/// crate documentation).
///
/// ```
/// use apimachinery::ApiType;
///
/// #[derive(ApiType, Clone, Debug, Default, PartialEq)]
/// pub struct Condition {
///     pub r#type: String,
///     pub last_probe_time: Option<String>,
///     #[api(skip_serializing_if = "Vec::is_empty")]
///     pub reasons: Vec<String>,
/// }
///
/// let c: Condition = serde_json::from_str(r#"{"type":null,"lastProbeTime":"now","x":1}"#)?;
/// assert_eq!(c.r#type, "");
/// assert_eq!(serde_json::to_string(&c)?, r#"{"type":"","lastProbeTime":"now"}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[proc_macro_derive(ApiType, attributes(api))]
pub fn derive_api_type(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    model::Container::from_ast(&input)
        .and_then(|container| check::check_type(&container).map(|()| container))
        .map(|container| expand::expand_type(&container))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Derives the conversion between a type and its hub version, both ways, field by field:
/// `AutoConvert` and `Convert` implementations plus link-time registrations in the
/// scheme's converter. See `apimachinery::conversion` for an example.
///
/// The field-by-field conversion is by value: strings, lists and maps move into the
/// output. By reference (`convert_ref`), the value is cloned and the clone converted by
/// value, so the type and its hub must implement `Clone`.
///
/// # Container attributes: `#[conversion(...)]`
///
/// | key | meaning |
/// | --- | --- |
/// | `hub = path::to::Hub` | the type to convert to and from (required) |
/// | `to_hub = path::to::fn` | hand-written `fn(&Self, &Scope) -> Result<Hub, ConversionError>`, used instead of the generated one |
/// | `from_hub = path::to::fn` | hand-written `fn(&Hub, &Scope) -> Result<Self, ConversionError>` |
/// | `hub_only = [field, ..]` | hub fields this type does not have: left at their default going to the hub, dropped coming back |
/// | `nested` | the type is only converted as a field of others (statically, through `Convert`): no `HubConversions` and no registration in the scheme, whose registry converts whole objects |
/// | `crate = "path"` | path of the `apimachinery` crate |
///
/// # Field attributes: `#[conversion(...)]`
///
/// `rename = "hub_field"` (the peer's name), `skip` (no peer: dropped going to the hub,
/// default coming back), `with = module` (`module::to_hub(value, scope)` and
/// `module::from_hub(value, scope)` convert the value, by value), `same_type` (the peer
/// has this field's very type, which converts to itself: the value is moved, without a
/// conversion call or error arm; a generator that knows
/// both types can say so, and the compiler rejects the claim where it is false).
///
/// Every field needs a peer: a field without one is a compile error at that field, a hub
/// field without one a compile error at the `hub = ...` path.
#[proc_macro_derive(Convert, attributes(conversion))]
pub fn derive_convert(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    conversion::derive(&input).into()
}

/// Derives `apimachinery::structural_schema::StructuralSchema` for a struct of named
/// fields: an `object` schema with one property per field, under the JSON name
/// `#[derive(ApiType)]` and `#[derive(ApiObject)]` give it (`#[api(rename = "...")]`
/// honoured), the field's type giving its schema and its doc comment the description.
/// A struct with `metadata` (an object) also gets `apiVersion` and `kind`. Opt-in, so
/// types that are never in a CRD compile nothing for it. See
/// `apimachinery::structural_schema` for an example.
#[proc_macro_derive(StructuralSchema, attributes(api))]
pub fn derive_structural_schema(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    structural_schema::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
