//! Code generation for `#[derive(Convert)]`: `AutoConvert` both ways between the type and
//! its hub, `Convert` both ways (the generated conversion, or the hand-written function
//! the attributes name), and the link-time registrations.
//!
//! Both directions destructure their input and build their output with struct literals
//! that name every field, so the compiler itself refuses a field without a peer: a field
//! of this type that the hub lacks is reported at that field ("no field named ..."), a hub
//! field this type lacks at the `hub = ...` path ("missing field ..." / "pattern does not
//! mention field ..."). Nothing is dropped silently; `skip` and `hub_only` are the only
//! ways to leave a field out.
//!
//! The code per field is one trait call and a `match` on its result whose error arm adds
//! the field's name to the path, so that by-value conversion of identically typed fields
//! compiles to moves. No closure, `?` or generic helper per field: each would be one more
//! function call (and, unoptimized, one more cleanup block) per field of every type.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use super::model::{Container, Peer};

pub fn expand(c: &Container) -> TokenStream {
    let krate = c.attrs.crate_path.as_ref().map_or_else(
        || quote!(::apimachinery),
        |p| {
            let path = &p.value;
            quote!(#path)
        },
    );
    let Some(hub) = c.attrs.hub.as_ref() else {
        return TokenStream::new();
    };
    let hub_path = &hub.value;
    // The hub's path carries the `hub = ...` span so that errors about hub fields point there.
    let hub_span = hub_path
        .segments
        .last()
        .map_or(hub.span, |s| s.ident.span());
    let hub_lit = respan_path(hub_path, hub_span);
    let conv = quote!(#krate::conversion);
    let ident = &c.ident;
    let result = |out: &TokenStream| quote!(::core::result::Result<#out, #conv::ConversionError>);
    let hub_ty = quote!(#hub_path);
    let self_ty = quote!(#ident);

    let vars: Vec<syn::Ident> = (0..c.fields.len())
        .map(|i| format_ident!("__f{}", i, span = Span::mixed_site()))
        .collect();

    // This type's side: every field named, skipped ones bound to `_`.
    let self_pattern = c.fields.iter().zip(&vars).map(|(f, v)| {
        let name = &f.ident;
        match f.peer {
            Peer::Field(_) => quote!(#name: #v),
            Peer::Skip => quote!(#name: _),
        }
    });
    let self_pattern = quote!(#ident { #(#self_pattern,)* });
    // The hub's side: every peer, plus `hub_only` fields.
    let hub_only: Vec<&syn::Ident> = c
        .attrs
        .hub_only
        .iter()
        .flat_map(|h| h.value.iter())
        .collect();
    let hub_pattern = c
        .fields
        .iter()
        .zip(&vars)
        .filter_map(|(f, v)| match &f.peer {
            Peer::Field(peer) => Some(quote!(#peer: #v)),
            Peer::Skip => None,
        });
    let hub_pattern = quote_spanned!(hub_span=> #hub_lit { #(#hub_pattern,)* #(#hub_only: _,)* });

    let field_value = |to_hub: bool| {
        let conv = conv.clone();
        move |(f, v): (&super::model::Field, &syn::Ident)| -> Option<TokenStream> {
            let Peer::Field(_) = f.peer else { return None };
            if f.same_type {
                // Nothing to convert and nothing that can fail.
                return Some(quote!(#v));
            }
            let json = &f.json_name;
            let call = match &f.with {
                Some(module) => {
                    let func = if to_hub {
                        quote!(to_hub)
                    } else {
                        quote!(from_hub)
                    };
                    let span = f.with_span.unwrap_or_else(Span::call_site);
                    let module = respan_path(module, span);
                    quote_spanned!(span=> #module::#func(#v, scope))
                }
                None => quote!(#conv::Convert::convert(#v, scope)),
            };
            let value = syn::Ident::new("__value", Span::mixed_site());
            let error = syn::Ident::new("__error", Span::mixed_site());
            Some(quote! {
                match #call {
                    ::core::result::Result::Ok(#value) => #value,
                    ::core::result::Result::Err(#error) => {
                        return ::core::result::Result::Err(#conv::ConversionError::in_field(#error, #json));
                    }
                }
            })
        }
    };
    let literal = |to_hub: bool| {
        let fields = c
            .fields
            .iter()
            .zip(&vars)
            .filter_map(|(f, v)| {
                let value = field_value(to_hub)((f, v));
                match (&f.peer, value) {
                    (Peer::Field(peer), Some(value)) if to_hub => Some(quote!(#peer: #value)),
                    (Peer::Field(_), Some(value)) => {
                        let name = &f.ident;
                        Some(quote!(#name: #value))
                    }
                    (Peer::Skip, _) if !to_hub => {
                        let name = &f.ident;
                        Some(quote!(#name: ::core::default::Default::default()))
                    }
                    _ => None,
                }
            })
            .collect::<Vec<_>>();
        if to_hub {
            let defaults = hub_only
                .iter()
                .map(|h| quote!(#h: ::core::default::Default::default()));
            quote_spanned!(hub_span=> #hub_lit { #(#fields,)* #(#defaults,)* })
        } else {
            quote!(#ident { #(#fields,)* })
        }
    };
    let to_hub_value = literal(true);
    let from_hub_value = literal(false);
    let r_hub = result(&hub_ty);
    let r_self = result(&self_ty);

    // A nested type's by-value body is inlined into its parent's, where identically typed
    // fields become moves. A registered type's body is kept out of line: otherwise the
    // registry's shim and the list's element loop each compiled a copy of the whole tree.
    //
    // By reference is a clone, then the by-value conversion. A field-by-field body of its
    // own cost as much machine code again as by value (a third of a crate of API types'
    // conversion code), and ran no faster: it allocates every string and list the clone
    // does, and since sibling versions share most nested types, it cloned most fields
    // anyway. `#[inline]`, so that nothing is compiled for the types nobody converts by
    // reference.
    let by_value_inline = if c.attrs.nested.is_some() {
        quote!(#[inline])
    } else {
        quote!(#[inline(never)])
    };
    let auto = quote! {
        impl #conv::AutoConvert<#hub_ty> for #self_ty {
            #by_value_inline
            fn auto_convert(self, scope: &#conv::Scope<'_>) -> #r_hub {
                let #self_pattern = self;
                ::core::result::Result::Ok(#to_hub_value)
            }
            #[inline]
            fn auto_convert_ref(&self, scope: &#conv::Scope<'_>) -> #r_hub {
                #conv::AutoConvert::<#hub_ty>::auto_convert(::core::clone::Clone::clone(self), scope)
            }
        }
        impl #conv::AutoConvert<#self_ty> for #hub_ty {
            #by_value_inline
            fn auto_convert(self, scope: &#conv::Scope<'_>) -> #r_self {
                let #hub_pattern = self;
                ::core::result::Result::Ok(#from_hub_value)
            }
            #[inline]
            fn auto_convert_ref(&self, scope: &#conv::Scope<'_>) -> #r_self {
                #conv::AutoConvert::<#self_ty>::auto_convert(::core::clone::Clone::clone(self), scope)
            }
        }
    };
    let mut registrations = vec![
        quote!(#conv::ConversionRegistration::auto_convert::<#self_ty, #hub_ty>()),
        quote!(#conv::ConversionRegistration::auto_convert::<#hub_ty, #self_ty>()),
    ];
    for (from, to, manual) in [
        (&self_ty, &hub_ty, &c.attrs.to_hub),
        (&hub_ty, &self_ty, &c.attrs.from_hub),
    ] {
        if manual.is_some() {
            registrations.push(quote!(
                #conv::ConversionRegistration::convert::<#from, #to>(#conv::Origin::Manual)
            ));
        }
    }
    let convert_impl = |from: &TokenStream,
                        to: &TokenStream,
                        manual: Option<&crate::model::Spanned<syn::Path>>| {
        let r = result(to);
        match manual {
            Some(m) => {
                let f = respan_path(&m.value, m.span);
                quote! {
                    impl #conv::Convert<#to> for #from {
                        #[inline]
                        fn convert(self, scope: &#conv::Scope<'_>) -> #r { #f(&self, scope) }
                        #[inline]
                        fn convert_ref(&self, scope: &#conv::Scope<'_>) -> #r { #f(self, scope) }
                    }
                }
            }
            None => quote! {
                impl #conv::Convert<#to> for #from {
                    #[inline]
                    fn convert(self, scope: &#conv::Scope<'_>) -> #r {
                        #conv::AutoConvert::<#to>::auto_convert(self, scope)
                    }
                    #[inline]
                    fn convert_ref(&self, scope: &#conv::Scope<'_>) -> #r {
                        #conv::AutoConvert::<#to>::auto_convert_ref(self, scope)
                    }
                }
            },
        }
    };
    // A nested type converts statically, through `Convert`, as a field of its parent:
    // registering it would only compile its conversions into the registry's closures.
    let registry = if c.attrs.nested.is_some() {
        TokenStream::new()
    } else {
        quote! {
            impl #conv::HubConversions for #self_ty {
                type Hub = #hub_ty;
                const REGISTRATIONS: &'static [#conv::ConversionRegistration] = &[#(#registrations),*];
            }
            #krate::__private::inventory::submit! {
                #conv::ConversionRegistrations(<#self_ty as #conv::HubConversions>::REGISTRATIONS)
            }
        }
    };
    let to = convert_impl(&self_ty, &hub_ty, c.attrs.to_hub.as_ref());
    let from = convert_impl(&hub_ty, &self_ty, c.attrs.from_hub.as_ref());
    quote! {
        #[doc(hidden)]
        #[allow(non_shorthand_field_patterns, unused_qualifications, clippy::all)]
        const _: () = {
            #auto
            #to
            #from
            #registry
        };
    }
}

/// `path` with every token at `span`, so that the compiler reports problems with it there.
fn respan_path(path: &syn::Path, span: Span) -> TokenStream {
    let tokens = quote!(#path);
    tokens
        .into_iter()
        .map(|mut t| {
            t.set_span(span);
            t
        })
        .collect()
}
