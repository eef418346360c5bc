//! Go's JSON serializer (`k8s.io/apimachinery/pkg/runtime/serializer/json`), which also
//! reads and writes YAML.
//!
//! # Byte-identity rules
//!
//! What is written is what Go's serializer writes for the same object:
//!
//! - **Field order** is the order of the Rust struct's fields, as Go writes its struct
//!   fields; typed objects write `kind` then `apiVersion` first (the derive does this).
//!   Map keys (`BTreeMap`, `serde_json::Map`, [`Unstructured`](crate::runtime::Unstructured))
//!   are sorted by bytes, as Go sorts map keys.
//! - **Compact JSON** has no whitespace and ends with one `\n` (Go's
//!   `json.Encoder.Encode`, which the serializer uses). **Pretty JSON** is indented by two
//!   spaces, `": "` after keys, `{}`/`[]` when empty, and has no final newline (Go's
//!   `json.MarshalIndent`, as in the upstream `testdata/*.json` fixtures).
//! - **Strings** escape `<`, `>`, `&`, U+2028, U+2029 as `\u003c`-style escapes, `\b` and
//!   `\f` as such, other control characters as lower-case `\u00XX`
//!   ([`GoJsonWriter`](crate::util::json::GoJsonWriter), which every object is written
//!   with).
//! - **Numbers**: integers as they are; floats with Go's shortest digits, no `.0` on
//!   integral values, exponent form (`1e+21`, `1e-7`) below 1e-6 and from 1e21 on; NaN
//!   and infinities cannot be encoded.
//! - **YAML** is the compact JSON converted as `sigs.k8s.io/yaml.JSONToYAML` converts it
//!   (keys sorted, sequences not indented under their key, Go's quoting), ending in `\n`.
//! - Omitted fields (`omitempty`), base64 bytes, RFC 3339 times, quantities and
//!   int-or-strings are the types' own serde implementations.
//!
//! # Reading rules
//!
//! - Keys are case-sensitive, as in the Kubernetes JSON library.
//! - `null` reads as an absent field.
//! - Integer fields take only integral numbers: `1.0`, `1e3`, or a number out of the
//!   field's range is an error naming the field's JSON path.
//! - A key given twice keeps its last value; strict mode reports it.
//! - Unknown fields are ignored; strict mode reports each with its path.
//! - In strict mode every problem is reported at once, in one [`StrictDecodingError`]
//!   (`strict decoding error: unknown field "spec.foo", duplicate field "metadata.name"`)
//!   that also carries the decoded object. YAML duplicate keys come first, in Go's YAML
//!   wording with their line (`yaml: unmarshal errors:\n  line 5: key "name" already set
//!   in map`); then unknown fields and JSON duplicate keys, in document order.
//! - Field errors name the JSON path (`spec.template.spec.containers[0].ports[0].containerPort`)
//!   and, for YAML, the line and column of the value.
//! - Typed JSON is read straight from the bytes, so `RawExtension` fields keep their bytes
//!   (key order included) as Go's do; only when that read fails (a key given twice in a
//!   serde-derived struct, or a real error) is the document read again through a
//!   `serde_json::Value`. Unstructured objects always go through a `Value`.
//! - Non-strict YAML in the common block subset is converted in one pass to the JSON
//!   Go's `YAMLToJSON` makes of it ([`yaml::transcode`](crate::serializer::yaml::transcode))
//!   and decoded as JSON is; other YAML, strict YAML, and any document whose fast decode
//!   fails go through the YAML reader and a `Value`, so errors, positions and strict
//!   reports are the YAML reader's.
//! - The kind is the one the whole document declares. When `kind` (and `apiVersion`)
//!   lead the object, as Go writes them, the type is picked from them and the one typed
//!   pass confirms that no other top-level `kind`/`apiVersion` follows; otherwise (or
//!   when it does not confirm) `apiVersion` and `kind` are read from the whole document
//!   first, and a key given twice there is an error, as before.
//! - The typed read and write are monomorphized per registered type (no `erased-serde`
//!   in between): see [`ObjectType`](crate::runtime::ObjectType). Strict decoding keeps
//!   the erased path, which records ignored fields and duplicates with their paths.
//! - An [`Unknown`](crate::runtime::Unknown) target receives the document undecoded.
//!
//! # Known differences from Go
//!
//! - Unstructured numbers: Go reads `-0` as the integer 0 and integers beyond `i64` as
//!   floats; `serde_json` reads `-0` as the float -0 (written `-0`) and keeps integers up
//!   to `u64::MAX` exact.
//! - The group, version and kind of an unstructured object are the ones it declares;
//!   `defaults` are not applied to it (as in Go's `UnstructuredJSONScheme`).
//!
//! [`StrictDecodingError`]: crate::serializer::StrictDecodingError

mod document;
mod meta_factory;
mod serializer;
mod value_decoder;
mod yaml_input;

#[cfg(feature = "yaml")]
pub(crate) use document::syntax_error;
pub use document::{JsonDocument, parse, parse_tracking_duplicates};
pub use meta_factory::{interpret, interpret_map, type_meta_mismatch};
pub use serializer::{JsonSerializer, SerializerOptions};
#[cfg(not(feature = "yaml"))]
pub(crate) use yaml_input::YAML_NOT_BUILT_IN;
#[cfg(feature = "yaml")]
pub(crate) use yaml_input::yaml_error;

#[cfg(test)]
pub(crate) mod serializer_tests;
