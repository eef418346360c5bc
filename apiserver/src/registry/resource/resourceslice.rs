//! ResourceSlices (Go's `pkg/registry/resource/resourceslice`): selectable by
//! `spec.nodeName` (empty for a slice of no single node) and `spec.driver`, and from
//! Kubernetes 1.37 by `spec.pool.name`, as the DRA drivers and the scheduler list them;
//! and the table `kubectl get resourceslices` prints (Go's `printResourceSlice`).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{SelectableField, Strategy};

/// Go's resource slice strategy, as far as selection goes; its store answers a delete
/// with the deleted slice.
#[derive(Clone, Copy, Debug, Default)]
pub struct ResourceSliceStrategy;

impl Strategy for ResourceSliceStrategy {
    fn selectable_fields(&self) -> &'static [SelectableField] {
        #[cfg(not(feature = "v1_37"))]
        const FIELDS: &[SelectableField] = &[
            ("spec.nodeName", "/spec/nodeName"),
            ("spec.driver", "/spec/driver"),
        ];
        #[cfg(feature = "v1_37")]
        const FIELDS: &[SelectableField] = &[
            ("spec.nodeName", "/spec/nodeName"),
            ("spec.driver", "/spec/driver"),
            ("spec.pool.name", "/spec/pool/name"),
        ];
        FIELDS
    }

    fn returns_deleted_object(&self) -> bool {
        true
    }
}

/// `ResourcePool{}.SwaggerDoc()["name"]` (of `resource.k8s.io/v1`, as Go's printer
/// takes it whatever version is asked): 1.37 mentions the field selector.
#[cfg(feature = "v1_37")]
const POOL: &str = "Name is used to identify the pool. For node-local devices, this is often the node name, but this is not required. A field selector can be used to list only ResourceSlice objects belonging to a certain pool.\n\nIt must not be longer than 253 characters and must consist of one or more DNS sub-domains separated by slashes. This field is immutable.";
#[cfg(not(feature = "v1_37"))]
const POOL: &str = "Name is used to identify the pool. For node-local devices, this is often the node name, but this is not required.\n\nIt must not be longer than 253 characters and must consist of one or more DNS sub-domains separated by slashes. This field is immutable.";

/// Go's `nodeResourceSliceColumnDefinitions`.
pub const COLUMNS: [Column; 5] = [
    NAME,
    string_column(
        "Node",
        "NodeName identifies the node which provides the resources in this pool. A field selector can be used to list only ResourceSlice objects belonging to a certain node.\n\nThis field can be used to limit access from nodes to ResourceSlices with the same node name. It also indicates to autoscalers that adding new nodes of the same type as some old node might also make new resources available.\n\nExactly one of NodeName, NodeSelector, AllNodes, and PerDeviceNodeSelection must be set. This field is immutable.",
        0,
    ),
    string_column(
        "Driver",
        "Driver identifies the DRA driver providing the capacity information. A field selector can be used to list only ResourceSlice objects with a certain driver name.\n\nMust be a DNS subdomain and should end with a DNS domain owned by the vendor of the driver. It should use only lower case characters. This field is immutable.",
        0,
    ),
    string_column("Pool", POOL, 0),
    AGE,
];

/// The ResourceSlices' table convertor.
pub static RESOURCE_SLICE_TABLE: Printer = Printer {
    api_version: "resource.k8s.io/v1",
    kind: "ResourceSlice",
    columns: &COLUMNS,
    print: print_resource_slice,
};

/// Go's `printResourceSlice`: name, node (empty for a slice of no single node), driver,
/// pool, age.
pub fn print_resource_slice(obj: &Value) -> Row {
    Row::from(
        [
            "/metadata/name",
            "/spec/nodeName",
            "/spec/driver",
            "/spec/pool/name",
        ]
        .iter()
        .map(|p| Value::from(printers::text(obj, p)))
        .chain([printers::age(obj)])
        .collect::<Vec<_>>(),
    )
}

/// The ResourceSlices' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(info, ResourceSliceStrategy, Arc::new(RESOURCE_SLICE_TABLE))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::registry::selection::Selection;
    use apimachinery::fields;
    use apimachinery::runtime::Unstructured;
    use apimachinery::schema::GroupVersionKind;

    fn info() -> ResourceInfo {
        ResourceInfo {
            group: "resource.k8s.io".into(),
            resource: "resourceslices".into(),
            singular: "resourceslice".into(),
            kind: "ResourceSlice".into(),
            list_kind: "ResourceSliceList".into(),
            namespaced: false,
            short_names: Vec::new(),
            categories: Vec::new(),
            verbs: Vec::new(),
            versions: vec!["v1".into()],
            storage_gvk: GroupVersionKind::new("resource.k8s.io", "v1", "ResourceSlice"),
            key_prefix: "/registry/resourceslices".into(),
            has_spec: true,
            has_status: false,
            has_scale: false,
            subresources: Vec::new(),
            subresources_not_served: Vec::new(),
        }
    }

    /// Whether `selector` is accepted and selects a slice of no single node.
    fn selects(selector: &str) -> Result<bool, String> {
        let selection = Selection {
            fields: fields::Selector::parse(selector).unwrap(),
            ..Selection::default()
        };
        let fields = ResourceSliceStrategy.selectable_fields();
        selection
            .check_fields(&info(), fields, false)
            .map_err(|e| e.to_string())?;
        let slice = Unstructured::from_value(serde_json::json!({
            "apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
            "metadata": {"name": "gpus"},
            "spec": {"driver": "gpu.example.com", "allNodes": true,
                     "pool": {"name": "rack-1", "generation": 1, "resourceSliceCount": 1}}}))
        .unwrap();
        Ok(selection.matches(&info(), fields, &slice))
    }

    #[test]
    fn the_row_has_the_node_driver_and_pool() {
        // Go's TestPrintResourceSlice cases: a node's slice, and one of all nodes.
        let mut slice = serde_json::json!({"metadata": {"name": "s"},
            "spec": {"nodeName": "node-1", "driver": "gpu.example.com",
                     "pool": {"name": "pool-1", "generation": 1, "resourceSliceCount": 1}}});
        let mut cells = print_resource_slice(&slice).cells;
        cells.pop();
        assert_eq!(cells, ["s", "node-1", "gpu.example.com", "pool-1"]);
        slice["spec"].as_object_mut().unwrap().remove("nodeName");
        assert_eq!(print_resource_slice(&slice).cells[1], "");
    }

    #[test]
    fn slices_are_selected_by_node_and_driver() {
        assert_eq!(selects("spec.nodeName="), Ok(true));
        assert_eq!(selects("spec.nodeName=node-1"), Ok(false));
        assert_eq!(selects("spec.driver=gpu.example.com"), Ok(true));
        assert_eq!(
            selects("spec.x=1"),
            Err("field label not supported: spec.x".into())
        );
    }

    #[cfg(feature = "v1_37")]
    #[test]
    fn slices_are_selected_by_pool_from_1_37() {
        assert_eq!(selects("spec.pool.name=rack-1"), Ok(true));
        assert_eq!(selects("spec.pool.name=rack-2"), Ok(false));
    }

    #[cfg(not(feature = "v1_37"))]
    #[test]
    fn the_pool_is_no_field_before_1_37() {
        assert_eq!(
            selects("spec.pool.name=rack-1"),
            Err("field label not supported: spec.pool.name".into())
        );
    }
}
