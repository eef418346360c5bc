//! Codecs that convert: [`VersioningEncoder`] converts then encodes, [`VersioningDecoder`]
//! decodes, defaults, then converts, [`VersioningCodec`] does both (Go's
//! `runtime/serializer/versioning`). Conversion goes through an [`ObjectConvertor`],
//! defaulting through an [`ObjectDefaulter`]. [`WithVersionEncoder`] and
//! [`WithoutVersionDecoder`] are the codecs that do neither (Go's `runtime` helpers of the
//! same names).

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

/// Sets the defaults of objects (Go's `runtime.ObjectDefaulter`); the [`Scheme`] is one,
/// through its registered defaulting functions ([`Scheme::default`]).
pub trait ObjectDefaulter: Send + Sync {
    /// Fills in `obj`'s unset fields. Defaulting an object twice gives what defaulting it
    /// once gives.
    fn default(&self, obj: &mut dyn Object);
}

impl ObjectDefaulter for Scheme {
    fn default(&self, obj: &mut dyn Object) {
        Scheme::default(self, obj);
    }
}

impl ObjectDefaulter for SchemeRef<'_> {
    fn default(&self, obj: &mut dyn Object) {
        Scheme::default(self, obj);
    }
}

impl<T: ObjectDefaulter + ?Sized> ObjectDefaulter for &T {
    fn default(&self, obj: &mut dyn Object) {
        (**self).default(obj);
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

/// Decodes, defaults, then converts to a version (Go's versioning codec, decode side).
///
/// The defaults are those of the version the bytes are in (Go's defaulters are registered
/// on the versioned types), set before conversion, as Go's codec sets them.
#[derive(Clone)]
pub struct VersioningDecoder<'s> {
    decoder: Arc<dyn Decoder + 's>,
    convertor: Arc<dyn ObjectConvertor + 's>,
    defaulter: Option<Arc<dyn ObjectDefaulter + 's>>,
    scheme: SchemeRef<'s>,
    target: Arc<dyn GroupVersioner + 's>,
}

impl<'s> VersioningDecoder<'s> {
    /// Decodes with `decoder`, then converts to `target`, without defaulting (Go's
    /// `versioning.NewCodec` with no defaulter); [`with_defaulter`](Self::with_defaulter)
    /// adds it. The codec factory's decoders default with the scheme.
    pub fn new(
        decoder: Arc<dyn Decoder + 's>,
        convertor: Arc<dyn ObjectConvertor + 's>,
        scheme: impl Into<SchemeRef<'s>>,
        target: Arc<dyn GroupVersioner + 's>,
    ) -> Self {
        VersioningDecoder {
            decoder,
            convertor,
            defaulter: None,
            scheme: scheme.into(),
            target,
        }
    }

    /// The same decoder, defaulting each object with `defaulter` between decoding and
    /// converting (Go's `NewDefaultingCodecForScheme` passes the scheme).
    pub fn with_defaulter(mut self, defaulter: Arc<dyn ObjectDefaulter + 's>) -> Self {
        self.defaulter = Some(defaulter);
        self
    }

    /// The same decoder without defaulting.
    pub fn without_defaulter(mut self) -> Self {
        self.defaulter = None;
        self
    }

    /// True when the decoder defaults what it decodes.
    pub fn defaults(&self) -> bool {
        self.defaulter.is_some()
    }
}

impl Decoder for VersioningDecoder<'_> {
    /// Decodes what the bytes are, defaults it (when the decoder has a defaulter), then
    /// converts it to the target version; with `into`, converts to `into`'s kind instead
    /// and moves the result into it. A strict-mode error keeps its place: the defaulted,
    /// converted object is carried in it.
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
        let (mut obj, gvk, strict) = match self.decoder.decode(data, defaults, None) {
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
        if let Some(defaulter) = &self.defaulter {
            defaulter.default(&mut *obj);
        }
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

/// Encodes objects as they are, without converting them, written with the kind `target`
/// picks among the object's registered kinds (the first one when it picks none); objects
/// the scheme does not know are written as they are (Go's `runtime.WithVersionEncoder`,
/// what a codec factory without conversion hands out).
#[derive(Clone)]
pub struct WithVersionEncoder<'s> {
    encoder: Arc<dyn Encoder + 's>,
    scheme: SchemeRef<'s>,
    target: Option<Arc<dyn GroupVersioner + 's>>,
}

impl<'s> WithVersionEncoder<'s> {
    /// Encodes with `encoder`, naming the kind `target` prefers.
    pub fn new(
        encoder: Arc<dyn Encoder + 's>,
        scheme: impl Into<SchemeRef<'s>>,
        target: Option<Arc<dyn GroupVersioner + 's>>,
    ) -> Self {
        WithVersionEncoder {
            encoder,
            scheme: scheme.into(),
            target,
        }
    }
}

impl Encoder for WithVersionEncoder<'_> {
    /// The caller's object is never changed: a copy carries the kind written.
    fn encode(&self, obj: &dyn Object, w: &mut dyn io::Write) -> Result<(), EncodeError> {
        let kinds = match self.scheme.object_kinds(obj) {
            Ok((kinds, _)) => kinds,
            Err(e) if e.is_not_registered() => return self.encoder.encode(obj, w),
            Err(e) => return Err(e.into()),
        };
        let preferred = self
            .target
            .as_ref()
            .and_then(|t| t.kind_for_group_version_kinds(&kinds));
        let Some(gvk) = preferred.or_else(|| kinds.first().cloned()) else {
            return self.encoder.encode(obj, w);
        };
        if obj.group_version_kind() == gvk {
            return self.encoder.encode(obj, w);
        }
        let mut copy = obj.deep_copy_object();
        copy.set_group_version_kind(&gvk);
        self.encoder.encode(&*copy, w)
    }

    fn identifier(&self) -> String {
        self.encoder.identifier()
    }
}

/// Decodes without converting or defaulting, and clears the kind of the object decoded
/// (Go's `runtime.WithoutVersionDecoder`, what a codec factory without conversion hands
/// out; the kind decoded is still returned beside the object).
#[derive(Clone)]
pub struct WithoutVersionDecoder<'s> {
    decoder: Arc<dyn Decoder + 's>,
}

impl<'s> WithoutVersionDecoder<'s> {
    /// Decodes with `decoder`.
    pub fn new(decoder: Arc<dyn Decoder + 's>) -> Self {
        WithoutVersionDecoder { decoder }
    }
}

impl Decoder for WithoutVersionDecoder<'_> {
    fn decode(
        &self,
        data: &[u8],
        defaults: Option<&GroupVersionKind>,
        into: Option<&mut dyn Object>,
    ) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
        let cleared = GroupVersionKind::default();
        match self.decoder.decode(data, defaults, into) {
            Ok((mut obj, gvk)) => {
                obj.set_group_version_kind(&cleared);
                Ok((obj, gvk))
            }
            Err(e) if e.is_strict_decoding_error() => match e.into_kind() {
                super::DecodeErrorKind::Strict(s) => {
                    let errors = s.errors().to_vec();
                    let (mut obj, gvk) = s.into_object();
                    obj.set_group_version_kind(&cleared);
                    Err(
                        super::DecodeErrorKind::Strict(super::StrictDecodingError::new(
                            obj, gvk, errors,
                        ))
                        .into(),
                    )
                }
                other => Err(other.into()),
            },
            Err(e) => Err(e),
        }
    }
}
