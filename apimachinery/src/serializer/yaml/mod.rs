//! YAML as Kubernetes reads and writes it: Go's `sigs.k8s.io/yaml` (`JSONToYAML`,
//! `YAMLToJSON`) over go-yaml v2, and `k8s.io/apimachinery`'s multi-document reader.
//!
//! - [`json_to_yaml`] writes a JSON value as the bytes Go's YAML serializer and
//!   `kubectl -o yaml` write;
//! - [`yaml_to_json`] reads one YAML document into a JSON value with go-yaml v2's YAML
//!   1.1 typing, reporting duplicate keys and (on demand) node positions;
//! - [`YamlDocuments`] splits a stream at `---` lines as Go's `YAMLReader` does.
//!
//! ```
//! use apimachinery::serializer::yaml::{json_to_yaml, yaml_to_json};
//! use serde_json::json;
//!
//! let value = json!({"kind": "ConfigMap", "data": {"n": "1.5", "on": "yes", "a10": 1, "a2": [] }});
//! let yaml = json_to_yaml(&value);
//! assert_eq!(yaml, "data:\n  a2: []\n  a10: 1\n  \"n\": \"1.5\"\n  \"on\": \"yes\"\nkind: ConfigMap\n");
//! assert_eq!(yaml_to_json(&yaml)?.value, value);
//! # Ok::<(), apimachinery::serializer::yaml::YamlError>(())
//! ```
//!
//! # Byte-identity rules of the writer
//!
//! What Go does, checked against `kubectl` 1.32 (`testdata/`) and the Kubernetes 1.36
//! fixtures:
//!
//! - **Layout.** Block mappings and sequences, two-space indent; a sequence that is a
//!   mapping value is not indented under its key (`key:\n- a`); a sequence item that is a
//!   mapping or sequence starts on the dash's line (`- a: 1`, `- - 1`); empty ones are `{}`
//!   and `[]`; the document ends with one newline, never `...`.
//! - **Key order.** go-yaml's `keyList.Less`, not byte order: digit runs compare as
//!   numbers (`a2` < `a10`, `"1"` < `"9"` < `"10"`), non-letters sort before letters,
//!   letters by code point (`B` < `a`).
//! - **Keys.** Written `key: value` when the key has no line break and is at most 128
//!   bytes; otherwise as a complex key, `? key` then `: value` on the next line.
//! - **Scalar style** (libyaml's analysis and go-yaml's request):
//!   - a string with `\n` asks for a literal block (`|`, `|-` without a final newline,
//!     `|+` with more than one, an indentation indicator `|2` when it starts with a space
//!     or a break); one with a trailing space, a space before a break, or a character
//!     that is not printable falls back to double quotes;
//!   - a string that would read back as another type is double-quoted: null (`""`, `~`,
//!     `null`), YAML 1.1 bools (`y`, `n`, `yes`, `on`, `off`...), ints (`1`, `0x1F`,
//!     `0o17`, `1_000`), floats (`1.5`, `1e3`, `.inf`), timestamps (`2008-01-01`,
//!     `2008-01-01T01:01:01Z`) and base-60 numbers (`1:20`);
//!   - other strings are plain unless they start with an indicator (`- `, `? `, `: `,
//!     `#`, `&`, `*`, `!`, `|`, `>`, `'`, `"`, `%`, `@`, `` ` ``, `,`, `[`, `]`, `{`, `}`),
//!     start with `---` or `...`, contain `: ` or ` #`, or have leading or trailing
//!     spaces: then single-quoted (`'a: b'`, quotes doubled), or double-quoted if a break
//!     follows a space or a non-printable character is in them.
//! - **Escapes** in double quotes: `\0 \a \b \t \n \v \f \r \e \" \\ \N \_ \L \P`, else
//!   `\xXX`, `\uXXXX`, `\UXXXXXXXX` (upper-case hex) for what libyaml deems unprintable:
//!   C0 controls (tab included), DEL, C1 controls, U+FEFF, U+FFFE/U+FFFF and every
//!   character above U+FFFF (emoji are written `\U0001F600`). A string that starts with
//!   U+FEFF has all its characters escaped (libyaml's `is_bom` looks at the start).
//! - **Folding.** Plain, single- and double-quoted values (not keys) break at a space
//!   once the column passes 80, continuing at the value's indent; a double-quoted
//!   continuation that starts with a space gets a `\`.
//! - **Numbers.** Integers as they are; floats as Go's `encoding/json` then go-yaml
//!   write them: integral floats below 1e21 as integers (`1.0` → `1`, `1e6` → `1000000`,
//!   `-0.0` → `0`), others with `strconv.FormatFloat(f, 'g', -1, 64)` (`1e+21`, `1e-06`,
//!   `0.0001`, `1.8446744073709552e+19`).
//! - **NEL.** Go's path parses the JSON text with go-yaml, which folds raw U+0085 inside
//!   double-quoted scalars; strings with NEL are folded the same way before writing
//!   (`"a\u0085b"` is written `a b`).
//!
//! Known differences: where Go fails (DEL, U+FFFE/U+FFFF or C1 controls in a string make
//! go-yaml reject the JSON text) we write them escaped; `-0` read as JSON text is written
//! `0` here as Go's typed path does, while `JSONToYAML` on the text `-0.0` would write
//! `-0`; integers beyond 64 bits arrive as floats in a `serde_json::Value`.
//!
//! # Reading rules
//!
//! - Plain scalars are typed as go-yaml v2 does (see `resolve.rs`): YAML 1.1 bools
//!   (`yes`, `on`, `y`...), `~`/`null`, Go's integer syntaxes, decimal floats; timestamps
//!   stay strings; quoted and block scalars are strings; `!!str`, `!!int`, `!!float`,
//!   `!!bool`, `!!null`, `!!timestamp` and `!!binary` (base64, decoded) are honoured.
//! - Floats become what Go's `encoding/json` writes for them: integral ones integers;
//!   `.inf` and `.nan` are [`UnsupportedValue`](YamlErrorKind::UnsupportedValue) errors.
//! - Keys become strings: ints in decimal, floats with Go's 32-bit formatting (`0.1`),
//!   bools as `true`/`false`; null, collection and above-`i64` keys are errors.
//! - Anchors and aliases are expanded, with go-yaml's limit on alias expansion; merge
//!   keys (`<<`) set the merged keys over what is there, the first mapping of a sequence
//!   winning, as go-yaml v2 does.
//! - A key set twice: the last value wins, and the key is listed in
//!   [`YamlDocument::duplicate_keys`] (also a key a merge sets again, as go-yaml's strict
//!   mode counts it).
//! - Only the first document of the input is read, as `yaml.Unmarshal` does; use
//!   [`YamlDocuments`] for streams. An empty document is `null`.
//! - Nesting deeper than [`MAX_DEPTH`] is an error, so no input can exhaust the stack.

