//! The warnings Go's CRD strategy gives about a definition written
//! (`registry/customresourcedefinition/strategy.go`'s `WarningsOnCreate` and
//! `WarningsOnUpdate`): from 1.37, a schema declaring `x-kubernetes-list-type: set` over
//! items that are objects or lists, which server-side apply and CEL rules cannot treat
//! as a set (`getNonScalarListTypeSetWarnings`); an update warns only of what the
//! stored definition did not already have.

use std::collections::BTreeSet;

use serde_json::Value;

/// The sub-schemas of `schema` (a v1 `JSONSchemaProps`), where Go's `SchemaHas` looks:
/// items, the combinators, properties and the other schema-valued keywords.
fn sub_schemas(schema: &Value) -> Vec<&Value> {
    let mut out = Vec::new();
    for key in ["items", "not", "additionalProperties", "additionalItems"] {
        match schema.get(key) {
            Some(s @ Value::Object(_)) => out.push(s),
            // `items` may be a list of schemas; the others are schemas or booleans.
            Some(Value::Array(list)) if key == "items" => out.extend(list),
            _ => {}
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = schema.get(key) {
            out.extend(list);
        }
    }
    for key in [
        "properties",
        "patternProperties",
        "definitions",
        "dependencies",
    ] {
        if let Some(Value::Object(map)) = schema.get(key) {
            // A dependency is a schema or a list of property names.
            out.extend(map.values().filter(|v| v.is_object()));
        }
    }
    out
}

/// The type of the items of a set-typed list that server-side apply cannot key, into
/// `found`, for `schema` and everything under it.
fn non_scalar_set_items<'a>(schema: &'a Value, found: &mut BTreeSet<&'a str>) {
    let set = schema.get("x-kubernetes-list-type").and_then(Value::as_str) == Some("set");
    if let (true, Some(items)) = (set, schema.get("items").filter(|i| i.is_object())) {
        if let Some(t @ ("object" | "array")) = items.get("type").and_then(Value::as_str) {
            found.insert(t);
        }
    }
    for sub in sub_schemas(schema) {
        non_scalar_set_items(sub, found);
    }
}

/// Go's `getNonScalarListTypeSetWarnings`: one warning per item type (sorted) of the
/// set-typed lists of non-scalar items in the schemas of `crd` (its v1 JSON).
pub fn list_type_set_warnings(crd: &Value) -> Vec<String> {
    let mut found = BTreeSet::new();
    let versions = crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for version in versions {
        if let Some(schema) = version.pointer("/schema/openAPIV3Schema") {
            non_scalar_set_items(schema, &mut found);
        }
    }
    found
        .into_iter()
        .map(|t| format!("x-kubernetes-list-type: set for items of type \"{t}\" is not supported by server-side apply or CEL validation rules"))
        .collect()
}

/// The warnings of `new` that `old` (both v1 JSON) did not give.
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
}
