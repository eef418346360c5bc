//! Helpers controllers share (controller-runtime's `pkg/controller/controllerutil`):
//! owner and controller references with Go's refusals, finalizers, and
//! [`create_or_update`] / [`create_or_patch`] telling what they did.
//!
//! ```
//! use apimachinery::runtime::Scheme;
//! use controller_runtime::controllerutil::{self, ControllerUtilError};
//! use k8s_types::apps::v1::ReplicaSet;
//! use k8s_types::core::v1::Pod;
//!
//! let mut scheme = Scheme::new();
//! k8s_types::register(&mut scheme)?;
//! let mut rs = ReplicaSet::default();
//! rs.metadata.name = "web".into();
//! rs.metadata.namespace = "prod".into();
//! rs.metadata.uid = "1234".into();
//! let mut pod = Pod::default();
//! pod.metadata.namespace = "prod".into();
//! controllerutil::set_controller_reference(&rs, &mut pod, &scheme)?;
//! assert_eq!(pod.metadata.owner_references[0].controller, Some(true));
//!
//! pod.metadata.namespace = "dev".into();
//! let mut other = pod.clone();
//! other.metadata.owner_references.clear();
//! let err = controllerutil::set_controller_reference(&rs, &mut other, &scheme).unwrap_err();
//! assert!(matches!(err, ControllerUtilError::CrossNamespace { .. }));
//!
//! assert!(controllerutil::add_finalizer(&mut pod, "example.com/cleanup"));
//! assert!(!controllerutil::add_finalizer(&mut pod, "example.com/cleanup"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use apimachinery::apis::meta::v1::{ObjectMetaAccessor, OwnerReference};
use apimachinery::runtime::{Object, Scheme, SchemeError};
use apimachinery::schema::GroupVersionKind;
use serde_json::Value;

use crate::client::{self, Client, ObjectKey, Patch};

/// What [`create_or_update`] or [`create_or_patch`] did (Go's `OperationResult`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperationResult {
    /// Nothing: the object already was as wanted.
    None,
    /// The object was created.
    Created,
    /// The object was updated.
    Updated,
    /// The object and its status were updated.
    UpdatedStatus,
    /// Only the status was updated.
    UpdatedStatusOnly,
}

