//! Test support (controller-runtime's `pkg/envtest`): an API server to run controllers
//! against over real HTTP, and the [`Config`] to reach it. Two kinds:
//!
//! - **in-process** (the default): the `apiserver` crate's server, started on a free
//!   loopback port with in-memory storage, serving every built-in kind. No binaries to
//!   install: a `cargo test` runs controllers against real HTTP.
//! - **external**: the real `kube-apiserver` and `etcd`, started from binaries as Go's
//!   envtest does, found through `KUBEBUILDER_ASSETS` (a directory holding both, as
//!   `setup-envtest` installs them) or named on the [`EnvironmentBuilder`]. etcd runs on
//!   a free loopback port with a temporary data directory; kube-apiserver serves TLS
//!   with a certificate and an administrator's token made for the run; [`Environment::stop`]
//!   (or dropping the environment) stops both and removes the directory. Use an etcd
//!   of kube-apiserver's own line, as `setup-envtest` installs it: kube-apiserver 1.36
//!   needs etcd's watch progress requests (etcd 3.5.13 or 3.4.31 and later), without
//!   which a watch without a `resourceVersion` fails with "Too large resource version".
//!
//! Nothing acts on the objects stored, as with Go's envtest, unless the test names
//! [`Extension`]s on the builder ([`EnvironmentBuilder::with`]): each is started with
//! the environment once the server answers and stopped before it. The
//! `controller-manager` crate's `Options` is one: kube-controller-manager's controllers
//! (garbage collection, namespace deletion, service accounts) running in-process,
//! `Environment::builder().with(controller_manager::Options::new().controllers("*")?)`.
//!
//! Webhooks served from the test (or a program run from a laptop) get a serving
//! certificate and their configurations pointed at them from [`WebhookInstallOptions`]
//! (Go's `envtest.WebhookInstallOptions`).
//!
//! ```
//! use controller_runtime::client::{Client, ObjectKey};
//! use controller_runtime::envtest::Environment;
//! use k8s_types::core::v1::Namespace;
//!
//! # tokio::runtime::Runtime::new()?.block_on(async {
//! let env = Environment::start().await?;
//! let client = Client::new(env.config(), env.scheme())?;
//! // The server starts with the default namespaces.
//! let ns: Namespace = client.get(&ObjectKey::cluster("kube-system")).await?;
//! assert_eq!(ns.metadata.name, "kube-system");
//! env.stop().await;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The same test against the real kube-apiserver, where `KUBEBUILDER_ASSETS` names a
//! directory holding `kube-apiserver` and `etcd` (Go's convention; a builder takes
//! explicit paths with [`EnvironmentBuilder::binaries`]):
//!
//! ```no_run
//! use controller_runtime::client::{Client, ObjectKey};
//! use controller_runtime::envtest::{Binaries, Environment};
//! use k8s_types::core::v1::Namespace;
//!
//! # tokio::runtime::Runtime::new()?.block_on(async {
//! // `Environment::start_external()` for short; `Binaries::in_dir(..)` or the
//! // fields of `Binaries` to name the binaries in the test.
//! let env = Environment::builder()
//!     .binaries(Binaries::from_env()?)
//!     .start()
//!     .await?;
//! let client = Client::new(env.config(), env.scheme())?; // https, its CA and a token
//! let ns: Namespace = client.get(&ObjectKey::cluster("kube-system")).await?;
//! assert_eq!(ns.metadata.name, "kube-system");
//! env.stop().await; // both processes stopped, the temporary directory removed
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod control_plane;
mod extension;
mod pki;
mod webhook;

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use apimachinery::runtime::{Scheme, SchemeError};
use apiserver::admission::plugins::{self, PluginSelection};
use apiserver::resource_config::{ResourceConfig, RuntimeConfigError};
use apiserver::server::{GenericApiServer, ServerError};
use apiserver::storage::{MemoryStorage, Storage};
use base64::Engine as _;

use crate::config::Config;
use crate::transport::TransportError;
use control_plane::ControlPlane;
pub use control_plane::{Binaries, KUBEBUILDER_ASSETS, TEST_ASSET_ETCD, TEST_ASSET_KUBE_APISERVER};
pub use extension::{Extension, ExtensionError, RunningExtension};
pub use webhook::WebhookInstallOptions;

