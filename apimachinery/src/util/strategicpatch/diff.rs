//! Creating a patch from two versions of a document (Go's `CreateTwoWayMergePatch`: what
//! `kubectl edit`, `label`, `annotate` and `set` send).

use serde_json::{Map, Value};

use super::error::{ROOT_PATH, StrategicMergePatchError as Error, json_type};
use super::meta::LookupPatchMeta;
use super::order::{ItemKind, normalize_slice_order};
use super::patch::{
    DELETE_DIRECTIVE, DELETE_FROM_PRIMITIVE_LIST_PREFIX, DIRECTIVE_MARKER, MERGE_DIRECTIVE, Object,
    REPLACE_DIRECTIVE, RETAIN_KEYS_DIRECTIVE, SET_ELEMENT_ORDER_PREFIX, deduplicate_scalars,
    document, extract_retain_keys_patch_strategy, field_path, invalid_type, merge_key_value_equal,
    slice_element_type,
};

/// The strategic merge patch that turns `original` into `modified` (Go's
/// `CreateTwoWayMergePatchUsingLookupPatchMeta`): changed and added fields, `null` for
/// removed ones; for merged lists the changed items by merge key, `$patch: delete` items,
/// `$deleteFromPrimitiveList/<field>` and `$setElementOrder/<field>` lists; `$retainKeys`
/// for fields with the `retainKeys` strategy.
///
/// Go's optional preconditions (e.g. "apiVersion unchanged") are left to the caller, who
/// can inspect the returned patch.
///
/// ```
/// use apimachinery::util::strategicpatch::{
///     create_two_way_merge_patch, strategic_merge_patch, SchemalessPatchMeta,
/// };
/// use serde_json::json;
///
/// let original = json!({"metadata": {"labels": {"app": "web", "tier": "front"}}});
/// let modified = json!({"metadata": {"labels": {"app": "web", "team": "a"}}});
/// let patch = create_two_way_merge_patch(&original, &modified, &SchemalessPatchMeta)?;
/// assert_eq!(patch, json!({"metadata": {"labels": {"team": "a", "tier": null}}}));
/// assert_eq!(strategic_merge_patch(&original, &patch, &SchemalessPatchMeta)?, modified);
/// # Ok::<(), apimachinery::util::strategicpatch::StrategicMergePatchError>(())
/// ```
pub fn create_two_way_merge_patch(
    original: &Value,
    modified: &Value,
    schema: &dyn LookupPatchMeta,
) -> Result<Value, Error> {
    let original = document(original, "original")?;
    let modified = document(modified, "modified")?;
    diff_maps(&original, &modified, schema, false, ROOT_PATH).map(Value::Object)
}

