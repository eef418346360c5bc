//! The fields a version requires, from its OpenAPI schema (the `required` lists kapi
//! serves, `apiserver::openapi`): what minimal conversion must write even though the
//! input left it to a default of its old version (`apps/v1` requires a Deployment's
//! `spec.selector`, which `extensions/v1beta1` defaulted from the template's labels;
//! `networking.k8s.io/v1` a path's `pathType`, which `v1beta1` defaulted).

use serde_json::Value;

use super::tree::{Seg, Tree, path_string};

/// Fills every field `kind`'s schema in `group`/`version` requires and `out` lacks (or
/// holds `null`) with the value the full conversion (`defaulted`: defaults of the old
/// version, then converted) gives it, at the place Go's field order gives it. Returns the
/// paths filled. Only objects that are in `out` are looked into.
pub fn fill(
    out: &mut Tree,
    defaulted: &Tree,
    group: &str,
    version: &str,
    kind: &str,
) -> Vec<String> {
    let mut filled = Vec::new();
    let Some(name) = apiserver::openapi::schema_name_for_kind(group, version, kind) else {
        return filled;
    };
    let Some(schema) = apiserver::openapi::schema(name) else {
        return filled;
    };
    walk(out, defaulted, schema, &mut Vec::new(), &mut filled, 0);
    filled
}

/// Deep enough for any built-in schema; recursive ones (JSONSchemaProps) stop here.
const MAX_DEPTH: usize = 64;

fn walk(
    out: &mut Tree,
    defaulted: &Tree,
    schema: &Value,
    path: &mut Vec<Seg>,
    filled: &mut Vec<String>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let schema = resolve(schema);
    match out {
        Tree::Object(_) => {
            if let Some(required) = schema.get("required").and_then(Value::as_array) {
                for name in required.iter().filter_map(Value::as_str) {
                    let missing = matches!(out.get(name), None | Some(Tree::Null));
                    match defaulted.get(name) {
                        Some(value) if missing && !matches!(value, Tree::Null) => {
                            out.set_key(name, value.clone(), Some(defaulted));
                            path.push(Seg::Key(name.to_owned()));
                            filled.push(path_string(path));
                            path.pop();
                        }
                        _ => {}
                    }
                }
            }
            let Some(properties) = schema.get("properties") else {
                return;
            };
            let Tree::Object(entries) = out else {
                return;
            };
            for (key, child) in entries.iter_mut() {
                let (Some(child_schema), Some(child_defaulted)) =
                    (properties.get(key.as_str()), defaulted.get(key))
                else {
                    continue;
                };
                path.push(Seg::Key(key.clone()));
                walk(
                    child,
                    child_defaulted,
                    child_schema,
                    path,
                    filled,
                    depth + 1,
                );
                path.pop();
            }
        }
        Tree::Array(items) => {
            let (Some(item_schema), Tree::Array(defaulted_items)) =
                (schema.get("items"), defaulted)
            else {
                return;
            };
            for (i, (item, item_defaulted)) in items.iter_mut().zip(defaulted_items).enumerate() {
                path.push(Seg::Index(i));
                walk(item, item_defaulted, item_schema, path, filled, depth + 1);
                path.pop();
            }
        }
        _ => {}
    }
}

/// The schema a `$ref` (or an `allOf` of one `$ref`, OpenAPI v3's way of adding a
/// description to a reference) points to.
fn resolve(schema: &Value) -> &Value {
    let reference = schema.get("$ref").or_else(|| {
        schema
            .get("allOf")
            .and_then(Value::as_array)
            .and_then(|all| all.first())
            .and_then(|first| first.get("$ref"))
    });
    reference
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/components/schemas/"))
        .and_then(apiserver::openapi::schema)
        .unwrap_or(schema)
}

#[cfg(test)]
mod tests {
    use super::super::tree::tests::tree;
    use super::*;

    #[test]
    fn a_deployment_gets_the_selector_apps_v1_requires() {
        let mut out = tree(
            r#"{"apiVersion":"apps/v1","kind":"Deployment","spec":{"replicas":1,"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}"#,
        );
        let defaulted = tree(
            r#"{"apiVersion":"apps/v1","kind":"Deployment","spec":{"replicas":1,"selector":{"matchLabels":{"app":"a"}},"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"i","terminationMessagePath":"/dev/termination-log"}]}},"revisionHistoryLimit":10}}"#,
        );
        let filled = fill(&mut out, &defaulted, "apps", "v1", "Deployment");
        assert_eq!(filled, ["spec.selector"]);
        assert_eq!(
            out.get("spec").map(ToString::to_string).unwrap_or_default(),
            r#"{"replicas":1,"selector":{"matchLabels":{"app":"a"}},"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}"#
        );
    }
}
