//! Serving over TLS (Go's `--tls-cert-file`, `--tls-private-key-file` and
//! `--client-ca-file` of `SecureServingOptions`): rustls on the server's listener, with
//! client certificates asked for (not required) and verified against the client CAs.
//! Each request carries its connection's verified chain as
//! [`ClientCertificates`](crate::authentication::ClientCertificates), for the x509
//! authenticator.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::connect_info::Connected;
use axum::serve::IncomingStream;
use rustls::ServerConfig;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_rustls::LazyConfigAcceptor;
use tokio_rustls::server::TlsStream;

use crate::authentication::ClientCertificates;
use crate::authentication::x509::client_verifier;

mod suites;

pub use suites::GoSuiteOrder;

/// How long a client has to finish its TLS handshake (Go's `http.Server` has no
/// default, kube-apiserver's front proxies do; a slow handshake must not hold a slot).
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections handshaken and not yet taken by the server.
const ACCEPT_QUEUE: usize = 64;

/// Why a TLS configuration could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// The certificate PEM holds no certificate, or one that does not parse.
    #[error("serving certificate: {0}")]
    Certificate(String),
    /// The key PEM holds no private key, or one that does not parse.
    #[error("serving key: {0}")]
    Key(String),
    /// The client CA bundle is not usable.
    #[error("{0}")]
    ClientCa(#[from] crate::authentication::x509::ClientCaError),
    /// rustls refused the certificate and key (a key that is not the certificate's).
    #[error("TLS configuration: {0}")]
    Rustls(String),
}

/// The server's certificate chain and key, and the CAs client certificates are
/// verified against.
#[derive(Debug)]
pub struct TlsConfig {
    cert_chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
    client_ca: Vec<CertificateDer<'static>>,
}

impl Clone for TlsConfig {
    fn clone(&self) -> Self {
        TlsConfig {
            cert_chain: self.cert_chain.clone(),
            key: self.key.clone_key(),
            client_ca: self.client_ca.clone(),
        }
    }
}

impl TlsConfig {
    /// A serving certificate chain (leaf first) and its key, without client CAs.
    pub fn new(cert_chain: Vec<CertificateDer<'static>>, key: PrivateKeyDer<'static>) -> Self {
        TlsConfig {
            cert_chain,
            key,
            client_ca: Vec::new(),
        }
    }

    /// A serving certificate chain and key from PEM (the contents of
    /// `--tls-cert-file` and `--tls-private-key-file`).
    pub fn from_pem(cert_pem: &[u8], key_pem: &[u8]) -> Result<Self, TlsError> {
        let chain = CertificateDer::pem_slice_iter(cert_pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| TlsError::Certificate(e.to_string()))?;
        if chain.is_empty() {
            return Err(TlsError::Certificate("no PEM certificate found".to_owned()));
        }
        let key =
            PrivateKeyDer::from_pem_slice(key_pem).map_err(|e| TlsError::Key(e.to_string()))?;
        Ok(TlsConfig::new(chain, key))
    }

    /// Asks clients for certificates and verifies them against `roots` (Go's
    /// `--client-ca-file`); a connection without one is still served.
    pub fn client_ca(mut self, roots: Vec<CertificateDer<'static>>) -> Self {
        self.client_ca = roots;
        self
    }

    /// The rustls configurations: HTTP/1.1 (what the server speaks), client
    /// certificates verified when client CAs are set, in each of the orders of cipher
    /// suites Go's server chooses from.
    pub fn server_configs(&self) -> Result<GoSuiteOrder, TlsError> {
        GoSuiteOrder::build(|aes| self.server_config(aes))
    }

    /// The configuration choosing cipher suites in Go's order, AES-GCM first or not.
    fn server_config(&self, aes: bool) -> Result<ServerConfig, TlsError> {
        let builder = ServerConfig::builder_with_provider(Arc::new(suites::provider(aes)))
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsError::Rustls(e.to_string()))?;
        let builder = if self.client_ca.is_empty() {
            builder.with_no_client_auth()
        } else {
            builder.with_client_cert_verifier(client_verifier(&self.client_ca)?)
        };
        let mut config = builder
            .with_single_cert(self.cert_chain.clone(), self.key.clone_key())
            .map_err(|e| TlsError::Rustls(e.to_string()))?;
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        config.ignore_client_order = true;
        Ok(config)
    }
}

