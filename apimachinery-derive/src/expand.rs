//! Code generation: `Object`, `Resource`, `ListObject` (for lists), serde's `Serialize`
//! and `Deserialize`, `ReadJson` and `WriteJson`, and the link-time registration.
//!
//! Generated code names everything through the `apimachinery` crate path (default
//! `::apimachinery`), including serde and inventory through its `__private` re-exports,
//! so that users need no other dependency.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{Container, Field, Role, Scope};
use crate::naming::guess_plural;
use crate::serde_impls::{self, Shape};

fn crate_path(c: &Container) -> TokenStream {
    c.attrs.crate_path.as_ref().map_or_else(
        || quote!(::apimachinery),
        |p| {
            let path = &p.value;
            quote!(#path)
        },
    )
}

/// `#[derive(ApiType)]`: the serde implementations, `ReadJson` and `WriteJson` alone.
pub fn expand_type(c: &Container) -> TokenStream {
    let krate = crate_path(c);
    let serialize = serde_impls::expand_serialize(c, &krate);
    let write_json = serde_impls::expand_write_json(c, &krate, Shape::Type);
    let deserialize = serde_impls::expand_deserialize(c, &krate);
    let read_json = serde_impls::expand_read_json(c, &krate, Shape::Type);
    let field_index = serde_impls::expand_field_index(c, &krate, Shape::Type);
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all)]
        const _: () = {
            #serialize
            #write_json
            #deserialize
            #read_json
            #field_index
        };
    }
}

/// `#[derive(ApiKind)]`: an object's serde implementations, `ReadJson` and `WriteJson`
/// (`kind` and `apiVersion` first) alone, without `Object`, `Resource`, `ListObject` or the
/// link-time registration, whose code a program without a `Scheme` does not need.
pub fn expand_kind(c: &Container) -> TokenStream {
    let krate = crate_path(c);
    let serialize = serde_impls::expand_serialize(c, &krate);
    let write_json = serde_impls::expand_write_json(c, &krate, Shape::Object);
    let deserialize = serde_impls::expand_deserialize(c, &krate);
    let read_json = serde_impls::expand_read_json(c, &krate, Shape::Object);
    let field_index = serde_impls::expand_field_index(c, &krate, Shape::Object);
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all)]
        const _: () = {
            #serialize
            #write_json
            #deserialize
            #read_json
            #field_index
        };
    }
}

/// The kind a container declares (`kind = "..."`, else the struct's name).
pub fn kind_name(c: &Container) -> String {
    c.attrs
        .kind
        .as_ref()
        .map_or_else(|| c.ident.to_string(), |k| k.value.clone())
}

/// The `apiVersion` a container declares: `group/version`, or the version alone for
/// the core group.
pub fn api_version(c: &Container) -> String {
    let group = c.attrs.group.as_ref().map_or("", |g| g.value.as_str());
    let version = c.attrs.version.as_ref().map_or("", |v| v.value.as_str());
    if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    }
}

pub fn expand(c: &Container) -> TokenStream {
    let krate = crate_path(c);
    let object = expand_object(c, &krate);
    let resource = expand_resource(c, &krate);
    let list = expand_list(c, &krate);
    let serialize = serde_impls::expand_serialize(c, &krate);
    let write_json = serde_impls::expand_write_json(c, &krate, Shape::Object);
    let deserialize = serde_impls::expand_deserialize(c, &krate);
    let read_json = serde_impls::expand_read_json(c, &krate, Shape::Object);
    let field_index = serde_impls::expand_field_index(c, &krate, Shape::Object);
    let ident = &c.ident;
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all)]
        const _: () = {
            #object
            #resource
            #list
            #serialize
            #write_json
            #deserialize
            #read_json
            #field_index
            #krate::__private::inventory::submit! {
                <#ident as #krate::runtime::Resource>::REGISTRATION
            }
        };
    }
}

pub fn type_meta_field(c: &Container) -> Option<&Field> {
    c.fields.iter().find(|f| matches!(f.role, Role::TypeMeta))
}

