//! Serializers: objects to bytes and back through a [`Scheme`](crate::runtime::Scheme)
//! (Go's `k8s.io/apimachinery/pkg/runtime/serializer` and the codec interfaces of
//! `runtime`).
//!
//! - [`Encoder`], [`Decoder`], [`Serializer`]: the codec traits, object safe;
//!   [`DecoderExt::decode_as`] decodes a `T` or fails with a typed error.
//! - [`json`]: Go's JSON serializer, which also reads and writes YAML; its module docs
//!   list the byte-identity rules.
//! - [`protobuf`]: Go's protobuf serializer (the envelope, and the bare message); the
//!   wire format is [`crate::proto`].
//! - [`yaml`]: the YAML text layer: Go's YAML→JSON and JSON→YAML conversions
//!   (`sigs.k8s.io/yaml` over go-yaml v2) and the multi-document stream reader.
//! - [`CodecFactory`]: the serializers of a scheme by media type, the universal
//!   deserializer, and codecs that convert ([`VersioningEncoder`], [`VersioningDecoder`])
//!   through an [`ObjectConvertor`], the decoders defaulting first through an
//!   [`ObjectDefaulter`] as Go's do; [`WithoutConversionCodecFactory`] for codecs that do
//!   neither ([`WithVersionEncoder`], [`WithoutVersionDecoder`]).
//! - [`SchemeRef`]: how codecs hold their scheme: borrowed (`&Scheme`), or shared
//!   (`Arc<Scheme>`) for codecs that are `'static` and move between threads and tasks.
//! - [`decode_stream`], [`split_json_stream`], [`decode_json_stream`]: streams of
//!   documents, JSON or YAML.
//! - [`decode_raw_extension`]: an embedded object decoded on demand.
//! - [`DecodeError`], [`EncodeError`], [`StrictDecodingError`]: what they fail with.

mod codec;
mod codec_factory;
mod error;
#[cfg(test)]
mod fuzz_tests;
#[cfg(all(test, feature = "yaml"))]
mod hostile_input_tests;
pub mod json;
pub mod protobuf;
mod raw_extension;
mod recognizer;
mod scheme_ref;
mod streaming;
mod versioning;
#[cfg(feature = "yaml")]
pub mod yaml;

pub use codec::{DecodeResult, Decoder, DecoderExt, Encoder, Serializer, gvk_with_defaults};
pub use codec_factory::{
    CONTENT_TYPE_JSON, CONTENT_TYPE_PROTOBUF, CONTENT_TYPE_YAML, CodecFactory, Framer,
    MediaTypeError, SerializerInfo, SharedSerializer, StreamSerializerInfo,
    WithoutConversionCodecFactory,
};
pub use error::{
    DecodeError, DecodeErrorKind, EncodeError, Format, Position, StrictDecodingError,
    StrictFieldError,
};
pub use raw_extension::decode_raw_extension;
pub use recognizer::{PROTOBUF_MAGIC, RecognizingDecoder, recognize};
pub use scheme_ref::SchemeRef;
pub use streaming::{JsonStream, decode_json_stream, decode_stream, split_json_stream};
pub use versioning::{
    ObjectConvertor, ObjectDefaulter, VersioningCodec, VersioningDecoder, VersioningEncoder,
    WithVersionEncoder, WithoutVersionDecoder,
};