/// The patch between two objects (Go's `diffMaps` with `SetElementOrder`);
/// `build_retain_keys` when the field has the `retainKeys` strategy.
fn diff_maps(
    original: &Object,
    modified: &Object,
    schema: &dyn LookupPatchMeta,
    build_retain_keys: bool,
    path: &str,
) -> Result<Object, Error> {
    let mut patch = Map::new();
    let mut retain_keys = Vec::new();
    for (key, modified_value) in modified {
        if build_retain_keys && !modified_value.is_null() {
            retain_keys.push(key.clone());
        }
        let Some(original_value) = original.get(key) else {
            patch.insert(key.clone(), modified_value.clone());
            continue;
        };
        if key == DIRECTIVE_MARKER {
            for value in [original_value, modified_value] {
                if !value.is_string() {
                    return Err(invalid_type(&field_path(path, key), "string", value));
                }
            }
            if original_value != modified_value {
                patch.insert(key.clone(), modified_value.clone());
            }
            continue;
        }
        if json_type(original_value) != json_type(modified_value) {
            patch.insert(key.clone(), modified_value.clone());
            continue;
        }
        let child = field_path(path, key);
        match (original_value, modified_value) {
            (Value::Object(o), Value::Object(m)) => {
                let (subschema, meta) = match schema.lookup_patch_metadata_for_struct(key) {
                    Ok(found) => found,
                    // Without metadata an unchanged value needs no patch; a changed one does.
                    Err(_) if o == m => continue,
                    Err(source) => {
                        return Err(Error::Lookup {
                            path: child,
                            source,
                        });
                    }
                };
                let (retain, strategy) =
                    extract_retain_keys_patch_strategy(meta.patch_strategies(), &child)?;
                if strategy == REPLACE_DIRECTIVE {
                    patch.insert(key.clone(), modified_value.clone());
                } else {
                    let sub = diff_maps(o, m, subschema.as_ref(), retain, &child)?;
                    if !sub.is_empty() {
                        patch.insert(key.clone(), Value::Object(sub));
                    }
                }
            }
            (Value::Array(o), Value::Array(m)) => {
                let (subschema, meta) = match schema.lookup_patch_metadata_for_slice(key) {
                    Ok(found) => found,
                    Err(_) if o == m => continue,
                    Err(source) => {
                        return Err(Error::Lookup {
                            path: child,
                            source,
                        });
                    }
                };
                let (retain, strategy) =
                    extract_retain_keys_patch_strategy(meta.patch_strategies(), &child)?;
                if strategy != MERGE_DIRECTIVE {
                    if o != m {
                        patch.insert(key.clone(), modified_value.clone());
                    }
                    continue;
                }
                let lists = diff_lists(
                    o,
                    m,
                    subschema.as_ref(),
                    meta.patch_merge_key(),
                    retain,
                    &child,
                )?;
                if !lists.patch.is_empty() {
                    patch.insert(key.clone(), Value::Array(lists.patch));
                }
                if !lists.deletions.is_empty() {
                    patch.insert(
                        format!("{DELETE_FROM_PRIMITIVE_LIST_PREFIX}/{key}"),
                        Value::Array(lists.deletions),
                    );
                }
                if !lists.order.is_empty() {
                    patch.insert(
                        format!("{SET_ELEMENT_ORDER_PREFIX}/{key}"),
                        Value::Array(lists.order),
                    );
                }
            }
            _ => {
                if original_value != modified_value {
                    patch.insert(key.clone(), modified_value.clone());
                }
            }
        }
    }
    for key in original.keys() {
        if !modified.contains_key(key) {
            patch.insert(key.clone(), Value::Null);
        }
    }
    let clears_fields = original
        .iter()
        .any(|(k, v)| !v.is_null() && !modified.contains_key(k));
    if !retain_keys.is_empty() && (!patch.is_empty() || clears_fields) {
        retain_keys.sort();
        patch.insert(
            RETAIN_KEYS_DIRECTIVE.to_owned(),
            retain_keys.into_iter().map(Value::String).collect(),
        );
    }
    Ok(patch)
}

/// What a merged list's patch holds: changed and added items (and deletion directives),
/// values to delete from a primitive list, and the order of the modified list.
struct ListDiff {
    patch: Vec<Value>,
    deletions: Vec<Value>,
    order: Vec<Value>,
}

/// Go's `diffLists` with `SetElementOrder`.
fn diff_lists(
    original: &[Value],
    modified: &[Value],
    schema: &dyn LookupPatchMeta,
    merge_key: &str,
    build_retain_keys: bool,
    path: &str,
) -> Result<ListDiff, Error> {
    let mut diff = ListDiff {
        patch: Vec::new(),
        deletions: Vec::new(),
        order: Vec::new(),
    };
    if original.is_empty() {
        diff.patch = modified.to_vec();
        return Ok(diff);
    }
    match slice_element_type(&[original, modified], path)? {
        "object" => {
            let (patch, deletions) = diff_lists_of_maps(
                original,
                modified,
                schema,
                merge_key,
                build_retain_keys,
                path,
            )?;
            let kind = ItemKind::Map(merge_key);
            let mut patch = normalize_slice_order(patch, modified, kind, path)?;
            let order_same = is_order_same(original, modified, merge_key, path)?;
            patch.extend(deletions);
            if !patch.is_empty() || !order_same {
                diff.order = modified
                    .iter()
                    .map(|item| {
                        let value = item.get(merge_key).cloned().unwrap_or(Value::Null);
                        Value::Object(Map::from_iter([(merge_key.to_owned(), value)]))
                    })
                    .collect();
            }
            diff.patch = patch;
        }
        _ => {
            let (added, deletions) = diff_lists_of_scalars(original, modified);
            diff.patch = normalize_slice_order(added, modified, ItemKind::Primitive, path)?;
            if !deletions.is_empty() || original != modified {
                diff.order = modified.to_vec();
            }
            diff.deletions = deletions;
        }
    }
    Ok(diff)
}

/// Whether both lists hold the same entries in the same order (Go's `isOrderSame`).
fn is_order_same(
    original: &[Value],
    modified: &[Value],
    merge_key: &str,
    path: &str,
) -> Result<bool, Error> {
    if original.len() != modified.len() {
        return Ok(false);
    }
    for (o, m) in original.iter().zip(modified) {
        if !merge_key_value_equal(o, m, merge_key, path)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Go's `%v` of a JSON value, by which Go sorts and matches list entries while diffing.
fn go_format(value: &Value) -> String {
    match value {
        Value::Null => "<nil>".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) => go_format_float(f),
            (None, None) => n.to_string(),
        },
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(go_format).collect();
            format!("[{}]", items.join(" "))
        }
        Value::Object(map) => {
            let mut entries: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{k}:{}", go_format(v)))
                .collect();
            entries.sort();
            format!("map[{}]", entries.join(" "))
        }
    }
}

