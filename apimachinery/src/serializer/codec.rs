//! The codec traits: [`Encoder`], [`Decoder`], and [`Serializer`] for both (Go's
//! `runtime.Encoder`, `runtime.Decoder`, `runtime.Serializer`).

use std::io;

use super::{DecodeError, DecodeErrorKind, EncodeError};
use crate::runtime::{Object, Resource};
use crate::schema::GroupVersionKind;

/// What a decode returns: the object and the kind it was decoded as.
pub type DecodeResult = Result<(Box<dyn Object>, GroupVersionKind), DecodeError>;

/// Writes objects in one format. Object safe: codecs are passed around as
/// `&dyn Encoder` / `Arc<dyn Encoder>`.
pub trait Encoder: Send + Sync {
    /// Writes `obj` to `w`.
    fn encode(&self, obj: &dyn Object, w: &mut dyn io::Write) -> Result<(), EncodeError>;

    /// A name for this encoder and its options, equal for encoders that write the same
    /// bytes (Go's `Identifier`, used as a cache key).
    fn identifier(&self) -> String;

    /// `obj` encoded into a new buffer.
    fn encode_to_vec(&self, obj: &dyn Object) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::with_capacity(ENCODE_BUFFER_CAPACITY);
        self.encode(obj, &mut out)?;
        Ok(out)
    }
}

/// The first capacity of an encoder's output buffer: objects are rarely under a
/// kilobyte, and starting there saves the buffer's first seven doublings.
pub(crate) const ENCODE_BUFFER_CAPACITY: usize = 1024;

/// Reads objects in one format. Object safe.
pub trait Decoder: Send + Sync {
    /// Decodes one object from `data`, with Go's semantics:
    ///
    /// - the group, version and kind are read from the bytes (`apiVersion`, `kind`);
    ///   pieces missing there are taken from `defaults` (a missing kind takes the default
    ///   kind; a missing group and version take both defaults; a missing version alone
    ///   takes the default version when the groups agree);
    /// - when `into` is given and its type is registered for that kind (or it is
    ///   unstructured), the object is decoded into it, and a copy is returned;
    ///   otherwise a new object of the registered type is returned and `into` is left
    ///   alone;
    /// - the kind decoded is returned with the object, also when it came from `defaults`.
    fn decode(
        &self,
        data: &[u8],
        defaults: Option<&GroupVersionKind>,
        into: Option<&mut dyn Object>,
    ) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError>;
}

/// Typed decoding on every [`Decoder`] (generic, so outside the object-safe trait).
pub trait DecoderExt: Decoder {
    /// One object decoded as a `T`: the bytes' missing kind or version are taken from
    /// `T`'s kind, and what this decoder returns must be a `T` (a versioning decoder must
    /// convert to `T`'s version), else the error is
    /// [`DecodeErrorKind::UnexpectedType`](super::DecodeErrorKind::UnexpectedType), which
    /// names the kind that was found. Implemented for every [`Decoder`], trait objects
    /// included (`&dyn Decoder`, [`SharedSerializer`](super::SharedSerializer)).
    ///
    /// ```
    /// use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta, runtime::Scheme};
    /// use apimachinery::serializer::{DecodeErrorKind, DecoderExt, json::{JsonSerializer, SerializerOptions}};
    ///
    /// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    /// #[api(group = "example.com", version = "v1", kind = "Widget")]
    /// pub struct Widget { pub metadata: ObjectMeta, pub size: i32 }
    ///
    /// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    /// #[api(group = "example.com", version = "v1", kind = "Gadget")]
    /// pub struct Gadget { pub metadata: ObjectMeta }
    ///
    /// let mut scheme = Scheme::new();
    /// scheme.add_known_type::<Widget>()?;
    /// scheme.add_known_type::<Gadget>()?;
    /// let json = JsonSerializer::new(&scheme, SerializerOptions::default());
    /// let widget: Widget = json.decode_as(br#"{"apiVersion":"example.com/v1","kind":"Widget","size":3}"#)?;
    /// assert_eq!(widget.size, 3);
    ///
    /// let err = json.decode_as::<Widget>(br#"{"apiVersion":"example.com/v1","kind":"Gadget"}"#).unwrap_err();
    /// assert!(matches!(err.kind(), DecodeErrorKind::UnexpectedType { found, .. } if found.kind == "Gadget"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn decode_as<T: Resource>(&self, data: &[u8]) -> Result<T, DecodeError>;
}

