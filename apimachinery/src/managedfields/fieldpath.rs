//! Sets of field paths (structured-merge-diff's `fieldpath`): [`PathElement`], [`Path`],
//! [`Set`], and the `FieldsV1` trie they are written as in `managedFields`.
//!
//! A `FieldsV1` document is a JSON object whose keys are path elements — `f:<name>` a
//! field, `k:{"name":"x"}` the item of a list keyed by its key fields, `v:<json>` the item
//! of a set-list, `i:<n>` an item by index — and whose values are the set below that
//! element; the key `.` marks the element itself as a member when it also has children.
//!
//! ```
//! use apimachinery::managedfields::fieldpath::Set;
//!
//! let fields = br#"{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{}}}}}"#;
//! let set = Set::from_fields_v1_bytes(fields)?;
//! assert!(set.has(&"spec.containers[name=\"web\"].image".parse()?));
//! assert_eq!(set.to_fields_v1_bytes(), fields.to_vec());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

use serde_json::{Map, Value};

use crate::util::json::{JsonLayout, encode_go_json};

/// Why a `FieldsV1` document or a path could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FieldPathError {
    /// The document is not JSON, or not a JSON object where a set was expected.
    #[error("{path}: expected a JSON object, got {found}")]
    NotAnObject {
        /// Where in the document (Go's path notation, `<root>` for the top).
        path: String,
        /// What was there instead.
        found: String,
    },
    /// A key is none of `.`, `f:`, `k:`, `v:`, `i:` (Go's "unknown path element type").
    #[error("{path}: unknown path element type in key {key:?}")]
    UnknownElement {
        /// Where in the document.
        path: String,
        /// The key as written.
        key: String,
    },
    /// A `k:`, `v:` or `i:` key whose value part is not what it must be.
    #[error("{path}: malformed path element {key:?}: {reason}")]
    Malformed {
        /// Where in the document.
        path: String,
        /// The key as written.
        key: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// One step of a path (Go's `fieldpath.PathElement`).
#[derive(Clone, Debug)]
pub enum PathElement {
    /// A field of a map or struct (`f:name`, printed `.name`).
    Field(String),
    /// The item of an associative list with these key fields, sorted by name
    /// (`k:{"name":"x"}`, printed `[name="x"]`).
    Key(Vec<(String, Value)>),
    /// The item of a set-list with this value (`v:"x"`, printed `[="x"]`).
    Value(Value),
    /// The item of a list by position (`i:0`, printed `[0]`).
    Index(usize),
}

impl PathElement {
    /// A keyed list item's element from its key fields, sorted by name as Go's
    /// `KeyByFields` sorts them.
    pub fn key(mut fields: Vec<(String, Value)>) -> Self {
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        PathElement::Key(fields)
    }

    /// The element's field name, when it is a field.
    pub fn field_name(&self) -> Option<&str> {
        match self {
            PathElement::Field(name) => Some(name),
            _ => None,
        }
    }

    fn rank(&self) -> u8 {
        match self {
            PathElement::Field(_) => 0,
            PathElement::Key(_) => 1,
            PathElement::Value(_) => 2,
            PathElement::Index(_) => 3,
        }
    }

    /// The `FieldsV1` key of the element (`f:name`, `k:{...}`, `v:...`, `i:0`).
    pub fn to_fields_v1_key(&self) -> String {
        match self {
            PathElement::Field(name) => format!("f:{name}"),
            PathElement::Key(fields) => {
                let mut out = b"k:{".to_vec();
                for (i, (name, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    go_json(&Value::String(name.clone()), &mut out);
                    out.push(b':');
                    go_json(value, &mut out);
                }
                out.push(b'}');
                String::from_utf8_lossy(&out).into_owned()
            }
            PathElement::Value(value) => {
                let mut out = b"v:".to_vec();
                go_json(value, &mut out);
                String::from_utf8_lossy(&out).into_owned()
            }
            PathElement::Index(i) => format!("i:{i}"),
        }
    }

    /// Reads a `FieldsV1` key; `path` names where, for the error.
    fn from_fields_v1_key(key: &str, path: &str) -> Result<Self, FieldPathError> {
        let malformed = |reason: String| FieldPathError::Malformed {
            path: path.to_owned(),
            key: key.to_owned(),
            reason,
        };
        let (kind, rest) = key.split_at(key.len().min(2));
        match kind {
            "f:" => Ok(PathElement::Field(rest.to_owned())),
            "k:" => match serde_json::from_str::<Value>(rest) {
                Ok(Value::Object(map)) => Ok(PathElement::key(map.into_iter().collect())),
                Ok(other) => Err(malformed(format!(
                    "the key must be a JSON object, got {}",
                    kind_of(&other)
                ))),
                Err(e) => Err(malformed(e.to_string())),
            },
            "v:" => serde_json::from_str::<Value>(rest)
                .map(PathElement::Value)
                .map_err(|e| malformed(e.to_string())),
            "i:" => rest
                .parse::<usize>()
                .map(PathElement::Index)
                .map_err(|e| malformed(e.to_string())),
            _ => Err(FieldPathError::UnknownElement {
                path: path.to_owned(),
                key: key.to_owned(),
            }),
        }
    }
}

fn go_json(value: &Value, out: &mut Vec<u8>) {
    // A serde_json Value always serializes; Go's escaping is what matters here.
    if encode_go_json(value, out, JsonLayout::Compact).is_err() {
        out.extend_from_slice(b"null");
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Go's `value.Compare`: numbers, then strings, booleans, lists, maps, and null last.
pub fn compare_values(a: &Value, b: &Value) -> Ordering {
    fn rank(v: &Value) -> u8 {
        match v {
            Value::Number(_) => 0,
            Value::String(_) => 1,
            Value::Bool(_) => 2,
            Value::Array(_) => 3,
            Value::Object(_) => 4,
            Value::Null => 5,
        }
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => {
                let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
                x.partial_cmp(&y).unwrap_or(Ordering::Equal)
            }
        },
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Array(x), Value::Array(y)) => {
            for (l, r) in x.iter().zip(y) {
                let c = compare_values(l, r);
                if c != Ordering::Equal {
                    return c;
                }
            }
            x.len().cmp(&y.len())
        }
        (Value::Object(x), Value::Object(y)) => {
            // serde_json's map iterates in key order, as Go's MapCompare sorts them.
            for ((lk, lv), (rk, rv)) in x.iter().zip(y) {
                let c = lk.cmp(rk).then_with(|| compare_values(lv, rv));
                if c != Ordering::Equal {
                    return c;
                }
            }
            x.len().cmp(&y.len())
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

impl Ord for PathElement {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (PathElement::Field(a), PathElement::Field(b)) => a.cmp(b),
            (PathElement::Key(a), PathElement::Key(b)) => {
                for ((an, av), (bn, bv)) in a.iter().zip(b) {
                    let c = an.cmp(bn).then_with(|| compare_values(av, bv));
                    if c != Ordering::Equal {
                        return c;
                    }
                }
                a.len().cmp(&b.len())
            }
            (PathElement::Value(a), PathElement::Value(b)) => compare_values(a, b),
            (PathElement::Index(a), PathElement::Index(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for PathElement {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for PathElement {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for PathElement {}

impl fmt::Display for PathElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathElement::Field(name) => write!(f, ".{name}"),
            PathElement::Key(fields) => {
                f.write_str("[")?;
                for (i, (name, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    let mut out = Vec::new();
                    go_json(value, &mut out);
                    write!(f, "{name}={}", String::from_utf8_lossy(&out))?;
                }
                f.write_str("]")
            }
            PathElement::Value(value) => {
                let mut out = Vec::new();
                go_json(value, &mut out);
                write!(f, "[={}]", String::from_utf8_lossy(&out))
            }
            PathElement::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// A path from the root of an object to one of its fields or items (Go's
/// `fieldpath.Path`), printed as Go prints it: `.spec.containers[name="web"].image`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Path(pub Vec<PathElement>);

impl Path {
    /// The path one element further.
    pub fn child(&self, pe: PathElement) -> Path {
        let mut v = self.0.clone();
        v.push(pe);
        Path(v)
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for pe in &self.0 {
            write!(f, "{pe}")?;
        }
        Ok(())
    }
}

impl FromStr for Path {
    type Err = FieldPathError;

    /// Reads the dotted form with keyed items (`spec.containers[name="web"].image`, a
    /// leading dot optional) — the notation of error messages, for tests and tools.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let malformed = |reason: &str| FieldPathError::Malformed {
            path: s.to_owned(),
            key: s.to_owned(),
            reason: reason.to_owned(),
        };
        let mut out = Vec::new();
        let mut rest = s.strip_prefix('.').unwrap_or(s);
        while !rest.is_empty() {
            if let Some(inner) = rest.strip_prefix('[') {
                let end = inner.find(']').ok_or_else(|| malformed("unclosed ["))?;
                let body = &inner[..end];
                rest = &inner[end + 1..];
                rest = rest.strip_prefix('.').unwrap_or(rest);
                if let Some(v) = body.strip_prefix('=') {
                    let v = serde_json::from_str(v).map_err(|_| malformed("bad value"))?;
                    out.push(PathElement::Value(v));
                } else if let Ok(i) = body.parse::<usize>() {
                    out.push(PathElement::Index(i));
                } else {
                    let mut fields = Vec::new();
                    for part in body.split(',') {
                        let (k, v) = part.split_once('=').ok_or_else(|| malformed("bad key"))?;
                        let v = serde_json::from_str(v).map_err(|_| malformed("bad key value"))?;
                        fields.push((k.to_owned(), v));
                    }
                    out.push(PathElement::key(fields));
                }
            } else {
                let end = rest.find(['.', '[']).unwrap_or(rest.len());
                out.push(PathElement::Field(rest[..end].to_owned()));
                rest = &rest[end..];
                rest = rest.strip_prefix('.').unwrap_or(rest);
            }
        }
        Ok(Path(out))
    }
}

/// A set of paths, as a trie (Go's `fieldpath.Set`): the elements that are members at
/// this level, and the sets below each element that has members further down.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Set {
    members: BTreeSet<PathElement>,
    children: BTreeMap<PathElement, Set>,
}

impl Set {
    /// The empty set.
    pub fn new() -> Self {
        Set::default()
    }

    /// Whether the set has no paths.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty() && self.children.values().all(Set::is_empty)
    }

    /// Adds `path` (the empty path adds nothing, as in Go).
    pub fn insert(&mut self, path: &[PathElement]) {
        let Some((last, prefix)) = path.split_last() else {
            return;
        };
        let mut node = self;
        for pe in prefix {
            node = node.children.entry(pe.clone()).or_default();
        }
        node.members.insert(last.clone());
    }

    /// Whether `path` is a member.
    pub fn has(&self, path: &Path) -> bool {
        let Some((last, prefix)) = path.0.split_last() else {
            return false;
        };
        let mut node = self;
        for pe in prefix {
            match node.children.get(pe) {
                Some(c) => node = c,
                None => return false,
            }
        }
        node.members.contains(last)
    }

    /// The members directly at this level.
    pub fn members(&self) -> impl Iterator<Item = &PathElement> {
        self.members.iter()
    }

    /// The set below `pe` (Go's `WithPrefix`), if any.
    pub fn child(&self, pe: &PathElement) -> Option<&Set> {
        self.children.get(pe)
    }

    /// The elements with sets below them, and those sets.
    pub fn children(&self) -> impl Iterator<Item = (&PathElement, &Set)> {
        self.children.iter()
    }

    pub(crate) fn insert_member(&mut self, pe: PathElement) {
        self.members.insert(pe);
    }

    pub(crate) fn child_mut(&mut self, pe: PathElement) -> &mut Set {
        self.children.entry(pe).or_default()
    }

    /// Every member path, each level's members before its children's (Go's `Iterate`).
    pub fn paths(&self) -> Vec<Path> {
        let mut out = Vec::new();
        self.collect(&mut Vec::new(), &mut out);
        out
    }

    fn collect(&self, prefix: &mut Vec<PathElement>, out: &mut Vec<Path>) {
        for pe in &self.members {
            let mut p = prefix.clone();
            p.push(pe.clone());
            out.push(Path(p));
        }
        for (pe, child) in &self.children {
            prefix.push(pe.clone());
            child.collect(prefix, out);
            prefix.pop();
        }
    }

    fn prune(mut self) -> Self {
        self.children.retain(|_, c| !c.is_empty());
        self
    }

    /// Every path of either set.
    pub fn union(&self, other: &Set) -> Set {
        let mut out = self.clone();
        out.members.extend(other.members.iter().cloned());
        for (pe, child) in &other.children {
            let merged = match out.children.get(pe) {
                Some(mine) => mine.union(child),
                None => child.clone(),
            };
            out.children.insert(pe.clone(), merged);
        }
        out.prune()
    }

    /// The paths of both sets.
    pub fn intersection(&self, other: &Set) -> Set {
        let members = self.members.intersection(&other.members).cloned().collect();
        let children = self
            .children
            .iter()
            .filter_map(|(pe, c)| {
                other
                    .children
                    .get(pe)
                    .map(|o| (pe.clone(), c.intersection(o)))
            })
            .collect();
        Set { members, children }.prune()
    }

    /// The paths of `self` that are not in `other`; a member of `other` leaves the paths
    /// below it in `self` alone (Go's `Difference`).
    pub fn difference(&self, other: &Set) -> Set {
        let members = self.members.difference(&other.members).cloned().collect();
        let children = self
            .children
            .iter()
            .map(|(pe, c)| match other.children.get(pe) {
                Some(o) => (pe.clone(), c.difference(o)),
                None => (pe.clone(), c.clone()),
            })
            .collect();
        Set { members, children }.prune()
    }

    /// The paths of `self` that neither are in `other` nor lie below one of its members
    /// (Go's `RecursiveDifference`).
    pub fn recursive_difference(&self, other: &Set) -> Set {
        let members = self.members.difference(&other.members).cloned().collect();
        let children = self
            .children
            .iter()
            .filter(|(pe, _)| !other.members.contains(pe))
            .map(|(pe, c)| match other.children.get(pe) {
                Some(o) => (pe.clone(), c.recursive_difference(o)),
                None => (pe.clone(), c.clone()),
            })
            .collect();
        Set { members, children }.prune()
    }

    /// Reads a `FieldsV1` document.
    pub fn from_fields_v1(value: &Value) -> Result<Set, FieldPathError> {
        let mut set = Set::new();
        read_set(value, "<root>", &mut set)?;
        Ok(set)
    }

    /// Reads a `FieldsV1` document from its JSON text.
    pub fn from_fields_v1_bytes(bytes: &[u8]) -> Result<Set, FieldPathError> {
        let value: Value =
            serde_json::from_slice(bytes).map_err(|e| FieldPathError::NotAnObject {
                path: "<root>".into(),
                found: format!("invalid JSON ({e})"),
            })?;
        Set::from_fields_v1(&value)
    }

    /// The set as a `FieldsV1` document (JSON keeps object keys sorted, so the key
    /// order of [`to_fields_v1_bytes`](Self::to_fields_v1_bytes) is Go's exactly, this
    /// value's only where key values compare alike as text and as values).
    pub fn to_fields_v1(&self) -> Value {
        let mut map = Map::new();
        for pe in &self.members {
            let below = match self.children.get(pe) {
                Some(c) if !c.is_empty() => {
                    let mut m = match c.to_fields_v1() {
                        Value::Object(m) => m,
                        _ => Map::new(),
                    };
                    m.insert(".".into(), Value::Object(Map::new()));
                    Value::Object(m)
                }
                _ => Value::Object(Map::new()),
            };
            map.insert(pe.to_fields_v1_key(), below);
        }
        for (pe, c) in &self.children {
            if !self.members.contains(pe) && !c.is_empty() {
                map.insert(pe.to_fields_v1_key(), c.to_fields_v1());
            }
        }
        Value::Object(map)
    }

    /// The set as the JSON text Go writes for it: elements in Go's order (fields, keys,
    /// values, indices), `.` first where an element is a member with children.
    pub fn to_fields_v1_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_fields_v1(false, &mut out);
        out
    }

    fn write_fields_v1(&self, include_self: bool, out: &mut Vec<u8>) {
        out.push(b'{');
        let mut first = true;
        let mut sep = |out: &mut Vec<u8>| {
            if !first {
                out.push(b',');
            }
            first = false;
        };
        if include_self {
            sep(out);
            out.extend_from_slice(b"\".\":{}");
        }
        let mut elements: BTreeSet<&PathElement> = self.members.iter().collect();
        elements.extend(
            self.children
                .iter()
                .filter(|(_, c)| !c.is_empty())
                .map(|(pe, _)| pe),
        );
        for pe in elements {
            sep(out);
            go_json(&Value::String(pe.to_fields_v1_key()), out);
            out.push(b':');
            match self.children.get(pe).filter(|c| !c.is_empty()) {
                Some(c) => c.write_fields_v1(self.members.contains(pe), out),
                None => out.extend_from_slice(b"{}"),
            }
        }
        out.push(b'}');
    }
}

fn read_set(value: &Value, path: &str, set: &mut Set) -> Result<bool, FieldPathError> {
    let Value::Object(map) = value else {
        return Err(FieldPathError::NotAnObject {
            path: path.to_owned(),
            found: kind_of(value).to_owned(),
        });
    };
    let mut is_member = false;
    for (key, below) in map {
        if key == "." {
            is_member = true;
            continue;
        }
        let pe = PathElement::from_fields_v1_key(key, path)?;
        let child_path = if path == "<root>" {
            pe.to_string()
        } else {
            format!("{path}{pe}")
        };
        let mut child = Set::new();
        let member = read_set(below, &child_path, &mut child)?;
        let empty_object = below.as_object().is_some_and(Map::is_empty);
        if member || empty_object {
            set.members.insert(pe.clone());
        }
        if !child.is_empty() {
            set.children.insert(pe, child);
        }
    }
    Ok(is_member)
}

#[cfg(test)]
mod tests;
