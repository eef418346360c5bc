//! [`Unstructured`]: one object of any kind as a JSON map.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{NestedFieldError, UnstructuredList, nested};
use crate::apis::meta::v1::{ManagedFieldsEntry, ObjectMetaAccessor, OwnerReference, Time};
use crate::runtime::Object;
use crate::schema::GroupVersionKind;

/// An object of any kind, kept as the JSON map it was read from: what a tool uses for kinds
/// it has no Rust type for, such as custom resources (Go's `unstructured.Unstructured`).
///
/// Its kind is whatever its `apiVersion` and `kind` say. Metadata is reached through
/// [`ObjectMetaAccessor`], other fields by path with the `nested_*` functions. Encoding
/// writes the map with keys sorted, as Go does.
///
/// ```
/// use apimachinery::runtime::{Object, Unstructured};
/// use apimachinery::apis::meta::v1::ObjectMetaAccessor;
///
/// let mut u: Unstructured = serde_json::from_str(
///     r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":3}}"#,
/// )?;
/// assert_eq!(u.group_version_kind().to_string(), "example.com/v1, Kind=Widget");
/// assert_eq!(u.name(), "w");
/// assert_eq!(u.nested_i64(&["spec", "size"])?, Some(3));
/// u.set_namespace("prod");
/// assert_eq!(u.object["metadata"]["namespace"], "prod");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Unstructured {
    /// The object's JSON content.
    pub object: Map<String, Value>,
}

