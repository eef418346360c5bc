//! Go's `WithPanicRecovery`: a handler that panics answers 500, and the server goes on
//! serving.

use std::panic::AssertUnwindSafe;

use axum::body::Body;
use axum::http::{Request, Response};
use futures_util::FutureExt;

use super::{Filter, Handle, Next};
use crate::endpoints::responsewriters::http_error;

/// The filter.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WithPanicRecovery;

impl Filter for WithPanicRecovery {
    async fn filter<S>(self, req: Request<Body>, next: Next<S>) -> Response<Body>
    where
        S: Handle,
    {
        let method = req.method().clone();
        let uri = req.uri().clone();
        // The handler's state is behind locks that recover from poisoning, and nothing of
        // the request outlives it: unwinding leaves nothing half done for the next one.
        match AssertUnwindSafe(next.run(req)).catch_unwind().await {
            Ok(response) => response,
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                tracing::error!(%method, %uri, panic = %what, "apiserver panicked");
                http_error(
                    500,
                    "This request caused apiserver to panic. Look in the logs for details.",
                )
            }
        }
    }
}
