use serde_json::json;

use super::*;

/// A Deployment-like schema: a keyed list of containers (with a set of args... kept
/// atomic), a set of finalizers-like strings, an atomic selector map, and free labels.
fn types() -> ParseableType {
    ParseableType::from_openapi_v3_schema(&json!({
        "type": "object",
        "properties": {
            "apiVersion": {"type": "string"},
            "kind": {"type": "string"},
            "metadata": {"type": "object", "properties": {
                "name": {"type": "string"},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}}
            }},
            "spec": {"type": "object", "properties": {
                "replicas": {"type": "integer"},
                "selector": {"type": "object", "x-kubernetes-map-type": "atomic",
                             "additionalProperties": {"type": "string"}},
                "tags": {"type": "array", "x-kubernetes-list-type": "set",
                         "items": {"type": "string"}},
                "args": {"type": "array", "items": {"type": "string"}},
                "containers": {"type": "array",
                    "x-kubernetes-patch-strategy": "merge",
                    "x-kubernetes-patch-merge-key": "name",
                    "items": {"type": "object", "properties": {
                        "name": {"type": "string"},
                        "image": {"type": "string"},
                        "ports": {"type": "array", "x-kubernetes-list-type": "map",
                                  "x-kubernetes-list-map-keys": ["containerPort", "protocol"],
                                  "items": {"type": "object", "properties": {
                                      "containerPort": {"type": "integer"},
                                      "protocol": {"type": "string"}}}}
                    }}}
            }}
        }
    }))
}

fn paths(set: &Set) -> Vec<String> {
    set.paths().iter().map(ToString::to_string).collect()
}

#[test]
fn field_sets_name_leaves_atomics_and_items() {
    let t = types();
    let v = json!({
        "metadata": {"labels": {"app": "web"}},
        "spec": {
            "replicas": 2,
            "selector": {"app": "web"},
            "tags": ["a", "b"],
            "args": ["x"],
            "containers": [{"name": "web", "image": "nginx",
                            "ports": [{"containerPort": 80, "protocol": "TCP"}]}]
        }
    });
    let set = to_field_set(&t, &v, Duplicates::Refuse).expect("fits");
    assert_eq!(
        String::from_utf8(set.to_fields_v1_bytes()).unwrap(),
        r#"{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:args":{},"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:protocol":{}}}}},"f:replicas":{},"f:selector":{},"f:tags":{"v:\"a\"":{},"v:\"b\"":{}}}}"#
    );
}

#[test]
fn field_sets_report_what_does_not_fit() {
    let t = types();
    let errs = to_field_set(
        &t,
        &json!({"spec": {"replicas": 1, "bogus": 1}}),
        Duplicates::Refuse,
    )
    .unwrap_err();
    assert_eq!(
        errs.to_string(),
        ".spec.bogus: field not declared in schema"
    );
    let errs = to_field_set(
        &t,
        &json!({"spec": {"containers": [{"image": "x"}]}}),
        Duplicates::Refuse,
    )
    .unwrap_err();
    assert!(
        errs.to_string().contains("omits all key fields [\"name\"]"),
        "{errs}"
    );
    let errs = to_field_set(
        &t,
        &json!({"spec": {"containers": [{"name": "a"}, {"name": "a"}]}}),
        Duplicates::Refuse,
    )
    .unwrap_err();
    assert!(
        errs.to_string()
            .contains("duplicate entries for key [name=\"a\"]"),
        "{errs}"
    );
    let errs = to_field_set(
        &t,
        &json!({"spec": {"tags": [{"x": 1}]}}),
        Duplicates::Refuse,
    )
    .unwrap_err();
    assert!(errs.to_string().contains("only scalar values"), "{errs}");
}

