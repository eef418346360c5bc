//! The typed model of a `#[derive(ApiObject)]` input: attributes parsed once, with the
//! spans to report problems at.

use proc_macro2::Span;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned as _;
use syn::{Data, DeriveInput, Fields, GenericArgument, Ident, LitStr, PathArguments, Token, Type};

/// Collects every error found, so that all are reported at once.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    pub fn push(&mut self, e: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(e),
            None => self.0 = Some(e),
        }
    }

    pub fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}

/// A string attribute value and where it was written.
#[derive(Clone)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

/// The scope a container attribute asked for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Namespaced,
    Cluster,
}

/// The container attributes, as written.
#[derive(Default)]
pub struct ApiAttrs {
    /// The span of the first `#[api]` attribute, for errors about missing keys.
    pub span: Option<Span>,
    pub group: Option<Spanned<String>>,
    pub version: Option<Spanned<String>>,
    pub kind: Option<Spanned<String>>,
    pub plural: Option<Spanned<String>>,
    pub singular: Option<Spanned<String>>,
    pub list_kind: Option<Spanned<String>>,
    pub short_names: Option<Spanned<Vec<LitStr>>>,
    pub categories: Option<Spanned<Vec<LitStr>>>,
    pub verbs: Option<Spanned<Vec<LitStr>>>,
    pub extra_versions: Option<Spanned<Vec<LitStr>>>,
    pub scope: Vec<Spanned<Scope>>,
    pub unversioned: Option<Span>,
    pub not_resource: Option<Span>,
    pub no_type_meta: Option<Span>,
    pub omit_empty_type_meta: Option<Span>,
    pub protobuf: Option<Span>,
    /// `#[api(inline)]`: the codec methods are `#[inline]`, see `serde_impls::inline`.
    pub inline: Option<Span>,
    pub crate_path: Option<Spanned<syn::Path>>,
}

/// What a field is to the derive.
pub enum Role {
    /// The `TypeMeta` holding the declared kind.
    TypeMeta,
    /// `metadata: ObjectMeta`.
    ObjectMeta,
    /// `metadata: ListMeta`.
    ListMeta,
    /// `items: Vec<T>`, or `items: Option<Vec<T>>` (Go's `Items []T` without `omitempty`,
    /// `null` when nil); holds `T` and whether the field is an `Option`.
    Items(Box<Type>, bool),
    /// Any other field.
    Plain,
}

pub struct Field {
    pub ident: Ident,
    pub ty: Type,
    pub json_name: String,
    pub rename_span: Option<Span>,
    pub skip_serializing_if: Option<syn::ExprPath>,
    /// `#[api(nullable)]`: an `Option` written as `null` when `None`.
    pub nullable: Option<Span>,
    pub role: Role,
}

pub struct Container {
    pub ident: Ident,
    pub generics: syn::Generics,
    pub attrs: ApiAttrs,
    pub fields: Vec<Field>,
}

const CONTAINER_KEYS: &str = "group, version, kind, plural, singular, short_names, categories, verbs, \
    namespaced, cluster_scoped, list_kind, unversioned, extra_versions, not_resource, no_type_meta, omit_empty_type_meta, protobuf, inline, crate";

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
                        "ApiObject needs a struct with named fields",
                    ));
                    Vec::new()
                }
            },
            Data::Enum(e) => {
                errors.push(syn::Error::new(
                    e.enum_token.span,
                    "ApiObject can only be derived for structs with named fields, not enums",
                ));
                Vec::new()
            }
            Data::Union(u) => {
                errors.push(syn::Error::new(
                    u.union_token.span,
                    "ApiObject can only be derived for structs with named fields, not unions",
                ));
                Vec::new()
            }
        };
        let mut attrs = ApiAttrs::default();
        for attr in input.attrs.iter().filter(|a| a.path().is_ident("api")) {
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
        return Err(meta.error(format!(
            "duplicate `{}` in #[api(...)]",
            path_name(&meta.path)
        )));
    }
    *slot = Some(Spanned {
        value,
        span: meta.path.span(),
    });
    Ok(())
}

fn set_flag(slot: &mut Option<Span>, meta: &syn::meta::ParseNestedMeta) -> syn::Result<()> {
    if slot.is_some() {
        return Err(meta.error(format!(
            "duplicate `{}` in #[api(...)]",
            path_name(&meta.path)
        )));
    }
    *slot = Some(meta.path.span());
    Ok(())
}

fn path_name(path: &syn::Path) -> String {
    path.get_ident()
        .map_or_else(|| "?".to_owned(), ToString::to_string)
}

fn string_list(input: ParseStream) -> syn::Result<Vec<LitStr>> {
    let content;
    syn::bracketed!(content in input);
    Ok(Punctuated::<LitStr, Token![,]>::parse_terminated(&content)?
        .into_iter()
        .collect())
}

