//! The protobuf wire format of Kubernetes objects (`application/vnd.kubernetes.protobuf`),
//! as Go's gogo-generated code writes it, byte for byte.
//!
//! * [`WireEncoder`] / [`WireDecoder`]: the wire format (varints, keys, length-delimited values),
//!   with byte offsets in every error and a nesting limit against hostile input.
//! * [`Message`]: a type encoded as a protobuf message; [`Field`]: a type that can be a
//!   field's value. The built-in types (`k8s-types`) get their implementations from the
//!   generator: one table line per field (see [`proto_message!`](crate::proto_message)),
//!   and the messages Go embeds in its structs (a `Volume`'s `VolumeSource`, flattened in
//!   Rust and JSON) read through [`merge_embedded`]; `meta/v1` types are implemented in
//!   `apis::meta::v1`.
//! * [`ProtobufError`]: what went wrong, at which byte offset, in which field path.
//! * [`encode_envelope`] / [`decode_envelope`]: the envelope (`k8s\0` then a
//!   `runtime.Unknown` carrying apiVersion, kind and the object's message). Whole objects
//!   through a [`Scheme`](crate::runtime::Scheme) are the codec's:
//!   [`serializer::protobuf`](crate::serializer::protobuf) (types opt in with
//!   `#[api(protobuf)]`). This module is below the object model: it imports no runtime
//!   type, as serde does not.
//! * [`write_frame`] / [`LengthDelimitedFrameReader`]: the length-delimited framing of
//!   protobuf watch streams.
//!
//! # The byte-identity rules (what Go writes)
//!
//! * Fields are written in ascending field number (not Go struct order).
//! * A non-pointer Go field is always written, even when zero (an empty string, `0`,
//!   `false`, an empty message); a pointer field only when set. In Rust: plain values are
//!   always written, `Option`s when `Some`.
//! * Repeated scalars are written unpacked (proto2), one key per element.
//! * Maps are repeated entry messages `{key = 1, value = 2}`, sorted by key, with both
//!   key and value always written.
//! * `Time` is an empty message when zero, else `{seconds, nanos = 0}` (Go drops the
//!   nanoseconds, as its JSON does); `MicroTime` keeps microseconds.
//! * Unknown fields are skipped when reading; a known field with the wrong wire type is an
//!   error.
//! * Go named slices (`ExtraValue`, `Verbs`) are messages `{items = 1}` of their own.
//! * The envelope names the object's kind, and no kind for kinds Go defines without
//!   `TypeMeta` (`WatchEvent`).
//!
//! Go's generated code sizes every message first, then writes backwards to learn lengths
//! before prefixes; the [`WireEncoder`] writes forwards, reserving one byte per length and
//! setting aside the lengths that need more, put in their places when the bytes are
//! taken out, which gives the same bytes.

mod encoder;
mod envelope;
mod error;
mod field;
mod framing;
mod message_macro;
mod scratch;
mod value_types;
mod wire;

pub use encoder::WireEncoder;
pub(crate) use envelope::encode_envelope_of;
pub use envelope::{Envelope, MAGIC, decode_envelope, encode_envelope, encode_envelope_raw};
pub use error::{ProtobufError, ProtobufErrorKind, in_field};
pub use field::{
    Field, Message, decode_message, encode_message, encode_named_slice_map, merge_embedded,
    merge_message, merge_named_slice_map,
};
pub use framing::{LengthDelimitedFrameReader, MAX_FRAME_LEN, write_frame};
pub use message_macro::in_numbered_field;
pub(crate) use value_types::read_bytes;
pub use wire::{MAX_DEPTH, WireDecoder, WireType};
