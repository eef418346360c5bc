//! The defaults of keyed lists' key fields, for `documents.rs`'s `KEY_DEFAULTS`.
//!
//! kube-apiserver's field manager builds its types from Go's OpenAPI definitions, which
//! carry each field's `default` (openapi-gen gives a value field without `omitempty` its
//! zero value, `""` for `LocalObjectReference.name`; a `+default=` marker its value,
//! `"TCP"` for a port's `protocol`). structured-merge-diff keys a list item that leaves a
//! key field out by that default (`typed/helpers.go`, `keyedAssociativeListItemToPathElement`),
//! so `imagePullSecrets: [{}]` is the item `k:{"name":""}`. The defaults are read from
//! Go's own v3 documents (`api/openapi-spec/v3`, `openapi-v3/` of the reference data),
//! only those of key fields, since a default matters to the field manager nowhere else.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Map, Value};

use crate::Error;

/// The directory of the reference data that holds Go's v3 documents.
pub const DIR: &str = "openapi-v3";

/// The prefix of v3 schema refs.
const V3_SCHEMAS: &str = "#/components/schemas/";

/// `(schema, field, default as JSON)` of every key field with a scalar default of the
/// lists the v3 documents in `dir` declare, sorted.
pub fn read(dir: &Path) -> Result<Vec<(String, String, String)>, Error> {
    let mut schemas = Map::new();
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut paths: Vec<_> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).map_err(|source| Error::Read {
            path: path.clone(),
            source,
        })?;
        let doc: Value =
            serde_json::from_str(&text).map_err(|source| Error::Parse { path, source })?;
        if let Some(found) = doc
            .pointer("/components/schemas")
            .and_then(Value::as_object)
        {
            // Every document has the same schema under a name.
            for (name, schema) in found {
                schemas
                    .entry(name.clone())
                    .or_insert_with(|| schema.clone());
            }
        }
    }
    Ok(key_defaults(&schemas))
}

/// The key-field defaults of the lists of `schemas` (a v3 `components.schemas`).
pub fn key_defaults(schemas: &Map<String, Value>) -> Vec<(String, String, String)> {
    let mut out = BTreeSet::new();
    for schema in schemas.values() {
        let properties = schema.get("properties").and_then(Value::as_object);
        for list in properties.into_iter().flatten().map(|(_, p)| p) {
            let Some(keys) = list_keys(list) else {
                continue;
            };
            let Some(item) = list.get("items").and_then(reference) else {
                continue;
            };
            let item_properties = schemas
                .get(item)
                .and_then(|s| s.get("properties"))
                .and_then(Value::as_object);
            for key in keys {
                let default = item_properties
                    .and_then(|p| p.get(key))
                    .and_then(|p| p.get("default"))
                    .filter(|d| !d.is_object() && !d.is_array() && !d.is_null());
                if let Some(default) = default {
                    out.insert((item.to_owned(), key.to_owned(), default.to_string()));
                }
            }
        }
    }
    out.into_iter().collect()
}

/// The key fields of a keyed list: `x-kubernetes-list-map-keys` of a `map` list, or
/// the merge key of a list without a list type whose patch strategy is `merge` (how
/// Go's schema conversion reads lists that predate list types).
fn list_keys(list: &Value) -> Option<Vec<&str>> {
    if list.get("type").and_then(Value::as_str) != Some("array") {
        return None;
    }
    match list.get("x-kubernetes-list-type").and_then(Value::as_str) {
        Some("map") => Some(
            list.get("x-kubernetes-list-map-keys")?
                .as_array()?
                .iter()
                .filter_map(Value::as_str)
                .collect(),
        ),
        Some(_) => None,
        None => {
            let strategy = list
                .get("x-kubernetes-patch-strategy")
                .and_then(Value::as_str)?;
            if strategy.split(',').next() != Some("merge") {
                return None;
            }
            Some(vec![list.get("x-kubernetes-patch-merge-key")?.as_str()?])
        }
    }
}

/// The schema an item schema refers to (`$ref`, or the one `allOf` entry v3 wraps a
/// reference with siblings in).
fn reference(items: &Value) -> Option<&str> {
    let direct = items.get("$ref").and_then(Value::as_str);
    let wrapped = || match items.get("allOf").and_then(Value::as_array)?.as_slice() {
        [only] => only.get("$ref").and_then(Value::as_str),
        _ => None,
    };
    direct.or_else(wrapped)?.strip_prefix(V3_SCHEMAS)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_defaults_of_map_and_merge_list_keys_are_kept() {
        let schemas = json!({
            "PodSpec": {"properties": {
                "imagePullSecrets": {"type": "array",
                    "items": {"allOf": [{"$ref": "#/components/schemas/LocalObjectReference"}], "default": {}},
                    "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]},
                "ports": {"type": "array",
                    "items": {"$ref": "#/components/schemas/ContainerPort"},
                    "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "containerPort"},
                "tags": {"type": "array", "items": {"$ref": "#/components/schemas/Tag"},
                    "x-kubernetes-list-type": "atomic"}
            }},
            "LocalObjectReference": {"properties": {"name": {"type": "string", "default": ""}}},
            "ContainerPort": {"properties": {
                "containerPort": {"type": "integer", "default": 0},
                "protocol": {"type": "string", "default": "TCP"}}},
            "Tag": {"properties": {"name": {"type": "string", "default": "x"}}}
        });
        let found = key_defaults(schemas.as_object().unwrap());
        assert_eq!(
            found,
            vec![
                ("ContainerPort".into(), "containerPort".into(), "0".into()),
                ("LocalObjectReference".into(), "name".into(), "\"\"".into()),
            ]
        );
    }
}
