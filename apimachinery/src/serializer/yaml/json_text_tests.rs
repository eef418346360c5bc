//! The one-pass writer (`json_text_to_yaml`) against the `Value` path
//! (`json_to_yaml(&serde_json::from_slice(text))`), which the conformance tests hold to
//! Go's bytes: every JSON fixture, hand-picked orderings, and random JSON texts whose
//! keys come in any order, repeated or not.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde_json::Value;

use super::conformance_tests::{files_with_extension, testdata_dir};
use super::{json_text_to_yaml, json_to_yaml};

fn value_path(text: &[u8]) -> String {
    let value: Value = serde_json::from_slice(text).unwrap();
    json_to_yaml(&value)
}

fn assert_same(text: &str) {
    let want = value_path(text.as_bytes());
    let got = json_text_to_yaml(text.as_bytes()).unwrap();
    assert_eq!(got, want, "for {text}");
}

fn differences(files: &[PathBuf]) -> Vec<String> {
    let mut failures = Vec::new();
    for path in files {
        let text = std::fs::read(path).unwrap();
        let want = value_path(&text);
        // Go's compact text (what the serializer hands over) and the file as it is.
        let compact = serde_json::to_vec(&serde_json::from_slice::<Value>(&text).unwrap()).unwrap();
        for input in [&text, &compact] {
            let got = json_text_to_yaml(input).unwrap();
            if got != want {
                failures.push(format!("{}:\n{got}\nwant\n{want}", path.display()));
            }
        }
    }
    failures
}

