//! ReplicationControllers (Go's `pkg/registry/core/replicationcontroller`): selectable
//! by `status.replicas`, and scaled through `/scale` (their selector a plain map).

use std::sync::Arc;

use crate::registry::GarbageCollectionPolicy;
use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{SelectableField, Strategy};

/// Go's replication controller strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplicationControllerStrategy;

impl Strategy for ReplicationControllerStrategy {
    /// Go's: dependents are orphaned by default at core/v1, for compatibility.
    fn garbage_collection_policy(&self, version: &str) -> GarbageCollectionPolicy {
        if version == "v1" {
            GarbageCollectionPolicy::OrphanDependents
        } else {
            GarbageCollectionPolicy::DeleteDependents
        }
    }

    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("status.replicas", "/status/replicas")]
    }
}

/// The ReplicationControllers' REST storage over `info`, with Go's `ScaleREST`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.scalable(info, ReplicationControllerStrategy)
}
