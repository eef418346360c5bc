//! PersistentVolumeClaims (Go's `pkg/registry/core/persistentvolumeclaim`): no
//! generation, created without a status, the data sources made consistent and the
//! fields of disabled features dropped ([`claim_fields`]), a delete answers with the
//! deleted claim, and the table `kubectl get persistentvolumeclaims` prints (Go's
//! `printPersistentVolumeClaim`); the beta storage-class annotation and fractional
//! sizes are warned about ([`warnings`]).

pub mod claim_fields;
pub mod warnings;

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::{Value, json};

use super::persistentvolume::{beta_storage_class, or_unset, phase};
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, access_modes, quantity, string_column, text,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{Strategy, Subresource, prepare_for_update, spec_changed};
use crate::registry::{ResourceInfo, from_value, to_json};

/// Go's persistent volume claim strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct PersistentVolumeClaimStrategy;

impl Strategy for PersistentVolumeClaimStrategy {
    /// Go's `PrepareForCreate`: no status (what the storage then answers is its default,
    /// phase `Pending`, as Go's storage decodes the object with its defaults); the spec
    /// without its disabled fields, its data sources as [`claim_fields`] makes them.
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let mut claim = to_json(&*obj)?;
        if let Some(map) = claim.as_object_mut() {
            map.insert("status".into(), json!({"phase": "Pending"}));
        }
        if let Some(spec) = claim.get_mut("spec") {
            claim_fields::drop_disabled_fields(spec, None);
            claim_fields::enforce_data_source_backwards_compatibility(spec, None);
            claim_fields::normalize_data_sources(spec);
        }
        from_value(scheme, &info.storage_gvk, claim)
    }

    /// Go's `PrepareForUpdate` of the claim (the spec as on create, with the stored
    /// claim's data sources and fields in use kept) and of its `/status` (the status
    /// without the disabled fields the stored one does not have).
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let new = prepare_for_update(scheme, info, old, new, subresource, spec_changed)?;
        let (mut claim, old) = (to_json(&*new)?, to_json(old)?);
        let part = match subresource {
            Subresource::Main => "spec",
            Subresource::Status => "status",
            Subresource::Finalize
            | Subresource::Resize
            | Subresource::EphemeralContainers
            | Subresource::Approval => return Ok(new),
        };
        let (Some(value), old) = (claim.get_mut(part), old.get(part)) else {
            return Ok(new);
        };
        if subresource == Subresource::Main {
            claim_fields::drop_disabled_fields(value, old);
            claim_fields::enforce_data_source_backwards_compatibility(value, old);
            claim_fields::normalize_data_sources(value);
        } else {
            claim_fields::drop_disabled_status_fields(value, old);
        }
        from_value(scheme, &info.storage_gvk, claim)
    }

    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        to_json(obj)
            .map(|claim| warnings::warnings_for_claim(&claim))
            .unwrap_or_default()
    }

    /// Go warns on every update of the claim as on create (not of its `/status`).
    fn warnings_on_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        self.warnings_on_create(obj)
    }

    /// Go's claim strategy keeps no generation.
    fn tracks_generation(&self) -> bool {
        false
    }

    fn returns_deleted_object(&self) -> bool {
        true
    }
}

/// Go's `persistentVolumeClaimColumnDefinitions`.
pub const COLUMNS: [Column; 9] = [
    NAME,
    string_column(
        "Status",
        "phase represents the current phase of PersistentVolumeClaim.",
        0,
    ),
    string_column(
        "Volume",
        "volumeName is the binding reference to the PersistentVolume backing this claim.",
        0,
    ),
    string_column(
        "Capacity",
        "capacity represents the actual resources of the underlying volume.",
        0,
    ),
    string_column(
        "Access Modes",
        "accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1",
        0,
    ),
    string_column("StorageClass", "StorageClass of the pvc", 0),
    string_column(
        "VolumeAttributesClass",
        "VolumeAttributesClass of the pvc",
        0,
    ),
    AGE,
    string_column(
        "VolumeMode",
        "volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.",
        1,
    ),
];

/// The PersistentVolumeClaims' table convertor.
pub static PERSISTENT_VOLUME_CLAIM_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "PersistentVolumeClaim",
    columns: &COLUMNS,
    print: print_persistent_volume_claim,
};

