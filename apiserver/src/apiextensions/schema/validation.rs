//! Go's `apiserver/validation` (kube-openapi's validator): every way an object fails
//! its schema, as the causes of a 422 in Go's words.

use apimachinery::apis::meta::v1::StatusCause;
use serde_json::{Map, Value};

use super::{cause, child, flag, index, invalid, required, show, type_invalid};

/// Every way `obj` fails `schema`, as the causes of Go's 422 (field paths like
/// `spec.size`, messages in Go's words).
pub fn validate(obj: &Value, schema: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    validate_at(obj, schema, "", true, &mut out);
    out
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_matches(want: &str, v: &Value) -> bool {
    match want {
        "" => true,
        "number" => v.is_number(),
        other => json_type(v) == other,
    }
}

fn num(v: &Value) -> Option<f64> {
    v.as_f64()
}

fn show_num(v: &Value) -> String {
    v.to_string()
}

fn validate_at(v: &Value, s: &Value, path: &str, root: bool, out: &mut Vec<StatusCause>) {
    let Some(schema) = s.as_object() else {
        return;
    };
    let name = if path.is_empty() { "." } else { path };
    let int_or_string = flag(s, "x-kubernetes-int-or-string");
    let type_ = schema
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if v.is_null() {
        if flag(s, "nullable") || (type_.is_empty() && !int_or_string) {
            return;
        }
        let want = if int_or_string {
            "integer,string"
        } else {
            type_
        };
        out.push(type_invalid(
            path,
            &Value::from("null"),
            &format!("{name} in body must be of type {want}: \"null\""),
        ));
        return;
    }
    if int_or_string {
        if !(v.is_string() || json_type(v) == "integer") {
            let t = json_type(v);
            out.push(type_invalid(
                path,
                &Value::from(t),
                &format!("{name} in body must be of type integer,string: {t:?}"),
            ));
            return;
        }
    } else if !type_matches(type_, v) {
        let t = json_type(v);
        out.push(type_invalid(
            path,
            &Value::from(t),
            &format!("{name} in body must be of type {type_}: {t:?}"),
        ));
        return;
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        if !allowed.contains(v) {
            let values: Vec<String> = allowed
                .iter()
                .map(|a| match a {
                    Value::String(s) => format!("{s:?}"),
                    other => format!("{:?}", other.to_string()),
                })
                .collect();
            out.push(cause(
                "FieldValueNotSupported",
                path,
                format!(
                    "Unsupported value: {}: supported values: {}",
                    show(v),
                    values.join(", ")
                ),
            ));
        }
    }
    match v {
        Value::Number(_) => validate_number(v, schema, path, name, out),
        Value::String(text) => validate_string(v, text, schema, path, name, out),
        Value::Array(items) => validate_array(v, items, s, path, name, out),
        Value::Object(map) => validate_object(map, s, path, name, root, out),
        _ => {}
    }
    for (i, sub) in schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let _ = i;
        validate_at(v, sub, path, root, out);
    }
    if let Some(any) = schema.get("anyOf").and_then(Value::as_array) {
        let ok = any.iter().any(|sub| {
            let mut e = Vec::new();
            validate_at(v, sub, path, root, &mut e);
            e.is_empty()
        });
        if !ok && !int_or_string {
            out.push(invalid(
                path,
                v,
                &format!("{name} in body must validate at least one schema (anyOf)"),
            ));
        }
    }
    if let Some(one) = schema.get("oneOf").and_then(Value::as_array) {
        let passing = one
            .iter()
            .filter(|sub| {
                let mut e = Vec::new();
                validate_at(v, sub, path, root, &mut e);
                e.is_empty()
            })
            .count();
        if passing != 1 {
            out.push(invalid(
                path,
                v,
                &format!("{name} in body must validate one and only one schema (oneOf)"),
            ));
        }
    }
    if let Some(not) = schema.get("not") {
        let mut e = Vec::new();
        validate_at(v, not, path, root, &mut e);
        if e.is_empty() {
            out.push(invalid(
                path,
                v,
                &format!("{name} in body must not validate the schema (not)"),
            ));
        }
    }
}