/// Errors of the helpers.
#[derive(Debug, thiserror::Error)]
pub enum ControllerUtilError {
    /// The object already has a different controller (Go's `AlreadyOwnedError`).
    #[error("object {object} is already owned by another {kind} controller {name}")]
    AlreadyOwned {
        /// `namespace/name` of the object.
        object: String,
        /// The existing controller's kind.
        kind: String,
        /// The existing controller's name.
        name: String,
    },
    /// A cluster-scoped object cannot have a namespaced owner.
    #[error(
        "cluster-scoped resource must not have a namespace-scoped owner, owner's namespace {owner_namespace}"
    )]
    ClusterScopedObjectNamespacedOwner {
        /// The owner's namespace.
        owner_namespace: String,
    },
    /// Owner references cannot cross namespaces.
    #[error(
        "cross-namespace owner references are disallowed, owner's namespace {owner_namespace}, obj's namespace {object_namespace}"
    )]
    CrossNamespace {
        /// The owner's namespace.
        owner_namespace: String,
        /// The object's namespace.
        object_namespace: String,
    },
    /// The owner's kind is not in the Scheme, or is ambiguous.
    #[error("owner kind: {0}")]
    OwnerKind(#[source] SchemeError),
    /// The owner's Rust type is registered under several kinds and the object does not
    /// say which it is.
    #[error("owner of type {type_name} is registered as several kinds: {kinds}")]
    AmbiguousOwnerKind {
        /// The Rust type.
        type_name: &'static str,
        /// The kinds.
        kinds: String,
    },
    /// An object without metadata.
    #[error("{type_name} has no object metadata")]
    NoMetadata {
        /// The Rust type.
        type_name: &'static str,
    },
    /// The mutate function changed the object's name or namespace.
    #[error("mutate changed the object's key from {before} to {after}")]
    MutateChangedKey {
        /// The key before.
        before: String,
        /// The key after.
        after: String,
    },
    /// The mutate function failed.
    #[error("mutate of {object}: {source}")]
    Mutate {
        /// `namespace/name` of the object.
        object: String,
        /// Why.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The server refused a call.
    #[error(transparent)]
    Client(#[from] client::Error),
    /// The object could not be written as JSON for the patch.
    #[error("encoding {object} for a merge patch: {source}")]
    Encode {
        /// `namespace/name` of the object.
        object: String,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
}

fn meta_of(obj: &dyn Object) -> Result<&dyn ObjectMetaAccessor, ControllerUtilError> {
    obj.meta().ok_or(ControllerUtilError::NoMetadata {
        type_name: obj.type_name(),
    })
}

fn meta_mut_of(obj: &mut dyn Object) -> Result<&mut dyn ObjectMetaAccessor, ControllerUtilError> {
    let type_name = obj.type_name();
    obj.meta_mut()
        .ok_or(ControllerUtilError::NoMetadata { type_name })
}

fn key_of(meta: &dyn ObjectMetaAccessor) -> String {
    if meta.namespace().is_empty() {
        meta.name().to_owned()
    } else {
        format!("{}/{}", meta.namespace(), meta.name())
    }
}

/// The kind of `obj` through the Scheme (Go's `apiutil.GVKForObject`).
fn gvk_for_object(
    obj: &dyn Object,
    scheme: &Scheme,
) -> Result<GroupVersionKind, ControllerUtilError> {
    let (kinds, _) = scheme
        .object_kinds(obj)
        .map_err(ControllerUtilError::OwnerKind)?;
    match &kinds[..] {
        [one] => Ok(one.clone()),
        many => {
            let own = obj.group_version_kind();
            if many.contains(&own) {
                Ok(own)
            } else {
                Err(ControllerUtilError::AmbiguousOwnerKind {
                    type_name: obj.type_name(),
                    kinds: many
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", "),
                })
            }
        }
    }
}

/// Go's `validateOwner`: a namespaced owner only for objects of its namespace.
fn validate_owner(
    owner: &dyn ObjectMetaAccessor,
    object: &dyn ObjectMetaAccessor,
) -> Result<(), ControllerUtilError> {
    let owner_ns = owner.namespace();
    if owner_ns.is_empty() {
        return Ok(());
    }
    if object.namespace().is_empty() {
        return Err(ControllerUtilError::ClusterScopedObjectNamespacedOwner {
            owner_namespace: owner_ns.to_owned(),
        });
    }
    if owner_ns != object.namespace() {
        return Err(ControllerUtilError::CrossNamespace {
            owner_namespace: owner_ns.to_owned(),
            object_namespace: object.namespace().to_owned(),
        });
    }
    Ok(())
}

fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(g, _)| g)
}

/// Go's `referSameObject`: same group (any version), kind and name.
fn refer_same_object(a: &OwnerReference, b: &OwnerReference) -> bool {
    group_of(&a.api_version) == group_of(&b.api_version) && a.kind == b.kind && a.name == b.name
}

fn owner_reference(
    owner: &dyn Object,
    scheme: &Scheme,
) -> Result<OwnerReference, ControllerUtilError> {
    let gvk = gvk_for_object(owner, scheme)?;
    let meta = meta_of(owner)?;
    let (api_version, kind) = gvk.to_api_version_and_kind();
    Ok(OwnerReference {
        api_version,
        kind: kind.to_owned(),
        name: meta.name().to_owned(),
        uid: meta.uid().to_owned(),
        controller: None,
        block_owner_deletion: None,
    })
}

fn upsert_owner_ref(object: &mut dyn ObjectMetaAccessor, reference: OwnerReference) {
    let mut refs = object.owner_references();
    match refs.iter_mut().find(|r| refer_same_object(r, &reference)) {
        Some(existing) => *existing = reference,
        None => refs.push(reference),
    }
    object.set_owner_references(refs);
}