/// An unstructured document that is not what was asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnstructuredError {
    /// The JSON is not an object.
    #[error("expected a JSON object for an unstructured object, got {found}")]
    NotAnObject {
        /// The JSON type found.
        found: &'static str,
    },
    /// The object is not a list: it has no `items` array.
    #[error("{gvk} is not a list: it has no items array")]
    NotAList {
        /// The object's kind.
        gvk: String,
    },
    /// An item of `items` is not an object.
    #[error("items[{index}] of {gvk} is not a JSON object")]
    ItemNotAnObject {
        /// The item's index.
        index: usize,
        /// The list's kind.
        gvk: String,
    },
    /// A nested field of the wrong type.
    #[error(transparent)]
    Field(#[from] NestedFieldError),
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

impl Unstructured {
    /// An object holding `object`.
    pub fn new(object: Map<String, Value>) -> Self {
        Unstructured { object }
    }

    /// An object from a JSON value, which must be an object.
    pub fn from_value(value: Value) -> Result<Self, UnstructuredError> {
        match value {
            Value::Object(object) => Ok(Unstructured { object }),
            other => Err(UnstructuredError::NotAnObject {
                found: json_type(&other),
            }),
        }
    }

    /// The content as a JSON value.
    pub fn into_value(self) -> Value {
        Value::Object(self.object)
    }

    fn string_at(&self, fields: &[&str]) -> &str {
        nested::string_or_empty(&self.object, fields)
    }

    fn set_string_at(&mut self, value: &str, fields: &[&str]) {
        nested::set_string_or_remove(&mut self.object, value, fields);
    }

    fn set_at(&mut self, value: Value, fields: &[&str]) {
        nested::force_set(&mut self.object, value, fields);
    }

    fn decode_at<T: serde::de::DeserializeOwned>(&self, fields: &[&str]) -> Option<T> {
        let v = nested::nested_field(&self.object, fields).ok().flatten()?;
        T::deserialize(v).ok()
    }

    fn encode_at<T: Serialize>(&mut self, value: &T, fields: &[&str]) {
        match serde_json::to_value(value) {
            Ok(v) => self.set_at(v, fields),
            Err(_) => nested::remove_nested_field(&mut self.object, fields),
        }
    }

    /// The `apiVersion`.
    pub fn api_version(&self) -> &str {
        self.string_at(&["apiVersion"])
    }

    /// Sets the `apiVersion` (removes it when empty).
    pub fn set_api_version(&mut self, version: &str) {
        self.set_string_at(version, &["apiVersion"]);
    }

    /// The `kind`.
    pub fn kind(&self) -> &str {
        self.string_at(&["kind"])
    }

    /// Sets the `kind` (removes it when empty).
    pub fn set_kind(&mut self, kind: &str) {
        self.set_string_at(kind, &["kind"]);
    }

    /// The `metadata.selfLink`.
    pub fn self_link(&self) -> &str {
        self.string_at(&["metadata", "selfLink"])
    }

    /// Sets the `metadata.selfLink`.
    pub fn set_self_link(&mut self, link: &str) {
        self.set_string_at(link, &["metadata", "selfLink"]);
    }

    /// The `metadata.continue` token.
    pub fn continue_token(&self) -> &str {
        self.string_at(&["metadata", "continue"])
    }

    /// True when the object has an `items` array (Go's `IsList`).
    pub fn is_list(&self) -> bool {
        matches!(self.object.get("items"), Some(Value::Array(_)))
    }

    /// The object as a list (Go's `ToList`): its `items` become the list's items.
    pub fn to_list(&self) -> Result<UnstructuredList, UnstructuredError> {
        if !self.is_list() {
            return Err(UnstructuredError::NotAList {
                gvk: self.group_version_kind().to_string(),
            });
        }
        UnstructuredList::from_map(self.object.clone())
    }

    /// The value at a path (see [`nested_field`](super::nested_field)).
    pub fn nested_field(&self, fields: &[&str]) -> Result<Option<&Value>, NestedFieldError> {
        nested::nested_field(&self.object, fields)
    }

    /// The string at a path.
    pub fn nested_string(&self, fields: &[&str]) -> Result<Option<&str>, NestedFieldError> {
        nested::nested_string(&self.object, fields)
    }

    /// The integer at a path.
    pub fn nested_i64(&self, fields: &[&str]) -> Result<Option<i64>, NestedFieldError> {
        nested::nested_i64(&self.object, fields)
    }

    /// The boolean at a path.
    pub fn nested_bool(&self, fields: &[&str]) -> Result<Option<bool>, NestedFieldError> {
        nested::nested_bool(&self.object, fields)
    }

    /// Sets the value at a path, creating maps on the way.
    pub fn set_nested_field(
        &mut self,
        value: Value,
        fields: &[&str],
    ) -> Result<(), NestedFieldError> {
        nested::set_nested_field(&mut self.object, value, fields)
    }

    /// Removes the value at a path.
    pub fn remove_nested_field(&mut self, fields: &[&str]) {
        nested::remove_nested_field(&mut self.object, fields);
    }
}

impl Object for Unstructured {
    fn group_version_kind(&self) -> GroupVersionKind {
        nested::declared_gvk(&self.object)
    }

    fn set_group_version_kind(&mut self, gvk: &GroupVersionKind) {
        nested::set_declared_gvk(&mut self.object, gvk);
    }

    fn meta(&self) -> Option<&dyn ObjectMetaAccessor> {
        Some(self)
    }

    fn meta_mut(&mut self) -> Option<&mut dyn ObjectMetaAccessor> {
        Some(self)
    }

    fn deep_copy_object(&self) -> Box<dyn Object> {
        Box::new(self.clone())
    }

    fn encode_json(
        &self,
        out: &mut Vec<u8>,
        layout: crate::util::json::JsonLayout,
    ) -> Result<(), serde_json::Error> {
        crate::util::json::encode_go_json(self, out, layout)
    }

    fn type_name(&self) -> &'static str {
        std::any::type_name::<Self>()
    }

    fn is_unstructured(&self) -> bool {
        true
    }
}

