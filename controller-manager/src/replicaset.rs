//! The ReplicaSet controller (Go's `pkg/controller/replicaset`): keeps `spec.replicas`
//! active Pods for each ReplicaSet, made from its template and controlled by it, and
//! reports `status` as Go computes it (`replicas`, `fullyLabeledReplicas`,
//! `readyReplicas`, `availableReplicas` after `minReadySeconds`, `terminatingReplicas`,
//! `observedGeneration`, the `ReplicaFailure` condition when creating or deleting Pods
//! fails).
//!
//! As Go's: Pods are created in slow-start batches (1, 2, 4, ...; a failing batch stops
//! the rest), at most 500 per sync (`burstReplicas`); the Pods deleted first are those
//! Go's `ActivePodsWithRanks` ranks first (unscheduled, then pending, then not ready,
//! then on a Node with more of this ReplicaSet's Pods, then ready for less time, then
//! restarted more, then newer); Pods created or deleted and not yet seen in the cache
//! are expected (Go's `ControllerExpectations`), so a sync does not act twice.
//!
//! Left out: adopting orphan Pods that match the selector and releasing owned Pods that
//! no longer match (Go's `ClaimPods`), and the Pod-deletion cost annotation
//! (`controller.kubernetes.io/pod-deletion-cost`).

use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use apimachinery::apis::meta::v1::Time;
use controller_runtime::builder::ControllerBuilder;
use controller_runtime::controller::Options as ControllerOptions;
use controller_runtime::manager::Manager;
use controller_runtime::reconcile::{Action, ObjectReconciler};
use k8s_types::apps::v1::{ReplicaSet, ReplicaSetCondition, ReplicaSetStatus};
use k8s_types::core::v1::Pod;

use crate::nodes::Clock;
use crate::pods;
use crate::status_update::update_status;
use crate::{ControllerContext, Error, names};

/// The most Pods created or deleted in one sync (Go's `BurstReplicas`).
pub const BURST_REPLICAS: usize = 500;

/// Pods created or deleted and not yet seen so in the cache.
#[derive(Default)]
struct Expectations {
    adds: HashSet<String>,
    deletes: HashSet<String>,
}

