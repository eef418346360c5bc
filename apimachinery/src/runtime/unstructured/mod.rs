//! [`Unstructured`] and [`UnstructuredList`]: objects of any kind held as JSON maps (Go's
//! `k8s.io/apimachinery/pkg/apis/meta/v1/unstructured`).

mod converter;
mod from_value;
mod list;
mod nested;
mod object;

pub use converter::{
    from_unstructured, from_unstructured_ref, object_to_unstructured, to_unstructured,
};
pub(crate) use from_value::value_text;
pub use from_value::{FromValueError, from_value_tracking};
pub use list::UnstructuredList;
pub use nested::{
    NestedFieldError, nested_bool, nested_f64, nested_field, nested_i64, nested_map, nested_slice,
    nested_string, nested_string_map, nested_string_slice, remove_nested_field, set_nested_field,
};
pub use object::{Unstructured, UnstructuredError};
