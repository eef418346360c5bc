//! Applying a patch (Go's `StrategicMergeMapPatchUsingLookupPatchMeta`: `mergeMap`,
//! `mergeSlice` and their helpers, with the apply side's options: parallel lists merged,
//! nulls the original does not have dropped).

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::error::{ROOT_PATH, StrategicMergePatchError as Error, json_type};
use super::meta::LookupPatchMeta;
use super::order::{ItemKind, is_delete_item, normalize_element_order};

pub(crate) const DIRECTIVE_MARKER: &str = "$patch";
pub(crate) const DELETE_DIRECTIVE: &str = "delete";
pub(crate) const REPLACE_DIRECTIVE: &str = "replace";
pub(crate) const MERGE_DIRECTIVE: &str = "merge";
const RETAIN_KEYS_STRATEGY: &str = "retainKeys";
pub(crate) const RETAIN_KEYS_DIRECTIVE: &str = "$retainKeys";
pub(crate) const DELETE_FROM_PRIMITIVE_LIST_PREFIX: &str = "$deleteFromPrimitiveList";
pub(crate) const SET_ELEMENT_ORDER_PREFIX: &str = "$setElementOrder";

pub(crate) type Object = Map<String, Value>;

/// Applies strategic merge patch `patch` to `original`, both JSON objects, with the patch
/// metadata of `schema` (Go's `StrategicMergePatchUsingLookupPatchMeta`).
///
/// `null` for either document stands for an empty object, as when Go decodes `null` into
/// a map. Neither input is changed; the result is a new document.
///
/// ```
/// use apimachinery::util::strategicpatch::{strategic_merge_patch, SchemalessPatchMeta};
/// use serde_json::json;
///
/// let merged = strategic_merge_patch(
///     &json!({"metadata": {"labels": {"app": "web", "tier": "front"}}}),
///     &json!({"metadata": {"labels": {"tier": null, "team": "a"}}}),
///     &SchemalessPatchMeta,
/// )?;
/// assert_eq!(merged, json!({"metadata": {"labels": {"app": "web", "team": "a"}}}));
/// # Ok::<(), apimachinery::util::strategicpatch::StrategicMergePatchError>(())
/// ```
pub fn strategic_merge_patch(
    original: &Value,
    patch: &Value,
    schema: &dyn LookupPatchMeta,
) -> Result<Value, Error> {
    let original = document(original, "original")?;
    let patch = document(patch, "patch")?;
    merge_map(original, patch, schema, ROOT_PATH).map(Value::Object)
}

/// [`strategic_merge_patch`] on documents the caller owns, which saves copying them
/// (Go's `StrategicMergeMapPatchUsingLookupPatchMeta`).
pub fn strategic_merge_map_patch(
    original: Map<String, Value>,
    patch: Map<String, Value>,
    schema: &dyn LookupPatchMeta,
) -> Result<Map<String, Value>, Error> {
    merge_map(original, patch, schema, ROOT_PATH)
}

pub(crate) fn document(value: &Value, which: &'static str) -> Result<Object, Error> {
    match value {
        Value::Object(map) => Ok(map.clone()),
        Value::Null => Ok(Map::new()),
        other => Err(Error::NotAnObject {
            document: which,
            actual: json_type(other),
        }),
    }
}

pub(crate) fn field_path(path: &str, key: &str) -> String {
    if path == ROOT_PATH {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

pub(crate) fn invalid_type(path: &str, expected: &'static str, actual: &Value) -> Error {
    Error::InvalidType {
        path: path.to_owned(),
        expected,
        actual: json_type(actual),
    }
}

/// Merges `patch` into `original` (Go's `mergeMap`).
fn merge_map(
    mut original: Object,
    mut patch: Object,
    schema: &dyn LookupPatchMeta,
    path: &str,
) -> Result<Object, Error> {
    if let Some(directive) = patch.get(DIRECTIVE_MARKER) {
        return match directive.as_str() {
            Some(REPLACE_DIRECTIVE) => {
                patch.remove(DIRECTIVE_MARKER);
                Ok(patch)
            }
            Some(DELETE_DIRECTIVE) => Ok(Map::new()),
            _ => Err(Error::UnknownPatchDirective {
                path: path.to_owned(),
                directive: directive.clone(),
                map: Value::Object(patch.clone()),
            }),
        };
    }
    apply_retain_keys_directive(&mut original, &mut patch, path)?;
    merge_patch_into_original(&mut original, &mut patch, schema, path)?;

    // Go visits the patch's keys in map order, which is random; sorted, every
    // `$deleteFromPrimitiveList/<field>` is applied before additions to `<field>`.
    let mut entries: Vec<(String, Value)> = patch.into_iter().collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (key, patch_value) in entries {
        let (key, is_delete_list) = if key.starts_with(DELETE_FROM_PRIMITIVE_LIST_PREFIX) {
            (
                extract_key(&key, DELETE_FROM_PRIMITIVE_LIST_PREFIX, path)?,
                true,
            )
        } else {
            (key, false)
        };
        if patch_value.is_null() {
            original.remove(&key);
            continue;
        }
        let Some(original_value) = original.remove(&key) else {
            if !is_delete_list {
                take_patch_value(&mut original, key, patch_value);
            }
            continue;
        };
        if json_type(&original_value) != json_type(&patch_value) {
            if is_delete_list {
                original.insert(key, original_value);
            } else {
                take_patch_value(&mut original, key, patch_value);
            }
            continue;
        }
        let child = field_path(path, &key);
        let merged = match (original_value, patch_value) {
            (Value::Object(o), Value::Object(p)) => {
                let (subschema, meta) =
                    schema
                        .lookup_patch_metadata_for_struct(&key)
                        .map_err(|source| Error::Lookup {
                            path: child.clone(),
                            source,
                        })?;
                let (_, strategy) =
                    extract_retain_keys_patch_strategy(meta.patch_strategies(), &child)?;
                if strategy == REPLACE_DIRECTIVE {
                    Value::Object(p)
                } else {
                    Value::Object(merge_map(o, p, subschema.as_ref(), &child)?)
                }
            }
            (Value::Array(o), Value::Array(p)) => {
                let (subschema, meta) =
                    schema
                        .lookup_patch_metadata_for_slice(&key)
                        .map_err(|source| Error::Lookup {
                            path: child.clone(),
                            source,
                        })?;
                let (_, strategy) =
                    extract_retain_keys_patch_strategy(meta.patch_strategies(), &child)?;
                // Deletion lists are applied whatever the field's strategy, as in Go.
                if strategy == MERGE_DIRECTIVE || is_delete_list {
                    let merged = merge_slice(
                        o,
                        p,
                        subschema.as_ref(),
                        meta.patch_merge_key(),
                        is_delete_list,
                        &child,
                        false,
                    )?;
                    Value::Array(merged.merged)
                } else {
                    Value::Array(p)
                }
            }
            // Scalars (of one type) are replaced; a scalar holds no directives.
            (_, scalar) => scalar,
        };
        original.insert(key, merged);
    }
    Ok(original)
}

/// Sets a field the original lacks (or has with another type) to the patch's value
/// without its nulls and directives, as Go does.
fn take_patch_value(original: &mut Object, key: String, mut value: Value) {
    discard_null_values(&mut value);
    if let Some(value) = remove_directives(value) {
        original.insert(key, value);
    }
}

/// Drops null fields at every depth (Go's `discardNullValuesFromPatch`).
fn discard_null_values(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(discard_null_values);
        }
        Value::Array(items) => items.iter_mut().for_each(discard_null_values),
        _ => {}
    }
}

