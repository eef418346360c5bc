//! The manager (controller-runtime's `pkg/manager`): owns the client, the cache, the
//! Scheme and the RESTMapper every controller shares, and runs controllers and other
//! [`Runnable`]s: the cache first, then what needs no leadership, then — once elected,
//! when leader election is on — the rest. On shutdown it stops the runnables, waits for
//! them (reconciles in flight finish) up to the graceful shutdown timeout, releases the
//! lease and stops the cache.
//!
//! With a health probe address it also serves `/healthz` and `/readyz` (kubelet's
//! liveness and readiness probes), and with a metrics address its controllers'
//! [`metrics`](crate::metrics) at `/metrics`, from before the cache starts until after it
//! stops; [`Manager::add_healthz_check`] and [`Manager::add_readyz_check`] add checks.
//!
//! ```no_run
//! use std::sync::Arc;
//! use controller_runtime::builder::ControllerBuilder;
//! use controller_runtime::config::Config;
//! use controller_runtime::manager::{Manager, ManagerOptions};
//! use controller_runtime::reconcile::{self, Action, Request};
//! use k8s_types::core::v1::ConfigMap;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let config = Config::from_kubeconfig("kubeconfig")?;
//! let mut scheme = apimachinery::runtime::Scheme::new();
//! k8s_types::register(&mut scheme)?;
//! let mut options = ManagerOptions::new(Arc::new(scheme));
//! options.health_probe_bind_address = Some("0.0.0.0:8081".parse()?);
//! options.metrics_bind_address = Some("0.0.0.0:8080".parse()?);
//! let mgr = Manager::new(&config, options)?;
//! mgr.add_healthz_check("ping", controller_runtime::healthz::ping())?;
//! mgr.add_readyz_check("ping", controller_runtime::healthz::ping())?;
//! ControllerBuilder::new(&mgr)
//!     .for_kind::<ConfigMap>()
//!     .complete(reconcile::func(|req: Request| async move {
//!         println!("reconcile {req}");
//!         Ok::<_, std::convert::Infallible>(Action::done())
//!     }))?;
//! mgr.start(async { let _ = tokio::signal::ctrl_c().await; }).await?;
//! # Ok(()) }
//! ```

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use apimachinery::runtime::Scheme;
use futures_util::future::BoxFuture;
use tokio_util::sync::CancellationToken;

use crate::cache::{Cache, CacheOptions};
use crate::client::delegating::{DelegatingClient, DelegatingClientOptions};
use crate::client::{self, Client};
use crate::config::Config;
use crate::controller::Controller;
use crate::healthz::{self, Checker, ProbeServer};
use crate::leaderelection::{LeaderElectionConfig, LeaderElector};
use crate::metrics::ControllerMetrics;
use crate::reconcile::Reconciler;
use crate::workqueue::lock;

/// An error a runnable ends with.
pub type RunnableError = Box<dyn std::error::Error + Send + Sync>;

/// Something the manager runs until shutdown (controller-runtime's `manager.Runnable`).
pub trait Runnable: Send + Sync {
    /// Runs until `cancel` fires; an error stops the manager.
    fn start(
        self: Arc<Self>,
        cancel: CancellationToken,
    ) -> BoxFuture<'static, Result<(), RunnableError>>;

    /// Whether it may run only on the elected leader (default true, as Go's).
    fn need_leader_election(&self) -> bool {
        true
    }
}

impl<R: Reconciler> Runnable for Controller<R> {
    fn start(
        self: Arc<Self>,
        cancel: CancellationToken,
    ) -> BoxFuture<'static, Result<(), RunnableError>> {
        Box::pin(async move {
            Controller::start(&self, cancel)
                .await
                .map_err(|e| Box::new(e) as RunnableError)
        })
    }

    fn need_leader_election(&self) -> bool {
        Controller::need_leader_election(self)
    }
}

