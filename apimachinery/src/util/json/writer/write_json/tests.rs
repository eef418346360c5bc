//! `WriteJson` against the types' serde `Serialize` through the same writer: the same
//! text, compact and indented, and the same errors.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::{Value, json};

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
    #[api(skip_serializing_if = "Vec::is_empty")]
    hosts: Vec<String>,
    #[api(nullable)]
    selector: Option<BTreeMap<String, String>>,
}

/// A serde-only type inside a derived struct: written through its `Serialize`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
struct Limits {
    cpu: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    memory: Option<u64>,
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
    #[api(nullable)]
    maybe_limits: Option<Vec<Limits>>,
}

#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
#[api(
    group = "writejson.test.example",
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

#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
#[api(
    group = "writejson.test.example",
    version = "v1",
    kind = "Gadget",
    not_resource
)]
struct Gadget {
    metadata: ObjectMeta,
    count: i64,
}

#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
#[api(
    group = "writejson.test.example",
    version = "v1",
    kind = "Nested",
    not_resource,
    omit_empty_type_meta
)]
struct Nested {
    type_meta: TypeMeta,
    metadata: ObjectMeta,
}

#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
#[api(
    group = "writejson.test.example",
    version = "v1",
    kind = "Event",
    not_resource,
    no_type_meta
)]
struct Event {
    r#type: String,
    object: Option<RawExtension>,
}

/// Both writes of `value`, compact and indented: (WriteJson, serde).
fn both<T: WriteJson + Serialize>(value: &T) -> Vec<(String, String)> {
    [None, Some(&b"  "[..]), Some(&b"\t"[..])]
        .into_iter()
        .map(|indent| {
            fn writer<'w>(out: &'w mut Vec<u8>, indent: Option<&'w [u8]>) -> GoJsonWriter<'w> {
                match indent {
                    Some(indent) => GoJsonWriter::indented(out, indent),
                    None => GoJsonWriter::compact(out),
                }
            }
            let mut direct = Vec::new();
            let direct = match value.write_json(&mut writer(&mut direct, indent)) {
                Ok(()) => String::from_utf8_lossy(&direct).into_owned(),
                Err(e) => format!("error: {e}"),
            };
            let mut serde = Vec::new();
            let serde = match value.serialize(&mut writer(&mut serde, indent)) {
                Ok(()) => String::from_utf8_lossy(&serde).into_owned(),
                Err(e) => format!("error: {e}"),
            };
            (direct, serde)
        })
        .collect()
}

fn assert_same<T: WriteJson + Serialize>(value: &T) {
    for (direct, serde) in both(value) {
        assert_eq!(direct, serde);
    }
}

fn port(n: i32) -> Port {
    Port {
        port: n,
        name: Some(format!("p<{n}>")),
        protocol: "TCP".into(),
        weight: Some(0.5),
        small: 7,
        ratio: 1e21,
        enabled: true,
        target: Some(IntOrString::Int(n)),
        hosts: vec!["a&b".into(), "\u{2028}".into()],
        selector: Some(BTreeMap::from([("k".to_owned(), "v".to_owned())])),
    }
}

