//! Structural schemas (Go's `apiextensions-apiserver/pkg/apiserver/schema` and the
//! kube-openapi validator): whether a CRD's `openAPIV3Schema` is structural, and what
//! the server does with a custom resource against it — pruning of unknown fields,
//! defaulting from `default:`, and validation with Go's causes and wording.
//!
//! ```
//! use apiserver::apiextensions::schema::{default, prune, validate};
//! use serde_json::json;
//!
//! let schema = json!({"type": "object", "properties": {"spec": {"type": "object",
//!     "required": ["size"],
//!     "properties": {"size": {"type": "integer", "minimum": 1},
//!                    "color": {"type": "string", "default": "blue"}}}}});
//! let mut obj = json!({"apiVersion": "example.com/v1", "kind": "Widget",
//!     "metadata": {"name": "w"}, "spec": {"size": 0, "shape": "round"}});
//! assert_eq!(prune(&mut obj, &schema), ["spec.shape"]);
//! default(&mut obj, &schema);
//! assert_eq!(obj["spec"]["color"], "blue");
//! let causes = validate(&obj, &schema);
//! assert_eq!(causes[0].message, "Invalid value: 0: spec.size in body should be greater than or equal to 1");
//! ```

use apimachinery::apis::meta::v1::StatusCause;
use serde_json::{Map, Value};

fn cause(reason: &str, field: &str, message: String) -> StatusCause {
    StatusCause {
        reason: reason.into(),
        message,
        field: field.to_owned(),
    }
}

/// A value as Go's `field.Error` prints it: strings quoted, numbers and booleans bare,
/// `null`, and anything else as JSON.
fn show(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        Value::Null => "\"null\"".into(),
        other => other.to_string(),
    }
}

fn required(field: &str, detail: &str) -> StatusCause {
    let message = if detail.is_empty() {
        "Required value".to_owned()
    } else {
        format!("Required value: {detail}")
    };
    cause("FieldValueRequired", field, message)
}

fn invalid(field: &str, value: &Value, detail: &str) -> StatusCause {
    cause(
        "FieldValueInvalid",
        field,
        format!("Invalid value: {}: {detail}", show(value)),
    )
}

fn type_invalid(field: &str, value: &Value, detail: &str) -> StatusCause {
    cause(
        "FieldValueTypeInvalid",
        field,
        format!("Invalid value: {}: {detail}", show(value)),
    )
}

fn forbidden(field: &str, detail: &str) -> StatusCause {
    cause("FieldValueForbidden", field, format!("Forbidden: {detail}"))
}

fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

fn flag(schema: &Value, name: &str) -> bool {
    schema.get(name).and_then(Value::as_bool) == Some(true)
}

// ---------------------------------------------------------------------------------
// Structural schema checks.

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Root,
    Item,
    Field,
}

/// Go's `ValidateStructural` of a CRD version's schema at `path` (such as
/// `spec.versions[0].schema.openAPIV3Schema`): every cause, sorted as Go sorts them.
pub fn structural_errors(schema: &Value, path: &str) -> Vec<StatusCause> {
    let mut out = Vec::new();
    invariants(schema, Level::Root, path, &mut out);
    out.sort_by(|a, b| {
        format!("{}: {}", a.field, a.message).cmp(&format!("{}: {}", b.field, b.message))
    });
    out
}

