//! The codec traits: [`Encoder`], [`Decoder`], and [`Serializer`] for both (Go's
//! `runtime.Encoder`, `runtime.Decoder`, `runtime.Serializer`).

use std::io;

use super::{DecodeError, EncodeError};
use crate::runtime::Object;
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
}

impl<T: Encoder + ?Sized> Encoder for std::sync::Arc<T> {
    fn encode(&self, obj: &dyn Object, w: &mut dyn io::Write) -> Result<(), EncodeError> {
        (**self).encode(obj, w)
    }

    fn identifier(&self) -> String {
        (**self).identifier()
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
