//! [`WriteJson`]: a type written straight by the [`GoJsonWriter`], without serde's
//! `Serializer` in between: the write every object's
//! [`encode_json`](crate::runtime::Object::encode_json) goes through.
//!
//! Every registered kind is encoded by the scheme, so whatever its encode instantiates is
//! compiled into the crate that registers it (`k8s-types`: a thousand structs). Through
//! serde that is each struct's `serialize` and a `serialize_field` per field type, each
//! field two calls and an error check. Here a struct is one function that hands each
//! field to one non-generic call ([`StructWriter::field`]: separator, key and the
//! value, through `&dyn WriteJson`), and the first error is kept and returned at the
//! end, so a field is a single call without a branch after it. The text is the same as
//! the types' serde `Serialize` writes with [`GoJsonWriter`] (the tests compare both).

use std::collections::BTreeMap;
use std::marker::PhantomData;

use serde::Serialize;
use serde_json::Error;

use super::{GoJsonWriter, write_string};
use crate::append::extend_short;

/// A value that writes itself with a [`GoJsonWriter`], as Go's `encoding/json` writes it.
///
/// `#[derive(ApiType)]` and `#[derive(ApiObject)]` implement it (beside serde's
/// `Serialize`, which writes the same text); the strings, numbers, booleans, `Option`,
/// `Box`, `Vec` and string-keyed `BTreeMap` of such values have it, and a type with a
/// serde `Serialize` of its own gets it with [`write_json_by_serde!`](crate::write_json_by_serde).
///
/// ```
/// use apimachinery::ApiType;
/// use apimachinery::util::json::{GoJsonWriter, WriteJson};
///
/// #[derive(ApiType, Clone, Debug, Default, PartialEq)]
/// pub struct Port { pub port: i32, pub name: Option<String>, pub hosts: Vec<String> }
///
/// let mut out = Vec::new();
/// let ports = vec![Port { port: 80, name: None, hosts: vec!["<a>".into()] }];
/// ports.write_json(&mut GoJsonWriter::compact(&mut out))?;
/// assert_eq!(out, br#"[{"port":80,"hosts":["\u003ca\u003e"]}]"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub trait WriteJson {
    /// Appends the value to `writer`'s output.
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), Error>;
}

/// The fields of a struct being written (what [`GoJsonWriter::begin_struct`] returns):
/// the derived [`WriteJson`] calls [`field`](Self::field) per field, then
/// [`end`](Self::end).
#[doc(hidden)]
#[derive(Debug)]
pub struct StructWriter<'a, 'w> {
    writer: &'a mut GoJsonWriter<'w>,
    first: bool,
    /// The first error a field's value gave; nothing more is written after it.
    error: Option<Error>,
}

impl<'w> GoJsonWriter<'w> {
    /// Opens an object for a struct's fields.
    #[doc(hidden)]
    pub fn begin_struct(&mut self) -> StructWriter<'_, 'w> {
        self.open(b'{');
        StructWriter {
            writer: self,
            first: true,
            error: None,
        }
    }
}

impl StructWriter<'_, '_> {
    /// Writes one field: the separator, `key` and `value`. An error is kept for
    /// [`end`](Self::end), and the fields after it are not written.
    #[doc(hidden)]
    #[inline(never)]
    pub fn field(&mut self, key: &str, value: &dyn WriteJson) {
        if self.error.is_some() {
            return;
        }
        self.writer.put_separator(&mut self.first);
        write_string(self.writer.out, key);
        self.writer.put_colon();
        if let Err(e) = value.write_json(self.writer) {
            self.error = Some(e);
        }
    }

    /// Writes one field whose key the derive wrote out at compile time, as Go's encoder
    /// keeps each field's key: `prefix` is the separator, the quoted and escaped key
    /// and the colon (`,"name":`), written with one copy in compact output (its comma
    /// left out for the first field). The key is neither scanned nor escaped here: keys
    /// are most of what a typed object's encode writes. An error is kept for
    /// [`end`](Self::end), and the fields after it are not written.
    #[doc(hidden)]
    #[inline(never)]
    pub fn quoted_field(&mut self, prefix: &str, value: &dyn WriteJson) {
        if self.error.is_some() {
            return;
        }
        let prefix = prefix.as_bytes();
        let writer = &mut *self.writer;
        if writer.indented {
            writer.put_separator(&mut self.first);
            // The key without the comma and the colon, then Go's indented colon.
            let key = prefix
                .get(1..prefix.len().saturating_sub(1))
                .unwrap_or_default();
            writer.out.extend_from_slice(key);
            writer.put_colon();
        } else if std::mem::take(&mut self.first) {
            extend_short(writer.out, prefix.get(1..).unwrap_or_default());
        } else {
            extend_short(writer.out, prefix);
        }
        if let Err(e) = value.write_json(writer) {
            self.error = Some(e);
        }
    }

