//! [`deserialize_by_read_json`]: a type's serde `Deserialize` done by its [`ReadJson`],
//! what `#[derive(ApiType)]` and `#[derive(ApiObject)]` make every `Deserialize` call.
//!
//! Any other deserializer (`serde_json`'s, `serde_yaml`'s, a `serde_json::Value`) is read
//! into JSON text, which the type's `ReadJson` then reads: one copy of the transcoding
//! per deserializer, where a derived `Deserialize` per struct (a visitor each,
//! instantiated for every deserializer) was a fifth of `k8s-types`' front end. Map keys
//! that are numbers or booleans (YAML's `1: a`) become strings, as Go's
//! `sigs.k8s.io/yaml` converts them. An error names the JSON path of the field at fault
//! (`spec.containers[0].ports[0].containerPort: invalid type: ...`); a deserializer that
//! adds positions (`serde_json`) gives it the position where the value ends, since the
//! value is read whole before its fields are.
//!
//! This crate's own reader ([`from_slice_tracking`](super::from_slice_tracking), which
//! `from_value_tracking` and the fields read through serde use) is not transcoded: it is
//! asked for the value under `READ_JSON_TOKEN` and hands itself to the type's
//! `ReadJson`, so that the paths of errors and of unknown fields stay the document's.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{Error, ReadJson, ValueReader, read_slice_tracking};

/// The newtype-struct name under which [`deserialize_by_read_json`] asks for a value:
/// this crate's reader reads it with the type's `ReadJson` (see `take_pending_read`); every
/// other deserializer hands over the value, which is transcoded.
pub(super) const READ_JSON_TOKEN: &str = "$apimachinery::private::ReadJson";

/// A type's `ReadJson`, boxed: how the reader reads a value it is handed over for.
pub(super) type ReadAny =
    for<'r, 'de, 'p> fn(ValueReader<'r, 'de, 'p>) -> Result<Box<dyn Any>, Error>;

thread_local! {
    /// The read of the type being deserialized, set around its `deserialize_newtype_struct`
    /// call and taken by this crate's reader.
    static PENDING_READ: Cell<Option<ReadAny>> = const { Cell::new(None) };
    /// What the reader read for it, taken by the visitor.
    static READ_VALUE: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// Deserializes a `T` through its [`ReadJson`] (see the module documentation).
///
/// ```
/// use apimachinery::ApiType;
///
/// #[derive(ApiType, Clone, Debug, Default, PartialEq)]
/// pub struct Port { pub name: String, pub port: i32 }
///
/// let port: Port = serde_json::from_str(r#"{"name":"web","port":80}"#)?;
/// assert_eq!(port.port, 80);
/// let err = serde_json::from_str::<Vec<Port>>(r#"[{"port":"http"}]"#).unwrap_err();
/// // The path in the value, and `serde_json`'s position: where the value ends.
/// assert_eq!(
///     err.to_string(),
///     r#"port: invalid type: string "http", expected i32 at line 1 column 17"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn deserialize_by_read_json<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: ReadJson + 'static,
{
    let outer = PENDING_READ.replace(Some(read_any::<T>));
    let result = deserializer.deserialize_newtype_struct(READ_JSON_TOKEN, ByReadJson(PhantomData));
    PENDING_READ.set(outer);
    result
}

fn read_any<T: ReadJson + 'static>(value: ValueReader<'_, '_, '_>) -> Result<Box<dyn Any>, Error> {
    T::read_json(value).map(|v| Box::new(v) as Box<dyn Any>)
}

/// The read pending for a value asked for under [`READ_JSON_TOKEN`], taken by this
/// crate's reader, which reads the value with it, keeps it ([`keep_read_value`]) and
/// tells the visitor (by `visit_unit`) to take it. `None` when no read is pending (the
/// token used by something else): the reader goes on as for any newtype struct.
pub(super) fn take_pending_read() -> Option<ReadAny> {
    PENDING_READ.take()
}

/// The value the reader read for the pending read, for the visitor to take.
pub(super) fn keep_read_value(value: Box<dyn Any>) {
    READ_VALUE.replace(Some(value));
}

/// The visitor of [`deserialize_by_read_json`]: the value read by this crate's reader,
/// or any other deserializer's value written as JSON text and read by `T`'s `ReadJson`.
struct ByReadJson<T>(PhantomData<T>);

