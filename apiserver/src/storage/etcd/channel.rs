//! The transport of [`EtcdStorage`](super::EtcdStorage)'s gRPC calls: one pooled HTTP/2
//! client (hyper-util's) that the request's own task drives.
//!
//! tonic's balanced channel hands every call to a buffer task through a queue, and that
//! task to the connection's; each hand-over can wake a parked worker thread. Here the
//! caller's task sends on the HTTP/2 connection itself (the server's CPU per quorum get
//! fell by about a tenth: `BENCHMARKS.md`, "the etcd client's own channel"). The
//! client's pool makes and remakes the connection on demand, so operations work again
//! once etcd is back.
//!
//! With several endpoints, calls go round the endpoints in turn, skipping for a while an
//! endpoint that could not be connected to (the call that found it down fails as
//! `Unavailable`; the next ones go to the others).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use http::Uri;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioTimer};

/// How long an endpoint that refused a connection is passed over.
const DOWN_FOR: Duration = Duration::from_secs(1);

/// A gRPC request and response as tonic's generated clients make and read them.
type Request = http::Request<tonic::body::Body>;
type Response = http::Response<tonic::body::Body>;

/// Why an endpoint URL cannot be used.
#[derive(Debug, thiserror::Error)]
pub(super) enum EndpointError {
    #[error("{url:?} is not a URL: {source}")]
    Invalid {
        url: String,
        source: http::uri::InvalidUri,
    },
    #[error("{url:?}: only http:// endpoints are supported (TLS to etcd is not)")]
    Scheme { url: String },
}

/// The endpoints and the HTTP/2 client that reaches them. Cheap to clone.
#[derive(Clone)]
pub(super) struct DirectChannel {
    client: Client<HttpConnector, tonic::body::Body>,
    endpoints: Arc<[Endpoint]>,
    next: Arc<AtomicUsize>,
    /// When the endpoints' "down" marks count from.
    epoch: Instant,
}

struct Endpoint {
    /// Scheme and authority; each call's path is put after them.
    base: Uri,
    /// Milliseconds after `epoch` until which the endpoint is passed over (0: never was
    /// down).
    down_until: AtomicU64,
}

/// `host:port` or `http://host:port`, as etcd's own clients and kube-apiserver's
/// `--etcd-servers` take them.
fn parse(url: &str) -> Result<Uri, EndpointError> {
    let text = if url.contains("://") {
        url.to_owned()
    } else {
        format!("http://{url}")
    };
    let uri: Uri = text.parse().map_err(|source| EndpointError::Invalid {
        url: url.to_owned(),
        source,
    })?;
    if uri.scheme_str() != Some("http") || uri.authority().is_none() {
        return Err(EndpointError::Scheme {
            url: url.to_owned(),
        });
    }
    Ok(uri)
}

impl DirectChannel {
    /// A channel to `urls`, connecting within `connect_timeout` and pinging an idle
    /// connection every `keep_alive` (with `keep_alive_timeout` for the answer), so that
    /// a dead connection ends its watches even when no request is in flight.
    pub(super) fn new(
        urls: &[&str],
        connect_timeout: Duration,
        keep_alive: Duration,
        keep_alive_timeout: Duration,
    ) -> Result<Self, EndpointError> {
        let endpoints = urls
            .iter()
            .map(|url| {
                Ok(Endpoint {
                    base: parse(url)?,
                    down_until: AtomicU64::new(0),
                })
            })
            .collect::<Result<Vec<_>, EndpointError>>()?;
        let mut connector = HttpConnector::new();
        connector.set_connect_timeout(Some(connect_timeout));
        connector.set_nodelay(true);
        let client = Client::builder(TokioExecutor::new())
            .http2_only(true)
            .timer(TokioTimer::new())
            .http2_keep_alive_interval(keep_alive)
            .http2_keep_alive_timeout(keep_alive_timeout)
            .http2_keep_alive_while_idle(true)
            .build(connector);
        Ok(DirectChannel {
            client,
            endpoints: endpoints.into(),
            next: Arc::new(AtomicUsize::new(0)),
            epoch: Instant::now(),
        })
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// The next endpoint in turn that is not marked down; if all are, the next in turn.
    fn pick(&self) -> usize {
        let count = self.endpoints.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        if count == 1 {
            return 0;
        }
        let now = self.now_ms();
        (0..count)
            .map(|offset| (start + offset) % count)
            .find(|&i| self.endpoints[i].down_until.load(Ordering::Relaxed) <= now)
            .unwrap_or(start % count)
    }
}

impl tower::Service<Request> for DirectChannel {
    type Response = Response;
    type Error = Box<dyn std::error::Error + Send + Sync>;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        // The pool connects in `call`; there is no queue to wait for.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: Request) -> Self::Future {
        let index = self.pick();
        let mut parts = self.endpoints[index].base.clone().into_parts();
        parts.path_and_query = request.uri().path_and_query().cloned();
        match Uri::from_parts(parts) {
            Ok(uri) => *request.uri_mut() = uri,
            Err(error) => return Box::pin(std::future::ready(Err(error.into()))),
        }
        let channel = self.clone();
        Box::pin(async move {
            match channel.client.request(request).await {
                Ok(response) => Ok(response.map(tonic::body::Body::new)),
                Err(error) => {
                    if error.is_connect() {
                        let until = channel.now_ms().saturating_add(DOWN_FOR.as_millis() as u64);
                        channel.endpoints[index]
                            .down_until
                            .store(until, Ordering::Relaxed);
                    }
                    Err(error.into())
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_are_http_urls_or_host_ports() {
        assert_eq!(
            parse("127.0.0.1:2379").map(|u| u.to_string()).ok(),
            Some("http://127.0.0.1:2379/".to_owned())
        );
        assert_eq!(
            parse("http://etcd-0:2379").map(|u| u.to_string()).ok(),
            Some("http://etcd-0:2379/".to_owned())
        );
        assert!(matches!(
            parse("https://etcd-0:2379"),
            Err(EndpointError::Scheme { .. })
        ));
        assert!(matches!(
            parse("http://"),
            Err(EndpointError::Invalid { .. } | EndpointError::Scheme { .. })
        ));
        assert!(matches!(parse("a b"), Err(EndpointError::Invalid { .. })));
    }

    #[tokio::test]
    async fn calls_go_round_the_endpoints_and_skip_one_that_is_down() {
        let channel = DirectChannel::new(
            &["127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"],
            Duration::from_secs(1),
            Duration::from_secs(10),
            Duration::from_secs(5),
        )
        .expect("valid endpoints");
        let picks: Vec<usize> = (0..4).map(|_| channel.pick()).collect();
        assert_eq!(picks, [0, 1, 2, 0]);
        let until = channel.now_ms() + 60_000;
        channel.endpoints[1]
            .down_until
            .store(until, Ordering::Relaxed);
        let picks: Vec<usize> = (0..4).map(|_| channel.pick()).collect();
        assert!(!picks.contains(&1), "{picks:?}");
        for endpoint in channel.endpoints.iter() {
            endpoint.down_until.store(until, Ordering::Relaxed);
        }
        // All down: still tries one rather than failing without trying.
        assert!(channel.pick() < 3);
    }
}
