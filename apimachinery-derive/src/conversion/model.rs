//! The typed model of a `#[derive(Convert)]` input.

use proc_macro2::Span;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned as _;
use syn::{Data, DeriveInput, Fields, Ident, LitStr, Token};

use crate::model::{Errors, Spanned};

/// The container attributes.
#[derive(Default)]
pub struct Attrs {
    pub span: Option<Span>,
    pub hub: Option<Spanned<syn::Path>>,
    pub to_hub: Option<Spanned<syn::Path>>,
    pub from_hub: Option<Spanned<syn::Path>>,
    pub hub_only: Option<Spanned<Vec<Ident>>>,
    pub crate_path: Option<Spanned<syn::Path>>,
    /// `nested`: the type is only converted as a field of another, statically; its
    /// conversions are not submitted to the scheme's registry.
    pub nested: Option<Span>,
}

/// How a field reaches the hub.
pub enum Peer {
    /// The hub field of this name (the field's own, or its `rename`).
    Field(Ident),
    /// None: the field is marked `skip`.
    Skip,
}

pub struct Field {
    pub ident: Ident,
    pub peer: Peer,
    /// `with = module`: `module::to_hub` and `module::from_hub` convert the value.
    pub with: Option<syn::Path>,
    /// The name used in error paths: the JSON name.
    pub json_name: String,
    pub rename_span: Option<Span>,
    pub with_span: Option<Span>,
    /// `same_type`: the hub field has this field's type, so the value is moved without a
    /// conversion call. The struct literal the derive
    /// writes makes the compiler check the claim (a type mismatch at the derive).
    pub same_type: bool,
}

pub struct Container {
    pub ident: Ident,
    pub generics: syn::Generics,
    pub attrs: Attrs,
    pub fields: Vec<Field>,
}

const CONTAINER_KEYS: &str = "hub, to_hub, from_hub, hub_only, nested, crate";

impl Container {
    pub fn from_ast(input: &DeriveInput) -> syn::Result<Container> {
        let mut errors = Errors::default();
        let fields = match &input.data {
            Data::Struct(s) => match &s.fields {
                Fields::Named(named) => named
                    .named
                    .iter()
                    .filter_map(|f| match Field::from_ast(f) {
                        Ok(field) => Some(field),
                        Err(e) => {
                            errors.push(e);
                            None
                        }
                    })
                    .collect(),
                other => {
                    errors.push(syn::Error::new(
                        other.span(),
                        "Convert needs a struct with named fields",
                    ));
                    Vec::new()
                }
            },
            Data::Enum(e) => {
                errors.push(syn::Error::new(
                    e.enum_token.span,
                    "Convert can only be derived for structs with named fields, not enums",
                ));
                Vec::new()
            }
            Data::Union(u) => {
                errors.push(syn::Error::new(
                    u.union_token.span,
                    "Convert can only be derived for structs with named fields, not unions",
                ));
                Vec::new()
            }
        };
        let mut attrs = Attrs::default();
        for attr in input
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("conversion"))
        {
            attrs.span.get_or_insert(attr.path().span());
            if let Err(e) = parse_container_attr(attr, &mut attrs) {
                errors.push(e);
            }
        }
        errors.finish()?;
        Ok(Container {
            ident: input.ident.clone(),
            generics: input.generics.clone(),
            attrs,
            fields,
        })
    }
}

fn set_once<T>(
    slot: &mut Option<Spanned<T>>,
    value: T,
    meta: &syn::meta::ParseNestedMeta,
) -> syn::Result<()> {
    if slot.is_some() {
        return Err(meta.error("duplicate key in #[conversion(...)]"));
    }
    *slot = Some(Spanned {
        value,
        span: meta.path.span(),
    });
    Ok(())
}

fn ident_list(input: ParseStream) -> syn::Result<Vec<Ident>> {
    let content;
    syn::bracketed!(content in input);
    Ok(Punctuated::<Ident, Token![,]>::parse_terminated(&content)?
        .into_iter()
        .collect())
}

fn key(meta: &syn::meta::ParseNestedMeta) -> String {
    meta.path
        .get_ident()
        .map_or_else(|| "?".to_owned(), ToString::to_string)
}