/// Go's `%v` of a float64 (`strconv`'s shortest `%g`): the shortest digits, in exponent
/// form (`1e+06`, `1.5e-05`) when the decimal exponent is below -4 or at least 6.
fn go_format_float(f: f64) -> String {
    let scientific = format!("{f:e}");
    let Some((mantissa, exponent)) = scientific.split_once('e') else {
        return scientific;
    };
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if !(-4..6).contains(&exponent) {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.abs())
    } else {
        f.to_string()
    }
}

/// Entries sorted by Go's `%v` of their merge key value (or of themselves).
fn sorted_by_go_format<'v>(
    items: &'v [Value],
    key: impl Fn(&'v Value) -> String,
) -> Vec<(String, &'v Value)> {
    let mut sorted: Vec<(String, &Value)> = items.iter().map(|v| (key(v), v)).collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    sorted
}

/// Go's `diffListsOfScalars`: values to add and values to delete, by a walk of both
/// lists sorted by `%v`.
fn diff_lists_of_scalars(original: &[Value], modified: &[Value]) -> (Vec<Value>, Vec<Value>) {
    let original = sorted_by_go_format(original, go_format);
    let modified = sorted_by_go_format(modified, go_format);
    let (mut added, mut deleted) = (Vec::new(), Vec::new());
    let (mut o, mut m) = (original.iter().peekable(), modified.iter().peekable());
    loop {
        match (o.peek(), m.peek()) {
            (None, None) => break,
            (Some(a), Some(b)) if a.0 == b.0 => {
                o.next();
                m.next();
            }
            (None, Some(b)) => {
                added.push(b.1.clone());
                m.next();
            }
            (Some(a), Some(b)) if a.0 > b.0 => {
                added.push(b.1.clone());
                m.next();
            }
            (Some(a), _) => {
                deleted.push(a.1.clone());
                o.next();
            }
        }
    }
    (added, deduplicate_scalars(deleted))
}

