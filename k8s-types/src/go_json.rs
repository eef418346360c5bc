//! Go's JSON rules that serde's derive lacks, for generated fields: reading `null` as the
//! zero value, and the tests behind `omitempty` and `omitzero`.

use serde::{Deserialize, Deserializer};

/// Reads `null` as the zero value, as Go's decoder does for non-pointer fields (serde
/// would reject `null` for a `Vec`, a map, a string or a struct).
pub fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Option::unwrap_or_default)
}

/// Go's `omitempty` on a scalar, or `omitzero` on any value: the zero value is left out.
pub fn is_zero<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// Go's `omitempty` on a `[]byte`: nil and empty are both left out (protobuf still tells
/// them apart, which is why the field is an `Option`).
pub fn is_nil_or_empty(value: &Option<crate::value::ByteString>) -> bool {
    value.as_ref().is_none_or(|b| b.0.is_empty())
}
