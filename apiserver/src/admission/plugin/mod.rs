//! The built-in admission plugins.

pub mod certificate_subject_restriction;
pub mod default_ingress_class;
pub mod default_toleration_seconds;
pub mod namespace_lifecycle;
mod pods;
pub mod priority;
pub mod service_account;
pub mod storage_object_in_use_protection;
pub mod taint_nodes_by_condition;
#[cfg(test)]
mod tests;

pub use certificate_subject_restriction::CertificateSubjectRestriction;
pub use default_ingress_class::DefaultIngressClass;
pub use default_toleration_seconds::DefaultTolerationSeconds;
pub use namespace_lifecycle::NamespaceLifecycle;
pub use priority::Priority;
pub use service_account::ServiceAccount;
pub use storage_object_in_use_protection::StorageObjectInUseProtection;
pub use taint_nodes_by_condition::TaintNodesByCondition;
