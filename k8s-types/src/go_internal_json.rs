//! Go's JSON of an internal struct (`k8s.io/kubernetes/pkg/apis/core.PodSpec` and what it
//! is made of), which Go's validation writes into some messages: `diff.Diff` of an old
//! and a new value (a pod's spec, a volume's source, a claim's spec), or `json.Marshal`
//! of a bad value. Internal structs have no JSON tags, so Go writes its field names, in
//! struct order, every field present, nil pointers, slices and maps as `null`; embedded
//! structs' fields are the outer struct's; apimachinery's types (`Quantity`, `Time`,
//! `ObjectMeta`, `IntOrString`) keep their tags and methods, so their text is the
//! external JSON's.
//!
//! One writer for every type: it walks the external JSON of our value (which our
//! serializer writes as Go writes the v1 type) along the release's generated table of
//! the internal structs' shapes (`generated::go_internal`): each field's Go name, the v1
//! key its value is read from, and its shape. Go converts these v1 structs to the
//! internal ones by a memory cast, field for field, so the values are the v1 values.
//! What our JSON leaves out (`omitempty`) is written as Go's zero value of the field.

use apimachinery::util::diff::diff_json;
use apimachinery::util::json::{JsonLayout, WriteJson, encode_write_json};
use apimachinery::util::validation::field::BadValue;

use crate::generated::go_internal::GO_STRUCTS;

/// One internal Go struct: its `package.Type` name and fields in struct order.
#[derive(Debug)]
pub(crate) struct GoStruct {
    /// `core.PodSpec`.
    pub name: &'static str,
    /// The fields, in Go's struct order.
    pub fields: &'static [GoField],
}

/// One field of an internal struct.
#[derive(Debug)]
pub(crate) struct GoField {
    /// Go's field name: the key Go's JSON writes.
    pub go: &'static str,
    /// The v1 JSON key its value is read from: empty for a struct v1 inlines, `../key`
    /// for the enclosing object's key, `a|b` for the first of the keys present and not
    /// empty (Go's conversion functions of a release that moves a v1 field).
    pub json: &'static str,
    /// An embedded field, whose fields Go's JSON writes as the outer struct's.
    pub embedded: bool,
    /// Its shape.
    pub shape: GoShape,
}

