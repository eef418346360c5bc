//! Codecs that convert: [`VersioningEncoder`] converts then encodes, [`VersioningDecoder`]
//! decodes then converts, [`VersioningCodec`] does both (Go's
//! `runtime/serializer/versioning`). Conversion goes through an [`ObjectConvertor`].

use std::io;
use std::sync::Arc;

use super::{DecodeError, Decoder, EncodeError, Encoder, SchemeRef};
use crate::conversion::{ConversionError, ConversionErrorKind};
use crate::runtime::{Object, Scheme};
use crate::schema::{GroupVersionKind, GroupVersioner};

/// Converts objects between the versions of their kind (Go's `runtime.ObjectConvertor`);
/// the [`Scheme`] is one, through its conversion functions.
pub trait ObjectConvertor: Send + Sync {
    /// `obj` as the kind `target` picks among the object's kinds; an object already of
    /// that kind comes back as it is.
    fn convert_to_version(
        &self,
        obj: Box<dyn Object>,
        target: &dyn GroupVersioner,
    ) -> Result<Box<dyn Object>, ConversionError>;
}

impl ObjectConvertor for Scheme {
    fn convert_to_version(
        &self,
        obj: Box<dyn Object>,
        target: &dyn GroupVersioner,
    ) -> Result<Box<dyn Object>, ConversionError> {
        Scheme::convert_to_version(self, obj, target)
    }
}

impl ObjectConvertor for SchemeRef<'_> {
    fn convert_to_version(
        &self,
        obj: Box<dyn Object>,
        target: &dyn GroupVersioner,
    ) -> Result<Box<dyn Object>, ConversionError> {
        Scheme::convert_to_version(self, obj, target)
    }
}

impl<T: ObjectConvertor + ?Sized> ObjectConvertor for &T {
    fn convert_to_version(
        &self,
        obj: Box<dyn Object>,
        target: &dyn GroupVersioner,
    ) -> Result<Box<dyn Object>, ConversionError> {
        (**self).convert_to_version(obj, target)
    }
}

/// Converts objects to a version, then encodes them (Go's versioning codec, encode side).
#[derive(Clone)]
pub struct VersioningEncoder<'s> {
    encoder: Arc<dyn Encoder + 's>,
    convertor: Arc<dyn ObjectConvertor + 's>,
    scheme: SchemeRef<'s>,
    target: Option<Arc<dyn GroupVersioner + 's>>,
}

impl<'s> VersioningEncoder<'s> {
    /// Encodes with `encoder` after converting to `target`; with no target, objects are
    /// encoded in the version they are in.
    pub fn new(
        encoder: Arc<dyn Encoder + 's>,
        convertor: Arc<dyn ObjectConvertor + 's>,
        scheme: impl Into<SchemeRef<'s>>,
        target: Option<Arc<dyn GroupVersioner + 's>>,
    ) -> Self {
        VersioningEncoder {
            encoder,
            convertor,
            scheme: scheme.into(),
            target,
        }
    }
}

impl Encoder for VersioningEncoder<'_> {
    /// Unversioned objects, and all objects when there is no target, are written with
    /// their first registered kind; others are converted to the target first. The
    /// caller's object is never changed.
    fn encode(&self, obj: &dyn Object, w: &mut dyn io::Write) -> Result<(), EncodeError> {
        let (kinds, unversioned) = self.scheme.object_kinds(obj)?;
        let mut copy = obj.deep_copy_object();
        match &self.target {
            Some(target) if !unversioned => {
                let out = self.convertor.convert_to_version(copy, target.as_ref())?;
                self.encoder.encode(&*out, w)
            }
            _ => {
                if let Some(first) = kinds.first() {
                    copy.set_group_version_kind(first);
                }
                self.encoder.encode(&*copy, w)
            }
        }
    }

    fn identifier(&self) -> String {
        let target = self
            .target
            .as_ref()
            .map_or_else(String::new, |t| t.identifier());
        format!(
            r#"{{"encodeGV":{:?},"encoder":{:?},"name":"versioning"}}"#,
            target,
            self.encoder.identifier()
        )
    }
}

/// Decodes, then converts to a version (Go's versioning codec, decode side).
#[derive(Clone)]
pub struct VersioningDecoder<'s> {
    decoder: Arc<dyn Decoder + 's>,
    convertor: Arc<dyn ObjectConvertor + 's>,
    scheme: SchemeRef<'s>,
    target: Arc<dyn GroupVersioner + 's>,
}

impl<'s> VersioningDecoder<'s> {
    /// Decodes with `decoder`, then converts to `target`.
    pub fn new(
        decoder: Arc<dyn Decoder + 's>,
        convertor: Arc<dyn ObjectConvertor + 's>,
        scheme: impl Into<SchemeRef<'s>>,
        target: Arc<dyn GroupVersioner + 's>,
    ) -> Self {
        VersioningDecoder {
            decoder,
            convertor,
            scheme: scheme.into(),
            target,
        }
    }
}

