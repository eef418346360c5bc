//! How a store holds an object: shared as decoded (`Arc<T>`), or encoded as bytes and
//! decoded on each read ([`StoreCodec`]).
//!
//! A decoded object costs several times its encoding: every string, map and vector is
//! an allocation of its own with its header and the allocator's rounding (a ConfigMap
//! with one label and one data entry is ~1.8 KB decoded, ~0.2 KB as protobuf). Go's
//! controller-runtime deep-copies an object on every `Get` and `List` anyway, so a read
//! that decodes pays a cost of the same order as Go's read, while the cache holds the
//! compact form. Typed kinds with a protobuf encoding are kept as protobuf, the
//! unstructured form (custom resources) as compact JSON; kinds with neither (typed
//! structs without `#[api(protobuf)]`) stay shared.
//!
//! What a decoded object differs in from the one stored: nothing but an empty `TypeMeta`
//! of a typed object, which comes back set to the object's kind (as Go's cache reader
//! sets the kind on every object it returns).

use std::sync::Arc;

use apimachinery::proto::{WireDecoder, WireEncoder, merge_message};
use apimachinery::runtime::{Object, Unstructured};
use apimachinery::schema::GroupVersionKind;

/// The encoding a [`StoreCodec`] keeps objects in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoredFormat {
    /// The kind's protobuf message (the fields Go's generated code writes), after a
    /// one-byte header naming the object's kind.
    Protobuf,
    /// Compact JSON (serde_json's writing of the unstructured map, which reads back to
    /// the same map, numbers included).
    Json,
}

type EncodeFn<T> = fn(&T, &GroupVersionKind, &mut Vec<u8>) -> bool;
type DecodeFn<T> = fn(&[u8], &GroupVersionKind) -> Result<T, String>;

/// Encodes objects for a store and decodes them on read (see the module docs).
///
/// ```
/// use apimachinery::runtime::Unstructured;
/// use controller_runtime::cache::{StoreCodec, StoredFormat};
/// use k8s_types::core::v1::ConfigMap;
///
/// assert_eq!(StoreCodec::<ConfigMap>::protobuf().unwrap().format(), StoredFormat::Protobuf);
/// assert_eq!(StoreCodec::<Unstructured>::json().format(), StoredFormat::Json);
/// ```
pub struct StoreCodec<T> {
    format: StoredFormat,
    /// The kind a default `T` declares: objects of it are stored without naming it.
    own: GroupVersionKind,
    encode: EncodeFn<T>,
    decode: DecodeFn<T>,
}

impl<T> Clone for StoreCodec<T> {
    fn clone(&self) -> Self {
        StoreCodec {
            format: self.format,
            own: self.own.clone(),
            encode: self.encode,
            decode: self.decode,
        }
    }
}

impl<T> std::fmt::Debug for StoreCodec<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreCodec")
            .field("format", &self.format)
            .field("kind", &self.own)
            .finish()
    }
}

impl<T: Object + Default> StoreCodec<T> {
    /// Protobuf, for a type with a protobuf encoding; `None` for a type without one.
    pub fn protobuf() -> Option<Self> {
        let probe = T::default();
        probe.as_proto_message()?;
        Some(StoreCodec {
            format: StoredFormat::Protobuf,
            own: probe.group_version_kind(),
            encode: encode_protobuf::<T>,
            decode: decode_protobuf::<T>,
        })
    }
}

impl StoreCodec<Unstructured> {
    /// Compact JSON, for unstructured objects.
    pub fn json() -> Self {
        StoreCodec {
            format: StoredFormat::Json,
            own: GroupVersionKind::default(),
            encode: encode_json,
            decode: decode_json,
        }
    }
}

impl<T> StoreCodec<T> {
    /// The encoding objects are kept in.
    pub fn format(&self) -> StoredFormat {
        self.format
    }

    /// The object's encoding, or `None` when it cannot be encoded (then the store
    /// keeps it shared as decoded).
    pub(crate) fn encode(&self, obj: &T) -> Option<Box<[u8]>> {
        let mut out = Vec::new();
        (self.encode)(obj, &self.own, &mut out).then(|| out.into_boxed_slice())
    }

    /// The object `bytes` encode.
    pub(crate) fn decode(&self, bytes: &[u8]) -> Result<T, String> {
        (self.decode)(bytes, &self.own)
    }
}