fn parse_container_attr(attr: &syn::Attribute, attrs: &mut ApiAttrs) -> syn::Result<()> {
    let mut errors = Errors::default();
    let result = attr.parse_nested_meta(|meta| {
        let key = path_name(&meta.path);
        let outcome = match key.as_str() {
            "group" => {
                let v: LitStr = meta.value()?.parse()?;
                set_once(&mut attrs.group, v.value(), &meta)
            }
            "version" => {
                let v: LitStr = meta.value()?.parse()?;
                set_once(&mut attrs.version, v.value(), &meta)
            }
            "kind" => {
                let v: LitStr = meta.value()?.parse()?;
                set_once(&mut attrs.kind, v.value(), &meta)
            }
            "plural" => {
                let v: LitStr = meta.value()?.parse()?;
                set_once(&mut attrs.plural, v.value(), &meta)
            }
            "singular" => {
                let v: LitStr = meta.value()?.parse()?;
                set_once(&mut attrs.singular, v.value(), &meta)
            }
            "list_kind" => {
                let v: LitStr = meta.value()?.parse()?;
                set_once(&mut attrs.list_kind, v.value(), &meta)
            }
            "short_names" => {
                let v = string_list(meta.value()?)?;
                set_once(&mut attrs.short_names, v, &meta)
            }
            "categories" => {
                let v = string_list(meta.value()?)?;
                set_once(&mut attrs.categories, v, &meta)
            }
            "verbs" => {
                let v = string_list(meta.value()?)?;
                set_once(&mut attrs.verbs, v, &meta)
            }
            "extra_versions" => {
                let v = string_list(meta.value()?)?;
                set_once(&mut attrs.extra_versions, v, &meta)
            }
            "namespaced" | "cluster_scoped" => {
                let scope = if key == "namespaced" {
                    Scope::Namespaced
                } else {
                    Scope::Cluster
                };
                attrs.scope.push(Spanned {
                    value: scope,
                    span: meta.path.span(),
                });
                Ok(())
            }
            "unversioned" => set_flag(&mut attrs.unversioned, &meta),
            "not_resource" => set_flag(&mut attrs.not_resource, &meta),
            "no_type_meta" => set_flag(&mut attrs.no_type_meta, &meta),
            "omit_empty_type_meta" => set_flag(&mut attrs.omit_empty_type_meta, &meta),
            "protobuf" => set_flag(&mut attrs.protobuf, &meta),
            "inline" => set_flag(&mut attrs.inline, &meta),
            "crate" => {
                let v: LitStr = meta.value()?.parse()?;
                let path: syn::Path = v.parse()?;
                set_once(&mut attrs.crate_path, path, &meta)
            }
            _ => Err(meta.error(format!(
                "unknown key `{key}` in #[api(...)]; expected one of: {CONTAINER_KEYS}"
            ))),
        };
        // Keep going after a bad key so that every problem is reported.
        if let Err(e) = outcome {
            errors.push(e);
            if meta.input.peek(Token![=]) {
                let _: Token![=] = meta.input.parse()?;
                let _: syn::Expr = meta.input.parse()?;
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        errors.push(e);
    }
    errors.finish()
}

impl Field {
    fn from_ast(field: &syn::Field) -> syn::Result<Field> {
        let ident = field
            .ident
            .clone()
            .ok_or_else(|| syn::Error::new(field.span(), "expected a named field"))?;
        let mut rename: Option<Spanned<String>> = None;
        let mut skip_serializing_if: Option<Spanned<syn::ExprPath>> = None;
        let mut nullable: Option<Span> = None;
        for attr in field.attrs.iter().filter(|a| a.path().is_ident("api")) {
            attr.parse_nested_meta(|meta| {
                let key = path_name(&meta.path);
                match key.as_str() {
                    "rename" => {
                        let v: LitStr = meta.value()?.parse()?;
                        set_once(&mut rename, v.value(), &meta)
                    }
                    "skip_serializing_if" => {
                        let v: LitStr = meta.value()?.parse()?;
                        let path: syn::ExprPath = v.parse()?;
                        set_once(&mut skip_serializing_if, path, &meta)
                    }
                    "nullable" => set_flag(&mut nullable, &meta),
                    _ => Err(meta.error(format!(
                        "unknown key `{key}` in field #[api(...)]; expected `rename`, `skip_serializing_if` or `nullable`"
                    ))),
                }
            })?;
        }
        let name = ident.to_string();
        let role = field_role(&name, &field.ty);
        let json_name = rename.as_ref().map_or_else(
            || crate::naming::lower_camel_case(&name),
            |r| r.value.clone(),
        );
        Ok(Field {
            ident,
            ty: field.ty.clone(),
            json_name,
            rename_span: rename.map(|r| r.span),
            skip_serializing_if: skip_serializing_if.map(|s| s.value),
            nullable,
            role,
        })
    }
}

/// The last segment of a type path, such as `ObjectMeta` for `meta::v1::ObjectMeta`.
pub fn last_segment(ty: &Type) -> Option<&syn::PathSegment> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last(),
        _ => None,
    }
}

/// The `T` of `Wrapper<T>`, when `ty` is `Wrapper<T>` for the named wrapper.
pub fn generic_arg<'a>(ty: &'a Type, wrapper: &str) -> Option<&'a Type> {
    let seg = last_segment(ty)?;
    if seg.ident != wrapper {
        return None;
    }
    match &seg.arguments {
        PathArguments::AngleBracketed(args) if args.args.len() == 1 => match args.args.first() {
            Some(GenericArgument::Type(t)) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

fn field_role(name: &str, ty: &Type) -> Role {
    let last = last_segment(ty).map(|s| s.ident.to_string());
    // Items of any object, kept raw (core's `v1 List` of `RawExtension`s), are no typed
    // list: the objects are read when something reads them.
    let raw_items = |item: &Type| last_segment(item).is_some_and(|s| s.ident == "RawExtension");
    match (name, last.as_deref()) {
        (_, Some("TypeMeta")) => Role::TypeMeta,
        ("metadata", Some("ObjectMeta")) => Role::ObjectMeta,
        ("metadata", Some("ListMeta")) => Role::ListMeta,
        ("items", Some("Vec")) => match generic_arg(ty, "Vec") {
            Some(item) if !raw_items(item) => Role::Items(Box::new(item.clone()), false),
            _ => Role::Plain,
        },
        ("items", Some("Option")) => {
            match generic_arg(ty, "Option").and_then(|v| generic_arg(v, "Vec")) {
                Some(item) if !raw_items(item) => Role::Items(Box::new(item.clone()), true),
                _ => Role::Plain,
            }
        }
        _ => Role::Plain,
    }
}