/// Makes `owner` an owner of `object` (not its controller): garbage collection deletes
/// `object` with its owner. An existing reference to the same owner is replaced.
pub fn set_owner_reference(
    owner: &dyn Object,
    object: &mut dyn Object,
    scheme: &Scheme,
) -> Result<(), ControllerUtilError> {
    validate_owner(meta_of(owner)?, meta_of(object)?)?;
    let reference = owner_reference(owner, scheme)?;
    upsert_owner_ref(meta_mut_of(object)?, reference);
    Ok(())
}

/// Makes `owner` the controller of `object` (`controller: true`,
/// `blockOwnerDeletion: true`); refuses when another object already controls it.
pub fn set_controller_reference(
    owner: &dyn Object,
    object: &mut dyn Object,
    scheme: &Scheme,
) -> Result<(), ControllerUtilError> {
    let object_meta = meta_of(object)?;
    validate_owner(meta_of(owner)?, object_meta)?;
    let mut reference = owner_reference(owner, scheme)?;
    reference.controller = Some(true);
    reference.block_owner_deletion = Some(true);
    if let Some(existing) = object_meta
        .owner_references()
        .into_iter()
        .find(|r| r.controller == Some(true))
    {
        if !refer_same_object(&existing, &reference) {
            return Err(ControllerUtilError::AlreadyOwned {
                object: key_of(object_meta),
                kind: existing.kind,
                name: existing.name,
            });
        }
    }
    upsert_owner_ref(meta_mut_of(object)?, reference);
    Ok(())
}

/// Removes `owner`'s reference from `object`; whether there was one.
pub fn remove_owner_reference(
    owner: &dyn Object,
    object: &mut dyn Object,
    scheme: &Scheme,
) -> Result<bool, ControllerUtilError> {
    let reference = owner_reference(owner, scheme)?;
    let meta = meta_mut_of(object)?;
    let mut refs = meta.owner_references();
    let before = refs.len();
    refs.retain(|r| !refer_same_object(r, &reference));
    let removed = refs.len() != before;
    meta.set_owner_references(refs);
    Ok(removed)
}

/// Whether `object` has a controller reference (Go's `HasControllerReference`).
pub fn has_controller_reference(object: &dyn Object) -> bool {
    object.meta().is_some_and(|m| {
        m.owner_references()
            .iter()
            .any(|r| r.controller == Some(true))
    })
}

/// Whether `object` lists `finalizer`.
pub fn contains_finalizer(object: &dyn Object, finalizer: &str) -> bool {
    object
        .meta()
        .is_some_and(|m| m.finalizers().iter().any(|f| f == finalizer))
}

/// Adds `finalizer` unless present; whether the object changed (so whether to update).
pub fn add_finalizer(object: &mut dyn Object, finalizer: &str) -> bool {
    let Some(meta) = object.meta_mut() else {
        return false;
    };
    let mut finalizers = meta.finalizers();
    if finalizers.iter().any(|f| f == finalizer) {
        return false;
    }
    finalizers.push(finalizer.to_owned());
    meta.set_finalizers(finalizers);
    true
}

/// Removes every occurrence of `finalizer`; whether the object changed.
pub fn remove_finalizer(object: &mut dyn Object, finalizer: &str) -> bool {
    let Some(meta) = object.meta_mut() else {
        return false;
    };
    let mut finalizers = meta.finalizers();
    let before = finalizers.len();
    finalizers.retain(|f| f != finalizer);
    if finalizers.len() == before {
        return false;
    }
    meta.set_finalizers(finalizers);
    true
}

fn mutate_checked<T: Object, E>(
    obj: &mut T,
    key: &ObjectKey,
    mutate: impl FnOnce(&mut T) -> Result<(), E>,
) -> Result<(), ControllerUtilError>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let label = if key.namespace.is_empty() {
        key.name.clone()
    } else {
        format!("{}/{}", key.namespace, key.name)
    };
    mutate(obj).map_err(|e| ControllerUtilError::Mutate {
        object: label.clone(),
        source: Box::new(e),
    })?;
    let after = ObjectKey::of(obj);
    if after != *key {
        return Err(ControllerUtilError::MutateChangedKey {
            before: label,
            after: format!("{}/{}", after.namespace, after.name),
        });
    }
    Ok(())
}

