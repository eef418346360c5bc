//! [`Message`] and [`Field`]: how a Rust type maps to protobuf, following what Go's
//! gogo-generated code for the Kubernetes API writes.
//!
//! A generated message implements [`Message`] with one line per field, each calling the
//! field type's [`Field`] implementation with the field number from `proto-fields.json`.

use std::collections::BTreeMap;

use super::encoder::WireEncoder;
use super::error::{ProtobufError, ProtobufErrorKind};
use super::scratch::encode_exact;
use super::wire::{WireDecoder, WireType};
use crate::exact_vec::ExactVec;
use crate::text::{owned_text, text};

/// A protobuf message.
pub trait Message {
    /// Writes every field of the message, in ascending field number, without a length
    /// prefix.
    fn encode_fields(&self, e: &mut WireEncoder);

    /// Reads the value of field `number`, whose key was just read; returns `Ok(false)`
    /// when the message has no such field, and the caller skips it.
    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        d: &mut WireDecoder<'_>,
    ) -> Result<bool, ProtobufError>;

    /// Called once the whole message is read: each field gives back the capacity that
    /// reading it left beyond its length (see [`Field::finish`]).
    fn finish_fields(&mut self) {}
}

/// Reads fields from `d` into `message` until `d` is exhausted; unknown fields are
/// skipped, as Go skips them.
pub fn merge_message<M: Message + ?Sized>(
    message: &mut M,
    d: &mut WireDecoder<'_>,
) -> Result<(), ProtobufError> {
    read_fields(message, d)
}

/// The loop of [`merge_message`], inlined into [`merge_nested`] as well: every nested
/// message (about 450 in a Pod) then costs one call fewer, with its saved registers
/// (about 20 instructions).
#[inline(always)]
fn read_fields<M: Message + ?Sized>(
    message: &mut M,
    d: &mut WireDecoder<'_>,
) -> Result<(), ProtobufError> {
    while !d.is_empty() {
        let (number, wire) = d.key()?;
        if !message.merge_field(number, wire, d)? {
            d.skip(number, wire)?;
        }
    }
    Ok(())
}

/// Encodes `message` without a length prefix.
pub fn encode_message<M: Message + ?Sized>(message: &M) -> Vec<u8> {
    encode_exact(|e| message.encode_fields(e))
}

/// Decodes a message from `bytes`, which hold exactly one message.
pub fn decode_message<M: Message + Default>(bytes: &[u8]) -> Result<M, ProtobufError> {
    let mut message = M::default();
    merge_message(&mut message, &mut WireDecoder::new(bytes))?;
    message.finish_fields();
    Ok(message)
}

/// A type that can be the value of a protobuf field.
///
/// What is written follows Go's generated code for Kubernetes types:
///
/// * a plain value (a Go non-pointer field) is always written, zero or not, as gogo's
///   generated `Marshal` does for proto2 `optional` fields that are not pointers;
/// * an `Option` (a Go pointer) is written when `Some`;
/// * a `Vec` writes one field per element (proto2 repeated scalars are not packed);
///   reading also accepts the packed form, as every protobuf reader must;
/// * a `BTreeMap` writes one entry message per key, in key order (gogo sorts map keys),
///   each with its key (field 1) and value (field 2).
pub trait Field {
    /// The wire type of one value.
    const WIRE: WireType;

    /// Writes `self` as field `number`.
    fn encode_field(&self, number: u32, e: &mut WireEncoder);

