//! The YAML reader: parser events to a JSON value with go-yaml v2's typing, merge keys,
//! aliases and key conversion (`sigs.k8s.io/yaml.YAMLToJSON`), built with an explicit
//! stack so that nesting depth costs heap, not call stack.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Span, Tag};
use serde_json::{Map, Value};

use super::MAX_DEPTH;
use super::byte_order_mark;
use super::document::DuplicateKey;
use super::error::{YamlError, YamlErrorKind};
use super::number::{format_float_g, integral_float};
use super::resolve::{Resolved, is_timestamp, resolve_plain, short_tag};

const CORE_TAG_PREFIX: &str = "tag:yaml.org,2002:";

/// 1-based line and column of where an event starts.
pub(crate) fn position(span: &Span) -> (usize, usize) {
    (span.start.line(), span.start.col() + 1)
}

pub(crate) fn syntax_error(e: &saphyr_parser::ScanError) -> YamlError {
    YamlError::new(YamlErrorKind::Syntax {
        message: e.info().to_owned(),
    })
    .at(e.marker().line(), e.marker().col() + 1)
}

/// A mapping's pending key.
pub(crate) enum KeySlot {
    Key {
        key: String,
        line: usize,
        column: usize,
    },
    Merge {
        line: usize,
        column: usize,
    },
}

enum Frame {
    Seq {
        items: Vec<Value>,
        anchor: usize,
        nodes: usize,
    },
    Map {
        map: Map<String, Value>,
        anchor: usize,
        nodes: usize,
        key: Option<KeySlot>,
    },
}

/// A scalar's text, style and tag as the parser reports them.
pub(crate) struct Scalar<'s> {
    pub(crate) text: &'s str,
    pub(crate) plain: bool,
    pub(crate) tag: Option<&'s Tag>,
}

impl Scalar<'_> {
    fn core_tag(&self) -> Option<&str> {
        let tag = self.tag?;
        if tag.handle == CORE_TAG_PREFIX {
            Some(tag.suffix.as_str())
        } else {
            Some("")
        }
    }

    fn tag_name(&self) -> String {
        self.tag.map_or_else(String::new, |t| {
            if t.handle == CORE_TAG_PREFIX {
                format!("!!{}", t.suffix)
            } else {
                t.to_string()
            }
        })
    }

    /// go-yaml's typing of the scalar: plain untagged scalars by the resolver, quoted
    /// ones as strings, explicit core tags checked against what the text resolves to.
    fn resolve(&self) -> Result<Typed, YamlErrorKind> {
        let Some(core) = self.core_tag() else {
            return Ok(if self.plain {
                Typed::Resolved(resolve_plain(self.text))
            } else {
                Typed::Resolved(Resolved::Str)
            });
        };
        let resolved = match core {
            "str" | "" | "merge" => return Ok(Typed::Resolved(Resolved::Str)),
            "binary" => return decode_base64(self.text).map(Typed::Binary),
            "timestamp" if is_timestamp(self.text) => Resolved::Timestamp,
            _ => resolve_plain(self.text),
        };
        let fits = match (core, &resolved) {
            ("int", Resolved::Int(_) | Resolved::Uint(_))
            | ("float", Resolved::Float(_))
            | ("bool", Resolved::Bool(_))
            | ("null", Resolved::Null)
            | ("timestamp", Resolved::Timestamp) => true,
            ("float", Resolved::Int(i)) => {
                #[allow(clippy::cast_precision_loss)]
                return Ok(Typed::Resolved(Resolved::Float(*i as f64)));
            }
            // Other core tags (`!!map`, `!!seq`, `!!set`...) on a scalar: go-yaml keeps
            // the text.
            ("int" | "float" | "bool" | "null" | "timestamp", _) => false,
            _ => return Ok(Typed::Resolved(Resolved::Str)),
        };
        if fits {
            Ok(Typed::Resolved(resolved))
        } else {
            Err(YamlErrorKind::TagMismatch {
                tag: self.tag_name(),
                found: short_tag(&resolved).to_owned(),
                value: self.text.to_owned(),
            })
        }
    }

    fn is_merge_key(&self) -> bool {
        self.text == "<<" && (self.plain && self.tag.is_none() || self.core_tag() == Some("merge"))
    }

    pub(crate) fn to_value(&self) -> Result<Value, YamlErrorKind> {
        Ok(match self.resolve()? {
            Typed::Binary(s) => Value::String(s),
            Typed::Resolved(r) => match r {
                Resolved::Null => Value::Null,
                Resolved::Bool(b) => Value::Bool(b),
                Resolved::Int(i) => Value::from(i),
                Resolved::Uint(u) => Value::from(u),
                Resolved::Float(f) => float_value(f, self.text)?,
                Resolved::Timestamp | Resolved::Str => Value::String(self.text.to_owned()),
            },
        })
    }

    /// The JSON key `sigs.k8s.io/yaml` makes of a scalar key, or `None` for `<<`.
    pub(crate) fn to_key(&self) -> Result<Option<String>, YamlErrorKind> {
        if self.is_merge_key() {
            return Ok(None);
        }
        let unsupported = || YamlErrorKind::UnsupportedKey {
            key: self.text.to_owned(),
        };
        Ok(Some(match self.resolve()? {
            Typed::Binary(s) => s,
            Typed::Resolved(r) => match r {
                Resolved::Null | Resolved::Uint(_) => return Err(unsupported()),
                Resolved::Bool(b) => b.to_string(),
                Resolved::Int(i) => i.to_string(),
                Resolved::Float(f) => float_key(f),
                Resolved::Timestamp | Resolved::Str => self.text.to_owned(),
            },
        }))
    }
}

