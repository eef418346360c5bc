//! The server (Go's `server.GenericAPIServer`): a [`Config`] of a scheme and a storage
//! backend becomes a running HTTP server on a listener it owns, serving discovery,
//! health checks and every served resource, until it is shut down. When the scheme has
//! `apiextensions.k8s.io` CRDs, the server also serves the custom resources they define
//! (see [`apiextensions`](crate::apiextensions)): what it serves is a snapshot rebuilt
//! whenever the established CRDs change.
//!
//! ```no_run
//! use std::sync::Arc;
//! use apiserver::server::Config;
//! use apiserver::storage::MemoryStorage;
//! use apimachinery::runtime::Scheme;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let mut scheme = Scheme::new();
//! scheme.add_registry()?; // every type linked in, e.g. k8s-types
//! let server = Config::new(Arc::new(scheme), Arc::new(MemoryStorage::new()))
//!     .serve("127.0.0.1:0".parse()?)
//!     .await?;
//! println!("serving on {}", server.url());
//! server.shutdown().await;
//! # Ok(()) }
//! ```

mod api;
mod filters;
mod handler;
mod healthz;
mod routes;
pub mod tls;
mod workers;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::Scheme;
use apimachinery::schema::GroupResource;
use axum::body::Body;
use axum::http::{Request, Response};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tower::ServiceBuilder;

use self::api::Api;
use self::filters::audit::WithAudit;
use self::filters::authentication::WithAuthentication;
use self::filters::authorization::WithAuthorization;
use self::filters::http_log::WithLogging;
use self::filters::impersonation::WithImpersonation;
use self::filters::max_in_flight::WithMaxInFlightLimit;
use self::filters::panic_recovery::WithPanicRecovery;
use self::filters::pretty_print::WithPrettyPrint;
use self::filters::request_info::WithRequestInfo;
use self::filters::timeout::WithTimeout;
use self::filters::{FilterLayer, FilterService, Handle};
use self::handler::ApiHandler;
use self::healthz::HealthChecks;
use self::routes::{Routes, reserved_names};
use crate::admission::Chain;
use crate::admission::plugins::{PluginSelection, PluginSelectionError};
use crate::admission::webhook::{DnsServiceResolver, ServiceResolver};
use crate::audit::AuditLog;
use crate::authentication::serviceaccount::ServiceAccountTokens;
use crate::authentication::{Anonymous, Authenticator};
use crate::authorization::{AlwaysAllow, Authorizer};
use crate::endpoints::deprecation::DeprecatedKinds;
use crate::registry::Store;
use crate::registry::builtin::rest_storages;
use crate::registry::core::service::allocator::ServiceNetwork;
use crate::registry::dependencies::Dependencies;
use crate::resource_config::ResourceConfig;
use crate::storage::Storage;