    /// Reads one value sent with wire type `wire` into `self` (replacing a scalar,
    /// merging into a message, appending to a list).
    fn merge_from(&mut self, wire: WireType, d: &mut WireDecoder<'_>) -> Result<(), ProtobufError>;

    /// Whether the value is written as nothing at all (an empty list or map), so that a
    /// reader finds the field unset: a `Some` of it reads back as `None`.
    #[inline]
    fn writes_nothing(&self) -> bool {
        false
    }

    /// Called once the message holding the field is read. A list gives back the
    /// capacity it has beyond its length: decoded objects are kept (an informer cache
    /// holds thousands). A list reserves its run of values before reading them, so this
    /// only happens when its values came in more than one run, or packed.
    fn finish(&mut self) {}
}

fn expect_wire(
    found: WireType,
    expected: WireType,
    d: &WireDecoder<'_>,
    name: &'static str,
) -> Result<(), ProtobufError> {
    if found == expected {
        Ok(())
    } else {
        Err(d.error(ProtobufErrorKind::UnexpectedWireType {
            found,
            expected: name,
        }))
    }
}

impl<M: Message + Default> Field for M {
    const WIRE: WireType = WireType::LengthDelimited;

    // Both through `dyn Message`: the loops are compiled once, not once per message type.
    fn encode_field(&self, number: u32, e: &mut WireEncoder) {
        encode_nested(number, self, e);
    }

    fn merge_from(&mut self, wire: WireType, d: &mut WireDecoder<'_>) -> Result<(), ProtobufError> {
        merge_nested(self, wire, d)
    }
}

/// Writes `message` as the length-delimited field `number`.
fn encode_nested(number: u32, message: &dyn Message, e: &mut WireEncoder) {
    let open = e.open_message(number);
    message.encode_fields(e);
    e.close_message(open);
}

/// Reads one length-delimited value into `message`, merging it with what is there.
fn merge_nested(
    message: &mut dyn Message,
    wire: WireType,
    d: &mut WireDecoder<'_>,
) -> Result<(), ProtobufError> {
    expect_wire(wire, WireType::LengthDelimited, d, "a message")?;
    read_fields(message, &mut d.nested_inline()?)?;
    message.finish_fields();
    Ok(())
}

/// A boxed message (recursive types box their fields) is the message.
impl<M: Message + ?Sized> Message for Box<M> {
    fn encode_fields(&self, e: &mut WireEncoder) {
        (**self).encode_fields(e);
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        d: &mut WireDecoder<'_>,
    ) -> Result<bool, ProtobufError> {
        (**self).merge_field(number, wire, d)
    }

