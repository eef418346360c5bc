//! The form objects are stored in (the protobuf `k8s\0` envelope, or JSON for custom
//! resources), and what a write answers: Go decodes its answer from the bytes it stored
//! (etcd3's `store.go`), which is the object written unless its encoding lost something.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::Object;
use apimachinery::serializer::Decoder;
use apimachinery::serializer::protobuf::{ProtobufSerializer, encode_object_noting_loss};
use apimachinery::util::json::JsonLayout;
use bytes::Bytes;

use super::Store;

impl Store {
    /// The value `obj` is stored as (its `resourceVersion` cleared), and whether the
    /// object read back from it is another one (see [`answer`](Self::answer)).
    pub(super) fn encode(&self, obj: &mut dyn Object) -> Result<(Bytes, bool), StatusError> {
        if let Some(meta) = obj.meta_mut() {
            meta.set_resource_version("");
        }
        if self.strategy.is_unstructured() {
            let mut out = Vec::new();
            obj.encode_json(&mut out, JsonLayout::Compact)
                .map_err(|e| {
                    errors::new_internal_error(format!(
                        "encoding {} for storage: {e}",
                        self.qualified()
                    ))
                })?;
            return Ok((Bytes::from(out), false));
        }
        let (out, lossy) = encode_object_noting_loss(obj).map_err(|e| {
            errors::new_internal_error(format!("encoding {} for storage: {e}", self.qualified()))
        })?;
        Ok((Bytes::from(out), lossy))
    }

    /// What a write of `obj` answers: Go answers with the object it decodes from the
    /// bytes it stored, which is `obj` itself unless its encoding lost something (a
    /// `Some` of an empty list or map, a Go field without `omitempty` sent as `[]`, comes
    /// back `null`); then `lossy` is the value stored (or, in a dry run, to be stored),
    /// decoded for the answer. The answer keeps `obj`'s `resourceVersion`.
    pub(super) fn answer(
        &self,
        obj: Box<dyn Object>,
        lossy: Option<&Bytes>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let Some(value) = lossy else {
            return Ok(obj);
        };
        let (mut back, _) = ProtobufSerializer::new(&self.scheme)
            .decode(value, None, None)
            .map_err(|e| {
                errors::new_internal_error(format!("decoding {} as stored: {e}", self.qualified()))
            })?;
        self.strategy.decorate(&mut *back);
        let resource_version = obj.meta().map(|m| m.resource_version().to_owned());
        if let (Some(meta), Some(rv)) = (back.meta_mut(), resource_version) {
            meta.set_resource_version(&rv);
        }
        Ok(back)
    }
}
