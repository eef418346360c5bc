//! The HTTP transport (client-go's `transport` and `rest.HTTPClientFor`): a pooled
//! HTTP/1.1 client over rustls (ring), with the [`Config`]'s CA, client certificate,
//! server name and credentials applied to every request. Watches do not go through the
//! pool: each has a connection of its own, driven by its reader (see [`stream`]).

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine as _;
use bytes::Bytes;
use http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderValue, USER_AGENT};
use http::{Method, Request, Response};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_rustls::{FixedServerNameResolver, HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};

use crate::config::{Auth, Config, ExecCredentialError};

/// How often a token file is read again (client-go's cached token source re-reads a
/// projected service-account token once a minute).
const TOKEN_FILE_REFRESH: Duration = Duration::from_secs(60);

/// Why a request did not get an HTTP answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TransportError {
    /// The config's host is not a usable URL.
    #[error("invalid server URL {url:?}: {message}")]
    InvalidUrl {
        /// The URL.
        url: String,
        /// What is wrong.
        message: String,
    },
    /// The impersonation settings cannot be sent (a UID, group or extra without a user,
    /// or a value a header cannot hold).
    #[error("impersonation: {message}")]
    Impersonation {
        /// What is wrong.
        message: String,
    },
    /// The TLS settings could not be built (bad CA, certificate or key).
    #[error("TLS configuration: {message}")]
    TlsConfig {
        /// What is wrong.
        message: String,
    },
    /// The TLS handshake failed (an untrusted or mismatched server certificate, ...).
    #[error("TLS handshake with {url} failed: {message}")]
    Tls {
        /// The URL.
        url: String,
        /// rustls' reason.
        message: String,
    },
    /// The server could not be reached (refused, unresolvable, reset).
    #[error("cannot reach {url}: {message}")]
    Unreachable {
        /// The URL.
        url: String,
        /// Why.
        message: String,
    },
    /// The request took longer than the config's timeout.
    #[error("request to {url} timed out after {timeout:?}")]
    Timeout {
        /// The URL.
        url: String,
        /// The limit.
        timeout: Duration,
    },
    /// The connection failed mid-request or mid-response.
    #[error("{url}: {message}")]
    Http {
        /// The URL.
        url: String,
        /// Why.
        message: String,
    },
    /// The credentials could not be obtained.
    #[error("credentials: {0}")]
    Credentials(#[from] ExecCredentialError),
    /// The token file could not be read.
    #[error("cannot read token file {}: {source}", path.display())]
    TokenFile {
        /// The file.
        path: std::path::PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

mod stream;

pub(crate) use stream::StreamBody;

/// The HTTP client of one [`Config`]: the pool requests go through, and the connector
/// it makes connections with, which makes the connections of streaming requests too
/// (see [`stream`]).
#[derive(Clone)]
struct Pool {
    client: HyperClient<HttpsConnector<HttpConnector>, Full<Bytes>>,
    connector: HttpsConnector<HttpConnector>,
}

/// The pool of an exec plugin's client certificate, with the certificate it presents.
type ExecPool = Arc<Mutex<Option<(Vec<u8>, Pool)>>>;

#[derive(Clone)]
pub(crate) struct Transport {
    client: Pool,
    /// For exec plugins that give client certificates: the pool presenting the last
    /// certificate given, rebuilt when the plugin gives another.
    exec_pool: ExecPool,
    config: Arc<Config>,
    host: String,
    auth: Auth,
    user_agent: HeaderValue,
    /// The `Impersonate-*` headers of every request.
    impersonation: Arc<[(http::header::HeaderName, HeaderValue)]>,
    timeout: Option<Duration>,
    token_file: Arc<Mutex<Option<(Instant, String)>>>,
}

/// The `Impersonate-*` headers for `imp` (client-go's impersonating round tripper).
fn impersonation_headers(
    imp: &crate::config::Impersonate,
) -> Result<Vec<(http::header::HeaderName, HeaderValue)>, TransportError> {
    use http::header::HeaderName;
    let bad = |message: String| TransportError::Impersonation { message };
    let Some(user) = &imp.user else {
        if imp.uid.is_some() || !imp.groups.is_empty() || !imp.extra.is_empty() {
            return Err(bad(
                "a UID, groups or extra attributes are given but no user to act as".into(),
            ));
        }
        return Ok(Vec::new());
    };
    let value = |what: &str, v: &str| {
        HeaderValue::from_str(v)
            .map_err(|_| bad(format!("{what} {v:?} cannot be sent in a header")))
    };
    let mut headers = vec![(
        HeaderName::from_static("impersonate-user"),
        value("user", user)?,
    )];
    if let Some(uid) = &imp.uid {
        headers.push((
            HeaderName::from_static("impersonate-uid"),
            value("uid", uid)?,
        ));
    }
    for group in &imp.groups {
        headers.push((
            HeaderName::from_static("impersonate-group"),
            value("group", group)?,
        ));
    }
    for (key, values) in &imp.extra {
        let name = HeaderName::from_bytes(
            format!("impersonate-extra-{}", escape_header_key(key)).as_bytes(),
        )
        .map_err(|_| bad(format!("extra key {key:?} cannot be sent in a header")))?;
        for v in values {
            headers.push((name.clone(), value("extra value", v)?));
        }
    }
    Ok(headers)
}

/// A key made fit for a header name as client-go does: every byte that is not a token
/// character (and `%` itself) percent-encoded.
fn escape_header_key(key: &str) -> String {
    percent_encode(key, |b| {
        b.is_ascii_alphanumeric() || b"!#$&'*+-.^_`|~".contains(&b)
    })
}

/// `s` with every byte that `keep` refuses written as `%XX` (upper-case hex): request
/// paths and header names each keep their own set.
pub(crate) fn percent_encode(s: &str, keep: impl Fn(u8) -> bool) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if keep(b) {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        }
    }
    out
}

