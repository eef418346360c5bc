//! CSINodes (Go's `pkg/registry/storage/csinode`): a delete answers with the deleted
//! object, and the table `kubectl get csinodes` prints (Go's `printCSINode`: how many
//! drivers the node has).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, items, string_column, text,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

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

/// The CSINodes' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        GenericStrategy::returning_deleted_object().without_generation(),
        Arc::new(CSI_NODE_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
