//! [`Tree`]: a JSON value whose objects keep their keys' order (the input's, or Go's
//! field order for what the typed encoder writes), and the paths into it.
//!
//! `serde_json::Value` sorts object keys, as Go sorts a map's; minimal conversion needs
//! the order in which the user wrote a manifest to write it back the same way.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

/// A JSON value with ordered objects.
#[derive(Clone, Debug)]
pub enum Tree {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Tree>),
    /// An object, keys in order.
    Object(Vec<(String, Tree)>),
}

/// One step of a path: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    /// An object's key.
    Key(String),
    /// An array's index.
    Index(usize),
}

/// A path from the root, as Go's field paths print it (`spec.rules[0].http`).
pub fn path_string(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

impl PartialEq for Tree {
    /// Equality of JSON values: objects compare by their keys and values, in any order.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Tree::Null, Tree::Null) => true,
            (Tree::Bool(a), Tree::Bool(b)) => a == b,
            (Tree::Number(a), Tree::Number(b)) => a == b || a.as_f64() == b.as_f64(),
            (Tree::String(a), Tree::String(b)) => a == b,
            (Tree::Array(a), Tree::Array(b)) => a == b,
            (Tree::Object(a), Tree::Object(b)) => {
                a.len() == b.len() && a.iter().all(|(k, v)| other_get(b, k) == Some(v))
            }
            _ => false,
        }
    }
}

fn other_get<'t>(entries: &'t [(String, Tree)], key: &str) -> Option<&'t Tree> {
    entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

impl Tree {
    /// The tree of a `serde_json::Value` (objects in its sorted order).
    pub fn from_value(value: &Value) -> Tree {
        match value {
            Value::Null => Tree::Null,
            Value::Bool(b) => Tree::Bool(*b),
            Value::Number(n) => Tree::Number(n.clone()),
            Value::String(s) => Tree::String(s.clone()),
            Value::Array(a) => Tree::Array(a.iter().map(Tree::from_value).collect()),
            Value::Object(o) => Tree::Object(
                o.iter()
                    .map(|(k, v)| (k.clone(), Tree::from_value(v)))
                    .collect(),
            ),
        }
    }

    /// The value (objects sorted again).
    pub fn to_value(&self) -> Value {
        match self {
            Tree::Null => Value::Null,
            Tree::Bool(b) => Value::Bool(*b),
            Tree::Number(n) => Value::Number(n.clone()),
            Tree::String(s) => Value::String(s.clone()),
            Tree::Array(a) => Value::Array(a.iter().map(Tree::to_value).collect()),
            Tree::Object(o) => {
                Value::Object(o.iter().map(|(k, v)| (k.clone(), v.to_value())).collect())
            }
        }
    }

    /// JSON text read with its objects' key order (a key given twice keeps its last value,
    /// in its first place, as Go's decoder keeps it).
    pub fn parse_json(text: &[u8]) -> Result<Tree, serde_json::Error> {
        serde_json::from_slice(text)
    }

    /// The value at `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Tree> {
        match self {
            Tree::Object(o) => other_get(o, key),
            _ => None,
        }
    }

    /// The string at `key` of an object, `""` if none.
    pub fn str_at(&self, key: &str) -> &str {
        match self.get(key) {
            Some(Tree::String(s)) => s,
            _ => "",
        }
    }

    /// The value at `path`.
    pub fn at(&self, path: &[Seg]) -> Option<&Tree> {
        let mut node = self;
        for seg in path {
            node = match (seg, node) {
                (Seg::Key(k), Tree::Object(o)) => other_get(o, k)?,
                (Seg::Index(i), Tree::Array(a)) => a.get(*i)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// The value at `path`, to change.
    pub fn at_mut(&mut self, path: &[Seg]) -> Option<&mut Tree> {
        let mut node = self;
        for seg in path {
            node = match (seg, node) {
                (Seg::Key(k), Tree::Object(o)) => {
                    o.iter_mut().find(|(key, _)| key == k).map(|(_, v)| v)?
                }
                (Seg::Index(i), Tree::Array(a)) => a.get_mut(*i)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// Whether the value says nothing: `null`, `""`, `0`, `false`, `[]`, or an object of
    /// such values only. What a typed encoder writes for a Go zero value.
    pub fn is_zero(&self) -> bool {
        match self {
            Tree::Null => true,
            Tree::Bool(b) => !b,
            Tree::Number(n) => n.as_f64() == Some(0.0),
            Tree::String(s) => s.is_empty(),
            Tree::Array(a) => a.is_empty(),
            Tree::Object(o) => o.iter().all(|(_, v)| v.is_zero()),
        }
    }

    /// Whether it is an array or object.
    pub fn is_collection(&self) -> bool {
        matches!(self, Tree::Array(_) | Tree::Object(_))
    }

    /// Whether it is a non-empty array or object: what YAML writes as a block (empty
    /// ones are written `[]` and `{}` inline).
    pub fn is_block_collection(&self) -> bool {
        matches!(self, Tree::Array(a) if !a.is_empty())
            || matches!(self, Tree::Object(o) if !o.is_empty())
    }

    /// Every scalar leaf, written as text (`80` and `"80"` alike), so that a value moved
    /// into a string (an annotation) is still recognized.
    pub fn leaves(&self, out: &mut Vec<String>) {
        match self {
            Tree::Null => {}
            Tree::Bool(b) => out.push(b.to_string()),
            Tree::Number(n) => out.push(n.to_string()),
            Tree::String(s) => out.push(s.clone()),
            Tree::Array(a) => a.iter().for_each(|v| v.leaves(out)),
            Tree::Object(o) => o.iter().for_each(|(_, v)| v.leaves(out)),
        }
    }

    /// Sets `key` of an object to `value`: in place when it is there, else inserted
    /// before the first key that `order` (the keys of the same object in another tree)
    /// puts after it, or at the end. Nothing for a value that is not an object.
    pub fn set_key(&mut self, key: &str, value: Tree, order: Option<&Tree>) {
        let Tree::Object(entries) = self else {
            return;
        };
        if let Some(slot) = entries.iter_mut().find(|(k, _)| k == key) {
            slot.1 = value;
            return;
        }
        let at = match order {
            Some(Tree::Object(order)) => {
                let after: Vec<&str> = order
                    .iter()
                    .skip_while(|(k, _)| k != key)
                    .skip(1)
                    .map(|(k, _)| k.as_str())
                    .collect();
                entries
                    .iter()
                    .position(|(k, _)| after.contains(&k.as_str()))
                    .unwrap_or(entries.len())
            }
            _ => entries.len(),
        };
        entries.insert(at, (key.to_owned(), value));
    }

    /// Removes `key` of an object.
    pub fn remove_key(&mut self, key: &str) {
        if let Tree::Object(entries) = self {
            entries.retain(|(k, _)| k != key);
        }
    }
}

impl fmt::Display for Tree {
    /// Compact JSON, keys in order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tree::Null => f.write_str("null"),
            Tree::Bool(b) => write!(f, "{b}"),
            Tree::Number(n) => write!(f, "{n}"),
            Tree::String(s) => f.write_str(&Value::String(s.clone()).to_string()),
            Tree::Array(a) => {
                f.write_str("[")?;
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Tree::Object(o) => {
                f.write_str("{")?;
                for (i, (k, v)) in o.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}:{v}", Value::String(k.clone()))?;
                }
                f.write_str("}")
            }
        }
    }
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TreeVisitor)
    }
}

