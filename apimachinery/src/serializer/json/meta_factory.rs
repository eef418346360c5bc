//! Reading `apiVersion` and `kind` from a document (Go's `json.SimpleMetaFactory`).

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::schema::{GroupVersionKind, Name, parse_group_version};
use crate::serializer::{DecodeError, DecodeErrorKind, Format, Position};

/// Reads the group, version and kind a JSON document declares, without decoding the rest
/// of it (Go's `SimpleMetaFactory.Interpret`). Absent or `null` fields are empty; a
/// non-string value or an `apiVersion` with more than one `/` is an error.
///
/// ```
/// use apimachinery::serializer::json::interpret;
/// let gvk = interpret(br#"{"apiVersion":"apps/v1","kind":"Deployment","spec":{}}"#)?;
/// assert_eq!(gvk.to_string(), "apps/v1, Kind=Deployment");
/// # Ok::<(), apimachinery::serializer::DecodeError>(())
/// ```
pub fn interpret(data: &[u8]) -> Result<GroupVersionKind, DecodeError> {
    #[derive(Deserialize)]
    struct TypeMeta {
        #[serde(rename = "apiVersion", default)]
        api_version: Option<String>,
        #[serde(default)]
        kind: Option<String>,
    }
    let meta: TypeMeta = serde_json::from_slice(data).map_err(|e| {
        if e.is_data() {
            DecodeError::from(DecodeErrorKind::TypeMeta {
                message: format!("json parse error: {e}"),
            })
        } else {
            DecodeError::from(DecodeErrorKind::Syntax {
                format: Format::Json,
                position: Some(Position {
                    line: e.line(),
                    column: e.column(),
                }),
                message: e.to_string(),
            })
        }
    })?;
    to_gvk(
        meta.api_version.as_deref().unwrap_or(""),
        meta.kind.as_deref().unwrap_or(""),
    )
}

/// Reads the group, version and kind an already parsed document declares.
pub fn interpret_map(object: &Map<String, Value>) -> Result<GroupVersionKind, DecodeError> {
    let field = |name: &str| match object.get(name) {
        None | Some(Value::Null) => Ok(""),
        Some(Value::String(s)) => Ok(s.as_str()),
        Some(other) => Err(DecodeError::from(DecodeErrorKind::TypeMeta {
            message: format!(
                "json parse error: {name} must be a string, got {}",
                json_type(other)
            ),
        })),
    };
    to_gvk(field("apiVersion")?, field("kind")?)
}

fn to_gvk(api_version: &str, kind: &str) -> Result<GroupVersionKind, DecodeError> {
    let gv = parse_group_version(api_version).map_err(DecodeErrorKind::from)?;
    Ok(gv.with_kind(Name::new(kind)))
}

/// The JSON type of a value, as error messages name it.
pub(crate) fn json_type(v: &Value) -> &'static str {
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

    #[test]
    fn reads_type_meta_only() {
        assert_eq!(
            interpret(br#"{"kind":"Pod","apiVersion":"v1","spec":{"x":[1,2]}}"#).unwrap(),
            GroupVersionKind::new("", "v1", "Pod")
        );
        assert_eq!(interpret(b"{}").unwrap(), GroupVersionKind::default());
        assert_eq!(
            interpret(br#"{"kind":null}"#).unwrap(),
            GroupVersionKind::default()
        );
        let err = interpret(br#"{"kind":1}"#).unwrap_err();
        assert!(
            matches!(err.kind(), DecodeErrorKind::TypeMeta { .. }),
            "{err}"
        );
        let err = interpret(br#"{"apiVersion":"a/b/c"}"#).unwrap_err();
        assert!(
            matches!(err.kind(), DecodeErrorKind::TypeMeta { .. }),
            "{err}"
        );
        let err = interpret(b"{").unwrap_err();
        assert!(
            matches!(err.kind(), DecodeErrorKind::Syntax { .. }),
            "{err}"
        );
        let map = serde_json::json!({"apiVersion": "apps/v1", "kind": 3});
        let err = interpret_map(map.as_object().unwrap()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "couldn't get version/kind; json parse error: kind must be a string, got number"
        );
    }
}
