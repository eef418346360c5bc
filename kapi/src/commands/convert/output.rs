//! Writing converted documents in the chosen format and layout.
//!
//! - YAML and JSON as kubectl prints them (see [`crate::printer`]): typed objects in
//!   Go's field order, passed-through ones as read (keys sorted, as Go writes a map).
//! - Protobuf as Go writes it: one object in the `k8s\0` envelope, several in one
//!   `v1 List` whose items hold each object's envelope.
//! - `name`: `kind.group/name` lines, as kubectl's name printer.
//!
//! In the stream layout every input document gives one output document; in kubectl's
//! layout, the objects (list items flattened) are wrapped in one `v1 List` unless the
//! input was one file holding one object.

use apimachinery::proto::Message;
use apimachinery::runtime::unstructured::to_unstructured;
use apimachinery::runtime::{Object, Unstructured};
use apimachinery::serializer::Encoder;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use serde_json::{Map, Value};

use super::converter::{Converted, Converter, Item};
use crate::cli::ConvertOutput;
use crate::printer;

/// How documents are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One output document per input document.
    Stream,
    /// kubectl convert's: one object as itself when `single_file`, else one `v1 List`.
    KubectlList {
        /// The input was one file (not a directory, not standard input).
        single_file: bool,
    },
}

/// A converted document and where it came from (`file: document N`), for messages.
pub type Located = (String, Converted);

/// Encodes converted documents in one format.
pub struct Writer<'c, 's> {
    converter: &'c Converter<'s>,
    format: ConvertOutput,
    /// Writes typed objects (compact JSON or YAML).
    typed: JsonSerializer<'s>,
    /// Writes unstructured objects (compact JSON or YAML).
    unstructured: JsonSerializer<'s>,
}

impl<'c, 's> Writer<'c, 's> {
    /// A writer of `format` for what `converter` converted.
    pub fn new(converter: &'c Converter<'s>, format: ConvertOutput) -> Self {
        let options = SerializerOptions {
            yaml: format == ConvertOutput::Yaml,
            pretty: false,
            strict: false,
        };
        Writer {
            converter,
            format,
            typed: JsonSerializer::new(converter.scheme(), options),
            unstructured: JsonSerializer::unstructured(options),
        }
    }

    /// The output for `docs`, and one message per object that could not be written
    /// (prefixed with its file and document); the other objects are written.
    pub fn write(&self, docs: Vec<Located>, layout: Layout) -> (Vec<u8>, Vec<String>) {
        let mut problems = Vec::new();
        let out = match (layout, self.format) {
            (_, ConvertOutput::Name) => {
                let mut out = Vec::new();
                for (at, item) in flatten(docs) {
                    match name(item) {
                        Ok(line) => {
                            out.extend_from_slice(line.as_bytes());
                            out.push(b'\n');
                        }
                        Err(e) => problems.push(format!("{at}: {e}")),
                    }
                }
                out
            }
            (Layout::Stream, ConvertOutput::Protobuf) if docs.is_empty() => Vec::new(),
            (Layout::Stream, ConvertOutput::Protobuf) => {
                let single = matches!(&docs[..], [(_, Converted::Object(_))]);
                let list_metadata = match &docs[..] {
                    [(_, Converted::List { list, .. })] => list.get("metadata").cloned(),
                    _ => None,
                };
                let encoded = self.encode_all(flatten(docs), &mut problems);
                self.protobuf(encoded, single, list_metadata.as_ref(), &mut problems)
            }
            (Layout::Stream, _) => {
                let mut encoded = Vec::new();
                for (at, doc) in docs {
                    match self.encode_document(doc) {
                        Ok(bytes) => encoded.push(bytes),
                        Err(e) => problems.push(format!("{at}: {e}")),
                    }
                }
                printer::join(&encoded, self.format)
            }
            (Layout::KubectlList { single_file }, format) => {
                let items = flatten(docs);
                if items.is_empty() {
                    return (Vec::new(), problems);
                }
                let single = single_file && items.len() == 1;
                match format {
                    ConvertOutput::Protobuf => {
                        let encoded = self.encode_all(items, &mut problems);
                        self.protobuf(encoded, single, None, &mut problems)
                    }
                    _ if single => {
                        let encoded = self.encode_all(items, &mut problems);
                        printer::join(&encoded, format)
                    }
                    ConvertOutput::Json => {
                        let encoded = self.encode_all(items, &mut problems);
                        printer::join(&[kubectl_json_list(&encoded)], format)
                    }
                    _ => match self.kubectl_yaml_list(items, &mut problems) {
                        Ok(bytes) => bytes,
                        Err(e) => {
                            problems.push(e);
                            Vec::new()
                        }
                    },
                }
            }
        };
        (out, problems)
    }

