//! PersistentVolumes (Go's `pkg/registry/core/persistentvolume`): created `Pending`
//! with the time of that phase, which a write of `/status` changing the phase moves; no
//! generation; a delete answers with the deleted volume; and the table `kubectl get
//! persistentvolumes` prints (Go's `printPersistentVolume`).

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::apis::meta::v1::Time;
use apimachinery::runtime::{Object, Scheme};
use serde_json::{Value, json};

use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, access_modes, quantity, string_column, text,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{Strategy, Subresource, prepare_for_update};
use crate::registry::{ResourceInfo, from_value, to_json};

pub mod warnings;

/// Go's persistent volume strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct PersistentVolumeStrategy;

/// Now, as a phase's transition time (whole seconds, as Go's `metav1.Time` is written).
fn now() -> Value {
    Value::from(Time::now().truncate_to_seconds().to_rfc3339())
}

impl Strategy for PersistentVolumeStrategy {
    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        to_json(obj)
            .map(|pv| warnings::persistent_volume_warnings(&pv))
            .unwrap_or_default()
    }

    fn warnings_on_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        self.warnings_on_create(obj)
    }

    /// Go's `PrepareForCreate`: the status the server's own, `Pending` since now.
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let mut pv = to_json(&*obj)?;
        if let Some(map) = pv.as_object_mut() {
            map.insert(
                "status".into(),
                json!({"phase": "Pending", "lastPhaseTransitionTime": now()}),
            );
        }
        from_value(scheme, &info.storage_gvk, pv)
    }

    /// Go's `PrepareForUpdate`s: the object's keeps the status; the status's keeps the
    /// spec, and the phase's transition time unless the phase changes (then now, when
    /// the writer did not set another time).
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let new = prepare_for_update(scheme, info, old, new, subresource, |_, _, _| false)?;
        if subresource != Subresource::Status {
            return Ok(new);
        }
        let old = to_json(old)?;
        let mut pv = to_json(&*new)?;
        let old_time = old.pointer("/status/lastPhaseTransitionTime").cloned();
        let new_time = pv.pointer("/status/lastPhaseTransitionTime").cloned();
        let time = if text(&old, "/status/phase") == text(&pv, "/status/phase") {
            new_time.or(old_time)
        } else if new_time.is_none() || new_time == old_time {
            Some(now())
        } else {
            new_time
        };
        if let (Some(status), Some(time)) = (
            pv.get_mut("status").and_then(Value::as_object_mut),
            time.filter(|t| !t.is_null()),
        ) {
            status.insert("lastPhaseTransitionTime".into(), time);
        }
        from_value(scheme, &info.storage_gvk, pv)
    }

    /// Go's persistent volume strategy keeps no generation.
    fn tracks_generation(&self) -> bool {
        false
    }

    fn returns_deleted_object(&self) -> bool {
        true
    }
}

/// Go's `core.BetaStorageClassAnnotation`, which names a volume's or a claim's class
/// before `storageClassName` does.
pub const BETA_STORAGE_CLASS_ANNOTATION: &str = "volume.beta.kubernetes.io/storage-class";

/// Go's `persistentVolumeColumnDefinitions`.
pub const COLUMNS: [Column; 11] = [
    NAME,
    string_column(
        "Capacity",
        "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity",
        0,
    ),
    string_column(
        "Access Modes",
        "accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes",
        0,
    ),
    string_column(
        "Reclaim Policy",
        "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming",
        0,
    ),
    string_column(
        "Status",
        "phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase",
        0,
    ),
    string_column(
        "Claim",
        "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding",
        0,
    ),
    string_column("StorageClass", "StorageClass of the pv", 0),
    string_column(
        "VolumeAttributesClass",
        "VolumeAttributesClass of the pv",
        0,
    ),
    string_column(
        "Reason",
        "reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.",
        0,
    ),
    AGE,
    string_column(
        "VolumeMode",
        "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.",
        1,
    ),
];

/// The PersistentVolumes' table convertor.
pub static PERSISTENT_VOLUME_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "PersistentVolume",
    columns: &COLUMNS,
    print: print_persistent_volume,
};

