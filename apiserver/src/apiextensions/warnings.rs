//! The warnings Go's CRD strategy gives about a definition written
//! (`registry/customresourcedefinition/strategy.go`'s `WarningsOnCreate` and
//! `WarningsOnUpdate`): a `format` CRD validation does not know, which it ignores
//! (`getUnrecognizedFormatsInCRD`); from 1.37, a schema declaring
//! `x-kubernetes-list-type: set` over items that are objects or lists, which server-side
//! apply and CEL rules cannot treat as a set (`getNonScalarListTypeSetWarnings`). An
//! update warns only of what the stored definition did not already have.
//!
//! The definition is read in its stored form (v1beta1, whose layout is Go's internal
//! one: a schema every version shares is `spec.validation`, once) or in v1 (every
//! version's `schema`): both places are looked at, as Go looks at both.

use std::collections::BTreeSet;

use serde_json::Value;

/// The formats CRD validation checks (Go's `supportedVersionedFormats` at the
/// compatibility version of 1.36 and 1.37, which includes 1.34's Kubernetes names), in
/// go-openapi's normalized spelling (without dashes).
const SUPPORTED_STRING_FORMATS: [&str; 26] = [
    "bsonobjectid",
    "uri",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "cidr",
    "mac",
    "uuid",
    "uuid3",
    "uuid4",
    "uuid5",
    "isbn",
    "isbn10",
    "isbn13",
    "creditcard",
    "ssn",
    "hexcolor",
    "rgbcolor",
    "byte",
    "password",
    "date",
    "duration",
    "datetime",
    "k8sshortname",
    "k8slongname",
];

/// The sub-schemas of `schema` (a `JSONSchemaProps`) in the order Go's `SchemaHas`
/// visits them: items, the combinators, not, properties, additionalProperties,
/// patternProperties, additionalItems, definitions, dependencies.
fn sub_schemas(schema: &Value) -> Vec<&Value> {
    let mut out = Vec::new();
    match schema.get("items") {
        Some(s @ Value::Object(_)) => out.push(s),
        // `items` may be a list of schemas.
        Some(Value::Array(list)) => out.extend(list.iter().filter(|v| v.is_object())),
        _ => {}
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = schema.get(key) {
            out.extend(list.iter().filter(|v| v.is_object()));
        }
    }
    let map_values = |key: &str| -> Vec<&Value> {
        match schema.get(key) {
            // A dependency is a schema or a list of property names.
            Some(Value::Object(map)) => map.values().filter(|v| v.is_object()).collect(),
            _ => Vec::new(),
        }
    };
    // `not`, `additionalProperties` and `additionalItems` are schemas or booleans.
    let single = |key: &str| schema.get(key).filter(|v| v.is_object());
    out.extend(single("not"));
    out.extend(map_values("properties"));
    out.extend(single("additionalProperties"));
    out.extend(map_values("patternProperties"));
    out.extend(single("additionalItems"));
    out.extend(map_values("definitions"));
    out.extend(map_values("dependencies"));
    out
}

/// Calls `visit` on `schema` and everything under it, parents first (Go's `SchemaHas`
/// with a predicate that never stops it).
fn walk<'a>(schema: &'a Value, visit: &mut impl FnMut(&'a Value)) {
    visit(schema);
    for sub in sub_schemas(schema) {
        walk(sub, visit);
    }
}

/// The schemas of `crd`: the shared one (`spec.validation`, stored form) first, then
/// each version's.
fn schemas(crd: &Value) -> Vec<&Value> {
    let versions = crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    crd.pointer("/spec/validation/openAPIV3Schema")
        .into_iter()
        .chain(
            versions
                .iter()
                .filter_map(|v| v.pointer("/schema/openAPIV3Schema")),
        )
        .filter(|s| s.is_object())
        .collect()
}

