//! [`CodecFactory`]: the serializers of a scheme by media type, and the codecs that
//! convert on the way (Go's `serializer.CodecFactory`).

use std::sync::Arc;

use super::json::{JsonSerializer, SerializerOptions};
use super::protobuf::ProtobufSerializer;
use super::recognizer::RecognizingDecoder;
use super::versioning::{
    ObjectConvertor, ObjectDefaulter, VersioningCodec, VersioningDecoder, VersioningEncoder,
    WithVersionEncoder, WithoutVersionDecoder,
};
use super::{Decoder, Encoder, SchemeRef, Serializer};
use crate::schema::{GroupVersion, GroupVersioner, GroupVersions, InternalGroupVersioner};

/// `application/json`.
pub const CONTENT_TYPE_JSON: &str = "application/json";
/// `application/yaml`.
pub const CONTENT_TYPE_YAML: &str = "application/yaml";
/// `application/vnd.kubernetes.protobuf`.
pub const CONTENT_TYPE_PROTOBUF: &str = "application/vnd.kubernetes.protobuf";

/// A serializer shared by the codecs built from it.
pub type SharedSerializer<'s> = Arc<dyn Serializer + 's>;

/// What a media type can be read and written with (Go's `runtime.SerializerInfo`).
#[derive(Clone)]
pub struct SerializerInfo<'s> {
    /// The media type, such as `application/json`.
    pub media_type: &'static str,
    /// Its type, such as `application`.
    pub media_type_type: &'static str,
    /// Its subtype, such as `json`.
    pub media_type_sub_type: &'static str,
    /// True for text formats.
    pub encodes_as_text: bool,
    /// The default serializer.
    pub serializer: SharedSerializer<'s>,
    /// The indented variant, when the format has one.
    pub pretty_serializer: Option<SharedSerializer<'s>>,
    /// The strict variant (unknown and duplicate fields are errors).
    pub strict_serializer: Option<SharedSerializer<'s>>,
    /// The variant for streams of objects (watch), when the format has one.
    pub stream_serializer: Option<StreamSerializerInfo<'s>>,
}

/// How a stream of objects of a media type is written and framed (Go's
/// `runtime.StreamSerializerInfo`).
#[derive(Clone)]
pub struct StreamSerializerInfo<'s> {
    /// True for text formats.
    pub encodes_as_text: bool,
    /// The serializer of each object.
    pub serializer: SharedSerializer<'s>,
    /// How objects are delimited in the stream.
    pub framer: Framer,
}

/// How objects are delimited in a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Framer {
    /// JSON values one after another, each read to its end (Go's `json.Framer`); see
    /// [`split_json_stream`](super::split_json_stream).
    Json,
    /// Each object preceded by its length as a 4-byte big-endian integer (Go's
    /// `framer.LengthDelimitedFramer`, used by protobuf).
    LengthDelimited,
}

/// Why a media type has no serializer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MediaTypeError {
    /// The media type is not one the factory serves.
    #[error("no serializer for media type {media_type:?}; supported: {supported:?}")]
    Unsupported {
        /// The media type asked for.
        media_type: String,
        /// The media types served.
        supported: Vec<&'static str>,
    },
}

/// The serializers and codecs of a scheme (Go's `serializer.CodecFactory`).
///
/// ```
/// use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta, runtime::Scheme};
/// use apimachinery::serializer::{CodecFactory, Decoder, Encoder};
///
/// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
/// #[api(group = "example.com", version = "v1", kind = "Widget")]
/// pub struct Widget { pub metadata: ObjectMeta }
///
/// let mut scheme = Scheme::new();
/// scheme.add_known_type::<Widget>()?;
/// let codecs = CodecFactory::new(&scheme);
/// let (obj, gvk) = codecs
///     .universal_deserializer()
///     .decode(b"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n", None, None)?;
/// assert_eq!(gvk.to_string(), "example.com/v1, Kind=Widget");
/// let info = codecs.serializer_for_media_type("application/json")?;
/// let out = info.pretty_serializer.as_ref().unwrap().encode_to_vec(&*obj)?;
/// assert!(out.starts_with(b"{\n  \"kind\": \"Widget\",\n  \"apiVersion\": \"example.com/v1\""));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Built from an `Arc<Scheme>`, the factory and every codec it hands out own their
/// scheme (`CodecFactory<'static>`, `Send + Sync`): they can be kept in a server's state,
/// cloned cheaply, and moved into threads or tokio tasks. Built from `&Scheme` they
/// borrow it, as before (see [`SchemeRef`]).
///
/// ```
/// # use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta, runtime::Scheme};
/// # use apimachinery::serializer::{CodecFactory, Decoder};
/// # #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
/// # #[api(group = "example.com", version = "v1", kind = "Widget")]
/// # pub struct Widget { pub metadata: ObjectMeta }
/// use std::sync::Arc;
///
/// struct State { codecs: CodecFactory<'static> }
///
/// let mut scheme = Scheme::new();
/// scheme.add_known_type::<Widget>()?;
/// let state = State { codecs: CodecFactory::new(Arc::new(scheme)) };
/// let decoder = state.codecs.universal_deserializer();
/// let worker = std::thread::spawn(move || {
///     decoder.decode(br#"{"apiVersion":"example.com/v1","kind":"Widget"}"#, None, None)
///         .map(|(_, gvk)| gvk.kind)
/// });
/// assert_eq!(worker.join().unwrap()?, "Widget");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct CodecFactory<'s> {
    scheme: SchemeRef<'s>,
    convertor: Arc<dyn ObjectConvertor + 's>,
    defaulter: Option<Arc<dyn ObjectDefaulter + 's>>,
    serializers: Arc<[SerializerInfo<'s>]>,
    universal: RecognizingDecoder<'s>,
}

