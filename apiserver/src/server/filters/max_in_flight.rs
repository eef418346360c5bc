//! Go's `WithMaxInFlightLimit`: at most so many requests at once, mutating ones and the
//! others counted apart (kube-apiserver's `--max-mutating-requests-inflight` 200 and
//! `--max-requests-inflight` 400 by default); past that, 429 with `Retry-After: 1`,
//! except for members of `system:masters`. Watches are not counted.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::body::Body;
use axum::http::{HeaderValue, Request, header};

use super::{Answer, Filter, Handle, Next, RequestScope};
use crate::authentication::user::{Info, SYSTEM_PRIVILEGED_GROUP};
use crate::endpoints::responsewriters::http_error;

/// kube-apiserver's default `--max-requests-inflight`.
pub const DEFAULT_MAX_REQUESTS_INFLIGHT: usize = 400;
/// kube-apiserver's default `--max-mutating-requests-inflight`.
pub const DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT: usize = 200;

/// The verbs that change nothing (Go's `nonMutatingRequestVerbs`).
const NON_MUTATING_VERBS: [&str; 3] = ["get", "list", "watch"];

/// The requests in flight, of one kind, and how many may be.
#[derive(Debug)]
struct Slots {
    limit: usize,
    used: AtomicUsize,
}

impl Slots {
    /// Takes a slot, unless all are taken; a limit of 0 is no limit.
    fn take(self: &Arc<Self>) -> Result<Option<Taken>, ()> {
        if self.limit == 0 {
            return Ok(None);
        }
        let taken = self.used.fetch_add(1, Ordering::AcqRel);
        if taken >= self.limit {
            self.used.fetch_sub(1, Ordering::AcqRel);
            return Err(());
        }
        Ok(Some(Taken(self.clone())))
    }
}

/// A slot, given back when dropped (the request answered, or abandoned).
struct Taken(Arc<Slots>);

impl Drop for Taken {
    fn drop(&mut self) {
        self.0.used.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The filter.
#[derive(Clone, Debug)]
pub(crate) struct WithMaxInFlightLimit {
    read_only: Arc<Slots>,
    mutating: Arc<Slots>,
}

impl WithMaxInFlightLimit {
    /// At most `read_only` requests that change nothing and `mutating` ones that do, at
    /// once (0: no limit).
    pub(crate) fn new(read_only: usize, mutating: usize) -> Self {
        let slots = |limit| {
            Arc::new(Slots {
                limit,
                used: AtomicUsize::new(0),
            })
        };
        WithMaxInFlightLimit {
            read_only: slots(read_only),
            mutating: slots(mutating),
        }
    }
}

impl Filter for WithMaxInFlightLimit {
    fn filter<S>(&self, req: Request<Body>, next: Next<S>) -> Answer
    where
        S: Handle,
    {
        let Some(scope) = req.extensions().get::<RequestScope>() else {
            return next.run(req);
        };
        if scope.is_long_running() {
            return next.run(req);
        }
        // Requests for other paths are read with their lowercased method, as Go's
        // request info does.
        let read_only = match scope.resource() {
            Some(info) => NON_MUTATING_VERBS.contains(&info.verb.as_str()),
            None => NON_MUTATING_VERBS
                .iter()
                .any(|verb| req.method().as_str().eq_ignore_ascii_case(verb)),
        };
        let slots = if read_only {
            &self.read_only
        } else {
            &self.mutating
        };
        match slots.take() {
            Ok(None) => next.run(req),
            Ok(Some(slot)) => {
                let answer = next.run(req);
                Box::pin(async move {
                    let response = answer.await;
                    drop(slot);
                    response
                })
            }
            Err(()) => {
                let privileged = req
                    .extensions()
                    .get::<Info>()
                    .is_some_and(|user| user.in_group(SYSTEM_PRIVILEGED_GROUP));
                if privileged {
                    return next.run(req);
                }
                let verb = match req
                    .extensions()
                    .get::<RequestScope>()
                    .and_then(RequestScope::resource)
                {
                    Some(info) => info.verb.clone(),
                    None => req.method().as_str().to_ascii_lowercase(),
                };
                tracing::warn!(uri = %req.uri(), %verb, "too many requests in flight");
                let mut response = http_error(429, "Too many requests, please try again later.");
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
                Box::pin(std::future::ready(response))
            }
        }
    }
}
