//! A scheduler for the simulated cluster: kube-scheduler's default profile reduced to
//! what applies to simulated Nodes. A Pod waiting for the default scheduler (no
//! `spec.nodeName`, `schedulerName` `default-scheduler`, no scheduling gates) is bound
//! (`pods/NAME/binding`, as kube-scheduler does) to the Node it [fits](fit) best
//! (`NodeUnschedulable`, `TaintToleration`, `NodeAffinity` with `nodeSelector`,
//! `NodeResourcesFit` against `allocatable`, scored by `LeastAllocated`). A Pod that fits
//! nowhere gets `PodScheduled=False`, reason `Unschedulable`, and kube-scheduler's
//! message (`0/3 nodes are available: 3 Insufficient cpu.`), and is tried again every
//! 2 seconds. Pods are scheduled one at a time, as kube-scheduler's scheduling cycle
//! runs; what each Node has taken is kept from the Pod informer's events and from the
//! bindings made ("assumed" Pods), so a Pod bound a moment ago counts before the
//! informer shows it.
//!
//! Left out of kube-scheduler: preemption (so no `nominatedNodeName`, and no
//! `preemption: ...` sentence after the message, which kube-scheduler's `PostFilter`
//! appends), priorities and the queue's ordering by them, inter-Pod affinity and
//! anti-affinity, topology spread constraints, host ports, volume filters, scores other
//! than `LeastAllocated` (Go's default profile also balances allocation and prefers
//! preferred node affinity and images; its ties are broken at random, here by name),
//! scheduling gates' removal events, and retrying unschedulable Pods on cluster events
//! (they are retried every 2 seconds instead).

pub mod fit;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use controller_runtime::builder::ControllerBuilder;
use controller_runtime::cache::ResourceEventHandlerFuncs;
use controller_runtime::client::ListOptions;
use controller_runtime::manager::Manager;
use controller_runtime::reconcile::{Action, ObjectReconciler};
use k8s_types::core::v1::{Binding, Node, Pod, PodCondition};

use crate::nodes::Clock;
use crate::status_update::update_status;
use crate::{ControllerContext, Error};
use fit::{NodeState, Resources};

/// The scheduler name Pods ask for by default.
pub const DEFAULT_SCHEDULER: &str = "default-scheduler";

/// How soon a Pod that fits nowhere is tried again.
const RETRY_UNSCHEDULABLE: Duration = Duration::from_secs(2);

/// The Pods on each Node, as far as the scheduler knows: by Pod UID, its Node and
/// requests.
#[derive(Default)]
struct Placements {
    pods: HashMap<String, (String, Resources)>,
    nodes: HashMap<String, (Resources, i64)>,
}

impl Placements {
    fn place(&mut self, uid: &str, node: &str, requests: Resources) {
        if self.pods.get(uid).is_some_and(|(n, _)| n == node) {
            return;
        }
        self.remove(uid);
        let entry = self.nodes.entry(node.to_owned()).or_default();
        entry.0.add(&requests);
        entry.1 += 1;
        self.pods
            .insert(uid.to_owned(), (node.to_owned(), requests));
    }

    fn remove(&mut self, uid: &str) {
        if let Some((node, requests)) = self.pods.remove(uid) {
            if let Some(entry) = self.nodes.get_mut(&node) {
                entry.0.sub(&requests);
                entry.1 -= 1;
            }
        }
    }

    /// Follows the informer: a bound Pod that has not finished takes room on its Node.
    fn observe(&mut self, pod: &Pod) {
        let uid = &pod.metadata.uid;
        if pod.spec.node_name.is_empty() || is_terminal(pod) {
            self.remove(uid);
        } else {
            self.place(uid, &pod.spec.node_name, fit::pod_requests(pod));
        }
    }
}

fn is_terminal(pod: &Pod) -> bool {
    matches!(pod.status.phase.as_str(), "Succeeded" | "Failed")
}

/// Whether the default scheduler is to place `pod`.
pub fn wants_scheduling(pod: &Pod) -> bool {
    pod.spec.node_name.is_empty()
        && pod.metadata.deletion_timestamp.is_none()
        && pod.spec.scheduling_gates.is_empty()
        && matches!(pod.spec.scheduler_name.as_str(), "" | DEFAULT_SCHEDULER)
        && !is_terminal(pod)
}

/// The scheduler's reconciler (one Pod at a time).
pub struct Scheduler {
    mgr: Arc<Manager>,
    placements: Arc<Mutex<Placements>>,
    clock: Clock,
}

fn lock(p: &Mutex<Placements>) -> MutexGuard<'_, Placements> {
    p.lock().unwrap_or_else(|e| e.into_inner())
}

/// The outcome of one scheduling attempt.
#[derive(Debug, PartialEq)]
pub enum Decision {
    /// The Node to bind to.
    Bind(String),
    /// Nothing fits: kube-scheduler's message.
    Unschedulable(String),
}

