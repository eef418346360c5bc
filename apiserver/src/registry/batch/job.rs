//! Jobs (Go's `pkg/registry/batch/job`): selectable by `status.successful`.

use std::sync::Arc;

use crate::registry::GarbageCollectionPolicy;
use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{SelectableField, Strategy};

/// Go's job strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct JobStrategy;

impl Strategy for JobStrategy {
    /// Go's: dependents are orphaned by default at batch/v1, for compatibility.
    fn garbage_collection_policy(&self, version: &str) -> GarbageCollectionPolicy {
        if version == "v1" {
            GarbageCollectionPolicy::OrphanDependents
        } else {
            GarbageCollectionPolicy::DeleteDependents
        }
    }

    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("status.successful", "/status/succeeded")]
    }
}

/// The Jobs' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard(info, JobStrategy)
}
