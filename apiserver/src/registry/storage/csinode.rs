//! CSINodes (Go's `pkg/registry/storage/csinode/strategy.go`): a delete answers with the
//! deleted object, an update names the version it replaces, and the table
//! `kubectl get csinodes` prints (Go's `printCSINode`: how many drivers the node has).
//! On 1.37 CSINodes have a status, written through `/status` only: cleared on create,
//! its `storageHealth` dropped while the CSIVolumeHealth gate is off (alpha, off by
//! default) unless the stored status has some, and a `/status` write keeps the stored
//! labels, annotations, finalizers and owner references (Go's
//! `ResetObjectMetaForStatus`).

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::codec::{from_value, to_json};
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, items, string_column, text,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{GenericStrategy, Strategy, Subresource};
use crate::registry::validation::NameValidation;

/// Go's `csiNodeColumnDefinitions`.
pub const COLUMNS: [Column; 3] = [
    NAME,
    Column {
        type_: "integer",
        ..string_column(
            "Drivers",
            "Drivers indicates the number of CSI drivers registered on the node",
            0,
        )
    },
    AGE,
];

/// The CSINodes' table convertor.
pub static CSI_NODE_TABLE: Printer = Printer {
    api_version: "storage.k8s.io/v1",
    kind: "CSINode",
    columns: &COLUMNS,
    print: print_csi_node,
};

/// Go's `printCSINode`: name, the number of drivers, age.
pub fn print_csi_node(obj: &Value) -> Row {
    let drivers = i64::try_from(items(obj, "/spec/drivers").len()).unwrap_or(i64::MAX);
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(drivers),
        printers::age(obj),
    ])
}

/// Go's CSINode strategy (and, on 1.37, its status strategy): the generic one's
/// ([`BASE`]), and the storage health the gate keeps out dropped from `/status` writes.
#[derive(Clone, Copy, Debug, Default)]
pub struct CsiNodeStrategy;

/// What CSINodes share with the generic strategy: deletes answer with the object, no
/// generation, updates name their version, the status written through `/status` only.
const BASE: GenericStrategy = GenericStrategy {
    names: NameValidation::Subdomain,
    returns_deleted_object: true,
    no_generation: true,
    requires_resource_version: true,
    status_by_status_writes_only: true,
    creates_on_update: false,
};

/// `new` (a CSINode's JSON) without the storage health the CSIVolumeHealth gate (off)
/// keeps out, unless `old`'s status has some (Go's `dropDisabledCSINodeFields`).
fn drop_disabled_fields(new: &mut Value, old: &Value) {
    let in_use = old
        .pointer("/status/storageHealth")
        .and_then(Value::as_array)
        .is_some_and(|h| !h.is_empty());
    if let (false, Some(status)) = (in_use, new.get_mut("status").and_then(Value::as_object_mut)) {
        status.remove("storageHealth");
    }
}

impl Strategy for CsiNodeStrategy {
    fn returns_deleted_object(&self) -> bool {
        BASE.returns_deleted_object()
    }

    fn tracks_generation(&self) -> bool {
        BASE.tracks_generation()
    }

    fn allow_unconditional_update(&self) -> bool {
        BASE.allow_unconditional_update()
    }

    /// 1.37: the status is cleared (1.36's CSINodes have none).
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        BASE.prepare_for_create(scheme, info, obj)
    }

    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let new = BASE.prepare_for_update(scheme, info, old, new, subresource)?;
        if subresource != Subresource::Status {
            return Ok(new);
        }
        let mut new = to_json(&*new)?;
        drop_disabled_fields(&mut new, &to_json(old)?);
        from_value(scheme, &info.storage_gvk, new)
    }
}

/// The CSINodes' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(info, CsiNodeStrategy, Arc::new(CSI_NODE_TABLE))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    /// 1.37's status strategy: a create clears the status; a `/status` write keeps the
    /// spec (the stored labels are the store's rule), and drops the storage health the gate keeps out; a
    /// write of the object keeps the stored status.
    #[cfg(feature = "v1_37")]
    #[test]
    fn the_status_is_written_through_status_and_the_gate_keeps_storage_health_out() {
        use crate::registry::resources_from_scheme;
        let mut scheme = Scheme::with_name("csinode-tests");
        scheme.add_registry().unwrap();
        let info = resources_from_scheme(&scheme)
            .remove(&("storage.k8s.io".to_owned(), "csinodes".to_owned()))
            .unwrap();
        assert!(info.has_status);
        let health = json!({"storageHealth": [{"name": "d", "healthConditions": [{
            "status": "StorageDegraded", "reason": "Slow",
            "lastTransitionTime": "2026-01-02T03:04:05Z"}]}]});
        let node = |labels: Value, drivers: Value, status: Value| {
            let v = json!({"apiVersion": "storage.k8s.io/v1", "kind": "CSINode",
                "metadata": {"name": "n", "labels": labels, "resourceVersion": "5"},
                "spec": {"drivers": drivers}, "status": status});
            from_value(&scheme, &info.storage_gvk, v).unwrap()
        };
        let drivers = json!([{"name": "d", "nodeID": "n1"}]);
        let s = CsiNodeStrategy;
        let created = s
            .prepare_for_create(
                &scheme,
                &info,
                node(json!({"a": "1"}), drivers.clone(), health.clone()),
            )
            .unwrap();
        let created_json = to_json(&*created).unwrap();
        assert_eq!(created_json["status"], json!({}));
        let new = node(json!({"b": "2"}), json!([]), health.clone());
        let written = s
            .prepare_for_update(&scheme, &info, &*created, new, Subresource::Status)
            .unwrap();
        let written = to_json(&*written).unwrap();
        assert_eq!(written["status"], json!({}));
        // The stored spec (Go's nil `topologyKeys` written as null).
        assert_eq!(written["spec"]["drivers"][0]["name"], drivers[0]["name"]);
        assert_eq!(
            written["spec"]["drivers"][0]["nodeID"],
            drivers[0]["nodeID"]
        );
        // A stored status with storage health (written while the gate was on) keeps
        // taking it.
        let stored = node(json!({}), drivers.clone(), health.clone());
        let written = s
            .prepare_for_update(
                &scheme,
                &info,
                &*stored,
                node(json!({}), drivers.clone(), health.clone()),
                Subresource::Status,
            )
            .unwrap();
        assert_eq!(to_json(&*written).unwrap()["status"], health);
        let main = s
            .prepare_for_update(
                &scheme,
                &info,
                &*stored,
                node(json!({"c": "3"}), drivers, json!({})),
                Subresource::Main,
            )
            .unwrap();
        let main = to_json(&*main).unwrap();
        assert_eq!(main["status"], health);
        assert_eq!(main["metadata"]["labels"], json!({"c": "3"}));
    }

    /// Go's `TestPrintCSINode` cases.
    #[test]
    fn nodes_print_how_many_drivers_they_have() {
        let node = json!({"metadata": {"name": "csinode1"}, "spec": {"drivers": [
            {"name": "driver1", "nodeID": "node1"}, {"name": "driver2", "nodeID": "node2"}]}});
        assert_eq!(
            print_csi_node(&node).cells[..2],
            [json!("csinode1"), json!(2)]
        );
        let none = json!({"metadata": {"name": "csinode2"}, "spec": {}});
        assert_eq!(print_csi_node(&none).cells[1], json!(0));
    }
}
