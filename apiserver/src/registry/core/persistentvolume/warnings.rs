//! Go's warnings for PersistentVolumes (`pkg/api/persistentvolume/util.go`
//! `GetWarningsForPersistentVolume`, the same on create and update), on the stored
//! (v1) object's JSON.

use serde_json::Value;

use crate::registry::node::labels::warnings_for_node_selector_term;

/// Go's `deprecatedAnnotations` of volumes.
const DEPRECATED_ANNOTATIONS: [(&str, &str); 2] = [
    (
        "volume.beta.kubernetes.io/storage-class",
        "deprecated since v1.8; use \"storageClassName\" attribute instead",
    ),
    (
        "volume.beta.kubernetes.io/mount-options",
        "deprecated since v1.31; use \"mountOptions\" attribute instead",
    ),
];

/// The volume plugins Go warns of, in its order, with its words.
const DEPRECATED_PLUGINS: [(&str, &str); 6] = [
    ("cephfs", "deprecated in v1.28, non-functional in v1.31+"),
    (
        "photonPersistentDisk",
        "deprecated in v1.11, non-functional in v1.16+",
    ),
    ("scaleIO", "deprecated in v1.16, non-functional in v1.22+"),
    ("storageOS", "deprecated in v1.22, non-functional in v1.25+"),
    ("glusterfs", "deprecated in v1.25, non-functional in v1.26+"),
    ("rbd", "deprecated in v1.28, non-functional in v1.31+"),
];

/// Go's `GetWarningsForPersistentVolume`: deprecated annotations, the Recycle reclaim
/// policy, node affinity naming deprecated node labels, and deprecated volume plugins.
pub fn persistent_volume_warnings(pv: &Value) -> Vec<String> {
    let mut warnings = Vec::new();
    let annotations = pv.pointer("/metadata/annotations");
    for (key, message) in DEPRECATED_ANNOTATIONS {
        if annotations.and_then(|a| a.get(key)).is_some() {
            warnings.push(format!("metadata.annotations[{key}]: {message}"));
        }
    }
    if pv.pointer("/spec/persistentVolumeReclaimPolicy") == Some(&Value::from("Recycle")) {
        warnings.push("spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.".to_owned());
    }
    let terms = pv
        .pointer("/spec/nodeAffinity/required/nodeSelectorTerms")
        .and_then(Value::as_array);
    for (i, term) in terms.into_iter().flatten().enumerate() {
        let path = format!("spec.nodeAffinity.required.nodeSelectorTerms[{i}]");
        warnings.extend(warnings_for_node_selector_term(term, false, &path));
    }
    for (plugin, message) in DEPRECATED_PLUGINS {
        if pv
            .pointer(&format!("/spec/{plugin}"))
            .is_some_and(|p| !p.is_null())
        {
            warnings.push(format!("spec.{plugin}: {message}"));
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestWarnings` cases of `pkg/api/persistentvolume`.
    #[test]
    fn deprecated_annotations_policy_and_plugins_are_warned_about() {
        let pv = json!({"metadata": {"annotations": {"volume.beta.kubernetes.io/storage-class": "fast"}},
            "spec": {"persistentVolumeReclaimPolicy": "Recycle", "rbd": {"image": "i", "monitors": ["m"]}}});
        assert_eq!(
            persistent_volume_warnings(&pv),
            [
                "metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use \"storageClassName\" attribute instead",
                "spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.",
                "spec.rbd: deprecated in v1.28, non-functional in v1.31+",
            ]
        );
        assert!(
            persistent_volume_warnings(&json!({"spec": {"hostPath": {"path": "/x"}}})).is_empty()
        );
        let pinned = json!({"spec": {"nodeAffinity": {"required": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "beta.kubernetes.io/arch", "operator": "In", "values": ["!"]}]}]}}}});
        assert_eq!(
            persistent_volume_warnings(&pinned),
            [
                "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].key: beta.kubernetes.io/arch is deprecated since v1.14; use \"kubernetes.io/arch\" instead"
            ]
        );
    }
}
