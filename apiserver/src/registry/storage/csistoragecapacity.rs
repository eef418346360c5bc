//! CSIStorageCapacities (Go's `pkg/registry/storage/csistoragecapacity`): updates name
//! the version they replace, and a `nodeTopology` naming deprecated node labels is
//! warned about (Go's `GetWarningsForCSIStorageCapacity`); Go's default table.

use std::sync::Arc;

use apimachinery::runtime::Object;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::node::labels::warnings_for_node_selector;
use crate::registry::rest::RestStorage;
use crate::registry::strategy::Strategy;
use crate::registry::to_json;

/// Go's CSIStorageCapacity strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct CsiStorageCapacityStrategy;

/// The warnings of a capacity's `nodeTopology`.
fn capacity_warnings(obj: &dyn Object) -> Vec<String> {
    to_json(obj)
        .ok()
        .and_then(|c| {
            c.get("nodeTopology")
                .filter(|t| !t.is_null())
                .map(|t| warnings_for_node_selector(t, "nodeTopology"))
        })
        .unwrap_or_default()
}

impl Strategy for CsiStorageCapacityStrategy {
    /// Go's `AllowUnconditionalUpdate` is false.
    fn allow_unconditional_update(&self) -> bool {
        false
    }

    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        capacity_warnings(obj)
    }

    fn warnings_on_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        capacity_warnings(obj)
    }
}

/// The CSIStorageCapacities' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard(info, CsiStorageCapacityStrategy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use apimachinery::runtime::Unstructured;
    use serde_json::{Value, json};

    #[test]
    fn a_topology_naming_deprecated_labels_is_warned_about() {
        let Value::Object(object) = json!({"apiVersion": "storage.k8s.io/v1", "kind": "CSIStorageCapacity",
            "nodeTopology": {"matchLabels": {"failure-domain.beta.kubernetes.io/zone": "z"}}})
        else {
            unreachable!()
        };
        assert_eq!(
            capacity_warnings(&Unstructured { object }),
            [
                r#"nodeTopology.matchLabels.failure-domain.beta.kubernetes.io/zone: deprecated since v1.17; use "topology.kubernetes.io/zone" instead"#
            ]
        );
    }
}
