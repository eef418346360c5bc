//! `#[derive(Convert)]`: the field-by-field conversion between a type and its hub, built
//! like `ApiObject` ([`model`] → [`check`] → [`expand`]).

pub mod check;
pub mod expand;
pub mod model;

use proc_macro2::TokenStream;

pub fn derive(input: &syn::DeriveInput) -> TokenStream {
    model::Container::from_ast(input)
        .and_then(|c| check::check(&c).map(|()| c))
        .map(|c| expand::expand(&c))
        .unwrap_or_else(syn::Error::into_compile_error)
}