fn spec() -> Spec {
    let meta = ObjectMeta {
        name: "m".into(),
        labels: BTreeMap::from([("app".to_owned(), "x".to_owned())]),
        ..ObjectMeta::default()
    };
    Spec {
        ports: vec![port(1), Port::default()],
        labels: BTreeMap::from([("a".to_owned(), "1".to_owned())]),
        nested: Some(vec![vec![], vec![1, -2]]),
        by_name: BTreeMap::from([("http".to_owned(), port(80))]),
        quantity: Some("1500m".parse().unwrap()),
        raw: Some(RawExtension::from_raw(br#"{"a":[1,{"b":"<"}]}"#.to_vec())),
        any: Some(json!({"z": [1.5, null, "x"], "a": {}})),
        time: Some(Time::default()),
        boxed: Some(Box::new(port(2))),
        meta,
        limits: Some(Limits {
            cpu: "1".into(),
            memory: Some(3),
        }),
        limit_list: vec![Limits::default()],
        maybe_limits: None,
    }
}

#[test]
fn derived_structs_write_what_their_serialize_writes() {
    assert_same(&Port::default());
    assert_same(&port(3));
    assert_same(&Spec::default());
    assert_same(&spec());
    assert_same(&Widget::default());
    let mut widget = Widget {
        spec: spec(),
        extras: Some(vec![Spec::default(), spec()]),
        ..Widget::default()
    };
    assert_same(&widget);
    widget.type_meta.kind = "Other".into();
    widget.type_meta.api_version = "x/v2".into();
    assert_same(&widget);
    assert_same(&Gadget::default());
    assert_same(&Nested::default());
    let mut nested = Nested::default();
    nested.type_meta.kind = "Nested".into();
    assert_same(&nested);
    assert_same(&Event::default());
    assert_same(&Event {
        r#type: "ADDED".into(),
        object: Some(RawExtension::from_raw(b"{\"kind\":\"Pod\"}".to_vec())),
    });
    assert_same(&vec![Some(port(1)), None]);
}

#[test]
fn the_first_error_is_returned_and_nothing_is_written_after_it() {
    let bad = Port {
        weight: Some(f64::NAN),
        ratio: f32::INFINITY,
        ..port(1)
    };
    for (direct, serde) in both(&bad) {
        assert!(direct.starts_with("error: "), "{direct}");
        assert_eq!(direct, serde);
    }
    let mut out = Vec::new();
    assert!(
        bad.write_json(&mut GoJsonWriter::compact(&mut out))
            .is_err()
    );
    assert_eq!(
        String::from_utf8_lossy(&out),
        r#"{"port":1,"name":"p\u003c1\u003e","protocol":"TCP","weight":"#
    );
    // Inside a list and a map, too.
    assert_same(&vec![port(1), bad.clone()]);
    assert_same(&BTreeMap::from([("b".to_owned(), bad)]));
}

#[test]
fn objects_encode_through_write_json() {
    use crate::runtime::Object;
    let widget = Widget {
        spec: spec(),
        ..Widget::default()
    };
    for layout in [
        crate::util::json::JsonLayout::Compact,
        crate::util::json::JsonLayout::Pretty,
    ] {
        let mut encoded = Vec::new();
        widget.encode_json(&mut encoded, layout).unwrap();
        let mut serde = Vec::new();
        crate::util::json::encode_go_json(&widget, &mut serde, layout).unwrap();
        assert_eq!(String::from_utf8(encoded), String::from_utf8(serde));
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "[a-z<>&\u{2028}\"\\\\\n]{0,6}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z<]{0,3}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn agrees_with_serialize_on_generated_values(
        any in prop::option::of(json_value()),
        name in prop::option::of("[a-z<&\u{e9}]{0,5}"),
        hosts in prop::collection::vec("[a-z\"]{0,3}", 0..3),
        labels in prop::collection::btree_map("[a-z]{0,3}", "[a-z>]{0,3}", 0..3),
        weight in prop::option::of(any::<f64>()),
        nested in prop::option::of(prop::collection::vec(prop::collection::vec(any::<i64>(), 0..3), 0..3)),
    ) {
        let mut spec = spec();
        spec.any = any;
        spec.labels = labels.clone();
        spec.nested = nested;
        spec.ports[0].name = name;
        spec.ports[0].hosts = hosts;
        spec.ports[0].weight = weight;
        spec.ports[1].selector = Some(labels);
        for (direct, serde) in both(&spec) {
            prop_assert_eq!(direct, serde);
        }
    }
}

/// Keys the derive quotes at compile time, with every kind of escape.
#[derive(crate::ApiType, Clone, Debug, Default, PartialEq)]
struct OddKeys {
    #[api(rename = "a<b>&\"c\\\u{2028}\u{2029}\n\t\u{1}é…")]
    odd: i32,
    plain: String,
}

#[test]
fn keys_quoted_by_the_derive_are_escaped_as_the_writer_escapes_map_keys() {
    let value = OddKeys {
        odd: 1,
        plain: "x".into(),
    };
    // A map writes its keys through the writer's own escaping, at run time.
    let map = json!({"a<b>&\"c\\\u{2028}\u{2029}\n\t\u{1}é…": 1, "plain": "x"});
    for indent in [None, Some(&b"  "[..])] {
        let (mut direct, mut by_map) = (Vec::new(), Vec::new());
        match indent {
            Some(indent) => {
                value
                    .write_json(&mut GoJsonWriter::indented(&mut direct, indent))
                    .unwrap();
                map.serialize(&mut GoJsonWriter::indented(&mut by_map, indent))
                    .unwrap();
            }
            None => {
                value
                    .write_json(&mut GoJsonWriter::compact(&mut direct))
                    .unwrap();
                map.serialize(&mut GoJsonWriter::compact(&mut by_map))
                    .unwrap();
            }
        }
        assert_eq!(String::from_utf8(direct), String::from_utf8(by_map));
    }
}
