//! What Go's `pkg/api/persistentvolumeclaim/util.go` does to a claim the server writes:
//! `DropDisabledFields` (a `dataSourceRef` into another namespace goes while
//! CrossNamespaceVolumeDataSource, alpha, is off, unless the claim replaced had a
//! `dataSourceRef`; VolumeAttributesClass is GA and drops nothing),
//! `EnforceDataSourceBackwardsCompatibility` (without a `dataSourceRef`, a `dataSource`
//! other than a claim or a volume snapshot is dropped, unless the claim replaced had a
//! data source), `NormalizeDataSources` (each of `dataSource` and `dataSourceRef` filled
//! from the other; unconditional since 1.37 removed the AnyVolumeDataSource gate, on in
//! 1.36 too) and `DropDisabledFieldsFromStatus` (1.37's `status.healthStatus` goes while
//! CSIVolumeHealth, alpha, is off, unless the claim replaced had one).

use serde_json::{Map, Value};

/// Whether `value` is set (JSON's `null` is Go's nil).
fn set(value: Option<&Value>) -> bool {
    value.is_some_and(|v| !v.is_null())
}

/// Go's `DropDisabledFields` on a claim spec, `old` the spec replaced (`None` on create).
pub fn drop_disabled_fields(spec: &mut Value, old: Option<&Value>) {
    let cross_namespace = spec
        .pointer("/dataSourceRef/namespace")
        .and_then(Value::as_str)
        .is_some_and(|ns| !ns.is_empty());
    let ref_in_use = old.is_some_and(|old| set(old.get("dataSourceRef")));
    if cross_namespace && !ref_in_use {
        if let Some(spec) = spec.as_object_mut() {
            spec.remove("dataSourceRef");
        }
    }
}

/// Go's `EnforceDataSourceBackwardsCompatibility`.
pub fn enforce_data_source_backwards_compatibility(spec: &mut Value, old: Option<&Value>) {
    let in_use = old.is_some_and(|old| set(old.get("dataSource")) || set(old.get("dataSourceRef")));
    if in_use || set(spec.get("dataSourceRef")) {
        return;
    }
    let source = spec.get("dataSource").filter(|s| !s.is_null());
    let kept = source.is_some_and(|s| {
        let text = |key: &str| s.get(key).and_then(Value::as_str).unwrap_or("");
        matches!(
            (text("kind"), text("apiGroup")),
            ("PersistentVolumeClaim", "") | ("VolumeSnapshot", "snapshot.storage.k8s.io")
        )
    });
    if !kept {
        if let Some(spec) = spec.as_object_mut() {
            spec.remove("dataSource");
        }
    }
}

/// Go's `NormalizeDataSources`: a `dataSource` alone is copied to `dataSourceRef`, a
/// `dataSourceRef` alone (in the claim's namespace) to `dataSource` (kind, name, API
/// group).
pub fn normalize_data_sources(spec: &mut Value) {
    let Some(map) = spec.as_object_mut() else {
        return;
    };
    let copy = |from: &Value| {
        let mut to = Map::new();
        to.insert(
            "kind".into(),
            from.get("kind").cloned().unwrap_or(Value::from("")),
        );
        to.insert(
            "name".into(),
            from.get("name").cloned().unwrap_or(Value::from("")),
        );
        if let Some(group) = from.get("apiGroup").filter(|g| !g.is_null()) {
            to.insert("apiGroup".into(), group.clone());
        }
        Value::Object(to)
    };
    match (
        map.get("dataSource").filter(|v| !v.is_null()),
        map.get("dataSourceRef").filter(|v| !v.is_null()),
    ) {
        (Some(source), None) => {
            let reference = copy(source);
            map.insert("dataSourceRef".into(), reference);
        }
        (None, Some(reference)) => {
            let namespaced = reference
                .get("namespace")
                .and_then(Value::as_str)
                .is_some_and(|ns| !ns.is_empty());
            if !namespaced {
                let source = copy(reference);
                map.insert("dataSource".into(), source);
            }
        }
        _ => {}
    }
}

/// Go's `DropDisabledFieldsFromStatus` on a claim's status, `old` the status replaced.
pub fn drop_disabled_status_fields(status: &mut Value, old: Option<&Value>) {
    if cfg!(feature = "v1_37") && !old.is_some_and(|old| set(old.get("healthStatus"))) {
        if let Some(status) = status.as_object_mut() {
            status.remove("healthStatus");
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn data_sources_are_copied_both_ways() {
        let mut spec = json!({"dataSource": {"kind": "PersistentVolumeClaim", "name": "a"}});
        normalize_data_sources(&mut spec);
        assert_eq!(
            spec["dataSourceRef"],
            json!({"kind": "PersistentVolumeClaim", "name": "a"})
        );
        let mut spec = json!({"dataSourceRef":
            {"apiGroup": "example.com", "kind": "Populator", "name": "p"}});
        normalize_data_sources(&mut spec);
        assert_eq!(
            spec["dataSource"],
            json!({"apiGroup": "example.com", "kind": "Populator", "name": "p"})
        );
        let mut spec = json!({"dataSourceRef": {"kind": "K", "name": "p", "namespace": "n"}});
        normalize_data_sources(&mut spec);
        assert!(spec.get("dataSource").is_none());
    }

    #[test]
    fn only_claims_and_snapshots_stay_as_data_sources_without_a_reference() {
        let snapshot = json!({"dataSource":
            {"apiGroup": "snapshot.storage.k8s.io", "kind": "VolumeSnapshot", "name": "s"}});
        let mut spec = snapshot.clone();
        enforce_data_source_backwards_compatibility(&mut spec, None);
        assert_eq!(spec, snapshot);
        let mut spec = json!({"dataSource": {"apiGroup": "example.com", "kind": "X", "name": "x"}});
        enforce_data_source_backwards_compatibility(&mut spec, None);
        assert_eq!(spec, json!({}));
        // Kept when the claim replaced had one.
        let old = json!({"dataSource": {"kind": "X", "name": "x"}});
        let mut spec = old.clone();
        enforce_data_source_backwards_compatibility(&mut spec, Some(&old));
        assert!(spec.get("dataSource").is_some());
    }

    #[test]
    fn a_reference_into_another_namespace_is_dropped() {
        let mut spec = json!({"dataSourceRef": {"kind": "K", "name": "p", "namespace": "n"}});
        drop_disabled_fields(&mut spec, None);
        assert_eq!(spec, json!({}));
        let old = json!({"dataSourceRef": {"kind": "K", "name": "p", "namespace": "n"}});
        let mut spec = old.clone();
        drop_disabled_fields(&mut spec, Some(&old));
        assert_eq!(spec, old);
    }

    #[cfg(feature = "v1_37")]
    #[test]
    fn the_health_status_is_dropped_unless_the_claim_had_one() {
        let health = json!({"phase": "Bound", "healthStatus": {"condition": "Healthy"}});
        let mut status = health.clone();
        drop_disabled_status_fields(&mut status, Some(&json!({"phase": "Bound"})));
        assert_eq!(status, json!({"phase": "Bound"}));
        let mut status = health.clone();
        drop_disabled_status_fields(&mut status, Some(&health));
        assert_eq!(status, health);
    }
}
