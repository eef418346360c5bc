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
use serde_json::Value;

pub(super) fn cause(reason: &str, field: &str, message: String) -> StatusCause {
    StatusCause {
        reason: reason.into(),
        message,
        field: field.to_owned(),
    }
}

/// A value as Go's `field.Error` prints it: strings quoted, numbers and booleans bare,
/// `null`, and anything else as JSON.
pub(super) fn show(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        Value::Null => "\"null\"".into(),
        other => other.to_string(),
    }
}

pub(super) fn required(field: &str, detail: &str) -> StatusCause {
    let message = if detail.is_empty() {
        "Required value".to_owned()
    } else {
        format!("Required value: {detail}")
    };
    cause("FieldValueRequired", field, message)
}

pub(super) fn invalid(field: &str, value: &Value, detail: &str) -> StatusCause {
    cause(
        "FieldValueInvalid",
        field,
        format!("Invalid value: {}: {detail}", show(value)),
    )
}

pub(super) fn type_invalid(field: &str, value: &Value, detail: &str) -> StatusCause {
    cause(
        "FieldValueTypeInvalid",
        field,
        format!("Invalid value: {}: {detail}", show(value)),
    )
}

pub(super) fn forbidden(field: &str, detail: &str) -> StatusCause {
    cause("FieldValueForbidden", field, format!("Forbidden: {detail}"))
}

pub(super) fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

pub(super) fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

pub(super) fn flag(schema: &Value, name: &str) -> bool {
    schema.get(name).and_then(Value::as_bool) == Some(true)
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

mod defaulting;
mod pruning;
mod structural;
mod validation;

pub use defaulting::default;
pub use pruning::prune;
pub use structural::structural_errors;
pub use validation::validate;

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