    /// Closes the object, or returns the first field's error.
    #[doc(hidden)]
    #[inline(never)]
    pub fn end(self) -> Result<(), Error> {
        match self.error {
            Some(e) => Err(e),
            None => {
                self.writer.close(b'}', self.first);
                Ok(())
            }
        }
    }
}

/// The type of a struct field, for the derive's choice of how to write it: through
/// [`WriteJson`] when the type has it ([`WriteFieldDirect`], found first, on
/// `&&WriteField<T>`), else through its serde `Serialize` ([`WriteFieldBySerde`], on
/// `&WriteField<T>`), by autoref specialization, as the reader's `FieldType` chooses.
#[doc(hidden)]
pub struct WriteField<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> WriteField<T> {
    /// The marker of field type `T`.
    #[doc(hidden)]
    pub const fn new() -> Self {
        WriteField(PhantomData)
    }
}

/// A field written through its type's [`WriteJson`]; see [`WriteField`].
#[doc(hidden)]
pub trait WriteFieldDirect {
    /// The field's type.
    type Field: ?Sized;

    /// Writes `value` into `fields` after `prefix`, the separator, quoted key and colon
    /// (see [`StructWriter::quoted_field`]).
    fn write_field(self, fields: &mut StructWriter<'_, '_>, prefix: &str, value: &Self::Field);
}

impl<T: WriteJson> WriteFieldDirect for &&WriteField<T> {
    type Field = T;

    #[inline]
    fn write_field(self, fields: &mut StructWriter<'_, '_>, prefix: &str, value: &T) {
        fields.quoted_field(prefix, value);
    }
}

/// A field written through its type's serde `Serialize`; see [`WriteField`].
#[doc(hidden)]
pub trait WriteFieldBySerde {
    /// The field's type.
    type Field: ?Sized;

    /// Writes `value` into `fields` after `prefix`, the separator, quoted key and colon
    /// (see [`StructWriter::quoted_field`]).
    fn write_field(self, fields: &mut StructWriter<'_, '_>, prefix: &str, value: &Self::Field);
}

impl<T: Serialize> WriteFieldBySerde for &WriteField<T> {
    type Field = T;

    fn write_field(self, fields: &mut StructWriter<'_, '_>, prefix: &str, value: &T) {
        fields.quoted_field(prefix, &BySerde(value));
    }
}

/// A value written through its serde `Serialize`.
struct BySerde<'a, T: ?Sized>(&'a T);

impl<T: Serialize + ?Sized> WriteJson for BySerde<'_, T> {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), Error> {
        self.0.serialize(writer)
    }
}

/// Writes `value` to `out` as Go's `encoding/json` does, in `layout`: what every derived
/// [`Object::encode_json`](crate::runtime::Object::encode_json) calls (non-generic, so
/// that a kind's `encode_json` is one call).
///
/// ```
/// use apimachinery::util::json::{JsonLayout, encode_write_json};
///
/// let mut out = Vec::new();
/// encode_write_json(&vec![Some(1.5), None], &mut out, JsonLayout::Pretty)?;
/// assert_eq!(out, b"[\n  1.5,\n  null\n]");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[inline(never)]
pub fn encode_write_json(
    value: &dyn WriteJson,
    out: &mut Vec<u8>,
    layout: super::super::JsonLayout,
) -> Result<(), Error> {
    let mut writer = match layout {
        super::super::JsonLayout::Pretty => GoJsonWriter::pretty(out),
        _ => GoJsonWriter::compact(out),
    };
    value.write_json(&mut writer)
}

impl<T: WriteJson + ?Sized> WriteJson for &T {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), Error> {
        (**self).write_json(writer)
    }
}

impl<T: WriteJson + ?Sized> WriteJson for Box<T> {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), Error> {
        (**self).write_json(writer)
    }
}

impl<T: WriteJson> WriteJson for Option<T> {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), Error> {
        match self {
            Some(value) => value.write_json(writer),
            None => {
                writer.out.extend_from_slice(b"null");
                Ok(())
            }
        }
    }
}

