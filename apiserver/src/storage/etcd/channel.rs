//! The transport of [`EtcdStorage`](super::EtcdStorage)'s gRPC calls: HTTP/2 connections
//! (the `h2` crate) that the calling task sends on itself.
//!
//! tonic's balanced channel hands every call to a buffer task through a queue, and that
//! task to the connection's; each hand-over can wake a parked worker thread. Here the
//! caller's task sends on the HTTP/2 connection itself (`benchmarks/HISTORY.md`, "the etcd
//! client's own channel"). And a unary call's headers and message go out together:
//! hyper's client (tonic's transport) waits for the connection to grant send capacity
//! before it hands over the body, so every call reached etcd as two writes, headers then
//! message, each a system call here and a wake-up of etcd's reader. Go's gRPC client, as
//! kube-apiserver uses it, writes them together too.
//!
//! A connection is made on the first call and made again by the first call after it
//! broke, so operations work again once etcd is back; a ping every `keep_alive`
//! unanswered within `keep_alive_timeout` closes it, so that a dead connection ends its
//! watches even when no request is in flight. On a server's connection worker (see
//! `Config::connection_workers`) calls use connections of that worker's own, driven on
//! the worker's thread with the requests that use them.
//!
//! With several endpoints, calls go round the endpoints in turn, skipping for a while an
//! endpoint that could not be connected to (the call that found it down fails as
//! `Unavailable`; the next ones go to the others).

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_util::FutureExt;
use h2::client::SendRequest;
use h2::{RecvStream, SendStream};
use http::Uri;
use http_body::{Body, Frame};
use http_body_util::BodyExt;
use tokio::net::TcpStream;

/// How long an endpoint that refused a connection is passed over.
const DOWN_FOR: Duration = Duration::from_secs(1);

/// The receive windows (hyper's client defaults, which the channel had before): a list
/// of thousands of objects streams without waiting for a window update per 64 KiB.
const STREAM_WINDOW: u32 = 2 * 1024 * 1024;
const CONNECTION_WINDOW: u32 = 5 * 1024 * 1024;

/// A gRPC request and response as tonic's generated clients make and read them.
type Request = http::Request<tonic::body::Body>;
type Response = http::Response<tonic::body::Body>;
type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Numbers the channels, so that a worker thread tells their connections apart.
static CHANNELS: AtomicU64 = AtomicU64::new(0);

/// A channel's number and an endpoint's index: what a worker's slot is kept under.
type SlotKey = (u64, usize);

thread_local! {
    /// A connection worker's own connection slots, by channel number and endpoint.
    /// They go with the worker's thread, which ends with its server.
    static WORKER_SLOTS: RefCell<Vec<(SlotKey, Arc<Slot>)>> = const { RefCell::new(Vec::new()) };
}

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

/// The endpoints and their connections. Cheap to clone.
#[derive(Clone)]
pub(super) struct DirectChannel {
    endpoints: Arc<[Endpoint]>,
    next: Arc<AtomicUsize>,
    /// When the endpoints' "down" marks count from.
    epoch: Instant,
    settings: Settings,
    /// This channel's number among [`CHANNELS`].
    id: u64,
}

#[derive(Clone, Copy)]
struct Settings {
    connect_timeout: Duration,
    keep_alive: Duration,
    keep_alive_timeout: Duration,
}

struct Endpoint {
    /// Scheme and authority; each call's path is put after them.
    base: Uri,
    /// `host:port` to connect to.
    address: String,
    /// Milliseconds after `epoch` until which the endpoint is passed over (0: never was
    /// down).
    down_until: AtomicU64,
    /// The connection of calls made off the connection workers.
    shared: Arc<Slot>,
}

/// One connection to an endpoint, once made.
#[derive(Default)]
struct Slot {
    sender: Mutex<Option<SendRequest<Bytes>>>,
    /// Held while connecting, so that callers who find no connection make one, not one
    /// each.
    connecting: tokio::sync::Mutex<()>,
}

impl Slot {
    fn current(&self) -> Option<SendRequest<Bytes>> {
        self.sender.lock().ok().and_then(|sender| sender.clone())
    }

    fn set(&self, sender: SendRequest<Bytes>) {
        if let Ok(mut slot) = self.sender.lock() {
            *slot = Some(sender);
        }
    }
}

