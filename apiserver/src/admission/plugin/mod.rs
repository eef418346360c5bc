//! The built-in admission plugins.

pub mod default_toleration_seconds;
pub mod namespace_lifecycle;
mod pods;
pub mod priority;
pub mod service_account;

pub use default_toleration_seconds::DefaultTolerationSeconds;
pub use namespace_lifecycle::NamespaceLifecycle;
pub use priority::Priority;
pub use service_account::ServiceAccount;
