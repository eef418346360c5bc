//! Go's `k8s.io/apimachinery/pkg/util` packages, under their Go names, and client-go's
//! `util/jsonpath` parser.

pub mod diff;
pub mod go_strings;
pub mod intstr;
pub mod json;
pub mod jsonpath;
#[cfg(feature = "apply")]
pub mod strategicpatch;
pub mod validation;
