//! The plain-HTTP server of the manager's own endpoints: the health probes and the
//! metrics (Go's manager runs one server for each; each of ours is this loop).

use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// What answers one request: the endpoints are computed from memory, never awaited.
pub(crate) type Answer = Arc<dyn Fn(&Request<Incoming>) -> Response<Full<Bytes>> + Send + Sync>;

/// A text answer with its status and content type.
pub(crate) fn text(status: u16, content_type: &'static str, body: String) -> Response<Full<Bytes>> {
    let mut resp = Response::new(Full::new(Bytes::from(body)));
    *resp.status_mut() =
        hyper::StatusCode::from_u16(status).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    let headers = resp.headers_mut();
    headers.insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static(content_type),
    );
    headers.insert(
        hyper::header::X_CONTENT_TYPE_OPTIONS,
        hyper::header::HeaderValue::from_static("nosniff"),
    );
    resp
}

/// Serves HTTP/1.1 on `listener` until `cancel` fires; open connections are closed then.
pub(crate) async fn serve(listener: TcpListener, cancel: CancellationToken, answer: Answer) {
    loop {
        let (tcp, _) = tokio::select! {
            _ = cancel.cancelled() => return,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // A connection that failed before it was accepted concerns no one.
                Err(_) => continue,
            },
        };
        let answer = Arc::clone(&answer);
        let cancel = cancel.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let resp = answer(&req);
                async move { Ok::<_, Infallible>(resp) }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(tcp), service);
            tokio::select! {
                _ = cancel.cancelled() => {}
                _ = connection => {}
            }
        });
    }
}