/// The ReplicaSet controller's reconciler.
pub struct ReplicaSetController {
    mgr: Arc<Manager>,
    clock: Clock,
    expectations: Mutex<HashMap<String, Expectations>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The order Pods are deleted in (Go's `ActivePodsWithRanks`, less first): `ranks` is
/// how many of the same owner's Pods share each Pod's Node.
pub fn deletion_order(pods: &mut [Arc<Pod>], now: &Time) {
    let mut on_node: HashMap<&str, i64> = HashMap::new();
    for p in pods.iter() {
        *on_node.entry(p.spec.node_name.as_str()).or_default() += 1;
    }
    let rank: HashMap<String, i64> = pods
        .iter()
        .map(|p| (p.metadata.uid.clone(), on_node[p.spec.node_name.as_str()]))
        .collect();
    let phase = |p: &Pod| match p.status.phase.as_str() {
        "Pending" | "" => 0,
        "Unknown" => 1,
        "Running" => 2,
        _ => 3,
    };
    let ready_for = |p: &Pod| {
        p.status
            .conditions
            .iter()
            .find(|c| c.r#type == "Ready" && c.status == "True")
            .map_or(0, |c| {
                now.unix_seconds() - c.last_transition_time.unix_seconds()
            })
    };
    let restarts = |p: &Pod| {
        p.status
            .container_statuses
            .iter()
            .map(|c| c.restart_count)
            .max()
            .unwrap_or(0)
    };
    pods.sort_by_key(|p| {
        (
            !p.spec.node_name.is_empty(),
            phase(p),
            pods::is_ready(p),
            Reverse(rank[&p.metadata.uid]),
            ready_for(p),
            Reverse(restarts(p)),
            Reverse(p.metadata.creation_timestamp),
        )
    });
}

/// Go's `calculateStatus`, without the `ReplicaFailure` condition.
pub fn calculate_status(rs: &ReplicaSet, owned: &[Arc<Pod>], now: &Time) -> ReplicaSetStatus {
    let mut status = rs.status.clone();
    let active: Vec<&Arc<Pod>> = owned.iter().filter(|p| pods::is_active(p)).collect();
    let template = &rs.spec.template.metadata.labels;
    status.replicas = count(active.len());
    status.fully_labeled_replicas = count(
        active
            .iter()
            .filter(|p| pods::has_labels(&p.metadata.labels, template))
            .count(),
    );
    status.ready_replicas = count(active.iter().filter(|p| pods::is_ready(p)).count());
    status.available_replicas = count(
        active
            .iter()
            .filter(|p| pods::is_available(p, rs.spec.min_ready_seconds, now))
            .count(),
    );
    status.terminating_replicas = Some(count(
        owned.iter().filter(|p| pods::is_terminating(p)).count(),
    ));
    status.observed_generation = rs.metadata.generation;
    status
}

fn count(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

impl ReplicaSetController {
    fn satisfied(&self, uid: &str, owned: &[Arc<Pod>]) -> bool {
        let mut all = lock(&self.expectations);
        let Some(e) = all.get_mut(uid) else {
            return true;
        };
        let live: HashSet<&str> = owned
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .map(|p| p.metadata.name.as_str())
            .collect();
        e.adds.retain(|n| !live.contains(n.as_str()));
        e.deletes.retain(|n| live.contains(n.as_str()));
        let done = e.adds.is_empty() && e.deletes.is_empty();
        if done {
            all.remove(uid);
        }
        done
    }

    /// Creates `want` Pods in slow-start batches; the first error stops the rest.
    async fn create_pods(&self, rs: &ReplicaSet, want: usize) -> Result<(), String> {
        let owner =
            pods::controller_ref("apps/v1", "ReplicaSet", &rs.metadata.name, &rs.metadata.uid);
        let pod = pods::from_template(
            &rs.spec.template,
            &rs.metadata.namespace,
            &format!("{}-", rs.metadata.name),
            owner,
        );
        pods::create_slow_start(&self.mgr, &pod, want, |name| {
            let mut all = lock(&self.expectations);
            all.entry(rs.metadata.uid.clone())
                .or_default()
                .adds
                .insert(name);
        })
        .await
        .map_err(|e| e.to_string())
    }

    async fn delete_pods(&self, rs: &ReplicaSet, victims: &[Arc<Pod>]) -> Result<(), String> {
        {
            let mut all = lock(&self.expectations);
            let e = all.entry(rs.metadata.uid.clone()).or_default();
            e.deletes
                .extend(victims.iter().map(|p| p.metadata.name.clone()));
        }
        let refs: Vec<&Pod> = victims.iter().map(|p| &**p).collect();
        let mut failed = None;
        for (pod, result) in refs.iter().zip(pods::delete_each(&self.mgr, &refs).await) {
            if let Err(e) = result {
                // Not deleted: no longer expected gone.
                if let Some(x) = lock(&self.expectations).get_mut(&rs.metadata.uid) {
                    x.deletes.remove(&pod.metadata.name);
                }
                failed = Some(e.to_string());
            }
        }
        failed.map_or(Ok(()), Err)
    }
}

impl ObjectReconciler<ReplicaSet> for ReplicaSetController {
    async fn reconcile(&self, rs: Arc<ReplicaSet>) -> controller_runtime::Result<Action> {
        let owned = pods::owned(
            &self.mgr,
            "ReplicaSet",
            &rs.metadata.namespace,
            &rs.metadata.uid,
        )
        .await?;
        let mut failure: Option<(&str, String)> = None;
        if rs.metadata.deletion_timestamp.is_none() && self.satisfied(&rs.metadata.uid, &owned) {
            let mut active: Vec<Arc<Pod>> = owned
                .iter()
                .filter(|p| pods::is_active(p))
                .cloned()
                .collect();
            let want = usize::try_from(rs.spec.replicas.unwrap_or(1)).unwrap_or(0);
            if active.len() < want {
                let n = (want - active.len()).min(BURST_REPLICAS);
                if let Err(e) = self.create_pods(&rs, n).await {
                    failure = Some(("FailedCreate", e));
                }
            } else if active.len() > want {
                let n = (active.len() - want).min(BURST_REPLICAS);
                deletion_order(&mut active, &self.clock.now());
                if let Err(e) = self.delete_pods(&rs, &active[..n]).await {
                    failure = Some(("FailedDelete", e));
                }
            }
        }
        let now = self.clock.now();
        let mut status = calculate_status(&rs, &owned, &now);
        let has_failure = status
            .conditions
            .iter()
            .any(|c| c.r#type == "ReplicaFailure");
        match &failure {
            Some((reason, message)) if !has_failure => {
                status.conditions.push(ReplicaSetCondition {
                    r#type: "ReplicaFailure".into(),
                    status: "True".into(),
                    reason: (*reason).into(),
                    message: message.clone(),
                    last_transition_time: now,
                });
            }
            None if has_failure => status.conditions.retain(|c| c.r#type != "ReplicaFailure"),
            _ => {}
        }
        if status != rs.status {
            let mut updated = (*rs).clone();
            updated.status = status;
            if let Some(action) = update_status(&self.mgr, &updated).await? {
                return Ok(action);
            }
        }
        if let Some((_, message)) = failure {
            return Err(controller_runtime::Error::other(message));
        }
        // A ready Pod becomes available after minReadySeconds: look again then.
        let soonest = owned
            .iter()
            .filter_map(|p| pods::seconds_until_available(p, rs.spec.min_ready_seconds, &now))
            .min();
        Ok(match soonest {
            Some(s) => Action::requeue_after(
                self.clock
                    .real_duration(Duration::from_secs(s.unsigned_abs())),
            ),
            None => Action::done(),
        })
    }

    async fn deleted(
        &self,
        _request: controller_runtime::reconcile::Request,
    ) -> controller_runtime::Result<Action> {
        Ok(Action::done())
    }
}

/// Registers the ReplicaSet controller on the context's manager (Go's `ConcurrentReplicaSetSyncs`, 5
/// workers).
pub(crate) fn start(context: &ControllerContext<'_>) -> Result<(), Error> {
    let (mgr, clock) = (context.manager, context.options.simulated_clock());
    let register = |message: String| Error::Register {
        controller: names::REPLICA_SET_CONTROLLER,
        message,
    };
    pods::index_by_controller(mgr, "ReplicaSet").map_err(|e| register(e.to_string()))?;
    ControllerBuilder::new(mgr)
        .named(names::REPLICA_SET_CONTROLLER)
        .for_kind::<ReplicaSet>()
        .owns::<Pod>()
        .with_options(ControllerOptions {
            max_concurrent_reconciles: 5,
            ..ControllerOptions::default()
        })
        .complete_object(ReplicaSetController {
            mgr: Arc::clone(mgr),
            clock,
            expectations: Mutex::default(),
        })
        .map_err(|e| register(e.to_string()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_types::core::v1::PodCondition;

    fn pod(name: &str, node: &str, phase: &str, ready: bool, created: i64) -> Arc<Pod> {
        let mut p = Pod::default();
        p.metadata.name = name.into();
        p.metadata.uid = name.into();
        p.metadata.creation_timestamp = Time::from_unix(created, 0);
        p.spec.node_name = node.into();
        p.status.phase = phase.into();
        if ready {
            p.status.conditions = vec![PodCondition {
                r#type: "Ready".into(),
                status: "True".into(),
                last_transition_time: Time::from_unix(created, 0),
                ..PodCondition::default()
            }];
        }
        Arc::new(p)
    }

    #[test]
    fn unscheduled_pending_and_unready_pods_go_first() {
        let mut pods = vec![
            pod("ready-old", "n2", "Running", true, 1),
            pod("ready-crowded", "n1", "Running", true, 1),
            pod("unready", "n1", "Running", false, 1),
            pod("pending", "n1", "Pending", false, 1),
            pod("unscheduled", "", "Pending", false, 1),
        ];
        deletion_order(&mut pods, &Time::from_unix(10, 0));
        let names: Vec<&str> = pods.iter().map(|p| p.metadata.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "unscheduled",
                "pending",
                "unready",
                "ready-crowded",
                "ready-old"
            ]
        );
        // Among equals, the Pod ready for less time goes first.
        let mut pods = vec![
            pod("old", "n1", "Running", true, 1),
            pod("new", "n2", "Running", true, 5),
        ];
        deletion_order(&mut pods, &Time::from_unix(10, 0));
        assert_eq!(pods[0].metadata.name, "new");
    }

    #[test]
    fn status_counts_as_go_does() {
        let mut rs = ReplicaSet::default();
        rs.metadata.generation = 3;
        rs.spec.min_ready_seconds = 10;
        let mut terminating = (*pod("t", "n1", "Running", true, 1)).clone();
        terminating.metadata.deletion_timestamp = Some(Time::from_unix(9, 0));
        let pods = vec![
            pod("a", "n1", "Running", true, 1),
            pod("b", "n1", "Running", true, 8),
            pod("c", "n1", "Pending", false, 1),
            pod("d", "n1", "Succeeded", false, 1),
            Arc::new(terminating),
        ];
        let s = calculate_status(&rs, &pods, &Time::from_unix(12, 0));
        assert_eq!(
            (
                s.replicas,
                s.fully_labeled_replicas,
                s.ready_replicas,
                s.available_replicas
            ),
            (3, 3, 2, 1)
        );
        assert_eq!(s.terminating_replicas, Some(1));
        assert_eq!(s.observed_generation, 3);
    }
}