/// A field's shape.
#[derive(Debug)]
pub(crate) enum GoShape {
    /// A value whose external JSON is Go's (a string, a number, a `Quantity`, a metav1
    /// struct), and Go's text of its zero value.
    Value(Zero),
    /// An internal struct: its index in the table.
    Struct(usize),
    /// `*T`: `null` when nil.
    Pointer(&'static GoShape),
    /// `[]T`: `null` when nil.
    Slice(&'static GoShape),
    /// `map[K]T`: `null` when nil.
    Map(&'static GoShape),
}

/// Go's JSON of a value's zero value, for a value the external JSON leaves out.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Zero {
    /// `""`.
    String,
    /// `0` (an `IntOrString` too: its zero value is the integer 0).
    Number,
    /// `false`.
    Bool,
    /// `null` (`metav1.Time`'s zero, a nil `[]byte`).
    Null,
    /// `"0"`, a zero `resource.Quantity`.
    Quantity,
    /// `{}`, a metav1 struct all of whose fields are left out.
    Object,
}

impl Zero {
    fn text(self) -> &'static str {
        match self {
            Zero::String => "\"\"",
            Zero::Number => "0",
            Zero::Bool => "false",
            Zero::Null => "null",
            Zero::Quantity => "\"0\"",
            Zero::Object => "{}",
        }
    }
}

/// Go's `json.Marshal` of the internal struct `root` (`core.PodSpec`) converted from
/// `value`, its v1 form; `None` when the table has no such struct or our JSON cannot be
/// written (neither happens for the roots the table is generated for).
pub(crate) fn internal_json(root: &str, value: &dyn WriteJson) -> Option<String> {
    let index = GO_STRUCTS.binary_search_by(|s| s.name.cmp(root)).ok()?;
    let mut external = Vec::new();
    encode_write_json(value, &mut external, JsonLayout::Compact).ok()?;
    let text = std::str::from_utf8(&external).ok()?;
    let node = parse(text)?;
    let mut out = String::with_capacity(text.len() * 2);
    write_struct(index, Some(&node), None, &mut out);
    Some(out)
}

/// Go's `diff.Diff(old, new)` of two values of the internal struct `root`, converted from
/// their v1 forms: the text Go appends to a message after a newline (empty when Go's JSON
/// of both is the same).
#[cfg_attr(not(feature = "core"), allow(dead_code))]
pub(crate) fn internal_diff(root: &str, old: &dyn WriteJson, new: &dyn WriteJson) -> String {
    match (internal_json(root, old), internal_json(root, new)) {
        (Some(a), Some(b)) => diff_json(&a, &b),
        _ => String::new(),
    }
}

/// [`internal_json`] as a field error's bad value (`null` if it cannot be written).
#[cfg_attr(not(any(feature = "batch", feature = "storage")), allow(dead_code))]
pub(crate) fn internal_value(root: &str, value: &dyn WriteJson) -> BadValue {
    BadValue::Json(internal_json(root, value).unwrap_or_else(|| "null".to_owned()))
}

/// A slice of internal structs as Go's `json.Marshal` writes it: `null` when empty (ours
/// cannot tell nil from empty: a list Go's JSON left out is both).
fn internal_list_json<T: WriteJson>(root: &str, items: &[T]) -> Option<String> {
    if items.is_empty() {
        return Some("null".to_owned());
    }
    let texts: Option<Vec<String>> = items.iter().map(|i| internal_json(root, i)).collect();
    texts.map(|t| format!("[{}]", t.join(",")))
}

/// [`internal_list_json`] as a field error's bad value.
#[cfg_attr(not(all(feature = "apps", feature = "v1_37")), allow(dead_code))]
pub(crate) fn internal_list_value<T: WriteJson>(root: &str, items: &[T]) -> BadValue {
    BadValue::Json(internal_list_json(root, items).unwrap_or_else(|| "null".to_owned()))
}

/// A message followed, as Go writes it, by a newline and `diff.Diff` of two slices of
/// the internal struct `root` (each `null` when empty, as Go's nil slice).
#[cfg_attr(not(feature = "certificates"), allow(dead_code))]
pub(crate) fn with_internal_list_diff<T: WriteJson>(
    message: &str,
    root: &str,
    old: &[T],
    new: &[T],
) -> String {
    let diff = match (internal_list_json(root, old), internal_list_json(root, new)) {
        (Some(a), Some(b)) => diff_json(&a, &b),
        _ => String::new(),
    };
    format!("{message}\n{diff}")
}

/// A message followed, as Go writes it, by a newline and [`internal_diff`].
#[cfg_attr(not(feature = "core"), allow(dead_code))]
pub(crate) fn with_internal_diff(
    message: &str,
    root: &str,
    old: &dyn WriteJson,
    new: &dyn WriteJson,
) -> String {
    format!("{message}\n{}", internal_diff(root, old, new))
}

/// Struct `index` read from the external object `value`, inside the object `parent`.
fn write_struct(
    index: usize,
    value: Option<&Node<'_>>,
    parent: Option<&Node<'_>>,
    out: &mut String,
) {
    out.push('{');
    let mut first = true;
    write_fields(index, value, parent, out, &mut first);
    out.push('}');
}

/// The value of a field read from `key` (see [`GoField::json`]) of `value`, inside
/// `parent`.
fn lookup<'n, 'a>(
    key: &str,
    value: Option<&'n Node<'a>>,
    parent: Option<&'n Node<'a>>,
) -> Option<&'n Node<'a>> {
    // v1 inlines the embedded structs the internal types embed (`VolumeSource`), so
    // an empty key reads from the same object.
    if key.is_empty() {
        return value;
    }
    if let Some(up) = key.strip_prefix("../") {
        return parent.and_then(|p| p.get(up));
    }
    if key.contains('|') {
        let empty = |n: &Node<'_>| matches!(n, Node::Scalar("\"\"" | "null"));
        return key
            .split('|')
            .filter_map(|k| value.and_then(|v| v.get(k)))
            .find(|n| !empty(n));
    }
    value.and_then(|v| v.get(key))
}

/// The fields of struct `index` read from the external object `value` (inside
/// `parent`), each after a comma but the first of the enclosing object.
fn write_fields(
    index: usize,
    value: Option<&Node<'_>>,
    parent: Option<&Node<'_>>,
    out: &mut String,
    first: &mut bool,
) {
    let Some(s) = GO_STRUCTS.get(index) else {
        return;
    };
    for field in s.fields {
        let own = lookup(field.json, value, parent);
        if field.embedded {
            match field.shape {
                GoShape::Struct(inner) => write_fields(inner, own, parent, out, first),
                // A metav1 struct (`ObjectMeta`, `TypeMeta`): its tagged fields are the
                // outer struct's, as our JSON writes them.
                _ => splice(field, own, out, first),
            }
            continue;
        }
        separator(out, first);
        out.push('"');
        out.push_str(field.go);
        out.push_str("\":");
        write_shape(&field.shape, own, value, out);
    }
}

/// The members of an embedded metav1 struct (`ObjectMeta`, v1's `metadata`). An
/// embedded `TypeMeta`, which v1 inlines, is left empty: Go's conversions of the structs
/// that embed it (a claim, a stateful set's claim templates) do not copy it.
fn splice(field: &GoField, own: Option<&Node<'_>>, out: &mut String, first: &mut bool) {
    if field.json.is_empty() {
        return;
    }
    let Some(Node::Object(members, _)) = own else {
        return;
    };
    for (key, node) in members {
        separator(out, first);
        out.push('"');
        out.push_str(key);
        out.push_str("\":");
        out.push_str(node.raw());
    }
}

fn separator(out: &mut String, first: &mut bool) {
    if !*first {
        out.push(',');
    }
    *first = false;
}

/// A value of `shape` read from `value`, a member of the object `parent`.
fn write_shape(
    shape: &GoShape,
    value: Option<&Node<'_>>,
    parent: Option<&Node<'_>>,
    out: &mut String,
) {
    let value = value.filter(|v| !matches!(v, Node::Scalar("null")));
    match (shape, value) {
        (GoShape::Value(zero), None) => out.push_str(zero.text()),
        (GoShape::Struct(index), None) => write_struct(*index, None, parent, out),
        (GoShape::Pointer(_) | GoShape::Slice(_) | GoShape::Map(_), None) => out.push_str("null"),
        (GoShape::Struct(index), Some(v @ Node::Object(..))) => {
            write_struct(*index, Some(v), parent, out);
        }
        (GoShape::Pointer(inner), Some(v)) => write_shape(inner, Some(v), parent, out),
        (GoShape::Slice(inner), Some(Node::Array(items, _))) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_shape(inner, Some(item), value, out);
            }
            out.push(']');
        }
        (GoShape::Map(inner), Some(Node::Object(members, _))) => {
            // Go writes a map's keys sorted, as our JSON has them.
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('"');
                out.push_str(key);
                out.push_str("\":");
                write_shape(inner, Some(item), value, out);
            }
            out.push('}');
        }
        // A value as the external JSON writes it (a mismatch cannot come from our
        // serializer; the text is kept rather than lost).
        (_, Some(v)) => out.push_str(v.raw()),
    }
}

