//! What the collector's workers do (Go's `attemptToDeleteItem`,
//! `processDeletingDependentsItem` and `orphanDependents`), each object read live first.

use apimachinery::apis::meta::v1::{OwnerReference, Time};
use apimachinery::runtime::Unstructured;
use apimachinery::schema::{GroupVersionKind, parse_group_version};
use controller_runtime::client::{
    DeleteOptions, ObjectKey, Patch, Preconditions, PropagationPolicy,
};
use k8s_types::core::v1::{Event, EventSource, ObjectReference};
use k8s_types::meta::v1::PartialObjectMetadata;
use serde_json::json;

use super::graph::{FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN, Identity, Node};
use super::{GarbageCollector, Work, lock};

type Result<T = ()> = std::result::Result<T, controller_runtime::client::Error>;

/// The component Go's collector reports Events as.
const COMPONENT: &str = "garbage-collector-controller";

/// What an owner reference points at, read live (Go's `classifyReferences`).
enum Owner {
    /// There, and not waiting for its dependents.
    Solid,
    /// Absent (or another object of that name: another uid).
    Dangling,
    /// Being deleted in the foreground.
    WaitingForDependents,
}

fn gvk_of(reference: &OwnerReference) -> Option<GroupVersionKind> {
    let gv = parse_group_version(&reference.api_version).ok()?;
    Some(GroupVersionKind::new(
        &gv.group,
        &gv.version,
        &reference.kind,
    ))
}

