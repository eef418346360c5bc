//! Services (Go's `pkg/registry/core/service`): names are DNS labels and a deleted
//! Service answers with itself. (Go's Service storage also allocates cluster IPs and
//! node ports; its REST storage is where their allocators would be held.)

use std::sync::Arc;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::rest::RestStorage;
use crate::registry::strategy::Strategy;
use crate::registry::validation::NameValidation;

/// Go's service strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct ServiceStrategy;

impl Strategy for ServiceStrategy {
    fn names(&self) -> NameValidation {
        NameValidation::Label
    }

    fn returns_deleted_object(&self) -> bool {
        true
    }
}

/// The Services' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard(info, ServiceStrategy)
}
