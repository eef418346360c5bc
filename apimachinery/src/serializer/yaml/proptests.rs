//! Property tests: the reader never panics, whatever the text (a corpus-free fuzz
//! harness: random bytes, and random YAML-ish token soup), and what the writer writes
//! reads back as the value it came from.

use proptest::prelude::*;
use serde_json::{Map, Value};

use super::number::integral_float;
use super::{YamlDocuments, json_to_yaml, yaml_to_json};

/// Pieces of YAML syntax, so that random inputs get past the first character.
const TOKENS: &[&str] = &[
    "- ",
    "? ",
    ": ",
    ":",
    "\n",
    "  ",
    " ",
    "\t",
    "&a ",
    "*a ",
    "&b ",
    "*b ",
    "!!str ",
    "!!int ",
    "!!float ",
    "!!binary ",
    "!!null ",
    "!!merge ",
    "!x ",
    "! ",
    "<<: ",
    "<<",
    "[",
    "]",
    "{",
    "}",
    ",",
    "'",
    "\"",
    "|",
    "|-",
    "|+",
    "|2",
    ">",
    ">-",
    "#",
    "# c\n",
    "---\n",
    "--- ",
    "...\n",
    "%YAML 1.1\n",
    "%TAG ! x:\n",
    "a",
    "key",
    "1",
    "0x1F",
    "-1.5e3",
    "yes",
    "~",
    "null",
    ".inf",
    ".nan",
    "2001-01-01",
    "1:20",
    "\\",
    "\\x41",
    "\\u00e9",
    "\u{85}",
    "\u{feff}",
    "\u{2028}",
    "é",
    "😀",
    "\r\n",
    "\r",
    "\0",
];

fn yamlish() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..60).prop_map(|t| t.concat())
}

/// Reads `text` every way the module offers; only a panic can fail this.
fn read_every_way(text: &str) {
    if let Ok(doc) = yaml_to_json(text) {
        let _ = doc.position("");
        let _ = doc.position("a.b[0]");
        // What was read writes without panicking, too.
        let _ = json_to_yaml(&doc.value);
    }
    for raw in YamlDocuments::new(text).take(100).flatten() {
        if let Ok(doc) = raw.parse() {
            let _ = doc.position("key");
        }
    }
}

/// Words that resolve to other types or need quoting, indicators, and line breaks in
/// awkward places (shared with the JSON-text writer's tests).
pub(super) const TRICKY_WORDS: &[&str] = &[
    "",
    "y",
    "n",
    "yes",
    "No",
    "on",
    "OFF",
    "true",
    "null",
    "~",
    "1",
    "-1",
    "0x1F",
    "0o17",
    "017",
    "08",
    "1_000",
    "1e3",
    "1.5",
    ".5",
    "1.",
    ".inf",
    "-.Inf",
    ".nan",
    "1e400",
    "1:20",
    "2008-01-01",
    "2008-1-1T1:2:3Z",
    "<<",
    "---",
    "...",
    "- a",
    "a: b",
    "a #b",
    " ",
    "\n",
    "\n\n",
    "a\n",
    "a\n\n",
    " a\nb",
    "a \nb",
    "\t\n",
];

/// Strings that hit the writer's style decisions: indicators, quotes, escapes, words
/// that resolve to other types, long text that folds. U+0085, U+2028 and U+2029 are
/// left out: go-yaml (YAML 1.1) breaks lines at them and our YAML 1.2 parser does not,
/// a documented difference.
fn tricky_string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 :#?'\"\\\\\t\n\r{}\\[\\],&*!|>%@`.~\\-_<=é\u{0}\u{1}\u{7f}\u{a0}\u{feff}\u{fffe}😀]{0,24}",
        "( ?[a-z:#'\"\\-]{1,9} {1,2}){0,25}\n?",
        prop::sample::select(TRICKY_WORDS).prop_map(str::to_owned),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("JSON floats are finite", |f| f.is_finite())
            .prop_map(Value::from),
        (-1000i32..1000).prop_map(|i| Value::from(f64::from(i) / 8.0)),
        tricky_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            // Go writes a `<<` key plain, and reads it back as a merge key: excluded.
            prop::collection::btree_map(
                tricky_string().prop_filter("merge key", |k| k != "<<"),
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// The value as Go hands it on through `encoding/json`: integral floats are integers.
fn as_go_json(value: &Value) -> Value {
    match value {
        Value::Number(n) if n.is_f64() => n
            .as_f64()
            .and_then(integral_float)
            .map_or_else(|| value.clone(), Value::Number),
        Value::Array(items) => Value::Array(items.iter().map(as_go_json).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), as_go_json(v)))
                .collect(),
        ),
        _ => value.clone(),
    }
}

proptest! {
    // 512 cases by default; `PROPTEST_CASES=100000` for a longer fuzzing run.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(512)
    ))]

    #[test]
    fn never_panics_on_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        read_every_way(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn never_panics_on_random_yaml(text in yamlish()) {
        read_every_way(&text);
    }

    #[test]
    fn what_is_written_reads_back(value in json_value()) {
        let yaml = json_to_yaml(&value);
        let doc = yaml_to_json(&yaml).map_err(|e| TestCaseError::fail(format!("{e}\n{yaml}")))?;
        prop_assert_eq!(&doc.value, &as_go_json(&value), "written as:\n{}", yaml);
        prop_assert!(doc.duplicate_keys.is_empty());
        prop_assert!(yaml.ends_with('\n'));
    }
}
