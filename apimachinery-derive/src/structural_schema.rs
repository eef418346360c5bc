//! `#[derive(StructuralSchema)]`: the OpenAPI v3 schema of a struct, one property per
//! serialized field under its JSON name, each field's doc comment its description.
//! An object (a struct with `metadata`) also gets `apiVersion` and `kind`, as CRD
//! schemas have them; a `TypeMeta` field stands for those two.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::model::{Container, Role};

/// The doc comment of an item, its lines trimmed and joined as rustdoc joins them.
fn doc(attrs: &[syn::Attribute]) -> String {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value().trim().to_owned()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    lines.join("\n").trim().to_owned()
}

pub fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let c = Container::from_ast(input)?;
    let krate = c.attrs.crate_path.as_ref().map_or_else(
        || quote!(::apimachinery),
        |p| {
            let path = &p.value;
            quote!(#path)
        },
    );
    // Field docs by name: the model keeps names and types, not attributes.
    let docs: Vec<(String, String)> = match &input.data {
        syn::Data::Struct(s) => s
            .fields
            .iter()
            .filter_map(|f| Some((f.ident.as_ref()?.to_string(), doc(&f.attrs))))
            .collect(),
        _ => Vec::new(),
    };
    let field_doc = |name: &str| {
        docs.iter()
            .find(|(n, _)| n == name)
            .map(|(_, d)| d.clone())
            .unwrap_or_default()
    };
    let schema = quote!(#krate::structural_schema::StructuralSchema);
    let string = quote!(<::std::string::String as #schema>::openapi_v3_schema());
    let is_object = c
        .fields
        .iter()
        .any(|f| matches!(f.role, Role::TypeMeta | Role::ObjectMeta));
    let mut properties = Vec::new();
    if is_object {
        properties.push(quote!(("apiVersion", "APIVersion defines the versioned schema of this representation of an object.", #string)));
        properties.push(quote!(("kind", "Kind is a string value representing the REST resource this object represents.", #string)));
    }
    for f in &c.fields {
        if matches!(f.role, Role::TypeMeta) {
            continue;
        }
        let (name, ty) = (&f.json_name, &f.ty);
        // An object's `metadata` is `type: object` and nothing else, as controller-gen
        // writes it: Go's CRD validation forbids anything more at the root (a description
        // included: "metadata is implicitly specified").
        let description = if matches!(f.role, Role::ObjectMeta) {
            String::new()
        } else {
            field_doc(&f.ident.to_string())
        };
        properties.push(quote!((#name, #description, <#ty as #schema>::openapi_v3_schema())));
    }
    let description = doc(&input.attrs);
    let ident = &c.ident;
    // Each type parameter's schema is part of the struct's.
    let mut generics = c.generics.clone();
    let params: Vec<syn::Ident> = generics.type_params().map(|p| p.ident.clone()).collect();
    let where_clause = generics.make_where_clause();
    for p in params {
        where_clause.predicates.push(syn::parse_quote!(#p: #schema));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    Ok(quote! {
        #[automatically_derived]
        impl #impl_generics #schema for #ident #ty_generics #where_clause {
            fn openapi_v3_schema() -> #krate::__private::serde_json::Value {
                #krate::structural_schema::object(#description, ::std::vec![#(#properties),*])
            }
        }
    })
}