enum Typed {
    Resolved(Resolved),
    Binary(String),
}

/// A float as the JSON number Go's `encoding/json` writes for it (integral floats become
/// integers); `.inf` and `.nan` are errors there, and here.
fn float_value(f: f64, text: &str) -> Result<Value, YamlErrorKind> {
    if let Some(n) = integral_float(f) {
        return Ok(Value::Number(n));
    }
    serde_json::Number::from_f64(f)
        .map(Value::Number)
        .ok_or_else(|| YamlErrorKind::UnsupportedValue {
            value: text.to_owned(),
        })
}

/// `sigs.k8s.io/yaml` writes float keys with 32-bit precision (`0.1`, `1e+20`).
fn float_key(f: f64) -> String {
    if f.is_nan() {
        ".nan".to_owned()
    } else if f.is_infinite() {
        if f > 0.0 { ".inf" } else { "-.inf" }.to_owned()
    } else {
        format_float_g(f, true)
    }
}

/// The key a value reached through an alias makes.
fn value_key(value: &Value) -> Result<String, YamlErrorKind> {
    let unsupported = || YamlErrorKind::UnsupportedKey {
        key: value.to_string(),
    };
    match value {
        Value::String(s) => Ok(s.clone()),
        Value::Bool(b) => Ok(b.to_string()),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Ok(i.to_string())
            } else if n.is_u64() {
                Err(unsupported())
            } else {
                Ok(float_key(n.as_f64().unwrap_or(f64::NAN)))
            }
        }
        Value::Null | Value::Array(_) | Value::Object(_) => Err(unsupported()),
    }
}

