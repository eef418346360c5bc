//! [`GoJsonWriter`]: a `serde::Serializer` of our own that appends Go's JSON text to a
//! `Vec<u8>`, built so that each type compiles to as little code as possible.
//!
//! Every registered kind is serialized by the scheme, so every type's `Serialize` is
//! monomorphized for the serializer the library uses. `serde_json`'s serializer is
//! generic over its writer and formatter and inlines the formatter calls, the key
//! escaping and the map/sequence state machine into every `serialize_field::<T>`,
//! `serialize_element::<T>` and `collect_seq::<I>`. Here each generic method is a
//! shim: one non-generic call that writes the separator (and the key), then
//! `value.serialize(..)`. Escaping and number formatting are out-of-line functions
//! shared by every type.

// The generic methods write `if let Err(e) = .. { return Err(e) }`: `?` compiles to
// `Try::branch` and `FromResidual` calls in every monomorphization (about a tenth of
// `collect_seq`'s code per element type, measured with `cargo llvm-lines`).
#![allow(clippy::question_mark)]

use serde::ser::{self, Impossible, Serialize};
use serde_json::Error;

use super::{format_go_float32, format_go_float64, write_indented};

mod escape;
mod write_json;

use escape::write_string;

pub use write_json::{
    StructWriter, WriteField, WriteFieldBySerde, WriteFieldDirect, WriteJson, encode_write_json,
};

/// The struct name under which `serde_json`'s `RawValue` hands over its text (a struct
/// with one field of that name, whose value is the text). Should `serde_json` rename
/// it, embedded JSON would come out as an object, which the raw-value tests catch.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// Writes values as Go's `encoding/json` does (`json.Marshal`, or
/// `json.MarshalIndent(v, "", indent)` when made with [`indented`](Self::indented)),
/// appending to a `Vec<u8>`: what [`encode_go_json`](super::encode_go_json) and every
/// object's [`encode_json`](crate::runtime::Object::encode_json) write with.
///
/// The text is what `serde_json`'s serializer with [`GoFormatter`](super::GoFormatter)
/// writes, byte for byte: `<`, `>`, `&`, U+2028 and U+2029 escaped as `\u003c`,
/// `\u003e`, `\u0026`, `\u2028`, `\u2029`; other control characters as `\n`, `\r`,
/// `\t`, `\b`, `\f` or lower-case `\u00XX`; floats in Go's shortest form (`1`, `0.5`,
/// `1e+21`, `1e-7`); embedded JSON (`serde_json::value::RawValue`) as it is, and
/// re-indented in indented output. One difference, where this follows Go: NaN and
/// infinities are an error (Go's `json: unsupported value: NaN`), where `serde_json`
/// writes `null`.
///
/// ```
/// use apimachinery::util::json::GoJsonWriter;
/// use serde::Serialize;
///
/// let value = serde_json::json!({"b": [1.0, 1e21], "a": "<&>"});
/// let mut out = Vec::new();
/// value.serialize(&mut GoJsonWriter::compact(&mut out))?;
/// assert_eq!(out, br#"{"a":"\u003c\u0026\u003e","b":[1,1e+21]}"#);
///
/// out.clear();
/// value.serialize(&mut GoJsonWriter::indented(&mut out, b"  "))?;
/// assert_eq!(
///     String::from_utf8(out)?,
///     "{\n  \"a\": \"\\u003c\\u0026\\u003e\",\n  \"b\": [\n    1,\n    1e+21\n  ]\n}"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct GoJsonWriter<'w> {
    out: &'w mut Vec<u8>,
    /// One level of indentation (indented output only).
    indent: &'w [u8],
    /// Whether values go one per line, indented.
    indented: bool,
    /// How many arrays and objects are open.
    depth: usize,
    /// The next string is a `RawValue`'s text, to be written as it is.
    raw_next: bool,
}

impl<'w> GoJsonWriter<'w> {
    /// No whitespace at all, as `json.Marshal` writes.
    pub fn compact(out: &'w mut Vec<u8>) -> Self {
        GoJsonWriter {
            out,
            indent: b"",
            indented: false,
            depth: 0,
            raw_next: false,
        }
    }

    /// One value per line, nested values indented by `indent` per level, `": "` after
    /// keys, and empty objects and arrays as `{}` and `[]`, as
    /// `json.MarshalIndent(v, "", indent)` writes.
    pub fn indented(out: &'w mut Vec<u8>, indent: &'w [u8]) -> Self {
        GoJsonWriter {
            indented: true,
            indent,
            ..Self::compact(out)
        }
    }

    /// Two-space indentation, as Go's pretty JSON serializer writes.
    pub fn pretty(out: &'w mut Vec<u8>) -> Self {
        Self::indented(out, b"  ")
    }

