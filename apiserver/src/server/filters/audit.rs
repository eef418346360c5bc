//! Go's `WithAudit` (and its failed-authentication twin): one `audit.k8s.io/v1` event
//! per request, accepted or refused, written when the response is ready, and the
//! request's audit id in the `Audit-Id` response header.

use std::sync::{Arc, Mutex, PoisonError};

use apimachinery::apis::meta::v1::MicroTime;
use axum::body::Body;
use axum::http::{HeaderName, HeaderValue, Request, header};

use super::{Answer, Filter, Handle, Next, RequestScope};
use crate::audit::{AUDIT_ID_HEADER, AuditLog, Event, ObjectReference, UserInfo};
use crate::authentication::user::Info;
use crate::endpoints::request_info::header_str;
use crate::server::tls::ConnectionInfo;

/// The `Audit-Id` header's name, checked once (`from_static` checks it each time it
/// runs, unless it runs here, at compile time).
static AUDIT_ID: HeaderName = HeaderName::from_static(AUDIT_ID_HEADER);

/// Who a request is served for, recorded in its extensions by the authentication and
/// impersonation filters when an audit log is written (as Go's filters record them in
/// the request's audit event), and read by the audit filter once the request is
/// answered. Without an audit log there is none, and nothing is copied for it.
#[derive(Clone, Debug, Default)]
pub(crate) struct AuditedUsers(Arc<Mutex<Users>>);

/// The users of an [`AuditedUsers`].
#[derive(Debug, Default)]
struct Users {
    /// The authenticated user.
    user: Option<UserInfo>,
    /// The user it acted as.
    impersonated: Option<UserInfo>,
}

impl AuditedUsers {
    /// Records `user` as the one the request is authenticated as.
    pub(crate) fn authenticated(&self, user: &Info) {
        self.users().user = Some(UserInfo::from(user));
    }

    /// Records `user` as the one the request acts as.
    pub(crate) fn impersonated(&self, user: &Info) {
        self.users().impersonated = Some(UserInfo::from(user));
    }

    fn users(&self) -> std::sync::MutexGuard<'_, Users> {
        // Recording only sets a field: a panic elsewhere leaves nothing half written.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The filter; without a log it only gives answers their audit id.
#[derive(Clone, Debug)]
pub(crate) struct WithAudit {
    log: Option<Arc<AuditLog>>,
}

impl WithAudit {
    /// Writes events to `log`, when there is one.
    pub(crate) fn new(log: Option<Arc<AuditLog>>) -> Self {
        WithAudit { log }
    }
}

impl Filter for WithAudit {
    fn filter<S>(&self, mut req: Request<Body>, next: Next<S>) -> Answer
    where
        S: Handle,
    {
        let name = AUDIT_ID.clone();
        // The client's id when it sent one, as Go takes it; a new one otherwise, written
        // into a header value directly (no text of it made first).
        let audit_id = match req.headers().get(&name) {
            Some(id) if !id.is_empty() && id.to_str().is_ok() => Some(id.clone()),
            _ => {
                let mut text = uuid::Uuid::encode_buffer();
                let id = uuid::Uuid::new_v4().hyphenated().encode_lower(&mut text);
                HeaderValue::from_str(id).ok()
            }
        };
        // Every answer carries its audit id, logged or not, as Go's `WithAuditInit`
        // gives it.
        let Some(log) = self.log.clone() else {
            let answer = next.run(req);
            return Box::pin(async move {
                let mut response = answer.await;
                if let Some(id) = audit_id {
                    response.headers_mut().insert(name, id);
                }
                response
            });
        };
        let received = MicroTime::now();
        let info = req
            .extensions()
            .get::<RequestScope>()
            .and_then(|s| s.resource().cloned());
        let verb = match &info {
            Some(info) => info.verb.clone(),
            None => req.method().as_str().to_ascii_lowercase(),
        };
        let source_ip = ConnectionInfo::of(&req)
            .and_then(|c| c.remote)
            .map(|a| a.ip());
        let uri = req
            .uri()
            .path_and_query()
            .map_or(req.uri().path(), |p| p.as_str())
            .to_owned();
        let user_agent = header_str(req.headers(), header::USER_AGENT)
            .unwrap_or_default()
            .to_owned();
        let users = AuditedUsers::default();
        req.extensions_mut().insert(users.clone());
        let answer = next.run(req);
        Box::pin(async move {
            let mut response = answer.await;
            let Users { user, impersonated } = std::mem::take(&mut *users.users());
            let user = user.unwrap_or_default();
            let id = audit_id.as_ref().and_then(|id| id.to_str().ok());
            let mut event = Event::new(
                id.unwrap_or_default().to_owned(),
                uri,
                verb.clone(),
                user,
                source_ip,
                user_agent,
                info.as_ref().map(ObjectReference::from),
                response.status().as_u16(),
                received,
                verb == "watch" && response.status().is_success(),
            );
            event.impersonated_user = impersonated;
            log.log(&event);
            if let Some(id) = audit_id {
                response.headers_mut().insert(name, id);
            }
            response
        })
    }
}
