//! Secrets (Go's `pkg/registry/core/secret`): selectable by their `type`.

use std::sync::Arc;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{SelectableField, Strategy};

/// Go's secret strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct SecretStrategy;

impl Strategy for SecretStrategy {
    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("type", "/type")]
    }
}

/// The Secrets' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard(info, SecretStrategy)
}