struct TreeVisitor;

impl<'de> Visitor<'de> for TreeVisitor {
    type Value = Tree;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Tree, E> {
        Ok(Tree::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Tree, E> {
        Ok(Tree::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Tree, E> {
        Ok(Tree::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Tree, E> {
        Ok(Tree::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Tree, E> {
        Ok(Tree::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Tree, E> {
        Number::from_f64(v)
            .map(Tree::Number)
            .ok_or_else(|| E::custom("a number JSON cannot hold"))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Tree, E> {
        Ok(Tree::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Tree, E> {
        Ok(Tree::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element()? {
            out.push(v);
        }
        Ok(Tree::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tree, A::Error> {
        let mut out: Vec<(String, Tree)> = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Tree>()? {
            match out.iter_mut().find(|(key, _)| *key == k) {
                Some(slot) => slot.1 = v,
                None => out.push((k, v)),
            }
        }
        Ok(Tree::Object(out))
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The tree of JSON text (the tests' shorthand).
    pub(in crate::commands::convert::minimal) fn tree(json: &str) -> Tree {
        Tree::parse_json(json.as_bytes()).unwrap()
    }

    #[test]
    fn objects_keep_their_order_and_compare_without_it() {
        let a = tree(r#"{"b":1,"a":[true,null],"c":{"y":"s","x":2.5}}"#);
        assert_eq!(
            a.to_string(),
            r#"{"b":1,"a":[true,null],"c":{"y":"s","x":2.5}}"#
        );
        assert_eq!(a, tree(r#"{"a":[true,null],"c":{"x":2.5,"y":"s"},"b":1}"#));
        assert_ne!(a, tree(r#"{"a":[true,null],"c":{"x":2.5,"y":"s"},"b":2}"#));
        assert_eq!(
            a.at(&[Seg::Key("c".into()), Seg::Key("x".into())]),
            Some(&tree("2.5"))
        );
        assert_eq!(
            path_string(&[Seg::Key("spec".into()), Seg::Index(0), Seg::Key("a".into())]),
            "spec[0].a"
        );
    }

    #[test]
    fn keys_are_inserted_where_the_other_order_puts_them() {
        let mut t = tree(r#"{"replicas":1,"template":{}}"#);
        let go = tree(r#"{"replicas":0,"selector":null,"template":{},"strategy":{}}"#);
        t.set_key("selector", tree("{}"), Some(&go));
        t.set_key("strategy", tree("{}"), Some(&go));
        t.set_key("zzz", tree("1"), None);
        assert_eq!(
            t.to_string(),
            r#"{"replicas":1,"selector":{},"template":{},"strategy":{},"zzz":1}"#
        );
        t.remove_key("template");
        assert!(t.get("template").is_none());
    }

    #[test]
    fn zero_values_and_leaves() {
        assert!(tree(r#"{"a":{},"b":[],"c":"","d":0,"e":false,"f":null}"#).is_zero());
        assert!(!tree(r#"{"a":{"b":1}}"#).is_zero());
        let mut leaves = Vec::new();
        tree(r#"{"a":[80,"web"],"b":{"c":true}}"#).leaves(&mut leaves);
        assert_eq!(leaves, ["80", "web", "true"]);
    }
}