#[test]
fn writes_every_upstream_fixture_as_the_value_path() {
    let Some(dir) = std::env::var_os("K8S_API_TESTDATA") else {
        eprintln!("note: K8S_API_TESTDATA is not set; upstream fixtures skipped");
        return;
    };
    let files = files_with_extension(Path::new(&dir), "json");
    assert!(files.len() >= 100, "only {} fixtures", files.len());
    let failures = differences(&files);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn writes_every_module_fixture_as_the_value_path() {
    let dir = testdata_dir();
    let mut files = Vec::new();
    for sub in ["", "input", "read"] {
        files.extend(files_with_extension(&dir.join(sub), "json"));
    }
    assert!(files.len() >= 20, "only {} fixtures", files.len());
    let failures = differences(&files);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn sorts_entries_of_mappings_in_sequences() {
    let text = r#"[{"name":"c","image":"nginx","ports":[{"protocol":"TCP","containerPort":80}]},{"b":1,"a":{"z":[],"y":{}}}]"#;
    assert_eq!(
        json_text_to_yaml(text.as_bytes()).unwrap(),
        "- image: nginx\n  name: c\n  ports:\n  - containerPort: 80\n    protocol: TCP\n- a:\n    \"y\": {}\n    z: []\n  b: 1\n"
    );
    assert_same(text);
}

#[test]
fn sorts_nested_mappings_in_go_yaml_order() {
    let text = r#"{"kind":"K","apiVersion":"v1","data":{"a10":1,"a2":2,"10":3,"9":4,"B":5,"_z":6,"a01":7,"a1":8}}"#;
    assert_eq!(
        json_text_to_yaml(text.as_bytes()).unwrap(),
        "apiVersion: v1\ndata:\n  _z: 6\n  \"9\": 4\n  \"10\": 3\n  B: 5\n  a1: 8\n  a01: 7\n  a2: 2\n  a10: 1\nkind: K\n"
    );
    assert_same(text);
}

#[test]
fn keeps_the_last_value_of_a_repeated_key() {
    let text = r#"{"b":{"x":1},"a":[1],"b":{"y":"2"},"a":[],"c":null}"#;
    assert_eq!(
        json_text_to_yaml(text.as_bytes()).unwrap(),
        "a: []\nb:\n  \"y\": \"2\"\nc: null\n"
    );
    assert_same(text);
}

#[test]
fn rewrites_breaks_after_literal_blocks_when_reordering() {
    // A literal block that ends in a newline leaves the line at column 0, so the entry
    // after it needs no break; moved elsewhere, it does.
    for text in [
        r#"{"b":"x\n","a":"y\n\n","c":{"e":"z\n","d":1}}"#,
        r#"[{"b":"x\n","a":1},{"b":2,"a":"y\n"}]"#,
        r#"{"k":[{"z":" q\n","y":"|\n"}],"j":"\n"}"#,
        r#"{"b":[],"a":{}}"#,
        r#"[[],[{}],{"b":[[]],"a":[[1]]}]"#,
    ] {
        assert_same(text);
    }
}

#[test]
fn writes_scalars_and_empty_documents_as_the_value_path() {
    for text in [
        "null",
        "true",
        "1",
        "-9223372036854775808",
        "18446744073709551615",
        "1e21",
        "1.0",
        "-0.0",
        "-0",
        "1e-7",
        "123456789.5",
        r#""""#,
        r#""yes""#,
        r#""a\u0085b""#,
        r#""\u2028 \ufeffx""#,
        "{}",
        "[]",
        " [ 1 , { } ] ",
    ] {
        assert_same(text);
    }
}

#[test]
fn reports_where_the_text_is_not_json() {
    for (text, line, column) in [
        ("{\"a\":", 1, 5),
        ("{\"a\":1}\n{", 2, 1),
        ("[1,\n2,]", 2, 3),
    ] {
        let err = json_text_to_yaml(text.as_bytes()).unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains(&format!("line {line}"))
                && message.contains(&format!("column {column}")),
            "{text:?}: {message}"
        );
    }
}

/// A JSON document written as text, keys in the order given (repeats allowed).
#[derive(Debug, Clone)]
enum Node {
    Leaf(Value),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

impl Node {
    fn write(&self, out: &mut String, pretty: bool) {
        match self {
            Node::Leaf(v) => out.push_str(&serde_json::to_string(v).unwrap()),
            Node::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    if pretty {
                        out.push_str("\n ");
                    }
                    item.write(out, pretty);
                }
                out.push(']');
            }
            Node::Object(entries) => {
                out.push('{');
                for (i, (key, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    let _ = write!(out, "{}:", serde_json::to_string(key).unwrap());
                    if pretty {
                        out.push(' ');
                    }
                    value.write(out, pretty);
                }
                out.push('}');
            }
        }
    }
}

/// Besides the YAML proptests' words: keys whose go-yaml order is subtle, and characters
/// YAML 1.1 breaks lines at (the JSON-text writer must agree with the old path on them).
const MORE_TRICKY_WORDS: &[&str] = &[
    "2001-12-14t21:59:43.10-05:00",
    "a1",
    "a01",
    "a10",
    "_z",
    "B",
    "bom",
    "a2",
    "9",
    "10",
    "<a>&amp;",
    "a\u{2028}b",
    "a\u{85}b",
    " \u{85} ",
];

fn tricky_string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 :#?'\"\\\\\t\n\r{}\\[\\],&*!|>%@`.~\\-_<=é\u{0}\u{1}\u{7f}\u{85}\u{a0}\u{2028}\u{2029}\u{feff}\u{fffe}😀]{0,24}",
        "( ?[a-z:#'\"\\-]{1,9} {1,2}){0,25}\n?",
        "[a-c]{0,2}[0-9]{0,3}[a-c_B]{0,2}[0-9]{0,2}",
        "[a-z]{120,140}",
        prop::sample::select(
            super::proptests::TRICKY_WORDS
                .iter()
                .chain(MORE_TRICKY_WORDS)
                .copied()
                .collect::<Vec<_>>(),
        )
        .prop_map(str::to_owned),
    ]
}

fn node() -> impl Strategy<Value = Node> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("JSON floats are finite", |f| f.is_finite())
            .prop_map(Value::from),
        (-1000i32..1000).prop_map(|i| Value::from(f64::from(i) / 8.0)),
        prop::sample::select(vec![1e20, 1e21, -1e21, 1e-5, 1e-4, 123_456.0, 0.1, -0.0])
            .prop_map(Value::from),
        tricky_string().prop_map(Value::String),
    ]
    .prop_map(Node::Leaf);
    leaf.prop_recursive(5, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Node::Array),
            prop::collection::vec((tricky_string(), inner), 0..7).prop_map(|mut entries| {
                // Some repeated keys, as a raw JSON value may hold.
                if entries.len() > 2 && entries.len() % 3 == 0 {
                    let key = entries[0].0.clone();
                    entries[2].0 = key;
                }
                Node::Object(entries)
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(512)
    ))]

    #[test]
    fn writes_any_json_text_as_the_value_path(doc in node(), pretty in any::<bool>()) {
        let mut text = String::new();
        doc.write(&mut text, pretty);
        let want = value_path(text.as_bytes());
        let got = json_text_to_yaml(text.as_bytes()).unwrap();
        prop_assert_eq!(got, want, "for {}", text);
    }
}
