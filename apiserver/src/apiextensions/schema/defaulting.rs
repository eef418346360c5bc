//! Go's `structuraldefaulting`: absent fields get their schema's `default`.

use serde_json::Value;

use super::flag;

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
