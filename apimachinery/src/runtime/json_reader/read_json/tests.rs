//! `ReadJson` against today's decode, serde's `Deserialize` through the same reader:
//! the same values, errors (message, position, path), unknown fields, repeated-key
//! verdicts and top-level type meta, on hand-picked and generated documents.

use std::collections::BTreeMap;
use std::fmt;

use proptest::prelude::*;
use serde_json::{Value, json};

use super::super::{ReadError, from_slice_tracking, read_slice_tracking};
use super::*;
use crate::api::resource::Quantity;
use crate::apis::meta::v1::{ObjectMeta, Time, TypeMeta};
use crate::runtime::RawExtension;
use crate::util::intstr::IntOrString;

#[derive(crate::ApiType, Clone, Debug, Default, PartialEq)]
struct Port {
    port: i32,
    name: Option<String>,
    protocol: String,
    weight: Option<f64>,
    small: u8,
    ratio: f32,
    enabled: bool,
    target: Option<IntOrString>,
}

#[derive(crate::ApiType, Clone, Debug, Default, PartialEq)]
struct Spec {
    ports: Vec<Port>,
    labels: BTreeMap<String, String>,
    nested: Option<Vec<Vec<i64>>>,
    by_name: BTreeMap<String, Port>,
    quantity: Option<Quantity>,
    raw: Option<RawExtension>,
    any: Option<Value>,
    time: Option<Time>,
    boxed: Option<Box<Port>>,
    #[api(rename = "metadata")]
    meta: ObjectMeta,
    limits: Option<Limits>,
    limit_list: Vec<Limits>,
}

/// A serde-derived type in a derived struct: read through its `Deserialize`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Limits {
    cpu: String,
    #[serde(default)]
    memory: Option<u64>,
}

#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
#[api(
    group = "readjson.test.example",
    version = "v1",
    kind = "Widget",
    not_resource
)]
struct Widget {
    type_meta: TypeMeta,
    metadata: ObjectMeta,
    spec: Spec,
    extras: Option<Vec<Spec>>,
}

/// An object kind without a `TypeMeta` field: its `kind` and `apiVersion` are skipped.
#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
#[api(
    group = "readjson.test.example",
    version = "v1",
    kind = "Gadget",
    not_resource
)]
struct Gadget {
    metadata: ObjectMeta,
    count: i64,
}

/// What a read gave, as a comparable string.
fn outcome<T: fmt::Debug>(
    read: Result<crate::runtime::json_reader::Read<'_, T>, ReadError>,
) -> String {
    match read {
        Ok(r) => format!(
            "ok {:?} unknown {:?} no-dups {} seen {:?}",
            r.value, r.unknown_fields, r.no_duplicate_keys, r.seen
        ),
        Err(e) => format!("err at {:?}: {}", e.path, e.error),
    }
}

/// Both decodes of `text` as a `T`, tracking unknown fields or not, agree; except that
/// where serde refuses a `null` the reader reads (an element of a list or a value of a
/// map, which serde's impls for `Vec` and `BTreeMap` refuse), the reader follows Go,
/// which reads it as the zero value.
fn agree<T>(text: &[u8]) -> Result<(), TestCaseError>
where
    T: ReadJson + serde::de::DeserializeOwned + fmt::Debug,
{
    for track in [false, true] {
        let ours = outcome(read_slice_tracking::<T>(text, track));
        let serde = outcome(from_slice_tracking::<T>(text, track));
        if ours != serde
            && serde.starts_with("err")
            && serde.contains(": invalid type: null, expected")
        {
            // The reader read past the `null` serde stopped at: it either read the
            // document (checked by `null_elements_and_map_values_read_as_the_zero_value_as_in_go`)
            // or stopped at a later error of its own.
            continue;
        }
        prop_assert_eq!(ours, serde, "{}", String::from_utf8_lossy(text));
    }
    Ok(())
}