impl GarbageCollector {
    async fn live(&self, id: &Identity) -> Result<Option<PartialObjectMetadata>> {
        let key = ObjectKey::new(&id.namespace, &id.name);
        match self.client.get_metadata(&id.gvk, &key).await {
            Ok(obj) if obj.metadata.uid == id.uid => Ok(Some(obj)),
            Ok(_) => Ok(None),
            Err(e) if e.is_not_found() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Go's `attemptToDeleteItem`.
    pub(super) async fn attempt_to_delete(&self, uid: &str) -> Result {
        let Some(node) = lock(&self.graph).get(uid).cloned() else {
            return Ok(());
        };
        if node.deleting_dependents() {
            return self.process_deleting_dependents(&node).await;
        }
        if node.being_deleted || node.owners.is_empty() {
            return Ok(());
        }
        let Some(live) = self.live(&node.identity).await? else {
            return Ok(());
        };
        let meta = &live.metadata;
        let deleting_dependents = meta
            .finalizers
            .iter()
            .any(|f| f == FINALIZER_DELETE_DEPENDENTS);
        if meta.deletion_timestamp.is_some() && !deleting_dependents {
            return Ok(());
        }
        let (mut solid, mut dangling, mut waiting) = (Vec::new(), Vec::new(), Vec::new());
        for reference in &meta.owner_references {
            match self.classify(&node, reference).await? {
                Some(Owner::Solid) => solid.push(reference),
                Some(Owner::Dangling) => dangling.push(reference),
                Some(Owner::WaitingForDependents) => waiting.push(reference),
                // Invalid (reported): no decision on it.
                None => return Ok(()),
            }
        }
        if !solid.is_empty() {
            if dangling.is_empty() && waiting.is_empty() {
                return Ok(());
            }
            // Still owned: only the references to owners going are removed.
            let gone: Vec<&str> = dangling
                .iter()
                .chain(&waiting)
                .map(|o| o.uid.as_str())
                .collect();
            return self
                .remove_owner_references(&node.identity, &live, &gone)
                .await;
        }
        let policy = if !waiting.is_empty() {
            PropagationPolicy::Foreground
        } else if meta.finalizers.iter().any(|f| f == FINALIZER_ORPHAN) {
            PropagationPolicy::Orphan
        } else if deleting_dependents {
            PropagationPolicy::Foreground
        } else {
            PropagationPolicy::Background
        };
        self.delete(&node.identity, policy).await
    }

    /// What one owner reference of `dependent` points at, or `None` when the reference
    /// is invalid (a cluster-scoped dependent naming a namespaced owner: reported).
    async fn classify(
        &self,
        dependent: &Node,
        reference: &OwnerReference,
    ) -> Result<Option<Owner>> {
        let Some(gvk) = gvk_of(reference) else {
            return Ok(Some(Owner::Dangling));
        };
        let mapping = match self.client.rest_mapping(&gvk).await {
            Ok(mapping) => mapping,
            // A kind the server does not serve: no such owner.
            Err(controller_runtime::client::Error::NoMapping { .. }) => {
                return Ok(Some(Owner::Dangling));
            }
            Err(e) => return Err(e),
        };
        let namespaced = mapping.scope.name() == apimachinery::meta::RESTScopeName::Namespace;
        if namespaced && dependent.identity.namespace.is_empty() {
            self.report_invalid_namespace(dependent, reference).await;
            return Ok(None);
        }
        let owner = Identity {
            gvk,
            namespace: if namespaced {
                dependent.identity.namespace.clone()
            } else {
                String::new()
            },
            name: reference.name.clone(),
            uid: reference.uid.clone(),
        };
        Ok(Some(match self.live(&owner).await? {
            None => Owner::Dangling,
            Some(o)
                if o.metadata.deletion_timestamp.is_some()
                    && o.metadata
                        .finalizers
                        .iter()
                        .any(|f| f == FINALIZER_DELETE_DEPENDENTS) =>
            {
                Owner::WaitingForDependents
            }
            Some(_) => Owner::Solid,
        }))
    }

    /// Go's `processDeletingDependentsItem`: an owner deleting in the foreground loses
    /// its finalizer once no blocking dependent remains; until then its dependents not
    /// yet going are deleted.
    async fn process_deleting_dependents(&self, owner: &Node) -> Result {
        let blocking = lock(&self.graph).blocking_dependents(owner);
        if blocking.is_empty() {
            return self
                .remove_finalizer(&owner.identity, FINALIZER_DELETE_DEPENDENTS)
                .await;
        }
        for dependent in blocking.iter().filter(|d| !d.being_deleted) {
            self.queue
                .add(Work::AttemptToDelete(dependent.identity.uid.clone()));
        }
        Ok(())
    }

    /// Go's `orphanDependents`: the owner's references removed from each dependent, then
    /// its `orphan` finalizer.
    pub(super) async fn orphan_dependents(&self, uid: &str) -> Result {
        let Some(owner) = lock(&self.graph).get(uid).cloned() else {
            return Ok(());
        };
        let dependents = lock(&self.graph).dependents(&owner);
        for dependent in dependents {
            if let Some(live) = self.live(&dependent.identity).await? {
                self.remove_owner_references(&dependent.identity, &live, &[uid])
                    .await?;
            }
        }
        self.remove_finalizer(&owner.identity, FINALIZER_ORPHAN)
            .await
    }

    /// Deletes the object with `policy`, on the condition that it is still the one seen.
    async fn delete(&self, id: &Identity, policy: PropagationPolicy) -> Result {
        let opts = DeleteOptions {
            propagation_policy: Some(policy),
            preconditions: Some(Preconditions {
                uid: Some(id.uid.clone()),
                ..Default::default()
            }),
            ..Default::default()
        };
        let key = ObjectKey::new(&id.namespace, &id.name);
        match self.client.delete_by_key(&id.gvk, &key, &opts).await {
            Err(e) if e.is_not_found() || e.is_conflict() => Ok(()),
            other => other,
        }
    }

    /// A merge patch of the object's metadata at the resourceVersion read, so that a
    /// concurrent change makes it fail (and be retried) rather than be lost.
    async fn patch_metadata(&self, id: &Identity, metadata: serde_json::Value) -> Result {
        let target = Unstructured::from_value(json!({
            "apiVersion": id.gvk.group_version().to_string(),
            "kind": id.gvk.kind.as_str(),
            "metadata": {"name": id.name, "namespace": id.namespace},
        }))
        .map_err(|e| controller_runtime::client::Error::Discovery {
            message: e.to_string(),
        })?;
        let patch = Patch::Merge(json!({ "metadata": metadata }));
        match self
            .client
            .patch(&target, &patch, &Default::default())
            .await
        {
            Ok(_) => Ok(()),
            Err(e) if e.is_not_found() => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Removes the references to `owners` from the object read as `live`.
    async fn remove_owner_references(
        &self,
        id: &Identity,
        live: &PartialObjectMetadata,
        owners: &[&str],
    ) -> Result {
        let kept: Vec<&OwnerReference> = live
            .metadata
            .owner_references
            .iter()
            .filter(|o| !owners.contains(&o.uid.as_str()))
            .collect();
        if kept.len() == live.metadata.owner_references.len() {
            return Ok(());
        }
        self.patch_metadata(
            id,
            json!({"ownerReferences": kept, "resourceVersion": live.metadata.resource_version, "uid": id.uid}),
        )
        .await
    }

    /// Removes `finalizer` from the object, read live.
    async fn remove_finalizer(&self, id: &Identity, finalizer: &str) -> Result {
        let Some(live) = self.live(id).await? else {
            return Ok(());
        };
        if !live.metadata.finalizers.iter().any(|f| f == finalizer) {
            return Ok(());
        }
        let kept: Vec<&String> = live
            .metadata
            .finalizers
            .iter()
            .filter(|f| *f != finalizer)
            .collect();
        self.patch_metadata(
            id,
            json!({"finalizers": kept, "resourceVersion": live.metadata.resource_version, "uid": id.uid}),
        )
        .await
    }

    /// Go's `OwnerRefInvalidNamespace` Warning Event on the dependent (core/v1, as Go's
    /// collector's recorder writes them); once per dependent and owner.
    async fn report_invalid_namespace(&self, dependent: &Node, reference: &OwnerReference) {
        let key = (dependent.identity.uid.clone(), reference.uid.clone());
        if !lock(&self.reported).insert(key) {
            return;
        }
        let id = &dependent.identity;
        let now = Time::now();
        let mut event = Event::default();
        event.metadata.name = format!(
            "{}.{:x}",
            id.name,
            now.unix_seconds() * 1_000_000_000 + i64::from(now.nanos())
        );
        event.metadata.namespace = if id.namespace.is_empty() {
            "default".into()
        } else {
            id.namespace.clone()
        };
        event.involved_object = ObjectReference {
            api_version: id.gvk.group_version().to_string(),
            kind: id.gvk.kind.to_string(),
            namespace: id.namespace.clone(),
            name: id.name.clone(),
            uid: id.uid.clone(),
            ..Default::default()
        };
        event.reason = "OwnerRefInvalidNamespace".into();
        event.message = format!(
            "ownerRef [{}/{}, namespace: {}, name: {}, uid: {}] does not exist in namespace {:?}",
            reference.api_version,
            reference.kind,
            id.namespace,
            reference.name,
            reference.uid,
            id.namespace
        );
        event.r#type = "Warning".into();
        event.source = EventSource {
            component: COMPONENT.into(),
            ..Default::default()
        };
        event.count = 1;
        event.first_timestamp = now;
        event.last_timestamp = now;
        if let Err(e) = self.client.create(&event, &Default::default()).await {
            tracing::warn!("garbage collector: recording OwnerRefInvalidNamespace: {e}");
        }
    }
}