/// Reads the object `obj` names; creates it (after `mutate`) when absent, otherwise
/// applies `mutate` to what the server has and updates when that changed anything (Go's
/// `CreateOrUpdate`). `obj` ends as the server's object.
pub async fn create_or_update<T, E>(
    client: &Client,
    obj: &mut T,
    mutate: impl FnOnce(&mut T) -> Result<(), E>,
) -> Result<OperationResult, ControllerUtilError>
where
    T: Object + Default + Clone + PartialEq,
    E: std::error::Error + Send + Sync + 'static,
{
    let key = ObjectKey::of(obj);
    match client.get::<T>(&key).await {
        Err(e) if e.is_not_found() => {
            mutate_checked(obj, &key, mutate)?;
            *obj = client.create(obj, &Default::default()).await?;
            Ok(OperationResult::Created)
        }
        Err(e) => Err(e.into()),
        Ok(existing) => {
            *obj = existing.clone();
            mutate_checked(obj, &key, mutate)?;
            if *obj == existing {
                return Ok(OperationResult::None);
            }
            *obj = client.update(obj, &Default::default()).await?;
            Ok(OperationResult::Updated)
        }
    }
}

/// [`create_or_update`] with JSON merge patches instead of an update (Go's
/// `CreateOrPatch`): only what `mutate` changed is sent, so concurrent writers of other
/// fields do not conflict; a changed `status` goes to the status subresource.
pub async fn create_or_patch<T, E>(
    client: &Client,
    obj: &mut T,
    mutate: impl FnOnce(&mut T) -> Result<(), E>,
) -> Result<OperationResult, ControllerUtilError>
where
    T: Object + Default + Clone,
    E: std::error::Error + Send + Sync + 'static,
{
    let key = ObjectKey::of(obj);
    let existing = match client.get::<T>(&key).await {
        Err(e) if e.is_not_found() => {
            mutate_checked(obj, &key, mutate)?;
            *obj = client.create(obj, &Default::default()).await?;
            return Ok(OperationResult::Created);
        }
        Err(e) => return Err(e.into()),
        Ok(existing) => existing,
    };
    let label = format!("{}/{}", key.namespace, key.name);
    let encode = |o: &T| {
        serde_json::to_value(o as &dyn Object).map_err(|source| ControllerUtilError::Encode {
            object: label.clone(),
            source,
        })
    };
    let mut before = encode(&existing)?;
    *obj = existing;
    mutate_checked(obj, &key, mutate)?;
    let mut after = encode(obj)?;
    let status_before = before.as_object_mut().and_then(|m| m.remove("status"));
    let status_after = after.as_object_mut().and_then(|m| m.remove("status"));
    let mut result = OperationResult::None;
    if let Some(patch) = merge_patch(&before, &after) {
        *obj = client
            .patch(obj, &Patch::Merge(patch), &Default::default())
            .await?;
        result = OperationResult::Updated;
    }
    if let (Some(b), Some(a)) = (&status_before, &status_after) {
        if let Some(patch) = merge_patch(b, a) {
            let body = serde_json::json!({ "status": patch });
            *obj = client
                .status()
                .patch(obj, &Patch::Merge(body), &Default::default())
                .await?;
            result = if result == OperationResult::Updated {
                OperationResult::UpdatedStatus
            } else {
                OperationResult::UpdatedStatusOnly
            };
        }
    }
    Ok(result)
}

