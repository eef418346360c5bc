//! `pods/ephemeralcontainers` (Go's `EphemeralContainersREST` in
//! `pkg/registry/core/pod/storage/storage.go` and `podEphemeralContainersStrategy` in
//! `strategy.go`): a Pod read and written through its ephemeral containers strategy. A
//! write keeps everything of the stored Pod but `spec.ephemeralContainers`; validation
//! is Go's `ValidatePodEphemeralContainersUpdate` (k8s-types'
//! `validate_pod_ephemeral_containers_update`, the Pod's `ephemeralcontainers`
//! validator), and a changed spec counts a new generation.

use serde_json::Value;

use crate::registry::status_metadata::keep_json_for_status;

/// Go's `dropNonEphemeralContainerUpdates` on the Pods' JSON (the status, already the
/// stored one, is left alone): the stored spec with the written ephemeral containers,
/// and the stored labels, annotations, finalizers and owner references
/// (`ResetObjectMetaForStatus`).
pub(super) fn drop_non_ephemeral_container_updates(old: &Value, new: &mut Value) {
    let written = new.pointer("/spec/ephemeralContainers").cloned();
    let mut spec = old.get("spec").cloned().unwrap_or(Value::Null);
    if let Some(spec) = spec.as_object_mut() {
        // An empty list is written as none, as kapi writes every empty list.
        match written.filter(|w| w.as_array().is_none_or(|l| !l.is_empty())) {
            Some(w) => spec.insert("ephemeralContainers".into(), w),
            None => spec.remove("ephemeralContainers"),
        };
    }
    if let Some(obj) = new.as_object_mut() {
        obj.insert("spec".into(), spec);
    }
    keep_json_for_status(new, old);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_ephemeral_containers_are_taken() {
        let old = json!({"metadata": {"labels": {"a": "1"}},
            "spec": {"nodeName": "n", "containers": [{"name": "c", "image": "i"}]}});
        let mut new = json!({"metadata": {"labels": {"a": "2"}, "annotations": {"b": "c"}},
            "spec": {"nodeName": "m", "containers": [{"name": "c", "image": "j"}],
                "ephemeralContainers": [{"name": "debug", "image": "busybox"}]}});
        drop_non_ephemeral_container_updates(&old, &mut new);
        assert_eq!(
            new,
            json!({"metadata": {"labels": {"a": "1"}},
                "spec": {"nodeName": "n", "containers": [{"name": "c", "image": "i"}],
                    "ephemeralContainers": [{"name": "debug", "image": "busybox"}]}})
        );
    }

    #[test]
    fn a_write_without_them_removes_them_for_validation_to_refuse() {
        let old = json!({"spec": {"containers": [{"name": "c"}],
            "ephemeralContainers": [{"name": "debug", "image": "busybox"}]}});
        let mut new = json!({"spec": {"containers": [{"name": "c"}], "ephemeralContainers": []}});
        drop_non_ephemeral_container_updates(&old, &mut new);
        assert_eq!(new, json!({"spec": {"containers": [{"name": "c"}]}}));
    }
}
