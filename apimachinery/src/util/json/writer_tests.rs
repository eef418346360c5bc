//! [`GoJsonWriter`] against Go's bytes and against `serde_json` with [`GoFormatter`],
//! whose output it must equal byte for byte (but for non-finite floats, where it
//! follows Go).

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::{GoFormatter, GoJsonWriter};

fn compact<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut out = Vec::new();
    value.serialize(&mut GoJsonWriter::compact(&mut out))?;
    Ok(String::from_utf8(out).unwrap())
}

fn indented<T: Serialize + ?Sized>(value: &T, indent: &[u8]) -> String {
    let mut out = Vec::new();
    value
        .serialize(&mut GoJsonWriter::indented(&mut out, indent))
        .unwrap();
    String::from_utf8(out).unwrap()
}

/// What `serde_json`'s serializer writes with `formatter`.
fn through_serde_json<T: Serialize + ?Sized>(value: &T, formatter: GoFormatter<'_>) -> String {
    let mut out = Vec::new();
    value
        .serialize(&mut serde_json::Serializer::with_formatter(
            &mut out, formatter,
        ))
        .unwrap();
    String::from_utf8(out).unwrap()
}

/// Asserts that both layouts (two indentation units) equal `serde_json` + `GoFormatter`.
fn assert_same_as_serde_json<T: Serialize + ?Sized>(value: &T) {
    assert_eq!(
        compact(value).unwrap(),
        through_serde_json(value, GoFormatter::compact())
    );
    for indent in [&b"  "[..], b"\t", b""] {
        assert_eq!(
            indented(value, indent),
            through_serde_json(value, GoFormatter::indented(indent)),
            "indent {indent:?}"
        );
    }
}

