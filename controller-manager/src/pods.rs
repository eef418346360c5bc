//! What the workload controllers ask of the Pods they own (Go's `pkg/api/v1/pod` and
//! `pkg/controller` helpers): whether a Pod is active, ready, available; the Pods a
//! controller owns, found through a field index on the controller's UID; and a Pod made
//! from a template.

use std::collections::BTreeMap;
use std::sync::Arc;

use apimachinery::apis::meta::v1::{OwnerReference, Time};
use apimachinery::fields;
use controller_runtime::client::{CreateOptions, DeleteOptions, ListOptions};
use controller_runtime::manager::Manager;
use futures_util::future::join_all;
use k8s_types::core::v1::{Pod, PodTemplateSpec};

/// Go's `IsPodActive`: not finished and not being deleted.
pub fn is_active(pod: &Pod) -> bool {
    !is_terminal(pod) && pod.metadata.deletion_timestamp.is_none()
}

/// `Succeeded` or `Failed`.
pub fn is_terminal(pod: &Pod) -> bool {
    matches!(pod.status.phase.as_str(), "Succeeded" | "Failed")
}

/// Being deleted and not finished (Go's `terminatingReplicas` count).
pub fn is_terminating(pod: &Pod) -> bool {
    pod.metadata.deletion_timestamp.is_some() && !is_terminal(pod)
}

