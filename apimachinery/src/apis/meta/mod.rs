//! The `meta.k8s.io` API group: object and list metadata, status, discovery.

pub mod v1;
