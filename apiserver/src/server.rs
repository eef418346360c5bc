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

pub mod tls;
mod workers;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, RwLock};

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::Scheme;
use apimachinery::schema::GroupResource;
use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, Method, Request, Response, StatusCode, header};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::admission::Chain;
use crate::admission::webhook::{DnsServiceResolver, ServiceResolver};
use crate::apiextensions::controller::CustomResourceServer;
use crate::apiextensions::{CustomResource, ReservedNames};
use crate::audit::{AUDIT_ID_HEADER, AuditLog};
use crate::authentication::serviceaccount::ServiceAccountTokens;
use crate::authentication::user::Info;
use crate::authentication::{self, Anonymous, Authenticator, ClientCertificates};
use crate::authorization::{self, AlwaysAllow, Attributes, Authorizer, Decision};
use crate::discovery::{AGGREGATED_CONTENT_TYPE, Discovery, wants_aggregated};
use crate::endpoints::handlers::{Handler, MAX_REQUEST_BODY_BYTES, Query, Reply};
use crate::endpoints::negotiation::{
    TABLE_CONTENT_TYPE, negotiate_input, negotiate_output_options, wants_table,
};
use crate::endpoints::request_info::{RequestInfo, RequestInfoError};
use crate::endpoints::responsewriters::{method_not_allowed, path_not_found, status_json};
use crate::endpoints::watch as watch_handler;
use crate::openapi::OpenApi;
use crate::registry::apiextensions::customresource::CustomResourceStorage;
use crate::registry::builtin::rest_storages;
use crate::registry::dependencies::Dependencies;
use crate::registry::{ResourceInfo, Resources, RestStorage, Store, TableConvertor};
use crate::storage::Storage;

/// The Kubernetes version the server reports at `/version`.
const KUBERNETES_MINOR: &str = "36";

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
    webhook_services: Arc<dyn ServiceResolver>,
    service_account_tokens: Option<Arc<ServiceAccountTokens>>,
    audit: Option<Arc<AuditLog>>,
    connection_workers: usize,
}

