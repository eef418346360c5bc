//! Streaming responses (watches) on a connection of their own, driven by whoever reads
//! the body.
//!
//! The pooled client runs each connection in a task of its own, which hands the body to
//! its reader one chunk at a time through a one-slot channel: the connection task parses
//! a chunk, waits until the reader has taken it, then parses the next. A watch sends
//! every event as a chunk, so each event cost two task wake-ups, often across the
//! runtime's threads; on a loaded machine that capped a watch at ~23,000 events per
//! second whatever their size or encoding (a ConfigMap watch read as fast in JSON as in
//! protobuf, whose decoding alone is ~30 times faster). Go's client reads a response body
//! from the connection's buffer on the reader's own goroutine; here, likewise, the
//! reader of a [`StreamBody`] polls the connection itself: every chunk already read from
//! the socket is handed over without a task switch.
//!
//! A watch holds its connection as long as it runs, pooled or not, so a connection of
//! its own costs one connection set-up per watch (informers rewatch every few minutes).

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::header::HOST;
use http::{Request, Response, Uri};
use http_body_util::Full;
use hyper::body::{Body, Frame, Incoming, SizeHint};
use hyper::client::conn::http1::{Connection, SendRequest};
use hyper_rustls::{HttpsConnector, MaybeHttpsStream};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tower_service::Service as _;

use super::{TransportError, classify_error};

type Io = MaybeHttpsStream<TokioIo<TcpStream>>;

/// The connection of a streaming response, pinned where its body keeps it.
type Conn = Pin<Box<Connection<Io, Full<Bytes>>>>;

/// The body of a streaming response, owning its connection: polling the body drives
/// the connection (reads the socket, parses the chunks); dropping it closes the
/// connection.
pub(crate) struct StreamBody {
    body: Incoming,
    /// `None` once the connection has ended.
    conn: Option<Conn>,
    /// Kept so that the connection does not close while the body is read.
    _sender: SendRequest<Full<Bytes>>,
    /// The connection's error, if it failed: reported if the body then ends without
    /// one of its own.
    failed: Option<hyper::Error>,
}

impl std::fmt::Debug for StreamBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamBody")
            .field("open", &self.conn.is_some())
            .finish()
    }
}