impl fmt::Debug for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Transport")
            .field("host", &self.host)
            .finish()
    }
}

/// An outgoing request, before credentials.
#[derive(Clone)]
pub(crate) struct Outgoing<'a> {
    pub(crate) method: Method,
    /// Path and query, starting with `/`.
    pub(crate) path: &'a str,
    pub(crate) accept: &'a str,
    pub(crate) body: Option<(Vec<u8>, &'a str)>,
    /// Watches have no timeout.
    pub(crate) streaming: bool,
}

impl Transport {
    pub(crate) fn new(config: &Config) -> Result<Self, TransportError> {
        let uri: http::Uri =
            config
                .host
                .parse()
                .map_err(|e: http::uri::InvalidUri| TransportError::InvalidUrl {
                    url: config.host.clone(),
                    message: e.to_string(),
                })?;
        match uri.scheme_str() {
            Some("http") | Some("https") => {}
            _ => {
                return Err(TransportError::InvalidUrl {
                    url: config.host.clone(),
                    message: "the scheme must be http or https".into(),
                });
            }
        }
        let client = build_pool(config, None)?;
        let user_agent =
            HeaderValue::from_str(&config.user_agent).map_err(|e| TransportError::InvalidUrl {
                url: config.host.clone(),
                message: format!("user agent {:?}: {e}", config.user_agent),
            })?;
        let impersonation = impersonation_headers(&config.impersonate)?.into();
        Ok(Transport {
            client,
            exec_pool: Arc::default(),
            config: Arc::new(config.clone()),
            host: config.host.clone(),
            auth: config.auth.clone(),
            user_agent,
            impersonation,
            timeout: config.timeout,
            token_file: Arc::default(),
        })
    }

    /// The server's base URL.
    pub(crate) fn host(&self) -> &str {
        &self.host
    }