impl Decoder for VersioningDecoder<'_> {
    /// Decodes what the bytes are, then converts it to the target version; with `into`,
    /// converts to `into`'s kind instead and moves the result into it. A strict-mode
    /// error keeps its place: the converted object is carried in it.
    fn decode(
        &self,
        data: &[u8],
        defaults: Option<&GroupVersionKind>,
        into: Option<&mut dyn Object>,
    ) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
        // An unstructured `into` without a version of its own takes the document as it is;
        // any other `into` gets a fresh object converted to its version.
        let into = match into {
            Some(u) if u.is_unstructured() && u.group_version_kind().group_version().is_empty() => {
                return self.decoder.decode(data, defaults, Some(u));
            }
            other => other,
        };
        let (obj, gvk, strict) = match self.decoder.decode(data, defaults, None) {
            Ok((obj, gvk)) => (obj, gvk, None),
            Err(e) if e.is_strict_decoding_error() => match e.into_kind() {
                super::DecodeErrorKind::Strict(s) => {
                    let errors = s.errors().to_vec();
                    let (obj, gvk) = s.into_object();
                    (obj, gvk, Some(errors))
                }
                other => return Err(other.into()),
            },
            Err(e) => return Err(e),
        };
        let out = match into {
            Some(into) => {
                let into_kind = into_target(&self.scheme, into)?;
                let out = self.convertor.convert_to_version(obj, &into_kind)?;
                let copy = out.deep_copy_object();
                move_into(&self.scheme, into, out)?;
                copy
            }
            None => self
                .convertor
                .convert_to_version(obj, self.target.as_ref())?,
        };
        match strict {
            None => Ok((out, gvk)),
            Some(errors) => Err(
                super::DecodeErrorKind::Strict(super::StrictDecodingError::new(out, gvk, errors))
                    .into(),
            ),
        }
    }
}

/// The group version an `into` object asks for: its declared one when it is
/// unstructured, else the first kind its type is registered under.
fn into_target(
    scheme: &Scheme,
    into: &dyn Object,
) -> Result<crate::schema::GroupVersion, DecodeError> {
    if into.is_unstructured() {
        return Ok(into.group_version_kind().group_version());
    }
    let (kinds, _) = scheme
        .object_kinds(into)
        .map_err(super::DecodeErrorKind::from)?;
    Ok(kinds
        .first()
        .map(GroupVersionKind::group_version)
        .unwrap_or_default())
}

fn move_into(
    scheme: &Scheme,
    into: &mut dyn Object,
    out: Box<dyn Object>,
) -> Result<(), DecodeError> {
    use crate::runtime::{Unstructured, UnstructuredList};
    if let Some(slot) = into.downcast_mut::<Unstructured>() {
        if let Ok(out) = out.downcast::<Unstructured>() {
            *slot = *out;
            return Ok(());
        }
    } else if let Some(slot) = into.downcast_mut::<UnstructuredList>() {
        if let Ok(out) = out.downcast::<UnstructuredList>() {
            *slot = *out;
            return Ok(());
        }
    } else {
        let gvk = out.group_version_kind();
        if let Some(object_type) = scheme.object_type(&gvk) {
            if object_type.assign(into, out).is_ok() {
                return Ok(());
            }
        }
    }
    Err(ConversionError::new(ConversionErrorKind::NoConversion {
        from: "decoded object",
        to: into.type_name(),
    })
    .into())
}

/// Both a [`VersioningEncoder`] and a [`VersioningDecoder`] (Go's `runtime.Codec` built
/// by `CodecForVersions`).
#[derive(Clone)]
pub struct VersioningCodec<'s> {
    encoder: VersioningEncoder<'s>,
    decoder: VersioningDecoder<'s>,
}

impl<'s> VersioningCodec<'s> {
    /// Encodes with `encoder`, decodes with `decoder`.
    pub fn new(encoder: VersioningEncoder<'s>, decoder: VersioningDecoder<'s>) -> Self {
        VersioningCodec { encoder, decoder }
    }
}

impl Encoder for VersioningCodec<'_> {
    fn encode(&self, obj: &dyn Object, w: &mut dyn io::Write) -> Result<(), EncodeError> {
        self.encoder.encode(obj, w)
    }

    fn identifier(&self) -> String {
        self.encoder.identifier()
    }
}

impl Decoder for VersioningCodec<'_> {
    fn decode(
        &self,
        data: &[u8],
        defaults: Option<&GroupVersionKind>,
        into: Option<&mut dyn Object>,
    ) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
        self.decoder.decode(data, defaults, into)
    }
}