/// Go's `GetUnrecognizedFormats` of one schema: its format when the type does not take
/// it.
fn unrecognized_format(schema: &Value) -> Option<&str> {
    let format = schema
        .get("format")
        .and_then(Value::as_str)
        .filter(|f| !f.is_empty())?;
    let known = match schema.get("type").and_then(Value::as_str).unwrap_or("") {
        "" | "string" => SUPPORTED_STRING_FORMATS.contains(&format.replace('-', "").as_str()),
        "integer" => matches!(format, "int32" | "int64"),
        "number" => matches!(format, "float" | "double"),
        _ => false,
    };
    (!known).then_some(format)
}

/// Go's `getUnrecognizedFormatsInCRD`: the formats validation ignores, in the order met
/// (repeated as often as met).
pub fn unrecognized_formats(crd: &Value) -> Vec<String> {
    let mut found = Vec::new();
    for schema in schemas(crd) {
        walk(schema, &mut |s| {
            found.extend(unrecognized_format(s).map(str::to_owned));
        });
    }
    found
}

/// Go's `getNonScalarListTypeSetWarnings`: one warning per item type (sorted) of the
/// set-typed lists of non-scalar items in the schemas of `crd`.
pub fn list_type_set_warnings(crd: &Value) -> Vec<String> {
    let mut found = BTreeSet::new();
    for schema in schemas(crd) {
        walk(schema, &mut |s| {
            let set = s.get("x-kubernetes-list-type").and_then(Value::as_str) == Some("set");
            let items = s.get("items").filter(|i| i.is_object());
            if let (true, Some(items)) = (set, items) {
                if let Some(t @ ("object" | "array")) = items.get("type").and_then(Value::as_str) {
                    found.insert(t);
                }
            }
        });
    }
    found
        .into_iter()
        .map(|t| format!("x-kubernetes-list-type: set for items of type \"{t}\" is not supported by server-side apply or CEL validation rules"))
        .collect()
}

/// The warning about an unrecognized format, as Go words it (its `%q` quoting is JSON's
/// for printable text).
fn format_warning(format: &str) -> String {
    format!("unrecognized format {}", Value::from(format))
}

/// Go's `WarningsOnCreate` for `crd`: its unrecognized formats, then (1.37 on, when
/// `sets` is true) its set-typed lists of non-scalar items.
pub fn on_create(crd: &Value, sets: bool) -> Vec<String> {
    let mut out: Vec<String> = unrecognized_formats(crd)
        .iter()
        .map(|f| format_warning(f))
        .collect();
    if sets {
        out.extend(list_type_set_warnings(crd));
    }
    out
}

/// Go's `WarningsOnUpdate`: the formats `old` did not have, then the set warnings `old`
/// did not give.
pub fn on_update(new: &Value, old: &Value, sets: bool) -> Vec<String> {
    let before: BTreeSet<String> = unrecognized_formats(old).into_iter().collect();
    let mut out: Vec<String> = unrecognized_formats(new)
        .iter()
        .filter(|f| !before.contains(*f))
        .map(|f| format_warning(f))
        .collect();
    if sets {
        out.extend(new_list_type_set_warnings(new, old));
    }
    out
}

