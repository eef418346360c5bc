//! Go's `k8s.io/apimachinery/pkg/util` packages that API types use, under their Go names.

pub mod intstr;
pub mod strategicpatch;
