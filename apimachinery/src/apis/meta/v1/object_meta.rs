//! [`ObjectMeta`] and the types it holds: owner references and managed-field entries.

use std::collections::BTreeMap;

use super::{FieldsV1, ObjectMetaAccessor, Time};

/// The metadata of every persisted object: name, namespace, labels, ownership, ...
/// (Go's `metav1.ObjectMeta`).
///
/// JSON is Go's: fields in Go's order, empty strings, zero numbers, empty maps and lists
/// and unset pointers omitted (every field is `omitempty`), and a zero
/// `creationTimestamp` omitted (its `omitzero`, Kubernetes 1.33 and later; earlier
/// versions wrote `null`). Reading takes `null` as the zero value, as Go's decoder does.
#[derive(crate::ApiType, Default, PartialEq)]
pub struct ObjectMeta {
    /// The object's name, unique in its namespace for its kind.
    #[api(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// A prefix the server completes into a unique name when `name` is empty.
    #[api(skip_serializing_if = "String::is_empty")]
    pub generate_name: String,
    /// The namespace; empty for cluster-scoped objects.
    #[api(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Deprecated and no longer set by servers.
    #[api(skip_serializing_if = "String::is_empty")]
    pub self_link: String,
    /// The unique ID the server gave the object.
    #[api(skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// An opaque version for optimistic concurrency and watches.
    #[api(skip_serializing_if = "String::is_empty")]
    pub resource_version: String,
    /// A sequence number of changes to the desired state.
    #[api(skip_serializing_if = "is_zero_i64")]
    pub generation: i64,
    /// When the object was created; zero when unset.
    #[api(skip_serializing_if = "Time::is_zero")]
    pub creation_timestamp: Time,
    /// When graceful deletion was requested.
    pub deletion_timestamp: Option<Time>,
    /// The grace period of a requested deletion, in seconds.
    pub deletion_grace_period_seconds: Option<i64>,
    /// Labels, for selection.
    #[api(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// Annotations: arbitrary non-identifying metadata.
    #[api(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    /// The objects this one depends on, for garbage collection.
    #[api(skip_serializing_if = "Vec::is_empty")]
    pub owner_references: Vec<OwnerReference>,
    /// Conditions that must be cleared before the object is deleted.
    #[api(skip_serializing_if = "Vec::is_empty")]
    pub finalizers: Vec<String>,
    /// Which manager set which fields (server-side apply).
    #[api(skip_serializing_if = "Vec::is_empty")]
    pub managed_fields: Vec<ManagedFieldsEntry>,
}

// `Clone` and `Debug` as the derives write them but not `#[inline]`: every kind's own
// clone and `Debug` call these, and an inline one was compiled into each of them. The
// strings, mostly empty but `name` and `namespace`, through `string_field`.
impl Clone for ObjectMeta {
    fn clone(&self) -> Self {
        ObjectMeta {
            name: crate::string_field::clone(&self.name),
            generate_name: crate::string_field::clone(&self.generate_name),
            namespace: crate::string_field::clone(&self.namespace),
            self_link: crate::string_field::clone(&self.self_link),
            uid: crate::string_field::clone(&self.uid),
            resource_version: crate::string_field::clone(&self.resource_version),
            generation: self.generation,
            creation_timestamp: self.creation_timestamp,
            deletion_timestamp: self.deletion_timestamp,
            deletion_grace_period_seconds: self.deletion_grace_period_seconds,
            labels: self.labels.clone(),
            annotations: self.annotations.clone(),
            owner_references: self.owner_references.clone(),
            finalizers: self.finalizers.clone(),
            managed_fields: self.managed_fields.clone(),
        }
    }
}

impl std::fmt::Debug for ObjectMeta {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ObjectMeta")
            .field("name", &self.name)
            .field("generate_name", &self.generate_name)
            .field("namespace", &self.namespace)
            .field("self_link", &self.self_link)
            .field("uid", &self.uid)
            .field("resource_version", &self.resource_version)
            .field("generation", &self.generation)
            .field("creation_timestamp", &self.creation_timestamp)
            .field("deletion_timestamp", &self.deletion_timestamp)
            .field(
                "deletion_grace_period_seconds",
                &self.deletion_grace_period_seconds,
            )
            .field("labels", &self.labels)
            .field("annotations", &self.annotations)
            .field("owner_references", &self.owner_references)
            .field("finalizers", &self.finalizers)
            .field("managed_fields", &self.managed_fields)
            .finish()
    }
}

fn is_zero_i64(v: &i64) -> bool {
    *v == 0
}

/// A reference from an object to its owner, for garbage collection (Go's
/// `metav1.OwnerReference`).
#[derive(crate::ApiType, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct OwnerReference {
    /// The owner's apiVersion.
    pub api_version: String,
    /// The owner's kind.
    pub kind: String,
    /// The owner's name.
    pub name: String,
    /// The owner's uid.
    pub uid: String,
    /// True when the owner is the managing controller.
    pub controller: Option<bool>,
    /// True when the owner cannot be deleted before this object is.
    pub block_owner_deletion: Option<bool>,
}

/// Which manager owns which fields, and through which operation (Go's
/// `metav1.ManagedFieldsEntry`).
#[derive(crate::ApiType, Clone, Debug, Default, PartialEq)]
pub struct ManagedFieldsEntry {
    /// The manager's name.
    #[api(skip_serializing_if = "String::is_empty")]
    pub manager: String,
    /// `Apply` or `Update`.
    #[api(skip_serializing_if = "String::is_empty")]
    pub operation: String,
    /// The apiVersion the field set is expressed in.
    #[api(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// When the entry was last changed.
    pub time: Option<Time>,
    /// The format of the field set; only `FieldsV1` exists.
    #[api(skip_serializing_if = "String::is_empty")]
    pub fields_type: String,
    /// The set of fields owned.
    #[api(rename = "fieldsV1")]
    pub fields_v1: Option<FieldsV1>,
    /// The subresource the entry applies to, if any.
    #[api(skip_serializing_if = "String::is_empty")]
    pub subresource: String,
}

