//! Go's `k8s.io/apimachinery/pkg/util` packages, under their Go names.

pub mod diff;
pub mod go_strings;
pub mod intstr;
pub mod json;
#[cfg(feature = "apply")]
pub mod strategicpatch;
pub mod validation;
