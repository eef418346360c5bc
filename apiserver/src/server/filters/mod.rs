//! The filter chain every request goes through before the handler (Go's
//! `DefaultBuildHandlerChain`), as tower layers, outermost first:
//!
//! 1. [`panic_recovery`]: a handler that panics answers 500; the server goes on.
//! 2. [`http_log`]: a line per request at debug level.
//! 3. [`request_info`]: the path, method and query parsed once ([`RequestScope`]).
//! 4. [`audit`]: one audit event per request, whatever answered it.
//! 5. [`timeout`]: requests but watches answer 504 past the request timeout.
//! 6. [`authentication`]: who asks, or 401.
//! 7. [`impersonation`]: whom they ask as (`Impersonate-User` and the like), when they
//!    may, or 403.
//! 8. [`max_in_flight`]: at most so many requests (mutating, and the others) at once, or
//!    429.
//! 9. [`authorization`]: may they, or 403.
//!
//! Each filter is a [`Filter`]: an async step given the request and the rest of the
//! chain ([`Next`]), made a tower [`Layer`] by [`FilterLayer`].

pub(crate) mod audit;
pub(crate) mod authentication;
pub(crate) mod authorization;
pub(crate) mod http_log;
pub(crate) mod impersonation;
pub(crate) mod max_in_flight;
pub(crate) mod panic_recovery;
pub(crate) mod request_info;
pub(crate) mod timeout;

use std::convert::Infallible;
use std::future::Future;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::http::{Request, Response};
use futures_util::future::BoxFuture;
use tower::{Layer, Service};

pub(crate) use request_info::RequestScope;

/// The rest of the chain, as a filter calls it.
#[derive(Debug)]
pub(crate) struct Next<S>(S);

impl<S> Next<S>
where
    S: Service<Request<Body>, Response = Response<Body>, Error = Infallible> + Send + 'static,
    S::Future: Send,
{
    /// The answer of the rest of the chain to `req`.
    pub(crate) async fn run(mut self, req: Request<Body>) -> Response<Body> {
        // The services of the chain are always ready (none holds back capacity).
        match self.0.call(req).await {
            Ok(response) => response,
            Err(never) => match never {},
        }
    }
}

/// One step of the chain: what it does with a request, given the rest of the chain.
pub(crate) trait Filter: Clone + Send + Sync + 'static {
    /// The answer to `req`, by this filter or by `next`.
    fn filter<S>(
        self,
        req: Request<Body>,
        next: Next<S>,
    ) -> impl Future<Output = Response<Body>> + Send
    where
        S: Service<Request<Body>, Response = Response<Body>, Error = Infallible> + Send + 'static,
        S::Future: Send;
}

/// A [`Filter`] as a tower layer.
#[derive(Clone, Debug)]
pub(crate) struct FilterLayer<F>(pub(crate) F);

impl<F: Filter, S> Layer<S> for FilterLayer<F> {
    type Service = FilterService<F, S>;

    fn layer(&self, inner: S) -> Self::Service {
        FilterService {
            filter: self.0.clone(),
            inner,
        }
    }
}

/// The service a [`FilterLayer`] makes of the rest of the chain.
#[derive(Clone, Debug)]
pub(crate) struct FilterService<F, S> {
    filter: F,
    inner: S,
}

impl<F, S> Service<Request<Body>> for FilterService<F, S>
where
    F: Filter,
    S: Service<Request<Body>, Response = Response<Body>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response<Body>, Infallible>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<Body>) -> Self::Future {
        let filter = self.filter.clone();
        let next = Next(self.inner.clone());
        Box::pin(async move { Ok(filter.filter(req, next).await) })
    }
}
