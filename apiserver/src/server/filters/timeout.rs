//! Go's `WithTimeoutForNonLongRunningRequests`: a request that is not a watch answers
//! 504 `Timeout` once it has taken longer than the request timeout (Go's
//! `--request-timeout`, one minute by default); what it was doing is dropped.

use std::time::Duration;

use apimachinery::api::errors;
use axum::body::Body;
use axum::http::Request;

use super::{Answer, Filter, Handle, Next, RequestScope};
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
    fn filter<S>(&self, req: Request<Body>, next: Next<S>) -> Answer
    where
        S: Handle,
    {
        let long_running = req
            .extensions()
            .get::<RequestScope>()
            .is_some_and(RequestScope::is_long_running);
        if long_running {
            return next.run(req);
        }
        let uri = req.uri().clone();
        let timeout = self.timeout;
        let answer = tokio::time::timeout(timeout, next.run(req));
        Box::pin(async move {
            match answer.await {
                Ok(response) => response,
                Err(_) => {
                    tracing::warn!(%uri, ?timeout, "request timed out");
                    error_response(&errors::new_timeout_error(
                        "request did not complete within the allotted timeout",
                        0,
                    ))
                }
            }
        })
    }
}