/// Drops objects that hold `$patch` (and `None` when `value` is one), at every depth
/// (Go's `removeDirectives`). Other `$` keys stay, as in Go.
fn remove_directives(value: Value) -> Option<Value> {
    match value {
        Value::Object(map) => {
            if map.contains_key(DIRECTIVE_MARKER) {
                return None;
            }
            Some(Value::Object(
                map.into_iter()
                    .filter_map(|(k, v)| remove_directives(v).map(|v| (k, v)))
                    .collect(),
            ))
        }
        Value::Array(items) => Some(Value::Array(
            items.into_iter().filter_map(remove_directives).collect(),
        )),
        other => Some(other),
    }
}

/// `$deleteFromPrimitiveList/<field>` → `<field>` (Go's `extractKey`).
fn extract_key(key: &str, prefix: &str, path: &str) -> Result<String, Error> {
    match key.split_once('/') {
        Some((head, field)) if head == prefix => Ok(field.to_owned()),
        _ if prefix == SET_ELEMENT_ORDER_PREFIX => Err(Error::BadSetElementOrderDirective {
            path: path.to_owned(),
            key: key.to_owned(),
        }),
        _ => Err(Error::BadPrimitiveListDirective {
            path: path.to_owned(),
            key: key.to_owned(),
        }),
    }
}

/// Splits a field's strategies into "has retainKeys" and the other one (Go's
/// `extractRetainKeysPatchStrategy`).
pub(crate) fn extract_retain_keys_patch_strategy(
    strategies: &[String],
    path: &str,
) -> Result<(bool, String), Error> {
    match strategies {
        [] => Ok((false, String::new())),
        [one] if one == RETAIN_KEYS_STRATEGY => Ok((true, String::new())),
        [one] => Ok((false, one.clone())),
        [first, other] | [other, first] if first == RETAIN_KEYS_STRATEGY => {
            Ok((true, other.clone()))
        }
        _ => Err(Error::UnexpectedPatchStrategy {
            path: path.to_owned(),
            strategies: strategies.to_vec(),
        }),
    }
}

/// Clears the original's fields missing from the patch's `$retainKeys` list, after
/// checking that the patch sets no field outside it (Go's `applyRetainKeysDirective`).
fn apply_retain_keys_directive(
    original: &mut Object,
    patch: &mut Object,
    path: &str,
) -> Result<(), Error> {
    let Some(retain) = patch.remove(RETAIN_KEYS_DIRECTIVE) else {
        return Ok(());
    };
    let bad = || Error::BadRetainKeys {
        path: path.to_owned(),
        value: retain.clone(),
    };
    let Value::Array(list) = &retain else {
        return Err(bad());
    };
    let mut keep = HashSet::new();
    for name in list {
        match name {
            Value::String(name) => {
                keep.insert(name.as_str());
            }
            // Go puts the items in a map, which panics on unhashable objects and lists.
            Value::Object(_) | Value::Array(_) => return Err(bad()),
            // Never equal to a field name.
            _ => {}
        }
    }
    for (key, value) in patch.iter() {
        if value.is_null()
            || key.starts_with(DELETE_FROM_PRIMITIVE_LIST_PREFIX)
            || key.starts_with(SET_ELEMENT_ORDER_PREFIX)
        {
            continue;
        }
        if !keep.contains(key.as_str()) {
            return Err(Error::FieldNotInRetainKeys {
                path: path.to_owned(),
                field: key.clone(),
            });
        }
    }
    original.retain(|key, _| keep.contains(key.as_str()));
    Ok(())
}

/// Takes the list `key` out of `map` (`None` when absent), or an error when it is not a
/// list.
fn take_list_field(map: &mut Object, key: &str, path: &str) -> Result<Option<Vec<Value>>, Error> {
    match map.remove(key) {
        None => Ok(None),
        Some(Value::Array(items)) => Ok(Some(items)),
        Some(other) => Err(invalid_type(path, "array", &other)),
    }
}