impl<D: Decoder + ?Sized> DecoderExt for D {
    fn decode_as<T: Resource>(&self, data: &[u8]) -> Result<T, DecodeError> {
        decode_as(self, data)
    }
}

fn decode_as<T: Resource, D: Decoder + ?Sized>(decoder: &D, data: &[u8]) -> Result<T, DecodeError> {
    let expected = T::gvk();
    let (object, found) = decoder.decode(data, Some(&expected), None)?;
    match object.downcast::<T>() {
        Ok(object) => Ok(*object),
        Err(other) => Err(DecodeErrorKind::UnexpectedType {
            expected,
            expected_type: std::any::type_name::<T>(),
            found,
            found_type: other.type_name(),
        }
        .into()),
    }
}

/// Both an [`Encoder`] and a [`Decoder`] (Go's `runtime.Serializer` and `runtime.Codec`).
pub trait Serializer: Encoder + Decoder {}

impl<T: Encoder + Decoder + ?Sized> Serializer for T {}

impl<T: Encoder + ?Sized> Encoder for &T {
    fn encode(&self, obj: &dyn Object, w: &mut dyn io::Write) -> Result<(), EncodeError> {
        (**self).encode(obj, w)
    }

    fn identifier(&self) -> String {
        (**self).identifier()
    }

    // Forwarded: an encoder's own may write its vector directly.
    fn encode_to_vec(&self, obj: &dyn Object) -> Result<Vec<u8>, EncodeError> {
        (**self).encode_to_vec(obj)
    }
}

impl<T: Encoder + ?Sized> Encoder for std::sync::Arc<T> {
    fn encode(&self, obj: &dyn Object, w: &mut dyn io::Write) -> Result<(), EncodeError> {
        (**self).encode(obj, w)
    }

    fn identifier(&self) -> String {
        (**self).identifier()
    }

    // Forwarded: an encoder's own may write its vector directly.
    fn encode_to_vec(&self, obj: &dyn Object) -> Result<Vec<u8>, EncodeError> {
        (**self).encode_to_vec(obj)
    }
}

impl<T: Decoder + ?Sized> Decoder for &T {
    fn decode(
        &self,
        data: &[u8],
        defaults: Option<&GroupVersionKind>,
        into: Option<&mut dyn Object>,
    ) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
        (**self).decode(data, defaults, into)
    }
}

impl<T: Decoder + ?Sized> Decoder for std::sync::Arc<T> {
    fn decode(
        &self,
        data: &[u8],
        defaults: Option<&GroupVersionKind>,
        into: Option<&mut dyn Object>,
    ) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
        (**self).decode(data, defaults, into)
    }
}