/// Why no connection could be made to an endpoint.
#[derive(Debug, thiserror::Error)]
enum ConnectError {
    #[error("connecting to {address}: {source}")]
    Tcp {
        address: String,
        source: std::io::Error,
    },
    #[error("connecting to {address}: no connection within {timeout:?}")]
    Timeout { address: String, timeout: Duration },
    #[error("HTTP/2 handshake with {address}: {source}")]
    Handshake { address: String, source: h2::Error },
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
    /// A channel to `urls`, connecting within `connect_timeout` and pinging a connection
    /// every `keep_alive` (with `keep_alive_timeout` for the answer), so that a dead
    /// connection ends its watches even when no request is in flight.
    pub(super) fn new(
        urls: &[&str],
        connect_timeout: Duration,
        keep_alive: Duration,
        keep_alive_timeout: Duration,
    ) -> Result<Self, EndpointError> {
        let endpoints = urls
            .iter()
            .map(|url| {
                let base = parse(url)?;
                let address = base
                    .authority()
                    .map(|a| a.as_str().to_owned())
                    .unwrap_or_default();
                Ok(Endpoint {
                    base,
                    address,
                    down_until: AtomicU64::new(0),
                    shared: Arc::default(),
                })
            })
            .collect::<Result<Vec<_>, EndpointError>>()?;
        Ok(DirectChannel {
            endpoints: endpoints.into(),
            next: Arc::new(AtomicUsize::new(0)),
            epoch: Instant::now(),
            settings: Settings {
                connect_timeout,
                keep_alive,
                keep_alive_timeout,
            },
            id: CHANNELS.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// The connection slot of endpoint `index` for this thread: a connection worker's
    /// own, the shared one elsewhere.
    fn slot(&self, index: usize) -> Arc<Slot> {
        if crate::worker::index().is_none() {
            return self.endpoints[index].shared.clone();
        }
        WORKER_SLOTS.with(|slots| {
            let mut slots = slots.borrow_mut();
            let key = (self.id, index);
            if let Some((_, slot)) = slots.iter().find(|(k, _)| *k == key) {
                return slot.clone();
            }
            let slot = Arc::<Slot>::default();
            slots.push((key, slot.clone()));
            slot
        })
    }

    /// A sender ready for a new stream on endpoint `index`'s connection in `slot`,
    /// connecting first when there is none or it broke.
    async fn ready_sender(
        &self,
        index: usize,
        slot: &Slot,
    ) -> Result<SendRequest<Bytes>, BoxError> {
        if let Some(sender) = slot.current()
            && let Ok(ready) = sender.ready().await
        {
            return Ok(ready);
        }
        let _connecting = slot.connecting.lock().await;
        // Another caller may have connected while this one waited.
        if let Some(sender) = slot.current()
            && let Ok(ready) = sender.ready().await
        {
            return Ok(ready);
        }
        let sender = match self.connect(index).await {
            Ok(sender) => sender,
            Err(error) => {
                let until = self.now_ms().saturating_add(DOWN_FOR.as_millis() as u64);
                self.endpoints[index]
                    .down_until
                    .store(until, Ordering::Relaxed);
                return Err(error.into());
            }
        };
        slot.set(sender.clone());
        Ok(sender.ready().await?)
    }

    /// A new HTTP/2 connection to endpoint `index`, driven (and kept alive) by a task of
    /// the current runtime.
    async fn connect(&self, index: usize) -> Result<SendRequest<Bytes>, ConnectError> {
        let address = &self.endpoints[index].address;
        let Settings {
            connect_timeout,
            keep_alive,
            keep_alive_timeout,
        } = self.settings;
        let attempt = async {
            let tcp = TcpStream::connect(address)
                .await
                .map_err(|source| ConnectError::Tcp {
                    address: address.clone(),
                    source,
                })?;
            tcp.set_nodelay(true).map_err(|source| ConnectError::Tcp {
                address: address.clone(),
                source,
            })?;
            h2::client::Builder::new()
                .initial_window_size(STREAM_WINDOW)
                .initial_connection_window_size(CONNECTION_WINDOW)
                .handshake::<_, Bytes>(tcp)
                .await
                .map_err(|source| ConnectError::Handshake {
                    address: address.clone(),
                    source,
                })
        };
        let (sender, mut connection) = tokio::time::timeout(connect_timeout, attempt)
            .await
            .map_err(|_| ConnectError::Timeout {
                address: address.clone(),
                timeout: connect_timeout,
            })??;
        let ping_pong = connection.ping_pong();
        tokio::spawn(async move {
            let keep_alive = async move {
                let Some(mut ping_pong) = ping_pong else {
                    return std::future::pending().await;
                };
                loop {
                    tokio::time::sleep(keep_alive).await;
                    let pong = ping_pong.ping(h2::Ping::opaque());
                    match tokio::time::timeout(keep_alive_timeout, pong).await {
                        Ok(Ok(_)) => {}
                        // No answer: dropping the connection fails its streams.
                        _ => return,
                    }
                }
            };
            tokio::select! {
                _ = connection => {}
                () = keep_alive => {}
            }
        });
        Ok(sender)
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

/// Sends `request` on `sender` and waits for the response's headers.
async fn send(mut sender: SendRequest<Bytes>, request: Request) -> Result<Response, BoxError> {
    let (parts, mut body) = request.into_parts();
    // The frames the body has ready now (a unary call's whole message), sent with the
    // headers so that the connection writes them in one go.
    let mut frames = Vec::new();
    let mut ended = false;
    while let Some(next) = body.frame().now_or_never() {
        match next {
            Some(frame) => frames.push(frame?),
            None => {
                ended = true;
                break;
            }
        }
    }
    let headers_end = ended && frames.is_empty();
    let (response, mut stream) =
        sender.send_request(http::Request::from_parts(parts, ()), headers_end)?;
    let count = frames.len();
    for (i, frame) in frames.into_iter().enumerate() {
        let last = ended && i + 1 == count;
        match frame.into_data() {
            Ok(data) => stream.send_data(data, last)?,
            Err(frame) => {
                if let Ok(trailers) = frame.into_trailers() {
                    stream.send_trailers(trailers)?;
                }
            }
        }
    }
    if !ended {
        // A streaming call (a watch): the rest of the body as it comes.
        tokio::spawn(pipe(body, stream));
    }
    let response = response.await?;
    Ok(response.map(|received| tonic::body::Body::new(Received::new(received))))
}

/// Sends the rest of a streaming request's body, until it ends or the stream is reset.
async fn pipe(mut body: tonic::body::Body, mut stream: SendStream<Bytes>) {
    loop {
        let frame = tokio::select! {
            frame = body.frame() => frame,
            // etcd ended the call: nobody reads the rest.
            _ = std::future::poll_fn(|cx| stream.poll_reset(cx)) => return,
        };
        let sent = match frame {
            Some(Ok(frame)) => match frame.into_data() {
                Ok(data) => stream.send_data(data, false),
                Err(frame) => match frame.into_trailers() {
                    Ok(trailers) => {
                        let _ = stream.send_trailers(trailers);
                        return;
                    }
                    Err(_) => Ok(()),
                },
            },
            Some(Err(_)) => {
                stream.send_reset(h2::Reason::CANCEL);
                return;
            }
            None => {
                let _ = stream.send_data(Bytes::new(), true);
                return;
            }
        };
        if sent.is_err() {
            return;
        }
    }
}

/// A response's body as tonic reads it: the data frames (their window given back as
/// they are read), then the trailers with the gRPC status.
struct Received {
    stream: RecvStream,
    data_done: bool,
    done: bool,
}

impl Received {
    fn new(stream: RecvStream) -> Self {
        Received {
            stream,
            data_done: false,
            done: false,
        }
    }
}

impl Body for Received {
    type Data = Bytes;
    type Error = h2::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, h2::Error>>> {
        if self.done {
            return Poll::Ready(None);
        }
        if !self.data_done {
            match ready!(self.stream.poll_data(cx)) {
                Some(Ok(data)) => {
                    let _ = self.stream.flow_control().release_capacity(data.len());
                    return Poll::Ready(Some(Ok(Frame::data(data))));
                }
                Some(Err(error)) => {
                    self.done = true;
                    return Poll::Ready(Some(Err(error)));
                }
                None => self.data_done = true,
            }
        }
        self.done = true;
        match ready!(self.stream.poll_trailers(cx)) {
            Ok(Some(trailers)) => Poll::Ready(Some(Ok(Frame::trailers(trailers)))),
            Ok(None) => Poll::Ready(None),
            Err(error) => Poll::Ready(Some(Err(error))),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.done
    }
}

impl tower::Service<Request> for DirectChannel {
    type Response = Response;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        // Connections are made in `call`; there is no queue to wait for.
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
        let slot = self.slot(index);
        Box::pin(async move {
            let sender = channel.ready_sender(index, &slot).await?;
            send(sender, request).await
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

    /// An end of a duplex pipe that records what each write call carried.
    struct Recording {
        io: tokio::io::DuplexStream,
        writes: Arc<Mutex<Vec<Vec<u8>>>>,
    }

    impl tokio::io::AsyncRead for Recording {
        fn poll_read(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &mut tokio::io::ReadBuf<'_>,
        ) -> Poll<std::io::Result<()>> {
            Pin::new(&mut self.io).poll_read(cx, buf)
        }
    }

    impl tokio::io::AsyncWrite for Recording {
        fn poll_write(
            self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<std::io::Result<usize>> {
            self.poll_write_vectored(cx, &[std::io::IoSlice::new(buf)])
        }

        fn poll_write_vectored(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            bufs: &[std::io::IoSlice<'_>],
        ) -> Poll<std::io::Result<usize>> {
            // The pipe holds a megabyte: every write here goes through whole.
            let mut written = Vec::new();
            for buf in bufs {
                match Pin::new(&mut self.io).poll_write(cx, buf) {
                    Poll::Ready(Ok(n)) => written.extend_from_slice(&buf[..n]),
                    other => return other,
                }
            }
            let n = written.len();
            self.writes.lock().unwrap().push(written);
            Poll::Ready(Ok(n))
        }

        fn is_write_vectored(&self) -> bool {
            true
        }

        fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
            Pin::new(&mut self.io).poll_flush(cx)
        }

        fn poll_shutdown(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<std::io::Result<()>> {
            Pin::new(&mut self.io).poll_shutdown(cx)
        }
    }

    /// The (type, flags, stream) of the HTTP/2 frames in one write.
    fn frames(mut bytes: &[u8]) -> Vec<(u8, u8, u32)> {
        const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
        bytes = bytes.strip_prefix(PREFACE).unwrap_or(bytes);
        let mut frames = Vec::new();
        while bytes.len() >= 9 {
            let length = u32::from_be_bytes([0, bytes[0], bytes[1], bytes[2]]) as usize;
            let stream = u32::from_be_bytes([bytes[5], bytes[6], bytes[7], bytes[8]]) & 0x7fff_ffff;
            frames.push((bytes[3], bytes[4], stream));
            bytes = &bytes[(9 + length).min(bytes.len())..];
        }
        frames
    }

    #[tokio::test]
    async fn a_unary_calls_headers_and_message_go_out_in_one_write() {
        let (client_io, server_io) = tokio::io::duplex(1 << 20);
        let writes = Arc::new(Mutex::new(Vec::new()));
        let recording = Recording {
            io: client_io,
            writes: writes.clone(),
        };
        let (message_tx, message_rx) = tokio::sync::oneshot::channel();
        let server = tokio::spawn(async move {
            let mut connection = h2::server::handshake(server_io).await.unwrap();
            let (request, mut respond) = connection.accept().await.unwrap().unwrap();
            // The connection is driven (by `accept`) while the call is answered.
            tokio::spawn(async move {
                let mut body = request.into_body();
                let mut message = Vec::new();
                while let Some(data) = body.data().await {
                    message.extend_from_slice(&data.unwrap());
                }
                let mut stream = respond
                    .send_response(http::Response::new(()), false)
                    .unwrap();
                let mut trailers = http::HeaderMap::new();
                trailers.insert("grpc-status", http::HeaderValue::from_static("0"));
                stream.send_trailers(trailers).unwrap();
                let _ = message_tx.send(message);
            });
            while connection.accept().await.is_some() {}
        });
        let (sender, connection) = h2::client::handshake(recording).await.unwrap();
        tokio::spawn(connection);
        let request = http::Request::post("http://etcd/etcdserverpb.KV/Range")
            .body(tonic::body::Body::new(http_body_util::Full::new(
                Bytes::from_static(b"\0\0\0\0\x02hi"),
            )))
            .unwrap();
        let response = send(sender.ready().await.unwrap(), request).await.unwrap();
        let trailers = response
            .into_body()
            .collect()
            .await
            .unwrap()
            .trailers()
            .cloned();
        assert_eq!(trailers.unwrap()["grpc-status"], "0");
        assert_eq!(message_rx.await.unwrap(), b"\0\0\0\0\x02hi");
        server.abort();

        let writes = writes.lock().unwrap();
        let with_headers: Vec<Vec<(u8, u8, u32)>> = writes
            .iter()
            .map(|w| frames(w))
            .filter(|f| {
                f.iter()
                    .any(|&(kind, _, stream)| kind == 0x1 && stream == 1)
            })
            .collect();
        // HEADERS (0x1) of stream 1, then its DATA (0x0) with END_STREAM (0x1), one write.
        assert_eq!(with_headers.len(), 1, "{writes:?}");
        assert!(
            with_headers[0].contains(&(0x0, 0x1, 1)),
            "{:?}",
            with_headers[0]
        );
    }
}