/// Go's `printPersistentVolumeClaim`: name, the phase (`Terminating` when deleted), the
/// volume, and, once bound to one, its `storage` capacity and access modes; the class
/// (Go's `GetPersistentVolumeClaimClass`), the volume attributes class, age, the
/// volume mode.
pub fn print_persistent_volume_claim(obj: &Value) -> Row {
    let volume = text(obj, "/spec/volumeName");
    let (capacity, modes) = if volume.is_empty() {
        (String::new(), String::new())
    } else {
        (
            quantity(obj.pointer("/status/capacity/storage")),
            access_modes(obj, "/status/accessModes"),
        )
    };
    let class = beta_storage_class(obj).unwrap_or_else(|| text(obj, "/spec/storageClassName"));
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(phase(obj)),
        Value::from(volume),
        Value::from(capacity),
        Value::from(modes),
        Value::from(class),
        Value::from(or_unset(obj, "/spec/volumeAttributesClassName")),
        printers::age(obj),
        Value::from(or_unset(obj, "/spec/volumeMode")),
    ])
}

/// The PersistentVolumeClaims' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        PersistentVolumeClaimStrategy,
        Arc::new(PERSISTENT_VOLUME_CLAIM_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cells(obj: Value) -> Value {
        Value::from(print_persistent_volume_claim(&obj).cells)
    }

    /// Go's `TestPrintPersistentVolumeClaim` cases.
    #[test]
    fn claims_print_their_volume_capacity_and_class_once_bound() {
        let status = |phase: &str, storage: &str, mode: &str| json!({"phase": phase, "capacity": {"storage": storage}, "accessModes": [mode]});
        assert_eq!(
            cells(json!({"metadata": {"name": "test1"},
                "spec": {"volumeName": "my-volume", "volumeMode": "Filesystem"},
                "status": status("Bound", "4Gi", "ReadOnlyMany")})),
            json!([
                "test1",
                "Bound",
                "my-volume",
                "4Gi",
                "ROX",
                "",
                "<unset>",
                "<unknown>",
                "Filesystem"
            ])
        );
        // Not bound: no capacity nor access modes, whatever the status says.
        assert_eq!(
            cells(
                json!({"metadata": {"name": "test2"}, "spec": {"volumeMode": "Filesystem"},
                "status": status("Lost", "4Gi", "ReadOnlyMany")})
            ),
            json!([
                "test2",
                "Lost",
                "",
                "",
                "",
                "",
                "<unset>",
                "<unknown>",
                "Filesystem"
            ])
        );
        assert_eq!(
            cells(json!({"metadata": {"name": "test4"},
                "spec": {"volumeName": "my-volume", "storageClassName": "my-scn",
                    "volumeMode": "Filesystem"},
                "status": status("Pending", "10Gi", "ReadWriteOnce")})),
            json!([
                "test4",
                "Pending",
                "my-volume",
                "10Gi",
                "RWO",
                "my-scn",
                "<unset>",
                "<unknown>",
                "Filesystem"
            ])
        );
        assert_eq!(
            cells(json!({"metadata": {"name": "test5"},
                "spec": {"volumeName": "my-volume", "storageClassName": "my-scn",
                    "volumeAttributesClassName": "my-vacn"},
                "status": status("Pending", "10Gi", "ReadWriteOnce")})),
            json!([
                "test5",
                "Pending",
                "my-volume",
                "10Gi",
                "RWO",
                "my-scn",
                "my-vacn",
                "<unknown>",
                "<unset>"
            ])
        );
        // The beta annotation names the class before `storageClassName`; a deleted
        // claim is terminating.
        assert_eq!(
            cells(
                json!({"metadata": {"name": "test6", "deletionTimestamp": "2026-01-01T00:00:00Z",
                    "annotations": {"volume.beta.kubernetes.io/storage-class": ""}},
                "spec": {"storageClassName": "ga"}, "status": {"phase": "Bound"}})
            ),
            json!([
                "test6",
                "Terminating",
                "",
                "",
                "",
                "",
                "<unset>",
                "<unknown>",
                "<unset>"
            ])
        );
    }
}