impl<'s> CodecFactory<'s> {
    /// The factory of `scheme`, converting with the scheme's own conversion functions
    /// ([`Scheme::convert_to_version`](crate::runtime::Scheme::convert_to_version)) and
    /// defaulting with its defaulting functions, as Go's `NewCodecFactory` does;
    /// [`with_convertor`](Self::with_convertor) takes another convertor,
    /// [`without_defaulting`](Self::without_defaulting) and
    /// [`without_conversion`](Self::without_conversion) drop the steps.
    pub fn new(scheme: impl Into<SchemeRef<'s>>) -> Self {
        let scheme = scheme.into();
        Self::with_convertor(scheme.clone(), Arc::new(scheme))
    }

    /// The factory of `scheme`, converting with `convertor` and defaulting with the
    /// scheme.
    pub fn with_convertor(
        scheme: impl Into<SchemeRef<'s>>,
        convertor: Arc<dyn ObjectConvertor + 's>,
    ) -> Self {
        let scheme = scheme.into();
        let json = |yaml, pretty, strict| {
            JsonSerializer::new(
                scheme.clone(),
                SerializerOptions {
                    yaml,
                    pretty,
                    strict,
                },
            )
        };
        let shared = |s: JsonSerializer<'s>| -> SharedSerializer<'s> { Arc::new(s) };
        #[cfg_attr(not(feature = "yaml"), allow(unused_mut))]
        let mut serializers = vec![
            SerializerInfo {
                media_type: CONTENT_TYPE_JSON,
                media_type_type: "application",
                media_type_sub_type: "json",
                encodes_as_text: true,
                serializer: shared(json(false, false, false)),
                pretty_serializer: Some(shared(json(false, true, false))),
                strict_serializer: Some(shared(json(false, false, true))),
                stream_serializer: Some(StreamSerializerInfo {
                    encodes_as_text: true,
                    serializer: shared(json(false, false, false)),
                    framer: Framer::Json,
                }),
            },
            SerializerInfo {
                media_type: CONTENT_TYPE_PROTOBUF,
                media_type_type: "application",
                media_type_sub_type: "vnd.kubernetes.protobuf",
                encodes_as_text: false,
                serializer: Arc::new(ProtobufSerializer::new(scheme.clone())),
                pretty_serializer: None,
                strict_serializer: None,
                stream_serializer: Some(StreamSerializerInfo {
                    encodes_as_text: false,
                    serializer: Arc::new(ProtobufSerializer::new(scheme.clone())),
                    framer: Framer::LengthDelimited,
                }),
            },
        ];
        // YAML is served only when it is built in (the `yaml` feature).
        #[cfg(feature = "yaml")]
        serializers.insert(
            1,
            SerializerInfo {
                media_type: CONTENT_TYPE_YAML,
                media_type_type: "application",
                media_type_sub_type: "yaml",
                encodes_as_text: true,
                serializer: shared(json(true, false, false)),
                pretty_serializer: None,
                strict_serializer: Some(shared(json(true, false, true))),
                stream_serializer: None,
            },
        );
        let universal = RecognizingDecoder::new(
            json(false, false, false),
            json(true, false, false),
            ProtobufSerializer::new(scheme.clone()),
        );
        CodecFactory {
            defaulter: Some(Arc::new(scheme.clone())),
            scheme,
            convertor,
            serializers: serializers.into(),
            universal,
        }
    }

    /// The same factory, with decoders that convert without defaulting (Go's
    /// `versioning.NewCodec` with no defaulter).
    pub fn without_defaulting(mut self) -> Self {
        self.defaulter = None;
        self
    }

