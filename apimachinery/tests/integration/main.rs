//! The integration tests of `apimachinery`, one module per concern, linked as one test
//! binary, as in the other crates: each test binary is a link of its own, so one per file
//! cost link time and disk. Run one concern with `cargo test -p apimachinery --test
//! integration <module>::`.

mod derive_api_kind;
mod module_layers;
#[cfg(feature = "apply")]
mod strategic_merge_patch_kubectl;
mod validation_never_panics;
