//! The filter chain every request goes through before the handler (Go's
//! `DefaultBuildHandlerChain`), as tower layers, outermost first:
//!
//! 1. [`panic_recovery`]: a handler that panics answers 500; the server goes on.
//! 2. [`pretty_print`]: JSON answers indented when the request asks for it (Go's output
//!    negotiation, done here once for every answer).
//! 3. [`http_log`]: a line per request at debug level.
//! 4. [`request_info`]: the path, method and query parsed once ([`RequestScope`]).
//! 5. [`audit`]: one audit event per request, whatever answered it.
//! 6. [`timeout`]: requests but watches answer 504 past the request timeout.
//! 7. [`authentication`]: who asks, or 401.
//! 8. [`impersonation`]: whom they ask as (`Impersonate-User` and the like), when they
//!    may, or 403.
//! 9. [`max_in_flight`]: at most so many requests (mutating, and the others) at once, or
//!    429.
//! 10. [`authorization`]: may they, or 403.
//!
//! Each filter is a [`Filter`]: a step given the request and the rest of the chain
//! ([`Next`]), answering with a future ([`Answer`]), made a tower [`Layer`] by
//! [`FilterLayer`]. A filter that has nothing to do after the rest of the chain answers,
//! nor anything to wait for before it, answers with the rest of the chain's own future.

pub(crate) mod audit;
pub(crate) mod authentication;
pub(crate) mod authorization;
pub(crate) mod http_log;
pub(crate) mod impersonation;
pub(crate) mod max_in_flight;
pub(crate) mod panic_recovery;
pub(crate) mod pretty_print;
pub(crate) mod request_info;
pub(crate) mod timeout;

use std::convert::Infallible;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::http::{Request, Response};
use futures_util::future::BoxFuture;
use tower::{Layer, Service};

pub(crate) use request_info::RequestScope;

/// The answer of a filter, or of the handler, to a request.
///
/// Boxed, so each filter's future holds a pointer to the next one's. Nested by value,
/// every future was copied into its caller's as the chain built them: 8,000 more
/// instructions per GET in callgrind (`benchmarks/apiserver/instructions_per_get.sh`).
/// A filter with nothing to do after the rest of the chain answers (request info,
/// impersonation without its headers, ...) hands that answer on as it is: no box of its
/// own, and the request is never moved into a future of its.
pub(crate) type Answer = BoxFuture<'static, Response<Body>>;

/// A service of the chain (a filter with the rest of the chain behind it, or the
/// handler), answering through a shared reference: none holds per-call state, so a
/// filter hands the rest of the chain on as one `Arc` rather than cloning every service
/// below it on every request.
pub(crate) trait Handle: Send + Sync + 'static {
    /// The answer to `req`.
    fn handle(&self, req: Request<Body>) -> Answer;
}

/// The rest of the chain, as a filter calls it.
#[derive(Debug)]
pub(crate) struct Next<S>(Arc<S>);

impl<S: Handle> Next<S> {
    /// The answer of the rest of the chain to `req`. The filters after this one do
    /// their work before their first wait now, as the answer is made; the rest when it
    /// is awaited.
    pub(crate) fn run(self, req: Request<Body>) -> Answer {
        self.0.handle(req)
    }
}

/// One step of the chain: given the request and the rest of the chain, it answers
/// itself (401, 403, 429, 504, ...) or passes the request on, perhaps changed.
pub(crate) trait Filter: Send + Sync + 'static {
    /// The answer to `req`, by this filter or by `next`.
    fn filter<S>(&self, req: Request<Body>, next: Next<S>) -> Answer
    where
        S: Handle;
}

/// A [`Filter`] as a tower layer.
#[derive(Clone, Debug)]
pub(crate) struct FilterLayer<F>(pub(crate) F);

impl<F: Filter + Clone, S> Layer<S> for FilterLayer<F> {
    type Service = FilterService<F, S>;

    fn layer(&self, inner: S) -> Self::Service {
        FilterService {
            filter: self.0.clone(),
            inner: Arc::new(inner),
        }
    }
}

/// The service a [`FilterLayer`] makes of the rest of the chain.
#[derive(Debug)]
pub(crate) struct FilterService<F, S> {
    filter: F,
    inner: Arc<S>,
}

// Not derived: a clone shares the rest of the chain (`S` need not be `Clone`).
impl<F: Clone, S> Clone for FilterService<F, S> {
    fn clone(&self) -> Self {
        FilterService {
            filter: self.filter.clone(),
            inner: Arc::clone(&self.inner),
        }
    }
}

impl<F: Filter, S: Handle> Handle for FilterService<F, S> {
    fn handle(&self, req: Request<Body>) -> Answer {
        self.filter.filter(req, Next(Arc::clone(&self.inner)))
    }
}

impl<F: Filter, S: Handle> Service<Request<Body>> for FilterService<F, S> {
    type Response = Response<Body>;
    type Error = Infallible;
    type Future =
        futures_util::future::Map<Answer, fn(Response<Body>) -> Result<Response<Body>, Infallible>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // The chain is always ready: no service of it holds back capacity (the
        // max-in-flight filter answers 429 instead).
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<Body>) -> Self::Future {
        futures_util::FutureExt::map(self.handle(req), Ok)
    }
}
