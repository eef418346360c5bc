//! kube-controller-manager's controllers, in-process, on this workspace's own
//! `controller-runtime` (client, informer cache, manager, work queue): what a cluster
//! does beyond storing objects, for `kapi serve --controllers=...` and for tests on
//! envtest. Go's envtest runs kube-apiserver alone, so owner references are never
//! collected and deleted namespaces stay `Terminating`; here the controllers are opt-in,
//! by kube-controller-manager's names (see [`names`]):
//!
//! | `--controllers` name (alias) | what it does |
//! |---|---|
//! | `garbage-collector-controller` (`garbagecollector`) | objects whose owners are gone deleted, across every resource (built-in and custom); background, foreground and orphan propagation |
//! | `namespace-controller` (`namespace`) | a deleted Namespace's content deleted (every namespaced resource, custom ones included), its `kubernetes` finalizer then removed, so that it goes; Go's conditions while content remains |
//! | `root-ca-certificate-publisher-controller` (`root-ca-cert-publisher`) | the ConfigMap `kube-root-ca.crt` in every namespace, `ca.crt` the server's CA, put back when changed or deleted |
//! | `serviceaccount-controller` (`serviceaccount`) | the `default` ServiceAccount in every active namespace, recreated when deleted |
//! | `replicaset-controller` (`replicaset`) | [`replicaset`]: `spec.replicas` Pods per ReplicaSet, Go's status |
//! | `deployment-controller` (`deployment`) | [`deployment`]: rolling updates and Recreate through ReplicaSets, revisions (`kubectl rollout undo`), Go's status and conditions |
//! | `job-controller` (`job`) | [`job`]: Pods run to `completions`, `Complete` or `Failed` as Go decides |
//!
//! **Simulated Nodes** (what KWOK does, built in), with [`Options::nodes`] or `kapi serve
//! --nodes N`: N [Nodes](nodes) `Ready` with their capacity, a [scheduler](scheduler)
//! binding pending Pods to them (`nodeSelector`, node affinity, taints, requests against
//! `allocatable`; `PodScheduled=False` with kube-scheduler's reason and message when
//! nothing fits) and a [kubelet stand-in](kubelet) running the Pods bound to them
//! (`Running` with Go's conditions and container statuses and an IP of the Node's Pod
//! CIDR; Pods with `restartPolicy` `Never` or `OnFailure` complete after a simulated run
//! time; deletion after the grace period). Grace periods, run times, `minReadySeconds`
//! and progress deadlines run on a [`Clock`](nodes::Clock) a test can speed up:
//!
//! ```
//! use controller_manager::nodes::Clock;
//! use controller_runtime::client::{Client, ListOptions};
//! use controller_runtime::envtest::Environment;
//! use k8s_types::core::v1::Pod;
//!
//! # tokio::runtime::Runtime::new()?.block_on(async {
//! let env = Environment::builder()
//!     .with(controller_manager::Options::new().nodes(2).clock(Clock::scaled(10.0)))
//!     .start()
//!     .await?;
//! let client = Client::new(env.config(), env.scheme())?;
//! let pod: Pod = serde_json::from_value(serde_json::json!({
//!     "metadata": {"name": "web", "namespace": "default"},
//!     "spec": {"containers": [{"name": "web", "image": "nginx"}]},
//! }))?;
//! client.create(&pod, &Default::default()).await?;
//! let running = loop {
//!     let pods = client.list::<Pod>(&ListOptions::in_namespace("default")).await?;
//!     match pods.items.into_iter().find(|p| p.status.phase == "Running") {
//!         Some(p) => break p,
//!         None => tokio::time::sleep(std::time::Duration::from_millis(10)).await,
//!     }
//! };
//! assert!(running.spec.node_name.starts_with("kapi-node-"));
//! assert!(running.status.pod_ip.starts_with("10.64."));
//! env.stop().await;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! What each controller leaves out of Go's is listed in its module.
//!
//! The controllers are clients of the API: they run against `kapi serve`, envtest's
//! in-process server and the real kube-apiserver alike.
//!
//! With envtest, [`Options`] is an extension of the environment (feature `envtest`, on
//! by default):
//!
//! ```
//! use controller_runtime::client::{Client, ObjectKey};
//! use controller_runtime::envtest::Environment;
//! use k8s_types::core::v1::{Namespace, ServiceAccount};
//!
//! # tokio::runtime::Runtime::new()?.block_on(async {
//! let env = Environment::builder()
//!     .with(controller_manager::Options::new().controllers("serviceaccount")?)
//!     .start()
//!     .await?;
//! let client = Client::new(env.config(), env.scheme())?;
//! let mut ns = Namespace::default();
//! ns.metadata.name = "team-a".into();
//! client.create(&ns, &Default::default()).await?;
//! // The serviceaccount controller gives the namespace its `default` ServiceAccount.
//! let key = ObjectKey::new("team-a", "default");
//! let sa: ServiceAccount = loop {
//!     match client.get(&key).await {
//!         Ok(sa) => break sa,
//!         Err(e) if e.is_not_found() => tokio::time::sleep(std::time::Duration::from_millis(10)).await,
//!         Err(e) => return Err(e.into()),
//!     }
//! };
//! assert_eq!(sa.metadata.name, "default");
//! env.stop().await;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Against any server, [`ControllerManager::start`] with its `Config`.
#![forbid(unsafe_code)]

