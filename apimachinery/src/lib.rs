//! Kubernetes API machinery for Rust.
#![forbid(unsafe_code)]

pub mod apis;
pub mod meta;
pub mod schema;