impl Runnable for crate::record::EventRecorder {
    /// Ends quiet series every [`FINISH_TIME`](crate::record::FINISH_TIME) and writes
    /// every series every [`REFRESH_TIME`](crate::record::REFRESH_TIME); on stop, writes
    /// the counts not yet written.
    fn start(
        self: Arc<Self>,
        cancel: CancellationToken,
    ) -> BoxFuture<'static, Result<(), RunnableError>> {
        Box::pin(async move {
            let mut finish = tokio::time::interval(crate::record::FINISH_TIME);
            let mut refresh = tokio::time::interval(crate::record::REFRESH_TIME);
            // Both fire at once first; nothing is due yet.
            finish.tick().await;
            refresh.tick().await;
            loop {
                tokio::select! {
                    _ = cancel.cancelled() => break,
                    _ = finish.tick() => self.finish_series().await,
                    _ = refresh.tick() => self.refresh_series().await,
                }
            }
            self.refresh_series().await;
            Ok(())
        })
    }

    /// Every replica reports its own events, leader or not.
    fn need_leader_election(&self) -> bool {
        false
    }
}

/// How a manager is set up (controller-runtime's `manager.Options`).
#[derive(Debug)]
pub struct ManagerOptions {
    /// The Scheme of every kind the program reads or writes.
    pub scheme: Arc<Scheme>,
    /// The cache's restrictions, transforms and resync.
    pub cache: CacheOptions,
    /// Which reads of the manager's client bypass the cache.
    pub client: DelegatingClientOptions,
    /// Leader election; `None` runs every runnable at once.
    pub leader_election: Option<LeaderElectionConfig>,
    /// How long shutdown waits for runnables (reconciles in flight) to finish (default 30 s,
    /// as Go's).
    pub graceful_shutdown_timeout: Duration,
    /// Where `/healthz` and `/readyz` are served (Go's `HealthProbeBindAddress`; port 0
    /// picks one, see [`Manager::health_probe_address`]); `None`, the default, serves
    /// nothing.
    pub health_probe_bind_address: Option<SocketAddr>,
    /// The liveness endpoint's path (default `/healthz`).
    pub liveness_endpoint_name: String,
    /// The readiness endpoint's path (default `/readyz`).
    pub readiness_endpoint_name: String,
    /// Where the controllers' metrics are served at `/metrics` (Go's metrics
    /// `BindAddress`; port 0 picks one, see [`Manager::metrics_address`]); `None`, the
    /// default, serves nothing.
    pub metrics_bind_address: Option<SocketAddr>,
}

impl ManagerOptions {
    /// Defaults around `scheme`.
    pub fn new(scheme: Arc<Scheme>) -> Self {
        Self {
            scheme,
            cache: CacheOptions::default(),
            client: DelegatingClientOptions::default(),
            leader_election: None,
            graceful_shutdown_timeout: Duration::from_secs(30),
            health_probe_bind_address: None,
            liveness_endpoint_name: "/healthz".into(),
            readiness_endpoint_name: "/readyz".into(),
            metrics_bind_address: None,
        }
    }
}