pub mod deployment;
pub mod garbagecollector;
pub mod job;
pub mod kubelet;
pub mod names;
pub mod namespace;
pub mod nodes;
mod pods;
pub mod replicaset;
pub mod rootcacertpublisher;
pub mod scheduler;
pub mod serviceaccount;
mod status_update;

use std::sync::Arc;

use apimachinery::runtime::Scheme;
use controller_runtime::config::Config;
use controller_runtime::manager::{Manager, ManagerError, ManagerOptions};
use tokio_util::sync::CancellationToken;

pub use names::{ControllerDescriptor, ControllerSelection};

/// The cause the server refuses a create in a terminating namespace with (Go's
/// `v1.NamespaceTerminatingCause`); controllers creating objects ignore it.
pub(crate) const NAMESPACE_TERMINATING_CAUSE: &str = "NamespaceTerminating";

/// Go's `v1.NamespaceActive`.
pub(crate) const NAMESPACE_ACTIVE: &str = "Active";

/// Why the controllers could not be selected, started or run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A `--controllers` entry names no controller kube-controller-manager knows (Go's
    /// message).
    #[error("{0:?} is not in the list of known controllers")]
    UnknownController(String),
    /// A controller kube-controller-manager has was asked for, but this crate does not
    /// implement it.
    #[error("the controller {0:?} is not implemented here")]
    NotImplemented(String),
    /// The manager could not be built or stopped with an error.
    #[error(transparent)]
    Manager(#[from] ManagerError),
    /// A controller could not be registered on the manager.
    #[error("registering {controller}: {message}")]
    Register {
        /// The controller's name.
        controller: &'static str,
        /// Why.
        message: String,
    },
    /// The manager stopped before its caches synced.
    #[error("the controller manager stopped while starting")]
    Stopped,
}

impl Error {
    /// A controller's registration failed.
    pub(crate) fn register(controller: &'static str, e: impl std::fmt::Display) -> Self {
        Error::Register {
            controller,
            message: e.to_string(),
        }
    }
}

/// Which controllers to run, and how (kube-controller-manager's flags that apply).
#[derive(Clone, Debug)]
#[must_use]
pub struct Options {
    selection: ControllerSelection,
    /// The CA bundle (PEM) the root CA publisher publishes, when not the client's.
    root_ca: Option<Vec<u8>>,
    nodes: usize,
    node_capacity: nodes::NodeCapacity,
    clock: nodes::Clock,
    pod_run_seconds: i64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            selection: ControllerSelection::default(),
            root_ca: None,
            nodes: 0,
            node_capacity: nodes::NodeCapacity::default(),
            clock: nodes::Clock::real(),
            pod_run_seconds: 1,
        }
    }
}

impl Options {
    /// No controllers (envtest's semantics); select some with
    /// [`controllers`](Self::controllers).
    pub fn new() -> Self {
        Self::default()
    }

    /// Simulated Nodes (KWOK's, built in; see [`nodes`]): `count` Nodes `Ready` with
    /// their capacity, a [scheduler](scheduler) binding pending Pods to them and a
    /// [kubelet stand-in](kubelet) running the Pods bound to them. 0 (the default)
    /// starts none of them.
    pub fn nodes(mut self, count: usize) -> Self {
        self.nodes = count.min(nodes::MAX_NODES);
        self
    }

    /// What each simulated Node offers (32 CPUs, 256Gi, 110 Pods by default).
    pub fn node_capacity(mut self, capacity: nodes::NodeCapacity) -> Self {
        self.node_capacity = capacity;
        self
    }

    /// The clock of grace periods, Pods' run times, `minReadySeconds` and progress
    /// deadlines (real time by default; [`Clock::scaled`](nodes::Clock::scaled) to
    /// speed it up).
    pub fn clock(mut self, clock: nodes::Clock) -> Self {
        self.clock = clock;
        self
    }

    /// How long, in simulated seconds, a Pod that completes (`restartPolicy` `Never` or
    /// `OnFailure`) runs on a simulated Node without the annotation
    /// [`kubelet::RUN_SECONDS`] (1 by default).
    pub fn pod_run_seconds(mut self, seconds: i64) -> Self {
        self.pod_run_seconds = seconds.max(0);
        self
    }

    /// The number of simulated Nodes.
    pub fn node_count(&self) -> usize {
        self.nodes
    }

    pub(crate) fn simulated_clock(&self) -> nodes::Clock {
        self.clock
    }

    pub(crate) fn run_seconds(&self) -> i64 {
        self.pod_run_seconds
    }

    /// The controllers to run, in `--controllers` syntax: `*` for every one this crate
    /// implements that is on by default, `name` or its alias to enable one, `-name` to
    /// disable one; comma-separated.
    pub fn controllers(mut self, value: &str) -> Result<Self, Error> {
        self.selection = ControllerSelection::parse(value)?;
        Ok(self)
    }