    fn finish_fields(&mut self) {
        (**self).finish_fields();
    }
}

/// Reads the fields of a message that Go embeds in its struct (flattened in JSON, a
/// nested message on the wire, such as a `Volume`'s `VolumeSource`): `merge` reads each
/// field it knows, returning `false` for the others, which are skipped.
pub fn merge_embedded(
    wire: WireType,
    d: &mut WireDecoder<'_>,
    mut merge: impl FnMut(u32, WireType, &mut WireDecoder<'_>) -> Result<bool, ProtobufError>,
) -> Result<(), ProtobufError> {
    expect_wire(wire, WireType::LengthDelimited, d, "a message")?;
    let mut inner = d.nested()?;
    while !inner.is_empty() {
        let (number, wire) = inner.key()?;
        if !merge(number, wire, &mut inner)? {
            inner.skip(number, wire)?;
        }
    }
    Ok(())
}

/// Writes a map whose values are Go named slices (`map[string]ExtraValue`): each value
/// is a message of its own holding the items as field 1.
pub fn encode_named_slice_map<T: Field>(
    map: &BTreeMap<String, Vec<T>>,
    number: u32,
    e: &mut WireEncoder,
) {
    for (key, items) in map {
        e.message(number, |e| {
            key.encode_field(1, e);
            e.message(2, |e| {
                for item in items {
                    item.encode_field(1, e);
                }
            });
        });
    }
}

/// Reads one entry of a map whose values are Go named slices; see
/// [`encode_named_slice_map`].
pub fn merge_named_slice_map<T: Field + Default>(
    map: &mut BTreeMap<String, Vec<T>>,
    wire: WireType,
    d: &mut WireDecoder<'_>,
) -> Result<(), ProtobufError> {
    expect_wire(wire, WireType::LengthDelimited, d, "a map entry")?;
    let mut entry = d.nested()?;
    let mut key = String::new();
    let mut items: Vec<T> = Vec::new();
    while !entry.is_empty() {
        match entry.key()? {
            (1, wire) => key.merge_from(wire, &mut entry)?,
            (2, wire) => merge_embedded(wire, &mut entry, |number, wire, d| {
                if number != 1 {
                    return Ok(false);
                }
                items.merge_from(wire, d)?;
                Ok(true)
            })
            .map_err(|e| e.at_key(&key))?,
            (number, wire) => entry.skip(number, wire)?,
        }
    }
    map.insert(key, items);
    Ok(())
}

impl Field for String {
    const WIRE: WireType = WireType::LengthDelimited;

    fn encode_field(&self, number: u32, e: &mut WireEncoder) {
        e.bytes_field(number, self.as_bytes());
    }

    fn merge_from(&mut self, wire: WireType, d: &mut WireDecoder<'_>) -> Result<(), ProtobufError> {
        // Exactly the text's length (growing an empty string reserves at least 8), tested
        // and copied in one pass (`owned_text`).
        expect_wire(wire, WireType::LengthDelimited, d, "a string")?;
        let at = d.offset();
        let bytes = d.length_delimited()?;
        *self = owned_text(bytes)
            .ok_or_else(|| ProtobufError::new(at, ProtobufErrorKind::InvalidUtf8))?;
        Ok(())
    }
}

/// The text of a `string` field, borrowed from the input: for values parsed from their
/// text (a `Quantity`), which need no `String` of their own. Inline: out of line, the
/// call cost every string of a Pod more than the temporaries it saves (+9,000
/// instructions per Pod, callgrind; `#[inline]` alone left it out of line).
#[inline(always)]
pub(crate) fn read_str<'a>(
    wire: WireType,
    d: &mut WireDecoder<'a>,
) -> Result<&'a str, ProtobufError> {
    expect_wire(wire, WireType::LengthDelimited, d, "a string")?;
    let at = d.offset();
    let bytes = d.length_delimited()?;
    text(bytes).ok_or_else(|| ProtobufError::new(at, ProtobufErrorKind::InvalidUtf8))
}

impl Field for bool {
    const WIRE: WireType = WireType::Varint;

    fn encode_field(&self, number: u32, e: &mut WireEncoder) {
        e.varint_field(number, u64::from(*self));
    }

    fn merge_from(&mut self, wire: WireType, d: &mut WireDecoder<'_>) -> Result<(), ProtobufError> {
        expect_wire(wire, WireType::Varint, d, "a bool")?;
        *self = d.varint()? != 0;
        Ok(())
    }
}

impl Field for i64 {
    const WIRE: WireType = WireType::Varint;

    fn encode_field(&self, number: u32, e: &mut WireEncoder) {
        e.varint_field(number, *self as u64);
    }

    fn merge_from(&mut self, wire: WireType, d: &mut WireDecoder<'_>) -> Result<(), ProtobufError> {
        expect_wire(wire, WireType::Varint, d, "an int64")?;
        *self = d.varint()? as i64;
        Ok(())
    }
}

impl Field for i32 {
    const WIRE: WireType = WireType::Varint;

    fn encode_field(&self, number: u32, e: &mut WireEncoder) {
        // Negative int32 values are sign-extended to ten bytes, as in every protobuf
        // implementation.
        e.varint_field(number, i64::from(*self) as u64);
    }

    fn merge_from(&mut self, wire: WireType, d: &mut WireDecoder<'_>) -> Result<(), ProtobufError> {
        expect_wire(wire, WireType::Varint, d, "an int32")?;
        // Go's generated code truncates to 32 bits; so does every protobuf reader.
        *self = d.varint()? as i32;
        Ok(())
    }
}

