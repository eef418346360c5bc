use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::Value;

use super::*;
use crate::runtime::RawExtension;

#[derive(Debug, Default, PartialEq, serde::Deserialize)]
struct Port {
    port: i32,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Debug, Default, PartialEq, serde::Deserialize)]
struct Spec {
    ports: Vec<Port>,
    #[serde(default)]
    labels: BTreeMap<String, String>,
}

/// What serde_json makes of `text` as a `T`, as a comparable string.
fn serde_json_says<T: serde::de::DeserializeOwned + fmt::Debug>(text: &[u8]) -> String {
    match serde_json::from_slice::<T>(text) {
        Ok(v) => format!("ok {v:?}"),
        Err(e) => format!("err {e}"),
    }
}

fn reader_says<T: serde::de::DeserializeOwned + fmt::Debug>(text: &[u8]) -> String {
    match from_slice::<T>(text) {
        Ok(v) => format!("ok {v:?}"),
        Err(e) => format!("err {e}"),
    }
}

use std::fmt;

fn same<T: serde::de::DeserializeOwned + fmt::Debug>(text: &str) {
    assert_eq!(
        reader_says::<T>(text.as_bytes()),
        serde_json_says::<T>(text.as_bytes()),
        "{text}"
    );
}

#[test]
fn values_and_messages_are_serde_jsons() {
    for text in [
        "null",
        " true ",
        "[1, -2, 3.5, 1e3, -0, 18446744073709551615, 18446744073709551616, -9223372036854775808, -9223372036854775809]",
        r#"{"a": {"b": [null, "x\u00e9\ud83d\ude00\n"]}, "c": 1.7976931348623157e308}"#,
        "1e400",
        "-1e400",
        "1e-400",
        "0e99999999999",
        "1e99999999999",
        "0.1",
        "2.2250738585072011e-308",
        "[1,]",
        "[1 2]",
        "{\"a\" 1}",
        "{\"a\":1,}",
        "{1:2}",
        "{\"a\":1 \"b\"}",
        "[",
        "{",
        "\"abc",
        "tru",
        "nul",
        "01",
        "1.",
        "1.e5",
        "1e",
        "1e+",
        "-",
        "-a",
        "[] x",
        "\"\\x\"",
        "\"\\ud800\"",
        "\"\\ud800\\u0041\"",
        "\"\\udc00\"",
        "\"\\ud800x\"",
        "\"\\u12\"",
        "\"\\u12g4\"",
        "\"a\u{1}b\"",
        "\n\n  [1,\n  x]",
        "",
        "   ",
    ] {
        same::<Value>(text);
    }
}

#[test]
fn invalid_utf8_is_refused_where_serde_json_refuses_it() {
    for text in [
        &b"\"ab\xffc\""[..],
        b"\"a\\n\xff\"",
        b"{\"a\":\"\xc3\"}",
        b"[\"\xe2\x82\xac\"]",
    ] {
        assert_eq!(
            reader_says::<Value>(text),
            serde_json_says::<Value>(text),
            "{text:?}"
        );
    }
    // Ignored strings are skipped unchecked, by both.
    let text = b"{\"ports\":[],\"x\":\"\xff\"}";
    assert_eq!(reader_says::<Spec>(text), serde_json_says::<Spec>(text));
}

