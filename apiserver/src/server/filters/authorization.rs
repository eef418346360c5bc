//! Go's `WithAuthorization`: may the user do what the request asks? 403 naming the
//! user, verb, resource and namespace otherwise, with the authorizer's reason.

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::schema::GroupResource;
use axum::body::Body;
use axum::http::Request;

use super::{Answer, Filter, Handle, Next, RequestScope};
use crate::authentication::user::Info;
use crate::authorization::{self, Attributes, Authorizer, Decision};
use crate::endpoints::request_info::RequestInfo;
use crate::endpoints::responsewriters::error_response;

/// The filter.
#[derive(Clone, Debug)]
pub(crate) struct WithAuthorization {
    authorizer: Arc<dyn Authorizer>,
}

impl WithAuthorization {
    /// Authorizes with `authorizer`.
    pub(crate) fn new(authorizer: Arc<dyn Authorizer>) -> Self {
        WithAuthorization { authorizer }
    }
}

/// The attributes of a request (Go's `GetAuthorizerAttributes`): a resource request's,
/// or the path's.
pub(crate) fn attributes_of(
    user: &Info,
    method: &str,
    path: &str,
    info: Option<&RequestInfo>,
) -> Attributes {
    match info {
        Some(info) => Attributes::for_resource(user.clone(), info, path),
        None => Attributes::for_path(user.clone(), method, path),
    }
}

/// 403 for `attributes` the authorizer did not allow, with its `reason` (Go's
/// `responsewriters.Forbidden`).
pub(crate) fn forbidden(attributes: &Attributes, reason: &str) -> StatusError {
    let message = authorization::forbidden_message(attributes);
    let why = if reason.is_empty() {
        message
    } else {
        format!("{message}: {reason}")
    };
    let resource = GroupResource::new(attributes.api_group.as_str(), attributes.resource.as_str());
    errors::new_forbidden(&resource, &attributes.name, why)
}

impl Filter for WithAuthorization {
    fn filter<S>(&self, req: Request<Body>, next: Next<S>) -> Answer
    where
        S: Handle,
    {
        let (Some(user), Some(scope)) = (
            req.extensions().get::<Info>(),
            req.extensions().get::<RequestScope>(),
        ) else {
            return Box::pin(std::future::ready(error_response(
                &errors::new_internal_error(
                    "no user or request info for the request: the handler chain is wrong",
                ),
            )));
        };
        let attributes = attributes_of(
            user,
            req.method().as_str(),
            req.uri().path(),
            scope.resource(),
        );
        let authorizer = Arc::clone(&self.authorizer);
        Box::pin(async move {
            let (decision, reason) = authorizer.authorize(&attributes).await;
            if decision != Decision::Allow {
                return error_response(&forbidden(&attributes, &reason));
            }
            next.run(req).await
        })
    }
}
