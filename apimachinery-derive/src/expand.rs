//! Code generation: `Object`, `Resource`, `ListObject` (for lists), serde's `Serialize`
//! and `Deserialize`, and the link-time registration.
//!
//! Generated code names everything through the `apimachinery` crate path (default
//! `::apimachinery`), including serde and inventory through its `__private` re-exports,
//! so that users need no other dependency.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};

use crate::model::{Container, Field, Role, Scope, generic_arg};
use crate::naming::guess_plural;

pub fn expand(c: &Container) -> TokenStream {
    let krate = c.attrs.crate_path.as_ref().map_or_else(
        || quote!(::apimachinery),
        |p| {
            let path = &p.value;
            quote!(#path)
        },
    );
    let object = expand_object(c, &krate);
    let resource = expand_resource(c, &krate);
    let list = expand_list(c, &krate);
    let serialize = expand_serialize(c, &krate);
    let deserialize = expand_deserialize(c, &krate);
    let ident = &c.ident;
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all)]
        const _: () = {
            #object
            #resource
            #list
            #serialize
            #deserialize
            #krate::__private::inventory::submit! {
                <#ident as #krate::runtime::Resource>::REGISTRATION
            }
        };
    }
}

fn type_meta_field(c: &Container) -> Option<&Field> {
    c.fields.iter().find(|f| matches!(f.role, Role::TypeMeta))
}

