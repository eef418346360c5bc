//! Access to fields nested in JSON maps by path (Go's `unstructured.Nested*` helpers).

use serde_json::{Map, Value};

/// A nested field that exists but is not of the type asked for, or a path through a value
/// that is not a map.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path} accessor error: {value} is of the type {found}, expected {expected}")]
pub struct NestedFieldError {
    /// The JSON path of the field, such as `.spec.replicas`.
    pub path: String,
    /// The value found, as JSON (shortened when long).
    pub value: String,
    /// The JSON type found: `string`, `number`, `bool`, `array`, `map` or `null`.
    pub found: &'static str,
    /// The type expected.
    pub expected: &'static str,
}

fn json_path(fields: &[&str]) -> String {
    let mut p = String::new();
    for f in fields {
        p.push('.');
        p.push_str(f);
    }
    p
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float64",
        Value::Number(_) => "int64",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "map",
    }
}

fn wrong_type(fields: &[&str], v: &Value, expected: &'static str) -> NestedFieldError {
    let mut value = v.to_string();
    if value.len() > 80 {
        let cut = (0..=80)
            .rev()
            .find(|&i| value.is_char_boundary(i))
            .unwrap_or(0);
        value.truncate(cut);
        value.push('…');
    }
    NestedFieldError {
        path: json_path(fields),
        value,
        found: type_name(v),
        expected,
    }
}

/// The value at `fields`, if every step but the last is a map and the last exists.
/// A step through a non-map is an error naming the path walked so far.
pub fn nested_field<'a>(
    obj: &'a Map<String, Value>,
    fields: &[&str],
) -> Result<Option<&'a Value>, NestedFieldError> {
    let mut current = obj;
    for (i, field) in fields.iter().enumerate() {
        let Some(v) = current.get(*field) else {
            return Ok(None);
        };
        if i + 1 == fields.len() {
            return Ok(Some(v));
        }
        match v {
            Value::Object(m) => current = m,
            other => return Err(wrong_type(&fields[..=i], other, "map")),
        }
    }
    Ok(None)
}

