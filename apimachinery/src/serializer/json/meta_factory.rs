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

/// Go's `SimpleMetaFactory.Interpret` failing on a document that is not a JSON object
/// (nor `null`), in its JSON decoder's words for the anonymous struct it reads
/// `apiVersion` and `kind` into (what kube-apiserver answers for such a `DeleteOptions`
/// body, and its webhook client for such a webhook answer). `None` for an object or
/// `null`.
///
/// ```
/// use apimachinery::serializer::json::type_meta_mismatch;
/// let why = type_meta_mismatch(&serde_json::json!([1])).unwrap_or_default();
/// assert!(why.starts_with("couldn't get version/kind; json parse error: json: cannot unmarshal array"));
/// assert_eq!(type_meta_mismatch(&serde_json::json!({})), None);
/// ```
pub fn type_meta_mismatch(document: &Value) -> Option<String> {
    let kind = match document {
        Value::Object(_) | Value::Null => return None,
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Array(_) => "array",
        Value::Bool(_) => "bool",
    };
    Some(format!(
        "couldn't get version/kind; json parse error: json: cannot unmarshal {kind} into Go value of type struct {{ APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }}"
    ))
}

/// The `apiVersion` and `kind` among the leading keys of a JSON object (`None`: not
/// there, or `null`), read without looking further: a guess of what the document
/// declares, which the typed decode then verifies (see `runtime::json_reader`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LeadingTypeMeta<'a> {
    pub api_version: Option<&'a str>,
    pub kind: Option<&'a str>,
}

/// Reads the leading `apiVersion` and `kind` keys of a JSON object, as Go writes them
/// (`kind` then `apiVersion`; kubectl writes the other order), stopping at the first
/// other key or anything unusual (escapes, another value type). `None` when no `kind`
/// was found that way.
pub(crate) fn leading_type_meta(data: &[u8]) -> Option<LeadingTypeMeta<'_>> {
    let mut at = skip_whitespace(data, 0);
    if data.get(at) != Some(&b'{') {
        return None;
    }
    let mut found = LeadingTypeMeta::default();
    loop {
        at = skip_whitespace(data, at + 1);
        let Some((key, next)) = plain_string(data, at) else {
            break;
        };
        let slot = match key {
            "apiVersion" => &mut found.api_version,
            "kind" => &mut found.kind,
            _ => break,
        };
        at = skip_whitespace(data, next);
        if data.get(at) != Some(&b':') {
            break;
        }
        at = skip_whitespace(data, at + 1);
        if data.get(at..at + 4) == Some(b"null") {
            *slot = None;
            at += 4;
        } else {
            let Some((value, next)) = plain_string(data, at) else {
                break;
            };
            *slot = Some(value);
            at = next;
        }
        at = skip_whitespace(data, at);
        if data.get(at) != Some(&b',') {
            break;
        }
    }
    found.kind.is_some().then_some(found)
}

fn skip_whitespace(data: &[u8], mut at: usize) -> usize {
    while data
        .get(at)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        at += 1;
    }
    at
}

/// The string starting at `at` (its opening quote) and the index after its closing
/// quote, when it has no escapes or control characters.
fn plain_string(data: &[u8], at: usize) -> Option<(&str, usize)> {
    if data.get(at) != Some(&b'"') {
        return None;
    }
    let rest = data.get(at + 1..)?;
    let len = rest
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
    if rest.get(len) != Some(&b'"') {
        return None;
    }
    let text = std::str::from_utf8(rest.get(..len)?).ok()?;
    Some((text, at + 1 + len + 1))
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

pub(crate) fn to_gvk(api_version: &str, kind: &str) -> Result<GroupVersionKind, DecodeError> {
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
    fn leading_type_meta_reads_only_the_leading_keys() {
        fn lead(s: &str) -> Option<(Option<&str>, Option<&str>)> {
            leading_type_meta(s.as_bytes()).map(|m| (m.api_version, m.kind))
        }
        assert_eq!(
            lead(r#" { "kind" : "Pod" , "apiVersion":"v1","spec":{}}"#),
            Some((Some("v1"), Some("Pod")))
        );
        assert_eq!(
            lead(r#"{"apiVersion":"apps/v1","kind":"Deployment"}"#),
            Some((Some("apps/v1"), Some("Deployment")))
        );
        assert_eq!(
            lead(r#"{"apiVersion":null,"kind":"Pod","x":1}"#),
            Some((None, Some("Pod")))
        );
        assert_eq!(
            lead(r#"{"kind":"Pod","x":{"apiVersion":"v1"}}"#),
            Some((None, Some("Pod")))
        );
        // Stops at the first other key, an escape, or another type of value.
        assert_eq!(lead(r#"{"metadata":{},"kind":"Pod"}"#), None);
        assert_eq!(lead(r#"{"kind":"P\u006fd"}"#), None);
        assert_eq!(lead(r#"{"kind":3}"#), None);
        assert_eq!(
            lead(r#"{"kind":"Pod","apiVersion":1}"#),
            Some((None, Some("Pod")))
        );
        assert_eq!(lead(r#"{"kind":"Pod""#), Some((None, Some("Pod"))));
        assert_eq!(lead(r#"{"kind":"Po"#), None);
        assert_eq!(lead("[]"), None);
        assert_eq!(lead(""), None);
        assert_eq!(
            lead("{\"kind\":\"\u{fffd}\"}"),
            Some((None, Some("\u{fffd}")))
        );
        assert_eq!(leading_type_meta(b"{\"kind\":\"\xff\"}"), None);
    }

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