    fn newline(&mut self) {
        self.out.push(b'\n');
        for _ in 0..self.depth {
            self.out.extend_from_slice(self.indent);
        }
    }

    #[inline(never)]
    fn close_array(&mut self, empty: bool) {
        self.close(b']', empty);
    }

    #[inline(never)]
    fn close_object(&mut self, empty: bool) {
        self.close(b'}', empty);
    }

    #[inline(never)]
    fn open(&mut self, bracket: u8) {
        self.out.push(bracket);
        self.depth += 1;
    }

    /// Closes an array or object; `empty` when nothing was written in it.
    fn close(&mut self, bracket: u8, empty: bool) {
        self.depth = self.depth.saturating_sub(1);
        if self.indented && !empty {
            self.newline();
        }
        self.out.push(bracket);
    }

    /// What goes before an array element or an object key (out of line: called from
    /// every element type's code).
    #[inline(never)]
    fn separator(&mut self, first: &mut bool) {
        self.put_separator(first);
    }

    /// What goes between an object key and its value (out of line, as
    /// [`separator`](Self::separator)).
    #[inline(never)]
    fn colon(&mut self) {
        self.put_colon();
    }

    /// What goes before a map's value: the separator, the key and the colon (out of
    /// line, as [`separator`](Self::separator)).
    #[inline(never)]
    fn key(&mut self, first: &mut bool, key: &str) {
        self.put_separator(first);
        write_string(self.out, key);
        self.put_colon();
    }

    #[inline]
    fn put_separator(&mut self, first: &mut bool) {
        if !std::mem::take(first) {
            self.out.push(b',');
        }
        if self.indented {
            self.newline();
        }
    }

    #[inline]
    fn put_colon(&mut self) {
        if self.indented {
            self.out.extend_from_slice(b": ");
        } else {
            self.out.push(b':');
        }
    }

    /// A struct field's separator and key (or, in a `RawValue`, the note that its text
    /// comes next): one call per field.
    #[inline(never)]
    fn field(&mut self, compound: &mut State, key: &str) {
        if compound.kind == Kind::RawValue {
            compound.first = false;
            self.raw_next = true;
            return;
        }
        self.put_separator(&mut compound.first);
        write_string(self.out, key);
        self.put_colon();
    }

    /// A string value: escaped, or as it is when it is a `RawValue`'s text.
    #[inline(never)]
    fn string(&mut self, value: &str) {
        if std::mem::take(&mut self.raw_next) {
            self.raw(value);
        } else {
            write_string(self.out, value);
        }
    }

    /// Embedded JSON text, compact and HTML-escaped by its serializer (Go's
    /// `json.Compact` of a `MarshalJSON` result): written as it is, or re-indented to
    /// its place in indented output, as Go's `MarshalIndent` re-indents everything.
    #[cold]
    fn raw(&mut self, text: &str) {
        if self.indented {
            // Writing into a `Vec` cannot fail.
            let _ = write_indented(self.out, text, self.indent, self.depth);
        } else {
            self.out.extend_from_slice(text.as_bytes());
        }
    }

    /// `null`.
    pub(crate) fn null(&mut self) {
        self.out.extend_from_slice(b"null");
    }

    /// A string whose text `write` appends, which must need no escapes (base64, digits):
    /// the quotes around it, and no scan for escapes.
    pub(crate) fn unescaped_string(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        self.out.push(b'"');
        write(self.out);
        self.out.push(b'"');
    }

    /// JSON a value holds as bytes (`FieldsV1`, `RawExtension`), written as Go's encoder
    /// writes what a `MarshalJSON` method returns: refused unless it is one JSON value,
    /// compacted and HTML-escaped, then re-indented in indented output. Compact output
    /// gets it straight, without the `String` and `RawValue` the serde path goes through
    /// (and their second parse).
    pub(crate) fn embedded_json(&mut self, owner: &'static str, raw: &[u8]) -> Result<(), Error> {
        super::embedded::check(owner, raw).map_err(ser::Error::custom)?;
        if self.indented {
            let mut compact = Vec::with_capacity(raw.len());
            super::embedded::compact_checked(&mut compact, raw);
            let text = std::str::from_utf8(&compact).map_err(ser::Error::custom)?;
            self.raw(text);
        } else {
            super::embedded::compact_checked(self.out, raw);
        }
        Ok(())
    }

    #[inline(never)]
    fn write_i64(&mut self, value: i64) {
        self.out
            .extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
    }

    #[inline(never)]
    fn write_u64(&mut self, value: u64) {
        self.out
            .extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
    }

