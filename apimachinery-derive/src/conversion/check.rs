//! Checks of a `#[derive(Convert)]` model that need the whole input.

use syn::spanned::Spanned;

use super::model::{Container, Peer};
use crate::model::Errors;

pub fn check(c: &Container) -> syn::Result<()> {
    let mut errors = Errors::default();
    if !c.generics.params.is_empty() || c.generics.where_clause.is_some() {
        errors.push(syn::Error::new(
            c.generics.span(),
            "Convert cannot be derived for generic types",
        ));
    }
    match (&c.attrs.span, &c.attrs.hub) {
        (None, _) => errors.push(syn::Error::new(
            c.ident.span(),
            "missing #[conversion(hub = path::to::Hub)]: Convert needs the type to convert to and from",
        )),
        (Some(span), None) => errors.push(syn::Error::new(
            *span,
            "missing `hub = path::to::Hub` in #[conversion(...)]",
        )),
        _ => {}
    }
    let mut peers: Vec<String> = Vec::new();
    for f in &c.fields {
        match &f.peer {
            Peer::Skip => {
                if let Some(s) = f.rename_span.or(f.with_span) {
                    errors.push(syn::Error::new(
                        s,
                        "a skipped field has no peer: `skip` cannot be combined with `rename` or `with`",
                    ));
                }
            }
            Peer::Field(peer) => {
                let name = peer.to_string();
                if peers.contains(&name) {
                    errors.push(syn::Error::new(
                        f.rename_span.unwrap_or_else(|| f.ident.span()),
                        format!("two fields convert to the hub field `{name}`"),
                    ));
                } else {
                    peers.push(name);
                }
            }
        }
    }
    if let Some(hub_only) = &c.attrs.hub_only {
        for h in &hub_only.value {
            if peers.contains(&h.to_string()) {
                errors.push(syn::Error::new(
                    h.span(),
                    format!("hub field `{h}` is listed in `hub_only` but a field converts to it"),
                ));
            }
        }
    }
    errors.finish()
}