/// Who is at the other end of a connection: its address and, over TLS, its verified
/// certificate chain. The server's listeners give it to every request.
#[derive(Clone, Debug, Default)]
pub struct ConnectionInfo {
    /// The client's address.
    pub remote: Option<SocketAddr>,
    /// Its certificate chain, leaf first (empty over plain HTTP or without one).
    pub client_certificates: ClientCertificates,
}

impl ConnectionInfo {
    /// The connection `req` came on, which the listeners put in its extensions (as
    /// axum's `ConnectInfo`, read where needed rather than copied into extensions of
    /// its own on every request).
    pub(crate) fn of<B>(req: &axum::http::Request<B>) -> Option<&ConnectionInfo> {
        req.extensions()
            .get::<axum::extract::ConnectInfo<ConnectionInfo>>()
            .map(|c| &c.0)
    }
}

impl Connected<IncomingStream<'_, TcpListener>> for ConnectionInfo {
    fn connect_info(stream: IncomingStream<'_, TcpListener>) -> Self {
        ConnectionInfo {
            remote: Some(*stream.remote_addr()),
            client_certificates: ClientCertificates::default(),
        }
    }
}

impl Connected<IncomingStream<'_, TlsListener>> for ConnectionInfo {
    fn connect_info(stream: IncomingStream<'_, TlsListener>) -> Self {
        let certificates = stream
            .io()
            .get_ref()
            .1
            .peer_certificates()
            .map(|chain| chain.iter().map(|c| c.to_vec()).collect())
            .unwrap_or_default();
        ConnectionInfo {
            remote: Some(*stream.remote_addr()),
            client_certificates: ClientCertificates(certificates),
        }
    }
}

/// A listener whose connections have finished their TLS handshake. Handshakes run in
/// their own tasks, so a client that stalls in one delays nobody else.
#[derive(Debug)]
pub struct TlsListener {
    local: SocketAddr,
    connections: mpsc::Receiver<(TlsStream<TcpStream>, SocketAddr)>,
    task: JoinHandle<()>,
}

impl TlsListener {
    /// TLS with `configs` on the bound `listener`.
    pub fn new(listener: TcpListener, configs: GoSuiteOrder) -> std::io::Result<Self> {
        let local = listener.local_addr()?;
        Ok(TlsListener::over(listener, local, configs))
    }

    /// TLS with `orders` on the connections `listener` accepts, reported as listening
    /// on `local` (a connection worker's share of the server's listener).
    pub(crate) fn over<L>(mut listener: L, local: SocketAddr, orders: GoSuiteOrder) -> Self
    where
        L: axum::serve::Listener<Io = TcpStream, Addr = SocketAddr>,
    {
        let (tx, connections) = mpsc::channel(ACCEPT_QUEUE);
        let task = tokio::spawn(async move {
            loop {
                // axum's listeners wait out accept errors (out of file descriptors and
                // the like) themselves.
                let (tcp, remote) = listener.accept().await;
                let orders = orders.clone();
                let tx = tx.clone();
                tokio::spawn(async move {
                    // The configuration follows the client's hello: Go's choice of
                    // cipher suite depends on the client's first one.
                    let handshake = async move {
                        let start =
                            LazyConfigAcceptor::new(rustls::server::Acceptor::default(), tcp)
                                .await?;
                        let config = orders.for_client(&start.client_hello());
                        start.into_stream(config).await
                    };
                    // A failed handshake (a certificate of an unknown CA, a client
                    // speaking plain HTTP) closes that connection alone.
                    if let Ok(Ok(tls)) = tokio::time::timeout(HANDSHAKE_TIMEOUT, handshake).await {
                        let _ = tx.send((tls, remote)).await;
                    }
                });
            }
        });
        TlsListener {
            local,
            connections,
            task,
        }
    }
}

impl Drop for TlsListener {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.connections.recv().await {
            Some(connection) => connection,
            // The accepting task only ends when the listener is dropped.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        Ok(self.local)
    }
}
