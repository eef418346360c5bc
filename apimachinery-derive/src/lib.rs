//! `#[derive(ApiObject)]` for the `apimachinery` crate.