// A list's loop is compiled once (`write_array`); a map's per value type, with no `?`
// (its `Try` calls per type) and the brackets and separators out of line.

impl<T: WriteJson> WriteJson for Vec<T> {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), Error> {
        write_array(writer, self)
    }
}

/// A list's elements, by index: what the non-generic [`write_array`] loop calls, so that
/// the loop, the brackets and the separators are compiled once rather than once per
/// element type (a slice iterator in each was most of a list's code in `k8s-types`).
trait JsonElements {
    /// The number of elements.
    fn element_count(&self) -> usize;

    /// Writes the element at `index` (nothing past the end).
    fn write_element(&self, index: usize, writer: &mut GoJsonWriter<'_>) -> Result<(), Error>;
}

impl<T: WriteJson> JsonElements for Vec<T> {
    fn element_count(&self) -> usize {
        self.len()
    }

    fn write_element(&self, index: usize, writer: &mut GoJsonWriter<'_>) -> Result<(), Error> {
        match self.get(index) {
            Some(item) => item.write_json(writer),
            None => Ok(()),
        }
    }
}

/// Writes `elements` as a JSON array.
#[inline(never)]
fn write_array(writer: &mut GoJsonWriter<'_>, elements: &dyn JsonElements) -> Result<(), Error> {
    let mut first = true;
    writer.open(b'[');
    for index in 0..elements.element_count() {
        writer.separator(&mut first);
        elements.write_element(index, writer)?;
    }
    writer.close_array(first);
    Ok(())
}

impl<T: WriteJson> WriteJson for BTreeMap<String, T> {
    #[inline(never)]
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), Error> {
        let mut first = true;
        writer.open(b'{');
        for (key, value) in self {
            writer.key(&mut first, key);
            if let Err(e) = value.write_json(writer) {
                return Err(e);
            }
        }
        writer.close_object(first);
        Ok(())
    }
}

impl WriteJson for str {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), Error> {
        writer.string(self);
        Ok(())
    }
}

impl WriteJson for String {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), Error> {
        writer.string(self);
        Ok(())
    }
}

impl WriteJson for bool {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), Error> {
        writer
            .out
            .extend_from_slice(if *self { b"true" } else { b"false" });
        Ok(())
    }
}

macro_rules! write_json_integer {
    ($write:ident: $($ty:ty)*) => {$(
        impl WriteJson for $ty {
            fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), Error> {
                writer.$write((*self).into());
                Ok(())
            }
        }
    )*};
}

write_json_integer!(write_i64: i8 i16 i32 i64);
write_json_integer!(write_u64: u8 u16 u32 u64);

impl WriteJson for f64 {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), Error> {
        writer.write_f64(*self)
    }
}

impl WriteJson for f32 {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), Error> {
        writer.write_f32(*self)
    }
}

/// Implements [`WriteJson`](crate::util::json::WriteJson) for types that have a serde
/// `Serialize` of their own: the value is written by it, with the
/// [`GoJsonWriter`](crate::util::json::GoJsonWriter) as the serializer (the same text),
/// in one function compiled where the macro is invoked. For leaf types with a
/// hand-written serde implementation. (A field of a derived struct whose type has no
/// `WriteJson` is written through its `Serialize` without this.)
///
/// ```
/// use apimachinery::util::json::{GoJsonWriter, WriteJson};
///
/// #[derive(serde::Serialize)]
/// struct Limits { cpu: String }
/// apimachinery::write_json_by_serde!(Limits);
///
/// let mut out = Vec::new();
/// Limits { cpu: "<1>".into() }.write_json(&mut GoJsonWriter::compact(&mut out))?;
/// assert_eq!(out, br#"{"cpu":"\u003c1\u003e"}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[macro_export]
macro_rules! write_json_by_serde {
    ($($ty:ty),* $(,)?) => {$(
        impl $crate::util::json::WriteJson for $ty {
            fn write_json(
                &self,
                writer: &mut $crate::util::json::GoJsonWriter<'_>,
            ) -> ::core::result::Result<(), $crate::__private::serde_json::Error> {
                $crate::__private::serde::Serialize::serialize(self, writer)
            }
        }
    )*};
}

crate::write_json_by_serde!(
    crate::util::intstr::IntOrString,
    serde_json::Value,
    serde_json::Map<String, serde_json::Value>,
    serde_json::value::RawValue,
);

#[cfg(test)]
mod tests;