impl Config {
    /// A server of every resource kind in `scheme` (served versions only), kept in
    /// `storage`; every request anonymous and allowed, no admission plugins, until the
    /// builder methods below say otherwise.
    pub fn new(scheme: Arc<Scheme>, storage: Arc<dyn Storage>) -> Self {
        Config {
            scheme,
            storage,
            authenticator: Arc::new(Anonymous),
            anonymous_auth: true,
            authorizer: Arc::new(AlwaysAllow),
            admission: Chain::new(),
            webhook_services: Arc::new(DnsServiceResolver),
            service_account_tokens: None,
            audit: None,
            connection_workers: 0,
        }
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

    /// Where admission webhooks configured with a `clientConfig.service` are reached
    /// (by default `https://NAME.NAMESPACE.svc:PORT/PATH` through DNS).
    pub fn webhook_service_resolver(mut self, resolver: Arc<dyn ServiceResolver>) -> Self {
        self.webhook_services = resolver;
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
            api,
            shutdown,
            controller,
        } = self.handler(&local.to_string()).await?;
        let task = if worker_count > 0 {
            workers::start(listener, api, worker_count, None)
                .map_err(|source| ServerError::Bind { address, source })?
        } else {
            tokio::spawn(serve_until_stopped(listener, api))
        };
        Ok(GenericApiServer {
            address: local,
            scheme: "http",
            shutdown,
            task,
            controller,
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
        let config = tls.server_config()?;
        let listener = TcpListener::bind(address)
            .await
            .map_err(|source| ServerError::Bind { address, source })?;
        let local = listener
            .local_addr()
            .map_err(|source| ServerError::Bind { address, source })?;
        let worker_count = self.connection_workers;
        let ApiServerHandler {
            api,
            shutdown,
            controller,
        } = self.handler(&local.to_string()).await?;
        let task = if worker_count > 0 {
            workers::start(listener, api, worker_count, Some(config))
                .map_err(|source| ServerError::Bind { address, source })?
        } else {
            let listener = tls::TlsListener::new(listener, config)
                .map_err(|source| ServerError::Bind { address, source })?;
            tokio::spawn(serve_until_stopped(listener, api))
        };
        Ok(GenericApiServer {
            address: local,
            scheme: "https",
            shutdown,
            task,
            controller,
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
        let builtin = rest_storages(&Dependencies {
            scheme: self.scheme.clone(),
            storage: self.storage.clone(),
            authenticator: self.authenticator.clone(),
            authorizer: self.authorizer.clone(),
            service_account_tokens: self.service_account_tokens.clone(),
        });
        let reserved = reserved_names(builtin.values().map(|rest| rest.store().info()));
        let routes = Routes::build(&self.scheme, &self.storage, &builtin, address, &[], None);
        let stores: BTreeMap<(String, String), Arc<Store>> = builtin
            .iter()
            .map(|(key, rest)| (key.clone(), rest.store().clone()))
            .collect();
        let admission = Chain::for_server(
            &self.admission,
            &stores,
            self.storage.clone(),
            self.webhook_services,
        );
        let (shutdown, shutdown_rx) = watch::channel(false);
        let api = Arc::new(Api {
            scheme: self.scheme,
            storage: self.storage,
            address: address.to_owned(),
            authenticator: self.authenticator,
            anonymous_auth: self.anonymous_auth,
            authorizer: self.authorizer,
            admission,
            audit: self.audit,
            builtin: builtin.clone(),
            reserved,
            routes: RwLock::new(Arc::new(routes)),
            shutdown: shutdown_rx,
        });
        for ((group, resource), rest) in &builtin {
            rest.post_start()
                .await
                .map_err(|source| ServerError::PostStartHook {
                    resource: GroupResource::new(group.as_str(), resource.as_str()),
                    source,
                })?;
        }
        let controller = match crate::apiextensions::controller::crd_store(&builtin) {
            Some(crds) => Some(crate::apiextensions::controller::start(api.clone(), crds).await),
            None => None,
        };
        Ok(ApiServerHandler {
            api,
            shutdown,
            controller,
        })
    }
}

/// The router of a listener: every request goes to the server, with its connection's
/// client certificates in its extensions.
fn router(api: Arc<Api>) -> axum::Router {
    axum::Router::new().fallback(move |mut req: Request<Body>| {
        let api = api.clone();
        async move {
            let connection = req
                .extensions()
                .get::<axum::extract::ConnectInfo<tls::ConnectionInfo>>()
                .map(|c| c.0.clone());
            if let Some(connection) = connection {
                req.extensions_mut()
                    .insert(connection.client_certificates.clone());
                req.extensions_mut().insert(connection);
            }
            api.serve(req).await
        }
    })
}

/// Serves `api` on the connections of `listener` until the server is told to stop,
/// then lets the requests in flight finish.
async fn serve_until_stopped<L>(listener: L, api: Arc<Api>) -> std::io::Result<()>
where
    L: axum::serve::Listener,
    L::Addr: std::fmt::Debug,
    tls::ConnectionInfo:
        for<'a> axum::extract::connect_info::Connected<axum::serve::IncomingStream<'a, L>>,
{
    let app = router(api.clone()).into_make_service_with_connect_info::<tls::ConnectionInfo>();
    axum::serve(listener, app)
        .with_graceful_shutdown(stopped(api.shutdown.clone()))
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
    api: Arc<Api>,
    shutdown: watch::Sender<bool>,
    /// The CRD controller's task, when the scheme has CRDs.
    controller: Option<JoinHandle<()>>,
}

impl ApiServerHandler {
    /// Answers one request (Go's `ServeHTTP`). A watch's response body streams events
    /// until the handler is dropped or the watch times out.
    pub async fn serve_http(&self, request: Request<Body>) -> Response<Body> {
        self.api.serve(request).await
    }
}

/// A running server (Go's `GenericAPIServer` after `Run`).
#[derive(Debug)]
pub struct GenericApiServer {
    address: SocketAddr,
    scheme: &'static str,
    shutdown: watch::Sender<bool>,
    task: JoinHandle<std::io::Result<()>>,
    controller: Option<JoinHandle<()>>,
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

    /// Stops accepting connections, ends every watch, lets requests in flight finish,
    /// and returns when the server has stopped.
    pub async fn shutdown(self) {
        let _ = self.shutdown.send(true);
        let _ = self.task.await;
        if let Some(controller) = self.controller {
            let _ = controller.await;
        }
    }
}

/// The request router and its state.
#[derive(Debug)]
pub(crate) struct Api {
    pub(crate) scheme: Arc<Scheme>,
    pub(crate) storage: Arc<dyn Storage>,
    address: String,
    authenticator: Arc<dyn Authenticator>,
    anonymous_auth: bool,
    authorizer: Arc<dyn Authorizer>,
    admission: Chain,
    audit: Option<Arc<AuditLog>>,
    /// The REST storages of the built-in resources, which never change.
    builtin: BTreeMap<(String, String), Arc<dyn RestStorage>>,
    /// The built-in names custom resources may not take.
    pub(crate) reserved: ReservedNames,
    /// What is served now: rebuilt when the custom resources change.
    routes: RwLock<Arc<Routes>>,
    pub(crate) shutdown: watch::Receiver<bool>,
}

/// What a server serves at one moment: the REST storage of every resource, discovery
/// and the OpenAPI documents, rebuilt as a whole when a CRD starts or stops being
/// served, so a request sees one consistent set.
#[derive(Debug)]
pub(crate) struct Routes {
    pub(crate) storages: BTreeMap<(String, String), Arc<dyn RestStorage>>,
    discovery: Discovery,
    openapi: OpenApi,
    /// The custom resources installed.
    installed: Vec<Arc<CustomResource>>,
    /// The REST storages of those served.
    custom: Vec<Arc<CustomResourceStorage>>,
}

impl Routes {
    /// The built-in stores with those of `custom` (reusing the stores of `previous`
    /// whose definitions did not change, so their watch caches go on).
    fn build(
        scheme: &Arc<Scheme>,
        storage: &Arc<dyn Storage>,
        builtin: &BTreeMap<(String, String), Arc<dyn RestStorage>>,
        address: &str,
        custom: &[Arc<CustomResource>],
        previous: Option<&Routes>,
    ) -> Routes {
        let mut storages = builtin.clone();
        let mut served = Vec::new();
        for cr in custom {
            let key = (cr.group.clone(), cr.plural.clone());
            if storages.contains_key(&key) {
                continue;
            }
            let reused = previous
                .and_then(|p| p.custom.iter().find(|s| **s.definition() == **cr))
                .cloned();
            let rest = reused.unwrap_or_else(|| {
                Arc::new(CustomResourceStorage::new(
                    scheme.clone(),
                    storage.clone(),
                    cr.clone(),
                ))
            });
            storages.insert(key, rest.clone());
            served.push(rest);
        }
        let infos: BTreeMap<(String, String), ResourceInfo> = storages
            .iter()
            .map(|(k, s)| (k.clone(), s.store().info().clone()))
            .collect();
        let discovery = Discovery::with_group_order(
            &crate::discovery::group_order(scheme, &infos),
            &infos,
            address,
        );
        let group_versions: std::collections::BTreeSet<(String, String)> = builtin
            .values()
            .flat_map(|s| {
                let r = s.store().info();
                r.versions.iter().map(|v| (r.group.clone(), v.clone()))
            })
            .collect();
        let mut custom_gvs: BTreeMap<(String, String), Vec<&CustomResource>> = BTreeMap::new();
        for cr in custom {
            for v in cr.served_versions() {
                custom_gvs
                    .entry((cr.group.clone(), v))
                    .or_default()
                    .push(cr);
            }
        }
        let openapi = OpenApi::for_group_versions(
            group_versions.iter().map(|(g, v)| (g.as_str(), v.as_str())),
        )
        .with_documents(custom_gvs.iter().map(|((g, v), crs)| {
            let doc = crate::apiextensions::openapi::document(g, v, crs);
            (
                crate::openapi::document_key(g, v),
                serde_json::to_vec(&doc).unwrap_or_default(),
            )
        }));
        Routes {
            storages,
            discovery,
            openapi,
            installed: custom.to_vec(),
            custom: served,
        }
    }
}

/// The names of the built-in resources, which no CRD may take.
fn reserved_names<'a>(resources: impl Iterator<Item = &'a ResourceInfo>) -> ReservedNames {
    let mut reserved = ReservedNames::default();
    for r in resources {
        for name in std::iter::once(&r.resource)
            .chain(std::iter::once(&r.singular))
            .chain(&r.short_names)
        {
            reserved.resources.insert((r.group.clone(), name.clone()));
        }
        reserved.kinds.insert((r.group.clone(), r.kind.clone()));
        reserved
            .kinds
            .insert((r.group.clone(), format!("{}List", r.kind)));
    }
    reserved
}

fn json_response(code: u16, content_type: &str, body: Vec<u8>) -> Response<Body> {
    let mut resp = Response::new(Body::from(body));
    *resp.status_mut() = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    if let Ok(v) = HeaderValue::from_str(content_type) {
        resp.headers_mut().insert(header::CONTENT_TYPE, v);
    }
    resp
}

fn error_response(err: &StatusError) -> Response<Body> {
    json_response(err.code(), "application/json", status_json(&err.status))
}

fn value_response(value: &serde_json::Value, content_type: &str) -> Response<Body> {
    let mut body = serde_json::to_vec(value).unwrap_or_default();
    body.push(b'\n');
    json_response(200, content_type, body)
}

fn reply_response(reply: Reply) -> Response<Body> {
    let mut resp = json_response(reply.code, reply.content_type, reply.body);
    for w in reply.warnings {
        let text = format!("299 - {:?}", w);
        if let Ok(v) = HeaderValue::from_str(&text) {
            resp.headers_mut().append(header::WARNING, v);
        }
    }
    resp
}

fn resource_list(routes: &Routes, group_version: &str) -> Response<Body> {
    match routes.discovery.resource_lists.get(group_version) {
        Some(v) => value_response(v, "application/json"),
        None => error_response(&path_not_found(group_version)),
    }
}

/// A get or list answer as the `meta.k8s.io/v1` Table `kubectl get` asks for, made by
/// the resource's table convertor.
fn table_reply(
    convertor: &dyn TableConvertor,
    info: &RequestInfo,
    query: &Query,
    reply: Reply,
) -> Result<Reply, StatusError> {
    let body: serde_json::Value = serde_json::from_slice(&reply.body).map_err(|e| {
        errors::new_internal_error(format!("reading the answer for its table: {e}"))
    })?;
    let (objects, mut list_meta) = if info.verb == "list" {
        let items = body
            .get("items")
            .and_then(serde_json::Value::as_array)
            .cloned()
            .unwrap_or_default();
        let meta = body
            .get("metadata")
            .and_then(serde_json::Value::as_object)
            .cloned()
            .unwrap_or_default();
        (items, meta)
    } else {
        (vec![body], serde_json::Map::new())
    };
    list_meta.retain(|k, _| k == "resourceVersion" || k == "continue");
    let include = query
        .get("includeObject")
        .map_or("Metadata", String::as_str);
    let table = convertor.convert_to_table(&info.api_version, &objects, list_meta, include);
    let mut body = serde_json::to_vec(&table)
        .map_err(|e| errors::new_internal_error(format!("writing the table: {e}")))?;
    body.push(b'\n');
    Ok(Reply {
        code: 200,
        content_type: TABLE_CONTENT_TYPE,
        body,
        warnings: reply.warnings,
    })
}

fn header_str(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

impl Api {
    /// What is served now.
    pub(crate) fn routes(&self) -> Arc<Routes> {
        match self.routes.read() {
            Ok(r) => r.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Serves exactly `custom` besides the built-in resources from now on (nothing is
    /// rebuilt when that is already so).
    pub(crate) fn install(&self, custom: &[Arc<CustomResource>]) {
        let current = self.routes();
        if current.installed.len() == custom.len()
            && current
                .installed
                .iter()
                .zip(custom)
                .all(|(a, b)| **a == **b)
        {
            return;
        }
        let routes = Routes::build(
            &self.scheme,
            &self.storage,
            &self.builtin,
            &self.address,
            custom,
            Some(&current),
        );
        // Server-side apply merges custom resources by their CRD's schema (list and map
        // types), as Go's field manager does, instead of a deduced type.
        let gvks = |crs: &[Arc<CustomResource>]| -> Vec<(
            apimachinery::schema::GroupVersionKind,
            Option<serde_json::Value>,
        )> {
            crs.iter()
                .flat_map(|cr| {
                    cr.versions.iter().map(|v| {
                        (
                            apimachinery::schema::GroupVersionKind::new(
                                cr.group.as_str(),
                                v.name.as_str(),
                                cr.kind.as_str(),
                            ),
                            v.schema.clone(),
                        )
                    })
                })
                .collect()
        };
        for (gvk, _) in gvks(&current.installed) {
            crate::endpoints::fieldmanager::forget_types(&gvk);
        }
        for (gvk, schema) in gvks(custom) {
            if let Some(schema) = schema {
                crate::endpoints::fieldmanager::register_types(
                    gvk,
                    apimachinery::managedfields::ParseableType::from_openapi_v3_schema(&schema),
                );
            }
        }
        match self.routes.write() {
            Ok(mut r) => *r = Arc::new(routes),
            Err(poisoned) => *poisoned.into_inner() = Arc::new(routes),
        }
    }

    /// Who asks (Go's `WithAuthentication`): the authenticator's user, or the anonymous
    /// one when the request carries no credentials and anonymous requests are allowed.
    async fn authenticate(&self, parts: &axum::http::request::Parts) -> Result<Info, StatusError> {
        let certificates = parts
            .extensions
            .get::<ClientCertificates>()
            .map(|c| c.0.as_slice())
            .unwrap_or_default();
        let request = authentication::Request {
            headers: &parts.headers,
            client_certificates: certificates,
        };
        match self.authenticator.authenticate(&request).await {
            Ok(Some(user)) => Ok(user),
            Ok(None) if self.anonymous_auth => Ok(Info::anonymous()),
            Ok(None) | Err(_) => Err(errors::new_unauthorized("Unauthorized")),
        }
    }

    /// May `user` do what the request asks (Go's `WithAuthorization`): 403 naming user,
    /// verb, resource and namespace otherwise.
    async fn authorize(
        &self,
        user: &Info,
        method: &Method,
        path: &str,
        info: Option<&RequestInfo>,
    ) -> Result<(), StatusError> {
        let attributes = match info {
            Some(info) => Attributes::for_resource(user.clone(), info, path),
            None => Attributes::for_path(user.clone(), method.as_str(), path),
        };
        let (decision, reason) = self.authorizer.authorize(&attributes).await;
        if decision == Decision::Allow {
            return Ok(());
        }
        let message = authorization::forbidden_message(&attributes);
        let why = if reason.is_empty() {
            message
        } else {
            format!("{message}: {reason}")
        };
        let resource =
            GroupResource::new(attributes.api_group.as_str(), attributes.resource.as_str());
        Err(errors::new_forbidden(&resource, &attributes.name, why))
    }

    async fn serve(&self, req: Request<Body>) -> Response<Body> {
        let received = apimachinery::apis::meta::v1::MicroTime::now();
        let (parts, body) = req.into_parts();
        let user = self.authenticate(&parts).await;
        let mut response = match &user {
            Ok(user) => self.serve_as(user, &parts, body).await,
            Err(e) => error_response(e),
        };
        if let Some(log) = &self.audit {
            audit_request(log, &parts, user.as_ref().ok(), received, &mut response);
        }
        response
    }

    /// Answers a request of an authenticated `user`.
    async fn serve_as(
        &self,
        user: &Info,
        parts: &axum::http::request::Parts,
        body: Body,
    ) -> Response<Body> {
        let path = parts.uri.path().to_owned();
        let query: Query = parts
            .uri
            .query()
            .map(|q| serde_urlencoded::from_str::<Vec<(String, String)>>(q).unwrap_or_default())
            .unwrap_or_default()
            .into_iter()
            .collect();
        let watch_param = matches!(query.get("watch").map(String::as_str), Some("true" | "1"));
        let parsed = RequestInfo::parse(parts.method.as_str(), &path, watch_param);
        if let Err(e) = self
            .authorize(user, &parts.method, &path, parsed.as_ref().ok())
            .await
        {
            return error_response(&e);
        }
        let accept = header_str(&parts.headers, header::ACCEPT)
            .unwrap_or_default()
            .to_owned();
        let routes = self.routes();
        match path.trim_end_matches('/') {
            "/healthz" | "/livez" | "/readyz" | "/healthz/ping" | "/livez/ping"
            | "/readyz/ping" => {
                return json_response(200, "text/plain; charset=utf-8", b"ok".to_vec());
            }
            "/version" => return value_response(&version_info(), "application/json"),
            "/api" => {
                return if wants_aggregated(&accept) {
                    value_response(&routes.discovery.aggregated_core, AGGREGATED_CONTENT_TYPE)
                } else {
                    value_response(&routes.discovery.core_versions, "application/json")
                };
            }
            "/apis" => {
                return if wants_aggregated(&accept) {
                    value_response(&routes.discovery.aggregated_groups, AGGREGATED_CONTENT_TYPE)
                } else {
                    value_response(&routes.discovery.groups, "application/json")
                };
            }
            _ => {}
        }
        if path.starts_with("/openapi/") {
            let path_and_query = parts
                .uri
                .path_and_query()
                .map(|p| p.as_str())
                .unwrap_or(&path);
            return match routes
                .openapi
                .serve(&parts.method, path_and_query, &parts.headers)
            {
                Some(r) => {
                    let mut resp = Response::new(Body::from(r.body));
                    *resp.status_mut() = r.status;
                    *resp.headers_mut() = r.headers;
                    resp
                }
                None => error_response(&path_not_found(&path)),
            };
        }
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        match segments.as_slice() {
            ["api", version] => {
                return resource_list(&routes, version);
            }
            ["apis", group] => {
                return match routes.discovery.group.get(*group) {
                    Some(v) => value_response(v, "application/json"),
                    None => error_response(&path_not_found(&path)),
                };
            }
            ["apis", group, version] => {
                return resource_list(&routes, &format!("{group}/{version}"));
            }
            _ => {}
        }
        let info = match parsed {
            Ok(info) => info,
            Err(RequestInfoError::MethodNotAllowed { method, path }) => {
                return error_response(&method_not_allowed(&method, &path));
            }
            Err(RequestInfoError::NotFound { path }) => {
                return error_response(&path_not_found(&path));
            }
        };
        let body = match axum::body::to_bytes(body, MAX_REQUEST_BODY_BYTES).await {
            Ok(b) => b,
            Err(_) => {
                return error_response(&errors::new_request_entity_too_large_error(&format!(
                    "limit is {MAX_REQUEST_BODY_BYTES}"
                )));
            }
        };
        let content_type = header_str(&parts.headers, header::CONTENT_TYPE).map(str::to_owned);
        let user_agent = header_str(&parts.headers, header::USER_AGENT).unwrap_or_default();
        match self
            .resource(
                &parts.method,
                &path,
                &info,
                &query,
                user,
                &accept,
                &body,
                content_type.as_deref(),
                user_agent,
            )
            .await
        {
            Ok(resp) => resp,
            Err(e) => error_response(&e),
        }
    }

    #[allow(clippy::too_many_arguments)]
    async fn resource(
        &self,
        method: &Method,
        path: &str,
        info: &RequestInfo,
        query: &Query,
        user: &Info,
        accept: &str,
        body: &[u8],
        content_type: Option<&str>,
        user_agent: &str,
    ) -> Result<Response<Body>, StatusError> {
        let routes = self.routes();
        let rest = routes
            .storages
            .get(&(info.api_group.clone(), info.resource.clone()))
            .filter(|s| s.store().info().serves(&info.api_version))
            .ok_or_else(|| path_not_found(path))?;
        let store = rest.store();
        let resource: &ResourceInfo = store.info();
        // A namespaced item needs its namespace in the path; a cluster-scoped resource
        // has none.
        let item = !info.name.is_empty();
        if resource.namespaced && item && info.namespace.is_none() {
            return Err(path_not_found(path));
        }
        if !resource.namespaced && info.namespace.is_some() {
            return Err(path_not_found(path));
        }
        if resource.namespaced && info.verb == "create" && info.namespace.is_none() {
            return Err(method_not_allowed(method.as_str(), path));
        }
        let subresource = match info.subresource.as_str() {
            "" => None,
            "status" if resource.has_status => {
                if !matches!(info.verb.as_str(), "get" | "update" | "patch") {
                    return Err(method_not_allowed(method.as_str(), path));
                }
                None
            }
            "scale" if resource.has_scale => None,
            name => match rest.subresource(name) {
                Some(creater) if info.verb == "create" => Some(creater),
                _ => return Err(path_not_found(path)),
            },
        };
        if resource.is_create_only() && info.verb != "create" {
            return Err(method_not_allowed(method.as_str(), path));
        }
        // Custom resources have no protobuf form: Go offers them as JSON and YAML, and
        // their metadata (`as=PartialObjectMetadata`) in protobuf too.
        let unstructured = store.strategy().is_unstructured();
        let output = negotiate_output_options(Some(accept), !unstructured)?;
        if info.verb == "create" && subresource.is_none() {
            rest.check_create()?;
        }
        let h = Handler {
            scheme: &self.scheme,
            rest: &**rest,
            store,
            info,
            query,
            user,
            admission: &self.admission,
            output: output.media,
            conversion: output.conversion,
            user_agent,
        };
        // Go converts a write's answer after writing; one that cannot be converted is
        // refused before anything is written (a delete of a kind answering a Status
        // when the object goes is converted, or not, as Go does: after).
        match info.verb.as_str() {
            "create" | "update" | "patch" => h.check_conversion(false)?,
            "deletecollection" => h.check_conversion(true)?,
            "delete" if store.strategy().returns_deleted_object() => h.check_conversion(false)?,
            _ => {}
        }
        if let Some(creater) = subresource {
            return h
                .answer(creater, body, negotiate_input(content_type)?)
                .await
                .map(reply_response);
        }
        if info.subresource == "scale" {
            return h
                .scale(method.as_str(), body, content_type)
                .await
                .map(reply_response);
        }
        if let Some(convertor) = rest.table_convertor() {
            if wants_table(accept)
                && info.subresource.is_empty()
                && matches!(info.verb.as_str(), "get" | "list")
            {
                let reply = if info.verb == "get" {
                    h.get().await?
                } else {
                    h.list().await?
                };
                return Ok(reply_response(table_reply(convertor, info, query, reply)?));
            }
        }
        let reply = match info.verb.as_str() {
            "get" => h.get().await?,
            "list" => h.list().await?,
            "watch" => {
                rest.check_watch(&info.api_version, path)?;
                let (stream, content_type) =
                    watch_handler::watch(&h, self.shutdown.clone()).await?;
                let mut resp = Response::new(Body::from_stream(stream));
                resp.headers_mut()
                    .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
                resp.headers_mut().insert(
                    header::TRANSFER_ENCODING,
                    HeaderValue::from_static("chunked"),
                );
                return Ok(resp);
            }
            "create" => match rest.creater() {
                Some(creater) => {
                    h.answer(creater, body, negotiate_input(content_type)?)
                        .await?
                }
                None if resource.is_create_only() => {
                    return Err(method_not_allowed(
                        "POST",
                        &format!(
                            "{}: this server has no scheduler or admission to act on it",
                            resource.resource
                        ),
                    ));
                }
                None => h.create(body, negotiate_input(content_type)?).await?,
            },
            "update" => h.update(body, negotiate_input(content_type)?).await?,
            "patch" => h.patch(body, content_type).await?,
            "delete" => h.delete(body, self).await?,
            "deletecollection" => h.delete_collection(body).await?,
            other => return Err(method_not_allowed(other, path)),
        };
        Ok(reply_response(reply))
    }
}

impl Resources for Api {
    fn stores(&self) -> Vec<Arc<Store>> {
        self.routes()
            .storages
            .values()
            .map(|rest| rest.store().clone())
            .collect()
    }
}

impl CustomResourceServer for Api {
    fn scheme(&self) -> &Arc<Scheme> {
        &self.scheme
    }

    fn storage(&self) -> &Arc<dyn Storage> {
        &self.storage
    }

    fn reserved(&self) -> &ReservedNames {
        &self.reserved
    }

    fn install(&self, custom: &[Arc<CustomResource>]) {
        Api::install(self, custom);
    }

    fn store(&self, group: &str, resource: &str) -> Option<Arc<Store>> {
        self.routes()
            .storages
            .get(&(group.to_owned(), resource.to_owned()))
            .map(|rest| rest.store().clone())
    }

    fn shutdown(&self) -> watch::Receiver<bool> {
        self.shutdown.clone()
    }
}

/// Writes the audit event of a request answered with `response`, and tells the client
/// its audit id (Go's `Audit-Id` response header).
fn audit_request(
    log: &AuditLog,
    parts: &axum::http::request::Parts,
    user: Option<&Info>,
    received: apimachinery::apis::meta::v1::MicroTime,
    response: &mut Response<Body>,
) {
    use crate::audit::{Event, ObjectReference, UserInfo};
    let audit_id = header_str(
        &parts.headers,
        header::HeaderName::from_static(AUDIT_ID_HEADER),
    )
    .filter(|id| !id.is_empty())
    .map(str::to_owned)
    .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let path = parts.uri.path();
    let watch = parts.uri.query().is_some_and(|q| {
        serde_urlencoded::from_str::<Vec<(String, String)>>(q)
            .unwrap_or_default()
            .iter()
            .any(|(k, v)| k == "watch" && matches!(v.as_str(), "true" | "1"))
    });
    let info = RequestInfo::parse(parts.method.as_str(), path, watch).ok();
    let verb = match &info {
        Some(info) => info.verb.clone(),
        None => parts.method.as_str().to_ascii_lowercase(),
    };
    let source_ip = parts
        .extensions
        .get::<tls::ConnectionInfo>()
        .and_then(|c| c.remote)
        .map(|a| a.ip());
    let event = Event::new(
        audit_id.clone(),
        parts
            .uri
            .path_and_query()
            .map_or(path, |p| p.as_str())
            .to_owned(),
        verb.clone(),
        user.map(UserInfo::from).unwrap_or_default(),
        source_ip,
        header_str(&parts.headers, header::USER_AGENT)
            .unwrap_or_default()
            .to_owned(),
        info.as_ref().map(ObjectReference::from),
        response.status().as_u16(),
        received,
        verb == "watch" && response.status().is_success(),
    );
    log.log(&event);
    if let Ok(v) = HeaderValue::from_str(&audit_id) {
        response.headers_mut().insert(AUDIT_ID_HEADER, v);
    }
}

/// `/version`: what kube-apiserver 1.36 reports, with this server's build.
fn version_info() -> serde_json::Value {
    serde_json::json!({
        "major": "1",
        "minor": KUBERNETES_MINOR,
        "emulationMajor": "1",
        "emulationMinor": KUBERNETES_MINOR,
        "minCompatibilityMajor": "1",
        "minCompatibilityMinor": "35",
        "gitVersion": format!("v1.{KUBERNETES_MINOR}.0-kapi.{}", env!("CARGO_PKG_VERSION")),
        "gitCommit": "",
        "gitTreeState": "clean",
        "buildDate": "",
        "goVersion": "",
        "compiler": "rustc",
        "platform": format!("{}/{}", std::env::consts::OS, std::env::consts::ARCH),
    })
}