#[test]
fn null_elements_and_map_values_read_as_the_zero_value_as_in_go() {
    let read = read_slice_tracking::<Spec>(
        br#"{"ports": [null, {"port": 1}], "labels": {"a": null}, "nested": [[1], [null]]}"#,
        false,
    )
    .unwrap();
    assert_eq!(
        read.value.ports,
        vec![
            Port::default(),
            Port {
                port: 1,
                ..Port::default()
            }
        ]
    );
    assert_eq!(read.value.labels.get("a").map(String::as_str), Some(""));
}

fn agree_all(text: &[u8]) {
    let run = || -> Result<(), TestCaseError> {
        agree::<Widget>(text)?;
        agree::<Spec>(text)?;
        agree::<Gadget>(text)?;
        agree::<Vec<Port>>(text)?;
        agree::<BTreeMap<String, Option<Port>>>(text)?;
        agree::<Option<Box<Port>>>(text)
    };
    if let Err(e) = run() {
        panic!("{e}");
    }
}

fn widget() -> Value {
    json!({
        "kind": "Widget", "apiVersion": "readjson.test.example/v1",
        "metadata": {"name": "w", "labels": {"a": "b"}, "creationTimestamp": "2024-01-02T03:04:05Z"},
        "spec": {
            "ports": [
                {"port": 80, "name": "http", "protocol": "TCP", "weight": 0.5, "small": 7,
                 "ratio": 0.1, "enabled": true, "target": "web"},
                {"port": 443, "name": null, "protocol": null, "target": 8443}
            ],
            "labels": {"x": "y", "z": ""},
            "nested": [[1, -2], [], [9007199254740993_i64]],
            "byName": {"a": {"port": 1}, "b": {}},
            "quantity": "1500m",
            "raw": {"kind": "Pod", "n": 1.50},
            "any": {"a": [1, "b", null]},
            "time": "2024-01-02T03:04:05Z",
            "boxed": {"port": 2},
            "metadata": {"namespace": "ns"},
            "limits": {"cpu": "1", "memory": 5},
            "limitList": [{"cpu": "2"}]
        },
        "extras": [{"ports": []}, {"labels": null}]
    })
}