impl Field for f64 {
    const WIRE: WireType = WireType::Fixed64;

    fn encode_field(&self, number: u32, e: &mut WireEncoder) {
        e.fixed64_field(number, self.to_bits());
    }

    fn merge_from(&mut self, wire: WireType, d: &mut WireDecoder<'_>) -> Result<(), ProtobufError> {
        expect_wire(wire, WireType::Fixed64, d, "a double")?;
        *self = f64::from_bits(d.fixed64()?);
        Ok(())
    }
}

impl<T: Field + Default> Field for Option<T> {
    const WIRE: WireType = T::WIRE;

    fn encode_field(&self, number: u32, e: &mut WireEncoder) {
        if let Some(value) = self {
            if value.writes_nothing() {
                e.note_unseen();
            }
            value.encode_field(number, e);
        }
    }

    fn merge_from(&mut self, wire: WireType, d: &mut WireDecoder<'_>) -> Result<(), ProtobufError> {
        // No `get_or_insert_with` (its closure) or `insert` (its `as_mut` and
        // `unwrap_unchecked`): each was compiled per type.
        if self.is_none() {
            *self = Some(T::default());
        }
        match self {
            Some(value) => value.merge_from(wire, d),
            // Unreachable: filled above.
            None => Ok(()),
        }
    }

    fn finish(&mut self) {
        if let Some(value) = self {
            value.finish();
        }
    }
}

/// The element-type-dependent steps of reading a repeated field, so that the loop over
/// its values ([`merge_repeated`]) is compiled once rather than once per element type.
/// One virtual call per value read. (Writing keeps its loop per element type: through
/// this table it cost protobuf encode 4% more instructions for 0.6% of k8s-types' IR.)
trait RepeatedField {
    /// Appends a zero value and reads one value sent with wire type `wire` into it. With
    /// `reserve_run`, a list with no allocation yet first reserves the run of values
    /// ahead ([`WireDecoder::run_length`]).
    fn merge_pushed(
        &mut self,
        wire: WireType,
        d: &mut WireDecoder<'_>,
        reserve_run: bool,
    ) -> Result<(), ProtobufError>;

    /// The number of values in the list (read only to name a failing one).
    fn count(&self) -> usize;
}

impl<T: Field + Default> RepeatedField for Vec<T> {
    fn merge_pushed(
        &mut self,
        wire: WireType,
        d: &mut WireDecoder<'_>,
        reserve_run: bool,
    ) -> Result<(), ProtobufError> {
        if reserve_run && self.capacity() == 0 {
            // The whole run at once: the list is read at its exact length, with no
            // growth and nothing for `finish` to give back. Only a hint: when the
            // allocation fails, reading grows the list as it goes (and fails there).
            let _ = self.try_reserve_exact(d.run_length());
        }
        // Appended before it is read: a failure abandons the whole decode, so a value
        // read halfway is never seen.
        let at = self.len();
        self.push(T::default());
        self[at].merge_from(wire, d)
    }

    fn count(&self) -> usize {
        self.len()
    }
}

/// Reads one value of a repeated field, or a packed run of them (scalars whose wire type
/// is `element`), into `list`; an error names the index of the value.
fn merge_repeated(
    list: &mut dyn RepeatedField,
    element: WireType,
    wire: WireType,
    d: &mut WireDecoder<'_>,
) -> Result<(), ProtobufError> {
    if wire == WireType::LengthDelimited && element != WireType::LengthDelimited {
        // Packed scalars.
        let mut packed = d.nested()?;
        while !packed.is_empty() {
            if let Err(e) = list.merge_pushed(element, &mut packed, false) {
                return Err(e.at_index(list.count().saturating_sub(1)));
            }
        }
        return Ok(());
    }
    match list.merge_pushed(wire, d, true) {
        Ok(()) => Ok(()),
        // The failing value was appended: it is the last.
        Err(e) => Err(e.at_index(list.count().saturating_sub(1))),
    }
}