#[test]
fn strings_are_escaped_as_go_escapes_them() {
    let s = "a<b>&c\u{2028}\u{2029}\"\\\n\r\t\u{8}\u{c}\u{0}\u{1b}\u{1f}\u{7f}é😀\u{2026}\u{2013}\u{201C}";
    // Go's json.Marshal of the same string.
    assert_eq!(
        compact(s).unwrap(),
        "\"a\\u003cb\\u003e\\u0026c\\u2028\\u2029\\\"\\\\\\n\\r\\t\\b\\f\\u0000\\u001b\\u001f\u{7f}é😀\u{2026}\u{2013}\u{201C}\""
    );
    assert_same_as_serde_json(s);
    // Every byte below 0x80, alone and between others, at every offset.
    for b in 0u8..0x80 {
        let c = char::from(b);
        for s in [
            c.to_string(),
            format!("x{c}"),
            format!("{c}yz"),
            format!("ab{c}{c}cd"),
        ] {
            assert_eq!(
                compact(&s).unwrap(),
                through_serde_json(&s, GoFormatter::compact()),
                "{s:?}"
            );
        }
    }
    // A lead byte 0xE2 at the very end of the text, and U+2028/9 there.
    for s in [
        "x\u{2020}",
        "\u{2028}",
        "a\u{2029}",
        "\u{20ac}\u{2028}\u{20ac}",
    ] {
        assert_same_as_serde_json(s);
    }
    assert_eq!(compact(&'<').unwrap(), r#""\u003c""#);
}

#[test]
fn floats_are_written_as_go_writes_them() {
    let cases = [
        (0.0, "0"),
        (-0.0, "-0"),
        (1.0, "1"),
        (0.5, "0.5"),
        (1e20, "100000000000000000000"),
        (1e21, "1e+21"),
        (0.000001, "0.000001"),
        (0.0000001, "1e-7"),
        (-2.5e-8, "-2.5e-8"),
        (f64::MAX, "1.7976931348623157e+308"),
        (5e-324, "5e-324"),
    ];
    for (value, want) in cases {
        assert_eq!(compact(&value).unwrap(), want, "{value:?}");
        assert_same_as_serde_json(&value);
    }
    assert_eq!(compact(&0.1f32).unwrap(), "0.1");
    assert_eq!(compact(&1e21f32).unwrap(), "1e+21");
    assert_eq!(compact(&3.4028235e38f32).unwrap(), "3.4028235e+38");
}

#[test]
fn non_finite_floats_are_go_errors() {
    // serde_json writes `null` here; Go's encoder refuses.
    for (value, name) in [
        (f64::NAN, "NaN"),
        (f64::INFINITY, "+Inf"),
        (f64::NEG_INFINITY, "-Inf"),
    ] {
        let e = compact(&vec![value]).unwrap_err();
        assert_eq!(e.to_string(), format!("json: unsupported value: {name}"));
    }
    assert_eq!(
        compact(&f32::NAN).unwrap_err().to_string(),
        "json: unsupported value: NaN"
    );
}

#[test]
fn integers_and_scalars() {
    assert_eq!(compact(&i64::MIN).unwrap(), "-9223372036854775808");
    assert_eq!(compact(&u64::MAX).unwrap(), "18446744073709551615");
    assert_eq!(compact(&i128::MIN).unwrap(), i128::MIN.to_string());
    assert_eq!(compact(&u128::MAX).unwrap(), u128::MAX.to_string());
    assert_eq!(
        compact(&(-7i8, 200u8, -300i16, 60000u16)).unwrap(),
        "[-7,200,-300,60000]"
    );
    assert_eq!(
        compact(&(true, false, (), 'x')).unwrap(),
        r#"[true,false,null,"x"]"#
    );
    assert_same_as_serde_json(&(i64::MIN, u64::MAX, i128::MAX, u128::MAX, -0i32));
}

#[test]
fn empty_and_nested_collections_in_both_layouts() {
    let value = serde_json::json!({
        "a": {}, "b": [], "c": [1, {"d": null, "e": [[], {}, [[]]]}], "f": {"g": {"h": {}}}
    });
    assert_eq!(
        compact(&value).unwrap(),
        r#"{"a":{},"b":[],"c":[1,{"d":null,"e":[[],{},[[]]]}],"f":{"g":{"h":{}}}}"#
    );
    assert_eq!(
        indented(
            &serde_json::json!({"a": {}, "b": [], "c": [1, {"d": null}]}),
            b"  "
        ),
        "{\n  \"a\": {},\n  \"b\": [],\n  \"c\": [\n    1,\n    {\n      \"d\": null\n    }\n  ]\n}"
    );
    assert_same_as_serde_json(&value);
    assert_same_as_serde_json(&Vec::<Value>::new());
    assert_same_as_serde_json(&BTreeMap::<String, i32>::new());
    assert_same_as_serde_json(&vec![vec![vec![1]]]);
}

#[derive(Serialize)]
struct Unit;

#[derive(Serialize)]
struct Newtype(String);

#[derive(Serialize)]
struct Pair(i32, &'static str);

#[derive(Serialize)]
struct Empty {}

#[derive(Serialize, Clone, Debug)]
enum Shape {
    Plain,
    Wrapped(u32),
    Tuple(i32, String),
    EmptyTuple(),
    Record { x: f64, y: Option<String> },
    EmptyRecord {},
}

#[derive(Serialize)]
struct Outer {
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<i32>,
    none: Option<i32>,
    some: Option<Option<&'static str>>,
    unit: (),
    unit_struct: Unit,
    newtype: Newtype,
    pair: Pair,
    empty: Empty,
    shapes: Vec<Shape>,
    bytes: serde_bytes_like::Bytes,
    #[serde(flatten)]
    extra: BTreeMap<String, i32>,
}

/// `serialize_bytes` without a dependency: a type that hands its bytes over as bytes.
mod serde_bytes_like {
    pub struct Bytes(pub Vec<u8>);

    impl serde::Serialize for Bytes {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(&self.0)
        }
    }
}

fn outer() -> Outer {
    Outer {
        skipped: None,
        none: None,
        some: Some(Some("<x>")),
        unit: (),
        unit_struct: Unit,
        newtype: Newtype("n".into()),
        pair: Pair(-1, "p"),
        empty: Empty {},
        shapes: vec![
            Shape::Plain,
            Shape::Wrapped(7),
            Shape::Tuple(1, "t".into()),
            Shape::EmptyTuple(),
            Shape::Record {
                x: 1.5,
                y: Some("y".into()),
            },
            Shape::EmptyRecord {},
        ],
        bytes: serde_bytes_like::Bytes(vec![0, 1, 255]),
        extra: BTreeMap::from([("z&".to_owned(), 26)]),
    }
}

#[test]
fn every_shape_of_the_data_model() {
    let value = outer();
    assert_eq!(
        compact(&value).unwrap(),
        concat!(
            r#"{"none":null,"some":"\u003cx\u003e","unit":null,"unit_struct":null,"#,
            r#""newtype":"n","pair":[-1,"p"],"empty":{},"shapes":["Plain",{"Wrapped":7},"#,
            r#"{"Tuple":[1,"t"]},{"EmptyTuple":[]},{"Record":{"x":1.5,"y":"y"}},"#,
            r#"{"EmptyRecord":{}}],"bytes":[0,1,255],"z\u0026":26}"#
        )
    );
    assert_same_as_serde_json(&value);
}

#[test]
fn map_keys_are_written_as_serde_json_writes_them() {
    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    struct Key(u8);
    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    enum Variant {
        A,
    }
    assert_eq!(
        compact(&BTreeMap::from([(-1i32, 1), (2, 2)])).unwrap(),
        r#"{"-1":1,"2":2}"#
    );
    assert_same_as_serde_json(&BTreeMap::from([(u64::MAX, ()), (0, ())]));
    assert_same_as_serde_json(&BTreeMap::from([(i128::MIN, 1u8)]));
    assert_same_as_serde_json(&BTreeMap::from([(true, 1), (false, 0)]));
    assert_same_as_serde_json(&BTreeMap::from([('<', 1)]));
    assert_same_as_serde_json(&BTreeMap::from([(Key(3), "k")]));
    assert_same_as_serde_json(&BTreeMap::from([(Variant::A, "v")]));
    assert_same_as_serde_json(&BTreeMap::from([(Some("o"), 1)]));
    assert_eq!(
        compact(&std::collections::HashMap::from([(1.5f64.to_bits(), 1)])).unwrap(),
        format!("{{\"{}\":1}}", 1.5f64.to_bits())
    );

    /// A map whose keys are whatever its entries' serializations are.
    struct Entries<K>(Vec<K>);
    impl<K: Serialize> Serialize for Entries<K> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(self.0.iter().map(|k| (k, 0)))
        }
    }
    assert_eq!(compact(&Entries(vec![0.5f64])).unwrap(), r#"{"0.5":0}"#);
    assert_same_as_serde_json(&Entries(vec![1e21f64, -0.0]));
    assert_same_as_serde_json(&Entries(vec![1.5f32]));
    for bad in [
        compact(&Entries(vec![vec![1]])),
        compact(&Entries(vec![()])),
        compact(&Entries(vec![None::<i32>])),
        compact(&Entries(vec![Shape::Wrapped(1)])),
        compact(&Entries(vec![Unit])),
        compact(&Entries(vec![serde_bytes_like::Bytes(vec![1])])),
    ] {
        assert_eq!(bad.unwrap_err().to_string(), "key must be a string");
    }
    assert_eq!(
        compact(&Entries(vec![f64::NAN])).unwrap_err().to_string(),
        "float key must be finite (got NaN or +/-inf)"
    );
}

