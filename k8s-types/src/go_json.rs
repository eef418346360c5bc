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

#[cfg(test)]
mod tests {
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Holder {
        #[serde(default, deserialize_with = "super::null_as_default")]
        items: Vec<String>,
    }

    #[test]
    fn null_and_missing_read_as_empty() {
        let a: Holder = serde_json::from_str(r#"{"items":null}"#).unwrap();
        let b: Holder = serde_json::from_str("{}").unwrap();
        let c: Holder = serde_json::from_str(r#"{"items":["x"]}"#).unwrap();
        assert!(a.items.is_empty() && b.items.is_empty());
        assert_eq!(c.items, ["x"]);
        assert!(serde_json::from_str::<Holder>(r#"{"items":3}"#).is_err());
    }
}
