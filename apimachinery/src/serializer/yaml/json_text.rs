//! JSON text written as YAML in one pass, without building a `serde_json::Value`: the
//! serializer's YAML encode, which has the object's compact JSON in hand.
//!
//! The bytes are read with `serde_json`'s deserializer (strings without escapes are
//! borrowed, numbers arrive as the same `u64`/`i64`/`f64` a `Value` would hold) and each
//! node goes straight to the [emitter](super::emitter), so the output is
//! [`json_to_yaml`](super::json_to_yaml) of the parsed value, byte for byte. Mappings
//! are the one thing a single pass cannot write in order: YAML wants go-yaml's key order
//! and JSON text has the writer's (Go's struct order: `kind`, `apiVersion`,
//! `metadata`...). Each entry is written where it comes, its byte range noted, and at
//! the mapping's end the entries are rewritten in the `Value` path's order when that
//! differs: byte order first (a `Value`'s `BTreeMap`, which also keeps a repeated key's
//! last value), then go-yaml's sort over it.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::emitter::{Emitter, LineState};
use super::key_order::{key_less, merge_sort};
use crate::serializer::DecodeError;
use crate::serializer::json::syntax_error;

/// One written mapping entry, until its mapping is closed.
struct Entry<'de> {
    key: Cow<'de, str>,
    text: Range<usize>,
    end: LineState,
}

/// The emitter with the bookkeeping of the mappings being written.
struct Writer<'de> {
    emitter: Emitter,
    /// The entries of every open mapping, innermost last.
    entries: Vec<Entry<'de>>,
    /// Buffers reused by each mapping's reorder.
    order: Vec<usize>,
    ranges: Vec<(Range<usize>, LineState)>,
    scratch: String,
}

/// Writes the JSON text `json` as YAML: the same bytes as
/// [`json_to_yaml`](super::json_to_yaml) of the value the text parses to, without
/// building that value.
pub(crate) fn json_text_to_yaml(json: &[u8], out: String) -> Result<String, DecodeError> {
    // One UTF-8 check of the whole text is cheaper than one per string, which is what
    // reading bytes costs; text that fails it is read as bytes, for the error's position.
    match std::str::from_utf8(json) {
        Ok(text) => write(&mut serde_json::Deserializer::from_str(text), out),
        Err(_) => write(&mut serde_json::Deserializer::from_slice(json), out),
    }
}

fn write<'de, R: serde_json::de::Read<'de>>(
    de: &mut serde_json::Deserializer<R>,
    out: String,
) -> Result<String, DecodeError> {
    let mut writer = Writer {
        emitter: Emitter::new(out),
        entries: Vec::new(),
        order: Vec::new(),
        ranges: Vec::new(),
        scratch: String::new(),
    };
    NodeSeed {
        writer: &mut writer,
        mapping: false,
    }
    .deserialize(&mut *de)
    .and_then(|()| de.end())
    .map_err(|e| syntax_error(&e))?;
    Ok(writer.emitter.finish())
}

impl Writer<'_> {
    /// Puts the entries of the mapping whose first entry is `entries[base]` in the
    /// order the `Value` path writes them, rewriting the output when that is not the
    /// order they were written in.
    fn close_mapping(&mut self, base: usize) {
        let entries = self.entries.get(base..).unwrap_or_default();
        let order = &mut self.order;
        order.clear();
        order.extend(0..entries.len());
        let key = |i: usize| entries.get(i).map_or("", |e| e.key.as_ref());
        // A `Value`'s map: byte order, a repeated key keeping its last value. The
        // stable sort leaves a repeated key's entries in writing order.
        if !entries.windows(2).all(|w| match w {
            [a, b] => a.key < b.key,
            _ => true,
        }) {
            order.sort_by(|&a, &b| key(a).cmp(key(b)));
            let mut kept = 0;
            for i in 0..order.len() {
                let current = order.get(i).copied().unwrap_or_default();
                let next = order.get(i + 1).copied();
                if next.is_some_and(|n| key(n) == key(current)) {
                    continue;
                }
                if let Some(slot) = order.get_mut(kept) {
                    *slot = current;
                }
                kept += 1;
            }
            order.truncate(kept);
        }
        merge_sort(order, &|&a: &usize, &b: &usize| key_less(key(a), key(b)));
        if order.iter().enumerate().any(|(i, &k)| i != k) || order.len() != entries.len() {
            self.ranges.clear();
            self.ranges
                .extend(entries.iter().map(|e| (e.text.clone(), e.end)));
            self.emitter
                .reorder_entries(&self.ranges, &self.order, &mut self.scratch);
        }
        self.entries.truncate(base);
    }
}

/// One node of the document, written where the emitter stands.
struct NodeSeed<'w, 'de> {
    writer: &'w mut Writer<'de>,
    /// Whether the node is a mapping value (else an item or the document).
    mapping: bool,
}

impl<'de> DeserializeSeed<'de> for NodeSeed<'_, 'de> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.writer.emitter.begin_node(self.mapping);
        deserializer.deserialize_any(NodeVisitor {
            writer: self.writer,
        })
    }
}

struct NodeVisitor<'w, 'de> {
    writer: &'w mut Writer<'de>,
}

impl<'de> Visitor<'de> for NodeVisitor<'_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<(), E> {
        self.writer.emitter.emit_bool(v);
        Ok(())
    }

    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        self.writer.emitter.emit_i64(v);
        Ok(())
    }

    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        self.writer.emitter.emit_u64(v);
        Ok(())
    }

    fn visit_f64<E>(self, v: f64) -> Result<(), E> {
        // A `Value` holds no non-finite number: it becomes null.
        if v.is_finite() {
            self.writer.emitter.emit_f64(v);
        } else {
            self.writer.emitter.emit_null();
        }
        Ok(())
    }

    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        self.writer.emitter.emit_string(v);
        Ok(())
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.writer.emitter.emit_null();
        Ok(())
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        self.visit_unit()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let writer = self.writer;
        // An item's `-` is written before the item is read; when there is none after
        // all, it is taken back.
        let (mut len, mut state) = (writer.emitter.len(), writer.emitter.line_state());
        writer.emitter.begin_sequence();
        let mut first = true;
        loop {
            writer.emitter.begin_item();
            let seed = NodeSeed {
                writer: &mut *writer,
                mapping: false,
            };
            if seq.next_element_seed(seed)?.is_none() {
                writer.emitter.rewind(len, state);
                if first {
                    writer.emitter.end_sequence();
                    writer.emitter.emit_empty_sequence();
                    return Ok(());
                }
                break;
            }
            first = false;
            (len, state) = (writer.emitter.len(), writer.emitter.line_state());
        }
        writer.emitter.end_sequence();
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let writer = self.writer;
        let Some(mut key) = map.next_key_seed(KeySeed)? else {
            writer.emitter.emit_empty_mapping();
            return Ok(());
        };
        writer.emitter.begin_mapping();
        let base = writer.entries.len();
        loop {
            writer.emitter.begin_entry();
            let start = writer.emitter.len();
            writer.emitter.emit_key(&key);
            map.next_value_seed(NodeSeed {
                writer: &mut *writer,
                mapping: true,
            })?;
            writer.entries.push(Entry {
                key,
                text: start..writer.emitter.len(),
                end: writer.emitter.line_state(),
            });
            match map.next_key_seed(KeySeed)? {
                Some(next) => key = next,
                None => break,
            }
        }
        writer.close_mapping(base);
        writer.emitter.end_mapping();
        Ok(())
    }
}

/// A mapping key, borrowed from the text when it has no escapes.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(KeySeed)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}