fn parse_container_attr(attr: &syn::Attribute, attrs: &mut Attrs) -> syn::Result<()> {
    attr.parse_nested_meta(|meta| match key(&meta).as_str() {
        "hub" => {
            let v: syn::Path = meta.value()?.parse()?;
            set_once(&mut attrs.hub, v, &meta)
        }
        "to_hub" => {
            let v: syn::Path = meta.value()?.parse()?;
            set_once(&mut attrs.to_hub, v, &meta)
        }
        "from_hub" => {
            let v: syn::Path = meta.value()?.parse()?;
            set_once(&mut attrs.from_hub, v, &meta)
        }
        "hub_only" => {
            let v = ident_list(meta.value()?)?;
            set_once(&mut attrs.hub_only, v, &meta)
        }
        "crate" => {
            let v: LitStr = meta.value()?.parse()?;
            let path: syn::Path = v.parse()?;
            set_once(&mut attrs.crate_path, path, &meta)
        }
        "nested" => {
            if attrs.nested.is_some() {
                return Err(meta.error("duplicate key `nested` in #[conversion(...)]"));
            }
            attrs.nested = Some(meta.path.span());
            Ok(())
        }
        other => Err(meta.error(format!(
            "unknown key `{other}` in #[conversion(...)]; expected one of: {CONTAINER_KEYS}"
        ))),
    })
}

/// The JSON name another derive gives the field: `#[api(rename = "..")]` or
/// `#[serde(rename = "..")]`. Their other keys are theirs to check.
fn json_rename(field: &syn::Field) -> Option<String> {
    let mut found = None;
    for attr in &field.attrs {
        if !(attr.path().is_ident("api") || attr.path().is_ident("serde")) {
            continue;
        }
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                if let Ok(v) = meta.value().and_then(|v| v.parse::<LitStr>()) {
                    found = Some(v.value());
                }
            } else if meta.input.peek(Token![=]) {
                let _: Token![=] = meta.input.parse()?;
                let _: syn::Expr = meta.input.parse()?;
            } else if meta.input.peek(syn::token::Paren) {
                let _content;
                syn::parenthesized!(_content in meta.input);
            }
            Ok(())
        });
    }
    found
}

impl Field {
    fn from_ast(field: &syn::Field) -> syn::Result<Field> {
        let ident = field
            .ident
            .clone()
            .ok_or_else(|| syn::Error::new(field.span(), "expected a named field"))?;
        let mut rename: Option<Spanned<Ident>> = None;
        let mut skip: Option<Span> = None;
        let mut with: Option<Spanned<syn::Path>> = None;
        let mut same_type: Option<Span> = None;
        for attr in field
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("conversion"))
        {
            attr.parse_nested_meta(|meta| match key(&meta).as_str() {
                "rename" => {
                    let v: LitStr = meta.value()?.parse()?;
                    let peer: Ident = v.parse().map_err(|_| {
                        syn::Error::new(v.span(), "`rename` must name a field of the hub")
                    })?;
                    let peer = Ident::new(&peer.to_string(), v.span());
                    set_once(&mut rename, peer, &meta)
                }
                "skip" => {
                    if skip.is_some() {
                        return Err(meta.error("duplicate key in #[conversion(...)]"));
                    }
                    skip = Some(meta.path.span());
                    Ok(())
                }
                "with" => {
                    let v: syn::Path = meta.value()?.parse()?;
                    let span = v.segments.first().map_or_else(|| meta.path.span(), |s| s.ident.span());
                    set_once(&mut with, v, &meta)?;
                    // Point problems with the functions at the module path, not the key.
                    if let Some(w) = &mut with {
                        w.span = span;
                    }
                    Ok(())
                }
                "same_type" => {
                    if same_type.is_some() {
                        return Err(meta.error("duplicate key in #[conversion(...)]"));
                    }
                    same_type = Some(meta.path.span());
                    Ok(())
                }
                other => Err(meta.error(format!(
                    "unknown key `{other}` in field #[conversion(...)]; expected `rename`, `skip`, `with` or `same_type`"
                ))),
            })?;
        }
        if let Some(span) = same_type {
            if skip.is_some() || with.is_some() {
                return Err(syn::Error::new(
                    span,
                    "`same_type` moves the value as it is: it cannot be combined with `skip` or `with`",
                ));
            }
        }
        let json_name = json_rename(field)
            .unwrap_or_else(|| crate::naming::lower_camel_case(&ident.to_string()));
        let rename_span = rename.as_ref().map(|r| r.span);
        let peer = match (skip, rename) {
            (Some(_), _) => Peer::Skip,
            (None, Some(r)) => Peer::Field(r.value),
            (None, None) => Peer::Field(ident.clone()),
        };
        let same_type = same_type.is_some();
        Ok(Field {
            ident,
            peer,
            json_name,
            rename_span,
            with_span: with.as_ref().map(|w| w.span),
            with: with.map(|w| w.value),
            same_type,
        })
    }
}
