//! API types of the machinery itself (Go's `k8s.io/apimachinery/pkg/apis`).

pub mod meta;