fn expand_object(c: &Container, krate: &TokenStream) -> TokenStream {
    let ident = &c.ident;
    let (gvk, set_gvk) = match type_meta_field(c) {
        Some(f) => {
            let name = &f.ident;
            (
                quote! {
                    self.#name.group_version_kind_or(
                        <Self as #krate::runtime::Resource>::GROUP,
                        <Self as #krate::runtime::Resource>::VERSION,
                        <Self as #krate::runtime::Resource>::KIND,
                    )
                },
                quote! { self.#name.set_group_version_kind(gvk); },
            )
        }
        None => (
            quote! { <Self as #krate::runtime::Resource>::gvk() },
            quote! { let _ = gvk; },
        ),
    };
    let meta_v1 = quote!(#krate::apis::meta::v1);
    let mut meta = quote! {
        fn meta(&self) -> ::core::option::Option<&dyn #meta_v1::ObjectMetaAccessor> { ::core::option::Option::None }
        fn meta_mut(&mut self) -> ::core::option::Option<&mut dyn #meta_v1::ObjectMetaAccessor> { ::core::option::Option::None }
    };
    let mut list_meta = TokenStream::new();
    let mut as_list = TokenStream::new();
    for f in &c.fields {
        let name = &f.ident;
        match f.role {
            Role::ObjectMeta => {
                meta = quote! {
                    fn meta(&self) -> ::core::option::Option<&dyn #meta_v1::ObjectMetaAccessor> { ::core::option::Option::Some(&self.#name) }
                    fn meta_mut(&mut self) -> ::core::option::Option<&mut dyn #meta_v1::ObjectMetaAccessor> { ::core::option::Option::Some(&mut self.#name) }
                };
            }
            Role::ListMeta => {
                list_meta = quote! {
                    fn list_meta(&self) -> ::core::option::Option<&dyn #meta_v1::ListMetaAccessor> { ::core::option::Option::Some(&self.#name) }
                    fn list_meta_mut(&mut self) -> ::core::option::Option<&mut dyn #meta_v1::ListMetaAccessor> { ::core::option::Option::Some(&mut self.#name) }
                };
            }
            Role::Items(..) => {
                as_list = quote! {
                    fn as_list(&self) -> ::core::option::Option<&dyn #krate::runtime::ListObject> { ::core::option::Option::Some(self) }
                    fn as_list_mut(&mut self) -> ::core::option::Option<&mut dyn #krate::runtime::ListObject> { ::core::option::Option::Some(self) }
                };
            }
            _ => {}
        }
    }
    let protobuf = c.attrs.protobuf.map(|_| {
        quote! {
            fn as_proto_message(&self) -> ::core::option::Option<&dyn #krate::proto::Message> { ::core::option::Option::Some(self) }
            fn as_proto_message_mut(&mut self) -> ::core::option::Option<&mut dyn #krate::proto::Message> { ::core::option::Option::Some(self) }
        }
    });
    let no_type_meta = c.attrs.no_type_meta.map(|_| {
        quote! { fn has_type_meta(&self) -> bool { false } }
    });
    quote! {
        impl #krate::runtime::Object for #ident {
            fn group_version_kind(&self) -> #krate::schema::GroupVersionKind { #gvk }
            #protobuf
            #no_type_meta
            fn set_group_version_kind(&mut self, gvk: &#krate::schema::GroupVersionKind) { #set_gvk }
            #meta
            #list_meta
            #as_list
            fn deep_copy_object(&self) -> ::std::boxed::Box<dyn #krate::runtime::Object> {
                ::std::boxed::Box::new(::core::clone::Clone::clone(self))
            }
            fn encode_json(
                &self,
                out: &mut ::std::vec::Vec<u8>,
                layout: #krate::util::json::JsonLayout,
            ) -> ::core::result::Result<(), #krate::__private::serde_json::Error> {
                #krate::util::json::encode_write_json(self, out, layout)
            }
            fn type_name(&self) -> &'static str { ::core::any::type_name::<Self>() }
        }
    }
}

fn lit_list(list: &Option<crate::model::Spanned<Vec<syn::LitStr>>>) -> TokenStream {
    let items = list.iter().flat_map(|l| l.value.iter());
    quote!(&[#(#items),*])
}

fn expand_resource(c: &Container, krate: &TokenStream) -> TokenStream {
    let ident = &c.ident;
    let a = &c.attrs;
    let group = a.group.as_ref().map_or("", |g| g.value.as_str());
    let version = a.version.as_ref().map_or("", |v| v.value.as_str());
    let kind = kind_name(c);
    let api_version = api_version(c);
    let plural = a
        .plural
        .as_ref()
        .map_or_else(|| guess_plural(&kind), |p| p.value.clone());
    let singular = a
        .singular
        .as_ref()
        .map_or_else(|| kind.to_lowercase(), |s| s.value.clone());
    let list_kind = a
        .list_kind
        .as_ref()
        .map_or_else(|| format!("{kind}List"), |l| l.value.clone());
    let short_names = lit_list(&a.short_names);
    let categories = lit_list(&a.categories);
    let verbs = match &a.verbs {
        Some(_) => lit_list(&a.verbs),
        None => quote!(#krate::runtime::CUSTOM_RESOURCE_VERBS),
    };
    let extra_versions = lit_list(&a.extra_versions);
    let scope = match a.scope.first().map(|s| s.value) {
        Some(Scope::Cluster) => quote!(#krate::runtime::ResourceScope::Cluster),
        _ => quote!(#krate::runtime::ResourceScope::Namespaced),
    };
    let unversioned = a.unversioned.is_some();
    let is_list = c.fields.iter().any(|f| matches!(f.role, Role::Items(..)));
    let resource = if a.not_resource.is_some() || is_list {
        quote!(::core::option::Option::None)
    } else {
        quote! {
            ::core::option::Option::Some(#krate::runtime::ResourceMetadata {
                plural: #plural,
                singular: #singular,
                short_names: #short_names,
                categories: #categories,
                verbs: #verbs,
                scope: #scope,
            })
        }
    };
    quote! {
        impl #krate::runtime::Resource for #ident {
            const GROUP: &'static str = #group;
            const VERSION: &'static str = #version;
            const KIND: &'static str = #kind;
            const API_VERSION: &'static str = #api_version;
            const PLURAL: &'static str = #plural;
            const SINGULAR: &'static str = #singular;
            const SHORT_NAMES: &'static [&'static str] = #short_names;
            const CATEGORIES: &'static [&'static str] = #categories;
            const VERBS: &'static [&'static str] = #verbs;
            const SCOPE: #krate::runtime::ResourceScope = #scope;
            const LIST_KIND: &'static str = #list_kind;
            const REGISTRATION: #krate::runtime::Registration = #krate::runtime::Registration {
                group: #group,
                version: #version,
                kind: #kind,
                extra_versions: #extra_versions,
                unversioned: #unversioned,
                object_type: #krate::runtime::ObjectType::of::<#ident>(),
                resource: #resource,
            };
        }
    }
}