#[test]
fn merge_replaces_atomics_and_merges_sets_and_keyed_lists_item_by_item() {
    let t = types();
    let live = json!({"spec": {
        "selector": {"app": "web", "tier": "front"},
        "args": ["a", "b"],
        "tags": ["x", "y"],
        "containers": [
            {"name": "web", "image": "nginx:1", "ports": [{"containerPort": 80, "protocol": "TCP"}]},
            {"name": "sidecar", "image": "envoy"}
        ]
    }});
    let config = json!({"spec": {
        "selector": {"app": "web"},
        "args": ["c"],
        "tags": ["z", "x"],
        "containers": [{"name": "web", "image": "nginx:2"}]
    }});
    let merged = merge(&t, &live, &config).expect("merges");
    assert_eq!(
        merged,
        json!({"spec": {
            // atomic map and list: replaced
            "selector": {"app": "web"},
            "args": ["c"],
            // set: union, the applied order for the applied items, others kept in place
            "tags": ["z", "x", "y"],
            // keyed list: the named item merged field by field, the other kept
            "containers": [
                {"name": "web", "image": "nginx:2", "ports": [{"containerPort": 80, "protocol": "TCP"}]},
                {"name": "sidecar", "image": "envoy"}
            ]
        }})
    );
}

#[test]
fn merge_orders_shared_items_as_the_config_does() {
    let t = types();
    let live = json!({"spec": {"containers": [{"name": "a"}, {"name": "x"}, {"name": "b"}]}});
    let config = json!({"spec": {"containers": [{"name": "b"}, {"name": "a"}]}});
    let merged = merge(&t, &live, &config).unwrap();
    let names: Vec<&str> = merged["spec"]["containers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["x", "b", "a"]);
}

#[test]
fn compare_finds_added_modified_removed_with_items_as_members() {
    let t = types();
    let old = json!({"metadata": {"name": "d"}, "spec": {"replicas": 1, "args": ["a"],
        "containers": [{"name": "web", "image": "nginx:1"}]}});
    let new = json!({"metadata": {"name": "d", "labels": {"app": "web"}}, "spec": {"replicas": 2,
        "containers": [{"name": "web", "image": "nginx:1"}, {"name": "log", "image": "busybox"}]}});
    let c = compare(&t, &old, &new).expect("compares");
    assert_eq!(paths(&c.modified), [".spec.replicas"]);
    assert_eq!(paths(&c.removed), [".spec.args"]);
    // A new map and a new item are members themselves ("." in FieldsV1), as Go adds them.
    assert_eq!(
        paths(&c.added),
        [
            ".metadata.labels",
            ".metadata.labels.app",
            ".spec.containers[name=\"log\"]",
            ".spec.containers[name=\"log\"].image",
            ".spec.containers[name=\"log\"].name",
        ]
    );
    assert!(compare(&t, &old, &old).unwrap().is_same());
}

#[test]
fn empty_and_null_containers_are_leaves() {
    let t = types();
    let c = compare(
        &t,
        &json!({"spec": {"args": null}}),
        &json!({"spec": {"args": []}}),
    )
    .unwrap();
    assert_eq!(paths(&c.modified), [".spec.args"]);
    let c = compare(
        &t,
        &json!({"spec": {}}),
        &json!({"spec": {"containers": []}}),
    )
    .unwrap();
    assert_eq!(paths(&c.added), [".spec.containers"]);
}

#[test]
fn remove_items_drops_members_and_empties_to_null() {
    let t = types();
    let v = json!({"metadata": {"labels": {"a": "1"}}, "spec": {"replicas": 3, "tags": ["x", "y"],
        "containers": [{"name": "web", "image": "i"}, {"name": "log", "image": "j"}]}});
    let mut set = Set::new();
    set.insert(&".spec.containers[name=\"log\"]".parse::<Path>().unwrap().0);
    set.insert(&".spec.tags[=\"x\"]".parse::<Path>().unwrap().0);
    set.insert(&".metadata.labels.a".parse::<Path>().unwrap().0);
    let out = remove_items(&t, &v, &set);
    assert_eq!(
        out,
        json!({"metadata": {"labels": null}, "spec": {"replicas": 3, "tags": ["y"],
            "containers": [{"name": "web", "image": "i"}]}})
    );
}

#[test]
fn named_fields_become_members_but_map_keys_do_not() {
    let t = types();
    let mut set = Set::new();
    set.insert(&".spec.replicas".parse::<Path>().unwrap().0);
    set.insert(&".metadata.labels.app".parse::<Path>().unwrap().0);
    let ensured = ensure_named_fields_are_members(&t, &set);
    assert_eq!(
        paths(&ensured),
        [
            ".metadata",
            ".spec",
            ".metadata.labels",
            ".metadata.labels.app",
            ".spec.replicas"
        ]
    );
}

#[test]
fn deduced_types_merge_maps_and_replace_lists() {
    let t = ParseableType::deduced();
    let merged = merge(
        &t,
        &json!({"a": {"x": 1}, "l": [1, 2]}),
        &json!({"a": {"y": 2}, "l": [3]}),
    )
    .unwrap();
    assert_eq!(merged, json!({"a": {"x": 1, "y": 2}, "l": [3]}));
    let set = to_field_set(&t, &json!({"a": {"x": 1}, "l": [1]}), Duplicates::Refuse).unwrap();
    assert_eq!(paths(&set), [".a", ".l", ".a.x"]);
}

#[test]
fn a_field_set_to_an_empty_map_or_null_is_a_member() {
    let t = ParseableType::from_openapi_v3_schema(&json!({
        "type": "object",
        "properties": {
            "spec": {"type": "object", "properties": {"a": {"type": "string"}}},
            "status": {"type": "object", "properties": {"b": {"type": "string"}}}}
    }));
    let set = to_field_set(&t, &json!({"spec": {}, "status": null}), Duplicates::Refuse).unwrap();
    assert_eq!(paths(&set), [".spec", ".status"]);
    let set = to_field_set(&t, &json!({"spec": {"a": "x"}}), Duplicates::Refuse).unwrap();
    assert_eq!(paths(&set), [".spec.a"]);
}

#[test]
fn a_key_field_left_out_is_keyed_by_its_default() {
    let t = ParseableType::from_openapi_v3_schema(&json!({
        "type": "object",
        "properties": {"ports": {"type": "array", "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["port", "protocol"],
            "items": {"type": "object", "properties": {
                "port": {"type": "integer"},
                "protocol": {"type": "string", "default": "TCP"}}}}}
    }));
    let set = to_field_set(&t, &json!({"ports": [{"port": 80}]}), Duplicates::Refuse)
        .expect("keyed by the default");
    assert_eq!(
        paths(&set),
        [
            ".ports[port=80,protocol=\"TCP\"]",
            ".ports[port=80,protocol=\"TCP\"].port"
        ]
    );
    let merged = merge(
        &t,
        &json!({"ports": [{"port": 80, "protocol": "TCP"}]}),
        &json!({"ports": [{"port": 80}]}),
    )
    .unwrap();
    assert_eq!(merged, json!({"ports": [{"port": 80, "protocol": "TCP"}]}));
}

/// structured-merge-diff (`keyedAssociativeListItemToPathElement`): a key field left
/// out without a default is left out of the key too; only an item without any key
/// field is refused.
#[test]
fn a_key_field_left_out_without_a_default_is_not_part_of_the_key() {
    let t = ParseableType::from_openapi_v3_schema(&json!({
        "type": "object",
        "properties": {"ports": {"type": "array", "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["port", "protocol"],
            "items": {"type": "object", "properties": {
                "port": {"type": "integer"}, "protocol": {"type": "string"}}}}}
    }));
    let set = to_field_set(&t, &json!({"ports": [{"port": 80}]}), Duplicates::Refuse)
        .expect("keyed by the port alone");
    assert_eq!(paths(&set), [".ports[port=80]", ".ports[port=80].port"]);
    let errs = to_field_set(&t, &json!({"ports": [{}]}), Duplicates::Refuse).unwrap_err();
    assert_eq!(
        errs.to_string(),
        ".ports: element 0: associative list with keys has an element that omits all key fields [\"port\" \"protocol\"] (and doesn't have default values for any key fields)"
    );
}

/// Defaults given beside the schemas (Go's OpenAPI definitions' defaults, which the
/// served documents lack) key an item as the schemas' own do, in the named type and in
/// a field's copy of it with its own map type.
#[test]
fn defaults_given_beside_the_schemas_key_items() {
    let schemas = json!({
        "Ref": {"type": "object", "x-kubernetes-map-type": "atomic",
            "properties": {"name": {"type": "string"}}},
        "Spec": {"type": "object", "properties": {
            "secrets": {"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name"],
                "items": {"allOf": [{"$ref": "#/components/schemas/Ref"}]}},
            "granular": {"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name"],
                "items": {"allOf": [{"$ref": "#/components/schemas/Ref"}],
                          "x-kubernetes-map-type": "granular"}}
        }}
    });
    let schemas = schemas.as_object().expect("object");
    let bare = ParseableType::from_openapi_v3_named(schemas, "Spec");
    assert!(to_field_set(&bare, &json!({"secrets": [{}]}), Duplicates::Refuse).is_err());
    let t = bare.with_defaults(&[("Ref", "name", "\"\""), ("Ref", "other", "not JSON")]);
    let set = to_field_set(
        &t,
        &json!({"secrets": [{}], "granular": [{}]}),
        Duplicates::Refuse,
    )
    .expect("keyed by the default");
    assert_eq!(paths(&set), [".granular[name=\"\"]", ".secrets[name=\"\"]"]);
}

