//! The built-in Kubernetes 1.36 API types.
