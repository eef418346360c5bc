//! serde's `Serialize` and `Deserialize`, and the scheme's decode `ReadJson`, shared by
//! `#[derive(ApiObject)]` and `#[derive(ApiKind)]` (with `kind` and `apiVersion`) and
//! `#[derive(ApiType)]` (structs nested in objects).
//!
//! The expansion is kept small on purpose: a generated crate has a thousand such types,
//! and every visitor type costs its full set of `erased_serde` methods when objects are
//! decoded through the scheme. So object keys are read through one shared seed
//! (`__private::FieldIndex`, a plain `fn(&str)` lookup per struct instead of a field
//! visitor per struct), there is no `visit_seq` (Go reads a struct only from a JSON
//! object), and a field needs no wrapper type to read `null` as its zero value.

use proc_macro2::TokenStream;
use quote::quote;

use crate::expand::{api_version, kind_name, type_meta_field};
use crate::model::{Container, Field, Role, generic_arg};

/// What the struct is on the wire.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// An API object: `kind` and `apiVersion` first, from its `TypeMeta` or its kind.
    Object,
    /// A struct inside objects: its fields only.
    Type,
}

/// The fields written and read by name: every field but an object's `TypeMeta`.
fn wire_fields(c: &Container, shape: Shape) -> Vec<&Field> {
    c.fields
        .iter()
        .filter(|f| shape == Shape::Type || !matches!(f.role, Role::TypeMeta))
        .collect()
}

