//! A terminating Namespace's content deleted (Go's `pkg/controller/namespace/deletion`
//! `namespacedResourcesDeleter`): every namespaced resource discovery lists that
//! supports `delete`, custom ones included, is emptied (one `deletecollection` where the
//! resource supports it, else a delete per object, always with background
//! propagation), Pods first (Go's `OrderedNamespaceDeletion`, GA in 1.34); what remains
//! is counted into the Namespace's conditions; once nothing remains, the `kubernetes`
//! finalizer is removed through `/finalize`, which lets the server delete the Namespace.

use std::collections::BTreeMap;
use std::time::Duration;

use apimachinery::apis::meta::v1::{APIResource, Time};
use apimachinery::schema::{GroupVersionKind, GroupVersionResource, parse_group_version};
use controller_runtime::client::{
    Client, DeleteOptions, ListOptions, ObjectKey, PropagationPolicy,
};
use k8s_types::core::v1::{Namespace, Pod};

use super::conditions::ConditionUpdater;

/// The finalizer this controller removes (Go's `v1.FinalizerKubernetes`).
pub const FINALIZER_KUBERNETES: &str = "kubernetes";

/// How long to wait for objects held by finalizers before looking again (Go's
/// `finalizerEstimateSeconds`).
const FINALIZER_ESTIMATE_SECONDS: i64 = 15;

/// Why a Namespace is not finalized yet.
#[derive(Debug, thiserror::Error)]
pub enum DeletionError {
    /// Content remains that should go by itself within about this long (Go's
    /// `ResourcesRemainingError`): look again then.
    #[error("some content remains in the namespace, estimate {0} seconds before it is removed")]
    ResourcesRemaining(i64),
    /// A request failed, or content could not be deleted.
    #[error("{0}")]
    Failed(String),
    /// The client failed.
    #[error(transparent)]
    Client(#[from] controller_runtime::client::Error),
}

/// What remains of one resource after a pass (Go's `gvrDeletionMetadata`).
#[derive(Debug, Default)]
struct Remaining {
    estimate: i64,
    count: usize,
    by_finalizer: BTreeMap<String, usize>,
}

/// What remains of all resources (Go's `allGVRDeletionMetadata`), and the longest
/// estimate.
#[derive(Debug, Default)]
struct Totals {
    estimate: i64,
    by_resource: Vec<(String, usize)>,
    by_finalizer: BTreeMap<String, usize>,
}

impl Totals {
    fn add(&mut self, gvr: &GroupVersionResource, r: &Remaining) {
        self.estimate = self.estimate.max(r.estimate);
        if r.count > 0 {
            // `pods.` for the core group, as Go prints it.
            let resource = format!("{}.{}", gvr.resource, gvr.group);
            self.by_resource.push((resource, r.count));
            for (f, n) in &r.by_finalizer {
                *self.by_finalizer.entry(f.clone()).or_default() += n;
            }
        }
    }
}

/// Deletes Namespaces' content as `client` (Go's `NamespacedResourcesDeleter`).
#[derive(Clone, Debug)]
pub struct NamespacedResourcesDeleter {
    client: Client,
}

fn background() -> DeleteOptions {
    DeleteOptions {
        propagation_policy: Some(PropagationPolicy::Background),
        ..Default::default()
    }
}

impl NamespacedResourcesDeleter {
    /// A deleter talking through `client`.
    pub fn new(client: Client) -> Self {
        Self { client }
    }

    /// Go's `Delete`: the Namespace named is marked `Terminating` when it is being
    /// deleted, its content deleted, and once none remains its `kubernetes` finalizer
    /// removed. Nothing to do for a Namespace gone, not deleted, or finalized.
    pub async fn delete(&self, name: &str) -> Result<(), DeletionError> {
        let key = ObjectKey::cluster(name);
        let mut ns: Namespace = match self.client.get(&key).await {
            Ok(ns) => ns,
            Err(e) if e.is_not_found() => return Ok(()),
            Err(e) => return Err(e.into()),
        };
        if ns.metadata.deletion_timestamp.is_none() {
            return Ok(());
        }
        // Go's updateNamespaceStatusFunc, retried on conflicts.
        while ns.status.phase != "Terminating" {
            let mut terminating = ns.clone();
            terminating.status.phase = "Terminating".into();
            match self
                .client
                .status()
                .update(&terminating, &Default::default())
                .await
            {
                Ok(updated) => ns = updated,
                Err(e) if e.is_not_found() => return Ok(()),
                Err(e) if e.is_conflict() => ns = self.reread(&ns).await?,
                Err(e) => return Err(e.into()),
            }
        }
        if ns.spec.finalizers.is_empty() {
            return Ok(());
        }
        let estimate = self.delete_all_content(&mut ns).await?;
        if estimate > 0 {
            return Err(DeletionError::ResourcesRemaining(estimate));
        }
        self.finalize(ns).await
    }