    /// Each item encoded on its own; failures become problems.
    fn encode_all(&self, items: Vec<(String, Item)>, problems: &mut Vec<String>) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for (at, item) in items {
            match self.encode_item(item) {
                Ok(bytes) => out.push(bytes),
                Err(e) => problems.push(format!("{at}: {e}")),
            }
        }
        out
    }

    /// One object in the writer's format (compact JSON, YAML, or enveloped protobuf).
    fn encode_item(&self, item: Item) -> Result<Vec<u8>, String> {
        if self.format == ConvertOutput::Protobuf {
            let obj = match item {
                Item::Typed(obj) => obj,
                Item::Unstructured(map) => self.protobuf_type(map)?,
            };
            return apimachinery::serializer::protobuf::encode_object(&*obj)
                .map_err(|e| e.to_string());
        }
        match item {
            Item::Typed(obj) => self.typed.encode_to_vec(&*obj),
            Item::Unstructured(map) => self.unstructured.encode_to_vec(&Unstructured::new(map)),
        }
        .map_err(|e| e.to_string())
    }

    /// The registered type of a passed-through object, which protobuf needs.
    fn protobuf_type(&self, map: Map<String, Value>) -> Result<Box<dyn Object>, String> {
        let u = Unstructured::new(map);
        let gvk = format!("{}, Kind={}", u.api_version(), u.kind());
        let recognized = u
            .api_version()
            .parse::<apimachinery::schema::GroupVersion>()
            .is_ok_and(|gv| self.converter.scheme().recognizes(&gv.with_kind(u.kind())));
        if !recognized {
            return Err(format!(
                "{gvk}: not a built-in kind, so it has no protobuf form (write it as JSON or YAML)"
            ));
        }
        self.converter
            .typed(&u.object)
            .map_err(|e| format!("{gvk}: {e}"))
    }

    /// One document in the stream layout (YAML or JSON).
    fn encode_document(&self, doc: Converted) -> Result<Vec<u8>, String> {
        match doc {
            Converted::Object(item) => self.encode_item(item),
            Converted::List { mut list, items } => {
                let items = items
                    .into_iter()
                    .enumerate()
                    .map(|(i, item)| item_value(item).map_err(|e| format!("items[{i}]: {e}")))
                    .collect::<Result<_, _>>()?;
                list.insert("items".to_owned(), Value::Array(items));
                self.unstructured
                    .encode_to_vec(&Unstructured::new(list))
                    .map_err(|e| e.to_string())
            }
        }
    }

    /// One enveloped object as itself when `single`, else the `v1 List` of all.
    fn protobuf(
        &self,
        encoded: Vec<Vec<u8>>,
        single: bool,
        metadata: Option<&Value>,
        problems: &mut Vec<String>,
    ) -> Vec<u8> {
        if single && encoded.len() == 1 {
            return encoded.into_iter().next().unwrap_or_default();
        }
        if encoded.is_empty() && !problems.is_empty() {
            return Vec::new();
        }
        encode_protobuf_list(metadata, encoded).unwrap_or_else(|e| {
            problems.push(format!("list: {e}"));
            Vec::new()
        })
    }

    /// kubectl's YAML for a `v1 List` of `items`: Go's YAML of the list's JSON, keys
    /// sorted at every level.
    fn kubectl_yaml_list(
        &self,
        items: Vec<(String, Item)>,
        problems: &mut Vec<String>,
    ) -> Result<Vec<u8>, String> {
        let mut values = Vec::new();
        for (at, item) in items {
            match item_value(item) {
                Ok(v) => values.push(v),
                Err(e) => problems.push(format!("{at}: {e}")),
            }
        }
        let list = Map::from_iter([
            ("apiVersion".to_owned(), Value::from("v1")),
            ("items".to_owned(), Value::Array(values)),
            ("kind".to_owned(), Value::from("List")),
            ("metadata".to_owned(), Value::Object(Map::new())),
        ]);
        self.unstructured
            .encode_to_vec(&Unstructured::new(list))
            .map_err(|e| e.to_string())
    }
}