/// Go's `diffListsOfMaps`: changed entries (their patch with the merge key), added
/// entries, and `$patch: delete` entries for removed ones, by a walk of both lists sorted
/// by the `%v` of their merge key values.
fn diff_lists_of_maps(
    original: &[Value],
    modified: &[Value],
    schema: &dyn LookupPatchMeta,
    merge_key: &str,
    build_retain_keys: bool,
    path: &str,
) -> Result<(Vec<Value>, Vec<Value>), Error> {
    let key_of = |item: &Value| item.get(merge_key).map(go_format).unwrap_or_default();
    let original = sorted_by_go_format(original, key_of);
    let modified = sorted_by_go_format(modified, key_of);
    let entry = |item: &Value| -> Result<(Object, Value), Error> {
        let map = item
            .as_object()
            .ok_or_else(|| invalid_type(path, "object", item))?;
        let value = map.get(merge_key).ok_or_else(|| Error::NoMergeKey {
            path: path.to_owned(),
            merge_key: merge_key.to_owned(),
            item: item.clone(),
        })?;
        Ok((map.clone(), value.clone()))
    };
    let (mut patch, mut deletions) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    while i < original.len() || j < modified.len() {
        let o = original.get(i).map(|(_, v)| entry(v)).transpose()?;
        let m = modified.get(j).map(|(_, v)| entry(v)).transpose()?;
        let o_key = o.as_ref().map(|(_, v)| go_format(v));
        let m_key = m.as_ref().map(|(_, v)| go_format(v));
        match (o, m) {
            (Some((o_map, _)), Some((m_map, m_value))) if o_key == m_key => {
                let child = format!("{path}[{merge_key}={}]", m_key.unwrap_or_default());
                let mut sub = diff_maps(&o_map, &m_map, schema, build_retain_keys, &child)?;
                if !sub.is_empty() {
                    sub.insert(merge_key.to_owned(), m_value);
                    patch.push(Value::Object(sub));
                }
                i += 1;
                j += 1;
            }
            (None, Some((m_map, _))) => {
                patch.push(Value::Object(m_map));
                j += 1;
            }
            (Some(_), Some((m_map, _))) if o_key > m_key => {
                patch.push(Value::Object(m_map));
                j += 1;
            }
            (Some((_, o_value)), _) => {
                deletions.push(Value::Object(Map::from_iter([
                    (merge_key.to_owned(), o_value),
                    (DIRECTIVE_MARKER.to_owned(), Value::from(DELETE_DIRECTIVE)),
                ])));
                i += 1;
            }
            (None, None) => break,
        }
    }
    Ok((patch, deletions))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::{PatchMetaFromOpenApi, SchemalessPatchMeta, strategic_merge_patch};
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn openapi() -> Value {
        json!({"definitions": {
            "Pod": {"properties": {
                "metadata": {"$ref": "#/definitions/ObjectMeta"},
                "spec": {"$ref": "#/definitions/PodSpec"},
            }},
            "ObjectMeta": {"properties": {
                "finalizers": {"type": "array", "items": {"type": "string"},
                               "x-kubernetes-patch-strategy": "merge"},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            }},
            "PodSpec": {"properties": {
                "containers": {"type": "array", "items": {"$ref": "#/definitions/Container"},
                               "x-kubernetes-patch-strategy": "merge",
                               "x-kubernetes-patch-merge-key": "name"},
                "volumes": {"type": "array", "items": {"$ref": "#/definitions/Volume"},
                            "x-kubernetes-patch-strategy": "merge,retainKeys",
                            "x-kubernetes-patch-merge-key": "name"},
                "args": {"type": "array", "items": {"type": "string"}},
                "selector": {"type": "object", "x-kubernetes-patch-strategy": "replace"},
            }},
            "Container": {"properties": {"name": {"type": "string"}, "image": {"type": "string"}}},
            "Volume": {"properties": {"name": {"type": "string"}, "emptyDir": {"type": "object"},
                                      "hostPath": {"type": "object"}}},
        }})
    }

    /// The patch from `original` to `modified`, checked to turn one into the other.
    fn diff(original: Value, modified: Value) -> Value {
        let doc = openapi();
        let schema = PatchMetaFromOpenApi::from_document(&doc, "Pod").unwrap();
        let patch = create_two_way_merge_patch(&original, &modified, &schema).unwrap();
        assert_eq!(
            strategic_merge_patch(&original, &patch, &schema).unwrap(),
            modified
        );
        patch
    }

    #[test]
    fn changed_added_and_removed_fields() {
        let patch = diff(
            json!({"metadata": {"labels": {"a": "1", "b": "2"}}, "spec": {"args": ["x"]}}),
            json!({"metadata": {"labels": {"a": "1", "c": "3"}}, "spec": {"args": ["y"]},
                   "status": {"phase": "Running"}}),
        );
        assert_eq!(
            patch,
            json!({"metadata": {"labels": {"b": null, "c": "3"}}, "spec": {"args": ["y"]},
                   "status": {"phase": "Running"}})
        );
        assert_eq!(
            diff(json!({"a": {"b": 1}}), json!({"a": {"b": 1}})),
            json!({})
        );
    }

    #[test]
    fn merged_lists_of_objects_get_changes_deletions_and_order() {
        let patch = diff(
            json!({"spec": {"containers": [{"name": "a", "image": "1"}, {"name": "b", "image": "2"},
                                           {"name": "c", "image": "3"}]}}),
            json!({"spec": {"containers": [{"name": "c", "image": "3"}, {"name": "a", "image": "9"},
                                           {"name": "d", "image": "4"}]}}),
        );
        assert_eq!(
            patch,
            json!({"spec": {
                "$setElementOrder/containers": [{"name": "c"}, {"name": "a"}, {"name": "d"}],
                "containers": [{"name": "a", "image": "9"}, {"name": "d", "image": "4"},
                               {"name": "b", "$patch": "delete"}],
            }})
        );
        // Only the order changed: the order list alone.
        let patch = diff(
            json!({"spec": {"containers": [{"name": "a"}, {"name": "b"}]}}),
            json!({"spec": {"containers": [{"name": "b"}, {"name": "a"}]}}),
        );
        assert_eq!(
            patch,
            json!({"spec": {"$setElementOrder/containers": [{"name": "b"}, {"name": "a"}]}})
        );
    }

    #[test]
    fn merged_primitive_lists_get_deletion_and_order_lists() {
        let patch = diff(
            json!({"metadata": {"finalizers": ["a", "b", "c"]}}),
            json!({"metadata": {"finalizers": ["c", "d", "a"]}}),
        );
        assert_eq!(
            patch,
            json!({"metadata": {
                "$deleteFromPrimitiveList/finalizers": ["b"],
                "$setElementOrder/finalizers": ["c", "d", "a"],
                "finalizers": ["d"],
            }})
        );
    }

    #[test]
    fn retain_keys_fields_list_what_they_keep() {
        let patch = diff(
            json!({"spec": {"volumes": [{"name": "v", "emptyDir": {}}]}}),
            json!({"spec": {"volumes": [{"name": "v", "hostPath": {"path": "/x"}}]}}),
        );
        assert_eq!(
            patch,
            json!({"spec": {
                "$setElementOrder/volumes": [{"name": "v"}],
                "volumes": [{"name": "v", "$retainKeys": ["hostPath", "name"],
                             "emptyDir": null, "hostPath": {"path": "/x"}}],
            }})
        );
    }

    #[test]
    fn replace_strategy_and_type_changes_send_the_whole_value() {
        let patch = diff(
            json!({"spec": {"selector": {"a": "1", "b": "2"}, "args": "x"}}),
            json!({"spec": {"selector": {"a": "1"}, "args": ["x"]}}),
        );
        assert_eq!(
            patch,
            json!({"spec": {"selector": {"a": "1"}, "args": ["x"]}})
        );
    }

    #[test]
    fn without_a_schema_lists_are_replaced() {
        let original = json!({"items": [1, 2], "m": {"k": "v"}});
        let modified = json!({"items": [2], "m": {}});
        let patch = create_two_way_merge_patch(&original, &modified, &SchemalessPatchMeta).unwrap();
        assert_eq!(patch, json!({"items": [2], "m": {"k": null}}));
    }

    #[test]
    fn errors() {
        let doc = openapi();
        let schema = PatchMetaFromOpenApi::from_document(&doc, "Pod").unwrap();
        let err = create_two_way_merge_patch(
            &json!({"spec": {"containers": [{"name": "a"}]}}),
            &json!({"spec": {"containers": [{"image": "x"}]}}),
            &schema,
        );
        assert!(matches!(err, Err(Error::NoMergeKey { .. })));
        let err = create_two_way_merge_patch(
            &json!({"spec": {"nope": {"a": 1}}}),
            &json!({"spec": {"nope": {"a": 2}}}),
            &schema,
        );
        assert!(matches!(err, Err(Error::Lookup { ref path, .. }) if path == "spec.nope"));
        // An unknown field that did not change needs no metadata.
        let same = create_two_way_merge_patch(
            &json!({"spec": {"nope": {"a": 1}}}),
            &json!({"spec": {"nope": {"a": 1}}}),
            &schema,
        );
        assert_eq!(same, Ok(json!({})));
        let err = create_two_way_merge_patch(&json!({}), &json!([1]), &schema);
        assert!(matches!(
            err,
            Err(Error::NotAnObject {
                document: "modified",
                ..
            })
        ));
        let err =
            create_two_way_merge_patch(&json!({"$patch": 1}), &json!({"$patch": "x"}), &schema);
        assert!(matches!(err, Err(Error::InvalidType { .. })));
    }

    fn json_without_directives(nulls: bool) -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            any::<bool>().prop_map(Value::Bool),
            any::<i32>().prop_map(Value::from),
            "[a-c]{0,2}".prop_map(Value::String),
            Just(if nulls { Value::Null } else { Value::from(0) }),
        ];
        leaf.prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::btree_map("[a-d]", inner, 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    fn object(value: Value) -> Value {
        match value {
            Value::Object(_) => value,
            other => json!({"a": other}),
        }
    }

    proptest! {
        #[test]
        fn schemaless_two_way_patches_round_trip(
            original in json_without_directives(true),
            modified in json_without_directives(false),
        ) {
            let (original, modified) = (object(original), object(modified));
            let patch = create_two_way_merge_patch(&original, &modified, &SchemalessPatchMeta).unwrap();
            let applied = strategic_merge_patch(&original, &patch, &SchemalessPatchMeta).unwrap();
            prop_assert_eq!(applied, modified);
            // Nothing changed, nothing to send.
            let same = create_two_way_merge_patch(&original, &original, &SchemalessPatchMeta).unwrap();
            prop_assert_eq!(same, json!({}));
        }
    }

    #[test]
    fn go_formats_numbers_as_fmt_does() {
        assert_eq!(go_format(&json!(80)), "80");
        assert_eq!(go_format(&json!(1.5)), "1.5");
        assert_eq!(go_format(&json!(1_000_000.0)), "1e+06");
        assert_eq!(go_format(&json!(1_048_576.0)), "1.048576e+06");
        assert_eq!(go_format(&json!(123_456.0)), "123456");
        assert_eq!(go_format(&json!(0.000_01)), "1e-05");
        assert_eq!(go_format(&json!(null)), "<nil>");
        assert_eq!(
            go_format(&json!({"b": 1, "a": [true]})),
            "map[a:[true] b:1]"
        );
    }
}
