//! [`TypeMetaTap`]: a deserializer wrapper that watches the top-level `apiVersion` and
//! `kind` of a JSON object go by while the typed decode reads it.
//!
//! The serializer picks the Rust type from `apiVersion`/`kind` before decoding. Go writes
//! them first, so reading the leading keys is usually enough to pick the type, and the
//! meta factory's separate pass over the whole document can be skipped — provided the
//! document does not name another kind further down (a key given twice, in any order).
//! The tap sees every top-level key during the one typed pass, so after it the serializer
//! knows whether the leading keys told the truth; when they did not, it decodes again the
//! careful way. Only the top level is wrapped: nested values go straight to the inner
//! deserializer, at no cost.

use std::marker::PhantomData;

use serde::de::value::{BorrowedStrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};

/// What a decode saw of one top-level type-meta key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Seen<'de> {
    /// The key did not occur.
    #[default]
    Absent,
    /// The key occurred once, with this string (`None`: `null`).
    Once(Option<&'de str>),
    /// The key occurred more than once, or its text could not be borrowed.
    Unverifiable,
}

impl<'de> Seen<'de> {
    fn record(&mut self, value: Option<&'de str>) {
        *self = match self {
            Seen::Absent => Seen::Once(value),
            _ => Seen::Unverifiable,
        };
    }

    /// True when what was seen reads as `expected` (`None`: absent or `null`), as the
    /// meta factory would read the whole document.
    fn reads_as(self, expected: Option<&str>) -> bool {
        match self {
            Seen::Absent | Seen::Once(None) => expected.is_none(),
            Seen::Once(Some(s)) => expected == Some(s),
            Seen::Unverifiable => false,
        }
    }
}

/// The top-level `apiVersion` and `kind` a typed decode met.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SeenTypeMeta<'de> {
    /// False when the type did not read the document as a map (then nothing was seen).
    tapped: bool,
    api_version: Seen<'de>,
    kind: Seen<'de>,
}

impl SeenTypeMeta<'_> {
    /// True when the whole document declares exactly `api_version` and `kind` (`None`:
    /// absent or `null`), each at most once.
    pub(crate) fn declares(&self, api_version: Option<&str>, kind: Option<&str>) -> bool {
        self.tapped && self.api_version.reads_as(api_version) && self.kind.reads_as(kind)
    }
}

/// Wraps the deserializer of a whole document; see the module documentation.
pub(crate) struct TypeMetaTap<'s, 'de, D> {
    inner: D,
    seen: &'s mut SeenTypeMeta<'de>,
}

impl<'s, 'de, D> TypeMetaTap<'s, 'de, D> {
    /// Taps `inner`, recording into `seen`.
    pub(crate) fn new(inner: D, seen: &'s mut SeenTypeMeta<'de>) -> Self {
        TypeMetaTap { inner, seen }
    }
}

/// Forwards deserializer methods untouched.
macro_rules! forward {
    ($($method:ident ( $($arg:ident : $ty:ty),* );)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
                self.inner.$method($($arg,)* visitor)
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for TypeMetaTap<'_, 'de, D> {
    type Error = D::Error;

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_map(TapVisitor {
            inner: visitor,
            seen: self.seen,
        })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_struct(
            name,
            fields,
            TapVisitor {
                inner: visitor,
                seen: self.seen,
            },
        )
    }

    forward! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_i128();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_u128();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
        deserialize_ignored_any();
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// The type's visitor, handed a tapped map. Anything but a map is refused, which sends
/// the serializer down its careful path (where the type's own visitor decides).
struct TapVisitor<'s, 'de, V> {
    inner: V,
    seen: &'s mut SeenTypeMeta<'de>,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for TapVisitor<'_, 'de, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.inner.expecting(f)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.seen.tapped = true;
        self.inner.visit_map(TapMap {
            inner: map,
            seen: self.seen,
            current: None,
        })
    }
}

#[derive(Clone, Copy)]
enum TypeMetaKey {
    ApiVersion,
    Kind,
}

struct TapMap<'s, 'de, A> {
    inner: A,
    seen: &'s mut SeenTypeMeta<'de>,
    /// The type-meta key whose value comes next.
    current: Option<TypeMetaKey>,
}

impl<'s, 'de, A> TapMap<'s, 'de, A> {
    fn slot(&mut self, key: TypeMetaKey) -> &mut Seen<'de> {
        match key {
            TypeMetaKey::ApiVersion => &mut self.seen.api_version,
            TypeMetaKey::Kind => &mut self.seen.kind,
        }
    }
}

