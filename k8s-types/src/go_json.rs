//! Go's JSON decoding rules that serde's derive lacks, for generated fields.

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