    /// The `Authorization` header and the pool to send with: the shared one, or for an
    /// exec plugin that gives a client certificate, one presenting it.
    async fn credentials(&self) -> Result<(Option<String>, Pool), TransportError> {
        let Auth::Exec(exec) = &self.auth else {
            return Ok((self.authorization().await?, self.client.clone()));
        };
        let credential = exec.credential().await?;
        let header = credential.token.as_ref().map(|t| format!("Bearer {t}"));
        let (Some(cert), Some(key)) = (&credential.client_certificate, &credential.client_key)
        else {
            return Ok((header, self.client.clone()));
        };
        if let Ok(cached) = self.exec_pool.lock() {
            if let Some((cached_cert, pool)) = cached.as_ref() {
                if cached_cert == cert {
                    return Ok((header, pool.clone()));
                }
            }
        }
        let pool = build_pool(&self.config, Some((cert, key)))?;
        if let Ok(mut cached) = self.exec_pool.lock() {
            *cached = Some((cert.clone(), pool.clone()));
        }
        Ok((header, pool))
    }

    async fn authorization(&self) -> Result<Option<String>, TransportError> {
        Ok(match &self.auth {
            Auth::None => None,
            Auth::BearerToken(t) => Some(format!("Bearer {t}")),
            Auth::Basic { username, password } => Some(format!(
                "Basic {}",
                base64::engine::general_purpose::STANDARD.encode(format!("{username}:{password}"))
            )),
            Auth::BearerTokenFile(path) => {
                if let Ok(cache) = self.token_file.lock() {
                    if let Some((at, token)) = cache.as_ref() {
                        if at.elapsed() < TOKEN_FILE_REFRESH {
                            return Ok(Some(format!("Bearer {token}")));
                        }
                    }
                }
                let token = tokio::fs::read_to_string(path)
                    .await
                    .map_err(|source| TransportError::TokenFile {
                        path: path.clone(),
                        source,
                    })?
                    .trim()
                    .to_string();
                if let Ok(mut cache) = self.token_file.lock() {
                    *cache = Some((Instant::now(), token.clone()));
                }
                Some(format!("Bearer {token}"))
            }
            Auth::Exec(exec) => exec
                .credential()
                .await?
                .token
                .map(|t| format!("Bearer {t}")),
        })
    }

    /// The request `req` describes, with the credentials' headers, its URL, and the
    /// pool to send it through.
    async fn request(
        &self,
        req: Outgoing<'_>,
    ) -> Result<(Request<Full<Bytes>>, String, Pool), TransportError> {
        let url = format!("{}{}", self.host, req.path);
        let mut builder = Request::builder()
            .method(req.method)
            .uri(&url)
            .header(USER_AGENT, self.user_agent.clone())
            .header(ACCEPT, req.accept);
        for (name, value) in self.impersonation.iter() {
            builder = builder.header(name, value.clone());
        }
        let (auth, pool) = self.credentials().await?;
        if let Some(auth) = auth {
            let mut value = HeaderValue::from_str(&auth).map_err(|_| TransportError::Http {
                url: url.clone(),
                message: "credentials hold characters not allowed in a header".into(),
            })?;
            value.set_sensitive(true);
            builder = builder.header(AUTHORIZATION, value);
        }
        let body = match req.body {
            Some((bytes, content_type)) => {
                builder = builder.header(CONTENT_TYPE, content_type);
                Full::new(Bytes::from(bytes))
            }
            None => Full::new(Bytes::new()),
        };
        let request = builder.body(body).map_err(|e| TransportError::InvalidUrl {
            url: url.clone(),
            message: e.to_string(),
        })?;
        Ok((request, url, pool))
    }

    /// Told that the server refused the credentials: an exec plugin's token is asked
    /// for again next time.
    async fn refused<B>(&self, response: &Response<B>) {
        if response.status() == http::StatusCode::UNAUTHORIZED {
            if let Auth::Exec(exec) = &self.auth {
                exec.invalidate().await;
            }
        }
    }