/// The kind Go's decoders settle on: `actual` with its missing pieces taken from
/// `defaults` (Go's `gvkWithDefaults`).
pub fn gvk_with_defaults(
    mut actual: GroupVersionKind,
    defaults: &GroupVersionKind,
) -> GroupVersionKind {
    if actual.kind.is_empty() {
        actual.kind = defaults.kind.clone();
    }
    if actual.version.is_empty() && actual.group.is_empty() {
        actual.group = defaults.group.clone();
        actual.version = defaults.version.clone();
    }
    if actual.version.is_empty() && actual.group == defaults.group {
        actual.version = defaults.version.clone();
    }
    actual
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apis::meta::v1::ObjectMeta;
    use crate::runtime::Scheme;
    use crate::serializer::json::{JsonSerializer, SerializerOptions};
    use crate::serializer::{CodecFactory, SharedSerializer};
    use std::sync::Arc;

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "typed.test", version = "v1", kind = "Widget")]
    struct Widget {
        metadata: ObjectMeta,
        size: i64,
    }

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "typed.test", version = "v1", kind = "Gadget")]
    struct Gadget {
        metadata: ObjectMeta,
    }

    fn scheme() -> Scheme {
        let mut scheme = Scheme::new();
        scheme.add_known_type::<Widget>().unwrap();
        scheme.add_known_type::<Gadget>().unwrap();
        scheme
    }

    const WIDGET: &[u8] = br#"{"apiVersion":"typed.test/v1","kind":"Widget","size":3}"#;
    const GADGET: &[u8] = br#"{"apiVersion":"typed.test/v1","kind":"Gadget"}"#;

    #[test]
    fn decode_as_returns_the_type_asked_for() {
        let scheme = scheme();
        let json = JsonSerializer::new(&scheme, SerializerOptions::default());
        let widget: Widget = json.decode_as(WIDGET).unwrap();
        assert_eq!(widget.size, 3);
        // The kind missing from the bytes is the type's.
        let widget: Widget = json.decode_as(br#"{"size":4}"#).unwrap();
        assert_eq!(widget.size, 4);
        assert_eq!(
            widget.group_version_kind(),
            GroupVersionKind::new("typed.test", "v1", "Widget")
        );
    }

    #[test]
    fn decode_as_another_kind_is_a_typed_error_naming_what_was_found() {
        let scheme = scheme();
        let json = JsonSerializer::new(&scheme, SerializerOptions::default());
        let err = json.decode_as::<Widget>(GADGET).unwrap_err();
        match err.kind() {
            DecodeErrorKind::UnexpectedType {
                expected,
                expected_type,
                found,
                found_type,
            } => {
                assert_eq!(
                    *expected,
                    GroupVersionKind::new("typed.test", "v1", "Widget")
                );
                assert!(expected_type.ends_with("::Widget"), "{expected_type}");
                assert_eq!(*found, GroupVersionKind::new("typed.test", "v1", "Gadget"));
                assert!(found_type.ends_with("::Gadget"), "{found_type}");
            }
            other => panic!("{other:?}"),
        }
        let message = err.to_string();
        assert!(
            message.starts_with("decoded typed.test/v1, Kind=Gadget ("),
            "{message}"
        );
        assert!(
            message.contains("), not typed.test/v1, Kind=Widget ("),
            "{message}"
        );
        // It is an `Error`, so `?` carries it into `Box<dyn Error>`.
        let boxed: Box<dyn std::error::Error> = err.into();
        assert!(boxed.to_string().contains("Gadget"));
        // Errors of the decode itself come through unchanged.
        let err = json.decode_as::<Widget>(b"{").unwrap_err();
        assert!(
            matches!(err.kind(), DecodeErrorKind::Syntax { .. }),
            "{err}"
        );
    }

    #[test]
    fn decode_as_works_on_trait_objects_and_shared_codecs() {
        let scheme = Arc::new(scheme());
        let codecs = CodecFactory::new(scheme);
        let shared: SharedSerializer<'static> = codecs
            .serializer_for_media_type("application/yaml")
            .unwrap()
            .serializer
            .clone();
        let widget: Widget = shared
            .decode_as(b"apiVersion: typed.test/v1\nkind: Widget\nsize: 5\n")
            .unwrap();
        assert_eq!(widget.size, 5);
        let dyn_decoder: &dyn Decoder = &codecs.universal_deserializer();
        let gadget: Gadget = dyn_decoder.decode_as(GADGET).unwrap();
        assert_eq!(gadget.metadata, ObjectMeta::default());
        let not_a_gadget = dyn_decoder.decode_as::<Gadget>(WIDGET).unwrap_err();
        assert!(
            matches!(not_a_gadget.kind(), DecodeErrorKind::UnexpectedType { found, .. } if found.kind == "Widget"),
            "{not_a_gadget}"
        );
    }

    #[test]
    fn defaults_fill_only_missing_pieces() {
        let d = GroupVersionKind::new("apps", "v1", "Deployment");
        let cases = [
            (("", "", ""), ("apps", "v1", "Deployment")),
            (("", "", "Pod"), ("apps", "v1", "Pod")),
            (("", "v2", ""), ("", "v2", "Deployment")),
            (("apps", "", ""), ("apps", "v1", "Deployment")),
            (("batch", "", "Job"), ("batch", "", "Job")),
            (("batch", "v1", "Job"), ("batch", "v1", "Job")),
        ];
        for ((g, v, k), (wg, wv, wk)) in cases {
            assert_eq!(
                gvk_with_defaults(GroupVersionKind::new(g, v, k), &d),
                GroupVersionKind::new(wg, wv, wk),
                "{g}/{v} {k}"
            );
        }
    }
}
