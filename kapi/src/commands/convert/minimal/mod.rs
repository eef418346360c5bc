//! `kapi convert --minimal` (and `--in-place`): converted manifests that differ from the
//! input only by the API change, so that a `git diff` of an upgraded repository shows
//! that and nothing else.
//!
//! Each object is converted by the Scheme as `kapi convert` converts it, but without the
//! defaults `kubectl convert` writes: only what the conversion changes, moves, or the
//! new version requires reaches the output ([`object`]). The document is then changed
//! by editing its text where the values differ ([`patch`]): key order, comments,
//! quoting, blank lines and the rest stay as written. JSON documents are written back
//! with their own indentation, keys in their order. Every edited document is read back
//! and must give exactly the converted value, or the document is left alone.
//!
//! An object the Scheme cannot convert without losing data, or whose new version would
//! refuse it, is left as it is with the reason, for a person.

mod checks;
mod emit;
mod object;
mod patch;
#[cfg(test)]
mod patch_random_tests;
mod removed;
mod required;
mod tree;
mod yaml_source;

use std::ops::Range;

use apimachinery::serializer::yaml::yaml_to_json;
use apimachinery::serializer::{Format, recognize};
use serde_json::Value;

use object::Objects;
pub use object::{Outcome, Select};
pub use tree::Tree;

use super::converter::Converter;
use crate::commands::documents::{Document, documents, with_template_hint};

/// What became of one object of a document.
#[derive(Debug, Clone)]
pub struct ObjectReport {
    /// Where it is in the document (`items[2]` for a list item, empty for the document).
    pub at: String,
    /// `Kind namespace/name`.
    pub name: String,
    /// Converted (from, to, notes) or left (the reason).
    pub result: ObjectResult,
}

impl ObjectReport {
    /// Where the object is, for messages: `file: document N[: items[i]]`.
    pub fn place(&self, file: &str, document: usize) -> String {
        if self.at.is_empty() {
            format!("{file}: document {document}")
        } else {
            format!("{file}: document {document}: {}", self.at)
        }
    }
}

/// The part of an [`Outcome`] worth reporting.
#[derive(Debug, Clone, PartialEq)]
pub enum ObjectResult {
    /// Converted from one `apiVersion` to another, with notes for the user.
    Converted {
        /// `apiVersion` before.
        from: String,
        /// `apiVersion` after.
        to: String,
        /// Defaults that changed, fields kept that the API server drops.
        notes: Vec<String>,
    },
    /// Left as it is, for the reason given.
    Left(String),
    /// Left as it is, for the reason given; the target still serves its version.
    Kept(String),
}

/// A document after minimal conversion.
#[derive(Debug, Clone, Default)]
pub struct DocumentResult {
    /// The document's new text; `None` when nothing changed.
    pub text: Option<String>,
    /// The document's value (as converted); `None` for an empty document.
    pub value: Option<Tree>,
    /// The objects converted or left (unchanged ones are not listed).
    pub objects: Vec<ObjectReport>,
    /// Whether comments inside a part that had to be rewritten are gone.
    pub dropped_comments: bool,
}

/// One document of a file, where it is, and what became of it.
#[derive(Debug)]
pub struct DocumentAt {
    /// Its 0-based index in the file's stream.
    pub index: usize,
    /// Its bytes in the file (empty when it could not be split off).
    pub range: Range<usize>,
    /// Its conversion, or why it could not be read.
    pub result: Result<DocumentResult, String>,
}

/// Minimal conversion of documents.
pub struct Minimal<'c, 's> {
    objects: Objects<'c, 's>,
}

impl<'c, 's> Minimal<'c, 's> {
    /// Converts the objects `select` picks, with `converter`.
    pub fn new(converter: &'c Converter<'s>, select: Select) -> Self {
        Minimal {
            objects: Objects::new(converter, select),
        }
    }

    /// Every document of a JSON or YAML file, converted (protobuf is not: see the
    /// callers).
    pub fn file(&self, bytes: &[u8]) -> Vec<DocumentAt> {
        let json = recognize(bytes) == Format::Json;
        documents(bytes)
            .into_iter()
            .map(|(index, doc)| match doc {
                Ok(Document::Text(text)) => {
                    // The document is a slice of `bytes`: its offset is the distance.
                    let start = (text.as_ptr() as usize).saturating_sub(bytes.as_ptr() as usize);
                    let result = if json {
                        self.json(text)
                    } else {
                        self.yaml(text)
                    }
                    .map_err(|e| with_template_hint(bytes, &e));
                    DocumentAt {
                        index,
                        range: start..start + text.len(),
                        result,
                    }
                }
                Ok(Document::Protobuf(_)) => DocumentAt {
                    index,
                    range: 0..0,
                    result: Err("a protobuf object inside a text file".to_owned()),
                },
                Err(e) => DocumentAt {
                    index,
                    range: 0..0,
                    result: Err(e),
                },
            })
            .collect()
    }

    /// A YAML document (as split from its stream), converted.
    pub fn yaml(&self, text: &str) -> Result<DocumentResult, String> {
        let value = yaml_to_json(text).map_err(|e| e.to_string())?.value;
        if value.is_null() {
            return Ok(DocumentResult::default());
        }
        let root = yaml_source::read(text).ok_or("the YAML parser rejects it")?;
        let old = ordered(&root, &value);
        let (new, mut objects) = self.document(&old);
        let mut result = DocumentResult {
            value: Some(new.clone()),
            ..DocumentResult::default()
        };
        if new != old {
            let edited = patch::patch(text, &root, &old, &new).and_then(|p| {
                let back = yaml_to_json(&p.text).map_err(|e| e.to_string())?.value;
                if back != new.to_value() {
                    return Err("internal error: the edited YAML does not read back as the converted object".to_owned());
                }
                Ok(p)
            });
            match edited {
                Ok(p) => {
                    result.text = Some(p.text);
                    result.dropped_comments = p.dropped_comments;
                }
                Err(e) => {
                    leave_all(&mut objects, &e);
                    result.value = Some(old);
                }
            }
        }
        result.objects = objects;
        Ok(result)
    }