/// Errors of a manager.
#[derive(Debug, thiserror::Error)]
pub enum ManagerError {
    /// The client could not be made from the config.
    #[error("manager: client: {0}")]
    Client(#[from] client::Error),
    /// The manager was started twice.
    #[error("manager was already started")]
    AlreadyStarted,
    /// The cache did not sync before shutdown.
    #[error("manager: the cache did not sync")]
    CacheSync,
    /// A runnable failed; the manager stopped the others.
    #[error("manager: runnable failed: {0}")]
    Runnable(#[source] RunnableError),
    /// Leader election failed or leadership was lost.
    #[error("manager: leader election: {0}")]
    LeaderElection(#[from] crate::leaderelection::LeaderElectionError),
    /// Runnables did not stop within the graceful shutdown timeout.
    #[error("manager: runnables still running after the graceful shutdown timeout of {0:?}")]
    ShutdownTimeout(Duration),
    /// The health probe or metrics address could not be listened on.
    #[error("manager: cannot listen for {endpoint} on {address}: {source}")]
    Listen {
        /// `health probes` or `metrics`.
        endpoint: &'static str,
        /// The address.
        address: SocketAddr,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A check was added once the manager had started (Go refuses it too).
    #[error("manager: cannot add the {probe} check {name:?}: the manager has started")]
    CheckAfterStart {
        /// `liveness` or `readiness`.
        probe: &'static str,
        /// The check's name.
        name: String,
    },
}

/// Owns the shared client, cache, Scheme and mapper, and runs runnables. Cheap to share
/// (`&Manager` to builders; the manager itself is not `Clone`).
pub struct Manager {
    client: Client,
    delegating: DelegatingClient,
    cache: Cache,
    scheme: Arc<Scheme>,
    runnables: Mutex<Vec<Arc<dyn Runnable>>>,
    leader_election: Option<LeaderElectionConfig>,
    graceful_shutdown_timeout: Duration,
    started: std::sync::atomic::AtomicBool,
    elected: tokio::sync::watch::Sender<bool>,
    probes: Mutex<Probes>,
    probe_address: Option<SocketAddr>,
    metrics_listener: Mutex<Option<std::net::TcpListener>>,
    metrics_address: Option<SocketAddr>,
    controllers: Mutex<Vec<Arc<dyn ControllerMetrics>>>,
}

/// This machine's name (a pod's name in a pod), as Go's `os.Hostname` reads it.
fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_owned())
}

/// Binds `address` for one of the manager's endpoints, as Go binds them in `New`: a
/// taken port fails there, not at start, and port 0's choice is known before start.
fn listen(
    endpoint: &'static str,
    address: Option<SocketAddr>,
) -> Result<Option<(std::net::TcpListener, SocketAddr)>, ManagerError> {
    let Some(address) = address else {
        return Ok(None);
    };
    let bind = || {
        let l = std::net::TcpListener::bind(address)?;
        l.set_nonblocking(true)?;
        let local = l.local_addr()?;
        Ok((l, local))
    };
    bind().map(Some).map_err(|source| ManagerError::Listen {
        endpoint,
        address,
        source,
    })
}

/// Serves `answer` on `listener` until `cancel` fires (the manager's endpoints).
fn spawn_server(
    endpoint: &'static str,
    listener: std::net::TcpListener,
    address: SocketAddr,
    cancel: &CancellationToken,
    answer: crate::http_server::Answer,
) -> Result<tokio::task::JoinHandle<()>, ManagerError> {
    let listener =
        tokio::net::TcpListener::from_std(listener).map_err(|source| ManagerError::Listen {
            endpoint,
            address,
            source,
        })?;
    Ok(tokio::spawn(crate::http_server::serve(
        listener,
        cancel.clone(),
        answer,
    )))
}

/// The health probe endpoints until the manager starts serving them.
struct Probes {
    listener: Option<std::net::TcpListener>,
    liveness: (String, healthz::Handler),
    readiness: (String, healthz::Handler),
}

impl fmt::Debug for Manager {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Manager")
            .field("host", &self.client.host())
            .field("leader_election", &self.leader_election)
            .finish()
    }
}

impl Manager {
    /// A manager talking to the server of `config`.
    pub fn new(config: &Config, options: ManagerOptions) -> Result<Self, ManagerError> {
        let client = Client::new(config, Arc::clone(&options.scheme))?;
        let probes = listen("health probes", options.health_probe_bind_address)?;
        let metrics = listen("metrics", options.metrics_bind_address)?;
        let cache = Cache::new(client.clone(), Arc::clone(&options.scheme), options.cache);
        let delegating = DelegatingClient::new(client.clone(), cache.clone(), options.client);
        Ok(Self {
            client,
            delegating,
            cache,
            scheme: options.scheme,
            runnables: Mutex::new(Vec::new()),
            leader_election: options.leader_election,
            graceful_shutdown_timeout: options.graceful_shutdown_timeout,
            started: std::sync::atomic::AtomicBool::new(false),
            elected: tokio::sync::watch::channel(false).0,
            probe_address: probes.as_ref().map(|(_, a)| *a),
            probes: Mutex::new(Probes {
                listener: probes.map(|(l, _)| l),
                liveness: (options.liveness_endpoint_name, healthz::Handler::new()),
                readiness: (options.readiness_endpoint_name, healthz::Handler::new()),
            }),
            metrics_address: metrics.as_ref().map(|(_, a)| *a),
            metrics_listener: Mutex::new(metrics.map(|(l, _)| l)),
            controllers: Mutex::new(Vec::new()),
        })
    }

    /// Adds a liveness check, served at `/healthz` and `/healthz/NAME` (Go's
    /// `AddHealthzCheck`); refused once the manager has started.
    pub fn add_healthz_check(&self, name: &str, check: Checker) -> Result<(), ManagerError> {
        self.add_check("liveness", |p| &mut p.liveness.1, name, check)
    }