/// Go's `base64.StdEncoding.DecodeString`, which skips `\r` and `\n`; the bytes become a
/// string with invalid UTF-8 replaced, as `encoding/json` does.
fn decode_base64(text: &str) -> Result<String, YamlErrorKind> {
    let mut bits: u32 = 0;
    let mut nbits = 0u32;
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut padding = 0usize;
    let mut count = 0usize;
    for b in text.bytes() {
        let v = match b {
            b'\r' | b'\n' => continue,
            b'=' => {
                padding += 1;
                count += 1;
                continue;
            }
            _ if padding > 0 => return Err(YamlErrorKind::InvalidBinary),
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return Err(YamlErrorKind::InvalidBinary),
        };
        count += 1;
        bits = (bits << 6) | u32::from(v);
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            #[allow(clippy::cast_possible_truncation)]
            out.push((bits >> nbits) as u8);
            bits &= (1 << nbits) - 1;
        }
    }
    if count % 4 != 0 || padding > 2 || bits != 0 {
        return Err(YamlErrorKind::InvalidBinary);
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// go-yaml's `allowedAliasRatio`: how much of a document may come from aliases.
fn allowed_alias_ratio(decode_count: usize) -> f64 {
    const LOW: usize = 400_000;
    const HIGH: usize = 4_000_000;
    if decode_count <= LOW {
        0.99
    } else if decode_count >= HIGH {
        0.10
    } else {
        #[allow(clippy::cast_precision_loss)]
        let progress = (decode_count - LOW) as f64 / (HIGH - LOW) as f64;
        0.99 - 0.89 * progress
    }
}

/// The JSON path of the node about to be completed on top of `stack`.
fn current_path(stack: &[Frame]) -> String {
    let mut path = String::new();
    for frame in stack {
        match frame {
            Frame::Seq { items, .. } => {
                path.push('[');
                path.push_str(&items.len().to_string());
                path.push(']');
            }
            Frame::Map { key, .. } => match key {
                Some(KeySlot::Key { key, .. }) => push_key(&mut path, key),
                Some(KeySlot::Merge { .. }) => push_key(&mut path, "<<"),
                None => {}
            },
        }
    }
    path
}

/// Appends `.key` (or `key` at the root) to a JSON path.
pub(crate) fn push_key(path: &mut String, key: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(key);
}

/// The first document of `input` as JSON, with the keys it sets twice.
pub(crate) fn load(input: &str) -> Result<(Value, Vec<DuplicateKey>), YamlError> {
    let (masked, stand_in) = byte_order_mark::mask(input);
    let mut parser = Parser::new_from_str(&masked);
    let mut loader = Loader::default();
    let mut root = None;
    while let Some(next) = parser.next_event() {
        let (event, span) = next.map_err(|e| syntax_error(&e))?;
        let (line, column) = position(&span);
        let at = |kind: YamlErrorKind, stack: &[Frame]| {
            YamlError::new(kind)
                .at(line, column)
                .with_path(current_path(stack))
        };
        let done = match event {
            Event::StreamStart | Event::DocumentStart(_) | Event::Nothing => None,
            // Go's `yaml.Unmarshal` reads the first document only.
            Event::DocumentEnd | Event::StreamEnd => break,
            Event::Alias(id) => {
                let Some((value, nodes)) = loader.anchors.get(&id) else {
                    return Err(at(
                        YamlErrorKind::RecursiveAlias { anchor: id },
                        &loader.stack,
                    ));
                };
                loader.decode_count += nodes;
                loader.alias_count += nodes;
                #[allow(clippy::cast_precision_loss)]
                if loader.alias_count > 100
                    && loader.decode_count > 1000
                    && loader.alias_count as f64 / loader.decode_count as f64
                        > allowed_alias_ratio(loader.decode_count)
                {
                    return Err(at(YamlErrorKind::ExcessiveAliasing, &loader.stack));
                }
                let nodes = *nodes;
                if loader.expects_key() {
                    let key = value_key(value).map_err(|k| at(k, &loader.stack))?;
                    loader.set_key(KeySlot::Key { key, line, column });
                    None
                } else {
                    Some((value.clone(), nodes, 0, true))
                }
            }
            Event::Scalar(text, style, anchor, tag) => {
                loader.decode_count += 1;
                let text = byte_order_mark::unmask(&text, stand_in);
                let scalar = Scalar {
                    text: &text,
                    plain: style == ScalarStyle::Plain,
                    tag: tag.as_deref(),
                };
                if loader.expects_key() {
                    let slot = match scalar.to_key().map_err(|k| at(k, &loader.stack))? {
                        Some(key) => KeySlot::Key { key, line, column },
                        None => KeySlot::Merge { line, column },
                    };
                    if anchor != 0 {
                        let value = loader
                            .value_of(&scalar, line, column)
                            .map_err(|k| at(k, &loader.stack))?;
                        loader.anchors.insert(anchor, (value, 1));
                    }
                    loader.set_key(slot);
                    None
                } else {
                    let value = loader
                        .value_of(&scalar, line, column)
                        .map_err(|k| at(k, &loader.stack))?;
                    Some((value, 1, anchor, false))
                }
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                loader.decode_count += 1;
                if loader.expects_key() {
                    return Err(at(
                        YamlErrorKind::UnsupportedKey {
                            key: "a sequence or mapping".to_owned(),
                        },
                        &loader.stack,
                    ));
                }
                if loader.stack.len() >= MAX_DEPTH {
                    return Err(at(
                        YamlErrorKind::TooDeep { limit: MAX_DEPTH },
                        &loader.stack,
                    ));
                }
                loader
                    .stack
                    .push(if matches!(event, Event::SequenceStart(..)) {
                        Frame::Seq {
                            items: Vec::new(),
                            anchor,
                            nodes: 1,
                        }
                    } else {
                        Frame::Map {
                            map: Map::new(),
                            anchor,
                            nodes: 1,
                            key: None,
                        }
                    });
                None
            }
            Event::SequenceEnd | Event::MappingEnd => match loader.stack.pop() {
                Some(Frame::Seq {
                    items,
                    anchor,
                    nodes,
                }) => Some((Value::Array(items), nodes, anchor, false)),
                Some(Frame::Map {
                    map, anchor, nodes, ..
                }) => Some((Value::Object(map), nodes, anchor, false)),
                None => None,
            },
        };
        if let Some((value, nodes, anchor, from_alias)) = done {
            if anchor != 0 {
                loader.anchors.insert(anchor, (value.clone(), nodes));
            }
            if let Some(value) = loader.deliver(value, nodes, from_alias)? {
                root = Some(value);
            }
        }
    }
    let root = root.unwrap_or(Value::Null);
    if let Some(error) = loader.surviving_non_finite(&root) {
        return Err(error);
    }
    Ok((root, loader.duplicates))
}

/// go-yaml v2's merge: the merged mappings' keys are set into the mapping in order, over
/// whatever is there (so `a: 1` before `<<` loses to the merged `a`); in a sequence of
/// mappings the first one wins. A key set again is a duplicate, as go-yaml's strict
/// mode reports it.
fn merge(
    map: &mut Map<String, Value>,
    value: Value,
    from_alias: bool,
    parent: &str,
    line: usize,
    column: usize,
    duplicates: &mut Vec<DuplicateKey>,
) -> Result<(), YamlErrorKind> {
    let mut set = |source: Map<String, Value>, duplicates: &mut Vec<DuplicateKey>| {
        for (key, v) in source {
            let exists = map.insert(key.clone(), v).is_some();
            if exists {
                let mut path = parent.to_owned();
                push_key(&mut path, &key);
                duplicates.push(DuplicateKey {
                    path,
                    key,
                    line,
                    column,
                });
            }
        }
    };
    match value {
        Value::Object(source) => set(source, duplicates),
        Value::Array(items) if !from_alias => {
            let mut sources = Vec::with_capacity(items.len());
            for item in items {
                match item {
                    Value::Object(source) => sources.push(source),
                    _ => return Err(YamlErrorKind::InvalidMerge),
                }
            }
            for source in sources.into_iter().rev() {
                set(source, duplicates);
            }
        }
        _ => return Err(YamlErrorKind::InvalidMerge),
    }
    Ok(())
}

/// What delivering a value into a mapping leaves to report.
enum Reported {
    Duplicate(String, usize, usize),
    Merge(Value, usize, usize),
}

#[derive(Default)]
struct Loader {
    stack: Vec<Frame>,
    anchors: HashMap<usize, (Value, usize)>,
    decode_count: usize,
    alias_count: usize,
    duplicates: Vec<DuplicateKey>,
    /// `.inf`/`.nan` values met so far: (text, line, column, path).
    non_finite: Vec<(String, usize, usize, String)>,
}

/// Stands in for a `.inf`/`.nan` value until the document is read: Go fails only when
/// such a value is still there for `encoding/json` (a later duplicate key may replace
/// it). A noncharacter prefix keeps it apart from real text in all but crafted input,
/// where the cost is a spurious error.
const NON_FINITE_MARK: &str = "\u{FFFF}\u{FFFE}non-finite:";

impl Loader {
    /// A scalar's value; a non-finite float becomes a mark (see [`NON_FINITE_MARK`]).
    fn value_of(
        &mut self,
        scalar: &Scalar<'_>,
        line: usize,
        column: usize,
    ) -> Result<Value, YamlErrorKind> {
        match scalar.to_value() {
            Err(YamlErrorKind::UnsupportedValue { value }) => {
                let mark = format!("{NON_FINITE_MARK}{}", self.non_finite.len());
                let path = current_path(&self.stack);
                self.non_finite.push((value, line, column, path));
                Ok(Value::String(mark))
            }
            other => other,
        }
    }

    /// The first `.inf`/`.nan` still in the document, as the error Go reports.
    fn surviving_non_finite(&self, root: &Value) -> Option<YamlError> {
        if self.non_finite.is_empty() {
            return None;
        }
        let mut first: Option<usize> = None;
        let mut pending = vec![root];
        while let Some(value) = pending.pop() {
            match value {
                Value::String(s) => {
                    if let Some(i) = s
                        .strip_prefix(NON_FINITE_MARK)
                        .and_then(|i| i.parse::<usize>().ok())
                    {
                        first = Some(first.map_or(i, |f| f.min(i)));
                    }
                }
                Value::Array(items) => pending.extend(items),
                Value::Object(map) => pending.extend(map.values()),
                _ => {}
            }
        }
        let (value, line, column, path) = self.non_finite.get(first?)?;
        Some(
            YamlError::new(YamlErrorKind::UnsupportedValue {
                value: value.clone(),
            })
            .at(*line, *column)
            .with_path(path.clone()),
        )
    }

    /// Hands a finished node to its parent; the root comes back.
    fn deliver(
        &mut self,
        value: Value,
        nodes: usize,
        from_alias: bool,
    ) -> Result<Option<Value>, YamlError> {
        let depth = self.stack.len();
        let slot = match self.stack.last_mut() {
            None => return Ok(Some(value)),
            Some(Frame::Seq {
                items, nodes: n, ..
            }) => {
                items.push(value);
                *n += nodes;
                return Ok(None);
            }
            Some(Frame::Map {
                map, nodes: n, key, ..
            }) => {
                *n += nodes;
                match key.take() {
                    Some(KeySlot::Key { key, line, column }) => match map.entry(key) {
                        serde_json::map::Entry::Vacant(v) => {
                            v.insert(value);
                            return Ok(None);
                        }
                        serde_json::map::Entry::Occupied(mut o) => {
                            o.insert(value);
                            Reported::Duplicate(o.key().clone(), line, column)
                        }
                    },
                    Some(KeySlot::Merge { line, column }) => Reported::Merge(value, line, column),
                    None => return Ok(None),
                }
            }
        };
        // Paths are built only for what gets reported: duplicates and merges.
        let parent = current_path(self.stack.get(..depth - 1).unwrap_or_default());
        match slot {
            Reported::Duplicate(key, line, column) => {
                let mut path = parent;
                push_key(&mut path, &key);
                self.duplicates.push(DuplicateKey {
                    path,
                    key,
                    line,
                    column,
                });
            }
            Reported::Merge(value, line, column) => {
                if let Some(Frame::Map { map, .. }) = self.stack.last_mut() {
                    merge(
                        map,
                        value,
                        from_alias,
                        &parent,
                        line,
                        column,
                        &mut self.duplicates,
                    )
                    .map_err(|k| YamlError::new(k).at(line, column).with_path(parent.clone()))?;
                }
            }
        }
        Ok(None)
    }

    fn expects_key(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Map { key: None, .. }))
    }

    fn set_key(&mut self, slot: KeySlot) {
        if let Some(Frame::Map { key, .. }) = self.stack.last_mut() {
            *key = Some(slot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_base64_as_go() {
        assert_eq!(decode_base64("aGVsbG8=").ok().as_deref(), Some("hello"));
        assert_eq!(decode_base64("aGVs\nbG8=").ok().as_deref(), Some("hello"));
        assert_eq!(decode_base64("aGVsbG8").ok(), None);
        assert_eq!(decode_base64("a=GV").ok(), None);
    }

    #[test]
    fn alias_ratio_matches_go_yaml() {
        assert!((allowed_alias_ratio(1000) - 0.99).abs() < 1e-9);
        assert!((allowed_alias_ratio(5_000_000) - 0.10).abs() < 1e-9);
        assert!(allowed_alias_ratio(2_000_000) < 0.99);
    }
}

#[cfg(test)]
mod load_tests {
    use serde_json::json;

    use super::super::{MAX_DEPTH, YamlErrorKind, yaml_to_json};

    fn kind_of(input: &str) -> YamlErrorKind {
        match yaml_to_json(input) {
            Ok(doc) => panic!("{input:?} read as {}", doc.value),
            Err(e) => e.kind().clone(),
        }
    }

    #[test]
    fn reports_every_duplicate_with_path_and_position() {
        let doc = yaml_to_json(
            "spec:\n  containers:\n  - name: a\n    name: b\n  replicas: 1\nspec2: 1\nspec2: 2\n",
        )
        .unwrap();
        assert_eq!(doc.value["spec"]["containers"][0]["name"], "b");
        assert_eq!(doc.value["spec2"], 2);
        let dups: Vec<(&str, usize, usize)> = doc
            .duplicate_keys
            .iter()
            .map(|d| (d.path.as_str(), d.line, d.column))
            .collect();
        assert_eq!(
            dups,
            vec![("spec.containers[0].name", 4, 5), ("spec2", 7, 1)]
        );
    }

    #[test]
    fn locates_nodes_by_json_path() {
        let doc = yaml_to_json("a:\n  b:\n  - x\n  - {c: 1}\nd: [1, 2]\n").unwrap();
        assert_eq!(doc.position("a.b[1].c"), Some((4, 9)));
        assert_eq!(doc.position("a.b[0]"), Some((3, 5)));
        assert_eq!(doc.position("d[1]"), Some((5, 8)));
        assert_eq!(doc.position("a.nope"), None);
    }

    #[test]
    fn merges_as_go_yaml_v2() {
        let doc = yaml_to_json("b: &b {x: 1, z: 2}\nm:\n  z: 0\n  <<: *b\n").unwrap();
        assert_eq!(doc.value["m"], json!({"x": 1, "z": 2}));
        assert_eq!(doc.duplicate_keys[0].path, "m.z");
        // `y` is a YAML 1.1 bool, so as a key it is "true".
        assert_eq!(yaml_to_json("y: 1").unwrap().value, json!({"true": 1}));
        assert_eq!(
            kind_of("a: &a [1]\nm:\n  <<: *a\n"),
            YamlErrorKind::InvalidMerge
        );
        assert_eq!(kind_of("m:\n  <<: 1\n"), YamlErrorKind::InvalidMerge);
        assert_eq!(kind_of("m:\n  <<: [1]\n"), YamlErrorKind::InvalidMerge);
    }

    #[test]
    fn rejects_what_json_cannot_hold() {
        assert!(matches!(
            kind_of("~: 1"),
            YamlErrorKind::UnsupportedKey { .. }
        ));
        assert!(matches!(
            kind_of("[a]: 1"),
            YamlErrorKind::UnsupportedKey { .. }
        ));
        assert!(matches!(
            kind_of("18446744073709551615: 1"),
            YamlErrorKind::UnsupportedKey { .. }
        ));
        assert!(matches!(
            kind_of("a: .inf"),
            YamlErrorKind::UnsupportedValue { .. }
        ));
        assert!(matches!(
            kind_of("a: !!int abc"),
            YamlErrorKind::TagMismatch { .. }
        ));
        assert_eq!(kind_of("a: !!binary '*'"), YamlErrorKind::InvalidBinary);
    }

    #[test]
    fn errors_say_where() {
        let err = yaml_to_json("a: 1\nb: [1,\n  c: d: e\n").unwrap_err();
        assert!(matches!(err.kind(), YamlErrorKind::Syntax { .. }));
        assert_eq!(err.line(), Some(3));
        assert!(err.to_string().starts_with("yaml: line 3, column"), "{err}");
        let err = yaml_to_json("spec:\n  x: [1, .nan]\n").unwrap_err();
        assert_eq!(
            (err.line(), err.column(), err.path()),
            (Some(2), Some(10), Some("spec.x[1]"))
        );
    }

    #[test]
    fn limits_depth_and_aliasing() {
        // Block nesting ("- - - x"); the parser itself caps flow nesting at 255.
        let deep = format!("{}x", "- ".repeat(MAX_DEPTH + 1));
        assert_eq!(kind_of(&deep), YamlErrorKind::TooDeep { limit: MAX_DEPTH });
        let ok = format!("{}x", "- ".repeat(MAX_DEPTH));
        assert!(yaml_to_json(&ok).is_ok());
        assert!(matches!(
            kind_of(&"[".repeat(300)),
            YamlErrorKind::Syntax { .. }
        ));
        let mut laughs = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for (name, prev) in ["b", "c", "d", "e", "f", "g", "h"]
            .into_iter()
            .zip(["a", "b", "c", "d", "e", "f", "g"])
        {
            let items = vec![format!("*{prev}"); 10].join(", ");
            laughs.push_str(&format!("{name}: &{name} [{items}]\n"));
        }
        assert_eq!(kind_of(&laughs), YamlErrorKind::ExcessiveAliasing);
        assert!(matches!(
            kind_of("a: &a [*a]"),
            YamlErrorKind::RecursiveAlias { .. }
        ));
    }

    #[test]
    fn reads_only_the_first_document_and_empty_as_null() {
        assert_eq!(
            yaml_to_json("a: 1\n---\nb: [\n").unwrap().value,
            json!({"a": 1})
        );
        assert_eq!(yaml_to_json("").unwrap().value, json!(null));
        assert_eq!(
            yaml_to_json("# only a comment\n").unwrap().value,
            json!(null)
        );
        assert_eq!(yaml_to_json("--- 5\n...\n").unwrap().value, json!(5));
    }
}
