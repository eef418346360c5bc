//! ResourceSlices (Go's `pkg/registry/resource/resourceslice`): selectable by
//! `spec.nodeName` (empty for a slice of no single node) and `spec.driver`, and from
//! Kubernetes 1.37 by `spec.pool.name`, as the DRA drivers and the scheduler list them.

use std::sync::Arc;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{SelectableField, Strategy};

/// Go's resource slice strategy, as far as selection goes.
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
}

/// The ResourceSlices' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard(info, ResourceSliceStrategy)
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