impl ObjectMetaAccessor for Unstructured {
    fn name(&self) -> &str {
        self.string_at(&["metadata", "name"])
    }
    fn set_name(&mut self, name: &str) {
        self.set_string_at(name, &["metadata", "name"]);
    }
    fn generate_name(&self) -> &str {
        self.string_at(&["metadata", "generateName"])
    }
    fn set_generate_name(&mut self, generate_name: &str) {
        self.set_string_at(generate_name, &["metadata", "generateName"]);
    }
    fn namespace(&self) -> &str {
        self.string_at(&["metadata", "namespace"])
    }
    fn set_namespace(&mut self, namespace: &str) {
        self.set_string_at(namespace, &["metadata", "namespace"]);
    }
    fn uid(&self) -> &str {
        self.string_at(&["metadata", "uid"])
    }
    fn set_uid(&mut self, uid: &str) {
        self.set_string_at(uid, &["metadata", "uid"]);
    }
    fn resource_version(&self) -> &str {
        self.string_at(&["metadata", "resourceVersion"])
    }
    fn set_resource_version(&mut self, version: &str) {
        self.set_string_at(version, &["metadata", "resourceVersion"]);
    }
    fn generation(&self) -> i64 {
        self.decode_at(&["metadata", "generation"]).unwrap_or(0)
    }
    fn set_generation(&mut self, generation: i64) {
        if generation == 0 {
            self.remove_nested_field(&["metadata", "generation"]);
        } else {
            self.set_at(Value::from(generation), &["metadata", "generation"]);
        }
    }
    fn creation_timestamp(&self) -> Time {
        self.decode_at(&["metadata", "creationTimestamp"])
            .unwrap_or_default()
    }
    fn set_creation_timestamp(&mut self, t: Time) {
        if t.is_zero() {
            self.remove_nested_field(&["metadata", "creationTimestamp"]);
        } else {
            self.encode_at(&t, &["metadata", "creationTimestamp"]);
        }
    }
    fn deletion_timestamp(&self) -> Option<Time> {
        self.decode_at::<Time>(&["metadata", "deletionTimestamp"])
            .filter(|t| !t.is_zero())
    }
    fn set_deletion_timestamp(&mut self, t: Option<Time>) {
        match t {
            Some(t) => self.encode_at(&t, &["metadata", "deletionTimestamp"]),
            None => self.remove_nested_field(&["metadata", "deletionTimestamp"]),
        }
    }
    fn deletion_grace_period_seconds(&self) -> Option<i64> {
        self.decode_at(&["metadata", "deletionGracePeriodSeconds"])
    }
    fn set_deletion_grace_period_seconds(&mut self, seconds: Option<i64>) {
        match seconds {
            Some(s) => self.set_at(Value::from(s), &["metadata", "deletionGracePeriodSeconds"]),
            None => self.remove_nested_field(&["metadata", "deletionGracePeriodSeconds"]),
        }
    }
    fn labels(&self) -> BTreeMap<String, String> {
        nested::nested_string_map(&self.object, &["metadata", "labels"])
            .ok()
            .flatten()
            .unwrap_or_default()
    }
    fn set_labels(&mut self, labels: BTreeMap<String, String>) {
        if labels.is_empty() {
            self.remove_nested_field(&["metadata", "labels"]);
        } else {
            self.encode_at(&labels, &["metadata", "labels"]);
        }
    }
    fn annotations(&self) -> BTreeMap<String, String> {
        nested::nested_string_map(&self.object, &["metadata", "annotations"])
            .ok()
            .flatten()
            .unwrap_or_default()
    }
    fn set_annotations(&mut self, annotations: BTreeMap<String, String>) {
        if annotations.is_empty() {
            self.remove_nested_field(&["metadata", "annotations"]);
        } else {
            self.encode_at(&annotations, &["metadata", "annotations"]);
        }
    }
    fn owner_references(&self) -> Vec<OwnerReference> {
        self.decode_at(&["metadata", "ownerReferences"])
            .unwrap_or_default()
    }
    fn set_owner_references(&mut self, references: Vec<OwnerReference>) {
        if references.is_empty() {
            self.remove_nested_field(&["metadata", "ownerReferences"]);
        } else {
            self.encode_at(&references, &["metadata", "ownerReferences"]);
        }
    }
    fn finalizers(&self) -> Vec<String> {
        nested::nested_string_slice(&self.object, &["metadata", "finalizers"])
            .ok()
            .flatten()
            .unwrap_or_default()
    }
    fn set_finalizers(&mut self, finalizers: Vec<String>) {
        if finalizers.is_empty() {
            self.remove_nested_field(&["metadata", "finalizers"]);
        } else {
            self.encode_at(&finalizers, &["metadata", "finalizers"]);
        }
    }
    fn managed_fields(&self) -> Vec<ManagedFieldsEntry> {
        self.decode_at(&["metadata", "managedFields"])
            .unwrap_or_default()
    }
    fn set_managed_fields(&mut self, entries: Vec<ManagedFieldsEntry>) {
        if entries.is_empty() {
            self.remove_nested_field(&["metadata", "managedFields"]);
        } else {
            self.encode_at(&entries, &["metadata", "managedFields"]);
        }
    }
}