mod document;
mod emitter;
mod error;
mod key_order;
mod loader;
mod number;
mod resolve;
mod stream;

#[cfg(test)]
mod conformance_tests;
#[cfg(test)]
mod proptests;

pub use document::{DuplicateKey, YamlDocument};
pub use error::{YamlError, YamlErrorKind};
pub use stream::{RawDocument, YamlDocuments};

/// How deeply sequences and mappings may nest in a document read by [`yaml_to_json`].
pub const MAX_DEPTH: usize = 1000;

/// Writes `value` as YAML, byte for byte as Go's `sigs.k8s.io/yaml.JSONToYAML` writes the
/// JSON `encoding/json` makes of it — which is what Kubernetes' YAML serializer and
/// `kubectl -o yaml` write. See the [module docs](self) for the rules.
///
/// ```
/// use apimachinery::serializer::yaml::json_to_yaml;
///
/// let pod = serde_json::json!({
///     "spec": {"containers": [{"name": "c", "args": ["--port", "8080", "true"]}]},
///     "metadata": {"labels": {}},
/// });
/// assert_eq!(json_to_yaml(&pod), "\
/// metadata:
///   labels: {}
/// spec:
///   containers:
///   - args:
///     - --port
///     - \"8080\"
///     - \"true\"
///     name: c
/// ");
/// ```
pub fn json_to_yaml(value: &serde_json::Value) -> String {
    emitter::emit_document(value)
}

/// Reads the first YAML document of `input` as the JSON value Go's
/// `sigs.k8s.io/yaml.YAMLToJSON` makes of it, with the keys set twice (for strict
/// decoding) and the means to locate any node. See the [module docs](self) for the rules.
///
/// ```
/// use apimachinery::serializer::yaml::yaml_to_json;
///
/// let doc = yaml_to_json("spec:\n  replicas: 0x10\n  paused: yes\n  paused: off\n")?;
/// assert_eq!(doc.value, serde_json::json!({"spec": {"replicas": 16, "paused": false}}));
/// assert_eq!(doc.duplicate_keys[0].path, "spec.paused");
/// assert_eq!(doc.position("spec.replicas"), Some((2, 13)));
/// # Ok::<(), apimachinery::serializer::yaml::YamlError>(())
/// ```
pub fn yaml_to_json(input: &str) -> Result<YamlDocument, YamlError> {
    let (value, duplicates) = loader::load(input)?;
    Ok(YamlDocument::new(value, duplicates, input, 1))
}