    /// A JSON document, converted and written with its own indentation.
    pub fn json(&self, text: &str) -> Result<DocumentResult, String> {
        let old = Tree::parse_json(text.as_bytes()).map_err(|e| e.to_string())?;
        if matches!(old, Tree::Null) {
            return Ok(DocumentResult::default());
        }
        let (new, objects) = self.document(&old);
        let text = (new != old).then(|| emit::json(&new, json_indent(text).as_deref()));
        Ok(DocumentResult {
            text,
            value: Some(new),
            objects,
            dropped_comments: false,
        })
    }

    /// A document's objects (the document, or a list's items) converted.
    fn document(&self, doc: &Tree) -> (Tree, Vec<ObjectReport>) {
        let mut reports = Vec::new();
        if let Some(Tree::Array(items)) = doc.get("items") {
            let mut new_items = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                new_items.push(self.object(item, format!("items[{i}]"), &mut reports));
            }
            let mut new = doc.clone();
            new.set_key("items", Tree::Array(new_items), None);
            return (new, reports);
        }
        let new = self.object(doc, String::new(), &mut reports);
        (new, reports)
    }

    fn object(&self, obj: &Tree, at: String, reports: &mut Vec<ObjectReport>) -> Tree {
        let name = object_name(obj);
        match self.objects.convert(obj) {
            Outcome::Unchanged => obj.clone(),
            Outcome::Converted(c) => {
                reports.push(ObjectReport {
                    at,
                    name,
                    result: ObjectResult::Converted {
                        from: c.from,
                        to: c.to,
                        notes: c.notes,
                    },
                });
                c.tree
            }
            Outcome::Left(reason) => {
                reports.push(ObjectReport {
                    at,
                    name,
                    result: ObjectResult::Left(reason),
                });
                obj.clone()
            }
            Outcome::Kept(reason) => {
                reports.push(ObjectReport {
                    at,
                    name,
                    result: ObjectResult::Kept(reason),
                });
                obj.clone()
            }
        }
    }
}

/// A converted document written whole: JSON indented by four spaces (as kubectl
/// prints it), or block YAML; keys in their order.
pub fn emit_document(value: &Tree, json: bool) -> String {
    if json {
        return emit::json(value, Some("    "));
    }
    if value.is_block_collection() {
        emit::block(value, 0, emit::YamlLayout::default())
    } else {
        emit::scalar(value)
    }
}

/// Every converted object of a document that could not be edited is left, for `reason`.
fn leave_all(objects: &mut [ObjectReport], reason: &str) {
    for o in objects {
        if matches!(o.result, ObjectResult::Converted { .. }) {
            o.result = ObjectResult::Left(reason.to_owned());
        }
    }
}

/// `Kind namespace/name` of an object.
fn object_name(obj: &Tree) -> String {
    let metadata = obj.get("metadata");
    let name = metadata.map_or("", |m| m.str_at("name"));
    let namespace = metadata.map_or("", |m| m.str_at("namespace"));
    let kind = obj.str_at("kind");
    if namespace.is_empty() {
        format!("{kind} {name}")
    } else {
        format!("{kind} {namespace}/{name}")
    }
}

/// The indentation unit of JSON text: the whitespace that starts its second line;
/// `None` for JSON on one line.
fn json_indent(text: &str) -> Option<String> {
    let second = text.trim_start().split_once('\n')?.1;
    let unit: String = second
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    Some(unit)
}

/// The document's value with its objects' keys in the order the text has them (keys a
/// merge adds after them, sorted).
fn ordered(node: &yaml_source::Node, value: &Value) -> Tree {
    use yaml_source::NodeKind;
    match (&node.kind, value) {
        (NodeKind::Map { entries, .. }, Value::Object(map)) => {
            let mut out: Vec<(String, Tree)> = Vec::with_capacity(map.len());
            for e in entries {
                if let Some(v) = map.get(&e.key) {
                    if !out.iter().any(|(k, _)| *k == e.key) {
                        out.push((e.key.clone(), ordered(&e.value, v)));
                    }
                }
            }
            for (k, v) in map {
                if !out.iter().any(|(key, _)| key == k) {
                    out.push((k.clone(), Tree::from_value(v)));
                }
            }
            Tree::Object(out)
        }
        (NodeKind::Seq { items, .. }, Value::Array(values)) if items.len() == values.len() => {
            Tree::Array(
                items
                    .iter()
                    .zip(values)
                    .map(|(n, v)| ordered(n, v))
                    .collect(),
            )
        }
        _ => Tree::from_value(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_indentation_is_read_from_the_text() {
        assert_eq!(json_indent("{\n    \"a\": 1\n}").as_deref(), Some("    "));
        assert_eq!(json_indent("{\"a\":1}"), None);
        assert_eq!(json_indent("{\n\t\"a\": 1\n}").as_deref(), Some("\t"));
    }

    #[test]
    fn documents_keep_the_text_s_key_order() {
        let text = "kind: A\napiVersion: v1\nmetadata: {name: x, labels: {b: 1, a: 2}}\n";
        let value = yaml_to_json(text).unwrap().value;
        let root = yaml_source::read(text).unwrap();
        assert_eq!(
            ordered(&root, &value).to_string(),
            r#"{"kind":"A","apiVersion":"v1","metadata":{"name":"x","labels":{"b":1,"a":2}}}"#
        );
    }
}
