//! ReplicationControllers (Go's `pkg/registry/core/replicationcontroller`): selectable
//! by `status.replicas`, and scaled through `/scale` (their selector a plain map).

use std::sync::Arc;

use crate::registry::GarbageCollectionPolicy;
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

/// Where a ReplicationController's pod template's metadata is (when it has a template).
const TEMPLATE_METADATA: &str = "/spec/template/metadata";

/// Go's replication controller strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplicationControllerStrategy;

impl Strategy for ReplicationControllerStrategy {
    /// Go's `PrepareForCreate`: the template without its init-container annotations.
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        without_init_container_annotations(scheme, info, obj, TEMPLATE_METADATA)
    }

    /// Go's `PrepareForUpdate`: the template without its init-container annotations too.
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let new = prepare_for_update(scheme, info, old, new, subresource, spec_changed)?;
        prepare_template_for_update(scheme, info, new, subresource, TEMPLATE_METADATA)
    }

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