fn expand_list(c: &Container, krate: &TokenStream) -> TokenStream {
    let Some((field, item, optional)) = c.fields.iter().find_map(|f| match &f.role {
        Role::Items(item, optional) => Some((&f.ident, item, *optional)),
        _ => None,
    }) else {
        return TokenStream::new();
    };
    let ident = &c.ident;
    // `Option<Vec<T>>` items (Go's nil slice) read as empty; pushing makes them a slice.
    // Plain matches rather than `as_deref().unwrap_or_default()`, `get(..).map(..)` and
    // `get_or_insert_default()`: each of those generic helpers was compiled into every
    // list kind's methods (~65 IR lines for `item`, ~100 for the `Option<Vec<_>>`'s
    // `get_or_insert_with`, per kind; ~155 list kinds in k8s-types).
    let object = quote!(#krate::runtime::Object);
    let (len, item_ref, item_mut, push, clear) = if optional {
        (
            quote!(match &self.#field {
                ::core::option::Option::Some(items) => items.len(),
                ::core::option::Option::None => 0,
            }),
            quote!(match &self.#field {
                ::core::option::Option::Some(items) => match items.get(index) {
                    ::core::option::Option::Some(item) => ::core::option::Option::Some(item as &dyn #object),
                    ::core::option::Option::None => ::core::option::Option::None,
                },
                ::core::option::Option::None => ::core::option::Option::None,
            }),
            quote!(match &mut self.#field {
                ::core::option::Option::Some(items) => match items.get_mut(index) {
                    ::core::option::Option::Some(item) => ::core::option::Option::Some(item as &mut dyn #object),
                    ::core::option::Option::None => ::core::option::Option::None,
                },
                ::core::option::Option::None => ::core::option::Option::None,
            }),
            quote! {
                let mut items = match self.#field.take() {
                    ::core::option::Option::Some(items) => items,
                    ::core::option::Option::None => ::std::vec::Vec::new(),
                };
                items.push(*item);
                self.#field = ::core::option::Option::Some(items);
            },
            quote!(if let ::core::option::Option::Some(items) = &mut self.#field { items.clear(); }),
        )
    } else {
        (
            quote!(self.#field.len()),
            quote!(match self.#field.get(index) {
                ::core::option::Option::Some(item) => ::core::option::Option::Some(item as &dyn #object),
                ::core::option::Option::None => ::core::option::Option::None,
            }),
            quote!(match self.#field.get_mut(index) {
                ::core::option::Option::Some(item) => ::core::option::Option::Some(item as &mut dyn #object),
                ::core::option::Option::None => ::core::option::Option::None,
            }),
            quote!(self.#field.push(*item);),
            quote!(self.#field.clear();),
        )
    };
    quote! {
        impl #krate::runtime::ListObject for #ident {
            fn len(&self) -> usize { #len }
            fn item(&self, index: usize) -> ::core::option::Option<&dyn #object> {
                #item_ref
            }
            fn item_mut(&mut self, index: usize) -> ::core::option::Option<&mut dyn #object> {
                #item_mut
            }
            fn push_item(
                &mut self,
                item: ::std::boxed::Box<dyn #object>,
            ) -> ::core::result::Result<(), ::std::boxed::Box<dyn #object>> {
                let item = item.downcast::<#item>()?;
                #push
                ::core::result::Result::Ok(())
            }
            fn clear_items(&mut self) { #clear }
        }
    }
}