impl ObjectMetaAccessor for ObjectMeta {
    fn as_object_meta(&self) -> Option<&ObjectMeta> {
        Some(self)
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn set_name(&mut self, name: &str) {
        name.clone_into(&mut self.name);
    }
    fn generate_name(&self) -> &str {
        &self.generate_name
    }
    fn set_generate_name(&mut self, generate_name: &str) {
        generate_name.clone_into(&mut self.generate_name);
    }
    fn namespace(&self) -> &str {
        &self.namespace
    }
    fn set_namespace(&mut self, namespace: &str) {
        namespace.clone_into(&mut self.namespace);
    }
    fn uid(&self) -> &str {
        &self.uid
    }
    fn set_uid(&mut self, uid: &str) {
        uid.clone_into(&mut self.uid);
    }
    fn resource_version(&self) -> &str {
        &self.resource_version
    }
    fn set_resource_version(&mut self, version: &str) {
        version.clone_into(&mut self.resource_version);
    }
    fn generation(&self) -> i64 {
        self.generation
    }
    fn set_generation(&mut self, generation: i64) {
        self.generation = generation;
    }
    fn creation_timestamp(&self) -> Time {
        self.creation_timestamp
    }
    fn set_creation_timestamp(&mut self, t: Time) {
        self.creation_timestamp = t;
    }
    fn deletion_timestamp(&self) -> Option<Time> {
        self.deletion_timestamp
    }
    fn set_deletion_timestamp(&mut self, t: Option<Time>) {
        self.deletion_timestamp = t;
    }
    fn deletion_grace_period_seconds(&self) -> Option<i64> {
        self.deletion_grace_period_seconds
    }
    fn set_deletion_grace_period_seconds(&mut self, seconds: Option<i64>) {
        self.deletion_grace_period_seconds = seconds;
    }
    fn labels(&self) -> BTreeMap<String, String> {
        self.labels.clone()
    }
    fn set_labels(&mut self, labels: BTreeMap<String, String>) {
        self.labels = labels;
    }
    fn annotations(&self) -> BTreeMap<String, String> {
        self.annotations.clone()
    }
    fn set_annotations(&mut self, annotations: BTreeMap<String, String>) {
        self.annotations = annotations;
    }
    fn owner_references(&self) -> Vec<OwnerReference> {
        self.owner_references.clone()
    }
    fn set_owner_references(&mut self, references: Vec<OwnerReference>) {
        self.owner_references = references;
    }
    fn finalizers(&self) -> Vec<String> {
        self.finalizers.clone()
    }
    fn set_finalizers(&mut self, finalizers: Vec<String>) {
        self.finalizers = finalizers;
    }
    fn managed_fields(&self) -> Vec<ManagedFieldsEntry> {
        self.managed_fields.clone()
    }
    fn set_managed_fields(&mut self, entries: Vec<ManagedFieldsEntry>) {
        self.managed_fields = entries;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_metadata_is_an_empty_object() {
        assert_eq!(serde_json::to_string(&ObjectMeta::default()).unwrap(), "{}");
    }

    #[test]
    fn json_field_order_is_gos() {
        let mut m = ObjectMeta {
            name: "web".into(),
            namespace: "prod".into(),
            generation: 3,
            creation_timestamp: Time::from_unix(1_700_000_000, 0),
            ..Default::default()
        };
        m.labels.insert("b".into(), "2".into());
        m.labels.insert("a".into(), "1".into());
        m.owner_references.push(OwnerReference {
            api_version: "apps/v1".into(),
            kind: "ReplicaSet".into(),
            name: "web-1".into(),
            uid: "u".into(),
            controller: Some(true),
            block_owner_deletion: None,
        });
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            concat!(
                r#"{"name":"web","namespace":"prod","generation":3,"creationTimestamp":"2023-11-14T22:13:20Z","#,
                r#""labels":{"a":"1","b":"2"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-1","uid":"u","controller":true}]}"#
            )
        );
        let back: ObjectMeta = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn null_reads_as_the_zero_value_as_in_go() {
        let m: ObjectMeta = serde_json::from_str(
            r#"{"name":null,"generation":null,"labels":null,"ownerReferences":null,"deletionTimestamp":null,"managedFields":[{"manager":null,"fieldsV1":null}]}"#,
        )
        .unwrap();
        assert_eq!(
            m,
            ObjectMeta {
                managed_fields: vec![ManagedFieldsEntry::default()],
                ..Default::default()
            }
        );
        let r: OwnerReference = serde_json::from_str(r#"{"uid":null,"controller":null}"#).unwrap();
        assert_eq!(r, OwnerReference::default());
    }

    #[test]
    fn owner_reference_writes_its_value_fields() {
        assert_eq!(
            serde_json::to_string(&OwnerReference::default()).unwrap(),
            r#"{"apiVersion":"","kind":"","name":"","uid":""}"#
        );
    }

    #[test]
    fn null_creation_timestamp_reads_as_zero() {
        let m: ObjectMeta = serde_json::from_str(r#"{"creationTimestamp":null}"#).unwrap();
        assert!(m.creation_timestamp.is_zero());
    }
}