    #[inline(never)]
    fn write_i128(&mut self, value: i128) {
        self.out
            .extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
    }

    #[inline(never)]
    fn write_u128(&mut self, value: u128) {
        self.out
            .extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
    }

    #[inline(never)]
    fn write_f64(&mut self, value: f64) -> Result<(), Error> {
        let text = format_go_float64(value).map_err(ser::Error::custom)?;
        self.out.extend_from_slice(text.as_bytes());
        Ok(())
    }

    #[inline(never)]
    fn write_f32(&mut self, value: f32) -> Result<(), Error> {
        let text = format_go_float32(value).map_err(ser::Error::custom)?;
        self.out.extend_from_slice(text.as_bytes());
        Ok(())
    }

    /// Opens an object and writes `{"variant":`, for the enum variants that carry data.
    fn begin_variant(&mut self, variant: &str) {
        self.open(b'{');
        self.field(&mut State::new(Kind::Plain), variant);
    }

    fn end_variant(&mut self) {
        self.close(b'}', false);
    }

    /// Ends an array or object (and the object around an enum variant's data).
    #[inline(never)]
    fn end(&mut self, compound: State) -> Result<(), Error> {
        match compound.kind {
            Kind::RawValue => {
                // `RawValue` hands over its text as the one string field.
                if std::mem::take(&mut self.raw_next) || compound.first {
                    return Err(ser::Error::custom("a raw JSON value carried no text"));
                }
            }
            Kind::Plain => self.close(compound.bracket(), compound.first),
            Kind::Variant => {
                self.close(compound.bracket(), compound.first);
                self.end_variant();
            }
        }
        Ok(())
    }

    fn begin(&mut self, bracket: u8, kind: Kind) -> Compound<'_, 'w> {
        self.open(bracket);
        Compound {
            writer: self,
            state: State {
                first: true,
                kind,
                object: bracket == b'{',
            },
        }
    }
}

/// What an open array or object still needs to know: whether anything was written in it
/// yet, and how to end it.
#[derive(Clone, Copy, Debug)]
struct State {
    first: bool,
    kind: Kind,
    object: bool,
}

impl State {
    fn new(kind: Kind) -> Self {
        State {
            first: true,
            kind,
            object: true,
        }
    }

