//! Events (Go's `pkg/registry/core/event`): selectable by the object they are about,
//! which `kubectl describe` asks for. Both Event APIs keep core Events (see
//! `registry::events`), so both select by the same fields.

use std::sync::Arc;

use crate::registry::GarbageCollectionPolicy;
use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{SelectableField, Strategy};

/// Go's event strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct EventStrategy;

impl Strategy for EventStrategy {
    /// Go's event strategy: Events take no propagation finalizers.
    fn garbage_collection_policy(&self, _version: &str) -> GarbageCollectionPolicy {
        GarbageCollectionPolicy::Unsupported
    }

    /// Go's `ToSelectableFields` of an Event, on the stored (core) Event.
    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[
            ("involvedObject.kind", "/involvedObject/kind"),
            ("involvedObject.namespace", "/involvedObject/namespace"),
            ("involvedObject.name", "/involvedObject/name"),
            ("involvedObject.uid", "/involvedObject/uid"),
            ("involvedObject.apiVersion", "/involvedObject/apiVersion"),
            (
                "involvedObject.resourceVersion",
                "/involvedObject/resourceVersion",
            ),
            ("involvedObject.fieldPath", "/involvedObject/fieldPath"),
            ("reason", "/reason"),
            ("reportingComponent", "/reportingComponent"),
            ("source", "/source/component"),
            ("type", "/type"),
        ]
    }
}

/// The Events' REST storage over `info`.
pub fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard(info, EventStrategy)
}