pub fn expand_serialize(c: &Container, krate: &TokenStream, shape: Shape) -> TokenStream {
    let ident = &c.ident;
    let serde = quote!(#krate::__private::serde);
    let fields = wire_fields(c, shape);
    let no_type_meta = shape == Shape::Type || c.attrs.no_type_meta.is_some();
    let len = fields.len() + if no_type_meta { 0 } else { 2 };
    let name = match shape {
        Shape::Object => {
            let kind = kind_name(c);
            quote!(#kind)
        }
        Shape::Type => {
            let name = ident.to_string();
            quote!(#name)
        }
    };
    // Go types without TypeMeta (WatchEvent) write neither.
    let type_meta_writes = if no_type_meta {
        TokenStream::new()
    } else if let (Some(f), Some(_)) = (type_meta_field(c), c.attrs.omit_empty_type_meta) {
        // Go's TypeMeta: each string written when set (objects nested in others, such as
        // a StatefulSet's claim templates, usually have neither).
        let name = &f.ident;
        let kind = write_field(&serde, quote!("kind"), quote!(&self.#name.kind));
        let api_version = write_field(
            &serde,
            quote!("apiVersion"),
            quote!(&self.#name.api_version),
        );
        quote! {
            if !self.#name.kind.is_empty() {
                #kind
            }
            if !self.#name.api_version.is_empty() {
                #api_version
            }
        }
    } else {
        // The declared kind and apiVersion as literals: the serde code needs no
        // `Resource` impl, so `#[derive(ApiKind)]` shares it.
        let kind_name = kind_name(c);
        let api_version_name = api_version(c);
        let (kind, api_version) = match type_meta_field(c) {
            Some(f) => {
                let name = &f.ident;
                (
                    quote! {
                        if self.#name.kind.is_empty() { #kind_name } else { self.#name.kind.as_str() }
                    },
                    quote! {
                        if self.#name.api_version.is_empty() { #api_version_name } else { self.#name.api_version.as_str() }
                    },
                )
            }
            None => (quote!(#kind_name), quote!(#api_version_name)),
        };
        let kind = write_field(&serde, quote!("kind"), kind);
        let api_version = write_field(&serde, quote!("apiVersion"), api_version);
        quote! {
            #kind
            #api_version
        }
    };
    let writes = fields.iter().map(|f| {
        let name = &f.ident;
        let json = &f.json_name;
        // An `Option` omitted when `None` (unless `nullable`: Go's pointer, slice or map
        // without `omitempty`, `null` when nil) writes the value inside: the same text,
        // without compiling `Option<T>::serialize` and `serialize_some` per type.
        if f.skip_serializing_if.is_none()
            && f.nullable.is_none()
            && generic_arg(&f.ty, "Option").is_some()
        {
            let write = write_field(&serde, quote!(#json), quote!(value));
            return quote! {
                if let ::core::option::Option::Some(value) = &self.#name {
                    #write
                }
            };
        }
        let skip = f.skip_serializing_if.as_ref().map(|p| quote!(#p));
        let write = write_field(&serde, quote!(#json), quote!(&self.#name));
        match skip {
            // No `skip_field` call: its default does nothing, and no serializer the
            // types are written with overrides it.
            Some(skip) => quote! {
                if !#skip(&self.#name) {
                    #write
                }
            },
            None => write,
        }
    });
    quote! {
        impl #serde::Serialize for #ident {
            fn serialize<S: #serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                let mut state = match serializer.serialize_struct(#name, #len) {
                    ::core::result::Result::Ok(state) => state,
                    ::core::result::Result::Err(e) => return ::core::result::Result::Err(e),
                };
                #type_meta_writes
                #(#writes)*
                #serde::ser::SerializeStruct::end(state)
            }
        }
    }
}

/// One field written, its error returned. Spelled out rather than with `?`, whose
/// `Try::branch` and `FromResidual` calls would be compiled into every field of every
/// type's `serialize` (a thousand types, each monomorphized for the scheme's writer).
fn write_field(serde: &TokenStream, json: TokenStream, value: TokenStream) -> TokenStream {
    quote! {
        if let ::core::result::Result::Err(e) =
            #serde::ser::SerializeStruct::serialize_field(&mut state, #json, #value)
        {
            return ::core::result::Result::Err(e);
        }
    }
}

/// The key lookup both decodes share (`Deserialize` and `ReadJson`), one function per
/// struct beside them: a key's field index, `None` for a key the struct does not have.
/// An object's `kind` and `apiVersion` are 0 and 1, its fields from 2.
pub fn expand_field_index(c: &Container, shape: Shape) -> TokenStream {
    let fields = wire_fields(c, shape);
    let (first, type_meta_keys) = match shape {
        Shape::Object => (
            2,
            quote! {
                "kind" => ::core::option::Option::Some(0),
                "apiVersion" => ::core::option::Option::Some(1),
            },
        ),
        Shape::Type => (0, TokenStream::new()),
    };
    let indexes: Vec<usize> = (first..first + fields.len()).collect();
    let json_names: Vec<&str> = fields.iter().map(|f| f.json_name.as_str()).collect();
    quote! {
        fn __field_index(name: &str) -> ::core::option::Option<usize> {
            match name {
                #type_meta_keys
                #(#json_names => ::core::option::Option::Some(#indexes),)*
                _ => ::core::option::Option::None,
            }
        }
    }
}

pub fn expand_deserialize(c: &Container, krate: &TokenStream, shape: Shape) -> TokenStream {
    let ident = &c.ident;
    let serde = quote!(#krate::__private::serde);
    let type_meta = match shape {
        Shape::Object => type_meta_field(c).map(|f| &f.ident),
        Shape::Type => None,
    };
    let fields = wire_fields(c, shape);
    // Objects read `kind` and `apiVersion` as indexes 0 and 1.
    let first = match shape {
        Shape::Object => 2,
        Shape::Type => 0,
    };
    let indexes: Vec<usize> = (first..first + fields.len()).collect();
    let json_names: Vec<&str> = fields.iter().map(|f| f.json_name.as_str()).collect();
    let assigns = fields.iter().zip(&indexes).map(|(f, i)| {
        let name = &f.ident;
        let ty = &f.ty;
        if generic_arg(ty, "Option").is_some() {
            quote! {
                ::core::option::Option::Some(#i) => {
                    value.#name = #serde::de::MapAccess::next_value::<#ty>(&mut map)?;
                }
            }
        } else {
            // `null` reads as the zero value, as Go's decoder leaves the field untouched.
            quote! {
                ::core::option::Option::Some(#i) => {
                    value.#name = #serde::de::MapAccess::next_value::<::core::option::Option<#ty>>(&mut map)?
                        .unwrap_or_default();
                }
            }
        }
    });
    let type_meta_arms = match shape {
        Shape::Type => TokenStream::new(),
        Shape::Object => {
            let (kind_arm, api_version_arm) = match type_meta {
                Some(tm) => (
                    quote! { value.#tm.kind = #serde::de::MapAccess::next_value::<::core::option::Option<::std::string::String>>(&mut map)?.unwrap_or_default(); },
                    quote! { value.#tm.api_version = #serde::de::MapAccess::next_value::<::core::option::Option<::std::string::String>>(&mut map)?.unwrap_or_default(); },
                ),
                None => (
                    quote! { #serde::de::MapAccess::next_value::<#serde::de::IgnoredAny>(&mut map)?; },
                    quote! { #serde::de::MapAccess::next_value::<#serde::de::IgnoredAny>(&mut map)?; },
                ),
            };
            quote! {
                ::core::option::Option::Some(0) => { #kind_arm }
                ::core::option::Option::Some(1) => { #api_version_arm }
            }
        }
    };
    let (expecting, call) = match shape {
        Shape::Object => (
            format!("a {ident} object"),
            quote!(deserializer.deserialize_map(__Visitor)),
        ),
        Shape::Type => {
            let name = ident.to_string();
            (
                format!("struct {ident}"),
                quote!(deserializer.deserialize_struct(#name, &[#(#json_names),*], __Visitor)),
            )
        }
    };
    quote! {
        impl<'de> #serde::Deserialize<'de> for #ident {
            fn deserialize<D: #serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                struct __Visitor;
                impl<'de> #serde::de::Visitor<'de> for __Visitor {
                    type Value = #ident;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str(#expecting)
                    }
                    fn visit_map<A: #serde::de::MapAccess<'de>>(self, mut map: A) -> ::core::result::Result<#ident, A::Error> {
                        let mut value = <#ident as ::core::default::Default>::default();
                        while let ::core::option::Option::Some(key) = #serde::de::MapAccess::next_key_seed(
                            &mut map,
                            #krate::__private::FieldIndex(__field_index),
                        )? {
                            match key {
                                #type_meta_arms
                                #(#assigns)*
                                _ => {
                                    #serde::de::MapAccess::next_value::<#serde::de::IgnoredAny>(&mut map)?;
                                }
                            }
                        }
                        ::core::result::Result::Ok(value)
                    }
                }
                #call
            }
        }
    }
}

/// `ReadJson`, the decode the scheme uses: one function per struct, which hands the
/// reader's non-generic object loop a key lookup and the struct itself, whose
/// `ReadFields` reads the field at an index (no visitor, no per-type instantiation of
/// the reader's generic methods). Same behaviour as the `Deserialize` above through the
/// same reader: `null` for a field that is not an `Option` reads as its zero value,
/// unknown keys are skipped, a repeated key overwrites, and an object's `kind` and
/// `apiVersion` go to its `TypeMeta` (or are skipped like any unknown key when it has
/// none).
pub fn expand_read_json(c: &Container, krate: &TokenStream, shape: Shape) -> TokenStream {
    let ident = &c.ident;
    let reader = quote!(#krate::runtime::json_reader);
    let type_meta = match shape {
        Shape::Object => type_meta_field(c).map(|f| &f.ident),
        Shape::Type => None,
    };
    let fields = wire_fields(c, shape);
    let first = match shape {
        Shape::Object => 2,
        Shape::Type => 0,
    };
    let indexes: Vec<usize> = (first..first + fields.len()).collect();
    let reads = fields.iter().zip(&indexes).map(|(f, i)| {
        let name = &f.ident;
        let ty = &f.ty;
        // Through the type's `ReadJson`, or its serde `Deserialize` when it has none
        // (autoref specialization, see `FieldType`).
        if generic_arg(ty, "Option").is_some() {
            quote!(#i => (&&#reader::FieldType::<#ty>::new()).read_field(&mut out.#name, value),)
        } else {
            quote!(#i => (&&#reader::FieldType::<#ty>::new()).read_or_default(&mut out.#name, value),)
        }
    });
    let type_meta_reads = match (shape, type_meta) {
        (Shape::Object, Some(tm)) => quote! {
            0 => (&&#reader::FieldType::<::std::string::String>::new()).read_or_default(&mut out.#tm.kind, value),
            1 => (&&#reader::FieldType::<::std::string::String>::new()).read_or_default(&mut out.#tm.api_version, value),
        },
        // Without a `TypeMeta`, skipped like any key the struct does not have.
        (Shape::Object, None) => quote! {
            0 | 1 => value.skip_unknown(),
        },
        (Shape::Type, _) => TokenStream::new(),
    };
    let (expecting, struct_like) = match shape {
        Shape::Object => (format!("a {ident} object"), false),
        Shape::Type => (format!("struct {ident}"), true),
    };
    quote! {
        impl #reader::ReadFields for #ident {
            #[allow(unused_variables)]
            fn read_field_at(&mut self, index: usize, value: #reader::ValueReader<'_, '_, '_>) -> ::core::result::Result<(), #reader::Error> {
                #[allow(unused_imports)]
                use #reader::{ReadFieldBySerde as _, ReadFieldDirect as _};
                let out = self;
                match index {
                    #type_meta_reads
                    #(#reads)*
                    _ => ::core::result::Result::Ok(()),
                }
            }
        }

        impl #reader::ReadJson for #ident {
            fn read_json(value: #reader::ValueReader<'_, '_, '_>) -> ::core::result::Result<Self, #reader::Error> {
                let mut out = <Self as ::core::default::Default>::default();
                match value.read_struct(#expecting, #struct_like, __field_index, &mut out) {
                    ::core::result::Result::Ok(()) => ::core::result::Result::Ok(out),
                    ::core::result::Result::Err(e) => ::core::result::Result::Err(e),
                }
            }
        }
    }
}