fn validate_number(
    v: &Value,
    schema: &Map<String, Value>,
    path: &str,
    name: &str,
    out: &mut Vec<StatusCause>,
) {
    let Some(x) = num(v) else {
        return;
    };
    if let Some(max) = schema.get("maximum") {
        let exclusive = schema.get("exclusiveMaximum").and_then(Value::as_bool) == Some(true);
        if let Some(m) = num(max) {
            if (exclusive && x >= m) || (!exclusive && x > m) {
                let rel = if exclusive {
                    "less than"
                } else {
                    "less than or equal to"
                };
                out.push(invalid(
                    path,
                    v,
                    &format!("{name} in body should be {rel} {}", show_num(max)),
                ));
            }
        }
    }
    if let Some(min) = schema.get("minimum") {
        let exclusive = schema.get("exclusiveMinimum").and_then(Value::as_bool) == Some(true);
        if let Some(m) = num(min) {
            if (exclusive && x <= m) || (!exclusive && x < m) {
                let rel = if exclusive {
                    "greater than"
                } else {
                    "greater than or equal to"
                };
                out.push(invalid(
                    path,
                    v,
                    &format!("{name} in body should be {rel} {}", show_num(min)),
                ));
            }
        }
    }
    if let Some(m) = schema.get("multipleOf") {
        if let Some(f) = num(m).filter(|f| *f > 0.0) {
            let q = x / f;
            if (q - q.round()).abs() > 1e-9 {
                out.push(invalid(
                    path,
                    v,
                    &format!("{name} in body should be a multiple of {}", show_num(m)),
                ));
            }
        }
    }
}

fn validate_string(
    v: &Value,
    text: &str,
    schema: &Map<String, Value>,
    path: &str,
    name: &str,
    out: &mut Vec<StatusCause>,
) {
    let chars = text.chars().count() as u64;
    if let Some(max) = schema.get("maxLength").and_then(Value::as_u64) {
        if chars > max {
            out.push(cause(
                "FieldValueTooLong",
                path,
                format!("Too long: may not be more than {max} bytes"),
            ));
        }
    }
    if let Some(min) = schema.get("minLength").and_then(Value::as_u64) {
        if chars < min {
            out.push(invalid(
                path,
                v,
                &format!("{name} in body should be at least {min} chars long"),
            ));
        }
    }
    if let Some(p) = schema.get("pattern").and_then(Value::as_str) {
        if compiled(p).is_some_and(|re| !re.is_match(text)) {
            out.push(invalid(
                path,
                v,
                &format!("{name} in body should match '{p}'"),
            ));
        }
    }
    if let Some(format) = schema.get("format").and_then(Value::as_str) {
        if !crate::apiextensions::formats::is_valid(format, text) {
            out.push(type_invalid(
                path,
                v,
                &format!("{name} in body must be of type {format}: {text:?}"),
            ));
        }
    }
}