fn type_meta_key(key: &str) -> Option<TypeMetaKey> {
    match key {
        "apiVersion" => Some(TypeMetaKey::ApiVersion),
        "kind" => Some(TypeMetaKey::Kind),
        _ => None,
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for TapMap<'_, 'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        // The key is read here, to look at it, then handed to the type's own seed.
        let Some(key) = self.inner.next_key::<Text<'de>>()? else {
            return Ok(None);
        };
        match key {
            Text::Borrowed(s) => {
                self.current = type_meta_key(s);
                seed.deserialize(BorrowedStrDeserializer::new(s)).map(Some)
            }
            Text::Owned(s) => {
                // An escaped key (`"\u006bind"`): its text is not in the input to borrow.
                if let Some(key) = type_meta_key(&s) {
                    *self.slot(key) = Seen::Unverifiable;
                }
                seed.deserialize(StringDeserializer::new(s)).map(Some)
            }
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        let Some(key) = self.current.take() else {
            return self.inner.next_value_seed(seed);
        };
        // A non-string, non-null `kind` fails here, and the careful path reports it.
        let value = self.inner.next_value::<TypeMetaValue<'de>>()?;
        match &value {
            TypeMetaValue::Borrowed(s) => self.slot(key).record(Some(s)),
            TypeMetaValue::Null => self.slot(key).record(None),
            TypeMetaValue::Owned(_) => *self.slot(key) = Seen::Unverifiable,
        }
        seed.deserialize(Replay {
            value,
            error: PhantomData,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

/// A key, borrowed from the input when it has no escapes.
enum Text<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl<'de> de::Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text::Borrowed(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text::Owned(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Text<'de>, E> {
                Ok(Text::Owned(v))
            }
        }
        deserializer.deserialize_str(TextVisitor)
    }
}

/// The value of a top-level `apiVersion` or `kind`: a string or `null`.
enum TypeMetaValue<'de> {
    Borrowed(&'de str),
    Owned(String),
    Null,
}

impl<'de> de::Deserialize<'de> for TypeMetaValue<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ValueVisitor;
        impl<'de> Visitor<'de> for ValueVisitor {
            type Value = TypeMetaValue<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string or null")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(TypeMetaValue::Borrowed(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(TypeMetaValue::Owned(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(TypeMetaValue::Owned(v))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(TypeMetaValue::Null)
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(TypeMetaValue::Null)
            }
        }
        deserializer.deserialize_any(ValueVisitor)
    }
}

/// Hands a type-meta value read by the tap to the type's own seed, as the document would.
struct Replay<'de, E> {
    value: TypeMetaValue<'de>,
    error: PhantomData<E>,
}

impl<'de, E: de::Error> Deserializer<'de> for Replay<'de, E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            TypeMetaValue::Borrowed(s) => visitor.visit_borrowed_str(s),
            TypeMetaValue::Owned(s) => visitor.visit_string(s),
            TypeMetaValue::Null => visitor.visit_unit(),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            TypeMetaValue::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, PartialEq, serde::Deserialize)]
    #[serde(rename_all = "camelCase", default)]
    struct Doc {
        api_version: Option<String>,
        kind: String,
        spec: serde_json::Value,
    }

    fn tap(data: &str) -> (Result<Doc, serde_json::Error>, SeenTypeMeta<'_>) {
        let mut seen = SeenTypeMeta::default();
        let mut de = serde_json::Deserializer::from_str(data);
        let doc = de::Deserialize::deserialize(TypeMetaTap::new(&mut de, &mut seen));
        (doc, seen)
    }

    #[test]
    fn the_type_reads_what_it_would_read_untapped() {
        let data = r#"{"kind":"Pod","apiVersion":"v1","spec":{"kind":"Nested","apiVersion":2}}"#;
        let (doc, seen) = tap(data);
        assert_eq!(doc.unwrap(), serde_json::from_str::<Doc>(data).unwrap());
        assert!(seen.declares(Some("v1"), Some("Pod")));
        assert!(!seen.declares(Some("v1"), Some("Nested")));
        assert!(!seen.declares(None, Some("Pod")));
    }

    #[test]
    fn a_kind_anywhere_at_the_top_level_is_seen() {
        let (doc, seen) = tap(r#"{"spec":1,"apiVersion":null,"kind":"Pod"}"#);
        assert_eq!(doc.unwrap().kind, "Pod");
        assert!(seen.declares(None, Some("Pod")));
        let (_, seen) = tap(r#"{"spec":1}"#);
        assert!(seen.declares(None, None));
    }

    #[test]
    fn repeated_or_escaped_keys_cannot_be_verified() {
        // A map keeps the last of repeated keys (as the derived API types do).
        let mut seen = SeenTypeMeta::default();
        let mut de = serde_json::Deserializer::from_str(r#"{"kind":"Pod","kind":"Pod"}"#);
        let map: std::collections::BTreeMap<String, String> =
            de::Deserialize::deserialize(TypeMetaTap::new(&mut de, &mut seen)).unwrap();
        assert_eq!(map["kind"], "Pod");
        assert!(!seen.declares(None, Some("Pod")));
        let (doc, seen) = tap(r#"{"\u006bind":"Pod"}"#);
        assert_eq!(doc.unwrap().kind, "Pod");
        assert!(!seen.declares(None, Some("Pod")));
        let (doc, seen) = tap(r#"{"kind":"P\u006fd"}"#);
        assert_eq!(doc.unwrap().kind, "Pod");
        assert!(!seen.declares(None, Some("Pod")));
    }

    #[test]
    fn a_kind_that_is_not_a_string_fails_the_decode() {
        let (doc, _) = tap(r#"{"kind":3}"#);
        assert!(doc.is_err());
        // A derived struct would read an array; the tap refuses it, and sees nothing.
        let (doc, seen) = tap(r#"[null,"Pod",{}]"#);
        assert!(doc.is_err());
        assert!(!seen.declares(None, None));
    }
}