/// The objects of `docs`, list items flattened, each with where it came from.
fn flatten(docs: Vec<Located>) -> Vec<(String, Item)> {
    let mut out = Vec::new();
    for (at, doc) in docs {
        match doc {
            Converted::Object(item) => out.push((at, item)),
            Converted::List { items, .. } => out.extend(
                items
                    .into_iter()
                    .enumerate()
                    .map(|(i, item)| (format!("{at}: items[{i}]"), item)),
            ),
        }
    }
    out
}

/// The JSON value of an item, as its writer would write it.
fn item_value(item: Item) -> Result<Value, String> {
    match item {
        Item::Unstructured(map) => Ok(Value::Object(map)),
        Item::Typed(obj) => to_unstructured(&*obj)
            .map(Value::Object)
            .map_err(|e| e.to_string()),
    }
}

/// The compact JSON of a `v1 List` of already encoded compact JSON objects, in the
/// field order of Go's `metav1.List` (`kind`, `apiVersion`, `metadata`, `items`).
fn kubectl_json_list(items: &[Vec<u8>]) -> Vec<u8> {
    let mut out = br#"{"kind":"List","apiVersion":"v1","metadata":{},"items":["#.to_vec();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(item.trim_ascii_end());
    }
    out.extend_from_slice(b"]}");
    out
}

/// kubectl's name printer: `kind.group/name`, kind and group lower-cased.
fn name(item: Item) -> Result<String, String> {
    let map = match item {
        Item::Unstructured(map) => map,
        Item::Typed(obj) => to_unstructured(&*obj).map_err(|e| e.to_string())?,
    };
    let u = Unstructured::new(map);
    let group = u.api_version().rsplit_once('/').map(|(g, _)| g);
    if u.kind().is_empty() {
        return Err(format!("no kind for {:?}", u.api_version()));
    }
    // Go lower-cases the kind; groups are lower case already.
    let kind = match group {
        Some(group) => format!("{}.{group}", u.kind().to_lowercase()),
        None => u.kind().to_lowercase(),
    };
    let name = u
        .nested_string(&["metadata", "name"])
        .ok()
        .flatten()
        .unwrap_or_default();
    Ok(format!("{kind}/{name}"))
}

/// The `v1 List` message of `items` (each an enveloped object), with `metadata` as the
/// list's: what Go writes for a list of objects in protobuf (kubectl wraps the objects
/// it converts in one; `runtime.EncodeList` puts each item's own encoding in `raw`).
fn encode_protobuf_list(metadata: Option<&Value>, items: Vec<Vec<u8>>) -> Result<Vec<u8>, String> {
    let metadata = match metadata {
        Some(m) => serde_json::from_value(m.clone()).map_err(|e| format!("metadata: {e}"))?,
        None => Default::default(),
    };
    let list = k8s_types::core::v1::List {
        type_meta: Default::default(),
        metadata,
        items: Some(
            items
                .into_iter()
                .map(apimachinery::runtime::RawExtension::from_raw)
                .collect(),
        ),
    };
    Ok(apimachinery::proto::encode_envelope("v1", "List", |e| {
        list.encode_fields(e)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectl_json_lists_keep_go_field_order() {
        let list = kubectl_json_list(&[b"{\"a\":1}\n".to_vec(), b"{\"b\":2}\n".to_vec()]);
        assert_eq!(
            String::from_utf8_lossy(&list),
            r#"{"kind":"List","apiVersion":"v1","metadata":{},"items":[{"a":1},{"b":2}]}"#
        );
    }

    #[test]
    fn names_are_lower_cased_kind_and_group() -> Result<(), String> {
        let item = |api_version: &str| {
            Item::Unstructured(
                serde_json::json!({"apiVersion": api_version, "kind": "Deployment", "metadata": {"name": "web"}})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            )
        };
        assert_eq!(name(item("apps/v1"))?, "deployment.apps/web");
        assert_eq!(name(item("v1"))?, "deployment/web");
        Ok(())
    }
}
