//! Checks of the parsed model that need the whole input: required keys, conflicting
//! keys, field names, and the shapes the derive cannot handle.

use syn::spanned::Spanned;

use crate::model::{Container, Errors, Role, generic_arg};

pub fn check(c: &Container) -> syn::Result<()> {
    let mut errors = Errors::default();
    if !c.generics.params.is_empty() || c.generics.where_clause.is_some() {
        errors.push(syn::Error::new(
            c.generics.span(),
            "ApiObject cannot be derived for generic types: a registered kind needs one concrete type",
        ));
    }
    match (&c.attrs.span, &c.attrs.version) {
        (None, _) => errors.push(syn::Error::new(
            c.ident.span(),
            "missing #[api(version = \"...\")]: ApiObject needs at least the version of the kind",
        )),
        (Some(span), None) => {
            errors.push(syn::Error::new(*span, "missing `version` in #[api(...)]"))
        }
        (Some(_), Some(v)) if v.value.is_empty() || v.value.contains('/') => errors.push(
            syn::Error::new(v.span, "`version` must be a non-empty version without `/`"),
        ),
        _ => {}
    }
    if let Some(g) = &c.attrs.group
        && g.value.contains('/')
    {
        errors.push(syn::Error::new(g.span, "`group` must not contain `/`"));
    }
    if let Some(k) = &c.attrs.kind
        && k.value.is_empty()
    {
        errors.push(syn::Error::new(k.span, "`kind` must not be empty"));
    }
    if let [_, second, ..] = c.attrs.scope.as_slice() {
        errors.push(syn::Error::new(
            second.span,
            "give one scope: `namespaced` or `cluster_scoped`",
        ));
    }
    if let Some(extra) = &c.attrs.extra_versions {
        for v in &extra.value {
            if v.value().is_empty() || v.value().contains('/') {
                errors.push(syn::Error::new(
                    v.span(),
                    "extra versions must be non-empty versions without `/`",
                ));
            }
        }
    }

    if let Some(span) = c.attrs.no_type_meta
        && type_meta_field_count(c) > 0
    {
        errors.push(syn::Error::new(
            span,
            "`no_type_meta` writes neither kind nor apiVersion, so a TypeMeta field would be lost",
        ));
    }

    if let Some(span) = c.attrs.omit_empty_type_meta {
        if type_meta_field_count(c) == 0 {
            errors.push(syn::Error::new(
                span,
                "`omit_empty_type_meta` writes kind and apiVersion from a TypeMeta field; add one",
            ));
        }
        if c.attrs.no_type_meta.is_some() {
            errors.push(syn::Error::new(
                span,
                "give one of `no_type_meta` and `omit_empty_type_meta`",
            ));
        }
    }

    let mut seen: Vec<&str> = if c.attrs.no_type_meta.is_some() {
        Vec::new()
    } else {
        vec!["kind", "apiVersion"]
    };
    let mut type_metas = 0;
    for f in &c.fields {
        if matches!(f.role, Role::TypeMeta) {
            type_metas += 1;
            if type_metas > 1 {
                errors.push(syn::Error::new(
                    f.ident.span(),
                    "only one TypeMeta field is allowed",
                ));
            }
            continue;
        }
        let span = f.rename_span.unwrap_or_else(|| f.ident.span());
        if seen.contains(&f.json_name.as_str()) {
            errors.push(syn::Error::new(
                span,
                format!(
                    "JSON field name `{}` is used twice (`kind` and `apiVersion` are written from the TypeMeta)",
                    f.json_name
                ),
            ));
        } else {
            seen.push(&f.json_name);
        }
    }
    check_nullable(c, &mut errors);
    errors.finish()
}

/// `#[derive(ApiType)]` takes no container key but `crate`, and needs distinct JSON names.
pub fn check_type(c: &Container) -> syn::Result<()> {
    let mut errors = Errors::default();
    if !c.generics.params.is_empty() || c.generics.where_clause.is_some() {
        errors.push(syn::Error::new(
            c.generics.span(),
            "ApiType cannot be derived for generic types",
        ));
    }
    let a = &c.attrs;
    let object_keys = [
        a.group.as_ref().map(|s| s.span),
        a.version.as_ref().map(|s| s.span),
        a.kind.as_ref().map(|s| s.span),
        a.plural.as_ref().map(|s| s.span),
        a.singular.as_ref().map(|s| s.span),
        a.list_kind.as_ref().map(|s| s.span),
        a.short_names.as_ref().map(|s| s.span),
        a.categories.as_ref().map(|s| s.span),
        a.extra_versions.as_ref().map(|s| s.span),
        a.scope.first().map(|s| s.span),
        a.unversioned,
        a.not_resource,
        a.no_type_meta,
        a.omit_empty_type_meta,
        a.protobuf,
    ];
    for span in object_keys.into_iter().flatten() {
        errors.push(syn::Error::new(
            span,
            "ApiType takes no object keys (only `crate` and `inline`); derive ApiObject for a kind",
        ));
    }
    let mut seen: Vec<&str> = Vec::new();
    for f in &c.fields {
        if seen.contains(&f.json_name.as_str()) {
            errors.push(syn::Error::new(
                f.rename_span.unwrap_or_else(|| f.ident.span()),
                format!("JSON field name `{}` is used twice", f.json_name),
            ));
        } else {
            seen.push(&f.json_name);
        }
    }
    check_nullable(c, &mut errors);
    errors.finish()
}

/// `nullable` writes `None` as `null`: only an `Option` has a `None`.
fn check_nullable(c: &Container, errors: &mut Errors) {
    for f in &c.fields {
        if let Some(span) = f.nullable
            && generic_arg(&f.ty, "Option").is_none()
        {
            errors.push(syn::Error::new(
                span,
                "`nullable` writes `None` as `null`; the field must be an `Option`",
            ));
        }
    }
}

fn type_meta_field_count(c: &Container) -> usize {
    c.fields
        .iter()
        .filter(|f| matches!(f.role, Role::TypeMeta))
        .count()
}