    /// Sends a request through the pool and returns the response head with its body.
    pub(crate) async fn send(
        &self,
        req: Outgoing<'_>,
    ) -> Result<Response<Incoming>, TransportError> {
        let streaming = req.streaming;
        let (request, url, pool) = self.request(req).await?;
        let sent = pool.client.request(request);
        let result =
            match self.timeout.filter(|_| !streaming) {
                Some(limit) => tokio::time::timeout(limit, sent).await.map_err(|_| {
                    TransportError::Timeout {
                        url: url.clone(),
                        timeout: limit,
                    }
                })?,
                None => sent.await,
            };
        let response = result.map_err(|e| classify(&url, &e))?;
        self.refused(&response).await;
        Ok(response)
    }

    /// Sends a streaming request on a connection of its own, which its body drives
    /// (see [`stream`]); no timeout, as a watch lasts.
    async fn send_streaming(
        &self,
        req: Outgoing<'_>,
    ) -> Result<Response<StreamBody>, TransportError> {
        let (request, url, pool) = self.request(req).await?;
        let response = stream::open(&pool.connector, request, &url).await?;
        self.refused(&response).await;
        Ok(response)
    }
}

/// The rustls error somewhere in a chain of causes: tokio-rustls and hyper-rustls wrap
/// it in I/O errors, whose `source` skips their payload, so payloads are looked into.
fn find_rustls<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    if let Some(tls) = e.downcast_ref::<rustls::Error>() {
        return Some(tls);
    }
    if let Some(io) = e.downcast_ref::<std::io::Error>() {
        if let Some(inner) = io.get_ref() {
            let inner: &(dyn std::error::Error + 'static) = inner;
            if let Some(tls) = find_rustls(inner) {
                return Some(tls);
            }
        }
    }
    e.source().and_then(find_rustls)
}

/// Sorts a pooled client's error into TLS, unreachable or other, by its causes.
fn classify(url: &str, err: &hyper_util::client::legacy::Error) -> TransportError {
    classify_error(url, err, err.is_connect())
}

