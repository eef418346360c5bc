//! A kubelet stand-in for the simulated Nodes (what KWOK's stages do): a Pod bound to a
//! [simulated Node](crate::nodes) is started at once, its status written as Go's kubelet
//! writes a running Pod's ([`status`]): phase `Running`, every condition `True`,
//! containers running and ready, a Pod IP from the Node's Pod CIDR (the Node's IP for
//! `hostNetwork` Pods) and the Node's IP as host IP.
//!
//! **Pods that complete.** A container here runs no program, so how long it runs is
//! given: a Pod whose `restartPolicy` is `Never` or `OnFailure` (a Job's Pods) runs for
//! the annotation [`RUN_SECONDS`] simulated seconds (default: the kubelet options'
//! `run_seconds`, 1 second), then completes: `Succeeded`, or `Failed` when the
//! annotation [`EXIT_CODE`] gives a non-zero exit code (with `OnFailure`, Go's kubelet
//! would restart the container in place; here the Pod fails as with `Never`). A Pod
//! with `restartPolicy: Always` (a Deployment's) runs until deleted.
//!
//! **Deletion.** A Pod marked for deletion (`deletionTimestamp`, with
//! `deletionGracePeriodSeconds` from its `terminationGracePeriodSeconds`) is deleted
//! for good (`gracePeriodSeconds=0`, with its UID as precondition) once its grace
//! period has passed on the [clock](crate::nodes::Clock), as a container that ignores
//! `SIGTERM` would keep it; a sped-up clock shortens the wait.
//!
//! Left out of the kubelet: probes (containers are ready at once), container restarts
//! (`restartCount` stays 0), init containers run one by one (they are shown completed
//! at once), images (`imageID` and `containerID` are empty, as KWOK leaves them), Node
//! heartbeats and leases, eviction, resizes, ephemeral containers, and the `Terminating`
//! container states during the grace period.

pub mod status;

use std::collections::{BTreeSet, HashMap};
use std::net::Ipv4Addr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use apimachinery::apis::meta::v1::Time;
use controller_runtime::builder::ControllerBuilder;
use controller_runtime::client::{DeleteOptions, ObjectKey, Preconditions};
use controller_runtime::controller::Options as ControllerOptions;
use controller_runtime::manager::Manager;
use controller_runtime::reconcile::{Action, ObjectReconciler, Request};
use k8s_types::core::v1::{Node, Pod};

use crate::nodes::{self, Clock};
use crate::status_update::update_status;
use crate::{ControllerContext, Error};
use status::Outcome;

/// The annotation giving how many simulated seconds a Pod that completes runs.
pub const RUN_SECONDS: &str = "kapi/simulated-run-seconds";
/// The annotation giving the exit code a Pod that completes ends with (0: success).
pub const EXIT_CODE: &str = "kapi/simulated-exit-code";

/// How the simulated kubelet behaves.
#[derive(Clone, Copy, Debug)]
pub struct KubeletOptions {
    /// The clock of grace periods and run times.
    pub clock: Clock,
    /// How long a Pod that completes runs, in simulated seconds, without [`RUN_SECONDS`].
    pub run_seconds: i64,
}

impl Default for KubeletOptions {
    fn default() -> Self {
        KubeletOptions {
            clock: Clock::real(),
            run_seconds: 1,
        }
    }
}

/// The Pod IPs in use on one Node (host parts 1 to 254 of its `/24`).
#[derive(Default)]
struct NodeIps {
    used: BTreeSet<u8>,
    by_pod: HashMap<String, u8>,
}

