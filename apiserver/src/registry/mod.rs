//! The object layer over the storage, in two layers as Go has it.
//!
//! The generic registry (Go's `k8s.io/apiserver/pkg/registry`, below the endpoints):
//! one [`Store`] per served resource over the storage, its watch [`Cacher`], the codec
//! helpers ([`codec`]), the [`Strategy`] a store asks what is particular to its
//! resource, and the [`RestStorage`] traits the endpoints call.
//!
//! The resource modules (Go's `k8s.io/kubernetes/pkg/registry`, above the endpoints,
//! one file per resource with something of its own): [`core`] (Namespaces, Pods,
//! Services, ServiceAccounts and their `token`, ReplicationControllers), [`apps`] (the
//! scalable workloads), [`rbac`] (names, the escalation check), [`authentication`] and
//! [`authorization`] (the reviews), [`storage`] (storage.k8s.io's stores),
//! [`apiextensions`] (CRDs and custom resources); [`builtin`] gives every built-in
//! resource its REST storage, as Go's control plane installs its storage providers.

mod cacher;
pub mod codec;
mod continue_token;
pub mod default_table;
mod delete_params;
mod event_conversion;
mod event_lines;
mod graceful_delete;
pub mod printers;
mod resource_info;
pub mod rest;
mod scale;
mod selection;
pub mod shared_list;
pub mod status_metadata;
mod store;
pub mod strategy;
pub mod validation;

pub mod admissionregistration;
pub mod apiextensions;
pub mod apiregistration;
pub mod apiserverinternal;
pub mod apps;
pub mod authentication;
pub mod authorization;
pub mod autoscaling;
pub mod batch;
pub mod builtin;
pub mod certificates;
pub mod coordination;
pub mod core;
pub mod dependencies;
pub mod discovery;
pub mod events;
pub mod flowcontrol;
#[cfg(feature = "v1_37")]
pub mod lifecycle;
pub mod networking;
pub mod node;
pub mod policy;
pub mod rbac;
pub mod resource;
pub mod scheduling;
pub mod storage;
pub mod storagemigration;

pub use cacher::{CacheEvent, CacheWatch, Cacher, EventType};
pub use codec::{MediaType, convert, decode_stored, encode, from_value, to_json};
pub use continue_token::{ContinueToken, ContinueTokenError};
pub use delete_params::{DeleteParams, GarbageCollectionPolicy};
pub use event_conversion::{EVENTS_GROUP, convert_event, crosses_event_groups};
pub use event_lines::EventLines;
pub use graceful_delete::{GracefulOutcome, before_delete, mark_as_deleting};
pub use resource_info::{ResourceInfo, SubresourceInfo, resources_from_scheme};
pub use rest::{
    Connecter, Context, Creater, Reader, RestStorage, Scaler, StandardStorage, TableConvertor,
};
pub use scale::{ReplicasScale, scale_metadata};
pub use selection::{Selection, UnsupportedFieldError};
pub(crate) use store::random_suffix;
pub use store::{ListPage, ListParams, Listed, Store};
pub use strategy::{
    FieldValidation, GenericStrategy, SelectableField, Strategy, Subresource, WebhookConverter,
};

/// The strings of a JSON list (what is not a string, or not a list, read as none).
pub(crate) fn string_list(v: Option<&serde_json::Value>) -> Vec<String> {
    v.and_then(serde_json::Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(serde_json::Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}
