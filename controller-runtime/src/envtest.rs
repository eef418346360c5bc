//! Test support (controller-runtime's `pkg/envtest`): a real API server, the
//! `apiserver` crate's, started in-process on a free loopback port with in-memory
//! storage, serving every built-in kind, and the [`Config`] to reach it. No binaries to
//! install: a `cargo test` runs controllers against real HTTP.
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

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

use apimachinery::runtime::{Scheme, SchemeError};
use apiserver::server::{GenericApiServer, ServerError};
use apiserver::storage::{MemoryStorage, Storage};

use crate::config::Config;

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
}

/// A running in-process API server (Go's `envtest.Environment` after `Start`).
#[derive(Debug)]
pub struct Environment {
    server: GenericApiServer,
    storage: Arc<dyn Storage>,
    config: Config,
    scheme: Arc<Scheme>,
}

impl Environment {
    /// Starts a server of every built-in kind (`k8s_types::register`) on
    /// `127.0.0.1:<free port>`, kept in memory.
    pub async fn start() -> Result<Self, EnvtestError> {
        let mut scheme = Scheme::new();
        k8s_types::register(&mut scheme)?;
        Self::start_with_scheme(Arc::new(scheme)).await
    }

    /// Starts a server of the kinds `scheme` knows (built-in types and your own
    /// `#[derive(ApiObject)]` kinds, served as custom resources are).
    pub async fn start_with_scheme(scheme: Arc<Scheme>) -> Result<Self, EnvtestError> {
        Self::start_with_storage(scheme, Arc::new(MemoryStorage::new())).await
    }

    /// Starts a server of the kinds `scheme` knows over `storage` (a `RedbStorage` to
    /// keep data across restarts, a storage shared with a previous environment, ...).
    pub async fn start_with_storage(
        scheme: Arc<Scheme>,
        storage: Arc<dyn Storage>,
    ) -> Result<Self, EnvtestError> {
        let server = apiserver::server::Config::new(scheme.clone(), storage.clone())
            .serve(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
            .await?;
        let config = Config::new(server.url());
        Ok(Environment {
            server,
            storage,
            config,
            scheme,
        })
    }

    /// The configuration of a client of this server.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The scheme the server serves (share it with clients).
    pub fn scheme(&self) -> Arc<Scheme> {
        self.scheme.clone()
    }

    /// The storage the server keeps objects in (for tests that compact history or
    /// restart a server over the same data).
    pub fn storage(&self) -> Arc<dyn Storage> {
        self.storage.clone()
    }

    /// The server's URL, `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        self.server.url()
    }

    /// A kubeconfig naming this server (context `envtest`), for programs that take one.
    pub fn kubeconfig(&self) -> String {
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: envtest\nclusters:\n- name: envtest\n  cluster:\n    server: {url}\ncontexts:\n- name: envtest\n  context:\n    cluster: envtest\n    user: envtest\nusers:\n- name: envtest\n  user: {{}}\n",
            url = self.server.url()
        )
    }

    /// Stops the server: watches end, requests in flight finish.
    pub async fn stop(self) {
        self.server.shutdown().await;
    }
}
