//! `pods/resize` (Go's `ResizeREST` in `pkg/registry/core/pod/storage/storage.go` and
//! `podResizeStrategy` in `strategy.go`): a Pod read and written through its resize
//! strategy. A write keeps everything of the stored Pod but its containers' and init
//! containers' `resources` and `resizePolicy` and the pod-level `spec.resources`
//! (InPlacePodLevelResourcesVerticalScaling, beta and on); validation is Go's
//! `ValidatePodResize` (k8s-types' `validate_pod_resize`, the Pod's `resize`
//! validator), and a changed spec counts a new generation.

use serde_json::Value;

use crate::registry::status_metadata::keep_json_for_status;

/// Go's `dropNonResizeUpdates` and the rest of `podResizeStrategy.PrepareForUpdate` on
/// the Pods' JSON (the status, already the stored one, is left alone): when the
/// containers are as many, with the same names, in the same order, the stored spec
/// with the written containers' resources and resize policies and pod-level resources,
/// and the stored labels, annotations, finalizers and owner references; otherwise the
/// write as it is, for validation to refuse.
pub(super) fn drop_non_resize_updates(old: &Value, new: &mut Value) {
    let list = |v: &Value, k: &str| {
        v.pointer(&format!("/spec/{k}"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let (new_c, old_c) = (list(new, "containers"), list(old, "containers"));
    let (new_i, old_i) = (list(new, "initContainers"), list(old, "initContainers"));
    if new_c.len() != old_c.len() || new_i.len() != old_i.len() {
        return;
    }
    let resources = new.pointer("/spec/resources").cloned();
    let containers = merge_containers(new_c, old_c);
    let init_containers = merge_containers(new_i, old_i);
    let mut spec = old.get("spec").cloned().unwrap_or(Value::Null);
    if let Some(spec) = spec.as_object_mut() {
        set_or_remove(spec, "resources", resources);
        // An empty list is written as none, as kapi writes every empty list.
        let some = |l: Vec<Value>| (!l.is_empty()).then_some(Value::Array(l));
        set_or_remove(spec, "containers", some(containers));
        set_or_remove(spec, "initContainers", some(init_containers));
    }
    if let Some(obj) = new.as_object_mut() {
        obj.insert("spec".into(), spec);
    }
    keep_json_for_status(new, old);
    // Go 1.37 (PodLevelResourcesFixDefaulting, beta and on): pod-level resources a write
    // leaves out are kept, and written ones completed from the containers'.
    #[cfg(feature = "v1_37")]
    {
        let unset = new.pointer("/spec/resources").is_none_or(Value::is_null);
        if let (true, Some(stored)) = (unset, old.pointer("/spec/resources")) {
            if let Some(spec) = new.get_mut("spec").and_then(Value::as_object_mut) {
                spec.insert("resources".into(), stored.clone());
            }
        }
        super::level_resources::default_pod_level_resources(new);
    }
}

/// Go's `dropNonResizeUpdatesForContainers`: the stored containers with the written
/// `resources` and `resizePolicy`, or the written ones as they are when one is renamed
/// or moved.
fn merge_containers(new: Vec<Value>, old: Vec<Value>) -> Vec<Value> {
    if new.is_empty() {
        return new;
    }
    let name = |c: &Value| c.get("name").cloned();
    if new.iter().zip(&old).any(|(n, o)| name(n) != name(o)) {
        return new;
    }
    new.iter()
        .zip(old)
        .map(|(n, mut o)| {
            if let Some(map) = o.as_object_mut() {
                for k in ["resources", "resizePolicy"] {
                    set_or_remove(map, k, n.get(k).cloned());
                }
            }
            o
        })
        .collect()
}

fn set_or_remove(map: &mut serde_json::Map<String, Value>, key: &str, value: Option<Value>) {
    match value {
        Some(v) => map.insert(key.into(), v),
        None => map.remove(key),
    };
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_resources_and_resize_policies_are_taken() {
        let old = json!({"metadata": {"labels": {"a": "1"}},
            "spec": {"nodeName": "n", "containers": [{"name": "c", "image": "i",
                "resources": {"requests": {"cpu": "1"}}}]}});
        let mut new = json!({"metadata": {"labels": {"a": "2"}},
            "spec": {"nodeName": "m", "containers": [{"name": "c", "image": "j",
                "resources": {"requests": {"cpu": "2"}},
                "resizePolicy": [{"resourceName": "cpu", "restartPolicy": "NotRequired"}]}]}});
        drop_non_resize_updates(&old, &mut new);
        assert_eq!(
            new,
            json!({"metadata": {"labels": {"a": "1"}},
                "spec": {"nodeName": "n", "containers": [{"name": "c", "image": "i",
                    "resources": {"requests": {"cpu": "2"}},
                    "resizePolicy": [{"resourceName": "cpu", "restartPolicy": "NotRequired"}]}]}})
        );
    }

    #[test]
    fn a_renamed_container_is_left_for_validation() {
        let old = json!({"spec": {"containers": [{"name": "c", "image": "i"}]}});
        let mut new = json!({"spec": {"containers": [{"name": "d", "image": "j"}]}});
        drop_non_resize_updates(&old, &mut new);
        assert_eq!(new["spec"]["containers"][0]["name"], "d");
        let mut more = json!({"spec": {"containers": [{"name": "c"}, {"name": "d"}]}});
        drop_non_resize_updates(&old, &mut more);
        assert_eq!(more["spec"]["containers"].as_array().map(Vec::len), Some(2));
    }
}