/// One object as a store holds it.
pub(crate) enum Stored<T> {
    /// Decoded, shared with whoever holds it.
    Shared(Arc<T>),
    /// Encoded by the store's codec.
    Encoded(Box<[u8]>),
}

impl<T> Stored<T> {
    /// The object held as `obj`: encoded when `codec` can, shared otherwise.
    pub(crate) fn new(obj: &Arc<T>, codec: Option<&StoreCodec<T>>) -> Self {
        match codec.and_then(|c| c.encode(obj)) {
            Some(bytes) => Stored::Encoded(bytes),
            None => Stored::Shared(Arc::clone(obj)),
        }
    }

    /// The object, decoded if need be. An encoded entry without a codec cannot be made
    /// (the store makes both from the same codec); it is reported like a failed decode.
    pub(crate) fn load(&self, codec: Option<&StoreCodec<T>>) -> Result<Arc<T>, String> {
        match (self, codec) {
            (Stored::Shared(obj), _) => Ok(Arc::clone(obj)),
            (Stored::Encoded(bytes), Some(codec)) => codec.decode(bytes).map(Arc::new),
            (Stored::Encoded(_), None) => Err("an encoded entry in a store without a codec".into()),
        }
    }
}

// Header byte of the protobuf form: the object declares the codec's own kind, or names
// another kind after the header (group, version, kind, each as a length and the bytes).
const OWN_KIND: u8 = 0;
const NAMED_KIND: u8 = 1;

fn encode_protobuf<T: Object>(obj: &T, own: &GroupVersionKind, out: &mut Vec<u8>) -> bool {
    let Some(message) = obj.as_proto_message() else {
        return false;
    };
    let gvk = obj.group_version_kind();
    if gvk == *own {
        out.push(OWN_KIND);
    } else {
        out.push(NAMED_KIND);
        for part in [&gvk.group, &gvk.version, &gvk.kind] {
            let Ok(len) = u16::try_from(part.len()) else {
                return false;
            };
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(part.as_bytes());
        }
    }
    let mut e = WireEncoder::with_buffer(std::mem::take(out));
    message.encode_fields(&mut e);
    *out = e.into_bytes();
    true
}

/// Reads one length-prefixed string of the kind header.
fn header_part<'a>(rest: &mut &'a [u8]) -> Result<&'a str, String> {
    let (len, tail) = rest
        .split_first_chunk::<2>()
        .ok_or("truncated kind header")?;
    let len = usize::from(u16::from_le_bytes(*len));
    let (part, tail) = tail.split_at_checked(len).ok_or("truncated kind header")?;
    *rest = tail;
    std::str::from_utf8(part).map_err(|e| format!("kind header: {e}"))
}

fn decode_protobuf<T: Object + Default>(bytes: &[u8], own: &GroupVersionKind) -> Result<T, String> {
    let (&header, mut body) = bytes.split_first().ok_or("empty entry")?;
    let named;
    let gvk = match header {
        OWN_KIND => own,
        NAMED_KIND => {
            let group = header_part(&mut body)?;
            let version = header_part(&mut body)?;
            let kind = header_part(&mut body)?;
            named = GroupVersionKind::new(group, version, kind);
            &named
        }
        other => return Err(format!("unknown entry header {other}")),
    };
    let mut obj = T::default();
    let message = obj
        .as_proto_message_mut()
        .ok_or("the type has no protobuf encoding")?;
    merge_message(message, &mut WireDecoder::new(body)).map_err(|e| e.to_string())?;
    message.finish_fields();
    obj.set_group_version_kind(gvk);
    Ok(obj)
}

// serde_json's own writer, not Go's JSON: it keeps `3.0` a float and `3` an integer, and
// with the workspace's `float_roundtrip` its reader gives back the very same f64, so the
// map reads back equal.
fn encode_json(obj: &Unstructured, _: &GroupVersionKind, out: &mut Vec<u8>) -> bool {
    serde_json::to_writer(out, &obj.object).is_ok()
}

fn decode_json(bytes: &[u8], _: &GroupVersionKind) -> Result<Unstructured, String> {
    serde_json::from_slice(bytes)
        .map(Unstructured::new)
        .map_err(|e| e.to_string())
}