    /// The Namespace again after a conflict; an error when it was replaced meanwhile.
    async fn reread(&self, ns: &Namespace) -> Result<Namespace, DeletionError> {
        let latest: Namespace = self
            .client
            .get(&ObjectKey::cluster(&ns.metadata.name))
            .await?;
        if latest.metadata.uid != ns.metadata.uid {
            return Err(DeletionError::Failed(
                "namespace uid has changed across retries".into(),
            ));
        }
        Ok(latest)
    }

    /// Go's `finalizeNamespace`: `spec.finalizers` without ours, written to `/finalize`.
    async fn finalize(&self, mut ns: Namespace) -> Result<(), DeletionError> {
        loop {
            let mut finalize = ns.clone();
            let mut rest: Vec<String> = ns
                .spec
                .finalizers
                .iter()
                .filter(|f| *f != FINALIZER_KUBERNETES)
                .cloned()
                .collect();
            rest.sort();
            rest.dedup();
            finalize.spec.finalizers = rest;
            let written = self
                .client
                .sub_resource("finalize")
                .update(&finalize, &Default::default())
                .await;
            match written {
                Ok(_) => return Ok(()),
                Err(e) if e.is_not_found() => return Ok(()),
                Err(e) if e.is_conflict() => ns = self.reread(&ns).await?,
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Go's `deleteAllContent`: one pass over every deletable namespaced resource; the
    /// conditions written when they changed; the longest estimate of what remains.
    async fn delete_all_content(&self, ns: &mut Namespace) -> Result<i64, DeletionError> {
        let name = ns.metadata.name.clone();
        let deleted_at = ns.metadata.deletion_timestamp.unwrap_or_else(Time::now);
        let mut errors: Vec<String> = Vec::new();
        let mut conditions = ConditionUpdater::default();
        let discovered = match self
            .client
            .discovery()
            .server_preferred_namespaced_resources()
            .await
        {
            Ok(found) => {
                if !found.failed.groups.is_empty() {
                    let e = found.failed.to_string();
                    conditions.process_discover_resources_err(found.failed.groups.len(), &e);
                    errors.push(e);
                }
                found
            }
            Err(e) => {
                conditions.process_discover_resources_err(0, &e.to_string());
                errors.push(e.to_string());
                Default::default()
            }
        };
        for list in &discovered.lists {
            if let Err(e) = parse_group_version(&list.group_version) {
                conditions.process_group_version_err(&e.to_string());
                errors.push(e.to_string());
            }
        }
        let mut resources: Vec<(GroupVersionResource, APIResource)> = discovered
            .supporting(&["delete"])
            .into_iter()
            .map(|(gvr, r)| (gvr, r.clone()))
            .collect();
        let mut totals = Totals::default();
        // Pods first; nothing else goes while some remain.
        let pods = resources.iter().position(|(gvr, _)| {
            gvr.group.is_empty() && gvr.version == "v1" && gvr.resource == "pods"
        });
        if let Some(i) = pods {
            let (gvr, resource) = resources.remove(i);
            match self
                .delete_resource(&gvr, &resource, &name, deleted_at)
                .await
            {
                Ok(r) => totals.add(&gvr, &r),
                Err((r, e)) => {
                    totals.add(&gvr, &r);
                    let e = format!("failed to delete pods for namespace: {name}, err: {e}");
                    conditions.process_delete_content_err(e.clone());
                    errors.push(e);
                }
            }
            if !totals.by_resource.is_empty() {
                self.write_conditions(ns, conditions).await;
                return finish(totals.estimate, errors);
            }
        }
        for (gvr, resource) in &resources {
            match self.delete_resource(gvr, resource, &name, deleted_at).await {
                Ok(r) => totals.add(gvr, &r),
                Err((r, e)) => {
                    totals.add(gvr, &r);
                    conditions.process_delete_content_err(e.clone());
                    errors.push(e);
                }
            }
        }
        let by_finalizer: Vec<(String, usize)> = totals.by_finalizer.into_iter().collect();
        conditions.process_content_totals(&totals.by_resource, &by_finalizer);
        self.write_conditions(ns, conditions).await;
        finish(totals.estimate, errors)
    }

    /// The conditions written to the Namespace's status when they changed (a failure
    /// is logged, as Go's).
    async fn write_conditions(&self, ns: &mut Namespace, conditions: ConditionUpdater) {
        if !conditions.update(&mut ns.status) {
            return;
        }
        match self.client.status().update(&*ns, &Default::default()).await {
            Ok(updated) => *ns = updated,
            Err(e) => tracing::warn!(
                namespace = %ns.metadata.name,
                "couldn't update status condition for namespace: {e}"
            ),
        }
    }

    /// Go's `deleteAllContentForGroupVersionResource`: one resource of the Namespace
    /// emptied, and what remains of it.
    async fn delete_resource(
        &self,
        gvr: &GroupVersionResource,
        resource: &APIResource,
        namespace: &str,
        deleted_at: Time,
    ) -> Result<Remaining, (Remaining, String)> {
        let gvk = GroupVersionKind::new(&gvr.group, &gvr.version, &resource.kind);
        let failed = |estimate: i64, e: String| {
            Err((
                Remaining {
                    estimate,
                    ..Default::default()
                },
                e,
            ))
        };
        let estimate = match self
            .estimate_graceful_termination(gvr, namespace, deleted_at)
            .await
        {
            Ok(estimate) => estimate,
            Err(e) => return failed(0, e.to_string()),
        };
        let supports = |verb: &str| resource.verbs().iter().any(|v| v == verb);
        let in_namespace = ListOptions::in_namespace(namespace);
        let mut collection_deleted = false;
        if supports("deletecollection") {
            match self
                .client
                .delete_collection(&gvk, &in_namespace, &background())
                .await
            {
                Ok(()) => collection_deleted = true,
                Err(e) if e.is_method_not_supported() || e.is_not_found() => {}
                Err(e) => return failed(estimate, e.to_string()),
            }
        }
        if !supports("list") {
            return Ok(Remaining {
                estimate,
                ..Default::default()
            });
        }
        if !collection_deleted {
            // Go's deleteEachItem.
            let items = match self.client.list_metadata(&gvk, &in_namespace).await {
                Ok(list) => list.items.unwrap_or_default(),
                Err(e) if e.is_method_not_supported() || e.is_not_found() => Vec::new(),
                Err(e) => return failed(estimate, e.to_string()),
            };
            for item in items {
                let key = ObjectKey::new(namespace, &item.metadata.name);
                match self.client.delete_by_key(&gvk, &key, &background()).await {
                    Ok(()) => {}
                    Err(e) if e.is_not_found() || e.is_method_not_supported() => {}
                    Err(e) => return failed(estimate, e.to_string()),
                }
            }
        }
        let left = match self.client.list_metadata(&gvk, &in_namespace).await {
            Ok(list) => list.items.unwrap_or_default(),
            Err(e) if e.is_method_not_supported() || e.is_not_found() => {
                return Ok(Remaining {
                    estimate,
                    ..Default::default()
                });
            }
            Err(e) => return failed(estimate, e.to_string()),
        };
        if left.is_empty() {
            return Ok(Remaining::default());
        }
        let mut by_finalizer: BTreeMap<String, usize> = BTreeMap::new();
        for item in &left {
            for f in &item.metadata.finalizers {
                *by_finalizer.entry(f.clone()).or_default() += 1;
            }
        }
        let remaining = |estimate| Remaining {
            estimate,
            count: left.len(),
            by_finalizer: by_finalizer.clone(),
        };
        if estimate != 0 {
            return Ok(remaining(estimate));
        }
        if !by_finalizer.is_empty() {
            return Ok(remaining(FINALIZER_ESTIMATE_SECONDS));
        }
        Err((
            remaining(estimate),
            format!("unexpected items still remain in namespace: {namespace} for gvr: {gvr}"),
        ))
    }

    /// Go's `estimateGracefulTermination`: for Pods, the longest grace period of those
    /// still running, while the Namespace has been going for less than that.
    async fn estimate_graceful_termination(
        &self,
        gvr: &GroupVersionResource,
        namespace: &str,
        deleted_at: Time,
    ) -> Result<i64, controller_runtime::client::Error> {
        if !(gvr.group.is_empty() && gvr.resource == "pods") {
            return Ok(0);
        }
        let pods = self
            .client
            .list::<Pod>(&ListOptions::in_namespace(namespace))
            .await?;
        let estimate = pods
            .items
            .iter()
            .filter(|p| !matches!(p.status.phase.as_str(), "Succeeded" | "Failed"))
            .filter_map(|p| p.spec.termination_grace_period_seconds)
            .max()
            .unwrap_or(0);
        let elapsed = Time::now().unix_seconds() - deleted_at.unix_seconds();
        Ok(if elapsed >= estimate { 0 } else { estimate })
    }
}

/// The pass's outcome: its errors (Go's aggregate), or the estimate.
fn finish(estimate: i64, errors: Vec<String>) -> Result<i64, DeletionError> {
    if errors.is_empty() {
        Ok(estimate)
    } else {
        Err(DeletionError::Failed(aggregate(&errors)))
    }
}

/// Go's `utilerrors.NewAggregate(...).Error()`: one error as it is, several in brackets.
fn aggregate(errors: &[String]) -> String {
    match errors {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

/// How long to wait before looking again at a Namespace whose content remains (Go's
/// namespace controller: half the estimate, plus a second).
pub fn requeue_after(estimate: i64) -> Duration {
    Duration::from_secs(u64::try_from(estimate / 2 + 1).unwrap_or(1))
}