    /// Adds a readiness check, served at `/readyz` and `/readyz/NAME` (Go's
    /// `AddReadyzCheck`); refused once the manager has started.
    pub fn add_readyz_check(&self, name: &str, check: Checker) -> Result<(), ManagerError> {
        self.add_check("readiness", |p| &mut p.readiness.1, name, check)
    }

    fn add_check(
        &self,
        probe: &'static str,
        endpoint: fn(&mut Probes) -> &mut healthz::Handler,
        name: &str,
        check: Checker,
    ) -> Result<(), ManagerError> {
        let mut probes = lock(&self.probes);
        if self.started.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(ManagerError::CheckAfterStart {
                probe,
                name: name.to_owned(),
            });
        }
        endpoint(&mut probes).add(name, check);
        Ok(())
    }

    /// Where the health probes are served, when a probe address was given.
    pub fn health_probe_address(&self) -> Option<SocketAddr> {
        self.probe_address
    }

    /// A recorder of Events reported as `name` (Go's `GetEventRecorderFor`), from the
    /// instance `NAME-HOSTNAME`; the manager runs it, which writes its series' counts
    /// (see [`record`](crate::record)). Ask for recorders before [`start`](Self::start).
    pub fn event_recorder_for(&self, name: &str) -> crate::record::EventRecorder {
        let recorder = crate::record::EventRecorder::new(
            self.client.clone(),
            name,
            format!("{name}-{}", hostname()),
        );
        self.add(Arc::new(recorder.clone()));
        recorder
    }

    /// Where the metrics are served, when a metrics address was given.
    pub fn metrics_address(&self) -> Option<SocketAddr> {
        self.metrics_address
    }

    /// The client: reads from the cache, writes to the server (Go's `GetClient`).
    pub fn client(&self) -> &DelegatingClient {
        &self.delegating
    }

    /// The direct client: reads from the server (Go's `GetAPIReader`).
    pub fn api_reader(&self) -> &Client {
        &self.client
    }

    /// The cache (Go's `GetCache`, and `GetFieldIndexer` through `index_field`).
    pub fn cache(&self) -> &Cache {
        &self.cache
    }

    /// The Scheme.
    pub fn scheme(&self) -> &Arc<Scheme> {
        &self.scheme
    }

    /// The RESTMapper (discovery-backed, refreshed on a miss).
    pub fn rest_mapper(&self) -> &client::apiutil::DynamicRESTMapper {
        self.client.rest_mapper()
    }

    /// Adds a runnable; must be called before [`start`](Self::start).
    pub fn add(&self, runnable: Arc<dyn Runnable>) {
        lock(&self.runnables).push(runnable);
    }

    /// Whether this manager leads (always true without leader election, once started).
    pub fn elected(&self) -> tokio::sync::watch::Receiver<bool> {
        self.elected.subscribe()
    }