#[test]
fn maps_written_entry_by_entry_and_key_by_key() {
    /// A map that writes its keys and values in separate calls.
    struct Halves;
    impl Serialize for Halves {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut map = s.serialize_map(None)?;
            map.serialize_key("a")?;
            map.serialize_value(&1)?;
            map.serialize_entry(&2, &[3])?;
            map.end()
        }
    }
    assert_eq!(compact(&Halves).unwrap(), r#"{"a":1,"2":[3]}"#);
    assert_same_as_serde_json(&Halves);
}

#[test]
fn collected_strings_are_escaped() {
    struct Shown;
    impl Serialize for Shown {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(&format_args!("{}<{}>", 1, "\u{2028}"))
        }
    }
    assert_eq!(compact(&Shown).unwrap(), r#""1\u003c\u2028\u003e""#);
    assert_same_as_serde_json(&Shown);
}

#[test]
fn raw_values_go_out_as_they_are_and_are_reindented() {
    let raw =
        RawValue::from_string(r#"{"b":[1,{"c":"x,{}:[]\"y"}],"a":{},"e":[]}"#.to_owned()).unwrap();
    #[derive(Serialize)]
    struct Holder<'a> {
        outer: Vec<&'a RawValue>,
        scalar: &'a RawValue,
    }
    let scalar = RawValue::from_string("\"\\u003c\"".to_owned()).unwrap();
    let value = Holder {
        outer: vec![&raw],
        scalar: &scalar,
    };
    assert_eq!(
        compact(&value).unwrap(),
        r#"{"outer":[{"b":[1,{"c":"x,{}:[]\"y"}],"a":{},"e":[]}],"scalar":"\u003c"}"#
    );
    // What Go's json.MarshalIndent writes for the same RawMessage.
    assert_eq!(
        indented(&value, b"  "),
        "{\n  \"outer\": [\n    {\n      \"b\": [\n        1,\n        {\n          \"c\": \"x,{}:[]\\\"y\"\n        }\n      ],\n      \"a\": {},\n      \"e\": []\n    }\n  ],\n  \"scalar\": \"\\u003c\"\n}"
    );
    assert_same_as_serde_json(&value);
}