    /// The same serializers, with codecs that neither convert nor default (Go's
    /// `CodecFactory.WithoutConversion`).
    pub fn without_conversion(&self) -> WithoutConversionCodecFactory<'s> {
        WithoutConversionCodecFactory {
            factory: self.clone(),
        }
    }

    /// A decoder that converts (and defaults, unless built without) on this factory's
    /// terms.
    fn versioning_decoder(
        &self,
        decoder: Arc<dyn Decoder + 's>,
        target: Arc<dyn GroupVersioner + 's>,
    ) -> VersioningDecoder<'s> {
        let versioning =
            VersioningDecoder::new(decoder, self.convertor.clone(), self.scheme.clone(), target);
        match &self.defaulter {
            Some(defaulter) => versioning.with_defaulter(defaulter.clone()),
            None => versioning,
        }
    }

    /// The media types served, with their serializers (Go's `SupportedMediaTypes`).
    pub fn supported_media_types(&self) -> &[SerializerInfo<'s>] {
        &self.serializers
    }

    /// The serializers of a media type (Go's `runtime.SerializerInfoForMediaType`);
    /// parameters (`;charset=utf-8`) and case are ignored.
    pub fn serializer_for_media_type(
        &self,
        media_type: &str,
    ) -> Result<&SerializerInfo<'s>, MediaTypeError> {
        let essence = media_type
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        if let Some(info) = self.serializers.iter().find(|i| i.media_type == essence) {
            return Ok(info);
        }
        Err(MediaTypeError::Unsupported {
            media_type: media_type.to_owned(),
            supported: self.serializers.iter().map(|i| i.media_type).collect(),
        })
    }

    /// A decoder of every supported format that returns objects in the version the
    /// bytes are in, without conversion or defaulting (Go's `UniversalDeserializer`).
    pub fn universal_deserializer(&self) -> RecognizingDecoder<'s> {
        self.universal.clone()
    }

    /// A decoder of every supported format that defaults what it decodes, then converts it
    /// to the first of `versions` that accepts the kind, or to the internal version when
    /// `versions` is empty (Go's `UniversalDecoder`).
    pub fn universal_decoder(&self, versions: &[GroupVersion]) -> VersioningDecoder<'s> {
        let target: Arc<dyn GroupVersioner + 's> = if versions.is_empty() {
            Arc::new(InternalGroupVersioner)
        } else {
            Arc::new(GroupVersions(versions.to_vec()))
        };
        self.versioning_decoder(Arc::new(self.universal.clone()), target)
    }

    /// An encoder that converts objects to `target`, then encodes them with `encoder`
    /// (Go's `EncoderForVersion`).
    pub fn encoder_for_version(
        &self,
        encoder: Arc<dyn Encoder + 's>,
        target: Arc<dyn GroupVersioner + 's>,
    ) -> VersioningEncoder<'s> {
        VersioningEncoder::new(
            encoder,
            self.convertor.clone(),
            self.scheme.clone(),
            Some(target),
        )
    }

    /// A decoder that decodes with `decoder`, defaults, then converts to `target` (Go's
    /// `DecoderToVersion`).
    pub fn decoder_to_version(
        &self,
        decoder: Arc<dyn Decoder + 's>,
        target: Arc<dyn GroupVersioner + 's>,
    ) -> VersioningDecoder<'s> {
        self.versioning_decoder(decoder, target)
    }

    /// A codec that encodes JSON in the first of `versions` that accepts the kind, and
    /// decodes any supported format, defaulted, to the internal version (Go's
    /// `LegacyCodec`).
    pub fn legacy_codec(&self, versions: &[GroupVersion]) -> VersioningCodec<'s> {
        let json: Arc<dyn Encoder + 's> = Arc::new(JsonSerializer::new(
            self.scheme.clone(),
            SerializerOptions::default(),
        ));
        let encode_target: Arc<dyn GroupVersioner + 's> =
            Arc::new(GroupVersions(versions.to_vec()));
        VersioningCodec::new(
            self.encoder_for_version(json, encode_target),
            self.universal_decoder(&[]),
        )
    }
}

/// A codec factory whose codecs neither convert nor default (Go's
/// `WithoutConversionCodecFactory`, from [`CodecFactory::without_conversion`]): objects
/// are written in the version they are in, and read in the version of the bytes.
#[derive(Clone)]
pub struct WithoutConversionCodecFactory<'s> {
    factory: CodecFactory<'s>,
}

impl<'s> WithoutConversionCodecFactory<'s> {
    /// The media types served, with their serializers.
    pub fn supported_media_types(&self) -> &[SerializerInfo<'s>] {
        self.factory.supported_media_types()
    }

    /// The serializers of a media type.
    pub fn serializer_for_media_type(
        &self,
        media_type: &str,
    ) -> Result<&SerializerInfo<'s>, MediaTypeError> {
        self.factory.serializer_for_media_type(media_type)
    }

    /// An encoder that writes objects as they are, naming the kind `target` prefers
    /// among theirs (Go's `WithVersionEncoder`).
    pub fn encoder_for_version(
        &self,
        encoder: Arc<dyn Encoder + 's>,
        target: Arc<dyn GroupVersioner + 's>,
    ) -> WithVersionEncoder<'s> {
        WithVersionEncoder::new(encoder, self.factory.scheme.clone(), Some(target))
    }

    /// A decoder that decodes with `decoder` alone and clears the decoded object's kind
    /// (Go's `WithoutVersionDecoder`); the version asked for is ignored, as Go ignores it.
    pub fn decoder_to_version(
        &self,
        decoder: Arc<dyn Decoder + 's>,
        _target: Arc<dyn GroupVersioner + 's>,
    ) -> WithoutVersionDecoder<'s> {
        WithoutVersionDecoder::new(decoder)
    }
}

#[cfg(test)]
#[path = "codec_factory_tests.rs"]
mod tests;
