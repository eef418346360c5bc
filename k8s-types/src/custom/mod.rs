//! Hand-written types the generated code uses where Go's JSON is not a struct's.

pub mod apiextensions;