#[test]
fn raw_extensions_and_unknowns_go_out_as_go_writes_them() {
    use crate::runtime::{RawExtension, Unknown};
    let ext = RawExtension::from_raw(br#" { "kind" : "X", "a" : [ 1 , "<" ] } "#.to_vec());
    assert_eq!(compact(&ext).unwrap(), r#"{"kind":"X","a":[1,"\u003c"]}"#);
    assert_same_as_serde_json(&ext);
    let bad = RawExtension::from_raw(b"{".to_vec());
    assert!(
        compact(&bad)
            .unwrap_err()
            .to_string()
            .contains("raw bytes are not valid JSON"),
    );
    let unknown = Unknown {
        raw: br#"{"kind":"X"}"#.to_vec(),
        content_type: "application/json".into(),
        ..Unknown::default()
    };
    assert_same_as_serde_json(&unknown);
}

#[test]
fn a_raw_value_token_without_text_is_an_error() {
    struct NotRaw;
    impl Serialize for NotRaw {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            s.serialize_struct("$serde_json::private::RawValue", 0)?
                .end()
        }
    }
    assert!(compact(&NotRaw).is_err());
}

#[test]
fn output_is_appended() {
    let mut out = b"prefix:".to_vec();
    serde_json::json!([1])
        .serialize(&mut GoJsonWriter::pretty(&mut out))
        .unwrap();
    assert_eq!(out, b"prefix:[\n  1\n]");
}

/// Any JSON value with finite numbers and the strings that need care.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        (-30i32..30, -1e6f64..1e6).prop_map(|(e, m)| Value::from(m * 10f64.powi(e))),
        "[a<>&\"\\\\\u{0}-\u{1f}\u{7f}\u{2026}\u{2028}\u{2029}é😀]{0,12}".prop_map(Value::from),
        "\\PC{0,20}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec(("[a-z<&\u{2028}]{0,6}", inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// A typed value: what the derive writes (struct fields, options, sequences, string
/// maps, enums, newtypes), generated.
#[derive(Serialize, Debug, Clone)]
struct Typed {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<i32>,
    ratio: f32,
    labels: BTreeMap<String, String>,
    items: Vec<TypedItem>,
    shape: Shape,
}

#[derive(Serialize, Debug, Clone)]
struct TypedItem {
    key: Newtype2,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    values: Vec<u64>,
    nested: Option<Box<TypedItem>>,
}

#[derive(Serialize, Debug, Clone)]
struct Newtype2(String);

fn typed() -> impl Strategy<Value = Typed> {
    let shape = prop_oneof![
        Just(Shape::Plain),
        any::<u32>().prop_map(Shape::Wrapped),
        (any::<i32>(), "\\PC{0,6}").prop_map(|(a, b)| Shape::Tuple(a, b)),
        Just(Shape::EmptyTuple()),
        (-1e9f64..1e9, proptest::option::of("[<>x]{0,3}"))
            .prop_map(|(x, y)| Shape::Record { x, y }),
        Just(Shape::EmptyRecord {}),
    ];
    let leaf_item =
        ("[a<&]{0,4}", proptest::collection::vec(any::<u64>(), 0..3)).prop_map(|(key, values)| {
            TypedItem {
                key: Newtype2(key),
                values,
                nested: None,
            }
        });
    let item = (leaf_item.clone(), proptest::option::of(leaf_item)).prop_map(|(mut a, b)| {
        a.nested = b.map(Box::new);
        a
    });
    (
        "\\PC{0,10}",
        proptest::option::of(any::<i32>()),
        any::<f32>().prop_filter("finite", |f| f.is_finite()),
        proptest::collection::btree_map("[a-z/.<]{0,8}", "\\PC{0,8}", 0..4),
        proptest::collection::vec(item, 0..4),
        shape,
    )
        .prop_map(|(name, count, ratio, labels, items, shape)| Typed {
            name,
            count,
            ratio,
            labels,
            items,
            shape,
        })
}

proptest! {
    #[test]
    fn values_come_out_as_serde_json_with_go_formatter_writes_them(value in json_value()) {
        prop_assert_eq!(compact(&value).unwrap(), through_serde_json(&value, GoFormatter::compact()));
        prop_assert_eq!(indented(&value, b"  "), through_serde_json(&value, GoFormatter::pretty()));
    }

    #[test]
    fn typed_values_come_out_as_serde_json_with_go_formatter_writes_them(value in typed()) {
        prop_assert_eq!(compact(&value).unwrap(), through_serde_json(&value, GoFormatter::compact()));
        prop_assert_eq!(indented(&value, b"    "), through_serde_json(&value, GoFormatter::indented(b"    ")));
    }

    #[test]
    fn strings_come_out_as_serde_json_with_go_formatter_writes_them(s in "\\PC{0,40}|[\u{0}-\u{7f}\u{2026}\u{2028}\u{2029}]{0,40}") {
        prop_assert_eq!(compact(&s).unwrap(), through_serde_json(&s, GoFormatter::compact()));
    }
}

/// A kind with a float, written through the JSON and YAML serializers.
#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
#[api(group = "example.com", version = "v1", kind = "Gauge")]
struct Gauge {
    metadata: crate::apis::meta::v1::ObjectMeta,
    reading: f64,
    note: Option<String>,
}

#[test]
fn objects_are_written_through_the_writer_by_every_serializer() {
    use crate::serializer::Encoder;
    use crate::serializer::json::{JsonSerializer, SerializerOptions};

    let mut scheme = crate::runtime::Scheme::new();
    scheme.add_known_type::<Gauge>().unwrap();
    let mut gauge = Gauge {
        reading: 1e21,
        note: Some("<&>".into()),
        ..Gauge::default()
    };
    let json = JsonSerializer::new(&scheme, SerializerOptions::default());
    assert_eq!(
        String::from_utf8(json.encode_to_vec(&gauge).unwrap()).unwrap(),
        "{\"kind\":\"Gauge\",\"apiVersion\":\"example.com/v1\",\"metadata\":{},\"reading\":1e+21,\"note\":\"\\u003c\\u0026\\u003e\"}\n"
    );
    let yaml = JsonSerializer::new(
        &scheme,
        SerializerOptions {
            yaml: true,
            ..SerializerOptions::default()
        },
    );
    assert_eq!(
        String::from_utf8(yaml.encode_to_vec(&gauge).unwrap()).unwrap(),
        "apiVersion: example.com/v1\nkind: Gauge\nmetadata: {}\nnote: <&>\nreading: 1e+21\n"
    );
    // Go refuses to write NaN; every format says so, naming the type.
    gauge.reading = f64::NAN;
    for serializer in [&json, &yaml] {
        let e = serializer.encode_to_vec(&gauge).unwrap_err().to_string();
        assert!(e.contains("json: unsupported value: NaN"), "{e}");
        assert!(e.contains("Gauge"), "{e}");
    }
}

/// The derive's field writes: `Option` omitted when `None` (the value inside written
/// when set), `nullable` written as `null`, an explicit omit test, a plain field.
#[derive(crate::ApiType, Clone, Debug, Default, PartialEq)]
struct Fields {
    plain: String,
    optional: Option<Vec<i32>>,
    #[api(nullable)]
    nullable: Option<String>,
    #[api(skip_serializing_if = "Vec::is_empty")]
    omitted_when_empty: Vec<String>,
    nested: Option<Box<Fields>>,
}

#[test]
fn derived_fields_are_omitted_or_written_as_go_writes_them() {
    let empty = Fields::default();
    assert_eq!(compact(&empty).unwrap(), r#"{"plain":"","nullable":null}"#);
    let full = Fields {
        plain: "p".into(),
        optional: Some(vec![]),
        nullable: Some("<".into()),
        omitted_when_empty: vec!["x".into()],
        nested: Some(Box::new(Fields::default())),
    };
    assert_eq!(
        compact(&full).unwrap(),
        concat!(
            r#"{"plain":"p","optional":[],"nullable":"\u003c","omittedWhenEmpty":["x"],"#,
            r#""nested":{"plain":"","nullable":null}}"#
        )
    );
    assert_same_as_serde_json(&full);
}