impl<T: ReadJson + 'static> ByReadJson<T> {
    fn read<E: de::Error>(text: Vec<u8>) -> Result<T, E> {
        read_text(&text).map_err(E::custom)
    }
}

/// `T` read from `text`, an error naming the path of the field at fault.
fn read_text<T: ReadJson>(text: &[u8]) -> Result<T, String> {
    read_slice_tracking::<T>(text, false)
        .map(|read| read.value)
        .map_err(|e| {
            let message = e.error.message();
            if e.path.is_empty() {
                message
            } else {
                format!("{}: {message}", e.path)
            }
        })
}

/// A scalar written as JSON and read by `T`.
macro_rules! scalar {
    ($($method:ident($ty:ty)),* $(,)?) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<T, E> {
            let mut out = Vec::new();
            JsonText(&mut out).$method::<E>(v)?;
            Self::read(out)
        }
    )*};
}

impl<'de, T: ReadJson + 'static> Visitor<'de> for ByReadJson<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    scalar!(
        visit_bool(bool),
        visit_i64(i64),
        visit_u64(u64),
        visit_i128(i128),
        visit_u128(u128),
        visit_f64(f64),
        visit_str(&str),
        visit_bytes(&[u8])
    );

    /// Handed over by this crate's reader: the value it read.
    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        match READ_VALUE.take().map(|v| v.downcast::<T>()) {
            Some(Ok(value)) => Ok(*value),
            _ => Self::read(b"null".to_vec()),
        }
    }

    fn visit_none<E: de::Error>(self) -> Result<T, E> {
        Self::read(b"null".to_vec())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        let mut out = Vec::new();
        JsonText(&mut out).deserialize(deserializer)?;
        Self::read(out)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        self.visit_some(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        let mut out = Vec::new();
        JsonText(&mut out).visit_seq(seq)?;
        Self::read(out)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        let mut out = Vec::new();
        JsonText(&mut out).visit_map(map)?;
        Self::read(out)
    }
}

/// Appends the value visited to the text as JSON.
struct JsonText<'a>(&'a mut Vec<u8>);

impl JsonText<'_> {
    fn write<E: de::Error>(self, value: &(impl serde::Serialize + ?Sized)) -> Result<(), E> {
        serde_json::to_writer(&mut *self.0, value).map_err(E::custom)
    }
}

impl<'de> DeserializeSeed<'de> for JsonText<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for JsonText<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.write(&v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        self.write(&v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        self.write(&v)
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<(), E> {
        self.write(&v)
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<(), E> {
        self.write(&v)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        if !v.is_finite() {
            return Err(E::custom(format_args!("{v} is not a JSON number")));
        }
        self.write(&v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.write(v)
    }

    /// Bytes as the JSON array of their values, as `serde_json` writes a `Vec<u8>`.
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<(), E> {
        self.write(v)
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.0.extend_from_slice(b"null");
        Ok(())
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.push(b'[');
        let mut first = true;
        loop {
            let at = self.0.len();
            if !first {
                self.0.push(b',');
            }
            if seq.next_element_seed(JsonText(&mut *self.0))?.is_none() {
                self.0.truncate(at);
                break;
            }
            first = false;
        }
        self.0.push(b']');
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.0.push(b'{');
        let mut first = true;
        loop {
            let at = self.0.len();
            if !first {
                self.0.push(b',');
            }
            if map.next_key_seed(KeyText(&mut *self.0))?.is_none() {
                self.0.truncate(at);
                break;
            }
            self.0.push(b':');
            map.next_value_seed(JsonText(&mut *self.0))?;
            first = false;
        }
        self.0.push(b'}');
        Ok(())
    }
}

/// Appends a map key to the text as a JSON string: a string as it is, a number or a
/// boolean as its text.
struct KeyText<'a>(&'a mut Vec<u8>);

impl KeyText<'_> {
    fn write<E: de::Error>(self, key: &str) -> Result<(), E> {
        serde_json::to_writer(&mut *self.0, key).map_err(E::custom)
    }
}

impl<'de> DeserializeSeed<'de> for KeyText<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for KeyText<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string, number or boolean map key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.write(v)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.write(if v { "true" } else { "false" })
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        self.write(&v.to_string())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        self.write(&v.to_string())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        self.write(&v.to_string())
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}
