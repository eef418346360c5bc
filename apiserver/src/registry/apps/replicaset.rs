//! ReplicaSets (Go's `pkg/registry/apps/replicaset`): selectable by `status.replicas`,
//! and scaled through `/scale`.

use std::sync::Arc;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::rest::RestStorage;
use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};

use crate::registry::core::pod::template::{
    prepare_template_for_update, without_init_container_annotations,
};
use crate::registry::strategy::{
    SelectableField, Strategy, Subresource, prepare_for_update, spec_changed,
};

/// Go's replica set strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplicaSetStrategy;

impl Strategy for ReplicaSetStrategy {
    /// Go's `PrepareForCreate`: the template without its init-container annotations.
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        without_init_container_annotations(scheme, info, obj, super::TEMPLATE_METADATA)
    }

    /// Go's `PrepareForUpdate`: the template's too.
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let new = prepare_for_update(scheme, info, old, new, subresource, spec_changed)?;
        prepare_template_for_update(scheme, info, new, subresource, super::TEMPLATE_METADATA)
    }

    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("status.replicas", "/status/replicas")]
    }
}

/// The ReplicaSets' REST storage over `info`, with Go's `ScaleREST`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.scalable(info, ReplicaSetStrategy)
}
