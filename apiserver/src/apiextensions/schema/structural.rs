//! Go's `ValidateStructural`: whether a CRD version's schema is structural.

use apimachinery::apis::meta::v1::StatusCause;
use serde_json::{Map, Value};

use super::{child, flag, forbidden, index, invalid, required};

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