/// A field's `x-kubernetes-map-type` overrides its referenced struct's where it is used,
/// as Go's schema converter keeps it on the reference: a PersistentVolume's `claimRef`
/// (granular) over the ObjectReference that is atomic everywhere else.
#[test]
fn a_field_overrides_the_map_type_of_the_struct_it_refers_to() {
    let schemas = json!({
        "ObjectReference": {"type": "object", "x-kubernetes-map-type": "atomic",
            "properties": {"name": {"type": "string"}, "namespace": {"type": "string"}}},
        "Spec": {"type": "object", "properties": {
            "claimRef": {"allOf": [{"$ref": "#/components/schemas/ObjectReference"}],
                         "x-kubernetes-map-type": "granular"},
            "other": {"allOf": [{"$ref": "#/components/schemas/ObjectReference"}]}
        }},
        "Volume": {"type": "object", "properties": {
            "spec": {"allOf": [{"$ref": "#/components/schemas/Spec"}]}
        }}
    });
    let t = ParseableType::from_openapi_v3_named(schemas.as_object().expect("object"), "Volume");
    let reference = json!({"name": "c", "namespace": "default"});
    let set = to_field_set(
        &t,
        &json!({"spec": {"claimRef": reference, "other": reference}}),
        Duplicates::Refuse,
    )
    .expect("fits");
    assert_eq!(
        String::from_utf8(set.to_fields_v1_bytes()).expect("utf-8"),
        r#"{"f:spec":{"f:claimRef":{"f:name":{},"f:namespace":{}},"f:other":{}}}"#
    );
}

