//! Go's `WithPanicRecovery`: a handler that panics answers 500, and the server goes on
//! serving.

use std::any::Any;
use std::panic::AssertUnwindSafe;

use axum::body::Body;
use axum::http::{Method, Request, Response, Uri};
use futures_util::FutureExt;

use super::{Answer, Filter, Handle, Next};
use crate::endpoints::responsewriters::http_error;

/// The filter.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WithPanicRecovery;

impl Filter for WithPanicRecovery {
    fn filter<S>(&self, req: Request<Body>, next: Next<S>) -> Answer
    where
        S: Handle,
    {
        let method = req.method().clone();
        let uri = req.uri().clone();
        // The handler's state is behind locks that recover from poisoning, and nothing of
        // the request outlives it: unwinding leaves nothing half done for the next one.
        // The filters after this one start as their answer is made, so a panic there is
        // caught too, as well as one while it is awaited.
        let answer = match std::panic::catch_unwind(AssertUnwindSafe(|| next.run(req))) {
            Ok(answer) => answer,
            Err(panic) => return Box::pin(std::future::ready(panicked(&method, &uri, &*panic))),
        };
        Box::pin(async move {
            match AssertUnwindSafe(answer).catch_unwind().await {
                Ok(response) => response,
                Err(panic) => panicked(&method, &uri, &*panic),
            }
        })
    }
}

/// The answer to a request whose handling panicked with `panic`, logged.
fn panicked(method: &Method, uri: &Uri, panic: &(dyn Any + Send)) -> Response<Body> {
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