    fn bracket(&self) -> u8 {
        if self.object { b'}' } else { b']' }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An array or object.
    Plain,
    /// An enum variant's data: an array or object inside `{"variant": ...}`.
    Variant,
    /// `serde_json`'s `RawValue`: nothing is written but its text.
    RawValue,
}

/// An array or object being written by a [`GoJsonWriter`] (what its `serialize_seq`,
/// `serialize_map`, `serialize_struct` and their kin return).
#[derive(Debug)]
pub struct Compound<'a, 'w> {
    writer: &'a mut GoJsonWriter<'w>,
    state: State,
}

impl<'a, 'w> ser::Serializer for &'a mut GoJsonWriter<'w> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, 'w>;
    type SerializeTuple = Compound<'a, 'w>;
    type SerializeTupleStruct = Compound<'a, 'w>;
    type SerializeTupleVariant = Compound<'a, 'w>;
    type SerializeMap = Compound<'a, 'w>;
    type SerializeStruct = Compound<'a, 'w>;
    type SerializeStructVariant = Compound<'a, 'w>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }

    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.write_i64(v.into());
        Ok(())
    }

    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.write_i64(v.into());
        Ok(())
    }

    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.write_i64(v.into());
        Ok(())
    }

    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.write_i64(v);
        Ok(())
    }

    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.write_i128(v);
        Ok(())
    }

    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.write_u64(v.into());
        Ok(())
    }

    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.write_u64(v.into());
        Ok(())
    }

    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.write_u64(v.into());
        Ok(())
    }

    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.write_u64(v);
        Ok(())
    }

    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.write_u128(v);
        Ok(())
    }

    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.write_f32(v)
    }

    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.write_f64(v)
    }

    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.string(v);
        Ok(())
    }

    /// An array of numbers, as `serde_json` writes bytes (Go writes a `[]byte` as
    /// base64, which the types that hold bytes do themselves).
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        let mut array = self.begin(b'[', Kind::Plain);
        for &b in v {
            array.writer.separator(&mut array.state.first);
            array.writer.write_u64(b.into());
        }
        array.writer.end(array.state)
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        self.serialize_none()
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_none()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.string(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.begin_variant(variant);
        if let Err(e) = value.serialize(&mut *self) {
            return Err(e);
        }
        self.end_variant();
        Ok(())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, 'w>, Error> {
        Ok(self.begin(b'[', Kind::Plain))
    }

    fn serialize_tuple(self, _len: usize) -> Result<Compound<'a, 'w>, Error> {
        Ok(self.begin(b'[', Kind::Plain))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'w>, Error> {
        Ok(self.begin(b'[', Kind::Plain))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'w>, Error> {
        self.begin_variant(variant);
        Ok(self.begin(b'[', Kind::Variant))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, 'w>, Error> {
        Ok(self.begin(b'{', Kind::Plain))
    }

    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Compound<'a, 'w>, Error> {
        if name == RAW_VALUE_TOKEN {
            return Ok(Compound {
                writer: self,
                state: State::new(Kind::RawValue),
            });
        }
        Ok(self.begin(b'{', Kind::Plain))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'w>, Error> {
        self.begin_variant(variant);
        Ok(self.begin(b'{', Kind::Variant))
    }

    /// A loop of its own: the provided method goes through `serialize_seq` and a
    /// closure per element type.
    fn collect_seq<I>(self, iter: I) -> Result<(), Error>
    where
        I: IntoIterator,
        I::Item: Serialize,
    {
        // Written for the least code per element type: no `?` (its `Try` calls), the
        // state in locals, the brackets out of line.
        let mut first = true;
        self.open(b'[');
        for item in iter {
            self.separator(&mut first);
            if let Err(e) = item.serialize(&mut *self) {
                return Err(e);
            }
        }
        self.close_array(first);
        Ok(())
    }

    /// A loop of its own, as `collect_seq`.
    fn collect_map<K, V, I>(self, iter: I) -> Result<(), Error>
    where
        K: Serialize,
        V: Serialize,
        I: IntoIterator<Item = (K, V)>,
    {
        let mut first = true;
        self.open(b'{');
        for (key, value) in iter {
            self.separator(&mut first);
            if let Err(e) = key.serialize(MapKey(&mut *self)) {
                return Err(e);
            }
            self.colon();
            if let Err(e) = value.serialize(&mut *self) {
                return Err(e);
            }
        }
        self.close_object(first);
        Ok(())
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.writer.separator(&mut self.state.first);
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), Error> {
        self.writer.end(self.state)
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<(), Error> {
        self.writer.end(self.state)
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<(), Error> {
        self.writer.end(self.state)
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<(), Error> {
        self.writer.end(self.state)
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Error> {
        self.writer.separator(&mut self.state.first);
        key.serialize(MapKey(&mut *self.writer))
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.writer.colon();
        value.serialize(&mut *self.writer)
    }

    /// Both halves in one: the provided method would compile `serialize_key` and
    /// `serialize_value` for every entry type besides.
    fn serialize_entry<K: ?Sized + Serialize, V: ?Sized + Serialize>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), Error> {
        self.writer.separator(&mut self.state.first);
        if let Err(e) = key.serialize(MapKey(&mut *self.writer)) {
            return Err(e);
        }
        self.writer.colon();
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), Error> {
        self.writer.end(self.state)
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.writer.field(&mut self.state, key);
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), Error> {
        self.writer.end(self.state)
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }

    fn end(self) -> Result<(), Error> {
        self.writer.end(self.state)
    }
}

/// Writes a map key: strings as they are; numbers, booleans and enum variant names
/// quoted, as `serde_json` writes them; anything else is an error.
struct MapKey<'a, 'w>(&'a mut GoJsonWriter<'w>);

fn key_must_be_a_string() -> Error {
    ser::Error::custom("key must be a string")
}

impl MapKey<'_, '_> {
    /// A key that is not a string in the data model, written inside quotes.
    fn quoted(
        self,
        write: impl FnOnce(&mut GoJsonWriter<'_>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.0.out.push(b'"');
        write(self.0)?;
        self.0.out.push(b'"');
        Ok(())
    }
}

impl ser::Serializer for MapKey<'_, '_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        write_string(self.0.out, v);
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.quoted(|w| ser::Serializer::serialize_bool(w, v))
    }

    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }

    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }

    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }

    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.quoted(|w| {
            w.write_i64(v);
            Ok(())
        })
    }

    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.quoted(|w| {
            w.write_i128(v);
            Ok(())
        })
    }

    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }

    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }

    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }

    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.quoted(|w| {
            w.write_u64(v);
            Ok(())
        })
    }

    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.quoted(|w| {
            w.write_u128(v);
            Ok(())
        })
    }

    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(float_key_must_be_finite());
        }
        self.quoted(|w| w.write_f32(v))
    }

    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(float_key_must_be_finite());
        }
        self.quoted(|w| w.write_f64(v))
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_none(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_unit(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(key_must_be_a_string())
    }
}

fn float_key_must_be_finite() -> Error {
    ser::Error::custom("float key must be finite (got NaN or +/-inf)")
}