/// The RFC 7386 merge patch turning `before` into `after`; `None` when they are equal.
fn merge_patch(before: &Value, after: &Value) -> Option<Value> {
    if before == after {
        return None;
    }
    match (before, after) {
        (Value::Object(b), Value::Object(a)) => {
            let mut patch = serde_json::Map::new();
            for (k, bv) in b {
                match a.get(k) {
                    None => {
                        patch.insert(k.clone(), Value::Null);
                    }
                    Some(av) => {
                        if let Some(p) = merge_patch(bv, av) {
                            patch.insert(k.clone(), p);
                        }
                    }
                }
            }
            for (k, av) in a {
                if !b.contains_key(k) {
                    patch.insert(k.clone(), av.clone());
                }
            }
            Some(Value::Object(patch))
        }
        // Arrays and scalars are replaced whole; a null in `after` would read as a
        // deletion, which is what it means here too.
        _ => Some(after.clone()),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use k8s_types::apps::v1::{Deployment, ReplicaSet};
    use k8s_types::core::v1::{Namespace, Pod};

    fn scheme() -> Scheme {
        let mut s = Scheme::new();
        k8s_types::register(&mut s).unwrap();
        s
    }

    fn rs(name: &str, ns: &str) -> ReplicaSet {
        let mut r = ReplicaSet::default();
        r.metadata.name = name.into();
        r.metadata.namespace = ns.into();
        r.metadata.uid = format!("uid-{name}");
        r
    }

    #[test]
    fn controller_reference_refusals() {
        let s = scheme();
        let mut pod = Pod::default();
        pod.metadata.namespace = "a".into();
        pod.metadata.name = "p".into();
        set_controller_reference(&rs("one", "a"), &mut pod, &s).unwrap();
        let r = &pod.metadata.owner_references[0];
        assert_eq!(
            (r.api_version.as_str(), r.kind.as_str(), r.uid.as_str()),
            ("apps/v1", "ReplicaSet", "uid-one")
        );
        assert_eq!(
            (r.controller, r.block_owner_deletion),
            (Some(true), Some(true))
        );
        // The same owner again replaces, not duplicates.
        set_controller_reference(&rs("one", "a"), &mut pod, &s).unwrap();
        assert_eq!(pod.metadata.owner_references.len(), 1);
        // Another controller: AlreadyOwned.
        let err = set_controller_reference(&rs("two", "a"), &mut pod, &s).unwrap_err();
        assert!(
            matches!(err, ControllerUtilError::AlreadyOwned { ref name, .. } if name == "one"),
            "{err}"
        );
        // A plain owner reference is fine next to it.
        let mut d = Deployment::default();
        d.metadata.name = "d".into();
        d.metadata.namespace = "a".into();
        set_owner_reference(&d, &mut pod, &s).unwrap();
        assert_eq!(pod.metadata.owner_references.len(), 2);
        assert!(remove_owner_reference(&d, &mut pod, &s).unwrap());
        assert!(has_controller_reference(&pod));

        let err = set_owner_reference(&rs("x", "b"), &mut pod, &s).unwrap_err();
        assert!(matches!(err, ControllerUtilError::CrossNamespace { .. }));
        let mut ns = Namespace::default();
        ns.metadata.name = "cluster-wide".into();
        let err = set_owner_reference(&rs("x", "b"), &mut ns, &s).unwrap_err();
        assert!(matches!(
            err,
            ControllerUtilError::ClusterScopedObjectNamespacedOwner { .. }
        ));
        // A cluster-scoped owner may own a namespaced object.
        set_owner_reference(&ns, &mut pod, &s).unwrap();
    }

    #[test]
    fn finalizers_report_changes() {
        let mut pod = Pod::default();
        assert!(add_finalizer(&mut pod, "f"));
        assert!(!add_finalizer(&mut pod, "f"));
        assert!(contains_finalizer(&pod, "f"));
        assert!(remove_finalizer(&mut pod, "f"));
        assert!(!remove_finalizer(&mut pod, "f"));
        assert!(!contains_finalizer(&pod, "f"));
    }

    #[test]
    fn merge_patch_of_changes() {
        let b = serde_json::json!({"a": 1, "b": {"c": 2, "d": 3}, "e": [1]});
        let a = serde_json::json!({"a": 1, "b": {"c": 5}, "e": [1, 2], "f": "new"});
        assert_eq!(
            merge_patch(&b, &a).unwrap(),
            serde_json::json!({"b": {"c": 5, "d": null}, "e": [1, 2], "f": "new"})
        );
        assert_eq!(merge_patch(&a, &a), None);
    }
}
