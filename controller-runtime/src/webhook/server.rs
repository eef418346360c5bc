//! The HTTPS server admission webhooks are served from (Go's `webhook.Server`).

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use futures_util::future::BoxFuture;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::admission::{AdmissionRequest, AdmissionResponse, Handler, review_response};
use super::conversion::ConversionHandler;
use crate::manager::{Runnable, RunnableError};

/// The largest `AdmissionReview` the server reads (Go's controller-runtime: 7 MiB).
const MAX_REQUEST_BYTES: usize = 7 * 1024 * 1024;

/// Why the webhook server could not start.
#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    /// The certificate or key could not be read.
    #[error("reading {what}: {why}")]
    Certificate {
        /// Which file or value.
        what: String,
        /// Why.
        why: String,
    },
    /// The address could not be bound.
    #[error("cannot listen on {address}: {source}")]
    Bind {
        /// The address.
        address: SocketAddr,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

/// An HTTPS server of admission handlers, one per path (Go's `webhook.Server` with
/// `Register`). Its serving certificate is given as PEM, from files or in memory;
/// its chain's CA is the `caBundle` of the webhook configurations that call it.
///
/// ```no_run
/// use std::sync::Arc;
/// use controller_runtime::webhook::{AdmissionRequest, Defaulter, DefaultingHandler, Denied, Server};
/// use k8s_types::core::v1::Pod;
///
/// struct Labeller;
/// impl Defaulter<Pod> for Labeller {
///     async fn default(&self, _req: &AdmissionRequest, pod: &mut Pod) -> Result<(), Denied> {
///         pod.metadata.labels.insert("defaulted".into(), "true".into());
///         Ok(())
///     }
/// }
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let mut scheme = apimachinery::runtime::Scheme::new();
/// k8s_types::register(&mut scheme)?;
/// let server = Server::from_files("tls.crt", "tls.key")?
///     .register("/mutate-v1-pod", DefaultingHandler::new(Arc::new(scheme), Labeller));
/// let running = server.start("127.0.0.1:9443".parse()?).await?;
/// println!("serving on https://{}", running.local_addr());
/// # Ok(()) }
/// ```
pub struct Server {
    tls: Arc<rustls::ServerConfig>,
    handlers: BTreeMap<String, Endpoint>,
    address: SocketAddr,
}

/// What a path serves: the two kinds of review differ in body and answer.
#[derive(Clone)]
enum Endpoint {
    Admission(Arc<dyn Handler>),
    Conversion(Arc<ConversionHandler>),
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("paths", &self.handlers.keys().collect::<Vec<_>>())
            .field("address", &self.address)
            .finish()
    }
}