    /// The controllers to run, already parsed.
    pub fn selection(mut self, selection: ControllerSelection) -> Self {
        self.selection = selection;
        self
    }

    /// The CA bundle (PEM) `kube-root-ca.crt` carries (kube-controller-manager's
    /// `--root-ca-file`); by default the CA the controllers' client trusts.
    pub fn root_ca(mut self, pem: impl Into<Vec<u8>>) -> Self {
        self.root_ca = Some(pem.into());
        self
    }

    /// The controllers these options start, in name order.
    pub fn enabled(&self) -> Result<Vec<&'static ControllerDescriptor>, Error> {
        self.selection.controllers()
    }
}

/// What a controller is given to register itself (Go's `ControllerContext`).
#[derive(Debug)]
pub struct ControllerContext<'a> {
    /// The manager the controller registers on: its client, cache and mapper are shared.
    pub manager: &'a Arc<Manager>,
    /// The configuration the manager's client was made from (its CA, for the root CA
    /// publisher).
    pub config: &'a Config,
    /// The options the controllers were started with.
    pub options: &'a Options,
}

/// The running controllers (kube-controller-manager in-process): one
/// controller-runtime [`Manager`], whose informers the controllers share.
#[derive(Debug)]
pub struct ControllerManager {
    manager: Arc<Manager>,
    cancel: CancellationToken,
    task: Option<tokio::task::JoinHandle<Result<(), ManagerError>>>,
    controllers: Vec<&'static str>,
}

impl ControllerManager {
    /// Starts the controllers `options` select against the server of `config`, decoding
    /// with `scheme` (every built-in kind: `k8s_types::register`); returns once their
    /// caches have synced. Stop with [`stop`](Self::stop) (dropping stops them too,
    /// without waiting).
    pub async fn start(
        config: &Config,
        scheme: Arc<Scheme>,
        options: &Options,
    ) -> Result<Self, Error> {
        let enabled = options.enabled()?;
        let manager = Arc::new(Manager::new(config, ManagerOptions::new(scheme))?);
        let context = ControllerContext {
            manager: &manager,
            config,
            options,
        };
        for controller in &enabled {
            if let Some(start) = controller.start {
                start(&context)?;
            }
        }
        let mut controllers: Vec<&'static str> = enabled.iter().map(|c| c.name).collect();
        if options.nodes > 0 {
            nodes::ensure_nodes(
                manager.api_reader(),
                options.nodes,
                &options.node_capacity,
                &options.clock,
            )
            .await
            .map_err(|e| Error::Register {
                controller: scheduler::NAME,
                message: format!("creating the simulated Nodes: {e}"),
            })?;
            scheduler::start(&context)?;
            kubelet::start(&context)?;
            controllers.extend([scheduler::NAME, kubelet::NAME]);
        }
        let cancel = CancellationToken::new();
        let mut elected = manager.elected();
        let mut task = tokio::spawn({
            let (manager, cancel) = (Arc::clone(&manager), cancel.clone());
            async move { manager.start(cancel.cancelled_owned()).await }
        });
        // Elected (without leader election: at once) once the caches have synced and
        // the controllers were started.
        tokio::select! {
            started = elected.wait_for(|e| *e) => {
                if started.is_err() {
                    return Err(Error::Stopped);
                }
            }
            ended = &mut task => {
                return Err(match ended {
                    Ok(Err(e)) => e.into(),
                    _ => Error::Stopped,
                });
            }
        }
        Ok(Self {
            manager,
            cancel,
            task: Some(task),
            controllers,
        })
    }

    /// The names of the controllers running.
    pub fn controllers(&self) -> &[&'static str] {
        &self.controllers
    }

    /// The manager the controllers run on.
    pub fn manager(&self) -> &Arc<Manager> {
        &self.manager
    }

    /// Stops the controllers (reconciles in flight finish) and waits for them.
    pub async fn stop(mut self) -> Result<(), Error> {
        self.cancel.cancel();
        match self.task.take() {
            Some(task) => match task.await {
                Ok(result) => result.map_err(Error::from),
                Err(_) => Err(Error::Stopped),
            },
            None => Ok(()),
        }
    }
}

impl Drop for ControllerManager {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

#[cfg(feature = "envtest")]
mod envtest {
    use controller_runtime::envtest::{Environment, Extension, ExtensionError, RunningExtension};
    use futures_util::future::BoxFuture;

    use crate::{ControllerManager, Options};

    impl Extension for Options {
        fn start<'a>(
            &'a self,
            env: &'a Environment,
        ) -> BoxFuture<'a, Result<Box<dyn RunningExtension>, ExtensionError>> {
            Box::pin(async move {
                let manager = ControllerManager::start(env.config(), env.scheme(), self).await?;
                Ok(Box::new(manager) as Box<dyn RunningExtension>)
            })
        }
    }

    impl RunningExtension for ControllerManager {
        fn stop(self: Box<Self>) -> BoxFuture<'static, ()> {
            Box::pin(async move {
                if let Err(e) = ControllerManager::stop(*self).await {
                    tracing::warn!("controller manager: {e}");
                }
            })
        }
    }
}
