//! Nodes (Go's `pkg/registry/core/node`): selectable by `spec.unschedulable`.

use std::sync::Arc;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{SelectableField, Strategy};

/// Go's node strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct NodeStrategy;

impl Strategy for NodeStrategy {
    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("spec.unschedulable", "/spec/unschedulable")]
    }
}

/// The Nodes' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard(info, NodeStrategy)
}