    /// Runs everything until `shutdown` completes or a runnable fails.
    pub async fn start(
        &self,
        shutdown: impl Future<Output = ()> + Send,
    ) -> Result<(), ManagerError> {
        let probe_server = {
            // Under the probes' lock, so that no check is added after they are taken.
            let mut probes = lock(&self.probes);
            if self.started.swap(true, std::sync::atomic::Ordering::SeqCst) {
                return Err(ManagerError::AlreadyStarted);
            }
            probes.listener.take().map(|listener| {
                let server = ProbeServer {
                    liveness: std::mem::take(&mut probes.liveness),
                    readiness: std::mem::take(&mut probes.readiness),
                };
                (listener, server)
            })
        };
        // The endpoints are answered first and stop last: a manager still syncing its
        // cache is alive (and not ready, if a readiness check says so).
        let endpoints_cancel = CancellationToken::new();
        let unbound = SocketAddr::from(([0, 0, 0, 0], 0));
        let mut endpoint_tasks = Vec::new();
        if let Some((listener, server)) = probe_server {
            let server = Arc::new(server);
            endpoint_tasks.push(spawn_server(
                "health probes",
                listener,
                self.probe_address.unwrap_or(unbound),
                &endpoints_cancel,
                Arc::new(move |req| server.answer(req)),
            )?);
        }
        if let Some(listener) = lock(&self.metrics_listener).take() {
            let controllers = lock(&self.controllers).clone();
            endpoint_tasks.push(spawn_server(
                "metrics",
                listener,
                self.metrics_address.unwrap_or(unbound),
                &endpoints_cancel,
                Arc::new(move |req| crate::metrics::answer(&controllers, req)),
            )?);
        }
        let cache_cancel = CancellationToken::new();
        let run_cancel = CancellationToken::new();
        let runnables = std::mem::take(&mut *lock(&self.runnables));
        let (leader, other): (Vec<_>, Vec<_>) = runnables
            .into_iter()
            .partition(|r| self.leader_election.is_some() && r.need_leader_election());

        let (err_tx, mut err_rx) = tokio::sync::mpsc::unbounded_channel::<ManagerError>();
        let mut tasks = tokio::task::JoinSet::new();
        let spawn = |tasks: &mut tokio::task::JoinSet<()>, r: Arc<dyn Runnable>| {
            let (cancel, err_tx) = (run_cancel.clone(), err_tx.clone());
            tasks.spawn(async move {
                if let Err(e) = r.start(cancel).await {
                    let _ = err_tx.send(ManagerError::Runnable(e));
                }
            });
        };

        tokio::pin!(shutdown);
        self.cache.start(cache_cancel.clone());
        // The elector is kept, not detached: shutdown awaits it, so that `start` returns
        // only after the lease is released and another replica can take over at once.
        // It has its own token, cancelled once the runnables have stopped (Go's order too):
        // a leader's controllers never run after its lease is given up.
        let mut elector_task: Option<tokio::task::JoinHandle<()>> = None;
        let elector_cancel = CancellationToken::new();
        let outcome: Result<(), ManagerError> = async {
            tokio::select! {
                synced = self.cache.wait_for_cache_sync(&cache_cancel) => {
                    if !synced { return Err(ManagerError::CacheSync); }
                }
                () = &mut shutdown => return Ok(()),
            }
            for r in other {
                spawn(&mut tasks, r);
            }
            match &self.leader_election {
                None => {
                    self.elected.send_replace(true);
                }
                Some(config) => {
                    let elector = LeaderElector::new(self.client.clone(), config.clone());
                    let (lead_tx, mut lead_rx) = tokio::sync::watch::channel(false);
                    let cancel = elector_cancel.clone();
                    let err_tx = err_tx.clone();
                    elector_task = Some(tokio::spawn(async move {
                        if let Err(e) = elector.run(cancel, lead_tx).await {
                            let _ = err_tx.send(ManagerError::LeaderElection(e));
                        }
                    }));
                    tokio::select! {
                        changed = lead_rx.wait_for(|l| *l) => {
                            if changed.is_err() { return Ok(()); }
                        }
                        () = &mut shutdown => return Ok(()),
                        e = err_rx.recv() => return e.map_or(Ok(()), Err),
                    }
                    self.elected.send_replace(true);
                    for r in leader {
                        spawn(&mut tasks, r);
                    }
                }
            }
            tokio::select! {
                () = &mut shutdown => Ok(()),
                e = err_rx.recv() => e.map_or(Ok(()), Err),
            }
        }
        .await;

        // Stop the runnables, then the elector, which releases the lease (awaited within
        // the same grace period), then the cache.
        run_cancel.cancel();
        let drained = tokio::time::timeout(self.graceful_shutdown_timeout, async {
            while tasks.join_next().await.is_some() {}
        })
        .await;
        elector_cancel.cancel();
        if let Some(elector) = elector_task.take() {
            let _ = tokio::time::timeout(self.graceful_shutdown_timeout, elector).await;
        }
        cache_cancel.cancel();
        self.elected.send_replace(false);
        endpoints_cancel.cancel();
        for task in endpoint_tasks {
            let _ = task.await;
        }
        outcome?;
        if drained.is_err() {
            return Err(ManagerError::ShutdownTimeout(
                self.graceful_shutdown_timeout,
            ));
        }
        Ok(())
    }

    /// Adds a controller (what [`ControllerBuilder::complete`](crate::builder::ControllerBuilder::complete) does).
    /// Its metrics are served at `/metrics` when the manager has a metrics address.
    pub fn add_controller<R: Reconciler>(&self, controller: Arc<Controller<R>>) {
        lock(&self.controllers).push(Arc::clone(&controller) as Arc<dyn ControllerMetrics>);
        self.add(controller);
    }
}
