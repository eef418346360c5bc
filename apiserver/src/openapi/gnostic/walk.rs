//! The walk that reads a node tree into gnostic's messages ([`tables`](super::tables)) the
//! way the generated `New<Message>` functions do (`OpenAPIv3.go`), writing protobuf as
//! Go's `proto.Marshal` does: fields by number, zero scalars left out, a message field
//! written whenever its key was there, repeated elements and oneof members always.
//!
//! What the generated code checks is an error here too (a key not allowed, a required
//! key missing, a scalar of the wrong type): any error fails the whole document, as
//! `ParseDocument` does, but in the alternative of a oneof that another one matched.

use super::Error;
use super::node::{Kind, Node};
use super::resolve::Tag;
use super::tables::{Item, Key, Msg, Object, SCHEMA_OR_REFERENCE, Value};
use super::yaml;

/// Writes the body of `msg` read from `node` onto `out`.
pub(super) fn message(msg: Msg, node: &Node, out: &mut Vec<u8>) -> Result<(), Error> {
    if let Some(object) = msg.object() {
        return read_object(object, node, out);
    }
    match msg {
        Msg::OrReference(alt) => {
            // The message is tried first and the reference second, the last match
            // winning: a reference when it reads (it needs a `$ref`), else the message.
            let mut reference = Vec::new();
            if node.get("$ref").is_some() && message(Msg::Reference, node, &mut reference).is_ok() {
                nested(out, 2, &reference);
                return Ok(());
            }
            let mut body = Vec::new();
            message(alt.message(), node, &mut body)
                .map_err(|e| Error(format!("an invalid {alt:?}OrReference: {}", e.0)))?;
            nested(out, 1, &body);
        }
        Msg::Map(item) => {
            for (key, value) in node.pairs() {
                let Some(name) = string_of(key) else {
                    continue;
                };
                let value = value.ok_or_else(|| Error("a key without a value".to_owned()))?;
                let mut pair = Vec::new();
                string_field(&mut pair, 1, name);
                match item {
                    Item::Message(m) => message_field(&mut pair, 2, *m, value)?,
                    Item::Str => string_field(&mut pair, 2, string_of(value).unwrap_or_default()),
                }
                nested(out, 1, &pair);
            }
        }
        Msg::ItemsItem => message_field(out, 1, SCHEMA_OR_REFERENCE, node)?,
        Msg::AdditionalPropertiesItem => match bool_of(node) {
            Some(b) => {
                tag(out, 2, 0);
                varint(out, u64::from(b));
            }
            None => message_field(out, 1, SCHEMA_OR_REFERENCE, node)?,
        },
        // The expression (a map of anything) always matches, after the `Any`.
        Msg::AnyOrExpression => message_field(out, 2, Msg::Map(Item::Message(&Msg::Any)), node)?,
        Msg::DefaultType => default_type(node, out),
        Msg::StringArray => {
            for item in &node.content {
                tag(out, 1, 2);
                bytes(out, string_of(item).unwrap_or_default().as_bytes());
            }
        }
        Msg::Any => string_field(out, 2, &yaml::marshal(node)),
        _ => return Err(Error(format!("{msg:?} has no reader"))),
    }
    Ok(())
}

fn read_object(object: &Object, node: &Node, out: &mut Vec<u8>) -> Result<(), Error> {
    if let Some(missing) = object.required.iter().find(|k| node.get(k).is_none()) {
        return Err(Error(format!("is missing required property: {missing}")));
    }
    if let (Some(allowed), Kind::Mapping) = (object.allowed, node.kind) {
        let invalid = node.pairs().map(|(k, _)| k.value.as_str()).find(|key| {
            !allowed.split(' ').any(|a| a == *key)
                && !object.patterns.iter().any(|p| p.matches(key))
        });
        if let Some(key) = invalid {
            return Err(Error(format!("has invalid property: {key}")));
        }
    }
    for &(number, key, value) in object.fields {
        if let Key::Name(name) = key {
            if let Some(v) = node.get(name) {
                scalar_or_message(out, number, name, value, v)?;
            }
            continue;
        }
        // A pattern: every matching key, in order, as a `Named<Message>`.
        let Value::Message(msg) = value else {
            return Err(Error("a pattern field holds messages".to_owned()));
        };
        for (k, v) in node.pairs() {
            let Some(name) = string_of(k).filter(|name| key.matches(name)) else {
                continue;
            };
            let v = v.ok_or_else(|| Error("a key without a value".to_owned()))?;
            let mut pair = Vec::new();
            string_field(&mut pair, 1, name);
            message_field(&mut pair, 2, msg, v)?;
            nested(out, number, &pair);
        }
    }
    Ok(())
}