fn invariants(s: &Value, lvl: Level, path: &str, out: &mut Vec<StatusCause>) {
    let Some(map) = s.as_object() else {
        return;
    };
    let type_ = map.get("type").and_then(Value::as_str).unwrap_or_default();
    if type_ == "array" && !map.contains_key("items") {
        out.push(required(&child(path, "items"), "must be specified"));
    }
    if let Some(items) = map.get("items") {
        invariants(items, Level::Item, &child(path, "items"), out);
    }
    if let Some(props) = map.get("properties").and_then(Value::as_object) {
        for (k, v) in props {
            invariants(
                v,
                Level::Field,
                &format!("{}[{k}]", child(path, "properties")),
                out,
            );
        }
    }
    if let Some(ap) = map.get("additionalProperties") {
        if lvl == Level::Root {
            out.push(forbidden(
                &child(path, "additionalProperties"),
                "must not be used at the root",
            ));
        }
        if ap.is_object() {
            invariants(ap, Level::Field, &child(path, "additionalProperties"), out);
        }
    }
    let int_or_string = flag(s, "x-kubernetes-int-or-string");
    let preserve = flag(s, "x-kubernetes-preserve-unknown-fields");
    let embedded = flag(s, "x-kubernetes-embedded-resource");
    if map.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(false)) {
        out.push(invalid(
            &child(path, "x-kubernetes-preserve-unknown-fields"),
            &Value::Bool(false),
            "must be true or undefined",
        ));
    }
    if int_or_string && preserve {
        out.push(invalid(
            &child(path, "x-kubernetes-preserve-unknown-fields"),
            &Value::Bool(true),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    if int_or_string && embedded {
        out.push(invalid(
            &child(path, "x-kubernetes-embedded-resource"),
            &Value::Bool(true),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    for junctor in ["allOf", "anyOf", "oneOf"] {
        for (i, v) in map
            .get(junctor)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            // Go's two int-or-string patterns keep their types under anyOf.
            let int_or_string_pattern = int_or_string && (junctor == "anyOf" || junctor == "allOf");
            nested(
                v,
                &index(&child(path, junctor), i),
                int_or_string_pattern,
                out,
            );
        }
    }
    if let Some(not) = map.get("not") {
        nested(not, &child(path, "not"), false, out);
    }
    if let Some(p) = map.get("pattern").and_then(Value::as_str) {
        if let Err(e) = regex::Regex::new(p) {
            out.push(invalid(
                &child(path, "pattern"),
                &Value::from(p),
                &format!("must be a valid regular expression, but isn't: {e}"),
            ));
        }
    }
    if embedded && type_ != "object" {
        if type_.is_empty() {
            out.push(required(
                &child(path, "type"),
                "must be object if x-kubernetes-embedded-resource is true",
            ));
        } else {
            out.push(invalid(
                &child(path, "type"),
                &Value::from(type_),
                "must be object if x-kubernetes-embedded-resource is true",
            ));
        }
    } else if type_.is_empty() && !int_or_string && !preserve {
        let detail = match lvl {
            Level::Root => "must not be empty at the root",
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        out.push(required(&child(path, "type"), detail));
    }
    if embedded && map.contains_key("additionalProperties") {
        out.push(forbidden(
            &child(path, "additionalProperties"),
            "must not be used if x-kubernetes-embedded-resource is set",
        ));
    }
    if lvl == Level::Root && !type_.is_empty() && type_ != "object" {
        out.push(invalid(
            &child(path, "type"),
            &Value::from(type_),
            "must be object at the root",
        ));
    }
    let check_metadata = lvl == Level::Root || embedded;
    let props = map.get("properties").and_then(Value::as_object);
    if check_metadata {
        for k in ["kind", "apiVersion"] {
            if let Some(p) = props.and_then(|p| p.get(k)) {
                let t = p.get("type").and_then(Value::as_str).unwrap_or_default();
                if t != "string" {
                    out.push(invalid(
                        &format!("{}[{k}].type", child(path, "properties")),
                        &Value::from(t),
                        "must be string",
                    ));
                }
            }
        }
    }
    if let Some(meta) = props.and_then(|p| p.get("metadata")) {
        let mpath = format!("{}[metadata]", child(path, "properties"));
        let t = meta.get("type").and_then(Value::as_str).unwrap_or_default();
        if check_metadata && t != "object" {
            out.push(invalid(
                &child(&mpath, "type"),
                &Value::from(t),
                "must be object",
            ));
        }
        if lvl == Level::Root {
            let allowed = meta.as_object().is_some_and(|m| {
                m.iter().all(|(k, v)| match k.as_str() {
                    "type" => true,
                    "properties" => v
                        .as_object()
                        .is_some_and(|p| p.keys().all(|k| k == "name" || k == "generateName")),
                    _ => false,
                })
            });
            if !allowed {
                out.push(forbidden(&mpath, "must not specify anything other than name and generateName, but metadata is implicitly specified"));
            }
        }
    }
    if embedded && !preserve && props.is_none_or(Map::is_empty) {
        out.push(required(&child(path, "properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"));
    }
}

/// Go's `validateNestedValueValidation`: what may not appear under a logic junctor.
fn nested(v: &Value, path: &str, int_or_string_pattern: bool, out: &mut Vec<StatusCause>) {
    let Some(map) = v.as_object() else {
        return;
    };
    if map.contains_key("type") && !int_or_string_pattern {
        out.push(forbidden(
            &child(path, "type"),
            "must be empty to be structural",
        ));
    }
    for (key, what) in [
        ("additionalProperties", "must be undefined to be structural"),
        ("default", "must be undefined to be structural"),
        ("title", "must be empty to be structural"),
        ("description", "must be empty to be structural"),
        ("externalDocs", "must be undefined to be structural"),
        (
            "x-kubernetes-list-map-keys",
            "must be empty to be structural",
        ),
        (
            "x-kubernetes-list-type",
            "must be undefined to be structural",
        ),
        (
            "x-kubernetes-map-type",
            "must be undefined to be structural",
        ),
        ("x-kubernetes-validations", "must be empty to be structural"),
    ] {
        if map.contains_key(key) {
            out.push(forbidden(&child(path, key), what));
        }
    }
    for (key, what) in [
        ("nullable", "must be false to be structural"),
        (
            "x-kubernetes-preserve-unknown-fields",
            "must be false to be structural",
        ),
        (
            "x-kubernetes-embedded-resource",
            "must be false to be structural",
        ),
        (
            "x-kubernetes-int-or-string",
            "must be false to be structural",
        ),
    ] {
        if flag(v, key) {
            out.push(forbidden(&child(path, key), what));
        }
    }
    if let Some(props) = map.get("properties").and_then(Value::as_object) {
        if props.contains_key("metadata") {
            out.push(forbidden(
                &format!("{}[metadata]", child(path, "properties")),
                "must not be specified in a nested context",
            ));
        }
        for (k, p) in props {
            nested(
                p,
                &format!("{}[{k}]", child(path, "properties")),
                false,
                out,
            );
        }
    }
    if let Some(items) = map.get("items") {
        nested(items, &child(path, "items"), false, out);
    }
    for junctor in ["allOf", "anyOf", "oneOf"] {
        for (i, x) in map
            .get(junctor)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            nested(x, &index(&child(path, junctor), i), false, out);
        }
    }
    if let Some(not) = map.get("not") {
        nested(not, &child(path, "not"), false, out);
    }
}

// ---------------------------------------------------------------------------------
// Pruning.

/// Removes every field the schema does not specify (Go's `structuralpruning.Prune`),
/// keeping `apiVersion`, `kind` and `metadata` at the root and in embedded resources;
/// returns the removed fields' paths (`spec.x`, `spec.items[0].y`), as Go's
/// `fieldValidation` reports them.
pub fn prune(obj: &mut Value, schema: &Value) -> Vec<String> {
    let mut pruned = Vec::new();
    prune_at(obj, schema, "", true, &mut pruned);
    pruned
}

fn prune_at(v: &mut Value, s: &Value, path: &str, keep_type_meta: bool, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            let preserve = flag(s, "x-kubernetes-preserve-unknown-fields");
            let embedded = flag(s, "x-kubernetes-embedded-resource");
            let keep_meta = keep_type_meta || embedded;
            let props = s.get("properties").and_then(Value::as_object);
            let additional = s.get("additionalProperties");
            let keys: Vec<String> = map.keys().cloned().collect();
            for k in keys {
                if keep_meta && matches!(k.as_str(), "apiVersion" | "kind" | "metadata") {
                    // metadata is ObjectMeta's business, not the schema's.
                    if k != "metadata" {
                        continue;
                    }
                    continue;
                }
                let sub = props.and_then(|p| p.get(&k)).or(match additional {
                    Some(a) if a.is_object() => Some(a),
                    _ => None,
                });
                match sub {
                    Some(sub) => {
                        if let Some(x) = map.get_mut(&k) {
                            prune_at(x, sub, &child(path, &k), false, out);
                        }
                    }
                    None if preserve || additional == Some(&Value::Bool(true)) => {}
                    None => {
                        map.remove(&k);
                        out.push(child(path, &k));
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = s.get("items") {
                for (i, x) in items.iter_mut().enumerate() {
                    prune_at(x, item_schema, &index(path, i), false, out);
                }
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------------
// Defaulting.

/// Sets every absent field the schema gives a `default` (Go's
/// `structuraldefaulting.Default`), and a `null` one that is not `nullable`.
pub fn default(obj: &mut Value, schema: &Value) {
    match obj {
        Value::Object(map) => {
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (k, sub) in props {
                    let Some(d) = sub.get("default") else {
                        continue;
                    };
                    match map.get(k) {
                        None => {
                            map.insert(k.clone(), d.clone());
                        }
                        Some(Value::Null) if !flag(sub, "nullable") => {
                            map.insert(k.clone(), d.clone());
                        }
                        _ => {}
                    }
                }
                for (k, x) in map.iter_mut() {
                    if let Some(sub) = props.get(k) {
                        default(x, sub);
                    }
                }
            }
            if let Some(ap) = schema.get("additionalProperties").filter(|a| a.is_object()) {
                let props = schema.get("properties").and_then(Value::as_object);
                for (k, x) in map.iter_mut() {
                    if props.is_none_or(|p| !p.contains_key(k)) {
                        default(x, ap);
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for x in items.iter_mut() {
                    if x.is_null() && !flag(item_schema, "nullable") {
                        if let Some(d) = item_schema.get("default") {
                            *x = d.clone();
                        }
                    }
                    default(x, item_schema);
                }
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------------
// Validation.

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
        if !super::formats::is_valid(format, text) {
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

/// Whether the schema has `x-kubernetes-validations` (CEL rules) anywhere.
pub fn has_cel_rules(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => {
            map.contains_key("x-kubernetes-validations") || map.values().any(has_cel_rules)
        }
        Value::Array(items) => items.iter().any(has_cel_rules),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn messages(causes: &[StatusCause]) -> Vec<String> {
        causes
            .iter()
            .map(|c| format!("{}: {}", c.field, c.message))
            .collect()
    }

    #[test]
    fn every_violation_is_a_cause_in_go_words() {
        let schema = json!({"type": "object", "properties": {"spec": {"type": "object",
        "required": ["size", "name"],
        "properties": {
            "size": {"type": "integer", "minimum": 1, "maximum": 10},
            "ratio": {"type": "number", "exclusiveMaximum": true, "maximum": 1},
            "name": {"type": "string", "maxLength": 3, "pattern": "^[a-z]+$"},
            "short": {"type": "string", "minLength": 2},
            "color": {"type": "string", "enum": ["red", "blue"]},
            "tags": {"type": "array", "maxItems": 2, "uniqueItems": true, "items": {"type": "string"}},
            "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                      "items": {"type": "object", "properties": {"name": {"type": "string"}}}},
            "port": {"x-kubernetes-int-or-string": true},
            "email": {"type": "string", "format": "email"},
            "maybe": {"type": "string", "nullable": true},
            "never": {"type": "string"},
            "labels": {"type": "object", "maxProperties": 1, "additionalProperties": {"type": "string"}},
            "template": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
        }}}});
        let obj = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
        "spec": {
            "size": "big", "ratio": 1, "name": "ABCD", "short": "a", "color": "pink",
            "tags": ["a", "a", "b"], "set": ["x", "x"], "ports": [{"name": "a"}, {"name": "a"}],
            "port": true, "email": "nope", "maybe": null, "never": null,
            "labels": {"a": "1", "b": 2}, "template": {"spec": {}},
        }});
        let got = messages(&validate(&obj, &schema));
        let want = [
            "spec.color: Unsupported value: \"pink\": supported values: \"red\", \"blue\"",
            "spec.email: Invalid value: \"nope\": spec.email in body must be of type email: \"nope\"",
            "spec.labels: Too many: 2: must have at most 1 items",
            "spec.labels.b: Invalid value: \"integer\": spec.labels.b in body must be of type string: \"integer\"",
            "spec.name: Too long: may not be more than 3 bytes",
            "spec.name: Invalid value: \"ABCD\": spec.name in body should match '^[a-z]+$'",
            "spec.never: Invalid value: \"null\": spec.never in body must be of type string: \"null\"",
            "spec.port: Invalid value: \"boolean\": spec.port in body must be of type integer,string: \"boolean\"",
            "spec.ports[1]: Duplicate value: {\"name\":\"a\"}",
            "spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1",
            "spec.set[1]: Duplicate value: \"x\"",
            "spec.short: Invalid value: \"a\": spec.short in body should be at least 2 chars long",
            "spec.size: Invalid value: \"string\": spec.size in body must be of type integer: \"string\"",
            "spec.tags: Too many: 3: must have at most 2 items",
            "spec.tags: Invalid value: [\"a\",\"a\",\"b\"]: spec.tags in body shouldn't contain duplicates",
            "spec.template.apiVersion: Required value: must not be empty",
            "spec.template.kind: Required value: must not be empty",
        ];
        assert_eq!(got, want);
        let causes = validate(&obj, &schema);
        let reasons: Vec<&str> = causes.iter().map(|c| c.reason.as_str()).collect();
        assert!(reasons.contains(&"FieldValueTypeInvalid"));
        assert!(reasons.contains(&"FieldValueNotSupported"));
        let missing = json!({"spec": {}});
        assert_eq!(
            messages(&validate(&missing, &schema)),
            ["spec.size: Required value", "spec.name: Required value"]
        );
    }

    #[test]
    fn pruning_keeps_what_the_schema_and_its_extensions_allow() {
        let schema = json!({"type": "object", "properties": {
        "spec": {"type": "object", "properties": {
            "items": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}},
            "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
            "map": {"type": "object", "additionalProperties": {"type": "string"}},
            "embedded": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {"spec": {"type": "object"}}},
        }}}});
        let mut obj = json!({"apiVersion": "v", "kind": "K", "metadata": {"name": "n"}, "extra": 1,
            "spec": {"gone": true, "items": [{"a": "x", "b": "y"}], "free": {"anything": 1},
                     "map": {"k": "v"}, "embedded": {"apiVersion": "v1", "kind": "Pod", "metadata": {}, "spec": {}, "x": 1}}});
        let pruned = prune(&mut obj, &schema);
        assert_eq!(
            pruned,
            ["extra", "spec.embedded.x", "spec.gone", "spec.items[0].b"]
        );
        assert_eq!(obj["spec"]["free"]["anything"], 1);
        assert_eq!(obj["spec"]["map"]["k"], "v");
        assert_eq!(obj["spec"]["embedded"]["kind"], "Pod");
        assert_eq!(obj["metadata"]["name"], "n");
    }

    #[test]
    fn defaults_fill_absent_and_null_fields() {
        let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "default": {},
            "properties": {"replicas": {"type": "integer", "default": 1},
                           "opt": {"type": "string", "nullable": true, "default": "x"},
                           "list": {"type": "array", "items": {"type": "object", "properties": {"p": {"type": "integer", "default": 80}}}}}}}});
        let mut obj = json!({});
        default(&mut obj, &schema);
        assert_eq!(obj, json!({"spec": {"replicas": 1, "opt": "x"}}));
        let mut obj = json!({"spec": {"replicas": null, "opt": null, "list": [{}]}});
        default(&mut obj, &schema);
        assert_eq!(
            obj,
            json!({"spec": {"replicas": 1, "opt": null, "list": [{"p": 80}]}})
        );
    }

    #[test]
    fn non_structural_schemas_are_named_as_go_names_them() {
        let schema = json!({"properties": {
            "spec": {"properties": {"x": {"type": "string"}}},
            "list": {"type": "array"},
            "metadata": {"type": "object", "properties": {"labels": {"type": "object"}}},
            "alt": {"type": "string", "anyOf": [{"type": "string", "description": "d"}]},
        }});
        let got = messages(&structural_errors(
            &schema,
            "spec.versions[0].schema.openAPIV3Schema",
        ));
        let p = "spec.versions[0].schema.openAPIV3Schema";
        assert_eq!(
            got,
            [
                format!(
                    "{p}.properties[alt].anyOf[0].description: Forbidden: must be empty to be structural"
                ),
                format!(
                    "{p}.properties[alt].anyOf[0].type: Forbidden: must be empty to be structural"
                ),
                format!("{p}.properties[list].items: Required value: must be specified"),
                format!(
                    "{p}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"
                ),
                format!(
                    "{p}.properties[spec].type: Required value: must not be empty for specified object fields"
                ),
                format!("{p}.type: Required value: must not be empty at the root"),
            ]
        );
    }

    #[test]
    fn malformed_schemas_and_values_are_errors_not_crashes() {
        let schema = json!({"type": "object", "properties": {
            "a": {"type": "string", "pattern": "("},
            "b": {"type": "array", "items": 5, "maxItems": -1},
            "c": {"type": "object", "properties": "nope", "required": [1, "x"]},
            "d": {"type": "number", "multipleOf": 0, "minimum": "low"},
        }});
        let errors = messages(&structural_errors(&schema, "s"));
        assert!(
            errors.iter().any(|e| e.starts_with(
                "s.properties[a].pattern: Invalid value: \"(\": must be a valid regular expression"
            )),
            "{errors:?}"
        );
        let mut value =
            json!({"a": "x", "b": [[[]], {"k": null}], "c": {"y": [1]}, "d": 1e308, "e": "é"});
        prune(&mut value, &schema);
        default(&mut value, &schema);
        let causes = messages(&validate(&value, &schema));
        assert_eq!(causes, ["c.x: Required value"]);
    }
}
