//! ReplicaSets (Go's `pkg/registry/apps/replicaset`): selectable by `status.replicas`,
//! and scaled through `/scale`.

use std::sync::Arc;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{SelectableField, Strategy};

/// Go's replica set strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplicaSetStrategy;

impl Strategy for ReplicaSetStrategy {
    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("status.replicas", "/status/replicas")]
    }
}

/// The ReplicaSets' REST storage over `info`, with Go's `ScaleREST`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.scalable(info, ReplicaSetStrategy)
}
