//! Go's `WithAuthentication`: who asks. The authenticator's user, or the anonymous one
//! when the request carries no credentials and anonymous requests are allowed; 401
//! otherwise (the reason stays in the server's log, as Go never tells a client why).

use std::sync::Arc;

use apimachinery::api::errors;
use axum::body::Body;
use axum::http::Request;

use super::audit::AuditedUsers;
use super::{Answer, Filter, Handle, Next};
use crate::authentication::user::Info;
use crate::authentication::{self, Authenticator};
use crate::endpoints::responsewriters::error_response;
use crate::server::tls::ConnectionInfo;

/// The filter.
#[derive(Clone, Debug)]
pub(crate) struct WithAuthentication {
    authenticator: Arc<dyn Authenticator>,
    anonymous_auth: bool,
}

impl WithAuthentication {
    /// Authenticates with `authenticator`; requests without credentials are anonymous
    /// when `anonymous_auth`, refused otherwise.
    pub(crate) fn new(authenticator: Arc<dyn Authenticator>, anonymous_auth: bool) -> Self {
        WithAuthentication {
            authenticator,
            anonymous_auth,
        }
    }
}

impl Filter for WithAuthentication {
    fn filter<S>(&self, mut req: Request<Body>, next: Next<S>) -> Answer
    where
        S: Handle,
    {
        let authenticator = Arc::clone(&self.authenticator);
        let anonymous_auth = self.anonymous_auth;
        Box::pin(async move {
            let answer = {
                let certificates = ConnectionInfo::of(&req)
                    .map(|c| c.client_certificates.0.as_slice())
                    .unwrap_or_default();
                let request = authentication::Request {
                    headers: req.headers(),
                    client_certificates: certificates,
                };
                authenticator.authenticate(&request).await
            };
            let user = match answer {
                Ok(Some(user)) => user,
                Ok(None) if anonymous_auth => Info::anonymous(),
                Ok(None) => {
                    tracing::debug!(uri = %req.uri(), "unauthorized: no credentials, and anonymous requests are not allowed");
                    return error_response(&errors::new_unauthorized("Unauthorized"));
                }
                Err(reason) => {
                    tracing::warn!(uri = %req.uri(), %reason, "unable to authenticate the request");
                    return error_response(&errors::new_unauthorized("Unauthorized"));
                }
            };
            // For the audit filter, which is outside this one to record refused
            // requests too.
            if let Some(audited) = req.extensions().get::<AuditedUsers>() {
                audited.authenticated(&user);
            }
            req.extensions_mut().insert(user);
            next.run(req).await
        })
    }
}
