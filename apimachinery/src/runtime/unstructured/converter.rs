//! Typed values to and from unstructured content (Go's `runtime.DefaultUnstructuredConverter`),
//! through serde: the content is exactly what the JSON encoding of the value holds.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::conversion::{ConversionError, ConversionErrorKind};

fn unstructured_error<T: ?Sized>(message: String, path: &str) -> ConversionError {
    ConversionError::new(ConversionErrorKind::Unstructured {
        type_name: std::any::type_name::<T>(),
        message,
    })
    .with_path(path)
}

/// The unstructured content of a typed value: its JSON encoding as a map (Go's
/// `ToUnstructured`). Fails when the value does not encode as a JSON object.
///
/// ```
/// use apimachinery::apis::meta::v1::ObjectMeta;
/// use apimachinery::runtime::unstructured::{from_unstructured, to_unstructured};
///
/// let mut meta = ObjectMeta::default();
/// meta.name = "w".into();
/// let content = to_unstructured(&meta)?;
/// assert_eq!(content["name"], "w");
/// let back: ObjectMeta = from_unstructured(content)?;
/// assert_eq!(back, meta);
/// # Ok::<(), apimachinery::conversion::ConversionError>(())
/// ```
pub fn to_unstructured<T: Serialize + ?Sized>(
    value: &T,
) -> Result<Map<String, Value>, ConversionError> {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(unstructured_error::<T>(
            format!("encodes as a JSON {}, not an object", json_type(&other)),
            "",
        )),
        Err(e) => Err(unstructured_error::<T>(e.to_string(), "")),
    }
}

/// The unstructured content of an object of any type: its Go JSON read back as a map,
/// through the object's own [`Object::encode_json`](crate::runtime::Object::encode_json)
/// (what `serde_json::to_value` gives for a `dyn Object`, without the detour through
/// serde's data model).
///
/// ```
/// use apimachinery::apis::meta::v1::Status;
/// use apimachinery::runtime::unstructured::object_to_unstructured;
///
/// let status = Status { code: 404, ..Status::default() };
/// assert_eq!(object_to_unstructured(&status)?["code"], 404);
/// # Ok::<(), apimachinery::conversion::ConversionError>(())
/// ```
pub fn object_to_unstructured(
    obj: &dyn crate::runtime::Object,
) -> Result<Map<String, Value>, ConversionError> {
    let mut json = Vec::new();
    obj.encode_json(&mut json, crate::util::json::JsonLayout::Compact)
        .map_err(|e| unstructured_error::<dyn crate::runtime::Object>(e.to_string(), ""))?;
    match serde_json::from_slice(&json) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(unstructured_error::<dyn crate::runtime::Object>(
            format!(
                "{} encodes as a JSON {}, not an object",
                obj.type_name(),
                json_type(&other)
            ),
            "",
        )),
        Err(e) => Err(unstructured_error::<dyn crate::runtime::Object>(
            e.to_string(),
            "",
        )),
    }
}

/// A typed value read from unstructured content, which it consumes so that strings, lists
/// and maps move instead of being copied (Go's `FromUnstructured`). A value of the wrong
/// JSON type is an error naming its path.
pub fn from_unstructured<T: DeserializeOwned>(
    content: Map<String, Value>,
) -> Result<T, ConversionError> {
    let mut track = serde_path_to_error::Track::new();
    T::deserialize(serde_path_to_error::Deserializer::new(content, &mut track))
        .map_err(|e| unstructured_error::<T>(e.to_string(), &track.path().to_string()))
}

/// Like [`from_unstructured`], reading from borrowed content (strings are copied).
pub fn from_unstructured_ref<T: DeserializeOwned>(
    content: &Map<String, Value>,
) -> Result<T, ConversionError> {
    let mut track = serde_path_to_error::Track::new();
    T::deserialize(serde_path_to_error::Deserializer::new(content, &mut track))
        .map_err(|e| unstructured_error::<T>(e.to_string(), &track.path().to_string()))
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apis::meta::v1::ObjectMeta;

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Port {
        port: i32,
    }
    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Spec {
        ports: Vec<Port>,
    }

    #[test]
    fn wrong_types_are_errors_with_their_path() {
        let content = serde_json::json!({"ports": [{"port": 1}, {"port": "http"}]});
        let Value::Object(map) = content else {
            unreachable!()
        };
        let err = from_unstructured_ref::<Spec>(&map).unwrap_err();
        assert_eq!(err.path(), "ports[1].port");
        assert!(err.to_string().contains("invalid type: string"), "{err}");
        let err = from_unstructured::<Spec>(map).unwrap_err();
        assert_eq!(err.path(), "ports[1].port");
    }

    #[test]
    fn round_trip_and_non_objects() {
        let spec = Spec {
            ports: vec![Port { port: 80 }],
        };
        let map = to_unstructured(&spec).unwrap();
        assert_eq!(from_unstructured::<Spec>(map).unwrap(), spec);
        let err = to_unstructured(&3_i32).unwrap_err();
        assert!(err.to_string().contains("not an object"), "{err}");
        assert!(to_unstructured(&ObjectMeta::default()).unwrap().is_empty());
    }
}
