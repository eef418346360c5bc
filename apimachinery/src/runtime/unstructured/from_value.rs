//! A typed value read from a parsed JSON value, naming the field at fault and, on
//! request, every field the type does not know (Go's `FromUnstructured` with its strict
//! field checks).
//!
//! The value is written back to JSON text and read by the
//! [`json_reader`](crate::runtime::json_reader), the one deserializer every registered
//! type is compiled for: a second deserializer over `serde_json::Value` would compile
//! every type's visitors once more.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::runtime::json_reader;

/// Why a value did not read as its type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", if path.is_empty() { String::new() } else { format!("{path}: ") })]
pub struct FromValueError {
    /// The JSON path of the field at fault (`spec.containers[0].name`); empty for the
    /// value itself.
    pub path: String,
    /// What was wrong, e.g. `invalid type: string "x", expected i32`.
    pub message: String,
}

/// A value of type `T` read from `value`, with the JSON paths of the fields `T` has no
/// place for when `track_unknown` is set (empty otherwise).
///
/// ```
/// use apimachinery::runtime::unstructured::from_value_tracking;
///
/// #[derive(serde::Deserialize)]
/// struct Port { port: i32 }
///
/// let (port, unknown) =
///     from_value_tracking::<Port>(&serde_json::json!({"port": 80, "x": 1}), true)?;
/// assert_eq!((port.port, unknown), (80, vec!["x".to_owned()]));
/// # Ok::<(), apimachinery::runtime::unstructured::FromValueError>(())
/// ```
pub fn from_value_tracking<T: DeserializeOwned>(
    value: &Value,
    track_unknown: bool,
) -> Result<(T, Vec<String>), FromValueError> {
    let text = value_text(value)?;
    let read = json_reader::from_slice_tracking::<T>(&text, track_unknown)?;
    Ok((read.value, read.unknown_fields))
}

/// The JSON text a parsed value is read from (every reader of a `Value` goes through
/// the text reader).
pub(crate) fn value_text(value: &Value) -> Result<Vec<u8>, FromValueError> {
    serde_json::to_vec(value).map_err(|e| FromValueError {
        path: String::new(),
        message: e.to_string(),
    })
}

impl From<json_reader::ReadError> for FromValueError {
    fn from(e: json_reader::ReadError) -> Self {
        FromValueError {
            path: e.path,
            message: e.error.message(),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::apis::meta::v1::ObjectMeta;
    use serde_json::json;

    #[derive(Debug, Default, PartialEq, serde::Deserialize)]
    struct Port {
        port: i32,
        #[serde(default)]
        name: Option<String>,
    }
    #[derive(Debug, Default, PartialEq, serde::Deserialize)]
    struct Spec {
        ports: Vec<Port>,
        #[serde(default)]
        meta: ObjectMeta,
    }

    #[test]
    fn reads_nested_values() {
        let v = json!({"ports": [{"port": 1, "name": "a"}, {"port": 2, "name": null}],
                       "meta": {"name": "x", "labels": {"a": "b"}}});
        let (spec, unknown) = from_value_tracking::<Spec>(&v, true).unwrap();
        assert_eq!(
            spec.ports[1],
            Port {
                port: 2,
                name: None
            }
        );
        assert_eq!(spec.meta.name, "x");
        assert!(unknown.is_empty());
    }

    #[test]
    fn errors_name_the_innermost_path() {
        let v = json!({"ports": [{"port": 1}, {"port": "http"}]});
        let err = from_value_tracking::<Spec>(&v, false).unwrap_err();
        assert_eq!(err.path, "ports[1].port");
        assert!(
            err.message.contains("invalid type: string \"http\""),
            "{err}"
        );
        assert_eq!(err.to_string(), format!("ports[1].port: {}", err.message));
        let err = from_value_tracking::<Spec>(&json!("no"), false).unwrap_err();
        assert_eq!(err.path, "");
    }

    #[test]
    fn unknown_fields_are_listed_with_their_paths_when_asked() {
        let v = json!({"ports": [{"port": 1, "extra": {"deep": 1}}], "top": 1,
                       "meta": {"name": "x", "bogus": true}});
        let (_, unknown) = from_value_tracking::<Spec>(&v, true).unwrap();
        assert_eq!(unknown, ["meta.bogus", "ports[0].extra", "top"]);
        let (_, unknown) = from_value_tracking::<Spec>(&v, false).unwrap();
        assert!(unknown.is_empty());
    }

    #[test]
    fn raw_values_get_the_value_text() {
        let v = json!({"a": [1, {"b": "c"}]});
        let (raw, _) = from_value_tracking::<Box<serde_json::value::RawValue>>(&v, true).unwrap();
        assert_eq!(raw.get(), r#"{"a":[1,{"b":"c"}]}"#);
    }
}