impl Serialize for Unstructured {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.object.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Unstructured {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Map::deserialize(deserializer).map(Unstructured::new)
    }
}

impl From<Map<String, Value>> for Unstructured {
    fn from(object: Map<String, Value>) -> Self {
        Unstructured { object }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod() -> Unstructured {
        Unstructured::from_value(json!({
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": "p",
                "namespace": "ns",
                "labels": {"app": "web"},
                "generation": 2,
                "creationTimestamp": "2024-01-02T03:04:05Z",
                "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs", "uid": "1", "controller": true}],
                "finalizers": ["f"]
            }
        }))
        .unwrap()
    }

    #[test]
    fn metadata_getters() {
        let u = pod();
        assert_eq!(
            u.group_version_kind(),
            GroupVersionKind::new("", "v1", "Pod")
        );
        assert_eq!(u.name(), "p");
        assert_eq!(u.namespace(), "ns");
        assert_eq!(u.generation(), 2);
        assert_eq!(u.labels()["app"], "web");
        assert_eq!(u.creation_timestamp().to_string(), "2024-01-02T03:04:05Z");
        assert_eq!(u.owner_references()[0].controller, Some(true));
        assert_eq!(u.finalizers(), vec!["f".to_string()]);
        assert_eq!(u.deletion_timestamp(), None);
        assert!(!u.is_list());
        assert!(u.to_list().is_err());
    }

    #[test]
    fn setters_remove_empty_values_as_go_does() {
        let mut u = pod();
        u.set_name("");
        assert!(u.object["metadata"].get("name").is_none());
        u.set_labels(BTreeMap::new());
        assert!(u.object["metadata"].get("labels").is_none());
        u.set_generation(0);
        assert!(u.object["metadata"].get("generation").is_none());
        u.set_group_version_kind(&GroupVersionKind::new("apps", "v1", "Deployment"));
        assert_eq!(u.api_version(), "apps/v1");
        assert_eq!(u.kind(), "Deployment");
    }

    #[test]
    fn setters_replace_a_metadata_that_is_not_a_map() {
        let mut u = Unstructured::from_value(json!({"metadata": 5})).unwrap();
        u.set_name("x");
        assert_eq!(u.name(), "x");
    }

    #[test]
    fn wrong_metadata_types_read_as_empty() {
        let u = Unstructured::from_value(json!({"metadata": {"name": 3, "labels": "x"}})).unwrap();
        assert_eq!(u.name(), "");
        assert!(u.labels().is_empty());
        assert!(Unstructured::from_value(json!([1])).is_err());
    }

    #[test]
    fn encodes_with_sorted_keys() {
        let u = pod();
        let s = serde_json::to_string(&u).unwrap();
        assert!(
            s.starts_with(r#"{"apiVersion":"v1","kind":"Pod","metadata":{"creationTimestamp""#),
            "{s}"
        );
    }
}