/// The beta storage-class annotation of `obj`, when it has one (even empty: Go's
/// helpers prefer it to `storageClassName` whenever it is there).
pub fn beta_storage_class(obj: &Value) -> Option<&str> {
    obj.pointer("/metadata/annotations")
        .and_then(|a| a.get(BETA_STORAGE_CLASS_ANNOTATION))
        .and_then(Value::as_str)
}

/// A phase as Go's printers show it: `Terminating` once the object is being deleted.
pub fn phase(obj: &Value) -> &str {
    if obj
        .pointer("/metadata/deletionTimestamp")
        .is_some_and(|t| !t.is_null())
    {
        "Terminating"
    } else {
        text(obj, "/status/phase")
    }
}

/// The string at `pointer` of `obj`, `<unset>` when there is none (Go's printers of
/// optional strings: volume modes, volume attributes classes).
pub fn or_unset(obj: &Value, pointer: &str) -> String {
    obj.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or("<unset>")
        .to_owned()
}

/// Go's `printPersistentVolume`: name, the `storage` capacity, the access modes, the
/// reclaim policy, the phase (`Terminating` when deleted), the claim
/// (`namespace/name`), the class (Go's `GetPersistentVolumeClass`), the volume
/// attributes class, the phase's reason, age, the volume mode.
pub fn print_persistent_volume(obj: &Value) -> Row {
    let claim = match obj.pointer("/spec/claimRef") {
        Some(r) if r.is_object() => {
            format!("{}/{}", text(r, "/namespace"), text(r, "/name"))
        }
        _ => String::new(),
    };
    let class = beta_storage_class(obj).unwrap_or_else(|| text(obj, "/spec/storageClassName"));
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(quantity(obj.pointer("/spec/capacity/storage"))),
        Value::from(access_modes(obj, "/spec/accessModes")),
        Value::from(text(obj, "/spec/persistentVolumeReclaimPolicy")),
        Value::from(phase(obj)),
        Value::from(claim),
        Value::from(class),
        Value::from(or_unset(obj, "/spec/volumeAttributesClassName")),
        Value::from(text(obj, "/status/reason")),
        printers::age(obj),
        Value::from(or_unset(obj, "/spec/volumeMode")),
    ])
}

/// The PersistentVolumes' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        PersistentVolumeStrategy,
        Arc::new(PERSISTENT_VOLUME_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cells(obj: Value) -> Value {
        let mut cells = print_persistent_volume(&obj).cells;
        cells.remove(9); // the age
        Value::from(cells)
    }

    /// Go's `TestPrintPersistentVolume` cases: bound, failed, deleted, and the classes.
    #[test]
    fn persistent_volumes_print_capacity_modes_claim_and_class() {
        let claim = json!({"namespace": "default", "name": "test"});
        assert_eq!(
            cells(json!({"metadata": {"name": "test1"},
                "spec": {"claimRef": claim, "accessModes": ["ReadOnlyMany"],
                    "capacity": {"storage": "4Gi"}, "volumeMode": "Filesystem"},
                "status": {"phase": "Bound"}})),
            json!([
                "test1",
                "4Gi",
                "ROX",
                "",
                "Bound",
                "default/test",
                "",
                "<unset>",
                "",
                "Filesystem"
            ])
        );
        assert_eq!(
            cells(json!({"metadata": {"name": "test2",
                    "annotations": {"volume.beta.kubernetes.io/storage-class": "beta"}},
                "spec": {"claimRef": claim, "accessModes": ["ReadOnlyMany", "ReadWriteOnce"],
                    "capacity": {"storage": "5000m"}, "storageClassName": "ga",
                    "persistentVolumeReclaimPolicy": "Retain",
                    "volumeAttributesClassName": "fast"},
                "status": {"phase": "Failed", "reason": "Recycled"}})),
            json!([
                "test2",
                "5",
                "RWO,ROX",
                "Retain",
                "Failed",
                "default/test",
                "beta",
                "fast",
                "Recycled",
                "<unset>"
            ])
        );
        assert_eq!(
            cells(
                json!({"metadata": {"name": "test3", "deletionTimestamp": "2026-01-01T00:00:00Z"},
                "spec": {"storageClassName": "ga"}, "status": {"phase": "Released"}})
            ),
            json!([
                "test3",
                "0",
                "",
                "",
                "Terminating",
                "",
                "ga",
                "<unset>",
                "",
                "<unset>"
            ])
        );
    }
}
