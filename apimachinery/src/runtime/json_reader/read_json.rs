//! [`ReadJson`]: a type read straight from the [`json_reader`](super)'s parser, without
//! serde's `Deserializer`/`Visitor` indirection.
//!
//! Every registered type is decoded by the scheme, so whatever its decode instantiates is
//! compiled into the crate that registers it (`k8s-types`: a thousand structs). Through
//! serde that is, per struct, a visitor with its `visit_map`, the reader's `read_map` and
//! `deserialize_struct` for that visitor, `next_value_seed` and `deserialize_option` per
//! field type, and `read_seq`/`visit_seq` per list. Here the object, array and map loops
//! are non-generic code compiled once ([`ValueReader::read_struct`] and the private
//! `read_seq_with`/`read_map_with`), which call back into one small method per type
//! (through `dyn`, not a closure: see [`ReadFields`]): a struct costs one `read_json` and
//! a `match` on its field index, a `Vec<T>` or a map a two-line loop body.
//!
//! The values read, the errors (serde_json's messages, positions, the innermost path),
//! `null` handling, repeated keys, unknown fields and the top-level `apiVersion`/`kind`
//! are those of the serde path through the same reader: the property tests check both
//! against each other.

use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, DeserializeOwned, Unexpected};

use super::{Error, MapReader, SeqReader, Text, ValueReader};
use crate::exact_vec::ExactVec;
use crate::field_index::FieldNames;