/// The set warnings of `new` that `old` did not give.
pub fn new_list_type_set_warnings(new: &Value, old: &Value) -> Vec<String> {
    let before = list_type_set_warnings(old);
    list_type_set_warnings(new)
        .into_iter()
        .filter(|w| !before.contains(w))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn crd(schemas: &[Value]) -> Value {
        let versions: Vec<Value> = schemas
            .iter()
            .map(|s| json!({"name": "v1", "schema": {"openAPIV3Schema": s}}))
            .collect();
        json!({"spec": {"versions": versions}})
    }

    fn set_of(items: Value) -> Value {
        json!({"type": "array", "x-kubernetes-list-type": "set", "items": items})
    }

    #[test]
    fn sets_of_objects_and_lists_are_warned_of_once_per_type_in_order() {
        let object = json!({"type": "object", "x-kubernetes-map-type": "atomic"});
        let schema = json!({"type": "object", "properties": {
            "a": set_of(object.clone()),
            "b": {"type": "object", "additionalProperties": set_of(json!({"type": "array", "items": {"type": "string"}}))},
            "c": {"type": "array", "items": set_of(object)},
            "d": set_of(json!({"type": "string"})),
        }});
        assert_eq!(
            list_type_set_warnings(&crd(&[schema])),
            [
                "x-kubernetes-list-type: set for items of type \"array\" is not supported by server-side apply or CEL validation rules",
                "x-kubernetes-list-type: set for items of type \"object\" is not supported by server-side apply or CEL validation rules",
            ]
        );
    }

    #[test]
    fn scalar_sets_and_other_lists_are_not_warned_of() {
        let schema = json!({"type": "object", "properties": {
            "a": set_of(json!({"type": "integer"})),
            "b": {"type": "array", "x-kubernetes-list-type": "atomic", "items": {"type": "object"}},
            "c": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
                  "items": {"type": "object", "required": ["k"], "properties": {"k": {"type": "string"}}}},
        }});
        assert!(list_type_set_warnings(&crd(&[schema])).is_empty());
        assert!(list_type_set_warnings(&json!({"spec": {}})).is_empty());
    }

    #[test]
    fn an_update_warns_only_of_what_is_new() {
        let objects = json!({"type": "object", "properties": {"a": set_of(json!({"type": "object", "x-kubernetes-map-type": "atomic"}))}});
        let both = json!({"type": "object", "properties": {
            "a": set_of(json!({"type": "object", "x-kubernetes-map-type": "atomic"})),
            "b": set_of(json!({"type": "array", "items": {"type": "string"}})),
        }});
        let old = crd(std::slice::from_ref(&objects));
        assert!(new_list_type_set_warnings(&crd(&[objects]), &old).is_empty());
        assert_eq!(
            new_list_type_set_warnings(&crd(&[both]), &old),
            [
                "x-kubernetes-list-type: set for items of type \"array\" is not supported by server-side apply or CEL validation rules"
            ]
        );
    }

    #[test]
    fn the_stored_form_shared_schema_is_read_once() {
        let shared = json!({"spec": {
            "validation": {"openAPIV3Schema": {"type": "object", "properties": {
                "a": set_of(json!({"type": "object"})),
                "b": {"type": "string", "format": "colour"}}}},
            "versions": [{"name": "v1"}, {"name": "v2"}]}});
        assert_eq!(unrecognized_formats(&shared), ["colour"]);
        assert_eq!(list_type_set_warnings(&shared).len(), 1);
    }

    #[test]
    fn formats_are_checked_against_the_type() {
        let schema = json!({"type": "object", "properties": {
            "a": {"type": "string", "format": "date-time"},
            "b": {"type": "string", "format": "k8s-short-name"},
            "c": {"type": "integer", "format": "int32"},
            "d": {"type": "number", "format": "double"},
            "e": {"type": "integer", "format": "float"},
            "f": {"type": "boolean", "format": "byte"},
            "g": {"format": "uri"},
            "h": {"type": "string", "format": "colour"},
        }});
        let crd = crd(&[schema]);
        assert_eq!(unrecognized_formats(&crd), ["float", "byte", "colour"]);
        assert_eq!(
            on_create(&crd, false),
            [
                "unrecognized format \"float\"",
                "unrecognized format \"byte\"",
                "unrecognized format \"colour\""
            ]
        );
    }

    #[test]
    fn an_update_warns_of_new_formats_then_new_sets() {
        let old = crd(&[json!({"type": "object", "properties": {
            "a": {"type": "string", "format": "colour"}}})]);
        let new = crd(&[json!({"type": "object", "properties": {
            "a": {"type": "string", "format": "colour"},
            "b": {"type": "string", "format": "shade"},
            "c": set_of(json!({"type": "array", "items": {"type": "string"}}))}})]);
        assert_eq!(
            on_update(&new, &old, true),
            [
                "unrecognized format \"shade\"",
                "x-kubernetes-list-type: set for items of type \"array\" is not supported by server-side apply or CEL validation rules"
            ]
        );
        assert_eq!(
            on_update(&new, &old, false),
            ["unrecognized format \"shade\""]
        );
    }
}