fn expand_object(c: &Container, krate: &TokenStream) -> TokenStream {
    let ident = &c.ident;
    let (gvk, set_gvk) = match type_meta_field(c) {
        Some(f) => {
            let name = &f.ident;
            (
                quote! {
                    if self.#name.is_empty() {
                        <Self as #krate::runtime::Resource>::gvk()
                    } else {
                        self.#name.group_version_kind()
                    }
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
            Role::Items(_) => {
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
            fn as_proto_message(&self) -> ::core::option::Option<&dyn #krate::protobuf::Message> { ::core::option::Option::Some(self) }
            fn as_proto_message_mut(&mut self) -> ::core::option::Option<&mut dyn #krate::protobuf::Message> { ::core::option::Option::Some(self) }
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
            fn as_serialize(&self) -> &dyn #krate::__private::erased_serde::Serialize { self }
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
    let kind = a
        .kind
        .as_ref()
        .map_or_else(|| ident.to_string(), |k| k.value.clone());
    let api_version = if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    };
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
    let is_list = c.fields.iter().any(|f| matches!(f.role, Role::Items(_)));
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
    let Some((field, item)) = c.fields.iter().find_map(|f| match &f.role {
        Role::Items(item) => Some((&f.ident, item)),
        _ => None,
    }) else {
        return TokenStream::new();
    };
    let ident = &c.ident;
    quote! {
        impl #krate::runtime::ListObject for #ident {
            fn len(&self) -> usize { self.#field.len() }
            fn item(&self, index: usize) -> ::core::option::Option<&dyn #krate::runtime::Object> {
                self.#field.get(index).map(|i| i as &dyn #krate::runtime::Object)
            }
            fn item_mut(&mut self, index: usize) -> ::core::option::Option<&mut dyn #krate::runtime::Object> {
                self.#field.get_mut(index).map(|i| i as &mut dyn #krate::runtime::Object)
            }
            fn push_item(
                &mut self,
                item: ::std::boxed::Box<dyn #krate::runtime::Object>,
            ) -> ::core::result::Result<(), ::std::boxed::Box<dyn #krate::runtime::Object>> {
                let item = item.downcast::<#item>()?;
                self.#field.push(*item);
                ::core::result::Result::Ok(())
            }
            fn clear_items(&mut self) { self.#field.clear(); }
        }
    }
}

fn expand_serialize(c: &Container, krate: &TokenStream) -> TokenStream {
    let ident = &c.ident;
    let serde = quote!(#krate::__private::serde);
    let (kind, api_version) = match type_meta_field(c) {
        Some(f) => {
            let name = &f.ident;
            (
                quote! {
                    if self.#name.kind.is_empty() { <Self as #krate::runtime::Resource>::KIND } else { self.#name.kind.as_str() }
                },
                quote! {
                    if self.#name.api_version.is_empty() { <Self as #krate::runtime::Resource>::API_VERSION } else { self.#name.api_version.as_str() }
                },
            )
        }
        None => (
            quote!(<Self as #krate::runtime::Resource>::KIND),
            quote!(<Self as #krate::runtime::Resource>::API_VERSION),
        ),
    };
    let fields: Vec<&Field> = c
        .fields
        .iter()
        .filter(|f| !matches!(f.role, Role::TypeMeta))
        .collect();
    let no_type_meta = c.attrs.no_type_meta.is_some();
    let len = fields.len() + if no_type_meta { 0 } else { 2 };
    // Go types without TypeMeta (WatchEvent) write neither.
    let type_meta_writes = if no_type_meta {
        TokenStream::new()
    } else if let (Some(f), Some(_)) = (type_meta_field(c), c.attrs.omit_empty_type_meta) {
        // Go's TypeMeta: each string written when set (objects nested in others, such as
        // a StatefulSet's claim templates, usually have neither).
        let name = &f.ident;
        quote! {
            if self.#name.kind.is_empty() {
                #serde::ser::SerializeStruct::skip_field(&mut state, "kind")?;
            } else {
                #serde::ser::SerializeStruct::serialize_field(&mut state, "kind", &self.#name.kind)?;
            }
            if self.#name.api_version.is_empty() {
                #serde::ser::SerializeStruct::skip_field(&mut state, "apiVersion")?;
            } else {
                #serde::ser::SerializeStruct::serialize_field(&mut state, "apiVersion", &self.#name.api_version)?;
            }
        }
    } else {
        quote! {
            #serde::ser::SerializeStruct::serialize_field(&mut state, "kind", #kind)?;
            #serde::ser::SerializeStruct::serialize_field(&mut state, "apiVersion", #api_version)?;
        }
    };
    let writes = fields.iter().map(|f| {
        let name = &f.ident;
        let json = &f.json_name;
        let skip = f
            .skip_serializing_if
            .as_ref()
            .map(|p| quote!(#p))
            .or_else(|| {
                generic_arg(&f.ty, "Option").map(|_| quote!(::core::option::Option::is_none))
            });
        match skip {
            Some(skip) => quote! {
                if #skip(&self.#name) {
                    #serde::ser::SerializeStruct::skip_field(&mut state, #json)?;
                } else {
                    #serde::ser::SerializeStruct::serialize_field(&mut state, #json, &self.#name)?;
                }
            },
            None => quote! {
                #serde::ser::SerializeStruct::serialize_field(&mut state, #json, &self.#name)?;
            },
        }
    });
    quote! {
        impl #serde::Serialize for #ident {
            fn serialize<S: #serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                let mut state = serializer.serialize_struct(<Self as #krate::runtime::Resource>::KIND, #len)?;
                #type_meta_writes
                #(#writes)*
                #serde::ser::SerializeStruct::end(state)
            }
        }
    }
}

fn expand_deserialize(c: &Container, krate: &TokenStream) -> TokenStream {
    let ident = &c.ident;
    let serde = quote!(#krate::__private::serde);
    let type_meta = type_meta_field(c).map(|f| &f.ident);
    let fields: Vec<&Field> = c
        .fields
        .iter()
        .filter(|f| !matches!(f.role, Role::TypeMeta))
        .collect();
    let variants: Vec<syn::Ident> = (0..fields.len())
        .map(|i| format_ident!("__F{}", i, span = Span::call_site()))
        .collect();
    let json_names: Vec<&str> = fields.iter().map(|f| f.json_name.as_str()).collect();
    let assigns = fields.iter().zip(&variants).map(|(f, v)| {
        let name = &f.ident;
        let ty = &f.ty;
        // `null` reads as the zero value, as Go's decoder leaves the field untouched.
        quote! {
            __Field::#v => {
                value.#name = #serde::de::MapAccess::next_value::<::core::option::Option<#ty>>(&mut map)?
                    .unwrap_or_default();
            }
        }
    });
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
    let expecting = format!("a {} object", ident);
    quote! {
        impl<'de> #serde::Deserialize<'de> for #ident {
            fn deserialize<D: #serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                enum __Field { __Kind, __ApiVersion, #(#variants,)* __Ignore }
                struct __FieldVisitor;
                impl<'de> #serde::de::Visitor<'de> for __FieldVisitor {
                    type Value = __Field;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str("a field name")
                    }
                    fn visit_str<E: #serde::de::Error>(self, v: &str) -> ::core::result::Result<__Field, E> {
                        ::core::result::Result::Ok(match v {
                            "kind" => __Field::__Kind,
                            "apiVersion" => __Field::__ApiVersion,
                            #(#json_names => __Field::#variants,)*
                            _ => __Field::__Ignore,
                        })
                    }
                }
                impl<'de> #serde::Deserialize<'de> for __Field {
                    fn deserialize<D: #serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                        d.deserialize_identifier(__FieldVisitor)
                    }
                }
                struct __Visitor;
                impl<'de> #serde::de::Visitor<'de> for __Visitor {
                    type Value = #ident;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str(#expecting)
                    }
                    fn visit_map<A: #serde::de::MapAccess<'de>>(self, mut map: A) -> ::core::result::Result<#ident, A::Error> {
                        let mut value = <#ident as ::core::default::Default>::default();
                        while let ::core::option::Option::Some(key) = #serde::de::MapAccess::next_key::<__Field>(&mut map)? {
                            match key {
                                __Field::__Kind => { #kind_arm }
                                __Field::__ApiVersion => { #api_version_arm }
                                #(#assigns)*
                                __Field::__Ignore => {
                                    #serde::de::MapAccess::next_value::<#serde::de::IgnoredAny>(&mut map)?;
                                }
                            }
                        }
                        ::core::result::Result::Ok(value)
                    }
                }
                deserializer.deserialize_map(__Visitor)
            }
        }
    }
}
