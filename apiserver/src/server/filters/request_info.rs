//! Go's `WithRequestInfo`: what the request asks for, parsed once from its path, method
//! and query, for the filters and the handler after it.

use axum::body::Body;
use axum::http::Request;

use super::{Answer, Filter, Handle, Next};
use crate::endpoints::handlers::Query;
use crate::endpoints::request_info::{RequestInfo, RequestInfoError};

/// A request's parsed path and query, in its extensions.
#[derive(Clone, Debug)]
pub(crate) struct RequestScope {
    /// What the path and method name: a resource request, or why it is not one.
    pub(crate) info: Result<RequestInfo, RequestInfoError>,
    /// The query parameters, by name (the last value of a repeated one).
    pub(crate) query: Query,
}

impl RequestScope {
    /// The scope of `req`.
    pub(crate) fn of(req: &Request<Body>) -> RequestScope {
        let query: Query = req
            .uri()
            .query()
            .map(|q| serde_urlencoded::from_str::<Vec<(String, String)>>(q).unwrap_or_default())
            .unwrap_or_default()
            .into_iter()
            .collect();
        let watch = matches!(query.get("watch").map(String::as_str), Some("true" | "1"));
        RequestScope {
            info: RequestInfo::parse(req.method().as_str(), req.uri().path(), watch),
            query,
        }
    }

    /// The resource request, when the path names one.
    pub(crate) fn resource(&self) -> Option<&RequestInfo> {
        self.info.as_ref().ok()
    }

    /// Whether the request stays open (Go's long-running check: watches).
    pub(crate) fn is_long_running(&self) -> bool {
        self.resource().is_some_and(|info| info.verb == "watch")
    }
}

/// The filter.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WithRequestInfo;

impl Filter for WithRequestInfo {
    fn filter<S>(&self, mut req: Request<Body>, next: Next<S>) -> Answer
    where
        S: Handle,
    {
        let scope = RequestScope::of(&req);
        req.extensions_mut().insert(scope);
        next.run(req)
    }
}