/// Merges each list that has a `$setElementOrder/<field>` list and puts it in that order,
/// items of the live object missing from the order list placed by the live order (Go's
/// `mergePatchIntoOriginal`). Both keys leave `patch`.
fn merge_patch_into_original(
    original: &mut Object,
    patch: &mut Object,
    schema: &dyn LookupPatchMeta,
    path: &str,
) -> Result<(), Error> {
    let keys: Vec<String> = patch
        .keys()
        .filter(|k| k.starts_with(SET_ELEMENT_ORDER_PREFIX))
        .cloned()
        .collect();
    for key in keys {
        let Some(order) = patch.remove(&key) else {
            continue;
        };
        let Value::Array(set_order) = order else {
            return Err(invalid_type(&field_path(path, &key), "array", &order));
        };
        let field = extract_key(&key, SET_ELEMENT_ORDER_PREFIX, path)?;
        let child = field_path(path, &field);
        // Both lists go back into `original`, merged and ordered, below.
        let original_list = take_list_field(original, &field, &child)?;
        let patch_list = take_list_field(patch, &field, &child)?;
        let (subschema, meta) =
            schema
                .lookup_patch_metadata_for_slice(&field)
                .map_err(|source| Error::Lookup {
                    path: child.clone(),
                    source,
                })?;
        let (_, strategy) = extract_retain_keys_patch_strategy(meta.patch_strategies(), &child)?;
        let merge_key = meta.patch_merge_key();
        validate_patch_with_set_order_list(
            patch_list.as_deref().unwrap_or_default(),
            &set_order,
            merge_key,
            &child,
        )?;
        let element_type = slice_element_type(
            &[
                original_list.as_deref().unwrap_or_default(),
                patch_list.as_deref().unwrap_or_default(),
            ],
            &child,
        );
        let (merged, server_order) = match (original_list, patch_list) {
            (None, None) => continue,
            (Some(o), None) => (o.clone(), o),
            (None, Some(p)) => {
                let merged = p.into_iter().filter_map(remove_directives).collect();
                (merged, Vec::new())
            }
            (Some(o), Some(p)) => {
                if strategy == MERGE_DIRECTIVE {
                    let merged =
                        merge_slice(o, p, subschema.as_ref(), merge_key, false, &child, true)?;
                    (merged.merged, merged.original_after)
                } else {
                    (p, o)
                }
            }
        };
        let (patch_items, server_only) = if merge_key.is_empty() {
            partition_primitives_by_present_in_list(merged, &set_order)
        } else {
            partition_maps_by_present_in_list(merged, &set_order, merge_key, &child)?
        };
        let kind = if element_type? == "object" {
            ItemKind::Map(merge_key)
        } else {
            ItemKind::Primitive
        };
        let ordered = normalize_element_order(
            patch_items,
            server_only,
            &set_order,
            &server_order,
            kind,
            &child,
        )?;
        original.insert(field, Value::Array(ordered));
    }
    Ok(())
}

/// Checks that the patch list's items (less deletions and directives) appear in the
/// `$setElementOrder` list, in its order (Go's `validatePatchWithSetOrderList`).
fn validate_patch_with_set_order_list(
    patch_list: &[Value],
    set_order: &[Value],
    merge_key: &str,
    path: &str,
) -> Result<(), Error> {
    if set_order.is_empty() || patch_list.is_empty() {
        return Ok(());
    }
    let mut non_delete = Vec::with_capacity(patch_list.len());
    for item in patch_list {
        if !merge_key.is_empty() {
            if !item.is_object() {
                return Err(invalid_type(path, "object", item));
            }
            if is_delete_item(item) {
                continue;
            }
        }
        non_delete.push(item);
    }
    let (mut p, mut s) = (0, 0);
    while p < non_delete.len() && s < set_order.len() {
        if non_delete[p].get(DIRECTIVE_MARKER).is_some() {
            p += 1;
            continue;
        }
        if merge_key_value_equal(non_delete[p], &set_order[s], merge_key, path)? {
            p += 1;
        }
        s += 1;
    }
    if p < non_delete.len() && s >= set_order.len() {
        return Err(Error::SetElementOrderMismatch {
            path: path.to_owned(),
            patch_list: Value::Array(patch_list.to_vec()),
            set_element_order: Value::Array(set_order.to_vec()),
        });
    }
    Ok(())
}

/// Whether two items are the same list entry: equal primitives, or objects with equal
/// merge key values (Go's `mergeKeyValueEqual`).
pub(crate) fn merge_key_value_equal(
    left: &Value,
    right: &Value,
    merge_key: &str,
    path: &str,
) -> Result<bool, Error> {
    if merge_key.is_empty() {
        return Ok(left == right);
    }
    let mut values = [left, right].into_iter().map(|item| {
        let map = item
            .as_object()
            .ok_or_else(|| invalid_type(path, "object", item))?;
        map.get(merge_key).ok_or_else(|| Error::NoMergeKey {
            path: path.to_owned(),
            merge_key: merge_key.to_owned(),
            item: item.clone(),
        })
    });
    let (Some(l), Some(r)) = (values.next(), values.next()) else {
        return Ok(false);
    };
    Ok(l? == r?)
}

/// A merged list, and the original list as Go's aliasing left it (which orders the items
/// of a `$setElementOrder` list missing from it).
struct MergedList {
    merged: Vec<Value>,
    original_after: Vec<Value>,
}

/// The type all items of the lists share (Go's `sliceElementType`, which tells integers
/// from fractions as its decoder does).
pub(crate) fn slice_element_type(lists: &[&[Value]], path: &str) -> Result<&'static str, Error> {
    let mut first: Option<&'static str> = None;
    for (index, item) in lists.iter().flat_map(|l| l.iter()).enumerate() {
        let t = json_type(item);
        match first {
            None if t == "null" => {
                return Err(Error::NullListElement {
                    path: path.to_owned(),
                    index,
                });
            }
            None if t == "array" => {
                return Err(Error::ListOfLists {
                    path: path.to_owned(),
                });
            }
            None => first = Some(t),
            Some(f) if f != t => {
                return Err(Error::MixedListElementTypes {
                    path: path.to_owned(),
                    first: f,
                    other: t,
                });
            }
            Some(_) => {}
        }
    }
    first.ok_or_else(|| Error::NoListElements {
        path: path.to_owned(),
    })
}

/// Go's slice `original` shares its array with what `deleteMatchingEntries` and `append`
/// do to it: deletions shift later items left and leave the last ones in place, appends
/// fill the freed places. What Go later reads through the original's full length is this.
/// Untracked (no items), every operation is a no-op.
struct AliasedOriginal {
    items: Vec<Value>,
    len: usize,
}

impl AliasedOriginal {
    fn delete(&mut self, index: usize) {
        for j in index..self.len.saturating_sub(1) {
            if let Some(next) = self.items.get(j + 1).cloned() {
                self.items[j] = next;
            }
        }
        self.len = self.len.saturating_sub(1);
    }

    fn append(&mut self, item: &Value) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = item.clone();
        }
        self.len += 1;
    }
}