/// A type read from JSON text by the [`json_reader`](super), with the reader's path
/// tracking, unknown-field reporting and serde_json's messages.
///
/// `#[derive(ApiType)]` and `#[derive(ApiObject)]` implement it; the scheme decodes every
/// registered type through it. A type with a hand-written serde implementation can read
/// itself through it (`T::deserialize(value)`: [`ValueReader`] is a serde
/// `Deserializer`).
///
/// ```
/// use apimachinery::ApiType;
/// use apimachinery::runtime::json_reader::read_slice_tracking;
///
/// #[derive(ApiType, Clone, Debug, Default, PartialEq)]
/// pub struct Port { pub port: i32, pub name: Option<String> }
///
/// let read = read_slice_tracking::<Vec<Port>>(br#"[{"port": 80, "name": null, "x": 1}]"#, true)?;
/// assert_eq!(read.value, [Port { port: 80, name: None }]);
/// assert_eq!(read.unknown_fields, ["[0].x"]);
///
/// let err = read_slice_tracking::<Vec<Port>>(br#"[{"port": "http"}]"#, false).unwrap_err();
/// assert_eq!(err.path, "[0].port");
/// assert_eq!(err.error.to_string(), r#"invalid type: string "http", expected i32 at line 1 column 16"#);
/// # Ok::<(), apimachinery::runtime::json_reader::ReadError>(())
/// ```
pub trait ReadJson: Sized {
    /// Reads the value at `value`'s cursor.
    fn read_json(value: ValueReader<'_, '_, '_>) -> Result<Self, Error>;

    /// Reads the value into a struct's field, replacing what it held: what the derive's
    /// per-field reads call. The leaf types (strings, numbers, booleans, the types read
    /// through serde) override it with one out-of-line function compiled where their
    /// impl is, so that a crate of a thousand structs calls it instead of inlining the
    /// read, the drop of the old value and the move into every field's arm.
    #[doc(hidden)]
    #[inline(never)]
    fn read_into(slot: &mut Self, value: ValueReader<'_, '_, '_>) -> Result<(), Error> {
        read_into(slot, value)
    }

    /// [`read_into`](Self::read_into) for a field whose `null` is its zero value (Go
    /// leaves the field untouched): the fields that are not an `Option`.
    #[doc(hidden)]
    #[inline(never)]
    fn read_into_or_default(slot: &mut Self, value: ValueReader<'_, '_, '_>) -> Result<(), Error>
    where
        Self: Default,
    {
        read_into_or_default(slot, value)
    }

    /// [`read_into`](Self::read_into) of an `Option<Self>` field (`null` is `None`):
    /// what `Option<T>`'s `read_into` calls, so that the leaf types can have it out of
    /// line too.
    #[doc(hidden)]
    #[inline(never)]
    fn read_option_into(
        slot: &mut Option<Self>,
        value: ValueReader<'_, '_, '_>,
    ) -> Result<(), Error> {
        read_option_into(slot, value)
    }

    /// [`read_json`](Self::read_json), with `null` read as the zero value when
    /// `null_is_default`: what [`read_into_or_default`](Self::read_into_or_default)
    /// reads with. The derived structs override it with their `read_json` body (the
    /// struct is built from its `Default` there anyway), so that the field reads of a
    /// struct type do not compile the struct's `Default` once more.
    #[doc(hidden)]
    fn read_json_nullable(
        mut value: ValueReader<'_, '_, '_>,
        null_is_default: bool,
    ) -> Result<Self, Error>
    where
        Self: Default,
    {
        if null_is_default {
            match value.read_null() {
                Ok(true) => return Ok(Self::default()),
                Ok(false) => {}
                Err(e) => return Err(e),
            }
        }
        Self::read_json(value)
    }
}

// The bodies of `ReadJson`'s field reads, callable from the out-of-line overrides (which
// cannot call the provided methods they replace). No `?`. The provided methods are
// `#[inline(never)]` themselves: compiled once per field type and crate, where `#[inline]`
// would copy them into every codegen unit that reads such a field, and where left to the
// optimizer (a struct's read being one call) they were inlined into every struct's
// `read_field_at` arm (+80 KB in `k8s-types`). Trait methods rather than free functions
// out of line, so that each type's copy is compiled beside the type (why:
// `runtime::registration`'s `TypeShims`).

/// [`ReadJson::read_into`]'s body.
#[doc(hidden)]
#[inline]
pub fn read_into<T: ReadJson>(slot: &mut T, value: ValueReader<'_, '_, '_>) -> Result<(), Error> {
    match T::read_json(value) {
        Ok(read) => {
            *slot = read;
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// [`ReadJson::read_into_or_default`]'s body. The old value is dropped in one place:
/// where each way of reading assigned it, its drop glue was inlined into each.
#[doc(hidden)]
#[inline]
pub fn read_into_or_default<T: ReadJson + Default>(
    slot: &mut T,
    value: ValueReader<'_, '_, '_>,
) -> Result<(), Error> {
    match T::read_json_nullable(value, true) {
        Ok(read) => {
            *slot = read;
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// [`ReadJson::read_option_into`]'s body (one drop of the old value, as
/// [`read_into_or_default`]).
#[doc(hidden)]
#[inline]
pub fn read_option_into<T: ReadJson>(
    slot: &mut Option<T>,
    mut value: ValueReader<'_, '_, '_>,
) -> Result<(), Error> {
    let read = match value.read_null() {
        Ok(true) => None,
        Ok(false) => match T::read_json(value) {
            Ok(read) => Some(read),
            Err(e) => return Err(e),
        },
        Err(e) => return Err(e),
    };
    *slot = read;
    Ok(())
}

/// The out-of-line field reads of a leaf type (see [`ReadJson::read_into`]), for the
/// type's `ReadJson` impl, whose `read_json` is written beside them; with `default`, also
/// the read of a field whose `null` is the zero value (only for types that are
/// `Default`: the bound cannot be left to the trait's `where` clause in a concrete impl).
#[doc(hidden)]
#[macro_export]
macro_rules! __read_json_leaf_fields {
    (default) => {
        $crate::__read_json_leaf_fields!();

        #[inline(never)]
        fn read_into_or_default(
            slot: &mut Self,
            value: $crate::runtime::json_reader::ValueReader<'_, '_, '_>,
        ) -> ::core::result::Result<(), $crate::runtime::json_reader::Error> {
            $crate::runtime::json_reader::read_into_or_default(slot, value)
        }
    };
    () => {
        #[inline(never)]
        fn read_into(
            slot: &mut Self,
            value: $crate::runtime::json_reader::ValueReader<'_, '_, '_>,
        ) -> ::core::result::Result<(), $crate::runtime::json_reader::Error> {
            $crate::runtime::json_reader::read_into(slot, value)
        }

        #[inline(never)]
        fn read_option_into(
            slot: &mut ::core::option::Option<Self>,
            value: $crate::runtime::json_reader::ValueReader<'_, '_, '_>,
        ) -> ::core::result::Result<(), $crate::runtime::json_reader::Error> {
            $crate::runtime::json_reader::read_option_into(slot, value)
        }
    };
}

/// A leaf type's `ReadJson`: `$read_json` (a function of `value`) and the out-of-line
/// field reads.
macro_rules! leaf_read_json {
    ($ty:ty, |$value:ident| $read_json:expr) => {
        impl ReadJson for $ty {
            fn read_json($value: ValueReader<'_, '_, '_>) -> Result<Self, Error> {
                $read_json
            }

            crate::__read_json_leaf_fields!(default);
        }
    };
}

/// The type of a struct field, for the derive's choice of how to read it: through
/// [`ReadJson`] when the type has it, else through its serde `Deserialize` (a
/// serde-derived spec in a custom resource), by autoref specialization. The derive
/// writes `(&&FieldType::<T>::new()).read_field(..)`: method lookup tries
/// [`ReadFieldDirect`] (on `&&FieldType<T>`, for `T: ReadJson`) before
/// [`ReadFieldBySerde`] (on `&FieldType<T>`), which is found only after one
/// dereference. Field types are concrete (the derive refuses generic structs), so the
/// choice is made where the struct is defined.
#[doc(hidden)]
pub struct FieldType<T>(PhantomData<T>);

impl<T> FieldType<T> {
    /// The marker of field type `T`.
    #[doc(hidden)]
    pub const fn new() -> Self {
        FieldType(PhantomData)
    }
}

/// A field read through its type's [`ReadJson`]; see [`FieldType`].
#[doc(hidden)]
pub trait ReadFieldDirect {
    /// The field's type.
    type Field;

    /// Reads the field as its type reads (an `Option`'s `null` is `None`).
    fn read_field(
        self,
        slot: &mut Self::Field,
        value: ValueReader<'_, '_, '_>,
    ) -> Result<(), Error>;

    /// Reads a field whose `null` is its zero value (Go leaves the field untouched): the
    /// fields that are not an `Option`. A repeated key overwrites.
    fn read_or_default(
        self,
        slot: &mut Self::Field,
        value: ValueReader<'_, '_, '_>,
    ) -> Result<(), Error>
    where
        Self::Field: Default;
}

impl<T: ReadJson> ReadFieldDirect for &&FieldType<T> {
    type Field = T;

    // One call: the leaf types' reads are out of line (see `ReadJson::read_into`).
    #[inline]
    fn read_field(self, slot: &mut T, value: ValueReader<'_, '_, '_>) -> Result<(), Error> {
        T::read_into(slot, value)
    }

    #[inline]
    fn read_or_default(self, slot: &mut T, value: ValueReader<'_, '_, '_>) -> Result<(), Error>
    where
        T: Default,
    {
        T::read_into_or_default(slot, value)
    }
}

/// A field read through its type's serde `Deserialize`, the same reader underneath;
/// see [`FieldType`].
#[doc(hidden)]
pub trait ReadFieldBySerde {
    /// The field's type.
    type Field;

    /// Reads the field as its type deserializes.
    fn read_field(
        self,
        slot: &mut Self::Field,
        value: ValueReader<'_, '_, '_>,
    ) -> Result<(), Error>;

    /// Reads the field, `null` as its zero value.
    fn read_or_default(
        self,
        slot: &mut Self::Field,
        value: ValueReader<'_, '_, '_>,
    ) -> Result<(), Error>
    where
        Self::Field: Default;
}

impl<T: DeserializeOwned> ReadFieldBySerde for &FieldType<T> {
    type Field = T;

    fn read_field(self, slot: &mut T, value: ValueReader<'_, '_, '_>) -> Result<(), Error> {
        *slot = T::deserialize(value)?;
        Ok(())
    }

    fn read_or_default(self, slot: &mut T, value: ValueReader<'_, '_, '_>) -> Result<(), Error>
    where
        T: Default,
    {
        *slot = Option::<T>::deserialize(value)?.unwrap_or_default();
        Ok(())
    }
}

/// A struct's fields, read by index: what [`ValueReader::read_struct`] calls per known
/// key. `#[derive(ApiType)]`/`#[derive(ApiObject)]` implement it on the struct itself.
///
/// A trait rather than a closure behind `&mut dyn FnMut`: the vtable of a `dyn FnMut`
/// also holds `FnOnce::call_once` and its shim, compiled per closure type, which for a
/// crate of a thousand structs and their lists and maps was 2,600 functions never called.
#[doc(hidden)]
pub trait ReadFields {
    /// Reads the value of the field at `index` (the struct's key lookup gave it).
    fn read_field_at(&mut self, index: usize, value: ValueReader<'_, '_, '_>) -> Result<(), Error>;
}

/// The elements of a JSON array, one at a time: what the non-generic array loop calls
/// (implemented by `Vec<T>`; see [`ReadFields`] for why not a closure).
trait ReadElements {
    /// Reads one element and appends it.
    fn read_element(&mut self, value: ValueReader<'_, '_, '_>) -> Result<(), Error>;
}

/// The entries of a JSON object read as a map, one at a time: what the non-generic
/// object loop calls (implemented by the maps of string keys).
trait ReadEntries {
    /// Reads the value of `key` and inserts the entry.
    fn read_entry(&mut self, key: String, value: ValueReader<'_, '_, '_>) -> Result<(), Error>;
}

impl<'de> ValueReader<'_, 'de, '_> {
    /// Reads a JSON object as a struct: `names` maps a key to its field's index, `read`
    /// reads the value of the field at that index; keys without a field are skipped
    /// (and listed when unknown fields are tracked). `expecting` names the struct in
    /// errors (`struct PodSpec`, `a Pod object`); with `struct_like` an array is refused
    /// as serde refuses it for a struct (after entering it), without it as any other
    /// value. With `null_is_default`, `null` is read as nothing (the struct keeps its
    /// zero value).
    ///
    /// The derive's generated `read_json` is one call of this.
    #[doc(hidden)]
    #[inline(never)]
    pub fn read_struct(
        self,
        expecting: &'static str,
        struct_like: bool,
        null_is_default: bool,
        names: &FieldNames,
        read: &mut dyn ReadFields,
    ) -> Result<(), Error> {
        if null_is_default && self.r.take_null()? {
            return Ok(());
        }
        let peek = self.r.peek_value()?;
        let result = match peek {
            b'{' => {
                let mut map = MapReader::open(&mut *self.r, &self.path)?;
                let keys_base = map.keys_base;
                let ret = map.read_fields(names, read);
                // The end is read even after a failure, as serde_json reads it.
                match self.r.close_map(keys_base) {
                    Err(end) if ret.is_ok() => Err(end),
                    _ => ret,
                }
            }
            b'[' if struct_like => {
                // serde's struct visitor refuses a sequence once inside it.
                self.r.enter()?;
                let err = de::Error::invalid_type(Unexpected::Seq, &expecting);
                let _ = self.r.close_seq();
                Err(err)
            }
            _ => Err(self.r.peek_invalid_type(&expecting)),
        };
        result.map_err(|e| self.r.fix_position(e))
    }

    /// The first byte of the value (after whitespace), not consumed: for types that
    /// accept several JSON shapes.
    #[doc(hidden)]
    pub fn peek_byte(&mut self) -> Result<u8, Error> {
        self.r.peek_value()
    }

    /// Reads `true` or `false`.
    #[doc(hidden)]
    pub fn read_bool(self) -> Result<bool, Error> {
        self.read_boolean()
    }

    /// The error for a value a type does not accept, as serde_json gives it to a visitor
    /// that takes any value (`deserialize_any`): the value is read so that the message
    /// can quote it, and an array is entered first.
    #[doc(hidden)]
    #[cold]
    #[inline(never)]
    pub fn refuse(self, expecting: &'static str) -> Error {
        let err = match self.r.peek_value() {
            Ok(b'[') => match self.r.enter() {
                Ok(()) => {
                    let err = de::Error::invalid_type(Unexpected::Seq, &expecting);
                    let _ = self.r.close_seq();
                    err
                }
                Err(err) => err,
            },
            Ok(b'{') => match self.r.enter() {
                Ok(()) => {
                    let err = de::Error::invalid_type(Unexpected::Map, &expecting);
                    let _ = self.r.close_map(self.r.keys.len());
                    err
                }
                Err(err) => err,
            },
            Ok(_) => self.r.peek_invalid_type(&expecting),
            Err(err) => err,
        };
        self.r.fix_position(err)
    }

    /// Reads a JSON array, each element through `element`; any other value is refused as
    /// not `expecting`.
    #[inline(never)]
    fn read_seq_with(
        self,
        expecting: &'static str,
        elements: &mut dyn ReadElements,
    ) -> Result<(), Error> {
        let peek = self.r.peek_value()?;
        let result = match peek {
            b'[' => {
                let mut seq = SeqReader::open(&mut *self.r, &self.path)?;
                let ret = seq.read_elements(elements);
                // The end is read even after a failure, as serde_json reads it.
                match self.r.close_seq() {
                    Err(end) if ret.is_ok() => Err(end),
                    _ => ret,
                }
            }
            _ => Err(self.r.peek_invalid_type(&expecting)),
        };
        result.map_err(|e| self.r.fix_position(e))
    }

    /// Reads a JSON object as a map of string keys, each entry through `entry`; any other
    /// value is refused as not `expecting`.
    #[inline(never)]
    fn read_map_with(
        self,
        expecting: &'static str,
        entries: &mut dyn ReadEntries,
    ) -> Result<(), Error> {
        let peek = self.r.peek_value()?;
        let result = match peek {
            b'{' => {
                let mut map = MapReader::open(&mut *self.r, &self.path)?;
                let keys_base = map.keys_base;
                let ret = map.read_entries(entries);
                match self.r.close_map(keys_base) {
                    Err(end) if ret.is_ok() => Err(end),
                    _ => ret,
                }
            }
            _ => Err(self.r.peek_invalid_type(&expecting)),
        };
        result.map_err(|e| self.r.fix_position(e))
    }

    /// Reads a JSON string.
    #[inline(never)]
    fn read_string(self) -> Result<String, Error> {
        let peek = self.r.peek_value()?;
        match peek {
            b'"' => match self.r.parse_str()? {
                Text::Borrowed(s) => Ok(s.to_owned()),
                Text::Copied(s) => Ok(s.to_owned()),
            },
            _ => Err(self.r.peek_invalid_type(&"a string")),
        }
    }

    /// Reads `true` or `false`.
    #[inline(never)]
    fn read_boolean(self) -> Result<bool, Error> {
        let peek = self.r.peek_value()?;
        match peek {
            b't' | b'f' => {
                self.r.parse_literal(peek)?;
                Ok(peek == b't')
            }
            _ => Err(self.r.peek_invalid_type(&"a boolean")),
        }
    }

    /// Reads a number as serde_json hands it over, or refuses another value as not
    /// `expecting`.
    #[inline(never)]
    fn read_number(self, expecting: &'static str) -> Result<super::Number, Error> {
        let peek = self.r.peek_value()?;
        match peek {
            b'-' | b'0'..=b'9' => self.r.parse_number(peek),
            _ => Err(self.r.peek_invalid_type(&expecting)),
        }
    }

    /// A value's error that has no position yet gets the cursor's.
    #[cold]
    #[inline(never)]
    fn positioned(self, err: Error) -> Error {
        self.r.fix_position(err)
    }

    /// Reads `null` as `None`; the cursor stays on any other value.
    #[inline]
    fn read_null(&mut self) -> Result<bool, Error> {
        self.r.take_null()
    }

    /// Skips the value, listing it as unknown when unknown fields are tracked (serde's
    /// `IgnoredAny`).
    #[doc(hidden)]
    #[inline(never)]
    pub fn skip_unknown(self) -> Result<(), Error> {
        let start = self.r.index;
        self.r.ignore_value()?;
        if self.r.track_unknown {
            self.r.skipped_from(start);
            self.r.record_unknown(&self.path);
        }
        Ok(())
    }
}

impl<'de: 'p, 'p> MapReader<'_, 'de, 'p> {
    /// The keys and values of a struct's object.
    fn read_fields(&mut self, names: &FieldNames, read: &mut dyn ReadFields) -> Result<(), Error> {
        while self.next_key()? {
            // A key is read as serde_json reads an identifier: its unescaped text.
            let index = match self.r.parse_str()? {
                Text::Borrowed(s) => {
                    self.key_text = Some(s);
                    names.index(s)
                }
                Text::Copied(s) => names.index(s),
            };
            if self.top || self.r.track_unknown {
                self.key_read();
            }
            let path = self.value_path()?;
            let value = ValueReader {
                r: &mut *self.r,
                path,
            };
            let result = match index {
                Some(index) => read.read_field_at(index, value),
                None => value.skip_unknown(),
            };
            if let Err(e) = result {
                self.r.record_error_path(&path);
                return Err(e);
            }
        }
        Ok(())
    }

    /// The entries of a map's object.
    fn read_entries(&mut self, entries: &mut dyn ReadEntries) -> Result<(), Error> {
        while self.next_key()? {
            let key = match self.r.parse_str()? {
                Text::Borrowed(s) => {
                    self.key_text = Some(s);
                    s.to_owned()
                }
                Text::Copied(s) => s.to_owned(),
            };
            if self.top || self.r.track_unknown {
                self.key_read();
            }
            let path = self.value_path()?;
            let result = entries.read_entry(
                key,
                ValueReader {
                    r: &mut *self.r,
                    path,
                },
            );
            if let Err(e) = result {
                self.r.record_error_path(&path);
                return Err(e);
            }
        }
        Ok(())
    }
}

impl<'de> SeqReader<'_, 'de, '_> {
    /// The elements of an array.
    fn read_elements(&mut self, elements: &mut dyn ReadElements) -> Result<(), Error> {
        while let Some(path) = self.next_path()? {
            let result = elements.read_element(ValueReader {
                r: &mut *self.r,
                path,
            });
            if let Err(e) = result {
                self.r.record_error_path(&path);
                return Err(e);
            }
        }
        Ok(())
    }
}

// The generic impls below are instantiated per element type: each is a call of the
// non-generic loop and a method of a few lines, without `?` (whose conversions would be
// compiled per type too).

impl<T: ReadJson> ReadJson for Option<T> {
    fn read_json(mut value: ValueReader<'_, '_, '_>) -> Result<Self, Error> {
        match value.read_null() {
            Ok(true) => Ok(None),
            Ok(false) => match T::read_json(value) {
                Ok(v) => Ok(Some(v)),
                Err(e) => Err(e),
            },
            Err(e) => Err(e),
        }
    }

    #[inline]
    fn read_into(slot: &mut Self, value: ValueReader<'_, '_, '_>) -> Result<(), Error> {
        T::read_option_into(slot, value)
    }
}

impl<T: ReadJson> ReadJson for Box<T> {
    fn read_json(value: ValueReader<'_, '_, '_>) -> Result<Self, Error> {
        match T::read_json(value) {
            Ok(v) => Ok(Box::new(v)),
            Err(e) => Err(e),
        }
    }
}

// A `null` element or map value is the type's zero value, as Go's decoder sets it
// (`[null]` is `[""]` in a `[]string`, `{"k": null}` a nil `[]byte` in a
// `map[string][]byte`).

impl<T: ReadJson + Default> ReadElements for Vec<T> {
    fn read_element(&mut self, value: ValueReader<'_, '_, '_>) -> Result<(), Error> {
        match T::read_json_nullable(value, true) {
            Ok(v) => {
                // The first element gets room for itself alone: most lists of an API
                // object hold one (a pod's containers, ports, volume mounts), and `push`
                // would reserve four.
                if self.capacity() == 0 {
                    self.reserve_exact(1);
                }
                self.push(v);
                Ok(())
            }
            Err(e) => Err(e),
        }
    }
}

impl<T: ReadJson + Default> ReadJson for Vec<T> {
    /// The list comes back at its exact length: decoded objects are kept (an informer
    /// cache holds them for the life of the process), and JSON gives no length up front.
    fn read_json(value: ValueReader<'_, '_, '_>) -> Result<Self, Error> {
        let mut out = Vec::new();
        match value.read_seq_with("a sequence", &mut out) {
            Ok(()) => {
                out.shrink_to_len();
                Ok(out)
            }
            Err(e) => Err(e),
        }
    }
}

impl<T: ReadJson + Default> ReadEntries for std::collections::BTreeMap<String, T> {
    fn read_entry(&mut self, key: String, value: ValueReader<'_, '_, '_>) -> Result<(), Error> {
        match T::read_json_nullable(value, true) {
            Ok(v) => {
                self.insert(key, v);
                Ok(())
            }
            Err(e) => Err(e),
        }
    }
}

impl<T: ReadJson + Default> ReadJson for std::collections::BTreeMap<String, T> {
    fn read_json(value: ValueReader<'_, '_, '_>) -> Result<Self, Error> {
        let mut out = std::collections::BTreeMap::new();
        match value.read_map_with("a map", &mut out) {
            Ok(()) => Ok(out),
            Err(e) => Err(e),
        }
    }
}

impl<T: ReadJson, S: std::hash::BuildHasher> ReadEntries
    for std::collections::HashMap<String, T, S>
{
    fn read_entry(&mut self, key: String, value: ValueReader<'_, '_, '_>) -> Result<(), Error> {
        self.insert(key, T::read_json(value)?);
        Ok(())
    }
}

impl<T: ReadJson, S: std::hash::BuildHasher + Default> ReadJson
    for std::collections::HashMap<String, T, S>
{
    fn read_json(value: ValueReader<'_, '_, '_>) -> Result<Self, Error> {
        let mut out = std::collections::HashMap::default();
        value.read_map_with("a map", &mut out)?;
        Ok(out)
    }
}

leaf_read_json!(String, |value| value.read_string());
leaf_read_json!(bool, |value| value.read_boolean());

/// Integers as serde's visitors take them: in range, or `invalid value: integer ...`;
/// a float is `invalid type: floating point ...`.
macro_rules! read_json_integer {
    ($($ty:ident)*) => {$(
        leaf_read_json!($ty, |value| {
            let expecting = stringify!($ty);
            let r = ValueReader { r: &mut *value.r, path: value.path };
            let result = match r.read_number(expecting)? {
                super::Number::U64(n) => $ty::try_from(n)
                    .map_err(|_| de::Error::invalid_value(Unexpected::Unsigned(n), &expecting)),
                super::Number::I64(n) => $ty::try_from(n)
                    .map_err(|_| de::Error::invalid_value(Unexpected::Signed(n), &expecting)),
                super::Number::F64(n) => {
                    Err(de::Error::invalid_type(Unexpected::Float(n), &expecting))
                }
            };
            result.map_err(|e| value.positioned(e))
        });
    )*};
}

read_json_integer!(i8 i16 i32 i64 u8 u16 u32 u64 isize usize);

leaf_read_json!(f64, |value| Ok(match value.read_number("f64")? {
    super::Number::U64(n) => n as f64,
    super::Number::I64(n) => n as f64,
    super::Number::F64(n) => n,
}));

leaf_read_json!(f32, |value| {
    // Rounded once, to single precision, as serde_json reads an `f32`.
    value.r.single_precision = true;
    let r = ValueReader {
        r: &mut *value.r,
        path: value.path,
    };
    let number = r.read_number("f32");
    value.r.single_precision = false;
    Ok(match number? {
        super::Number::U64(n) => n as f32,
        super::Number::I64(n) => n as f32,
        super::Number::F64(n) => n as f32,
    })
});

/// Implements [`ReadJson`](crate::runtime::json_reader::ReadJson) for types that have a
/// serde `Deserialize` of their own: the value is read by it, through the same reader
/// (a [`ValueReader`](crate::runtime::json_reader::ValueReader) is a serde
/// `Deserializer`), with the same path tracking and messages. For leaf types with a
/// hand-written serde implementation, and for serde-derived types used as fields of a
/// `#[derive(ApiType)]` or `#[derive(ApiObject)]` struct (whose decode needs every
/// field's type to be `ReadJson`).
///
/// ```
/// #[derive(Debug, Default, serde::Deserialize)]
/// struct Limits { cpu: String }
/// apimachinery::read_json_by_serde!(Limits);
///
/// let read = apimachinery::runtime::json_reader::read_slice_tracking::<Limits>(br#"{"cpu": "1"}"#, false)?;
/// assert_eq!(read.value.cpu, "1");
/// # Ok::<(), apimachinery::runtime::json_reader::ReadError>(())
/// ```
#[macro_export]
macro_rules! read_json_by_serde {
    ($($ty:ty),* $(,)?) => {$(
        impl $crate::runtime::json_reader::ReadJson for $ty {
            fn read_json(
                value: $crate::runtime::json_reader::ValueReader<'_, '_, '_>,
            ) -> ::core::result::Result<Self, $crate::runtime::json_reader::Error> {
                <$ty as $crate::__private::serde::Deserialize>::deserialize(value)
            }

            $crate::__read_json_leaf_fields!();
        }
    )*};
}

crate::read_json_by_serde!(
    crate::api::ByteString,
    crate::api::resource::Quantity,
    crate::apis::meta::v1::Duration,
    crate::apis::meta::v1::FieldsV1,
    crate::apis::meta::v1::MicroTime,
    crate::apis::meta::v1::Time,
    crate::runtime::RawExtension,
    crate::util::intstr::IntOrString,
    serde_json::Value,
    serde_json::Map<String, serde_json::Value>,
    Box<serde_json::value::RawValue>,
);

#[cfg(test)]
mod tests;
