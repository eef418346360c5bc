//! Go's `httplog.WithLogging`: one line per request at debug level (the method, path,
//! status, how long it took, the user agent and the client's address); nothing is
//! measured when debug logs are off.

use std::time::Instant;

use axum::body::Body;
use axum::http::{Request, header};

use super::{Answer, Filter, Handle, Next};
use crate::endpoints::request_info::header_str;
use crate::server::tls::ConnectionInfo;

/// The filter.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WithLogging;

impl Filter for WithLogging {
    fn filter<S>(&self, req: Request<Body>, next: Next<S>) -> Answer
    where
        S: Handle,
    {
        if !tracing::enabled!(tracing::Level::DEBUG) {
            return next.run(req);
        }
        let started = Instant::now();
        let method = req.method().clone();
        let uri = req.uri().clone();
        let user_agent = header_str(req.headers(), header::USER_AGENT)
            .unwrap_or_default()
            .to_owned();
        let source = ConnectionInfo::of(&req).and_then(|c| c.remote);
        let answer = next.run(req);
        Box::pin(async move {
            let response = answer.await;
            tracing::debug!(
                verb = %method,
                uri = %uri,
                status = response.status().as_u16(),
                latency = ?started.elapsed(),
                user_agent = %user_agent,
                source = ?source,
                "HTTP"
            );
            response
        })
    }
}