/// The kubelet stand-in's reconciler (one for every simulated Node).
pub struct Kubelet {
    mgr: Arc<Manager>,
    options: KubeletOptions,
    ips: Mutex<HashMap<String, NodeIps>>,
    /// When each Pod being deleted was first seen so, on the clock.
    deleting: Mutex<HashMap<String, Time>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn pod_key(pod: &Pod) -> String {
    format!("{}/{}", pod.metadata.namespace, pod.metadata.name)
}

fn node_index(node: &Node) -> Option<Ipv4Addr> {
    node.spec
        .pod_cidr
        .split('/')
        .next()
        .and_then(|ip| ip.parse().ok())
}

fn host_ip(node: &Node) -> String {
    node.status
        .addresses
        .iter()
        .find(|a| a.r#type == "InternalIP")
        .map(|a| a.address.clone())
        .unwrap_or_default()
}

impl Kubelet {
    /// A free IP of `node`'s Pod CIDR for the Pod `key` (the one it has, if any).
    fn allocate(&self, node: &Node, key: &str, current: &str) -> Option<String> {
        let network = node_index(node)?;
        let mut all = lock(&self.ips);
        let ips = all.entry(node.metadata.name.clone()).or_default();
        if let Some(host) = ips.by_pod.get(key) {
            return Some(Ipv4Addr::from(u32::from(network) + u32::from(*host)).to_string());
        }
        // An IP the Pod already shows (a restarted kubelet) is kept.
        let shown = current
            .parse::<Ipv4Addr>()
            .ok()
            .and_then(|ip| u32::from(ip).checked_sub(u32::from(network)))
            .and_then(|h| u8::try_from(h).ok())
            .filter(|h| (1..=254).contains(h) && !ips.used.contains(h));
        let host = shown.or_else(|| (1..=254u8).find(|h| !ips.used.contains(h)))?;
        ips.used.insert(host);
        ips.by_pod.insert(key.to_owned(), host);
        Some(Ipv4Addr::from(u32::from(network) + u32::from(host)).to_string())
    }

    fn release(&self, key: &str) {
        for ips in lock(&self.ips).values_mut() {
            if let Some(host) = ips.by_pod.remove(key) {
                ips.used.remove(&host);
            }
        }
    }

    async fn write_status(
        &self,
        pod: &Pod,
        status: k8s_types::core::v1::PodStatus,
    ) -> controller_runtime::Result<Action> {
        let mut updated = pod.clone();
        updated.status = status;
        Ok(update_status(&self.mgr, &updated)
            .await?
            .unwrap_or_else(Action::done))
    }

    async fn finish_deletion(&self, pod: &Pod) -> controller_runtime::Result<Action> {
        let uid = pod.metadata.uid.clone();
        let seen = *lock(&self.deleting)
            .entry(uid.clone())
            .or_insert_with(|| self.options.clock.now());
        let grace = pod.metadata.deletion_grace_period_seconds.unwrap_or(0);
        let left = self.options.clock.until(&seen, grace);
        if !left.is_zero() {
            return Ok(Action::requeue_after(left));
        }
        let opts = DeleteOptions {
            grace_period_seconds: Some(0),
            preconditions: Some(Preconditions {
                uid: Some(uid.clone()),
                resource_version: None,
            }),
            ..DeleteOptions::default()
        };
        match self.mgr.client().delete(pod, &opts).await {
            Err(e) if !(e.is_not_found() || e.is_conflict()) => return Err(e),
            _ => {}
        }
        lock(&self.deleting).remove(&uid);
        Ok(Action::done())
    }

    fn run_seconds(&self, pod: &Pod) -> i64 {
        pod.metadata
            .annotations
            .get(RUN_SECONDS)
            .and_then(|v| v.trim().parse::<i64>().ok())
            .filter(|s| *s >= 0)
            .unwrap_or(self.options.run_seconds)
    }
}

fn completes(pod: &Pod) -> bool {
    matches!(pod.spec.restart_policy.as_str(), "Never" | "OnFailure")
}

fn outcome(pod: &Pod) -> Outcome {
    match pod
        .metadata
        .annotations
        .get(EXIT_CODE)
        .and_then(|v| v.trim().parse::<i32>().ok())
    {
        Some(code) if code != 0 => Outcome::Failed(code),
        _ => Outcome::Succeeded,
    }
}

impl ObjectReconciler<Pod> for Kubelet {
    async fn reconcile(&self, pod: Arc<Pod>) -> controller_runtime::Result<Action> {
        if pod.spec.node_name.is_empty() {
            return Ok(Action::done());
        }
        let node = match self
            .mgr
            .client()
            .get::<Node>(&ObjectKey::new("", &pod.spec.node_name))
            .await
        {
            Ok(node) if nodes::is_simulated(&node) => node,
            Ok(_) => return Ok(Action::done()),
            Err(e) if e.is_not_found() => return Ok(Action::done()),
            Err(e) => return Err(e),
        };
        if pod.metadata.deletion_timestamp.is_some() {
            return self.finish_deletion(&pod).await;
        }
        let clock = &self.options.clock;
        match pod.status.phase.as_str() {
            "" | "Pending" => {
                let host = host_ip(&node);
                let ip = if pod.spec.host_network {
                    Some(host.clone())
                } else {
                    self.allocate(&node, &pod_key(&pod), &pod.status.pod_ip)
                };
                let Some(ip) = ip else {
                    // No IP left: the Pod waits, as kubelet's sandbox creation would.
                    return Ok(Action::requeue_after(Duration::from_secs(5)));
                };
                let status = status::running_status(&pod, &host, &ip, &clock.now());
                let action = self.write_status(&pod, status).await?;
                if completes(&pod) && !action.is_requeue() {
                    let run = clock
                        .real_duration(Duration::from_secs(self.run_seconds(&pod).unsigned_abs()));
                    return Ok(Action::requeue_after(run));
                }
                Ok(action)
            }
            "Running" if completes(&pod) => {
                let started = pod.status.start_time.unwrap_or_else(|| clock.now());
                let left = clock.until(&started, self.run_seconds(&pod));
                if !left.is_zero() {
                    return Ok(Action::requeue_after(left));
                }
                let status = status::finished_status(&pod, outcome(&pod), &clock.now());
                self.write_status(&pod, status).await
            }
            _ => Ok(Action::done()),
        }
    }

    async fn deleted(&self, request: Request) -> controller_runtime::Result<Action> {
        self.release(&format!("{}/{}", request.namespace, request.name));
        Ok(Action::done())
    }
}

/// The kubelet stand-in's name as a controller of the manager.
pub const NAME: &str = "simulated-kubelet";

/// Registers the kubelet stand-in on the context's manager, 8 Pods at a time.
pub(crate) fn start(context: &ControllerContext<'_>) -> Result<(), Error> {
    let options = KubeletOptions {
        clock: context.options.simulated_clock(),
        run_seconds: context.options.run_seconds(),
    };
    ControllerBuilder::new(context.manager)
        .named(NAME)
        .for_kind::<Pod>()
        .with_options(ControllerOptions {
            max_concurrent_reconciles: 8,
            ..ControllerOptions::default()
        })
        .complete_object(Kubelet {
            mgr: Arc::clone(context.manager),
            options,
            ips: Mutex::default(),
            deleting: Mutex::default(),
        })
        .map_err(|e| Error::Register {
            controller: NAME,
            message: e.to_string(),
        })?;
    Ok(())
}
