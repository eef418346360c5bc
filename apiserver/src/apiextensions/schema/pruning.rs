//! Go's `structuralpruning`: the fields a schema does not specify are removed.

use serde_json::Value;

use super::{child, flag, index};

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
