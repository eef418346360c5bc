//! A plain HTTPS client for the recorder: one request is one attempt, never retried,
//! and what became of it is told exactly — an answer, a connection that could not be
//! made (so nothing was sent), a connection lost after sending, or a timeout. A
//! Kubernetes client library would retry, or fold these together, and the recorder
//! would then no longer know what the server was told.

use std::time::{Duration, Instant};

use bytes::Bytes;
pub use http::Method;
use http::{Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client as Pool;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

use crate::record::Nanos;

/// The server under test as a client sees it: where it is and how to be trusted and
/// authenticated there.
#[derive(Clone, Debug)]
pub struct Target {
    /// The name histories give it (`a`, `b`).
    pub name: String,
    /// `https://HOST:PORT`.
    pub url: String,
    /// The CA (PEM) the server's certificate is checked against.
    pub ca_pem: String,
    /// A bearer token of a user allowed everything.
    pub token: String,
}

/// The run's clock: nanoseconds since the run started, shared by every client.
#[derive(Clone, Copy, Debug)]
pub struct Clock(Instant);

impl Clock {
    /// A clock starting now.
    pub fn start() -> Clock {
        Clock(Instant::now())
    }

    /// Now.
    pub fn now(&self) -> Nanos {
        u64::try_from(self.0.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// What became of one request.
#[derive(Debug)]
pub enum Answer {
    /// The server answered.
    Status(StatusCode, Bytes),
    /// No connection could be made: nothing was sent.
    NotSent(String),
    /// The connection failed after the request may have been sent.
    Lost(String),
    /// No complete answer within the client's timeout.
    TimedOut,
}

/// A whole answer: status, headers and body.
#[derive(Debug)]
pub struct Response {
    /// The status code.
    pub status: StatusCode,
    /// The headers.
    pub headers: http::HeaderMap,
    /// The body.
    pub body: Bytes,
}

/// Why a client could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The CA is not PEM certificates.
    #[error("the CA of {target} is not usable: {message}")]
    Ca {
        /// The target's name.
        target: String,
        /// Why.
        message: String,
    },
}

/// A client of one target.
#[derive(Clone, Debug)]
pub struct Client {
    pool: Pool<HttpsConnector<HttpConnector>, Full<Bytes>>,
    target: Target,
    timeout: Duration,
}

/// A watch's body, read as it comes.
pub struct Stream {
    body: Incoming,
    buffer: Vec<u8>,
}

impl Client {
    /// A client of `target` giving each request `timeout` to be answered completely.
    pub fn new(target: &Target, timeout: Duration) -> Result<Client, ClientError> {
        let ca_error = |message: String| ClientError::Ca {
            target: target.name.clone(),
            message,
        };
        let mut roots = rustls::RootCertStore::empty();
        for cert in CertificateDer::pem_slice_iter(target.ca_pem.as_bytes()) {
            let cert = cert.map_err(|e| ca_error(e.to_string()))?;
            roots.add(cert).map_err(|e| ca_error(e.to_string()))?;
        }
        let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| ca_error(e.to_string()))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_nodelay(true);
        http.set_connect_timeout(Some(Duration::from_secs(3)));
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_only()
            .enable_http1()
            .wrap_connector(http);
        let pool = Pool::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(30))
            .build(https);
        Ok(Client {
            pool,
            target: target.clone(),
            timeout,
        })
    }

    /// The target.
    pub fn target(&self) -> &Target {
        &self.target
    }

    fn build(
        &self,
        method: Method,
        path: &str,
        content_type: &str,
        body: Option<Vec<u8>>,
    ) -> Result<Request<Full<Bytes>>, Answer> {
        let mut request = Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.target.url))
            .header("authorization", format!("Bearer {}", self.target.token))
            .header("accept", "application/json")
            .header("user-agent", "history-recorder");
        if body.is_some() {
            request = request.header("content-type", content_type);
        }
        request
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|e| Answer::NotSent(format!("bad request: {e}")))
    }

    async fn send(
        &self,
        request: Request<Full<Bytes>>,
    ) -> Result<http::Response<Incoming>, Answer> {
        match self.pool.request(request).await {
            Ok(response) => Ok(response),
            Err(e) if e.is_connect() => Err(Answer::NotSent(chain(&e))),
            Err(e) => Err(Answer::Lost(chain(&e))),
        }
    }

    /// Sends one request and reads the whole answer.
    pub async fn request(
        &self,
        method: Method,
        path: &str,
        content_type: &str,
        body: Option<Vec<u8>>,
    ) -> Answer {
        let request = match self.build(method, path, content_type, body) {
            Ok(request) => request,
            Err(answer) => return answer,
        };
        let exchange = async {
            let response = match self.send(request).await {
                Ok(response) => response,
                Err(answer) => return answer,
            };
            let status = response.status();
            match response.into_body().collect().await {
                Ok(body) => Answer::Status(status, body.to_bytes()),
                Err(e) => Answer::Lost(chain(&e)),
            }
        };
        tokio::time::timeout(self.timeout, exchange)
            .await
            .unwrap_or(Answer::TimedOut)
    }

    /// Sends one request with `headers` besides the token (`accept` is JSON unless they
    /// say otherwise) and reads the whole answer with its headers: what a test comparing
    /// two servers' answers needs beyond the status and body.
    pub async fn exchange(
        &self,
        method: Method,
        path: &str,
        headers: &[(String, String)],
        body: Option<Vec<u8>>,
    ) -> Result<Response, Answer> {
        let mut request = Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.target.url))
            .header("authorization", format!("Bearer {}", self.target.token))
            .header("user-agent", "history-recorder");
        if !headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("accept"))
        {
            request = request.header("accept", "application/json");
        }
        for (name, value) in headers {
            request = request.header(name.as_str(), value.as_str());
        }
        let request = request
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|e| Answer::NotSent(format!("bad request: {e}")))?;
        let exchange = async {
            let response = self.send(request).await?;
            let (parts, body) = response.into_parts();
            match body.collect().await {
                Ok(body) => Ok(Response {
                    status: parts.status,
                    headers: parts.headers,
                    body: body.to_bytes(),
                }),
                Err(e) => Err(Answer::Lost(chain(&e))),
            }
        };
        tokio::time::timeout(self.timeout, exchange)
            .await
            .unwrap_or(Err(Answer::TimedOut))
    }

    /// Starts a watch: the stream of a 200, or the answer otherwise.
    pub async fn watch(&self, path: &str) -> Result<Stream, Answer> {
        let request = self.build(Method::GET, path, "", None)?;
        let response = tokio::time::timeout(self.timeout, self.send(request))
            .await
            .unwrap_or(Err(Answer::TimedOut))?;
        let status = response.status();
        if status != StatusCode::OK {
            let body = tokio::time::timeout(self.timeout, response.into_body().collect())
                .await
                .ok()
                .and_then(Result::ok)
                .map(|b| b.to_bytes())
                .unwrap_or_default();
            return Err(Answer::Status(status, body));
        }
        Ok(Stream {
            body: response.into_body(),
            buffer: Vec::new(),
        })
    }
}

impl Stream {
    /// The next line of the stream (one JSON event); `Ok(None)` when the server ended it.
    pub async fn next_line(&mut self) -> Result<Option<Vec<u8>>, String> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let rest = self.buffer.split_off(end + 1);
                let mut line = std::mem::replace(&mut self.buffer, rest);
                line.pop();
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                return Ok(Some(line));
            }
            match self.body.frame().await {
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        self.buffer.extend_from_slice(&data);
                    }
                }
                Some(Err(e)) => return Err(chain(&e)),
                None if self.buffer.iter().all(u8::is_ascii_whitespace) => return Ok(None),
                None => return Err("the stream ended inside an event".to_owned()),
            }
        }
    }
}

/// An error with its sources, for the history.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}