fn ready_since(pod: &Pod) -> Option<Time> {
    pod.status
        .conditions
        .iter()
        .find(|c| c.r#type == "Ready" && c.status == "True")
        .map(|c| c.last_transition_time)
}

/// Go's `IsPodReady`.
pub fn is_ready(pod: &Pod) -> bool {
    ready_since(pod).is_some()
}

/// Go's `IsPodAvailable`: ready for at least `min_ready_seconds` at `now`.
pub fn is_available(pod: &Pod, min_ready_seconds: i32, now: &Time) -> bool {
    match ready_since(pod) {
        None => false,
        Some(_) if min_ready_seconds <= 0 => true,
        Some(since) => {
            since.unix_seconds() + i64::from(min_ready_seconds) <= now.unix_seconds()
                && !since.is_zero()
        }
    }
}

/// When a ready Pod not yet available becomes so (for a requeue), in seconds from `now`.
pub fn seconds_until_available(pod: &Pod, min_ready_seconds: i32, now: &Time) -> Option<i64> {
    let since = ready_since(pod)?;
    let left = since.unix_seconds() + i64::from(min_ready_seconds) - now.unix_seconds();
    (left > 0).then_some(left)
}

/// The field index of Pods by their controller's kind and UID.
fn index_name(kind: &str) -> String {
    format!(".metadata.controller.{kind}")
}

/// Indexes Pods by the UID of their controller of `kind` (`ReplicaSet`, `Job`), for
/// [`owned`]. Only before the manager starts.
pub fn index_by_controller(mgr: &Manager, kind: &'static str) -> controller_runtime::Result<()> {
    mgr.cache()
        .index_field::<Pod>(&index_name(kind), move |pod: &Pod| {
            pod.metadata
                .owner_references
                .iter()
                .filter(|r| r.controller == Some(true) && r.kind == kind)
                .map(|r| r.uid.clone())
                .collect()
        })
        .map_err(controller_runtime::Error::Cache)
}

/// The Pods of `namespace` whose controller is the `kind` with `uid` (from the cache).
pub async fn owned(
    mgr: &Manager,
    kind: &str,
    namespace: &str,
    uid: &str,
) -> controller_runtime::Result<Vec<Arc<Pod>>> {
    let selector = fields::Selector::parse(&format!("{}={uid}", index_name(kind)))
        .map_err(|e| controller_runtime::Error::other(e.to_string()))?;
    let opts = ListOptions::in_namespace(namespace).with_fields(selector);
    mgr.client().list::<Pod>(&opts).await
}

/// A controller reference (`controller` and `blockOwnerDeletion` true).
pub fn controller_ref(api_version: &str, kind: &str, name: &str, uid: &str) -> OwnerReference {
    OwnerReference {
        api_version: api_version.into(),
        kind: kind.into(),
        name: name.into(),
        uid: uid.into(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// Go's `GetPodFromTemplate`: a Pod named `<prefix>` plus a random suffix, with the
/// template's labels, annotations, finalizers and spec, controlled by `owner`.
pub fn from_template(
    template: &PodTemplateSpec,
    namespace: &str,
    prefix: &str,
    owner: OwnerReference,
) -> Pod {
    let mut pod = Pod::default();
    pod.metadata.namespace = namespace.into();
    pod.metadata.generate_name = prefix.into();
    pod.metadata.labels = template.metadata.labels.clone();
    pod.metadata.annotations = template.metadata.annotations.clone();
    pod.metadata.finalizers = template.metadata.finalizers.clone();
    pod.metadata.owner_references = vec![owner];
    pod.spec = template.spec.clone();
    pod
}

/// Sizes of Go's slow-start batches for `total` creations: 1, 2, 4, ...
pub fn slow_start_batches(total: usize) -> Vec<usize> {
    let mut batches = Vec::new();
    let (mut left, mut size) = (total, 1);
    while left > 0 {
        let batch = size.min(left);
        batches.push(batch);
        left -= batch;
        size *= 2;
    }
    batches
}

/// Creates `n` Pods like `pod` in Go's slow-start batches (`slowStartBatch`: each batch
/// at once, a batch with a failure stops the rest); `created` is told each name the
/// server gave.
pub async fn create_slow_start(
    mgr: &Manager,
    pod: &Pod,
    n: usize,
    mut created: impl FnMut(String),
) -> controller_runtime::Result<()> {
    let (client, opts) = (mgr.client(), CreateOptions::default());
    for batch in slow_start_batches(n) {
        let results = join_all((0..batch).map(|_| client.create(pod, &opts))).await;
        let mut failed = None;
        for result in results {
            match result {
                Ok(pod) => created(pod.metadata.name),
                Err(e) => failed = failed.or(Some(e)),
            }
        }
        if let Some(e) = failed {
            return Err(e);
        }
    }
    Ok(())
}

/// Deletes `victims` at once; each one's outcome, a Pod already gone counting as
/// deleted.
pub async fn delete_each(mgr: &Manager, victims: &[&Pod]) -> Vec<controller_runtime::Result<()>> {
    let (client, opts) = (mgr.client(), DeleteOptions::default());
    join_all(victims.iter().map(|p| client.delete(*p, &opts)))
        .await
        .into_iter()
        .map(|result| match result {
            Err(e) if e.is_not_found() => Ok(()),
            other => other,
        })
        .collect()
}

/// Whether `labels` hold every pair of `wanted` (a template's labels as a selector).
pub fn has_labels(labels: &BTreeMap<String, String>, wanted: &BTreeMap<String, String>) -> bool {
    wanted.iter().all(|(k, v)| labels.get(k) == Some(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_types::core::v1::PodCondition;

    fn ready_pod(since: i64) -> Pod {
        let mut p = Pod::default();
        p.status.conditions = vec![PodCondition {
            r#type: "Ready".into(),
            status: "True".into(),
            last_transition_time: Time::from_unix(since, 0),
            ..PodCondition::default()
        }];
        p.status.phase = "Running".into();
        p
    }

    #[test]
    fn availability_waits_min_ready_seconds() {
        let p = ready_pod(100);
        assert!(is_available(&p, 0, &Time::from_unix(100, 0)));
        assert!(!is_available(&p, 10, &Time::from_unix(105, 0)));
        assert_eq!(
            seconds_until_available(&p, 10, &Time::from_unix(105, 0)),
            Some(5)
        );
        assert!(is_available(&p, 10, &Time::from_unix(110, 0)));
        assert!(!is_available(&Pod::default(), 0, &Time::from_unix(1, 0)));
    }

    #[test]
    fn batches_double() {
        assert_eq!(slow_start_batches(0), Vec::<usize>::new());
        assert_eq!(slow_start_batches(10), [1, 2, 4, 3]);
    }

    #[test]
    fn finished_and_deleted_pods_are_not_active() {
        let mut p = ready_pod(1);
        assert!(is_active(&p));
        p.metadata.deletion_timestamp = Some(Time::from_unix(2, 0));
        assert!(!is_active(&p) && is_terminating(&p));
        p.status.phase = "Succeeded".into();
        assert!(!is_terminating(&p));
    }
}