pub use self::filters::impersonation::{
    IMPERSONATE_EXTRA_HEADER_PREFIX, IMPERSONATE_GROUP_HEADER, IMPERSONATE_UID_HEADER,
    IMPERSONATE_USER_HEADER,
};
pub use self::filters::max_in_flight::{
    DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT, DEFAULT_MAX_REQUESTS_INFLIGHT,
};
pub use self::filters::timeout::DEFAULT_REQUEST_TIMEOUT;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The listen address could not be bound.
    #[error("cannot listen on {address}: {source}")]
    Bind {
        /// The address.
        address: SocketAddr,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The TLS configuration is not usable.
    #[error(transparent)]
    Tls(#[from] tls::TlsError),
    /// What a resource needs once the server starts (the default Namespaces) could not
    /// be done.
    #[error("starting {resource}: {source}")]
    PostStartHook {
        /// The resource.
        resource: GroupResource,
        /// Why.
        #[source]
        source: StatusError,
    },
    /// `--enable-admission-plugins` / `--disable-admission-plugins` name a plugin
    /// kube-apiserver does not have, or one both ways.
    #[error(transparent)]
    AdmissionPlugins(#[from] PluginSelectionError),
}

/// What a server is built from (Go's `server.Config`).
#[derive(Debug, Clone)]
pub struct Config {
    scheme: Arc<Scheme>,
    storage: Arc<dyn Storage>,
    authenticator: Arc<dyn Authenticator>,
    anonymous_auth: bool,
    authorizer: Arc<dyn Authorizer>,
    admission: Chain,
    admission_plugins: PluginSelection,
    webhook_services: Arc<dyn ServiceResolver>,
    service_account_tokens: Option<Arc<ServiceAccountTokens>>,
    service_network: ServiceNetwork,
    audit: Option<Arc<AuditLog>>,
    connection_workers: usize,
    request_timeout: Duration,
    max_requests_inflight: usize,
    max_mutating_requests_inflight: usize,
    shutdown_delay: Duration,
    resource_config: ResourceConfig,
    deprecated_kinds: DeprecatedKinds,
}

impl Config {
    /// A server of every resource kind in `scheme` (served versions only) in the
    /// versions kube-apiserver of the release serves by default (its GA versions: see
    /// [`resource_config`](Config::resource_config); groups kube-apiserver does not have
    /// are all served), kept in `storage`; every request anonymous and allowed,
    /// kube-apiserver's default admission plugins that this server implements, until
    /// the builder methods below say otherwise.
    pub fn new(scheme: Arc<Scheme>, storage: Arc<dyn Storage>) -> Self {
        Config {
            scheme,
            storage,
            authenticator: Arc::new(Anonymous),
            anonymous_auth: true,
            authorizer: Arc::new(AlwaysAllow),
            admission: Chain::new(),
            admission_plugins: PluginSelection::new(),
            webhook_services: Arc::new(DnsServiceResolver),
            service_account_tokens: None,
            service_network: ServiceNetwork::default(),
            audit: None,
            connection_workers: 0,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            max_requests_inflight: DEFAULT_MAX_REQUESTS_INFLIGHT,
            max_mutating_requests_inflight: DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT,
            shutdown_delay: Duration::ZERO,
            resource_config: ResourceConfig::kube_apiserver_default(),
            deprecated_kinds: DeprecatedKinds::new(),
        }
    }

    /// Which group versions and resources are served (Go's `--runtime-config` applied
    /// to the release's defaults): a version it turns off is in no discovery document
    /// or OpenAPI document, and requests to it are answered 404; by default kube-apiserver's
    /// ([`ResourceConfig::kube_apiserver_default`]: GA versions only).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use apiserver::resource_config::ResourceConfig;
    /// use apiserver::server::Config;
    /// use apiserver::storage::MemoryStorage;
    /// use apimachinery::runtime::Scheme;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut scheme = Scheme::new();
    /// scheme.add_registry()?;
    /// let mut served = ResourceConfig::kube_apiserver_default();
    /// served.apply_runtime_config("api/beta=true", &scheme)?;
    /// let config = Config::new(Arc::new(scheme), Arc::new(MemoryStorage::new()))
    ///     .resource_config(served);
    /// # drop(config);
    /// # Ok(()) }
    /// ```
    pub fn resource_config(mut self, config: ResourceConfig) -> Self {
        self.resource_config = config;
        self
    }

    /// The lifecycle of the built-in kinds: each request served by a kind deprecated in
    /// the server's release ([`crate::RELEASE`]) carries its warning, as kube-apiserver's
    /// routes do for a Go type whose `APILifecycleDeprecated()` is that release or
    /// before; none by default. A custom resource's warnings are its CRD's (a version
    /// marked `deprecated`).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use apiserver::endpoints::deprecation::DeprecatedKinds;
    /// use apiserver::server::Config;
    /// use apiserver::storage::MemoryStorage;
    /// use apimachinery::runtime::Scheme;
    /// use apimachinery::schema::GroupVersionKind;
    ///
    /// // k8s-types' lifecycle table has every kind's (see kapi serve).
    /// let kinds: DeprecatedKinds = [(
    ///     GroupVersionKind::new("", "v1", "ComponentStatus"),
    ///     (1, 19),
    ///     "v1 ComponentStatus is deprecated in v1.19+".to_owned(),
    /// )]
    /// .into_iter()
    /// .collect();
    /// let config = Config::new(Arc::new(Scheme::new()), Arc::new(MemoryStorage::new()))
    ///     .deprecated_kinds(kinds);
    /// # drop(config);
    /// ```
    pub fn deprecated_kinds(mut self, kinds: DeprecatedKinds) -> Self {
        self.deprecated_kinds = kinds;
        self
    }

    /// Serves connections on `count` threads of their own, each running a
    /// single-threaded runtime that handles everything of the connections it is given
    /// (accepted connections are handed out in turn); 0, the default, serves them as
    /// tasks of the runtime that calls [`serve`](Config::serve). A request then stays on
    /// one thread from its first byte to its answer, storage calls included, which saves
    /// the wake-ups of other threads that a multi-threaded runtime spends on every
    /// request (`kapi serve` uses one worker per CPU). The tasks a request starts (a
    /// watch cache's event pump) run on its worker; the server's own (the CRD
    /// controller) stay on the calling runtime. Workers end with the server.
    pub fn connection_workers(mut self, count: usize) -> Self {
        self.connection_workers = count;
        self
    }

    /// The issuer of service-account tokens: `POST .../serviceaccounts/NAME/token`
    /// (`TokenRequest`) is served with it; without one that subresource is 404. (To
    /// accept its tokens, put it in the authenticator too.)
    pub fn service_account_tokens(mut self, tokens: Arc<ServiceAccountTokens>) -> Self {
        self.service_account_tokens = Some(tokens);
        self
    }

    /// The ranges Services' cluster IPs and node ports are allocated from (Go's
    /// `--service-cluster-ip-range` and `--service-node-port-range`; by default
    /// 10.0.0.0/24 and 30000-32767, as kube-apiserver's).
    pub fn service_network(mut self, network: ServiceNetwork) -> Self {
        self.service_network = network;
        self
    }

    /// Writes an audit event of every request to `log` (Go's `--audit-log-path`).
    pub fn audit_log(mut self, log: Arc<AuditLog>) -> Self {
        self.audit = Some(log);
        self
    }

    /// Who makes each request (Go's `--authentication-*` flags and
    /// `authenticatorfactory`); a request it finds no credentials on is anonymous when
    /// [`anonymous_auth`](Config::anonymous_auth) allows, and refused with 401 otherwise.
    pub fn authenticator(mut self, authenticator: Arc<dyn Authenticator>) -> Self {
        self.authenticator = authenticator;
        self
    }

    /// Whether a request without credentials is served as `system:anonymous` (Go's
    /// `--anonymous-auth`, true by default) or refused with 401.
    pub fn anonymous_auth(mut self, allowed: bool) -> Self {
        self.anonymous_auth = allowed;
        self
    }

    /// What each authenticated request may do (Go's `--authorization-mode`): a request
    /// it does not allow is refused with 403.
    pub fn authorizer(mut self, authorizer: Arc<dyn Authorizer>) -> Self {
        self.authorizer = authorizer;
        self
    }

    /// The admission plugins every write goes through after it is authorized (Go's
    /// `--enable-admission-plugins` and the dynamic webhooks).
    pub fn admission(mut self, chain: Chain) -> Self {
        self.admission = chain;
        self
    }

    /// Which built-in admission plugins run (Go's `--enable-admission-plugins` and
    /// `--disable-admission-plugins`): by default kube-apiserver's default-on ones
    /// (those this server implements), always in Go's order. Go's envtest runs
    /// kube-apiserver with `ServiceAccount` disabled, as nothing there creates each
    /// namespace's `default` account. A name Go does not know fails
    /// [`handler`](Config::handler) with Go's error.
    pub fn admission_plugins(mut self, plugins: PluginSelection) -> Self {
        self.admission_plugins = plugins;
        self
    }

    /// Where admission webhooks configured with a `clientConfig.service` are reached
    /// (by default `https://NAME.NAMESPACE.svc:PORT/PATH` through DNS).
    pub fn webhook_service_resolver(mut self, resolver: Arc<dyn ServiceResolver>) -> Self {
        self.webhook_services = resolver;
        self
    }

    /// How long a request but a watch may take before it is answered 504 (Go's
    /// `--request-timeout`, [`DEFAULT_REQUEST_TIMEOUT`] by default).
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// How long a server told to stop goes on serving, with `/readyz` failing, before it
    /// stops accepting connections and drains (Go's `--shutdown-delay-duration`, none by
    /// default): the time load balancers need to see it is not ready.
    pub fn shutdown_delay(mut self, delay: Duration) -> Self {
        self.shutdown_delay = delay;
        self
    }

    /// How many requests may be served at once, those that change nothing and those
    /// that do (Go's `--max-requests-inflight` and `--max-mutating-requests-inflight`,
    /// 400 and 200 by default; 0 is no limit); more are answered 429.
    pub fn max_requests_inflight(mut self, read_only: usize, mutating: usize) -> Self {
        self.max_requests_inflight = read_only;
        self.max_mutating_requests_inflight = mutating;
        self
    }

    /// Binds `address` (port 0 picks a free one), creates the default namespaces and
    /// starts serving plain HTTP.
    pub async fn serve(self, address: SocketAddr) -> Result<GenericApiServer, ServerError> {
        let listener = TcpListener::bind(address)
            .await
            .map_err(|source| ServerError::Bind { address, source })?;
        let local = listener
            .local_addr()
            .map_err(|source| ServerError::Bind { address, source })?;
        let worker_count = self.connection_workers;
        let ApiServerHandler {
            chain,
            api,
            shutdown,
            shutdown_initiated,
            shutdown_delay,
            controllers,
        } = self.handler(&local.to_string()).await?;
        let stop = api.shutdown.clone();
        let task = if worker_count > 0 {
            workers::start(listener, chain, stop, worker_count, None)
                .map_err(|source| ServerError::Bind { address, source })?
        } else {
            tokio::spawn(serve_until_stopped(listener, chain, stop))
        };
        Ok(GenericApiServer {
            address: local,
            scheme: "http",
            shutdown,
            shutdown_initiated,
            shutdown_delay,
            task,
            controllers,
        })
    }

    /// As [`serve`](Config::serve), over TLS (Go's secure serving): the server's
    /// certificate and key and, when set, the client CAs whose certificates the x509
    /// authenticator accepts.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// use apiserver::server::Config;
    /// use apiserver::server::tls::TlsConfig;
    /// use apiserver::storage::MemoryStorage;
    /// use apimachinery::runtime::Scheme;
    ///
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let tls = TlsConfig::from_pem(&std::fs::read("apiserver.crt")?, &std::fs::read("apiserver.key")?)?;
    /// let server = Config::new(Arc::new(Scheme::new()), Arc::new(MemoryStorage::new()))
    ///     .serve_tls("127.0.0.1:6443".parse()?, tls)
    ///     .await?;
    /// assert!(server.url().starts_with("https://"));
    /// # Ok(()) }
    /// ```
    pub async fn serve_tls(
        self,
        address: SocketAddr,
        tls: tls::TlsConfig,
    ) -> Result<GenericApiServer, ServerError> {
        let config = tls.server_configs()?;
        let listener = TcpListener::bind(address)
            .await
            .map_err(|source| ServerError::Bind { address, source })?;
        let local = listener
            .local_addr()
            .map_err(|source| ServerError::Bind { address, source })?;
        let worker_count = self.connection_workers;
        let ApiServerHandler {
            chain,
            api,
            shutdown,
            shutdown_initiated,
            shutdown_delay,
            controllers,
        } = self.handler(&local.to_string()).await?;
        let stop = api.shutdown.clone();
        let task = if worker_count > 0 {
            workers::start(listener, chain, stop, worker_count, Some(config))
                .map_err(|source| ServerError::Bind { address, source })?
        } else {
            let listener = tls::TlsListener::new(listener, config)
                .map_err(|source| ServerError::Bind { address, source })?;
            tokio::spawn(serve_until_stopped(listener, chain, stop))
        };
        Ok(GenericApiServer {
            address: local,
            scheme: "https",
            shutdown,
            shutdown_initiated,
            shutdown_delay,
            task,
            controllers,
        })
    }

    /// The server's request handling without a listener (Go's `GenericAPIServer.Handler`,
    /// an `http.Handler` tests call with `ServeHTTP`): the default namespaces are
    /// created, and each request given to [`ApiServerHandler::serve_http`] is answered
    /// exactly as [`serve`](Config::serve)'s server answers it over a socket.
    /// `address` is what discovery reports as the server's address.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use apiserver::server::Config;
    /// use apiserver::storage::MemoryStorage;
    /// use apimachinery::runtime::Scheme;
    /// use axum::body::Body;
    /// use axum::http::Request;
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build()?.block_on(async {
    /// let config = Config::new(Arc::new(Scheme::new()), Arc::new(MemoryStorage::new()));
    /// let handler = config.handler("127.0.0.1:6443").await?;
    /// let response = handler.serve_http(Request::get("/healthz").body(Body::empty())?).await;
    /// assert_eq!(response.status(), 200);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub async fn handler(self, address: &str) -> Result<ApiServerHandler, ServerError> {
        self.admission_plugins.validate()?;
        let builtin = rest_storages(
            &Dependencies {
                scheme: self.scheme.clone(),
                storage: self.storage.clone(),
                authenticator: self.authenticator.clone(),
                authorizer: self.authorizer.clone(),
                service_account_tokens: self.service_account_tokens.clone(),
                service_network: self.service_network,
            },
            &self.resource_config,
        );
        let reserved = reserved_names(builtin.values().map(|rest| rest.store().info()));
        let routes = Routes::build(&self.scheme, &self.storage, &builtin, address, &[], None);
        let stores: BTreeMap<(String, String), Arc<Store>> = builtin
            .iter()
            .map(|(key, rest)| (key.clone(), rest.store().clone()))
            .collect();
        let admission = Chain::for_server(
            &self.admission_plugins,
            &self.admission,
            &stores,
            self.webhook_services.clone(),
        );
        let (shutdown, shutdown_rx) = watch::channel(false);
        let (shutdown_initiated, shutdown_initiated_rx) = watch::channel(false);
        let api = Arc::new(Api {
            scheme: self.scheme.clone(),
            storage: self.storage.clone(),
            address: address.to_owned(),
            admission,
            builtin: builtin.clone(),
            deprecated_kinds: self.deprecated_kinds.clone(),
            reserved,
            routes: RwLock::new(Arc::new(routes)),
            shutdown: shutdown_rx,
            health: HealthChecks::new(self.storage.clone(), shutdown_initiated_rx),
            authorizer: self.authorizer.clone(),
        });
        for ((group, resource), rest) in &builtin {
            rest.post_start()
                .await
                .map_err(|source| ServerError::PostStartHook {
                    resource: GroupResource::new(group.as_str(), resource.as_str()),
                    source,
                })?;
        }
        let mut controllers = Vec::new();
        if let Some(crds) = crate::apiextensions::controller::crd_store(&builtin) {
            controllers.push(crate::apiextensions::controller::start(api.clone(), crds).await);
        }
        controllers.extend(crate::registry::flowcontrol::config_consumer::start(
            self.storage.clone(),
            &builtin,
            api.shutdown.clone(),
        ));
        Ok(ApiServerHandler {
            chain: self.chain(api.clone()),
            api,
            shutdown,
            shutdown_initiated,
            shutdown_delay: self.shutdown_delay,
            controllers,
        })
    }

    /// The filter chain around the server's handler (Go's `DefaultBuildHandlerChain`;
    /// see [`filters`]).
    fn chain(&self, api: Arc<Api>) -> HandlerChain {
        ServiceBuilder::new()
            .layer(FilterLayer(WithPanicRecovery))
            .layer(FilterLayer(WithPrettyPrint))
            .layer(FilterLayer(WithLogging))
            .layer(FilterLayer(WithRequestInfo))
            .layer(FilterLayer(WithAudit::new(self.audit.clone())))
            .layer(FilterLayer(WithTimeout::new(self.request_timeout)))
            .layer(FilterLayer(WithAuthentication::new(
                self.authenticator.clone(),
                self.anonymous_auth,
            )))
            .layer(FilterLayer(WithImpersonation::new(self.authorizer.clone())))
            .layer(FilterLayer(WithMaxInFlightLimit::new(
                self.max_requests_inflight,
                self.max_mutating_requests_inflight,
            )))
            .layer(FilterLayer(WithAuthorization::new(self.authorizer.clone())))
            .service(ApiHandler(api))
    }
}

/// The server's request handling: the filters, outermost first, around the handler.
pub(crate) type HandlerChain = FilterService<
    WithPanicRecovery,
    FilterService<
        WithPrettyPrint,
        FilterService<
            WithLogging,
            FilterService<
                WithRequestInfo,
                FilterService<
                    WithAudit,
                    FilterService<
                        WithTimeout,
                        FilterService<
                            WithAuthentication,
                            FilterService<
                                WithImpersonation,
                                FilterService<
                                    WithMaxInFlightLimit,
                                    FilterService<WithAuthorization, ApiHandler>,
                                >,
                            >,
                        >,
                    >,
                >,
            >,
        >,
    >,
>;

/// Serves `chain` on the connections of `listener` until the server is told to stop
/// (`stop`), then lets the requests in flight finish.
async fn serve_until_stopped<L>(
    listener: L,
    chain: HandlerChain,
    stop: watch::Receiver<bool>,
) -> std::io::Result<()>
where
    L: axum::serve::Listener,
    L::Addr: std::fmt::Debug,
    tls::ConnectionInfo:
        for<'a> axum::extract::connect_info::Connected<axum::serve::IncomingStream<'a, L>>,
{
    // Every request goes through the chain, with its connection ([`tls::ConnectionInfo`],
    // as axum's `ConnectInfo`) in its extensions. No router in front: it would look up a
    // path nothing is routed by and make a route of its fallback for every request.
    let app = axum::ServiceExt::<Request<Body>>::into_make_service_with_connect_info::<
        tls::ConnectionInfo,
    >(chain);
    axum::serve(listener, app)
        .with_graceful_shutdown(stopped(stop))
        .await
}

/// Resolves when the server is told to stop.
async fn stopped(mut stop: watch::Receiver<bool>) {
    while !*stop.borrow() {
        if stop.changed().await.is_err() {
            break;
        }
    }
}

/// The server's request handling, without a listener (see [`Config::handler`]).
/// Dropping it ends the watches it started.
#[derive(Debug)]
pub struct ApiServerHandler {
    chain: HandlerChain,
    api: Arc<Api>,
    shutdown: watch::Sender<bool>,
    /// Set when the server is told to stop, before the delay and the drain.
    shutdown_initiated: watch::Sender<bool>,
    shutdown_delay: Duration,
    /// The tasks of the server's own controllers: the CRD controller's, when the
    /// scheme has CRDs, and API priority and fairness's config consumer's, when
    /// FlowSchemas are served.
    controllers: Vec<JoinHandle<()>>,
}

impl ApiServerHandler {
    /// Answers one request (Go's `ServeHTTP`). A watch's response body streams events
    /// until the handler is dropped or the watch times out.
    pub async fn serve_http(&self, request: Request<Body>) -> Response<Body> {
        self.chain.handle(request).await
    }
}

/// A running server (Go's `GenericAPIServer` after `Run`).
#[derive(Debug)]
pub struct GenericApiServer {
    address: SocketAddr,
    scheme: &'static str,
    shutdown: watch::Sender<bool>,
    shutdown_initiated: watch::Sender<bool>,
    shutdown_delay: Duration,
    task: JoinHandle<std::io::Result<()>>,
    controllers: Vec<JoinHandle<()>>,
}

impl GenericApiServer {
    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.address
    }

    /// Its base URL, `http://127.0.0.1:PORT` (`https://` when served over TLS).
    pub fn url(&self) -> String {
        format!("{}://{}", self.scheme, self.address)
    }

    /// Stops the server as Go's does: `/readyz` fails from now on, the server goes on
    /// serving for the shutdown delay ([`Config::shutdown_delay`]), then stops accepting
    /// connections, ends every watch, lets requests in flight finish, and returns when
    /// it has stopped.
    pub async fn shutdown(self) {
        let _ = self.shutdown_initiated.send(true);
        tracing::info!(delay = ?self.shutdown_delay, "shutting down");
        if !self.shutdown_delay.is_zero() {
            tokio::time::sleep(self.shutdown_delay).await;
        }
        let _ = self.shutdown.send(true);
        let _ = self.task.await;
        for controller in self.controllers {
            let _ = controller.await;
        }
    }
}