impl Scheduler {
    /// Picks a Node for `pod` among `nodes`.
    fn decide(&self, pod: &Pod, nodes: &[Arc<Node>]) -> Decision {
        let requests = fit::pod_requests(pod);
        let placements = lock(&self.placements);
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        let mut best: Option<(i64, i64, &str)> = None;
        for node in nodes {
            let mut state = NodeState::new(node);
            if let Some((requested, pods)) = placements.nodes.get(&node.metadata.name) {
                state.requested = requested.clone();
                state.pods = *pods;
            }
            let failed = fit::filter(pod, &requests, node, &state);
            if failed.is_empty() {
                let score = fit::least_allocated_score(&requests, &state);
                let candidate = (score, -state.pods, node.metadata.name.as_str());
                // Highest score, then fewest Pods, then the first name.
                let better = best.is_none_or(|(s, p, n)| {
                    (candidate.0, candidate.1) > (s, p)
                        || ((candidate.0, candidate.1) == (s, p) && candidate.2 < n)
                });
                if better {
                    best = Some(candidate);
                }
            }
            for reason in failed {
                *reasons.entry(reason).or_default() += 1;
            }
        }
        match best {
            Some((_, _, name)) => Decision::Bind(name.to_owned()),
            None => Decision::Unschedulable(fit::fit_error_message(nodes.len(), &reasons)),
        }
    }

    async fn mark_unschedulable(
        &self,
        pod: &Pod,
        message: String,
    ) -> controller_runtime::Result<()> {
        let current = pod
            .status
            .conditions
            .iter()
            .find(|c| c.r#type == "PodScheduled");
        if current.is_some_and(|c| {
            c.status == "False" && c.reason == "Unschedulable" && c.message == message
        }) {
            return Ok(());
        }
        let mut updated = pod.clone();
        let condition = PodCondition {
            r#type: "PodScheduled".into(),
            status: "False".into(),
            reason: "Unschedulable".into(),
            message,
            last_transition_time: match current {
                Some(c) if c.status == "False" => c.last_transition_time,
                _ => self.clock.now(),
            },
            ..PodCondition::default()
        };
        let conditions = &mut updated.status.conditions;
        match conditions.iter_mut().find(|c| c.r#type == "PodScheduled") {
            Some(c) => *c = condition,
            None => conditions.push(condition),
        }
        // Lost to a newer Pod or a deletion: the next attempt sees that one.
        update_status(&self.mgr, &updated).await.map(drop)
    }
}

impl ObjectReconciler<Pod> for Scheduler {
    async fn reconcile(&self, pod: Arc<Pod>) -> controller_runtime::Result<Action> {
        if !wants_scheduling(&pod) {
            return Ok(Action::done());
        }
        let nodes = self
            .mgr
            .client()
            .list::<Node>(&ListOptions::default())
            .await?;
        match self.decide(&pod, &nodes) {
            Decision::Bind(node) => {
                // Assumed at once, so the next Pod counts it.
                lock(&self.placements).place(&pod.metadata.uid, &node, fit::pod_requests(&pod));
                let mut binding = Binding::default();
                binding.metadata.name = pod.metadata.name.clone();
                binding.metadata.namespace = pod.metadata.namespace.clone();
                binding.metadata.uid = pod.metadata.uid.clone();
                binding.target.kind = "Node".into();
                binding.target.name = node;
                let bound = self
                    .mgr
                    .client()
                    .sub_resource("binding")
                    .create(&*pod, &binding, &Default::default())
                    .await;
                match bound {
                    Ok(_) => Ok(Action::done()),
                    // Bound or deleted meanwhile: the informer will tell.
                    Err(e) if e.is_conflict() || e.is_not_found() => {
                        lock(&self.placements).remove(&pod.metadata.uid);
                        Ok(Action::done())
                    }
                    Err(e) => {
                        lock(&self.placements).remove(&pod.metadata.uid);
                        Err(e.into())
                    }
                }
            }
            Decision::Unschedulable(message) => {
                self.mark_unschedulable(&pod, message).await?;
                Ok(Action::requeue_after(RETRY_UNSCHEDULABLE))
            }
        }
    }
}

/// The scheduler's name as a controller of the manager.
pub const NAME: &str = "simulated-scheduler";

/// Registers the scheduler on the context's manager.
pub(crate) fn start(context: &ControllerContext<'_>) -> Result<(), Error> {
    let (mgr, clock) = (context.manager, context.options.simulated_clock());
    let register = |message: String| Error::Register {
        controller: NAME,
        message,
    };
    let placements = Arc::new(Mutex::new(Placements::default()));
    let informer = mgr
        .cache()
        .get_informer::<Pod>()
        .map_err(|e| register(e.to_string()))?;
    let (add, update, delete) = (
        Arc::clone(&placements),
        Arc::clone(&placements),
        Arc::clone(&placements),
    );
    informer.add_event_handler(
        ResourceEventHandlerFuncs::<Pod>::new()
            .add_func(move |pod, _| lock(&add).observe(&pod))
            .update_func(move |_, pod| lock(&update).observe(&pod))
            .delete_func(move |pod| lock(&delete).remove(&pod.metadata.uid)),
    );
    ControllerBuilder::new(mgr)
        .named(NAME)
        .for_kind::<Pod>()
        .complete_object(Scheduler {
            mgr: Arc::clone(mgr),
            placements,
            clock,
        })
        .map_err(|e| register(e.to_string()))?;
    Ok(())
}
