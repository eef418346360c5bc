//! Kubernetes API machinery for Rust.
#![forbid(unsafe_code)]

pub mod schema;