fn validate_array(
    v: &Value,
    items: &[Value],
    s: &Value,
    path: &str,
    name: &str,
    out: &mut Vec<StatusCause>,
) {
    let n = items.len() as u64;
    if let Some(max) = s.get("maxItems").and_then(Value::as_u64) {
        if n > max {
            out.push(cause(
                "FieldValueTooMany",
                path,
                format!("Too many: {n}: must have at most {max} items"),
            ));
        }
    }
    if let Some(min) = s.get("minItems").and_then(Value::as_u64) {
        if n < min {
            out.push(invalid(
                path,
                v,
                &format!("{name} in body should have at least {min} items"),
            ));
        }
    }
    if flag(s, "uniqueItems")
        && items
            .iter()
            .enumerate()
            .any(|(i, x)| items[..i].contains(x))
    {
        out.push(invalid(
            path,
            v,
            &format!("{name} in body shouldn't contain duplicates"),
        ));
    }
    if let Some(item_schema) = s.get("items") {
        for (i, x) in items.iter().enumerate() {
            validate_at(x, item_schema, &index(path, i), false, out);
        }
    }
    match s.get("x-kubernetes-list-type").and_then(Value::as_str) {
        Some("set") => {
            for (i, x) in items.iter().enumerate() {
                if items[..i].contains(x) {
                    out.push(cause(
                        "FieldValueDuplicate",
                        &index(path, i),
                        format!("Duplicate value: {}", show(x)),
                    ));
                }
            }
        }
        Some("map") => {
            let keys: Vec<&str> = s
                .get("x-kubernetes-list-map-keys")
                .and_then(Value::as_array)
                .map(|k| k.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let key_of = |x: &Value| -> Value {
                let mut m = Map::new();
                for k in &keys {
                    if let Some(kv) = x.get(*k) {
                        m.insert((*k).to_owned(), kv.clone());
                    }
                }
                Value::Object(m)
            };
            for (i, x) in items.iter().enumerate() {
                let key = key_of(x);
                if items[..i].iter().any(|y| key_of(y) == key) {
                    out.push(cause(
                        "FieldValueDuplicate",
                        &index(path, i),
                        format!("Duplicate value: {key}"),
                    ));
                }
            }
        }
        _ => {}
    }
}

fn validate_object(
    map: &Map<String, Value>,
    s: &Value,
    path: &str,
    name: &str,
    root: bool,
    out: &mut Vec<StatusCause>,
) {
    let n = map.len() as u64;
    if let Some(max) = s.get("maxProperties").and_then(Value::as_u64) {
        if n > max {
            out.push(cause(
                "FieldValueTooMany",
                path,
                format!("Too many: {n}: must have at most {max} items"),
            ));
        }
    }
    if let Some(min) = s.get("minProperties").and_then(Value::as_u64) {
        if n < min {
            out.push(invalid(
                path,
                &Value::Object(map.clone()),
                &format!("{name} in body should have at least {min} properties"),
            ));
        }
    }
    // kube-openapi's object validator checks the properties' values before the
    // required ones, so their causes come first.
    let props = s.get("properties").and_then(Value::as_object);
    let additional = s.get("additionalProperties").filter(|a| a.is_object());
    for (k, x) in map {
        // ObjectMeta is checked by the store, as Go's generic registry does.
        if root && matches!(k.as_str(), "metadata" | "apiVersion" | "kind") {
            continue;
        }
        if let Some(sub) = props.and_then(|p| p.get(k)).or(additional) {
            validate_at(x, sub, &child(path, k), false, out);
        }
    }
    for r in s
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(r) = r.as_str() {
            if !map.contains_key(r) {
                out.push(required(&child(path, r), ""));
            }
        }
    }
    if flag(s, "x-kubernetes-embedded-resource") {
        for k in ["apiVersion", "kind"] {
            if map.get(k).and_then(Value::as_str).is_none_or(str::is_empty) {
                out.push(required(&child(path, k), "must not be empty"));
            }
        }
    }
}

/// The compiled `pattern`, kept: a schema's few patterns are compiled once, not on every
/// request. `None` for a pattern that does not compile (a CRD with one is refused).
fn compiled(pattern: &str) -> Option<std::sync::Arc<regex::Regex>> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    /// More distinct patterns than this and the cache starts over, so a stream of CRDs
    /// cannot grow it without bound.
    const MAX_PATTERNS: usize = 1024;
    // Shared, not cloned: a cloned Regex starts with empty match caches.
    static CACHE: OnceLock<Mutex<HashMap<String, std::sync::Arc<regex::Regex>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = match cache.lock() {
        Ok(c) => c,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some(re) = cache.get(pattern) {
        return Some(re.clone());
    }
    let re = std::sync::Arc::new(regex::Regex::new(pattern).ok()?);
    if cache.len() >= MAX_PATTERNS {
        cache.clear();
    }
    cache.insert(pattern.to_owned(), re.clone());
    Some(re)
}