/// Sorts an error into TLS, unreachable (when `connecting`) or other, by its causes.
fn classify_error(
    url: &str,
    err: &(dyn std::error::Error + 'static),
    connecting: bool,
) -> TransportError {
    if let Some(tls) = find_rustls(err) {
        return TransportError::Tls {
            url: url.to_string(),
            message: tls.to_string(),
        };
    }
    let mut messages = Vec::new();
    let mut source = err.source();
    while let Some(e) = source {
        messages.push(e.to_string());
        source = e.source();
    }
    let message = if messages.is_empty() {
        err.to_string()
    } else {
        messages.join(": ")
    };
    if connecting {
        TransportError::Unreachable {
            url: url.to_string(),
            message,
        }
    } else {
        TransportError::Http {
            url: url.to_string(),
            message,
        }
    }
}

fn tls_error(message: impl Into<String>) -> TransportError {
    TransportError::TlsConfig {
        message: message.into(),
    }
}

/// The connection pool of a [`Config`], presenting `client_cert` (PEM certificate and
/// key) instead of the config's when given.
fn build_pool(
    config: &Config,
    client_cert: Option<(&[u8], &[u8])>,
) -> Result<Pool, TransportError> {
    let tls = tls_client_config(config, client_cert)?;
    let mut http = HttpConnector::new();
    http.enforce_http(false);
    http.set_nodelay(true);
    let builder = HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_or_http();
    let builder = match &config.tls.server_name {
        Some(name) => {
            let name =
                ServerName::try_from(name.clone()).map_err(|e| TransportError::TlsConfig {
                    message: format!("tls-server-name {name:?}: {e}"),
                })?;
            builder.with_server_name_resolver(FixedServerNameResolver::new(name))
        }
        None => builder,
    };
    let connector = builder.enable_http1().wrap_connector(http);
    Ok(Pool {
        client: HyperClient::builder(TokioExecutor::new()).build(connector.clone()),
        connector,
    })
}

/// The rustls client configuration of a [`Config`].
fn tls_client_config(
    config: &Config,
    client_cert: Option<(&[u8], &[u8])>,
) -> Result<rustls::ClientConfig, TransportError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| tls_error(e.to_string()))?;
    let builder = if config.tls.insecure {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(NoVerification(provider)))
    } else {
        let mut roots = rustls::RootCertStore::empty();
        if let Some(ca) = &config.tls.ca_data {
            let mut count = 0;
            for cert in CertificateDer::pem_slice_iter(ca) {
                let cert = cert.map_err(|e| tls_error(format!("CA data: {e}")))?;
                roots
                    .add(cert)
                    .map_err(|e| tls_error(format!("CA certificate: {e}")))?;
                count += 1;
            }
            if count == 0 {
                return Err(tls_error("CA data holds no PEM certificate"));
            }
        }
        builder.with_root_certificates(roots)
    };
    let pair = match client_cert {
        Some((c, k)) => (Some(c), Some(k)),
        None => (
            config.tls.cert_data.as_deref(),
            config.tls.key_data.as_deref(),
        ),
    };
    let tls = match pair {
        (Some(cert), Some(key)) => {
            let certs = CertificateDer::pem_slice_iter(cert)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| tls_error(format!("client certificate: {e}")))?;
            if certs.is_empty() {
                return Err(tls_error(
                    "client certificate data holds no PEM certificate",
                ));
            }
            let key = PrivateKeyDer::from_pem_slice(key)
                .map_err(|e| tls_error(format!("client key: {e}")))?;
            builder
                .with_client_auth_cert(certs, key)
                .map_err(|e| tls_error(format!("client certificate and key: {e}")))?
        }
        (None, None) => builder.with_no_client_auth(),
        (Some(_), None) => return Err(tls_error("a client certificate is given without its key")),
        (None, Some(_)) => return Err(tls_error("a client key is given without its certificate")),
    };
    Ok(tls)
}

/// `insecure-skip-tls-verify`: any server certificate is accepted; signatures are still
/// checked so the handshake itself is sound.
#[derive(Debug)]
struct NoVerification(Arc<rustls::crypto::CryptoProvider>);