#[test]
fn hand_picked_documents_read_as_through_serde() {
    let whole = serde_json::to_vec_pretty(&widget()).unwrap();
    agree_all(&whole);
    for text in [
        "null",
        "{}",
        "[]",
        "[{}]",
        "1",
        "\"x\"",
        "true",
        "",
        " ",
        "{",
        "[",
        r#"{"kind": 1}"#,
        r#"{"kind": null, "apiVersion": null}"#,
        r#"{"kind": "Widget", "kind": "Other", "spec": {}, "spec": {"ports": null}}"#,
        r#"{"\u006bind": "Widget", "apiVersion": "v\u0031"}"#,
        r#"{"spec": {"ports": [{"port": 1}, {"port": "http"}]}}"#,
        r#"{"spec": {"ports": [{"port": 3000000000}]}}"#,
        r#"{"spec": {"ports": [{"port": -3000000000}]}}"#,
        r#"{"spec": {"ports": [{"port": 1.5}]}}"#,
        r#"{"spec": {"ports": [{"small": 256}]}}"#,
        r#"{"spec": {"ports": [{"small": -1}]}}"#,
        r#"{"spec": {"ports": [{"ratio": 1e39}]}}"#,
        r#"{"spec": {"ports": [{"ratio": 16777217}]}}"#,
        r#"{"spec": {"ports": [{"weight": "1"}]}}"#,
        r#"{"spec": {"ports": [{"enabled": 1}]}}"#,
        r#"{"spec": {"ports": [{"enabled": nul}]}}"#,
        r#"{"spec": {"ports": [{"protocol": 1}]}}"#,
        r#"{"spec": {"ports": [{"target": true}]}}"#,
        r#"{"spec": {"ports": [[]]}}"#,
        r#"{"spec": {"ports": [[1, 2]]}}"#,
        r#"{"spec": {"ports": [[1, 2}]}"#,
        r#"{"spec": {"ports": {}}}"#,
        r#"{"spec": {"ports": [null]}}"#,
        r#"{"spec": {"ports": [1,]}}"#,
        r#"{"spec": {"labels": {"a": 1}}}"#,
        r#"{"spec": {"labels": {"a": null}}}"#,
        r#"{"spec": {"labels": {"a": "b", "a": "c"}}}"#,
        r#"{"spec": {"labels": {"a": "b",}}}"#,
        r#"{"spec": {"labels": {1: "b"}}}"#,
        r#"{"spec": {"labels": []}}"#,
        r#"{"spec": {"nested": [[1], [null]]}}"#,
        r#"{"spec": {"nested": [[1], 2]}}"#,
        r#"{"spec": {"byName": {"a": {"port": "x"}}}}"#,
        r#"{"spec": {"quantity": "abc"}}"#,
        r#"{"spec": {"quantity": 1}}"#,
        r#"{"spec": {"time": "yesterday"}}"#,
        r#"{"spec": {"raw": [1, {"a": 1, "a": 2}]}}"#,
        r#"{"spec": {"raw": nope}}"#,
        r#"{"spec": {"any": {"a": 1, "a": 2}}}"#,
        r#"{"spec": {"boxed": null, "boxed": {"port": false}}}"#,
        r#"{"spec": {"metadata": {"name": 1}}}"#,
        r#"{"spec": {"metadata": {"labels": {"a": 1}}}}"#,
        r#"{"spec": {"unknown": {"deep": [1, {"x": 2}]}, "x\"y": 1}}"#,
        r#"{"spec": {"ports": [{"port": 1, "port": 2}]}}"#,
        r#"{"spec": {"ports": [{"p\u006frt": "x"}]}}"#,
        r#"{"spec": {}} x"#,
        r#"{"spec": {}} "#,
        r#"{"spec" {}}"#,
        r#"{"spec": {}, }"#,
        r#"{"spec": {} "x": 1}"#,
        r#"{spec: {}}"#,
        r#"{"extras": [{"ports": [{"port": "x"}]}]}"#,
        r#"{"extras": null}"#,
        r#"{"count": 5, "kind": "Gadget", "apiVersion": "v1"}"#,
        r#"{"count": "5"}"#,
        r#"{"spec": {"limits": {"cpu": 1}}}"#,
        r#"{"spec": {"limits": {"cpu": "1", "x": 1}}}"#,
        r#"{"spec": {"limits": {"memory": 1}}}"#,
        r#"{"spec": {"limits": null, "limitList": null}}"#,
        r#"{"spec": {"limitList": [{"cpu": "1"}, {"cpu": "2", "memory": -1}]}}"#,
        "{\"spec\": {\"ports\": [{\"name\": \"a\u{1}\"}]}}",
        "{\"spec\": {\"labels\": {\"\\ud800\": \"x\"}}}",
    ] {
        agree_all(text.as_bytes());
    }
}