impl<T: Field + Default> Field for Vec<T> {
    const WIRE: WireType = T::WIRE;

    fn encode_field(&self, number: u32, e: &mut WireEncoder) {
        for value in self {
            value.encode_field(number, e);
        }
    }

    fn merge_from(&mut self, wire: WireType, d: &mut WireDecoder<'_>) -> Result<(), ProtobufError> {
        merge_repeated(self, T::WIRE, wire, d)
    }

    #[inline]
    fn writes_nothing(&self) -> bool {
        self.is_empty()
    }

    // The copy the JSON decoder calls too.
    fn finish(&mut self) {
        self.shrink_to_len();
    }
}

impl<V: Field + Default> Field for BTreeMap<String, V> {
    const WIRE: WireType = WireType::LengthDelimited;

    fn encode_field(&self, number: u32, e: &mut WireEncoder) {
        for (key, value) in self {
            e.message(number, |e| {
                key.encode_field(1, e);
                value.encode_field(2, e);
            });
        }
    }

    fn merge_from(&mut self, wire: WireType, d: &mut WireDecoder<'_>) -> Result<(), ProtobufError> {
        expect_wire(wire, WireType::LengthDelimited, d, "a map entry")?;
        let mut entry = d.nested()?;
        let mut key = String::new();
        let mut value = V::default();
        while !entry.is_empty() {
            match entry.key()? {
                (1, wire) => key.merge_from(wire, &mut entry)?,
                (2, wire) => value
                    .merge_from(wire, &mut entry)
                    .map_err(|e| e.at_key(&key))?,
                (number, wire) => entry.skip(number, wire)?,
            }
        }
        self.insert(key, value);
        Ok(())
    }

