//! `#[derive(ApiObject)]`: turns a struct into a Kubernetes API object for the
//! `apimachinery` crate. Use it through `apimachinery::ApiObject`.
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
//! | `namespaced` / `cluster_scoped` | scope | namespaced |
//! | `list_kind = "..."` | kind of the list | kind + `List` |
//! | `unversioned` | register with `add_unversioned_types` | |
//! | `extra_versions = [..]` | more versions of the group the type is known in, such as `"__internal"` | |
//! | `not_resource` | not served as a REST resource (options, reviews) | lists are never resources |
//! | `no_type_meta` | write neither `kind` nor `apiVersion`, for Go types without `TypeMeta` (`WatchEvent`) | both written first |
//! | `omit_empty_type_meta` | write `kind` and `apiVersion` from the `TypeMeta` field as they are, each omitted when empty, as Go does (for types also nested in others) | empty ones written as the type's own |
//! | `crate = "path"` | path of the `apimachinery` crate | `::apimachinery` |
//!
//! # Field attributes: `#[api(...)]`
//!
//! `rename = "jsonName"` (default: the field name in lower camel case) and
//! `skip_serializing_if = "path"` (default: `Option::is_none` for `Option` fields; other
//! fields are always written, as Go writes struct fields without `omitempty`).
//!
//! A field of type `TypeMeta` holds the declared kind; `metadata: ObjectMeta` or
//! `metadata: ListMeta` is the metadata; `items: Vec<T>` makes the type a list.

mod check;
mod expand;
mod model;
mod naming;

use proc_macro::TokenStream;

/// Derives `Object`, `Resource`, serde's `Serialize`/`Deserialize` (with `kind` and
/// `apiVersion` first) and a link-time registration. See the crate documentation for the
/// attributes.
#[proc_macro_derive(ApiObject, attributes(api))]
pub fn derive_api_object(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    model::Container::from_ast(&input)
        .and_then(|container| check::check(&container).map(|()| container))
        .map(|container| expand::expand(&container))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