#[test]
fn depth_limits_are_met_where_serde_meets_them() {
    for depth in [60, 63, 64, 65, 127, 128, 129] {
        let nested = format!("{}{}", "{\"boxed\":".repeat(depth), "}".repeat(depth));
        agree_all(nested.as_bytes());
        let lists = format!(
            "{{\"spec\":{{\"nested\":{}{}}}}}",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        agree_all(lists.as_bytes());
    }
}

#[test]
fn errors_name_the_innermost_path_and_position() {
    let err = read_slice_tracking::<Widget>(
        br#"{"spec": {"ports": [{"port": 1}, {"port": "http"}]}}"#,
        false,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"spec.ports[1].port: invalid type: string "http", expected i32 at line 1 column 48"#
    );
    let err =
        read_slice_tracking::<Widget>(br#"{"spec": {"byName": {"a": {"port": 1.5}}}}"#, false)
            .unwrap_err();
    assert_eq!(err.path, "spec.byName.a.port");
    assert_eq!(
        err.error.to_string(),
        "invalid type: floating point `1.5`, expected i32 at line 1 column 38"
    );
    let err = read_slice_tracking::<Widget>(b"[1]", false).unwrap_err();
    assert_eq!(
        (err.path.as_str(), err.error.to_string().as_str()),
        (
            "",
            "invalid type: sequence, expected a Widget object at line 1 column 0"
        )
    );
    let err = read_slice_tracking::<Spec>(b"[1]", false).unwrap_err();
    assert_eq!(
        err.error.to_string(),
        "invalid type: sequence, expected struct Spec at line 1 column 1"
    );
}

#[test]
fn lists_come_back_at_their_exact_length() {
    // What a decoded object keeps: no spare room in any list, nested ones included.
    for (json, len) in [("[]", 0), ("[7]", 1), ("[1, 2]", 2), ("[1, 2, 3, 4, 5]", 5)] {
        let read = read_slice_tracking::<Vec<i64>>(json.as_bytes(), false).unwrap();
        assert_eq!(
            (read.value.len(), read.value.capacity()),
            (len, len),
            "{json}"
        );
    }
    let read =
        read_slice_tracking::<Vec<Vec<String>>>(br#"[["a"], ["b", "c", "d"]]"#, false).unwrap();
    let shapes: Vec<_> = read.value.iter().map(|v| (v.len(), v.capacity())).collect();
    assert_eq!(shapes, [(1, 1), (3, 3)]);
    assert_eq!(read.value.capacity(), 2);
}

#[test]
fn lists_and_maps_read_through_their_sinks() {
    // Empty and nested lists, empty maps: what `ReadElements`/`ReadEntries` collect.
    let read = read_slice_tracking::<Spec>(
        br#"{"ports": [], "labels": {}, "nested": [[], [1, 2], []], "byName": {}}"#,
        false,
    )
    .unwrap();
    assert_eq!(read.value.nested, Some(vec![vec![], vec![1, 2], vec![]]));
    assert!(read.value.ports.is_empty() && read.value.by_name.is_empty());
    // A failing element names every index on the way down, a failing entry its key.
    let err = read_slice_tracking::<Spec>(br#"{"nested": [[1], [2, "x"]]}"#, false).unwrap_err();
    assert_eq!(err.path, "nested[1][1]");
    let err = read_slice_tracking::<std::collections::HashMap<String, Vec<Port>>>(
        br#"{"a": [], "b": [{"port": 1}, {"port": true}]}"#,
        false,
    )
    .unwrap_err();
    assert_eq!(err.path, "b[1].port");
    // A struct's fields through `ReadFields`, a repeated list key replacing the first.
    let read = read_slice_tracking::<Spec>(
        br#"{"ports": [{"port": 1}], "ports": [{"port": 2}, {"port": 3}]}"#,
        false,
    )
    .unwrap();
    let ports: Vec<i32> = read.value.ports.iter().map(|p| p.port).collect();
    assert_eq!(ports, [2, 3]);
    agree_all(br#"{"nested": [[1], [2, "x"]]}"#);
    agree_all(br#"[{"port": 1}, {"port": 2, "name": [1]}]"#);
}

#[test]
fn null_reads_as_the_zero_value_or_none() {
    let read = read_slice_tracking::<Spec>(
        br#"{"ports": null, "labels": null, "nested": null, "metadata": null,
             "byName": {"a": {"port": null, "name": null, "enabled": null}}}"#,
        false,
    )
    .unwrap();
    assert_eq!(read.value.by_name["a"], Port::default());
    assert_eq!(read.value.nested, None);
    assert!(read.value.ports.is_empty() && read.value.labels.is_empty());
}

#[test]
fn repeated_keys_keep_the_last_value_and_are_not_vouched_for() {
    let read = read_slice_tracking::<Spec>(
        br#"{"labels": {"a": "1", "a": "2"}, "ports": [{"port": 1, "port": 2}]}"#,
        true,
    )
    .unwrap();
    assert_eq!(
        (read.value.labels["a"].as_str(), read.value.ports[0].port),
        ("2", 2)
    );
    assert!(!read.no_duplicate_keys);
    let read = read_slice_tracking::<Spec>(br#"{"labels": {"a": "1", "b": "2"}}"#, true).unwrap();
    assert!(read.no_duplicate_keys);
}

/// The leaf types' out-of-line field reads (`read_into`, `read_into_or_default`,
/// `read_option_into`): a repeated key replaces the value, `null` resets a plain field to
/// its zero value and an `Option` to `None`, absent keys keep the zero value, and a
/// failing leaf names its path.
#[test]
fn leaf_fields_are_replaced_by_a_repeated_key_or_null() {
    let text = br#"{"port": 1, "port": 2, "name": "a", "name": null, "protocol": "TCP",
        "protocol": null, "weight": 1.5, "weight": null, "small": 3, "ratio": 0.5,
        "ratio": null, "enabled": true, "enabled": null, "target": "x", "target": 9}"#;
    let read = read_slice_tracking::<Port>(text, true).unwrap();
    assert_eq!(
        read.value,
        Port {
            port: 2,
            small: 3,
            target: Some(IntOrString::Int(9)),
            ..Port::default()
        }
    );
    assert!(!read.no_duplicate_keys);
    agree_all(text);
    let read =
        read_slice_tracking::<Port>(br#"{"name": null, "name": "b", "x": 1}"#, true).unwrap();
    assert_eq!(read.value.name.as_deref(), Some("b"));
    assert_eq!(read.unknown_fields, ["x"]);
    for (text, path, message) in [
        (
            &br#"[{"port": 1}, {"small": 300}]"#[..],
            "[1].small",
            "invalid value: integer `300`, expected u8 at line 1 column 27",
        ),
        (
            br#"[{"name": 1}]"#,
            "[0].name",
            "invalid type: integer `1`, expected a string at line 1 column 11",
        ),
        (
            br#"[{"enabled": "yes"}]"#,
            "[0].enabled",
            r#"invalid type: string "yes", expected a boolean at line 1 column 18"#,
        ),
        (br#"[{"target": [1]}]"#, "[0].target", ""),
    ] {
        let err = read_slice_tracking::<Vec<Port>>(text, false).unwrap_err();
        assert_eq!(err.path, path, "{}", String::from_utf8_lossy(text));
        if !message.is_empty() {
            assert_eq!(err.error.to_string(), message);
        }
        agree_all(text);
    }
}

#[test]
fn unknown_fields_are_listed_with_their_paths() {
    let read = read_slice_tracking::<Widget>(
        br#"{"kind": "Widget", "top": 1, "spec": {"ports": [{"port": 1, "extra": {"d": 1}}],
             "metadata": {"bogus": true}}, "extras": [{}, {"x": []}]}"#,
        true,
    )
    .unwrap();
    assert_eq!(
        read.unknown_fields,
        [
            "top",
            "spec.ports[0].extra",
            "spec.metadata.bogus",
            "extras[1].x"
        ]
    );
    assert!(read.seen.declares(None, Some("Widget")));
    assert_eq!(read.value.type_meta.kind, "Widget");
    let read = read_slice_tracking::<Gadget>(br#"{"kind": "Gadget", "count": 2}"#, true).unwrap();
    assert_eq!(
        (read.value.count, read.unknown_fields),
        (2, vec!["kind".to_owned()])
    );
}

#[test]
fn serde_derived_fields_read_through_serde() {
    let read = read_slice_tracking::<Spec>(
        br#"{"limits": {"cpu": "1"}, "limitList": null, "ports": [{"port": 1}]}"#,
        true,
    )
    .unwrap();
    assert_eq!(read.value.limits.unwrap().cpu, "1");
    let err = read_slice_tracking::<Spec>(br#"{"limitList": [{"cpu": "1", "gpu": 1}]}"#, false)
        .unwrap_err();
    assert_eq!(err.path, "limitList[0]");
    assert!(
        err.error.to_string().starts_with("unknown field `gpu`"),
        "{err}"
    );
}

#[test]
fn raw_extensions_keep_their_bytes() {
    let read =
        read_slice_tracking::<Spec>(br#"{"raw": {"kind" : "Pod", "n": 1.50}}"#, false).unwrap();
    assert_eq!(
        read.value.raw.unwrap().raw,
        br#"{"kind" : "Pod", "n": 1.50}"#
    );
}

/// Every value in `v`, by JSON pointer.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, e)| pointers(e, format!("{at}/{i}"), out)),
        Value::Object(m) => m.iter().for_each(|(k, e)| {
            pointers(
                e,
                format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                out,
            )
        }),
        _ => {}
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e3f64..1e3).prop_map(Value::from),
        "[a-z0-9.\"\\\\]{0,6}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "port", "name", "ports", "labels", "kind", "x", "spec", "a"
                ]),
                inner,
                0..4
            )
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

proptest! {
    #[test]
    fn agrees_with_serde_on_altered_objects(
        at in any::<prop::sample::Index>(),
        with in json_value(),
        pretty in any::<bool>(),
    ) {
        let mut doc = widget();
        let mut all = Vec::new();
        pointers(&doc, String::new(), &mut all);
        let pointer = &all[at.index(all.len())];
        if let Some(slot) = doc.pointer_mut(pointer) {
            *slot = with;
        }
        let text = if pretty { serde_json::to_vec_pretty(&doc) } else { serde_json::to_vec(&doc) };
        let text = text.unwrap();
        agree::<Widget>(&text)?;
        agree::<Spec>(&text)?;
    }

    #[test]
    fn agrees_with_serde_on_damaged_objects(
        at in any::<prop::sample::Index>(),
        byte in prop::sample::select(&b"\"\\,:[]{}0-.eE \nx\x01\xff"[..]),
        cut in any::<bool>(),
    ) {
        let mut text = serde_json::to_vec(&widget()).unwrap();
        let i = at.index(text.len() + 1);
        if cut {
            text.truncate(i);
        } else {
            text.insert(i, byte);
        }
        agree::<Widget>(&text)?;
        agree::<Spec>(&text)?;
    }

    #[test]
    fn agrees_with_serde_on_arbitrary_bytes(text in prop::collection::vec(
        prop::sample::select(&b"{}[]\",:0123456789-+.eE \ntrufalsn\\u\x00\xc3\xa9\xffportkindspec"[..]),
        0..40,
    )) {
        agree::<Widget>(&text)?;
        agree::<Vec<Port>>(&text)?;
        agree::<BTreeMap<String, Option<Port>>>(&text)?;
    }
}

/// A serde-read type without `Default` can still be read through `read_json_by_serde!`
/// (its out-of-line field reads do not ask for a zero value).
#[test]
fn serde_read_types_need_no_default() {
    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Mode(String);
    crate::read_json_by_serde!(Mode);
    let read = read_slice_tracking::<Option<Mode>>(br#""rw""#, false).unwrap();
    assert_eq!(read.value, Some(Mode("rw".into())));
    let read = read_slice_tracking::<Option<Mode>>(b"null", false).unwrap();
    assert_eq!(read.value, None);
}

/// The derived key tables (names grouped by length, several per length here: `port`,
/// `name`; `protocol`, `weight`...) find every field, and only exact names.
#[test]
fn every_json_name_finds_its_field_and_near_misses_are_unknown() {
    let read = read_slice_tracking::<Port>(
        br#"{"port": 1, "name": "n", "protocol": "TCP", "weight": 0.5, "small": 2,
             "ratio": 0.25, "enabled": true, "target": "http",
             "Port": 9, "nam": 9, "names": 9, "protocoL": 9, "": 9, "targets": 9}"#,
        true,
    )
    .unwrap();
    assert_eq!(
        read.value,
        Port {
            port: 1,
            name: Some("n".into()),
            protocol: "TCP".into(),
            weight: Some(0.5),
            small: 2,
            ratio: 0.25,
            enabled: true,
            target: Some(IntOrString::String("http".into())),
        }
    );
    assert_eq!(
        read.unknown_fields,
        ["Port", "nam", "names", "protocoL", "", "targets"]
    );
    // An object's `kind` and `apiVersion` (indexes 0 and 1) beside its own fields, and a
    // renamed field under its JSON name only.
    let read = read_slice_tracking::<Widget>(
        br#"{"apiVersion": "readjson.test.example/v1", "kind": "Widget",
             "spec": {"metadata": {"name": "m"}, "meta": {}}, "type_meta": 1, "typeMeta": 1}"#,
        true,
    )
    .unwrap();
    assert_eq!(read.value.type_meta.api_version, "readjson.test.example/v1");
    assert_eq!(read.value.spec.meta.name, "m");
    assert_eq!(read.unknown_fields, ["spec.meta", "type_meta", "typeMeta"]);
}