impl Server {
    /// A server presenting the PEM certificate chain `cert` with its PEM private `key`.
    pub fn new(cert: &[u8], key: &[u8]) -> Result<Self, WebhookError> {
        let bad = |what: &str, why: String| WebhookError::Certificate {
            what: what.to_owned(),
            why,
        };
        let chain = CertificateDer::pem_slice_iter(cert)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| bad("the certificate", e.to_string()))?;
        if chain.is_empty() {
            return Err(bad("the certificate", "no PEM certificate in it".into()));
        }
        let key = PrivateKeyDer::from_pem_slice(key).map_err(|e| bad("the key", e.to_string()))?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| bad("the TLS configuration", e.to_string()))?
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .map_err(|e| bad("the certificate and key", e.to_string()))?;
        Ok(Server {
            tls: Arc::new(tls),
            handlers: BTreeMap::new(),
            address: SocketAddr::from(([0, 0, 0, 0], 9443)),
        })
    }

    /// A server presenting the certificate and key in these PEM files (Go's
    /// `tls.crt` and `tls.key` of `CertDir`), read once.
    pub fn from_files(cert: impl AsRef<Path>, key: impl AsRef<Path>) -> Result<Self, WebhookError> {
        let read = |p: &Path| {
            std::fs::read(p).map_err(|e| WebhookError::Certificate {
                what: p.display().to_string(),
                why: e.to_string(),
            })
        };
        Server::new(&read(cert.as_ref())?, &read(key.as_ref())?)
    }

    /// Where the server listens when a manager runs it (Go's `Host` and `Port`
    /// options; `0.0.0.0:9443` by default).
    pub fn bind_address(mut self, address: SocketAddr) -> Self {
        self.address = address;
        self
    }

    /// Serves `handler` at `path` (Go's `Register`); a later registration of the same
    /// path replaces the earlier one.
    pub fn register(mut self, path: &str, handler: impl Handler) -> Self {
        self.handlers
            .insert(path.to_owned(), Endpoint::Admission(Arc::new(handler)));
        self
    }

    /// Serves the `ConversionReview`s of CRD conversion webhooks at `path` (Go
    /// registers its conversion handler at `/convert`); a later registration of the
    /// same path replaces the earlier one.
    pub fn register_conversion(mut self, path: &str, handler: ConversionHandler) -> Self {
        self.handlers
            .insert(path.to_owned(), Endpoint::Conversion(Arc::new(handler)));
        self
    }

    /// Binds `address` (port 0 picks one) and serves until the returned server is
    /// stopped or dropped.
    pub async fn start(self, address: SocketAddr) -> Result<RunningServer, WebhookError> {
        let listener = TcpListener::bind(address)
            .await
            .map_err(|source| WebhookError::Bind { address, source })?;
        let local = listener
            .local_addr()
            .map_err(|source| WebhookError::Bind { address, source })?;
        let cancel = CancellationToken::new();
        let task = tokio::spawn(Arc::new(self).serve(listener, cancel.clone()));
        Ok(RunningServer {
            address: local,
            cancel,
            task: Some(task),
        })
    }

    async fn serve(self: Arc<Self>, listener: TcpListener, cancel: CancellationToken) {
        let acceptor = tokio_rustls::TlsAcceptor::from(self.tls.clone());
        loop {
            let (tcp, _) = tokio::select! {
                _ = cancel.cancelled() => return,
                accepted = listener.accept() => match accepted {
                    Ok(a) => a,
                    // A connection that failed before it was accepted concerns no one.
                    Err(_) => continue,
                },
            };
            let acceptor = acceptor.clone();
            let server = self.clone();
            let cancel = cancel.clone();
            tokio::spawn(async move {
                let Ok(tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let service = hyper::service::service_fn(move |req| {
                    let server = server.clone();
                    async move { Ok::<_, Infallible>(server.answer(req).await) }
                });
                let connection = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(tls), service);
                tokio::select! {
                    _ = cancel.cancelled() => {}
                    _ = connection => {}
                }
            });
        }
    }

    async fn answer(&self, req: Request<Incoming>) -> Response<Full<Bytes>> {
        let Some(handler) = self.handlers.get(req.uri().path()).cloned() else {
            return plain(404, "404 page not found\n");
        };
        if req.method() != hyper::Method::POST {
            return plain(405, "only POST is served\n");
        }
        let body = Limited::new(req.into_body(), MAX_REQUEST_BYTES)
            .collect()
            .await
            .map(|b| b.to_bytes());
        let handler = match handler {
            Endpoint::Admission(handler) => handler,
            Endpoint::Conversion(handler) => {
                // Go's conversion webhook answers a body it cannot read, or a review
                // without a request, with a bare 400 (no review to put an error in).
                let review = body
                    .ok()
                    .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
                    .and_then(|v| handler.review(&v));
                return match review {
                    Some(answer) => self::review(&answer),
                    None => plain(400, ""),
                };
            }
        };
        let body = match body {
            Ok(b) => b,
            Err(e) => {
                return review(&review_response(
                    "",
                    &AdmissionResponse::errored(400, e.to_string()),
                ));
            }
        };
        // Go's webhook answers a body it cannot read with an errored review (HTTP 200),
        // which the API server treats as a refusal.
        let parsed: Result<Value, _> = serde_json::from_slice(&body);
        let request = parsed
            .map_err(|e| format!("the body is not JSON: {e}"))
            .and_then(|v| {
                let (api_version, kind) = (
                    v.get("apiVersion").and_then(Value::as_str).unwrap_or_default().to_owned(),
                    v.get("kind").and_then(Value::as_str).unwrap_or_default().to_owned(),
                );
                if api_version != "admission.k8s.io/v1" || kind != "AdmissionReview" {
                    return Err(format!(
                        "expected an admission.k8s.io/v1 AdmissionReview, got {api_version:?} {kind:?}"
                    ));
                }
                let request = v.get("request").cloned().ok_or("the review has no request")?;
                serde_json::from_value::<AdmissionRequest>(request)
                    .map_err(|e| format!("reading the request: {e}"))
            });
        match request {
            Ok(request) => {
                let response = handler.handle(&request).await;
                review(&review_response(&request.uid, &response))
            }
            Err(why) => review(&review_response("", &AdmissionResponse::errored(400, why))),
        }
    }
}

fn plain(code: u16, text: &'static str) -> Response<Full<Bytes>> {
    let mut resp = Response::new(Full::new(Bytes::from_static(text.as_bytes())));
    *resp.status_mut() = hyper::StatusCode::from_u16(code).unwrap_or(hyper::StatusCode::NOT_FOUND);
    resp
}

fn review(value: &Value) -> Response<Full<Bytes>> {
    let body = serde_json::to_vec(value).unwrap_or_default();
    let mut resp = Response::new(Full::new(Bytes::from(body)));
    resp.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    resp
}

impl Runnable for Server {
    /// Serves on its [`bind_address`](Server::bind_address) until the manager stops.
    fn start(
        self: Arc<Self>,
        cancel: CancellationToken,
    ) -> BoxFuture<'static, Result<(), RunnableError>> {
        Box::pin(async move {
            let address = self.address;
            let listener = TcpListener::bind(address).await.map_err(|source| {
                Box::new(WebhookError::Bind { address, source }) as RunnableError
            })?;
            self.serve(listener, cancel).await;
            Ok(())
        })
    }

    /// Every replica serves webhooks, leader or not (as Go's).
    fn need_leader_election(&self) -> bool {
        false
    }
}

/// A started [`Server`].
#[derive(Debug)]
pub struct RunningServer {
    address: SocketAddr,
    cancel: CancellationToken,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl RunningServer {
    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.address
    }

    /// Stops serving and waits until it has stopped.
    pub async fn stop(mut self) {
        self.cancel.cancel();
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}
