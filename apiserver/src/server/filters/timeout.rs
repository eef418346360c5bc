//! Go's `WithTimeoutForNonLongRunningRequests`: a request that is not a watch answers
//! 504 `Timeout` once it has taken longer than the request timeout (Go's
//! `--request-timeout`, one minute by default); what it was doing is dropped.

use std::time::Duration;

use apimachinery::api::errors;
use axum::body::Body;
use axum::http::{Request, Response};

use super::{Filter, Handle, Next, RequestScope};
use crate::endpoints::responsewriters::error_response;

/// Go's default `--request-timeout`.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// The filter.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WithTimeout {
    timeout: Duration,
}

impl WithTimeout {
    /// Times requests out after `timeout`.
    pub(crate) fn new(timeout: Duration) -> Self {
        WithTimeout { timeout }
    }
}

impl Filter for WithTimeout {
    async fn filter<S>(self, req: Request<Body>, next: Next<S>) -> Response<Body>
    where
        S: Handle,
    {
        let long_running = req
            .extensions()
            .get::<RequestScope>()
            .is_some_and(RequestScope::is_long_running);
        if long_running {
            return next.run(req).await;
        }
        let uri = req.uri().clone();
        match tokio::time::timeout(self.timeout, next.run(req)).await {
            Ok(response) => response,
            Err(_) => {
                tracing::warn!(%uri, timeout = ?self.timeout, "request timed out");
                error_response(&errors::new_timeout_error(
                    "request did not complete within the allotted timeout",
                    0,
                ))
            }
        }
    }
}