fn scalar_or_message(
    out: &mut Vec<u8>,
    number: u32,
    name: &str,
    value: Value,
    v: &Node,
) -> Result<(), Error> {
    let unexpected = || Error(format!("has unexpected value for {name}"));
    match value {
        Value::Str => string_field(out, number, string_of(v).ok_or_else(unexpected)?),
        Value::Bool => {
            if bool_of(v).ok_or_else(unexpected)? {
                tag(out, number, 0);
                varint(out, 1);
            }
        }
        Value::Float => {
            let f = float_of(v).ok_or_else(unexpected)?;
            if f != 0.0 || f.is_sign_negative() {
                double(out, number, f);
            }
        }
        Value::Int => {
            let i = int_of(v).ok_or_else(unexpected)?;
            if i != 0 {
                tag(out, number, 0);
                // Negative int64s are ten-byte varints of their two's complement.
                varint(out, i as u64);
            }
        }
        Value::Strings => {
            if v.kind != Kind::Sequence {
                return Err(unexpected());
            }
            for s in v.content.iter().filter_map(string_of) {
                tag(out, number, 2);
                bytes(out, s.as_bytes());
            }
        }
        Value::Message(msg) => message_field(out, number, msg, v)?,
        Value::Repeated(msg) => {
            if v.kind == Kind::Sequence {
                for item in &v.content {
                    message_field(out, number, msg, item)?;
                }
            }
        }
    }
    Ok(())
}

/// `DefaultType`: a number, a bool or a string by the scalar's tag (the member set even
/// when the text does not parse, holding zero); nothing for anything else.
fn default_type(node: &Node, out: &mut Vec<u8>) {
    if node.kind != Kind::Scalar {
        return;
    }
    match node.tag {
        Tag::Bool => {
            tag(out, 2, 0);
            varint(out, u64::from(bool_of(node).unwrap_or(false)));
        }
        Tag::Str => {
            tag(out, 3, 2);
            bytes(out, node.value.as_bytes());
        }
        Tag::Float => double(out, 1, float_of(node).unwrap_or(0.0)),
        Tag::Int => double(out, 1, int_of(node).map_or(0.0, |i| i as f64)),
        _ => {}
    }
}

/// `StringForScalarNode`: a string, an integer's or a timestamp's text, `""` for null.
fn string_of(node: &Node) -> Option<&str> {
    match (node.kind, node.tag) {
        (Kind::Scalar, Tag::Str | Tag::Int | Tag::Timestamp) => Some(&node.value),
        (Kind::Scalar, Tag::Null) => Some(""),
        _ => None,
    }
}

/// `BoolForScalarNode`: a `!!bool` that Go's `strconv.ParseBool` reads.
fn bool_of(node: &Node) -> Option<bool> {
    if node.kind != Kind::Scalar || node.tag != Tag::Bool {
        return None;
    }
    match node.value.as_str() {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Some(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Some(false),
        _ => None,
    }
}

/// `IntForScalarNode`: an `!!int` that `strconv.ParseInt(text, 10, 64)` reads (a sign,
/// decimal digits, in range: what Rust's `i64` parse reads too).
fn int_of(node: &Node) -> Option<i64> {
    if node.kind != Kind::Scalar || node.tag != Tag::Int {
        return None;
    }
    node.value.parse().ok()
}

/// `FloatForScalarNode`: an `!!int` or `!!float` that `strconv.ParseFloat` reads.
fn float_of(node: &Node) -> Option<f64> {
    if node.kind != Kind::Scalar || !matches!(node.tag, Tag::Int | Tag::Float) {
        return None;
    }
    node.value.parse().ok()
}

fn message_field(out: &mut Vec<u8>, number: u32, msg: Msg, node: &Node) -> Result<(), Error> {
    let mut body = Vec::new();
    message(msg, node, &mut body)?;
    nested(out, number, &body);
    Ok(())
}

fn nested(out: &mut Vec<u8>, number: u32, body: &[u8]) {
    tag(out, number, 2);
    bytes(out, body);
}

/// A proto3 string field: left out when empty.
fn string_field(out: &mut Vec<u8>, number: u32, s: &str) {
    if !s.is_empty() {
        tag(out, number, 2);
        bytes(out, s.as_bytes());
    }
}

fn double(out: &mut Vec<u8>, number: u32, f: f64) {
    tag(out, number, 1);
    out.extend_from_slice(&f.to_le_bytes());
}

fn tag(out: &mut Vec<u8>, number: u32, wire_type: u32) {
    varint(out, u64::from((number << 3) | wire_type));
}

fn bytes(out: &mut Vec<u8>, b: &[u8]) {
    varint(out, b.len() as u64);
    out.extend_from_slice(b);
}

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}