/// Merges two lists of a field with the merge strategy (Go's `mergeSlice`). Only with
/// `track_original` is `original_after` filled in for lists of objects.
fn merge_slice(
    original: Vec<Value>,
    patch: Vec<Value>,
    schema: &dyn LookupPatchMeta,
    merge_key: &str,
    is_delete_list: bool,
    path: &str,
    track_original: bool,
) -> Result<MergedList, Error> {
    if original.is_empty() && patch.is_empty() {
        return Ok(MergedList {
            merged: Vec::new(),
            original_after: Vec::new(),
        });
    }
    let element_type = slice_element_type(&[&original, &patch], path)?;
    if element_type != "object" {
        if is_delete_list {
            let merged = original
                .iter()
                .filter(|v| !patch.contains(v))
                .cloned()
                .collect();
            return Ok(MergedList {
                merged,
                original_after: original,
            });
        }
        let both = original.iter().chain(patch.iter()).cloned().collect();
        let merged = deduplicate_scalars(both);
        let (patch_items, server_only) = partition_primitives_by_present_in_list(merged, &patch);
        let merged = normalize_element_order(
            patch_items,
            server_only,
            &patch,
            &original,
            ItemKind::Primitive,
            path,
        )?;
        return Ok(MergedList {
            merged,
            original_after: original,
        });
    }
    if merge_key.is_empty() {
        return Err(Error::MergeKeyNotDeclared {
            path: path.to_owned(),
            type_name: schema.name(),
        });
    }
    let mut aliased = AliasedOriginal {
        len: original.len(),
        items: if track_original {
            original.clone()
        } else {
            Vec::new()
        },
    };
    let (original, patch, replaced) =
        merge_slice_with_special_elements(original, patch, merge_key, path, &mut aliased)?;
    let server_order = original.clone();
    let merged = merge_slice_without_special_elements(
        original,
        &patch,
        merge_key,
        schema,
        path,
        (!replaced).then_some(&mut aliased),
    )?;
    let (patch_items, server_only) =
        partition_maps_by_present_in_list(merged, &patch, merge_key, path)?;
    let merged = normalize_element_order(
        patch_items,
        server_only,
        &patch,
        &server_order,
        ItemKind::Map(merge_key),
        path,
    )?;
    Ok(MergedList {
        merged,
        original_after: aliased.items,
    })
}

/// Applies the `$patch` items of a list of objects: `delete` removes the entries with its
/// merge key value, `replace` makes the patch's other items the whole list (Go's
/// `mergeSliceWithSpecialElements`). Returns the list to merge into, the patch's plain
/// items, and whether the list was replaced.
fn merge_slice_with_special_elements(
    mut original: Vec<Value>,
    patch: Vec<Value>,
    merge_key: &str,
    path: &str,
    aliased: &mut AliasedOriginal,
) -> Result<(Vec<Value>, Vec<Value>, bool), Error> {
    let mut plain = Vec::with_capacity(patch.len());
    let mut replace = false;
    for item in patch {
        let Some(directive) = item.get(DIRECTIVE_MARKER) else {
            plain.push(item);
            continue;
        };
        match directive.as_str() {
            Some(DELETE_DIRECTIVE) => {
                let Some(value) = item.get(merge_key) else {
                    return Err(Error::NoMergeKey {
                        path: path.to_owned(),
                        merge_key: merge_key.to_owned(),
                        item,
                    });
                };
                while let Some(index) =
                    find_map_in_slice_based_on_key_value(&original, merge_key, value, path)?
                {
                    original.remove(index);
                    aliased.delete(index);
                }
            }
            Some(REPLACE_DIRECTIVE) => replace = true,
            Some(MERGE_DIRECTIVE) => {
                return Err(Error::MergeDirectiveInList {
                    path: path.to_owned(),
                });
            }
            _ => {
                return Err(Error::UnknownPatchDirective {
                    path: path.to_owned(),
                    directive: directive.clone(),
                    map: item.clone(),
                });
            }
        }
    }
    if replace {
        Ok((plain, Vec::new(), true))
    } else {
        Ok((original, plain, false))
    }
}

/// Merges each patch item into the original item with its merge key value, or appends it
/// as it is (Go's `mergeSliceWithoutSpecialElements`).
fn merge_slice_without_special_elements(
    mut original: Vec<Value>,
    patch: &[Value],
    merge_key: &str,
    schema: &dyn LookupPatchMeta,
    path: &str,
    mut aliased: Option<&mut AliasedOriginal>,
) -> Result<Vec<Value>, Error> {
    for item in patch {
        let Some(map) = item.as_object() else {
            return Err(invalid_type(path, "object", item));
        };
        let Some(value) = map.get(merge_key) else {
            return Err(Error::NoMergeKey {
                path: path.to_owned(),
                merge_key: merge_key.to_owned(),
                item: item.clone(),
            });
        };
        match find_map_in_slice_based_on_key_value(&original, merge_key, value, path)? {
            Some(index) => {
                let Value::Object(target) = std::mem::take(&mut original[index]) else {
                    return Err(Error::ListItemNotAnObject {
                        path: path.to_owned(),
                        index,
                    });
                };
                let merged = merge_map(target, map.clone(), schema, &format!("{path}[{index}]"))?;
                original[index] = Value::Object(merged);
            }
            None => {
                if let Some(aliased) = aliased.as_deref_mut() {
                    aliased.append(item);
                }
                original.push(item.clone());
            }
        }
    }
    Ok(original)
}

/// The index of the first object whose `key` equals `value`; an error at the first item
/// before it that is not an object (Go's `findMapInSliceBasedOnKeyValue`).
fn find_map_in_slice_based_on_key_value(
    list: &[Value],
    key: &str,
    value: &Value,
    path: &str,
) -> Result<Option<usize>, Error> {
    for (index, item) in list.iter().enumerate() {
        let Some(map) = item.as_object() else {
            return Err(Error::ListItemNotAnObject {
                path: path.to_owned(),
                index,
            });
        };
        if map.get(key) == Some(value) {
            return Ok(Some(index));
        }
    }
    Ok(None)
}

/// Go's `deduplicateScalars`: a duplicate is overwritten by the last item and the list
/// shortened, so order changes as Go's does.
pub(crate) fn deduplicate_scalars(mut items: Vec<Value>) -> Vec<Value> {
    let mut i = 0;
    while i + 1 < items.len() {
        let mut j = i + 1;
        while j < items.len() {
            if items[i] == items[j] {
                let last = items.len() - 1;
                items.swap(j, last);
                items.truncate(last);
            } else {
                j += 1;
            }
        }
        i += 1;
    }
    items
}

/// Splits `merged` into the items found in `by` and the rest (Go's
/// `partitionPrimitivesByPresentInList`).
fn partition_primitives_by_present_in_list(
    merged: Vec<Value>,
    by: &[Value],
) -> (Vec<Value>, Vec<Value>) {
    merged.into_iter().partition(|v| by.contains(v))
}