impl Body for StreamBody {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let this = self.get_mut();
        loop {
            match Pin::new(&mut this.body).poll_frame(cx) {
                Poll::Ready(None) => {
                    return Poll::Ready(this.failed.take().map(Err));
                }
                Poll::Ready(frame) => return Poll::Ready(frame),
                Poll::Pending => {}
            }
            let Some(conn) = this.conn.as_mut() else {
                return Poll::Pending;
            };
            match conn.as_mut().poll(cx) {
                // The connection waits on the socket, or on the body's one slot being
                // taken: it may have filled the slot before it stopped.
                Poll::Pending => return Pin::new(&mut this.body).poll_frame(cx),
                // Ended: the body now ends (or fails) too, and says so when polled.
                Poll::Ready(result) => {
                    this.conn = None;
                    this.failed = result.err();
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Sends `request` (whose URI is absolute) on a new connection made by `connector`, and
/// returns the response, whose body drives the connection from then on.
pub(crate) async fn open(
    connector: &HttpsConnector<HttpConnector>,
    mut request: Request<Full<Bytes>>,
    url: &str,
) -> Result<Response<StreamBody>, TransportError> {
    let uri = request.uri().clone();
    let mut connector = connector.clone();
    futures_util::future::poll_fn(|cx| connector.poll_ready(cx))
        .await
        .map_err(|e| classify_error(url, &*e, true))?;
    let io = connector
        .call(uri.clone())
        .await
        .map_err(|e| classify_error(url, &*e, true))?;
    let (mut sender, conn) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| classify_error(url, &e, false))?;
    let mut conn = Box::pin(conn);
    to_origin_form(&mut request, &uri);
    // The connection is polled beside the exchange until the response head arrives.
    let exchange = async {
        sender.ready().await?;
        sender.send_request(request).await
    };
    let response = {
        let mut exchange = std::pin::pin!(exchange);
        futures_util::future::poll_fn(|cx| {
            if let Poll::Ready(result) = exchange.as_mut().poll(cx) {
                return Poll::Ready(result.map_err(|e| classify_error(url, &e, false)));
            }
            match conn.as_mut().poll(cx) {
                Poll::Pending => Poll::Pending,
                // Whatever it ended with, the exchange cannot finish any more; its own
                // error says why, when it has one.
                Poll::Ready(result) => Poll::Ready(match exchange.as_mut().poll(cx) {
                    Poll::Ready(Err(e)) => Err(classify_error(url, &e, false)),
                    Poll::Ready(Ok(response)) => Ok(response),
                    Poll::Pending => Err(TransportError::Http {
                        url: url.to_owned(),
                        message: match result {
                            Err(e) => format!("connection closed before the response: {e}"),
                            Ok(()) => "connection closed before the response".to_owned(),
                        },
                    }),
                }),
            }
        })
        .await?
    };
    let (head, body) = response.into_parts();
    Ok(Response::from_parts(
        head,
        StreamBody {
            body,
            conn: Some(conn),
            _sender: sender,
            failed: None,
        },
    ))
}

/// What the pooled client does to a request before it writes it on a connection (not
/// a proxy's): a `Host` header from the URI (with its port unless the scheme's
/// default), and the URI cut to its path and query.
fn to_origin_form(request: &mut Request<Full<Bytes>>, uri: &Uri) {
    if let Some(host) = uri.host() {
        let default_port = match uri.scheme_str() {
            Some("https") => Some(443),
            Some("http") => Some(80),
            _ => None,
        };
        let value = match uri.port_u16() {
            Some(port) if Some(port) != default_port => format!("{host}:{port}"),
            _ => host.to_owned(),
        };
        if let Ok(value) = http::HeaderValue::from_str(&value) {
            request.headers_mut().entry(HOST).or_insert(value);
        }
    }
    let path = uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .parse()
        .unwrap_or_else(|_| Uri::from_static("/"));
    *request.uri_mut() = path;
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn origin(url: &str) -> (String, Option<String>) {
        let mut request = Request::builder()
            .uri(url)
            .body(Full::new(Bytes::new()))
            .unwrap();
        let uri = request.uri().clone();
        to_origin_form(&mut request, &uri);
        (
            request.uri().to_string(),
            request
                .headers()
                .get(HOST)
                .map(|h| h.to_str().unwrap().to_owned()),
        )
    }

    /// A server of one connection that answers any request by writing each of `writes`
    /// in turn, then (unless `cut`) waits for the client to close: tells whether it did.
    async fn serve_once(
        writes: Vec<Vec<u8>>,
        cut: bool,
    ) -> (String, tokio::task::JoinHandle<bool>) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/watch", listener.local_addr().unwrap());
        let served = tokio::spawn(async move {
            let (mut tcp, _) = listener.accept().await.unwrap();
            let mut head = Vec::new();
            let mut buf = [0u8; 1024];
            while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                let n = tcp.read(&mut buf).await.unwrap();
                head.extend_from_slice(&buf[..n]);
            }
            let head = String::from_utf8(head).unwrap();
            assert!(head.starts_with("GET /watch HTTP/1.1\r\n"), "{head}");
            assert!(
                head.to_ascii_lowercase().contains("\r\nhost: 127.0.0.1:"),
                "{head}"
            );
            for write in writes {
                if tcp.write_all(&write).await.is_err() {
                    return true;
                }
            }
            if cut {
                return false;
            }
            // Whether the client hung up: its read end gives EOF then.
            matches!(
                tokio::time::timeout(std::time::Duration::from_secs(5), tcp.read(&mut buf)).await,
                Ok(Ok(0) | Err(_))
            )
        });
        (url, served)
    }

    fn connector() -> HttpsConnector<HttpConnector> {
        let tls = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(rustls::RootCertStore::empty())
        .with_no_client_auth();
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_or_http()
            .enable_http1()
            .wrap_connector(http)
    }

    fn get(url: &str) -> Request<Full<Bytes>> {
        Request::builder()
            .uri(url)
            .body(Full::new(Bytes::new()))
            .unwrap()
    }

    async fn next(body: &mut StreamBody) -> Option<Result<Bytes, String>> {
        use http_body_util::BodyExt as _;
        let frame = body.frame().await?;
        Some(
            frame
                .map(|f| f.into_data().unwrap_or_default())
                .map_err(|e| e.to_string()),
        )
    }

    #[tokio::test]
    async fn chunks_are_read_by_the_reader_and_the_end_is_seen() {
        let head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
        // Two chunks in one write, a third alone, then the end.
        let (url, served) = serve_once(
            vec![
                head,
                b"3\r\nabc\r\n2\r\nde\r\n".to_vec(),
                b"1\r\nf\r\n0\r\n\r\n".to_vec(),
            ],
            false,
        )
        .await;
        let response = open(&connector(), get(&url), &url).await.unwrap();
        assert_eq!(response.status(), 200);
        let mut body = response.into_body();
        let mut data = Vec::new();
        while let Some(chunk) = next(&mut body).await {
            data.extend_from_slice(&chunk.unwrap());
        }
        assert_eq!(data, b"abcdef");
        drop(body);
        assert!(served.await.unwrap());
    }

    #[tokio::test]
    async fn a_connection_cut_inside_the_body_is_an_error() {
        let (url, _served) = serve_once(
            vec![
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec(),
                b"3\r\nabc\r\n5\r\nde".to_vec(),
            ],
            true,
        )
        .await;
        let mut body = open(&connector(), get(&url), &url)
            .await
            .unwrap()
            .into_body();
        assert_eq!(next(&mut body).await.unwrap().unwrap(), "abc");
        let mut ended = None;
        while let Some(item) = next(&mut body).await {
            if let Err(e) = item {
                ended = Some(e);
                break;
            }
        }
        assert!(ended.is_some(), "the cut went unnoticed");
    }

    #[tokio::test]
    async fn dropping_the_body_closes_the_connection() {
        let (url, served) = serve_once(
            vec![
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec(),
                b"3\r\nabc\r\n".to_vec(),
            ],
            false,
        )
        .await;
        let mut body = open(&connector(), get(&url), &url)
            .await
            .unwrap()
            .into_body();
        assert_eq!(next(&mut body).await.unwrap().unwrap(), "abc");
        drop(body);
        assert!(served.await.unwrap(), "the connection stayed open");
    }

    #[tokio::test]
    async fn an_unreachable_server_is_reported_as_such() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/watch", listener.local_addr().unwrap());
        drop(listener);
        let err = open(&connector(), get(&url), &url).await.unwrap_err();
        assert!(matches!(err, TransportError::Unreachable { .. }), "{err:?}");
    }

    #[test]
    fn requests_are_written_in_origin_form_with_a_host() {
        assert_eq!(
            origin("http://127.0.0.1:8080/api/v1/pods?watch=true"),
            (
                "/api/v1/pods?watch=true".to_owned(),
                Some("127.0.0.1:8080".to_owned())
            )
        );
        assert_eq!(
            origin("https://example.com:443/apis"),
            ("/apis".to_owned(), Some("example.com".to_owned()))
        );
        assert_eq!(
            origin("http://example.com"),
            ("/".to_owned(), Some("example.com".to_owned()))
        );
    }
}