/// A JSON value of our compact text, its members in the text's order (a metav1 struct's
/// fields are Go's struct order, which a sorted map would lose).
#[derive(Debug)]
enum Node<'a> {
    /// A string, number, boolean or null, as written.
    Scalar(&'a str),
    /// An array's items, and its text.
    Array(Vec<Node<'a>>, &'a str),
    /// An object's members (keys as written, without their quotes), and its text.
    Object(Vec<(&'a str, Node<'a>)>, &'a str),
}

impl<'a> Node<'a> {
    fn raw(&self) -> &'a str {
        match self {
            Node::Scalar(raw) | Node::Array(_, raw) | Node::Object(_, raw) => raw,
        }
    }

    fn get(&self, key: &str) -> Option<&Node<'a>> {
        match self {
            Node::Object(members, _) => members.iter().find(|(k, _)| *k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Parses one JSON value (our serializer's output: valid, compact).
fn parse(text: &str) -> Option<Node<'_>> {
    let (node, rest) = value(text, 0)?;
    text[rest..].trim().is_empty().then_some(node)
}

fn skip_ws(text: &str, mut at: usize) -> usize {
    let bytes = text.as_bytes();
    while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

/// The value starting at `at` (after whitespace) and the offset after it.
fn value(text: &str, at: usize) -> Option<(Node<'_>, usize)> {
    let start = skip_ws(text, at);
    let bytes = text.as_bytes();
    match bytes.get(start)? {
        b'"' => {
            let end = string_end(text, start)?;
            Some((Node::Scalar(text.get(start..end)?), end))
        }
        b'[' => {
            let mut items = Vec::new();
            let mut at = skip_ws(text, start + 1);
            if bytes.get(at) == Some(&b']') {
                return Some((Node::Array(items, text.get(start..at + 1)?), at + 1));
            }
            loop {
                let (item, next) = value(text, at)?;
                items.push(item);
                at = skip_ws(text, next);
                match bytes.get(at)? {
                    b',' => at += 1,
                    b']' => return Some((Node::Array(items, text.get(start..at + 1)?), at + 1)),
                    _ => return None,
                }
            }
        }
        b'{' => {
            let mut members = Vec::new();
            let mut at = skip_ws(text, start + 1);
            if bytes.get(at) == Some(&b'}') {
                return Some((Node::Object(members, text.get(start..at + 1)?), at + 1));
            }
            loop {
                at = skip_ws(text, at);
                if bytes.get(at) != Some(&b'"') {
                    return None;
                }
                let key_end = string_end(text, at)?;
                let key = text.get(at + 1..key_end - 1)?;
                at = skip_ws(text, key_end);
                if bytes.get(at) != Some(&b':') {
                    return None;
                }
                let (item, next) = value(text, at + 1)?;
                members.push((key, item));
                at = skip_ws(text, next);
                match bytes.get(at)? {
                    b',' => at += 1,
                    b'}' => {
                        return Some((Node::Object(members, text.get(start..at + 1)?), at + 1));
                    }
                    _ => return None,
                }
            }
        }
        _ => {
            let len = text[start..]
                .find(|c: char| matches!(c, ',' | ']' | '}') || c.is_ascii_whitespace())
                .unwrap_or(text.len() - start);
            (len > 0).then(|| (Node::Scalar(&text[start..start + len]), start + len))
        }
    }
}

/// The offset after the closing quote of the string starting at `start`.
fn string_end(text: &str, start: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = start + 1;
    loop {
        match bytes.get(at)? {
            b'\\' => at += 2,
            b'"' => return Some(at + 1),
            _ => at += 1,
        }
    }
}
