//! The built-in admission plugins.

pub mod namespace_lifecycle;

pub use namespace_lifecycle::NamespaceLifecycle;