/// Go's schema converter reads an object type with no field and no element (a
/// RawExtension, a ControllerRevision's `data`) as a struct with no fields: the value
/// is one leaf, whatever it holds; one that keeps unknown fields is descended into.
#[test]
fn an_object_of_no_declared_fields_is_one_leaf() {
    let t = ParseableType::from_openapi_v3_schema(&json!({
        "type": "object",
        "properties": {
            "data": {"type": "object"},
            "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}
    }));
    let set = to_field_set(
        &t,
        &json!({"data": {"spec": {"a": 1}}, "free": {"b": {"c": 2}}}),
        Duplicates::Refuse,
    )
    .expect("typed");
    // `b`, a key that is not a declared field, is a member itself (Go's visitMapItems).
    assert_eq!(paths(&set), [".data", ".free.b", ".free.b.c"]);
}

/// Go's field manager reads objects allowing an item to be named twice
/// (`typed.AllowDuplicates`): such an item is recorded bare, none of its fields.
#[test]
fn duplicated_items_are_bare_members_when_allowed() {
    let t = types();
    let v = json!({"spec": {"containers": [
        {"name": "a", "image": "x"}, {"name": "b", "image": "y"},
        {"name": "a", "image": "z"}, {"name": "a"}
    ]}});
    let set = to_field_set(&t, &v, Duplicates::Allow).expect("allowed");
    assert_eq!(
        String::from_utf8(set.to_fields_v1_bytes()).expect("utf-8"),
        r#"{"f:spec":{"f:containers":{"k:{\"name\":\"a\"}":{},"k:{\"name\":\"b\"}":{".":{},"f:image":{},"f:name":{}}}}}"#
    );
    let errs = to_field_set(&t, &v, Duplicates::Refuse).unwrap_err();
    assert_eq!(
        errs.0.len(),
        2,
        "one error where the item is named again: {errs}"
    );
}

#[test]
fn compare_takes_duplicated_items_as_wholes() {
    let t = types();
    let single = json!({"spec": {"containers": [{"name": "a", "image": "x"}]}});
    let twice = json!({"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "a"}]}});
    let other = json!({"spec": {"containers": [{"name": "a", "image": "y"}, {"name": "a"}]}});
    // Created with a duplicate: the item itself is added, not its fields.
    let c = compare(&t, &json!({}), &twice).expect("compares");
    assert_eq!(
        paths(&c.added),
        [".spec", ".spec.containers", ".spec.containers[name=\"a\"]"]
    );
    // Becoming duplicated: the single item's fields are removed, the item added.
    let c = compare(&t, &single, &twice).expect("compares");
    assert_eq!(paths(&c.added), [".spec.containers[name=\"a\"]"]);
    assert_eq!(
        paths(&c.removed),
        [
            ".spec.containers[name=\"a\"]",
            ".spec.containers[name=\"a\"].image",
            ".spec.containers[name=\"a\"].name"
        ]
    );
    // No longer duplicated: the item removed, its single self's fields added.
    let c = compare(&t, &twice, &single).expect("compares");
    assert_eq!(paths(&c.removed), [".spec.containers[name=\"a\"]"]);
    assert!(paths(&c.added).contains(&".spec.containers[name=\"a\"].image".to_owned()));
    // Duplicated on both sides: modified as a whole when any differs.
    let c = compare(&t, &twice, &other).expect("compares");
    assert_eq!(paths(&c.modified), [".spec.containers[name=\"a\"]"]);
    assert!(compare(&t, &twice, &twice).expect("compares").is_same());
}

#[test]
fn merge_keeps_duplicated_live_items_unless_the_config_names_them() {
    let t = types();
    let live = json!({"spec": {"containers": [
        {"name": "a", "image": "1"}, {"name": "b"}, {"name": "a", "image": "2"}
    ]}});
    let merged = merge(&t, &live, &json!({"spec": {"replicas": 1}})).expect("merges");
    assert_eq!(merged["spec"]["containers"], live["spec"]["containers"]);
    // Named by the config, the duplicates give way to the config's one item, where
    // the first of them was.
    let config = json!({"spec": {"containers": [{"name": "a", "image": "3"}]}});
    let merged = merge(&t, &live, &config).expect("merges");
    assert_eq!(
        merged["spec"]["containers"],
        json!([{"name": "a", "image": "3"}, {"name": "b"}])
    );
}