/// Splits `merged` into the objects whose merge key value is in `by` and the rest (Go's
/// `partitionMapsByPresentInList`).
fn partition_maps_by_present_in_list(
    merged: Vec<Value>,
    by: &[Value],
    merge_key: &str,
    path: &str,
) -> Result<(Vec<Value>, Vec<Value>), Error> {
    let mut in_patch = Vec::new();
    let mut server_only = Vec::new();
    for item in merged {
        let Some(value) = item.as_object().map(|m| m.get(merge_key)) else {
            return Err(invalid_type(path, "object", &item));
        };
        let Some(value) = value else {
            return Err(Error::NoMergeKey {
                path: path.to_owned(),
                merge_key: merge_key.to_owned(),
                item,
            });
        };
        if find_map_in_slice_based_on_key_value(by, merge_key, value, path)?.is_some() {
            in_patch.push(item);
        } else {
            server_only.push(item);
        }
    }
    Ok((in_patch, server_only))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::{PatchMetaFromOpenApi, SchemalessPatchMeta};
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// A Pod-like schema with every kind of patch metadata.
    fn openapi() -> Value {
        json!({"definitions": {
            "Pod": {"properties": {
                "metadata": {"$ref": "#/definitions/ObjectMeta"},
                "spec": {"$ref": "#/definitions/PodSpec"},
            }},
            "ObjectMeta": {"properties": {
                "name": {"type": "string"},
                "finalizers": {"type": "array", "items": {"type": "string"},
                               "x-kubernetes-patch-strategy": "merge"},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "ownerReferences": {"type": "array", "items": {"type": "object"},
                                    "x-kubernetes-patch-strategy": "merge"},
                "weights": {"type": "array", "items": {"type": "number"},
                            "x-kubernetes-patch-strategy": "merge"},
            }},
            "PodSpec": {"properties": {
                "containers": {"type": "array", "items": {"$ref": "#/definitions/Container"},
                               "x-kubernetes-patch-strategy": "merge",
                               "x-kubernetes-patch-merge-key": "name"},
                "volumes": {"type": "array", "items": {"$ref": "#/definitions/Volume"},
                            "x-kubernetes-patch-strategy": "merge,retainKeys",
                            "x-kubernetes-patch-merge-key": "name"},
                "args": {"type": "array", "items": {"type": "string"}},
                "strategy": {"$ref": "#/definitions/Strategy",
                             "x-kubernetes-patch-strategy": "retainKeys"},
                "selector": {"type": "object", "additionalProperties": {"type": "string"},
                             "x-kubernetes-patch-strategy": "replace"},
                "odd": {"type": "array", "items": {"type": "object"},
                        "x-kubernetes-patch-strategy": "merge,replace",
                        "x-kubernetes-patch-merge-key": "name"},
            }},
            "Container": {"properties": {
                "name": {"type": "string"}, "image": {"type": "string"},
                "ports": {"type": "array", "items": {"type": "object"},
                          "x-kubernetes-patch-strategy": "merge",
                          "x-kubernetes-patch-merge-key": "containerPort"},
            }},
            "Volume": {"properties": {
                "name": {"type": "string"},
                "emptyDir": {"type": "object"},
                "hostPath": {"type": "object"},
                "secret": {"type": "object"},
            }},
            "Strategy": {"properties": {
                "type": {"type": "string"}, "rollingUpdate": {"type": "object"},
            }},
        }})
    }

    fn apply(original: Value, patch: Value) -> Result<Value, Error> {
        let doc = openapi();
        let schema = PatchMetaFromOpenApi::from_document(&doc, "Pod").unwrap();
        strategic_merge_patch(&original, &patch, &schema)
    }

    fn spec(spec: Value) -> Value {
        json!({"spec": spec})
    }

    #[test]
    fn objects_merge_recursively_and_null_deletes() {
        let merged = apply(
            json!({"metadata": {"name": "p", "labels": {"a": "1", "b": "2"}}}),
            json!({"metadata": {"labels": {"a": null, "c": "3"}, "gone": null}}),
        )
        .unwrap();
        assert_eq!(
            merged,
            json!({"metadata": {"name": "p", "labels": {"b": "2", "c": "3"}}})
        );
    }

    #[test]
    fn new_fields_lose_their_nulls_and_directive_objects() {
        let merged = apply(
            json!({}),
            json!({"spec": {"strategy": {"type": "Recreate", "rollingUpdate": null},
                            "containers": [{"name": "a", "$patch": "delete"}, {"name": "b"}],
                            "volumes": {"$patch": "replace"}}}),
        )
        .unwrap();
        assert_eq!(
            merged,
            json!({"spec": {"strategy": {"type": "Recreate"}, "containers": [{"name": "b"}]}})
        );
    }

    #[test]
    fn a_value_of_another_type_replaces() {
        let merged = apply(
            spec(json!({"containers": [{"name": "a"}], "args": "x"})),
            spec(json!({"containers": {"name": "a"}, "args": ["y"]})),
        )
        .unwrap();
        assert_eq!(
            merged,
            spec(json!({"containers": {"name": "a"}, "args": ["y"]}))
        );
    }

    #[test]
    fn lists_without_the_merge_strategy_are_replaced() {
        let merged = apply(
            spec(json!({"args": ["a", "b"]})),
            spec(json!({"args": ["c"]})),
        )
        .unwrap();
        assert_eq!(merged, spec(json!({"args": ["c"]})));
        // Without a schema every list is replaced, directives and all, as Go does.
        let merged = strategic_merge_patch(
            &spec(json!({"containers": [{"name": "a"}]})),
            &spec(json!({"containers": [{"name": "b", "$patch": "delete"}]})),
            &SchemalessPatchMeta,
        )
        .unwrap();
        assert_eq!(
            merged,
            spec(json!({"containers": [{"name": "b", "$patch": "delete"}]}))
        );
    }

    #[test]
    fn lists_of_objects_merge_by_key_in_gos_order() {
        let merged = apply(
            spec(json!({"containers": [
                {"name": "a", "image": "1", "ports": [{"containerPort": 80}]},
                {"name": "b", "image": "2"},
            ]})),
            spec(json!({"containers": [
                {"name": "c", "image": "3", "skip": null},
                {"name": "a", "image": "9", "ports": [{"containerPort": 443}]},
            ]})),
        )
        .unwrap();
        // Patch items first in the patch's order (a server-only item goes before a patch
        // item only when both are in the live list and it comes first there); appended
        // items keep their nulls, as Go appends them untouched.
        assert_eq!(
            merged,
            spec(json!({"containers": [
                {"name": "c", "image": "3", "skip": null},
                {"name": "a", "image": "9",
                 "ports": [{"containerPort": 443}, {"containerPort": 80}]},
                {"name": "b", "image": "2"},
            ]}))
        );
    }

    #[test]
    fn primitive_lists_with_merge_are_united() {
        let merged = apply(
            json!({"metadata": {"finalizers": ["a", "b"]}}),
            json!({"metadata": {"finalizers": ["c", "b"]}}),
        )
        .unwrap();
        // As kubectl v1.32 gives: "c" is new, so it goes before the live items.
        assert_eq!(merged, json!({"metadata": {"finalizers": ["c", "a", "b"]}}));
        // Go's deduplication moves the last item into a duplicate's place.
        assert_eq!(
            deduplicate_scalars(vec![json!(1), json!(2), json!(1), json!(3), json!(2)]),
            [json!(1), json!(2), json!(3)]
        );
        assert_eq!(
            deduplicate_scalars(vec![json!("a"), json!("a"), json!("b"), json!("c")]),
            [json!("a"), json!("c"), json!("b")]
        );
    }

    #[test]
    fn duplicates_in_a_live_primitive_list_order_as_on_the_server() {
        // kube-apiserver builds the original from the typed object (Go slices without spare
        // capacity), so deduplicating the union does not disturb the live list that orders
        // the result. (`kubectl patch --local` decodes JSON into slices with spare capacity
        // and gives ["a", "d", "b", "c"] here.)
        let merged = apply(
            json!({"metadata": {"finalizers": ["a", "a", "b", "c", "b"]}}),
            json!({"metadata": {"finalizers": ["d", "b"]}}),
        )
        .unwrap();
        assert_eq!(
            merged,
            json!({"metadata": {"finalizers": ["d", "a", "b", "c"]}})
        );
    }

    #[test]
    fn patch_directives_on_objects() {
        let original = spec(json!({"strategy": {"type": "A", "rollingUpdate": {"x": 1}}}));
        let replaced = apply(
            original.clone(),
            spec(json!({"strategy": {"$patch": "replace", "type": "B"}})),
        )
        .unwrap();
        assert_eq!(replaced, spec(json!({"strategy": {"type": "B"}})));
        let deleted = apply(
            original.clone(),
            spec(json!({"strategy": {"$patch": "delete"}})),
        );
        assert_eq!(deleted.unwrap(), spec(json!({"strategy": {}})));
        let whole = apply(original.clone(), json!({"$patch": "replace", "kind": "X"})).unwrap();
        assert_eq!(whole, json!({"kind": "X"}));
        let err = apply(
            original.clone(),
            spec(json!({"strategy": {"$patch": "merge"}})),
        );
        assert!(matches!(
            err,
            Err(Error::UnknownPatchDirective { ref path, .. }) if path == "spec.strategy"
        ));
        // A field with the replace strategy takes the patch's object as it is.
        let merged = apply(
            spec(json!({"selector": {"a": "1"}})),
            spec(json!({"selector": {"b": "2"}})),
        )
        .unwrap();
        assert_eq!(merged, spec(json!({"selector": {"b": "2"}})));
    }

    #[test]
    fn patch_directives_in_lists() {
        let original = spec(json!({"containers": [{"name": "a"}, {"name": "b"}, {"name": "a"}]}));
        let deleted = apply(
            original.clone(),
            spec(json!({"containers": [{"name": "a", "$patch": "delete"}]})),
        )
        .unwrap();
        assert_eq!(deleted, spec(json!({"containers": [{"name": "b"}]})));
        let replaced = apply(
            original.clone(),
            spec(json!({"containers": [{"name": "z"}, {"$patch": "replace"}]})),
        )
        .unwrap();
        assert_eq!(replaced, spec(json!({"containers": [{"name": "z"}]})));
        let err = apply(
            original.clone(),
            spec(json!({"containers": [{"$patch": "merge"}]})),
        );
        assert_eq!(
            err,
            Err(Error::MergeDirectiveInList {
                path: "spec.containers".into()
            })
        );
        let err = apply(
            original.clone(),
            spec(json!({"containers": [{"$patch": "nope"}]})),
        );
        assert!(matches!(err, Err(Error::UnknownPatchDirective { .. })));
        let err = apply(
            original,
            spec(json!({"containers": [{"$patch": "delete"}]})),
        );
        assert!(matches!(
            err,
            Err(Error::NoMergeKey { ref merge_key, .. }) if merge_key == "name"
        ));
    }

    #[test]
    fn set_element_order_orders_objects_and_primitives() {
        let merged = apply(
            json!({"metadata": {"finalizers": ["a", "b", "c"]},
                   "spec": {"containers": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}}),
            json!({"metadata": {"$setElementOrder/finalizers": ["c", "a", "d"],
                                "finalizers": ["d"]},
                   "spec": {"$setElementOrder/containers": [{"name": "c"}, {"name": "a"}],
                            "containers": [{"name": "a", "image": "x"}]}}),
        )
        .unwrap();
        // As kubectl v1.32 gives: "b", missing from the order list, goes before "c"
        // because it comes first in the live list.
        assert_eq!(
            merged,
            json!({"metadata": {"finalizers": ["b", "c", "a", "d"]},
                   "spec": {"containers": [{"name": "b"}, {"name": "c"},
                                           {"name": "a", "image": "x"}]}})
        );
        // Only the order list: the live list reordered.
        let merged = apply(
            spec(json!({"containers": [{"name": "a"}, {"name": "b"}]})),
            spec(json!({"$setElementOrder/containers": [{"name": "b"}, {"name": "a"}]})),
        )
        .unwrap();
        assert_eq!(
            merged,
            spec(json!({"containers": [{"name": "b"}, {"name": "a"}]}))
        );
        // Only the patch: the list is the patch's, without directive items.
        let merged = apply(
            spec(json!({})),
            spec(json!({"$setElementOrder/containers": [{"name": "b"}],
                        "containers": [{"name": "b"}, {"name": "x", "$patch": "delete"}]})),
        )
        .unwrap();
        assert_eq!(merged, spec(json!({"containers": [{"name": "b"}]})));
    }

    #[test]
    fn set_element_order_deletions_and_errors() {
        let merged = apply(
            spec(json!({"containers": [{"name": "a"}, {"name": "b"}, {"name": "c"}]})),
            spec(
                json!({"$setElementOrder/containers": [{"name": "c"}, {"name": "d"}],
                        "containers": [{"name": "b", "$patch": "delete"}, {"name": "d"}]}),
            ),
        )
        .unwrap();
        assert_eq!(
            merged,
            spec(json!({"containers": [{"name": "a"}, {"name": "c"}, {"name": "d"}]}))
        );
        let err = apply(
            spec(json!({"containers": [{"name": "a"}, {"name": "b"}]})),
            spec(json!({"$setElementOrder/containers": [{"name": "a"}],
                        "containers": [{"name": "b"}]})),
        );
        assert!(matches!(
            err,
            Err(Error::SetElementOrderMismatch { ref path, .. }) if path == "spec.containers"
        ));
        let err = apply(
            spec(json!({})),
            spec(json!({"$setElementOrderX/containers": []})),
        );
        assert!(matches!(
            err,
            Err(Error::BadSetElementOrderDirective { .. })
        ));
        let err = apply(
            spec(json!({})),
            spec(json!({"$setElementOrder/containers": "a"})),
        );
        assert!(matches!(
            err,
            Err(Error::InvalidType {
                expected: "array",
                actual: "string",
                ..
            })
        ));
        let err = apply(
            spec(json!({"containers": [{"name": "a"}]})),
            spec(json!({"$setElementOrder/containers": ["a"]})),
        );
        assert_eq!(
            err,
            Err(Error::ListItemNotAnObject {
                path: "spec.containers".into(),
                index: 0
            })
        );
        let err = apply(
            spec(json!({"containers": []})),
            spec(json!({"$setElementOrder/containers": [], "containers": []})),
        );
        assert!(matches!(err, Err(Error::NoListElements { .. })));
        let err = apply(
            spec(json!({"containers": "x"})),
            spec(json!({"$setElementOrder/containers": []})),
        );
        assert!(matches!(err, Err(Error::InvalidType { .. })));
    }

    #[test]
    fn retain_keys_clears_unlisted_fields() {
        let merged = apply(
            spec(
                json!({"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}},
                        "volumes": [{"name": "v", "emptyDir": {}}]}),
            ),
            spec(
                json!({"strategy": {"$retainKeys": ["type"], "type": "Recreate"},
                        "volumes": [{"name": "v", "$retainKeys": ["name", "hostPath"],
                                     "hostPath": {"path": "/x"}}]}),
            ),
        )
        .unwrap();
        assert_eq!(
            merged,
            spec(json!({"strategy": {"type": "Recreate"},
                        "volumes": [{"name": "v", "hostPath": {"path": "/x"}}]}))
        );
        let err = apply(
            spec(json!({"strategy": {"type": "A"}})),
            spec(json!({"strategy": {"$retainKeys": ["type"], "rollingUpdate": {}}})),
        );
        assert_eq!(
            err,
            Err(Error::FieldNotInRetainKeys {
                path: "spec.strategy".into(),
                field: "rollingUpdate".into()
            })
        );
        let err = apply(
            spec(json!({"strategy": {"type": "A"}})),
            spec(json!({"strategy": {"$retainKeys": "type"}})),
        );
        assert!(matches!(err, Err(Error::BadRetainKeys { .. })));
        let err = apply(
            spec(json!({"strategy": {"type": "A"}})),
            spec(json!({"strategy": {"$retainKeys": [{}]}})),
        );
        assert!(matches!(err, Err(Error::BadRetainKeys { .. })));
    }

    #[test]
    fn delete_from_primitive_list() {
        let merged = apply(
            json!({"metadata": {"finalizers": ["a", "b", "c"]}}),
            json!({"metadata": {"$deleteFromPrimitiveList/finalizers": ["b", "x"],
                                "finalizers": ["d"]}}),
        )
        .unwrap();
        assert_eq!(merged, json!({"metadata": {"finalizers": ["d", "a", "c"]}}));
        // Nothing to delete from: nothing happens.
        let merged = apply(
            json!({"metadata": {}}),
            json!({"metadata": {"$deleteFromPrimitiveList/finalizers": ["b"]}}),
        )
        .unwrap();
        assert_eq!(merged, json!({"metadata": {}}));
        let err = apply(
            json!({"metadata": {}}),
            json!({"metadata": {"$deleteFromPrimitiveList": ["b"]}}),
        );
        assert_eq!(
            err,
            Err(Error::BadPrimitiveListDirective {
                path: "metadata".into(),
                key: "$deleteFromPrimitiveList".into()
            })
        );
    }

    #[test]
    fn errors_name_where_they_happened() {
        let err = apply(
            spec(json!({"containers": [{"name": "a", "ports": [{"containerPort": 1}]}]})),
            spec(json!({"containers": [{"name": "a", "ports": [{"protocol": "TCP"}]}]})),
        );
        assert_eq!(
            err,
            Err(Error::NoMergeKey {
                path: "spec.containers[0].ports".into(),
                merge_key: "containerPort".into(),
                item: json!({"protocol": "TCP"})
            })
        );
        let err = apply(
            json!({"metadata": {"ownerReferences": [{"uid": "1"}]}}),
            json!({"metadata": {"ownerReferences": [{"uid": "2"}]}}),
        );
        assert_eq!(
            err,
            Err(Error::MergeKeyNotDeclared {
                path: "metadata.ownerReferences".into(),
                type_name: "object".into()
            })
        );
        let err = apply(
            json!({"metadata": {"finalizers": [["a"]]}}),
            json!({"metadata": {"finalizers": ["b"]}}),
        );
        assert!(matches!(err, Err(Error::ListOfLists { .. })));
        let err = apply(
            json!({"metadata": {"weights": [1]}}),
            json!({"metadata": {"weights": [1.5]}}),
        );
        assert_eq!(
            err,
            Err(Error::MixedListElementTypes {
                path: "metadata.weights".into(),
                first: "integer",
                other: "number"
            })
        );
        let err = apply(
            json!({"metadata": {"finalizers": [null]}}),
            json!({"metadata": {"finalizers": ["b"]}}),
        );
        assert!(matches!(err, Err(Error::NullListElement { index: 0, .. })));
        let err = apply(
            json!({"spec": {"nope": {}}}),
            json!({"spec": {"nope": {"a": 1}}}),
        );
        assert!(matches!(
            err,
            Err(Error::Lookup { ref path, .. }) if path == "spec.nope"
        ));
        let err = apply(
            spec(json!({"odd": [{"name": "a"}]})),
            spec(json!({"odd": [{"name": "b"}]})),
        );
        assert!(matches!(err, Err(Error::UnexpectedPatchStrategy { .. })));
        assert_eq!(
            apply(json!([]), json!({})),
            Err(Error::NotAnObject {
                document: "original",
                actual: "array"
            })
        );
        assert_eq!(
            apply(json!({}), json!("x")),
            Err(Error::NotAnObject {
                document: "patch",
                actual: "string"
            })
        );
    }

    #[test]
    fn owned_documents_patch_alike() {
        let doc = openapi();
        let schema = PatchMetaFromOpenApi::from_document(&doc, "Pod").unwrap();
        let original =
            json!({"metadata": {"finalizers": ["a"]}, "spec": {"containers": [{"name": "x"}]}});
        let patch = json!({"metadata": {"finalizers": ["b"]},
                           "spec": {"$setElementOrder/containers": [{"name": "y"}, {"name": "x"}],
                                    "containers": [{"name": "y"}]}});
        let by_ref = strategic_merge_patch(&original, &patch, &schema).unwrap();
        let (Value::Object(o), Value::Object(p)) = (original, patch) else {
            unreachable!()
        };
        let owned = strategic_merge_map_patch(o, p, &schema).unwrap();
        assert_eq!(Value::Object(owned), by_ref);
        assert_eq!(
            by_ref,
            json!({"metadata": {"finalizers": ["b", "a"]},
                   "spec": {"containers": [{"name": "y"}, {"name": "x"}]}})
        );
    }

    #[test]
    fn null_documents_are_empty_objects() {
        assert_eq!(
            apply(json!(null), json!({"a": 1})).unwrap(),
            json!({"a": 1})
        );
        assert_eq!(
            apply(json!({"a": 1}), json!(null)).unwrap(),
            json!({"a": 1})
        );
    }

    #[test]
    fn extract_retain_keys_patch_strategy_is_gos() {
        let s = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            extract_retain_keys_patch_strategy(&s(&["retainKeys", "merge"]), "p").unwrap(),
            (true, "merge".to_owned())
        );
        assert_eq!(
            extract_retain_keys_patch_strategy(&s(&["merge", "retainKeys"]), "p").unwrap(),
            (true, "merge".to_owned())
        );
        assert_eq!(
            extract_retain_keys_patch_strategy(&s(&["retainKeys"]), "p").unwrap(),
            (true, String::new())
        );
        assert!(extract_retain_keys_patch_strategy(&s(&["a", "b", "c"]), "p").is_err());
    }

    #[test]
    fn documents_as_deep_as_serde_json_parses_merge() {
        // serde_json refuses more than 128 levels; merging that deep must fit a test
        // thread's stack even unoptimized.
        let nest = |leaf: Value, depth: usize| {
            (0..depth).fold(leaf, |inner, i| {
                if i % 2 == 0 {
                    json!({"containers": [{"name": "x", "spec": inner}]})
                } else {
                    json!({"spec": inner})
                }
            })
        };
        /// Every list merges by `name`, at any depth.
        struct MergeByName;
        impl LookupPatchMeta for MergeByName {
            fn lookup_patch_metadata_for_struct(
                &self,
                _: &str,
            ) -> Result<super::super::PatchMetaLookup<'_>, super::super::LookupPatchMetaError>
            {
                Ok((Box::new(MergeByName), super::super::PatchMeta::default()))
            }
            fn lookup_patch_metadata_for_slice(
                &self,
                _: &str,
            ) -> Result<super::super::PatchMetaLookup<'_>, super::super::LookupPatchMetaError>
            {
                let meta = super::super::PatchMeta::new(vec!["merge".into()], "name");
                Ok((Box::new(MergeByName), meta))
            }
            fn name(&self) -> String {
                "MergeByName".into()
            }
        }
        let original = nest(json!({"a": 1}), 120);
        let patch = nest(json!({"b": 2}), 120);
        let merged = strategic_merge_patch(&original, &patch, &MergeByName).unwrap();
        assert_eq!(merged, nest(json!({"a": 1, "b": 2}), 120));
        let merged = strategic_merge_patch(&json!({}), &patch, &SchemalessPatchMeta).unwrap();
        assert_eq!(merged, patch);
    }

    fn arbitrary_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            (-1e6f64..1e6).prop_map(Value::from),
            prop_oneof![
                Just("$patch".to_owned()),
                Just("delete".to_owned()),
                Just("replace".to_owned()),
                Just("merge".to_owned()),
                "[a-c]{1,2}",
            ]
            .prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            let key = prop_oneof![
                Just("$patch".to_owned()),
                Just("$retainKeys".to_owned()),
                Just("$setElementOrder/containers".to_owned()),
                Just("$deleteFromPrimitiveList/finalizers".to_owned()),
                Just("name".to_owned()),
                Just("containers".to_owned()),
                Just("finalizers".to_owned()),
                Just("spec".to_owned()),
                Just("metadata".to_owned()),
                Just("strategy".to_owned()),
                Just("volumes".to_owned()),
                "[a-c]",
            ];
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::btree_map(key, inner, 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn an_empty_patch_returns_the_original(original in arbitrary_json()) {
            let original = match original {
                Value::Object(_) => original,
                other => json!({"spec": other}),
            };
            prop_assert_eq!(apply(original.clone(), json!({})).unwrap(), original.clone());
            prop_assert_eq!(
                strategic_merge_patch(&original, &json!({}), &SchemalessPatchMeta).unwrap(),
                original
            );
        }

        #[test]
        fn arbitrary_patches_never_panic(original in arbitrary_json(), patch in arbitrary_json()) {
            let _ = apply(original.clone(), patch.clone());
            let _ = apply(json!({"spec": original.clone()}), json!({"spec": patch.clone()}));
            let _ = strategic_merge_patch(&original, &patch, &SchemalessPatchMeta);
        }
    }
}
