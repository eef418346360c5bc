//! What the Pod admission plugins share: the spec of the new Pod of a create, as JSON,
//! changed and put back.

use apimachinery::api::errors::StatusError;
use serde_json::{Map, Value};

use super::super::{Attributes, Operation};
use crate::registry::to_json;

/// Runs `change` on the spec (JSON) of the Pod a request creates, if it creates one (not
/// a subresource's object), and puts the Pod back when `change` says it changed it.
pub(super) fn change_created_pod_spec(
    attributes: &mut Attributes,
    change: impl FnOnce(&mut Map<String, Value>) -> bool,
) -> Result<(), StatusError> {
    let Some(mut pod) = created_pod(attributes)? else {
        return Ok(());
    };
    let Some(spec) = pod.get_mut("spec").and_then(Value::as_object_mut) else {
        return Ok(());
    };
    if change(spec) {
        set_pod(attributes, pod)?;
    }
    Ok(())
}

/// The JSON of the Pod a request creates (not a subresource's object), if it is one.
pub(super) fn created_pod(attributes: &Attributes) -> Result<Option<Value>, StatusError> {
    let is_pod = attributes.resource.group.is_empty() && attributes.resource.resource == "pods";
    if attributes.operation != Operation::Create || !is_pod || !attributes.subresource.is_empty() {
        return Ok(None);
    }
    attributes.object.as_deref().map(to_json).transpose()
}

/// Replaces the request's object with `pod`, at the object's own version.
pub(super) fn set_pod(attributes: &mut Attributes, pod: Value) -> Result<(), StatusError> {
    attributes.set_object_json(pod)
}