    #[inline]
    fn writes_nothing(&self) -> bool {
        self.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Default, PartialEq, Clone)]
    struct Inner {
        name: String,
        count: Option<i32>,
    }
    crate::proto_message!(#[inline] Inner { 1 => name, 2 => count });

    #[derive(Debug, Default, PartialEq, Clone)]
    struct Outer {
        id: i64,
        flag: bool,
        ratio: f64,
        tags: Vec<String>,
        numbers: Vec<i32>,
        inner: Inner,
        maybe: Option<Inner>,
        items: Vec<Inner>,
        labels: BTreeMap<String, String>,
        nested: BTreeMap<String, Inner>,
    }
    crate::proto_message!(Outer {
        1 => id, 2 => flag, 3 => ratio, 4 => tags, 5 => numbers, 6 => inner,
        7 => maybe, 8 => items, 9 => labels, 10 => nested,
    });

    #[test]
    fn plain_fields_are_written_even_when_zero() {
        let bytes = encode_message(&Outer::default());
        // id 0, flag false, ratio 0.0, inner {name ""}: written; the rest is absent.
        assert_eq!(
            bytes,
            [
                0x08, 0, 0x10, 0, 0x19, 0, 0, 0, 0, 0, 0, 0, 0, 0x32, 2, 0x0a, 0
            ]
        );
    }

    #[test]
    fn decoded_lists_keep_no_spare_capacity() {
        let outer = Outer {
            tags: vec!["a".into()],
            numbers: vec![1, 2, 3],
            items: vec![Inner::default()],
            maybe: Some(Inner::default()),
            ..Outer::default()
        };
        let back = decode_message::<Outer>(&encode_message(&outer)).unwrap();
        assert_eq!(back, outer);
        assert_eq!(back.tags.capacity(), 1);
        assert_eq!(back.numbers.capacity(), 3);
        assert_eq!(back.items.capacity(), 1);
        // A nested message's lists too, through the field that holds it.
        let list = Outer {
            items: vec![Inner::default(); 2],
            ..Outer::default()
        };
        let wrapped = Outer {
            nested: [("k".to_owned(), Inner::default())].into(),
            ..list
        };
        let back = decode_message::<Outer>(&encode_message(&wrapped)).unwrap();
        assert_eq!(back.items.capacity(), 2);
    }

    #[test]
    fn lists_are_read_at_their_exact_length() {
        // Through `merge_embedded`, which calls no `finish`: the capacity is the run's.
        for n in [1usize, 2, 3, 5, 17] {
            let items: Vec<Inner> = (0..n)
                .map(|i| Inner {
                    name: i.to_string(),
                    count: Some(i as i32),
                })
                .collect();
            let numbers: Vec<i32> = (0..n as i32).collect();
            let bytes = encode_message(&Outer {
                inner: Inner {
                    name: "x".into(),
                    count: None,
                },
                items: items.clone(),
                numbers: numbers.clone(),
                ..Outer::default()
            });
            let mut d = WireDecoder::new(&bytes);
            let (mut read_items, mut read_numbers) = (Vec::<Inner>::new(), Vec::<i32>::new());
            while !d.is_empty() {
                let (number, wire) = d.key().unwrap();
                match number {
                    8 => read_items.merge_from(wire, &mut d).unwrap(),
                    5 => read_numbers.merge_from(wire, &mut d).unwrap(),
                    _ => d.skip(number, wire).unwrap(),
                }
            }
            assert_eq!((&read_items, &read_numbers), (&items, &numbers));
            assert_eq!(read_items.capacity(), n);
            assert_eq!(read_numbers.capacity(), n);
        }
    }

    #[test]
    fn a_repeated_field_split_in_two_runs_reads_whole() {
        // field 4 "a", field 1 varint 7, field 4 "b", field 4 "c": Go never splits a
        // repeated field, but the wire format allows it and readers must append.
        let bytes = [0x22, 1, b'a', 0x08, 7, 0x22, 1, b'b', 0x22, 1, b'c'];
        let back = decode_message::<Outer>(&bytes).unwrap();
        assert_eq!(back.tags, ["a", "b", "c"]);
        assert_eq!(back.id, 7);
        assert_eq!(back.tags.capacity(), 3);
    }

    /// A message holding a list of itself: repeated messages inside repeated messages.
    #[derive(Debug, Default, PartialEq, Clone)]
    struct Tree {
        name: String,
        children: Vec<Tree>,
        weights: Vec<i64>,
    }
    crate::proto_message!(Tree { 1 => name, 2 => children, 3 => weights });

    #[test]
    fn nested_repeated_messages_round_trip_and_name_their_indexes() {
        let leaf = |name: &str| Tree {
            name: name.into(),
            ..Tree::default()
        };
        let tree = Tree {
            name: "root".into(),
            children: vec![
                leaf("a"),
                Tree {
                    name: "b".into(),
                    children: vec![leaf("é"), Tree::default()],
                    weights: vec![-1, 0, 1 << 40],
                },
                Tree::default(),
            ],
            weights: vec![],
        };
        let bytes = encode_message(&tree);
        let back = decode_message::<Tree>(&bytes).unwrap();
        assert_eq!(back, tree);
        assert_eq!(back.children.capacity(), 3);
        assert_eq!(back.children[1].children.capacity(), 2);

        let mut bad = bytes.clone();
        let at = bad.iter().rposition(|b| *b == 0xa9).unwrap();
        bad[at] = 0xff;
        let e = decode_message::<Tree>(&bad).unwrap_err();
        assert_eq!(e.path(), "children[1].children[0].name");
        assert_eq!(e.kind(), &ProtobufErrorKind::InvalidUtf8);
    }

    #[test]
    fn packed_runs_empty_or_cut_short() {
        // An empty packed run reads nothing; a second run appends to the first.
        let back = decode_message::<Tree>(&[0x1a, 0, 0x1a, 2, 5, 6, 0x18, 7]).unwrap();
        assert_eq!(back.weights, [5, 6, 7]);
        assert_eq!(back.weights.capacity(), 3);
        // A varint cut short inside a packed run: the error names its index.
        let e = decode_message::<Tree>(&[0x1a, 2, 5, 0x80]).unwrap_err();
        assert_eq!(e.path(), "weights[1]");
        assert_eq!(e.kind(), &ProtobufErrorKind::Truncated);
        // Packed, the wrong way round: a message list sent as a varint.
        let e = decode_message::<Tree>(&[0x10, 1]).unwrap_err();
        assert_eq!(e.path(), "children[0]");
    }

    #[test]
    fn an_optional_message_sent_twice_is_merged() {
        // maybe {name "a"}, then maybe {count 3}: one message with both, as Go merges.
        let back = decode_message::<Outer>(&[0x3a, 3, 0x0a, 1, b'a', 0x3a, 2, 0x10, 3]).unwrap();
        assert_eq!(
            back.maybe,
            Some(Inner {
                name: "a".into(),
                count: Some(3)
            })
        );
        // An empty one is present, with its zero value.
        let back = decode_message::<Outer>(&[0x3a, 0]).unwrap();
        assert_eq!(back.maybe, Some(Inner::default()));
    }

    #[test]
    fn negative_int32_takes_ten_bytes() {
        let bytes = encode_message(&Inner {
            name: String::new(),
            count: Some(-1),
        });
        assert_eq!(bytes.len(), 2 + 1 + 10);
        assert_eq!(decode_message::<Inner>(&bytes).unwrap().count, Some(-1));
    }

    #[test]
    fn packed_scalars_and_unknown_fields_are_read() {
        // numbers packed [1, 300], then an unknown field 99 (varint), then flag.
        let bytes = [0x2a, 3, 1, 0xac, 0x02, 0x98, 0x06, 7, 0x10, 1];
        let outer: Outer = decode_message(&bytes).unwrap();
        assert_eq!(outer.numbers, [1, 300]);
        assert!(outer.flag);
    }

    #[test]
    fn errors_carry_the_field_path() {
        let mut outer = Outer {
            items: vec![Inner::default(), Inner::default()],
            ..Outer::default()
        };
        outer.items[1].name = "é".into();
        let mut bytes = encode_message(&outer);
        // Corrupt the second item's name into invalid UTF-8.
        let at = bytes.iter().rposition(|b| *b == 0xa9).unwrap();
        bytes[at] = 0xff;
        let e = decode_message::<Outer>(&bytes).unwrap_err();
        assert_eq!(e.path(), "items[1].name");
        assert_eq!(e.kind(), &ProtobufErrorKind::InvalidUtf8);
    }

    #[test]
    fn embedded_messages_and_named_slice_maps() {
        // A struct whose fields 2 and 3 Go embeds in a message at field 5.
        #[derive(Debug, Default, PartialEq)]
        struct Flat {
            name: String,
            host: Option<String>,
            port: Option<i32>,
            extra: BTreeMap<String, Vec<String>>,
        }
        impl Message for Flat {
            fn encode_fields(&self, e: &mut WireEncoder) {
                self.name.encode_field(1, e);
                e.message(5, |e| {
                    self.host.encode_field(2, e);
                    self.port.encode_field(3, e);
                });
                encode_named_slice_map(&self.extra, 6, e);
            }
            fn merge_field(
                &mut self,
                number: u32,
                wire: WireType,
                d: &mut WireDecoder<'_>,
            ) -> Result<bool, ProtobufError> {
                match number {
                    1 => self.name.merge_from(wire, d)?,
                    5 => merge_embedded(wire, d, |number, wire, d| {
                        Ok(match number {
                            2 => {
                                self.host.merge_from(wire, d)?;
                                true
                            }
                            3 => {
                                self.port.merge_from(wire, d)?;
                                true
                            }
                            _ => false,
                        })
                    })?,
                    6 => merge_named_slice_map(&mut self.extra, wire, d)?,
                    _ => return Ok(false),
                }
                Ok(true)
            }
        }
        let flat = Flat {
            name: "n".into(),
            host: Some("h".into()),
            port: None,
            extra: BTreeMap::from([("k".to_owned(), vec!["a".to_owned(), "b".to_owned()])]),
        };
        let bytes = encode_message(&flat);
        assert_eq!(
            bytes,
            b"\x0a\x01n\x2a\x03\x12\x01h\x32\x0b\x0a\x01k\x12\x06\x0a\x01a\x0a\x01b"
        );
        assert_eq!(decode_message::<Flat>(&bytes).unwrap(), flat);
        // An embedded message with an unknown field, which is skipped.
        let mut bytes = b"\x2a\x05\x12\x01h\x20\x01".to_vec();
        bytes.splice(0..0, b"\x0a\x00".iter().copied());
        assert_eq!(
            decode_message::<Flat>(&bytes).unwrap().host.as_deref(),
            Some("h")
        );
    }

    #[test]
    fn wrong_wire_types_are_errors() {
        // Field 1 (id, int64) sent as a string.
        let e = decode_message::<Outer>(&[0x0a, 1, b'x']).unwrap_err();
        assert_eq!(e.path(), "id");
        assert!(matches!(
            e.kind(),
            ProtobufErrorKind::UnexpectedWireType { .. }
        ));
    }

    fn inner() -> impl Strategy<Value = Inner> {
        (".{0,8}", any::<Option<i32>>()).prop_map(|(name, count)| Inner { name, count })
    }

    fn outer() -> impl Strategy<Value = Outer> {
        (
            (
                any::<i64>(),
                any::<bool>(),
                any::<f64>().prop_filter("NaN never equals itself", |f| !f.is_nan()),
                proptest::collection::vec(".{0,5}", 0..3),
                proptest::collection::vec(any::<i32>(), 0..3),
            ),
            (
                inner(),
                proptest::option::of(inner()),
                proptest::collection::vec(inner(), 0..3),
                proptest::collection::btree_map(".{0,5}", ".{0,5}", 0..3),
                proptest::collection::btree_map(".{0,5}", inner(), 0..3),
            ),
        )
            .prop_map(
                |((id, flag, ratio, tags, numbers), (inner, maybe, items, labels, nested))| Outer {
                    id,
                    flag,
                    ratio,
                    tags,
                    numbers,
                    inner,
                    maybe,
                    items,
                    labels,
                    nested,
                },
            )
    }

    fn tree() -> impl Strategy<Value = Tree> {
        let leaf = (".{0,4}", proptest::collection::vec(any::<i64>(), 0..3)).prop_map(
            |(name, weights)| Tree {
                name,
                children: Vec::new(),
                weights,
            },
        );
        leaf.prop_recursive(3, 16, 3, |inner| {
            (
                ".{0,4}",
                proptest::collection::vec(inner, 0..3),
                proptest::collection::vec(any::<i64>(), 0..3),
            )
                .prop_map(|(name, children, weights)| Tree {
                    name,
                    children,
                    weights,
                })
        })
    }

    proptest! {
        #[test]
        fn messages_round_trip(value in outer()) {
            let bytes = encode_message(&value);
            prop_assert_eq!(decode_message::<Outer>(&bytes).unwrap(), value);
        }

        #[test]
        fn nested_repeated_messages_round_trip(value in tree()) {
            let bytes = encode_message(&value);
            prop_assert_eq!(decode_message::<Tree>(&bytes).unwrap(), value);
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
            let _ = decode_message::<Outer>(&bytes);
        }

        #[test]
        fn truncated_messages_are_errors_not_panics(value in outer(), cut in any::<prop::sample::Index>()) {
            let bytes = encode_message(&value);
            let cut = cut.index(bytes.len() + 1);
            let _ = decode_message::<Outer>(&bytes[..cut]);
        }
    }
}