#[test]
fn indentation_of_any_width_is_skipped_and_errors_after_it_are_placed_as_serde_json_places_them() {
    // Runs of spaces around the eight skipped at once, with tabs and CRLF mixed in, then a
    // value, a bad token or the end: the values and the line and column of each error.
    for width in [0, 1, 7, 8, 9, 15, 16, 17, 24, 33] {
        let pad = " ".repeat(width);
        for text in [
            format!("{{\n{pad}\"a\": [\n{pad}1,\n{pad}\t2\r\n{pad}]\n{pad}}}"),
            format!("{{\n{pad}\"a\": x\n}}"),
            format!("[\n{pad}1,\n{pad}"),
            format!("\n{pad}"),
            format!("{{\"a\": \"\\u00e9\n{pad}\"}}"),
        ] {
            same::<Value>(&text);
        }
        let bad = [b"[\n".as_slice(), pad.as_bytes(), b"\"\xff\"]"].concat();
        assert_eq!(reader_says::<Value>(&bad), serde_json_says::<Value>(&bad));
    }
}
#[test]
fn typed_reads_match_serde_json() {
    same::<Spec>(r#"{"ports":[{"port":1,"name":"a"},{"port":2,"name":null}],"labels":{"a":"b"}}"#);
    same::<Spec>(r#"{"ports":[{"port":"http"}]}"#);
    same::<Spec>(r#"{"ports":[{"port":1.5}]}"#);
    same::<Spec>(r#"{"ports":[{"port":4294967296}]}"#);
    same::<Spec>(r#"{"ports":[{"name":"x"}]}"#);
    same::<Spec>(r#"{"ports":{}}"#);
    same::<Spec>(r#"[[{"port":1}]]"#);
    same::<Spec>(r#"{"ports":[],"labels":{"a":1}}"#);
    same::<Spec>(r#"{"ports":[],"labels":{"a":"b","a":"c"}}"#);
    same::<Spec>(r#"{"ports":[], "ports":[]}"#);
    same::<Vec<f32>>("[0.1, 3.4028235e38, 3.5e38, 1e-50]");
    same::<(u8, i8)>("[255, -128]");
    same::<(u8, i8)>("[256, 0]");
    same::<i128>("-170141183460469231731687303715884105728");
    same::<u128>("340282366920938463463374607431768211455");
    same::<u128>("-1");
    same::<BTreeMap<u32, bool>>(r#"{"1": true, "22": false}"#);
    same::<BTreeMap<u32, bool>>(r#"{"x": true}"#);
    same::<BTreeMap<u32, bool>>(r#"{"1x": true}"#);
    same::<BTreeMap<i128, u8>>(r#"{"-5": 1, "7": 2}"#);
    same::<BTreeMap<u128, u8>>(r#"{"-5": 1}"#);
    same::<BTreeMap<u128, u8>>(r#"{"x": 1}"#);
    same::<BTreeMap<bool, u8>>(r#"{"true": 1, "false": 2}"#);
    same::<BTreeMap<bool, u8>>(r#"{"xyz": 1}"#);
    same::<BTreeMap<bool, u8>>(r#"{"tru": 1}"#);
    same::<Vec<(String, u8)>>(r#"[["1.5", 1]]"#);
    same::<BTreeMap<String, Option<char>>>(r#"{"a": "b", "c": null, "d": "ef"}"#);
    same::<Vec<u8>>("[1, 2]");
    same::<serde_bytes_like::Buf>(r#""a\u0000b""#);
    same::<Option<Vec<()>>>("[null, null]");
    same::<Option<Vec<()>>>("[null, 1]");
}

/// A byte buffer read through `deserialize_bytes`.
mod serde_bytes_like {
    #[derive(Debug)]
    pub struct Buf(#[allow(dead_code)] pub Vec<u8>);

    impl<'de> serde::Deserialize<'de> for Buf {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl serde::de::Visitor<'_> for V {
                type Value = Buf;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("bytes")
                }
                fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Buf, E> {
                    Ok(Buf(v.to_vec()))
                }
            }
            d.deserialize_bytes(V)
        }
    }
}

#[test]
fn enums_read_as_serde_json_reads_them() {
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    enum E {
        Unit,
        New(u8),
        Tuple(u8, u8),
        Struct { a: u8 },
    }
    for text in [
        r#""Unit""#,
        r#"{"Unit":null}"#,
        r#"{"New":3}"#,
        r#"{"Tuple":[1,2]}"#,
        r#"{"Struct":{"a":1}}"#,
        r#""New""#,
        r#""Nope""#,
        r#"{"New":3,"x":1}"#,
        r#"{"Nope":1}"#,
        r#"{}"#,
        r#"{3:1}"#,
        r#"{"Unit":1}"#,
        r#"{"Struct":[1]}"#,
        "3",
    ] {
        same::<E>(text);
    }
}

#[test]
fn borrowed_strings_are_borrowed() {
    let text = br#"["plain", "esc\"aped"]"#;
    let v: Vec<std::borrow::Cow<'_, str>> = from_slice(text).unwrap();
    let _ = v;
    let plain: Vec<&str> = from_slice(br#"["plain"]"#).unwrap();
    assert_eq!(plain, ["plain"]);
    let err = from_slice::<Vec<&str>>(br#"["esc\"aped"]"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        serde_json::from_slice::<Vec<&str>>(br#"["esc\"aped"]"#)
            .unwrap_err()
            .to_string()
    );
}

#[test]
fn errors_name_the_innermost_path() {
    let err = from_slice_tracking::<Spec>(br#"{"ports": [{"port": 1}, {"port": "http"}]}"#, false)
        .unwrap_err();
    assert_eq!(err.path, "ports[1].port");
    assert_eq!(
        err.to_string(),
        r#"ports[1].port: invalid type: string "http", expected i32 at line 1 column 39"#
    );
    let err =
        from_slice_tracking::<Spec>(br#"{"ports": [{"p\u006frt": "x"}]}"#, false).unwrap_err();
    assert_eq!(err.path, "ports[0].port");
    let err = from_slice_tracking::<Spec>(b"\"no\"", false).unwrap_err();
    assert_eq!(err.path, "");
    // A syntax error deep down names where it was met.
    let err = from_slice_tracking::<Spec>(br#"{"ports": [{"port": 1, }]}"#, false).unwrap_err();
    assert_eq!(
        (err.path.as_str(), err.error.category()),
        ("ports[0]", Category::Syntax)
    );
}

#[test]
fn unknown_fields_are_listed_in_document_order_when_asked() {
    let text = br#"{"top": 1, "ports": [{"port": 1, "extra": {"deep": 1}}],
                    "labels": {"a": "b"}, "b\u0061d": [1]}"#;
    let read = from_slice_tracking::<Spec>(text, true).unwrap();
    assert_eq!(read.unknown_fields, ["top", "ports[0].extra", "bad"]);
    let read = from_slice_tracking::<Spec>(text, false).unwrap();
    assert!(read.unknown_fields.is_empty());
}

#[test]
fn raw_values_get_the_text_verbatim() {
    let text = br#"{"a": [1, {"b" : "c"}] }"#;
    let raw: Box<serde_json::value::RawValue> = from_slice(text).unwrap();
    assert_eq!(raw.get(), r#"{"a": [1, {"b" : "c"}] }"#);
    let ext: BTreeMap<String, RawExtension> =
        from_slice(br#"{"x": {"kind" : "Pod", "n": 1.50}}"#).unwrap();
    assert_eq!(ext["x"].raw, br#"{"kind" : "Pod", "n": 1.50}"#);
    same::<Box<serde_json::value::RawValue>>("[1, 2");
    same::<Box<serde_json::value::RawValue>>("\"\\q\"");
}

#[test]
fn deep_input_hits_the_recursion_limit() {
    for depth in [127, 128, 10_000] {
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        same::<Value>(&text);
        let text = format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth));
        same::<Value>(&text);
    }
    // Skipped values have no limit, as in serde_json.
    let deep = format!(
        "{{\"ports\":[],\"x\":{}{}}}",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    same::<Spec>(&deep);
}

#[test]
fn the_top_level_type_meta_is_seen() {
    #[derive(Debug, Default, serde::Deserialize)]
    #[allow(dead_code)]
    struct Doc {
        kind: Option<String>,
        spec: Option<Value>,
    }
    let seen =
        |text: &'static str| from_slice_tracking::<Doc>(text.as_bytes(), false).map(|r| r.seen);
    let s = seen(r#"{"kind":"Pod","apiVersion":"v1","spec":{"kind":"Nested"}}"#).unwrap();
    assert!(s.declares(Some("v1"), Some("Pod")));
    assert!(!s.declares(Some("v1"), Some("Nested")));
    let s = seen(r#"{"spec":1,"apiVersion":null,"kind":"Pod"}"#).unwrap();
    assert!(s.declares(None, Some("Pod")));
    assert!(seen(r#"{"spec":1}"#).unwrap().declares(None, None));
    let map =
        from_slice_tracking::<BTreeMap<String, String>>(br#"{"kind":"Pod","kind":"Pod"}"#, false)
            .unwrap();
    assert_eq!(map.value["kind"], "Pod");
    assert!(!map.seen.declares(None, Some("Pod")));
    assert!(
        !seen(r#"{"\u006bind":"Pod"}"#)
            .unwrap()
            .declares(None, Some("Pod"))
    );
    assert!(
        !seen(r#"{"kind":"P\u006fd"}"#)
            .unwrap()
            .declares(None, Some("Pod"))
    );
    assert!(!seen(r#"{"apiVersion":3}"#).unwrap().declares(None, None));
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z\\\\\"]{0,4}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn agrees_with_serde_json_on_generated_json(value in json_value(), pretty in any::<bool>()) {
        let text = if pretty {
            serde_json::to_vec_pretty(&value).unwrap()
        } else {
            serde_json::to_vec(&value).unwrap()
        };
        prop_assert_eq!(reader_says::<Value>(&text), serde_json_says::<Value>(&text));
    }

    #[test]
    fn agrees_with_serde_json_on_damaged_json(
        value in json_value(),
        at in any::<prop::sample::Index>(),
        byte in prop::sample::select(&b"\"\\,:[]{}0-.eE \nx\x01\xff"[..]),
        cut in any::<bool>(),
    ) {
        let mut text = serde_json::to_vec(&value).unwrap();
        let i = at.index(text.len() + 1);
        if cut {
            text.truncate(i);
        } else {
            text.insert(i, byte);
        }
        prop_assert_eq!(reader_says::<Value>(&text), serde_json_says::<Value>(&text));
        prop_assert_eq!(reader_says::<Spec>(&text), serde_json_says::<Spec>(&text));
    }

    #[test]
    fn agrees_with_serde_json_on_arbitrary_bytes(text in prop::collection::vec(
        prop::sample::select(&b"{}[]\",:0123456789-+.eE \ntrufalsn\\u\x00\xc3\xa9\xff"[..]),
        0..40,
    )) {
        prop_assert_eq!(reader_says::<Value>(&text), serde_json_says::<Value>(&text));
        prop_assert_eq!(reader_says::<Spec>(&text), serde_json_says::<Spec>(&text));
        prop_assert_eq!(
            reader_says::<BTreeMap<u32, Option<String>>>(&text),
            serde_json_says::<BTreeMap<u32, Option<String>>>(&text)
        );
    }

    #[test]
    fn numbers_agree_with_serde_json(text in "-?(0|[1-9][0-9]{0,25})(\\.[0-9]{1,20})?([eE][-+]?[0-9]{1,4})?") {
        prop_assert_eq!(reader_says::<Value>(text.as_bytes()), serde_json_says::<Value>(text.as_bytes()));
        prop_assert_eq!(reader_says::<f32>(text.as_bytes()), serde_json_says::<f32>(text.as_bytes()));
        prop_assert_eq!(reader_says::<i64>(text.as_bytes()), serde_json_says::<i64>(text.as_bytes()));
    }
}

#[test]
fn positions_inside_visitor_messages_are_kept_as_serde_json_keeps_them() {
    struct Inner;
    impl<'de> serde::Deserialize<'de> for Inner {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let text = <&str>::deserialize(d)?;
            serde_json::from_str::<u8>(text)
                .map(|_| Inner)
                .map_err(serde::de::Error::custom)
        }
    }
    impl fmt::Debug for Inner {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("Inner")
        }
    }
    let text = br#"{"a": "  x"}"#;
    assert_eq!(
        reader_says::<BTreeMap<String, Inner>>(text),
        serde_json_says::<BTreeMap<String, Inner>>(text)
    );
    let err = from_slice::<BTreeMap<String, Inner>>(text).unwrap_err();
    assert_eq!(err.message(), "expected value at line 1 column 3");
    let err = from_slice::<Vec<u8>>(b"[1, true]").unwrap_err();
    assert_eq!(err.message(), "invalid type: boolean `true`, expected u8");
    assert_eq!((err.line(), err.column()), (1, 8));
}

#[test]
fn repeated_keys_are_vouched_for_only_when_the_reader_saw_every_key() {
    let clean = |text: &str| {
        from_slice_tracking::<Spec>(text.as_bytes(), true)
            .unwrap()
            .no_duplicate_keys
    };
    assert!(clean(
        r#"{"ports":[{"port":1,"name":"a"},{"port":1,"name":"a"}],"labels":{"port":"x"}}"#
    ));
    // The same key in sibling and nested objects is no repeat.
    assert!(clean(
        r#"{"ports":[{"port":1}],"labels":{"ports":"x"},"x":"ports"}"#
    ));
    assert!(!clean(r#"{"ports":[],"labels":{"a":"b","a":"c"}}"#));
    assert!(!clean(r#"{"ports":[],"labels":{"a":"b","c":"d","a":"c"}}"#));
    // Escaped keys, objects inside skipped values, and large objects are not checked.
    assert!(!clean(r#"{"ports":[],"l\u0061bels":{}}"#));
    assert!(!clean(r#"{"ports":[],"x":{"a":1}}"#));
    let large: Vec<String> = (0..100).map(|i| format!("\"k{i}\":\"v\"")).collect();
    assert!(!clean(&format!(
        r#"{{"ports":[],"labels":{{{}}}}}"#,
        large.join(",")
    )));
    // Without tracking, nothing is vouched for.
    let read = from_slice_tracking::<Spec>(br#"{"ports":[]}"#, false).unwrap();
    assert!(!read.no_duplicate_keys);
}
