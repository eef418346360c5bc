//! [`YamlDocument`]: one document read as JSON, with its duplicate keys and, on demand,
//! where each node was.

use std::collections::HashMap;
use std::sync::OnceLock;

use saphyr_parser::{Event, Parser, ScalarStyle};
use serde_json::Value;

use super::byte_order_mark;
use super::loader::{Scalar, position, push_key};

/// A key set twice in one mapping: what Go's strict decoding reports as a duplicate field.
/// The value set last is the one in [`YamlDocument::value`], as in Go's non-strict mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// JSON path of the key, Go's field path syntax (`spec.containers[0].name`).
    pub path: String,
    /// The key as JSON holds it.
    pub key: String,
    /// 1-based line of the second occurrence (of the `<<` for keys set by a merge).
    pub line: usize,
    /// 1-based column (in characters) of the second occurrence.
    pub column: usize,
}

/// One YAML document as the JSON value Go's `sigs.k8s.io/yaml.YAMLToJSON` makes of it.
#[derive(Debug, Clone)]
pub struct YamlDocument {
    /// The document as JSON.
    pub value: Value,
    /// Keys set more than once, in document order.
    pub duplicate_keys: Vec<DuplicateKey>,
    positions: LazyPositions,
}

impl PartialEq for YamlDocument {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value && self.duplicate_keys == other.duplicate_keys
    }
}

/// Positions cost nothing until asked for: the text is kept and re-read on the first
/// [`YamlDocument::position`] call (an error path), which indexes every node once.
#[derive(Debug, Clone)]
struct LazyPositions {
    text: Box<str>,
    first_line: usize,
    index: OnceLock<HashMap<String, (usize, usize)>>,
}

impl YamlDocument {
    pub(crate) fn new(
        value: Value,
        duplicate_keys: Vec<DuplicateKey>,
        text: &str,
        first_line: usize,
    ) -> Self {
        YamlDocument {
            value,
            duplicate_keys,
            positions: LazyPositions {
                text: text.into(),
                first_line,
                index: OnceLock::new(),
            },
        }
    }

    /// 1-based line and column of the node at `json_path` (`spec.containers[0].image`,
    /// `""` for the root), to say where a value that does not fit its type was.
    ///
    /// Nodes reached through an alias or a merge key are located at the alias or the
    /// `<<`; a path that names no node gives `None`.
    pub fn position(&self, json_path: &str) -> Option<(usize, usize)> {
        let index = self
            .positions
            .index
            .get_or_init(|| index_positions(&self.positions.text, self.positions.first_line));
        index.get(json_path).copied()
    }
}

enum PathFrame {
    Seq { path: String, next: usize },
    Map { path: String, key: Option<String> },
}

/// Every node's JSON path and position in the first document of `text`.
fn index_positions(text: &str, first_line: usize) -> HashMap<String, (usize, usize)> {
    let mut index = HashMap::new();
    let mut stack: Vec<PathFrame> = Vec::new();
    let offset = first_line.saturating_sub(1);
    let (masked, stand_in) = byte_order_mark::mask(text);
    for next in Parser::new_from_str(&masked) {
        let Ok((event, span)) = next else { break };
        let (line, column) = position(&span);
        let at = (line + offset, column);
        // The path of a node starting here, and whether it is a key.
        let (path, is_key) = match stack.last() {
            None => (String::new(), false),
            Some(PathFrame::Seq { path, next }) => (format!("{path}[{next}]"), false),
            Some(PathFrame::Map {
                path,
                key: Some(key),
            }) => {
                let mut p = path.clone();
                push_key(&mut p, key);
                (p, false)
            }
            Some(PathFrame::Map { key: None, .. }) => (String::new(), true),
        };
        match event {
            Event::DocumentEnd | Event::StreamEnd => break,
            Event::StreamStart | Event::DocumentStart(_) | Event::Nothing => continue,
            Event::SequenceStart(..) | Event::MappingStart(..) if !is_key => {
                index.entry(path.clone()).or_insert(at);
                stack.push(if matches!(event, Event::SequenceStart(..)) {
                    PathFrame::Seq { path, next: 0 }
                } else {
                    PathFrame::Map { path, key: None }
                });
                continue;
            }
            // Collections as keys are errors when loading; stop indexing there.
            Event::SequenceStart(..) | Event::MappingStart(..) => break,
            Event::SequenceEnd | Event::MappingEnd => {
                stack.pop();
            }
            Event::Scalar(ref value, style, _, ref tag) if is_key => {
                let value = byte_order_mark::unmask(value, stand_in);
                let scalar = Scalar {
                    text: &value,
                    plain: style == ScalarStyle::Plain,
                    tag: tag.as_deref(),
                };
                let key = scalar
                    .to_key()
                    .ok()
                    .flatten()
                    .unwrap_or_else(|| "<<".to_owned());
                if let Some(PathFrame::Map { key: slot, .. }) = stack.last_mut() {
                    *slot = Some(key);
                }
                continue;
            }
            Event::Alias(_) if is_key => {
                // The key's text is not at hand; keys through aliases are rare.
                if let Some(PathFrame::Map { key: slot, .. }) = stack.last_mut() {
                    *slot = Some(String::new());
                }
                continue;
            }
            Event::Scalar(..) | Event::Alias(_) => {
                index.entry(path).or_insert(at);
            }
        }
        // A node just ended: advance the parent.
        match stack.last_mut() {
            Some(PathFrame::Seq { next, .. }) => *next += 1,
            Some(PathFrame::Map { key, .. }) => *key = None,
            None => {}
        }
    }
    index
}