/// How long an external control plane may take to be ready by default (Go's envtest
/// waits 20 s per process; a loaded CI machine needs more).
pub const DEFAULT_START_TIMEOUT: Duration = Duration::from_secs(60);

/// Why the environment could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EnvtestError {
    /// The built-in types could not be registered.
    #[error("registering the built-in types: {0}")]
    Scheme(#[from] SchemeError),
    /// The server could not start.
    #[error("starting the API server: {0}")]
    Server(#[from] ServerError),
    /// The `runtime_config` given is not one kube-apiserver accepts.
    #[error("--runtime-config: {0}")]
    RuntimeConfig(#[source] RuntimeConfigError),
    /// No variable says where a binary of the external control plane is.
    #[error("no {name} binary: set {variable} or KUBEBUILDER_ASSETS, or name it on the builder")]
    NoBinary {
        /// `kube-apiserver` or `etcd`.
        name: &'static str,
        /// The variable naming it alone.
        variable: &'static str,
    },
    /// A file or process of the external control plane could not be made or started.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file, directory or binary.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The certificates of the external control plane could not be made.
    #[error("making certificates: {0}")]
    Certificates(String),
    /// A request to the API server failed (installing webhook configurations).
    #[error(transparent)]
    Client(#[from] crate::client::Error),
    /// The client of the readiness checks could not be built.
    #[error("checking readiness: {0}")]
    Transport(#[from] TransportError),
    /// A process of the external control plane exited while starting.
    #[error("{name} exited with {status}; the end of its log:\n{log}")]
    Exited {
        /// `etcd` or `kube-apiserver`.
        name: &'static str,
        /// Its exit status.
        status: String,
        /// The end of its log.
        log: String,
    },
    /// kube-apiserver was not ready in time.
    #[error(
        "kube-apiserver was not ready within {timeout:?} (last: {last}); the end of its log:\n{log}"
    )]
    NotReady {
        /// The time allowed.
        timeout: Duration,
        /// The last answer or error.
        last: String,
        /// The end of its log.
        log: String,
    },
    /// An extension named on the builder could not start (the server and the
    /// extensions started before it are stopped).
    #[error("starting the extension {name}: {source}")]
    Extension {
        /// The extension, as its `Debug` prints it.
        name: String,
        /// Its error.
        #[source]
        source: ExtensionError,
    },
}

/// What serves the environment.
#[derive(Debug)]
enum Backend {
    InProcess {
        server: GenericApiServer,
        storage: Arc<dyn Storage>,
    },
    External(ControlPlane),
}

/// A running API server (Go's `envtest.Environment` after `Start`): the in-process one
/// or the real kube-apiserver.
#[derive(Debug)]
pub struct Environment {
    backend: Backend,
    config: Config,
    scheme: Arc<Scheme>,
    /// The extensions started, in order.
    extensions: Vec<Box<dyn RunningExtension>>,
}

/// How to start an [`Environment`] (Go's `envtest.Environment` fields before `Start`).
/// In-process unless [`binaries`](Self::binaries) are named.
#[derive(Debug, Default)]
#[must_use]
pub struct EnvironmentBuilder {
    scheme: Option<Arc<Scheme>>,
    storage: Option<Arc<dyn Storage>>,
    binaries: Option<Binaries>,
    start_timeout: Option<Duration>,
    runtime_config: Option<String>,
    extensions: Vec<Box<dyn Extension>>,
}

impl EnvironmentBuilder {
    /// The kinds clients decode (and the in-process server serves: built-in types and
    /// your own `#[derive(ApiObject)]` kinds, served as custom resources are). Every
    /// built-in kind by default. kube-apiserver serves the built-in kinds whatever the
    /// scheme; your own need their CustomResourceDefinitions there.
    pub fn scheme(mut self, scheme: Arc<Scheme>) -> Self {
        self.scheme = Some(scheme);
        self
    }

    /// The storage of the in-process server (a `RedbStorage` to keep data across
    /// restarts, a storage shared with a previous environment, ...); in memory by
    /// default. Ignored by an external control plane, which keeps its data in etcd.
    pub fn storage(mut self, storage: Arc<dyn Storage>) -> Self {
        self.storage = Some(storage);
        self
    }

    /// Start the real kube-apiserver and etcd from these binaries, instead of the
    /// in-process server.
    pub fn binaries(mut self, binaries: Binaries) -> Self {
        self.binaries = Some(binaries);
        self
    }

    /// Which API versions are served, as kube-apiserver's `--runtime-config`
    /// (`api/beta=true`, `resource.k8s.io/v1beta2=true,storage.k8s.io/v1alpha1=true`).
    /// Without it, what kube-apiserver serves by default, as Go's envtest: the GA
    /// versions; a test of a beta or alpha kind turns its version on here. The external
    /// control plane gets the flag as it is; the in-process server reads it the same way
    /// and refuses what kube-apiserver refuses.
    pub fn runtime_config(mut self, value: impl Into<String>) -> Self {
        self.runtime_config = Some(value.into());
        self
    }

    /// How long the external control plane may take to answer `/readyz`
    /// ([`DEFAULT_START_TIMEOUT`] by default).
    pub fn start_timeout(mut self, timeout: Duration) -> Self {
        self.start_timeout = Some(timeout);
        self
    }

    /// Starts `extension` with the environment once its server is ready, after those
    /// named before it, and stops it before the server (controllers, for instance: the
    /// `controller-manager` crate's `Options` is one). Go's envtest runs no controllers;
    /// neither does an environment without extensions.
    pub fn with(mut self, extension: impl Extension + 'static) -> Self {
        self.extensions.push(Box::new(extension));
        self
    }

    /// Starts the environment.
    pub async fn start(self) -> Result<Environment, EnvtestError> {
        let extensions = self.extensions;
        let env = Self {
            extensions: Vec::new(),
            ..self
        }
        .start_server()
        .await?;
        env.start_extensions(extensions).await
    }

    async fn start_server(self) -> Result<Environment, EnvtestError> {
        // The in-process server's decode errors name Go's types, as kube-apiserver's do.
        apiserver::endpoints::go_type_errors::install(k8s_types::go_json_errors::type_mismatch);
        let scheme = match self.scheme {
            Some(scheme) => scheme,
            None => {
                let mut scheme = Scheme::new();
                k8s_types::register(&mut scheme)?;
                Arc::new(scheme)
            }
        };
        if let Some(binaries) = self.binaries {
            let timeout = self.start_timeout.unwrap_or(DEFAULT_START_TIMEOUT);
            let plane =
                ControlPlane::start(&binaries, timeout, self.runtime_config.as_deref()).await?;
            return Ok(Environment {
                config: plane.config(),
                backend: Backend::External(plane),
                scheme,
                extensions: Vec::new(),
            });
        }
        // Go's envtest starts kube-apiserver with --allow-privileged=true; the in-process
        // server allows privileged Pods the same way (a process-wide setting, as in Go).
        k8s_types::validation::set_allow_privileged(true);
        let storage = self
            .storage
            .unwrap_or_else(|| Arc::new(MemoryStorage::new()));
        let mut served = ResourceConfig::kube_apiserver_default();
        if let Some(value) = &self.runtime_config {
            served
                .apply_runtime_config(value, &scheme)
                .map_err(EnvtestError::RuntimeConfig)?;
        }
        // Go's envtest runs kube-apiserver with --disable-admission-plugins=ServiceAccount:
        // nothing there makes each namespace's `default` account, so Pods are not refused
        // for lack of it (and get no token volume).
        let admission = PluginSelection::new().disable([plugins::SERVICE_ACCOUNT]);
        let server = apiserver::server::Config::new(scheme.clone(), storage.clone())
            .resource_config(served)
            .admission_plugins(admission)
            .deprecated_kinds(k8s_types::lifecycle::deprecated_kinds().collect())
            .serve(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
            .await?;
        Ok(Environment {
            config: Config::new(server.url()),
            backend: Backend::InProcess { server, storage },
            scheme,
            extensions: Vec::new(),
        })
    }
}

impl Environment {
    /// How to start an environment: in-process by default, the real kube-apiserver with
    /// [`EnvironmentBuilder::binaries`].
    pub fn builder() -> EnvironmentBuilder {
        EnvironmentBuilder::default()
    }

    /// Starts an in-process server of every built-in kind (`k8s_types::register`) on
    /// `127.0.0.1:<free port>`, kept in memory.
    pub async fn start() -> Result<Self, EnvtestError> {
        Self::builder().start().await
    }

    /// Starts the real kube-apiserver and etcd from the binaries Go's envtest would use
    /// ([`Binaries::from_env`]: `KUBEBUILDER_ASSETS`, or `TEST_ASSET_KUBE_APISERVER` and
    /// `TEST_ASSET_ETCD`).
    pub async fn start_external() -> Result<Self, EnvtestError> {
        Self::builder()
            .binaries(Binaries::from_env()?)
            .start()
            .await
    }

    /// Starts an in-process server of the kinds `scheme` knows (built-in types and your
    /// own `#[derive(ApiObject)]` kinds, served as custom resources are).
    pub async fn start_with_scheme(scheme: Arc<Scheme>) -> Result<Self, EnvtestError> {
        Self::builder().scheme(scheme).start().await
    }

    /// Starts an in-process server of the kinds `scheme` knows over `storage` (a
    /// `RedbStorage` to keep data across restarts, a storage shared with a previous
    /// environment, ...).
    pub async fn start_with_storage(
        scheme: Arc<Scheme>,
        storage: Arc<dyn Storage>,
    ) -> Result<Self, EnvtestError> {
        Self::builder()
            .scheme(scheme)
            .storage(storage)
            .start()
            .await
    }

    /// The configuration of a client of this server (for the real kube-apiserver: its
    /// CA and the administrator's bearer token, a member of `system:masters`).
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The scheme clients decode with (share it with clients).
    pub fn scheme(&self) -> Arc<Scheme> {
        self.scheme.clone()
    }

    /// The storage the in-process server keeps objects in (for tests that compact
    /// history or restart a server over the same data); `None` for the real
    /// kube-apiserver, whose data is in etcd.
    pub fn storage(&self) -> Option<Arc<dyn Storage>> {
        match &self.backend {
            Backend::InProcess { storage, .. } => Some(storage.clone()),
            Backend::External(_) => None,
        }
    }

    /// Whether this is the real kube-apiserver (started from binaries).
    pub fn is_external(&self) -> bool {
        matches!(self.backend, Backend::External(_))
    }

    /// The server's URL: `http://127.0.0.1:PORT` in-process, `https://127.0.0.1:PORT`
    /// for the real kube-apiserver.
    pub fn url(&self) -> String {
        self.config.host.clone()
    }

    /// A kubeconfig naming this server (context `envtest`), for programs that take one:
    /// with the CA and the token of the real kube-apiserver.
    pub fn kubeconfig(&self) -> String {
        let (cluster, user) = match &self.backend {
            Backend::InProcess { .. } => (String::new(), "{}".to_owned()),
            Backend::External(plane) => (
                format!(
                    "\n    certificate-authority-data: {}",
                    base64::engine::general_purpose::STANDARD.encode(&plane.ca_pem)
                ),
                format!("\n    token: {}", plane.token),
            ),
        };
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: envtest\nclusters:\n- name: envtest\n  cluster:\n    server: {url}{cluster}\ncontexts:\n- name: envtest\n  context:\n    cluster: envtest\n    user: envtest\nusers:\n- name: envtest\n  user: {user}\n",
            url = self.config.host
        )
    }

    /// Starts `extensions` in order; on an error, stops those started and the server.
    async fn start_extensions(
        mut self,
        extensions: Vec<Box<dyn Extension>>,
    ) -> Result<Self, EnvtestError> {
        for extension in extensions {
            match extension.start(&self).await {
                Ok(running) => self.extensions.push(running),
                Err(source) => {
                    self.stop().await;
                    return Err(EnvtestError::Extension {
                        name: format!("{extension:?}"),
                        source,
                    });
                }
            }
        }
        Ok(self)
    }

    /// Stops the extensions, last started first, then the server: in-process, watches
    /// end and requests in flight finish; the real kube-apiserver and its etcd are
    /// stopped and their directory removed.
    pub async fn stop(mut self) {
        while let Some(extension) = self.extensions.pop() {
            extension.stop().await;
        }
        match self.backend {
            Backend::InProcess { server, .. } => server.shutdown().await,
            Backend::External(mut plane) => plane.stop(),
        }
    }
}
