//! [`ObjectMetaAccessor`] and [`ListMetaAccessor`]: metadata access that works the same on
//! typed and unstructured objects.

use std::collections::BTreeMap;

use super::{ManagedFieldsEntry, OwnerReference, Time};

/// Read and write access to an object's metadata, whatever holds it: [`ObjectMeta`] in a
/// typed object, or the `metadata` map of an
/// [`Unstructured`](crate::runtime::Unstructured) (Go's `metav1.Object` interface).
///
/// Getters drop Go's `Get` prefix (`GetName` is [`name`](Self::name)), setters keep
/// `set_`. Maps and lists are returned as copies, since an unstructured object has to
/// build them from JSON.
///
/// [`ObjectMeta`]: super::ObjectMeta
pub trait ObjectMetaAccessor {
    /// The metadata as an [`ObjectMeta`](super::ObjectMeta) when that is what holds it
    /// (a typed object), so that readers of every field need not copy them.
    fn as_object_meta(&self) -> Option<&super::ObjectMeta> {
        None
    }
    /// The name.
    fn name(&self) -> &str;
    /// Sets the name.
    fn set_name(&mut self, name: &str);
    /// The generate-name prefix.
    fn generate_name(&self) -> &str;
    /// Sets the generate-name prefix.
    fn set_generate_name(&mut self, generate_name: &str);
    /// The namespace.
    fn namespace(&self) -> &str;
    /// Sets the namespace.
    fn set_namespace(&mut self, namespace: &str);
    /// The uid.
    fn uid(&self) -> &str;
    /// Sets the uid.
    fn set_uid(&mut self, uid: &str);
    /// The resource version.
    fn resource_version(&self) -> &str;
    /// Sets the resource version.
    fn set_resource_version(&mut self, version: &str);
    /// The generation.
    fn generation(&self) -> i64;
    /// Sets the generation.
    fn set_generation(&mut self, generation: i64);
    /// The creation timestamp (zero when unset).
    fn creation_timestamp(&self) -> Time;
    /// Sets the creation timestamp.
    fn set_creation_timestamp(&mut self, t: Time);
    /// The deletion timestamp.
    fn deletion_timestamp(&self) -> Option<Time>;
    /// Sets the deletion timestamp.
    fn set_deletion_timestamp(&mut self, t: Option<Time>);
    /// The deletion grace period in seconds.
    fn deletion_grace_period_seconds(&self) -> Option<i64>;
    /// Sets the deletion grace period in seconds.
    fn set_deletion_grace_period_seconds(&mut self, seconds: Option<i64>);
    /// The labels.
    fn labels(&self) -> BTreeMap<String, String>;
    /// Replaces the labels.
    fn set_labels(&mut self, labels: BTreeMap<String, String>);
    /// The annotations.
    fn annotations(&self) -> BTreeMap<String, String>;
    /// Replaces the annotations.
    fn set_annotations(&mut self, annotations: BTreeMap<String, String>);
    /// The owner references.
    fn owner_references(&self) -> Vec<OwnerReference>;
    /// Replaces the owner references.
    fn set_owner_references(&mut self, references: Vec<OwnerReference>);
    /// The finalizers.
    fn finalizers(&self) -> Vec<String>;
    /// Replaces the finalizers.
    fn set_finalizers(&mut self, finalizers: Vec<String>);
    /// The managed-fields entries.
    fn managed_fields(&self) -> Vec<ManagedFieldsEntry>;
    /// Replaces the managed-fields entries.
    fn set_managed_fields(&mut self, entries: Vec<ManagedFieldsEntry>);
}

/// Read and write access to a list's metadata (Go's `metav1.ListInterface`).
pub trait ListMetaAccessor {
    /// The resource version the list was read at.
    fn resource_version(&self) -> &str;
    /// Sets the resource version.
    fn set_resource_version(&mut self, version: &str);
    /// The self link (deprecated).
    fn self_link(&self) -> &str;
    /// Sets the self link.
    fn set_self_link(&mut self, link: &str);
    /// The continue token (Go's `GetContinue`).
    fn continue_token(&self) -> &str;
    /// Sets the continue token.
    fn set_continue_token(&mut self, token: &str);
    /// The remaining item count.
    fn remaining_item_count(&self) -> Option<i64>;
    /// Sets the remaining item count.
    fn set_remaining_item_count(&mut self, count: Option<i64>);
}