macro_rules! typed_getter {
    ($(#[$doc:meta])* $name:ident, $ty:ty, $expected:literal, |$v:ident| $conv:expr) => {
        $(#[$doc])*
        #[allow(clippy::needless_lifetimes)] // Some instances borrow from `obj`, some do not.
        pub fn $name<'a>(
            obj: &'a Map<String, Value>,
            fields: &[&str],
        ) -> Result<Option<$ty>, NestedFieldError> {
            match nested_field(obj, fields)? {
                None => Ok(None),
                Some($v) => match $conv {
                    Some(x) => Ok(Some(x)),
                    None => Err(wrong_type(fields, $v, $expected)),
                },
            }
        }
    };
}

typed_getter!(
    /// The string at `fields`.
    nested_string, &'a str, "string", |v| v.as_str()
);
typed_getter!(
    /// The boolean at `fields`.
    nested_bool, bool, "bool", |v| v.as_bool()
);
typed_getter!(
    /// The integer at `fields` (a number with a fraction or out of `i64` range is an error,
    /// as Go's `NestedInt64` only accepts `int64`).
    nested_i64, i64, "int64", |v| v.as_i64()
);
typed_getter!(
    /// The number at `fields`, as a float.
    nested_f64, f64, "float64", |v| v.as_f64()
);
typed_getter!(
    /// The array at `fields`.
    nested_slice, &'a Vec<Value>, "array", |v| v.as_array()
);
typed_getter!(
    /// The map at `fields`.
    nested_map, &'a Map<String, Value>, "map", |v| v.as_object()
);

/// The array of strings at `fields`; an element that is not a string is an error.
pub fn nested_string_slice(
    obj: &Map<String, Value>,
    fields: &[&str],
) -> Result<Option<Vec<String>>, NestedFieldError> {
    let Some(items) = nested_slice(obj, fields)? else {
        return Ok(None);
    };
    items
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_owned)
                .ok_or_else(|| wrong_type(fields, v, "string"))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// The map of strings at `fields`; a value that is not a string is an error.
pub fn nested_string_map(
    obj: &Map<String, Value>,
    fields: &[&str],
) -> Result<Option<std::collections::BTreeMap<String, String>>, NestedFieldError> {
    let Some(map) = nested_map(obj, fields)? else {
        return Ok(None);
    };
    map.iter()
        .map(|(k, v)| {
            v.as_str()
                .map(|s| (k.clone(), s.to_owned()))
                .ok_or_else(|| wrong_type(fields, v, "string"))
        })
        .collect::<Result<_, _>>()
        .map(Some)
}

/// Sets the value at `fields`, creating the maps on the way; a step through an existing
/// non-map is an error and changes nothing. An empty path changes nothing.
pub fn set_nested_field(
    obj: &mut Map<String, Value>,
    value: Value,
    fields: &[&str],
) -> Result<(), NestedFieldError> {
    let Some((_, parents)) = fields.split_last() else {
        return Ok(());
    };
    // Check the whole path before changing anything.
    let mut probe = Some(&*obj);
    for (i, field) in parents.iter().enumerate() {
        probe = match probe.and_then(|m| m.get(*field)) {
            None => None,
            Some(Value::Object(m)) => Some(m),
            Some(other) => return Err(wrong_type(&fields[..=i], other, "map")),
        };
    }
    force_set(obj, value, fields);
    Ok(())
}

/// Removes the value at `fields`, if there is one.
pub fn remove_nested_field(obj: &mut Map<String, Value>, fields: &[&str]) {
    let Some((last, parents)) = fields.split_last() else {
        return;
    };
    let mut current = obj;
    for field in parents {
        match current.get_mut(*field) {
            Some(Value::Object(m)) => current = m,
            _ => return,
        }
    }
    current.remove(*last);
}

/// The string at `fields`, or `""` when it is absent or not a string: Go's unstructured
/// getters read metadata this way, never failing.
pub(crate) fn string_or_empty<'a>(obj: &'a Map<String, Value>, fields: &[&str]) -> &'a str {
    nested_string(obj, fields)
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// Sets the value at `fields`, replacing a step that is not a map, as Go's unstructured
/// setters do.
pub(crate) fn force_set(obj: &mut Map<String, Value>, value: Value, fields: &[&str]) {
    let mut current = obj;
    let Some((last, parents)) = fields.split_last() else {
        return;
    };
    for field in parents {
        let entry = current
            .entry((*field).to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
        if !entry.is_object() {
            *entry = Value::Object(Map::new());
        }
        let Value::Object(m) = entry else {
            return;
        };
        current = m;
    }
    current.insert((*last).to_owned(), value);
}

/// Sets the string at `fields`, or removes it when empty, as Go's unstructured setters do.
pub(crate) fn set_string_or_remove(obj: &mut Map<String, Value>, value: &str, fields: &[&str]) {
    if value.is_empty() {
        remove_nested_field(obj, fields);
    } else {
        force_set(obj, Value::String(value.to_owned()), fields);
    }
}

/// The group version kind a JSON map declares in `apiVersion` and `kind`.
pub(crate) fn declared_gvk(obj: &Map<String, Value>) -> crate::schema::GroupVersionKind {
    crate::schema::GroupVersionKind::from_api_version_and_kind(
        string_or_empty(obj, &["apiVersion"]),
        string_or_empty(obj, &["kind"]),
    )
}

/// Declares a group version kind in `apiVersion` and `kind`.
pub(crate) fn set_declared_gvk(
    obj: &mut Map<String, Value>,
    gvk: &crate::schema::GroupVersionKind,
) {
    set_string_or_remove(obj, &gvk.group_version().to_string(), &["apiVersion"]);
    set_string_or_remove(obj, &gvk.kind, &["kind"]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj() -> Map<String, Value> {
        match json!({"spec": {"replicas": 3, "ratio": 0.5, "name": "x", "tags": ["a", "b"], "bad": [1], "labels": {"a": "1"}}})
        {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    #[test]
    fn typed_getters() {
        let o = obj();
        assert_eq!(nested_i64(&o, &["spec", "replicas"]), Ok(Some(3)));
        assert_eq!(nested_string(&o, &["spec", "name"]), Ok(Some("x")));
        assert_eq!(nested_string(&o, &["spec", "missing"]), Ok(None));
        assert_eq!(
            nested_string_slice(&o, &["spec", "tags"]),
            Ok(Some(vec!["a".into(), "b".into()]))
        );
        assert_eq!(
            nested_string_map(&o, &["spec", "labels"]).unwrap().unwrap()["a"],
            "1"
        );
        let err = nested_i64(&o, &["spec", "ratio"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            ".spec.ratio accessor error: 0.5 is of the type float64, expected int64"
        );
        let err = nested_string(&o, &["spec", "name", "deeper"]).unwrap_err();
        assert_eq!(err.path, ".spec.name");
        assert_eq!(err.expected, "map");
        assert!(nested_string_slice(&o, &["spec", "bad"]).is_err());
    }

    #[test]
    fn set_and_remove() {
        let mut o = obj();
        set_nested_field(&mut o, json!(5), &["spec", "replicas"]).unwrap();
        set_nested_field(&mut o, json!("v"), &["status", "phase"]).unwrap();
        assert_eq!(o["status"]["phase"], json!("v"));
        assert_eq!(o["spec"]["replicas"], json!(5));
        let before = o.clone();
        assert!(set_nested_field(&mut o, json!(1), &["spec", "name", "x"]).is_err());
        assert_eq!(o, before);
        remove_nested_field(&mut o, &["spec", "replicas"]);
        assert_eq!(nested_field(&o, &["spec", "replicas"]), Ok(None));
        remove_nested_field(&mut o, &["nope", "deeper"]);
    }
}