impl ServerCertVerifier for NoVerification {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// A whole response: its code, content type and body.
pub(crate) struct Answer {
    pub(crate) code: u16,
    pub(crate) content_type: String,
    pub(crate) body: Bytes,
}

/// How often a request the server asked to retry (429, or 5xx with `Retry-After`) is
/// sent again (client-go's default `maxRetries`).
const MAX_RETRIES: u32 = 10;
/// The longest `Retry-After` honoured, so a server cannot park a client.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(30);

/// The wait a `Retry-After` answer asks for (client-go's `checkWait`): 429 or 5xx with
/// a `Retry-After` of whole seconds.
fn retry_after<B>(response: &Response<B>) -> Option<Duration> {
    let code = response.status().as_u16();
    if code != 429 && code < 500 {
        return None;
    }
    let seconds: u64 = response
        .headers()
        .get(http::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(Duration::from_secs(seconds).min(MAX_RETRY_AFTER))
}

impl Transport {
    /// Sends a request and reads the whole answer, sending it again while the server
    /// answers "retry after" (at most [`MAX_RETRIES`] times).
    pub(crate) async fn fetch(&self, req: Outgoing<'_>) -> Result<Answer, TransportError> {
        let mut attempt = 0;
        loop {
            let (answer, wait) = self.fetch_once(req.clone()).await?;
            match wait {
                Some(wait) if attempt < MAX_RETRIES => {
                    attempt += 1;
                    tokio::time::sleep(wait).await;
                }
                _ => return Ok(answer),
            }
        }
    }

    /// Sends a request whose answer is read as a stream (a watch), sending it again
    /// while the server answers "retry after" (at most [`MAX_RETRIES`] times), as
    /// client-go's `Request.Watch` does: kube-apiserver answers a watch 429 with
    /// `Retry-After` while the resource's watch cache is not ready, and under API
    /// priority and fairness.
    /// Each attempt has a connection of its own (see [`stream`]).
    pub(crate) async fn open(
        &self,
        req: Outgoing<'_>,
    ) -> Result<Response<StreamBody>, TransportError> {
        let mut attempt = 0;
        loop {
            let response = self.send_streaming(req.clone()).await?;
            match retry_after(&response) {
                Some(wait) if attempt < MAX_RETRIES => {
                    attempt += 1;
                    // The refusal's connection closes with it.
                    drop(response);
                    tokio::time::sleep(wait).await;
                }
                _ => return Ok(response),
            }
        }
    }

    async fn fetch_once(
        &self,
        req: Outgoing<'_>,
    ) -> Result<(Answer, Option<Duration>), TransportError> {
        use http_body_util::BodyExt as _;
        let url = format!("{}{}", self.host, req.path);
        let timeout = self.timeout;
        let response = self.send(req).await?;
        let wait = retry_after(&response);
        let code = response.status().as_u16();
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let collect = response.into_body().collect();
        let collected =
            match timeout {
                Some(limit) => tokio::time::timeout(limit, collect).await.map_err(|_| {
                    TransportError::Timeout {
                        url: url.clone(),
                        timeout: limit,
                    }
                })?,
                None => collect.await,
            };
        let body = collected
            .map_err(|e| TransportError::Http {
                url,
                message: format!("reading the response body: {e}"),
            })?
            .to_bytes();
        Ok((
            Answer {
                code,
                content_type,
                body,
            },
            wait,
        ))
    }
}

#[cfg(test)]
mod impersonation_tests {
    use super::*;
    use crate::config::Impersonate;

    #[test]
    fn headers_as_client_go_sends_them() {
        let imp = Impersonate {
            user: Some("jane".into()),
            uid: Some("u-1".into()),
            groups: vec!["dev".into(), "ops".into()],
            extra: [(
                "scopes.example.com/a b%".to_owned(),
                vec!["x".to_owned(), "y".to_owned()],
            )]
            .into(),
        };
        let headers: Vec<(String, String)> = impersonation_headers(&imp)
            .unwrap()
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_str().unwrap_or_default().to_owned()))
            .collect();
        let pairs: Vec<(&str, &str)> = headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("impersonate-user", "jane"),
                ("impersonate-uid", "u-1"),
                ("impersonate-group", "dev"),
                ("impersonate-group", "ops"),
                // Header names travel in lower case (HTTP/1.1 names are
                // case-insensitive; the server's unescaping is too).
                ("impersonate-extra-scopes.example.com%2fa%20b%25", "x"),
                ("impersonate-extra-scopes.example.com%2fa%20b%25", "y"),
            ]
        );
        assert!(
            impersonation_headers(&Impersonate::default())
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn percent_encoding_writes_upper_case_hex_per_byte() {
        let keep = |b: u8| b.is_ascii_alphanumeric();
        assert_eq!(percent_encode("a/b%é", keep), "a%2Fb%25%C3%A9");
        assert_eq!(percent_encode("", keep), "");
    }

    #[test]
    fn groups_without_a_user_are_refused() {
        let imp = Impersonate {
            groups: vec!["dev".into()],
            ..Impersonate::default()
        };
        let err = impersonation_headers(&imp).unwrap_err();
        assert!(err.to_string().contains("no user to act as"), "{err}");
        let bad = Impersonate {
            user: Some("line\nbreak".into()),
            ..Impersonate::default()
        };
        assert!(impersonation_headers(&bad).is_err());
    }
}
