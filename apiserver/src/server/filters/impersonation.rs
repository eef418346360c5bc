//! Go's `WithImpersonation`: a request with `Impersonate-User` (and `Impersonate-Group`,
//! `Impersonate-Uid`, `Impersonate-Extra-<key>`) is served as the user it names, once the
//! authenticated user is allowed to `impersonate` each of them: `users` (or the
//! `serviceaccounts` object of a service account's user name), `groups`, and
//! authentication.k8s.io's `uids` and `userextras/<key>`. The headers are then taken
//! off the request.

use std::collections::BTreeMap;
use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use axum::body::Body;
use axum::http::{HeaderMap, Request, Response};

use super::audit::AuditedUsers;
use super::authorization::forbidden;
use super::{Answer, Filter, Handle, Next};
use crate::authentication::serviceaccount::{make_groups, make_username, split_username};
use crate::authentication::user::{ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS, Info};
use crate::authorization::{Attributes, Authorizer, Decision};
use crate::endpoints::responsewriters::error_response;

/// The header naming the user to act as.
pub const IMPERSONATE_USER_HEADER: &str = "impersonate-user";
/// The header naming a group to act as (repeated for several).
pub const IMPERSONATE_GROUP_HEADER: &str = "impersonate-group";
/// The header naming the uid to act as.
pub const IMPERSONATE_UID_HEADER: &str = "impersonate-uid";
/// The prefix of the headers naming extra values to act with (`Impersonate-Extra-<key>`,
/// the key percent-encoded).
pub const IMPERSONATE_EXTRA_HEADER_PREFIX: &str = "impersonate-extra-";
/// What the names of all the headers above begin with.
const IMPERSONATE_HEADER_PREFIX: &str = "impersonate-";

/// The group of the `uids` and `userextras` the impersonation of a uid or extra value is
/// authorized on.
const AUTHENTICATION_GROUP: &str = "authentication.k8s.io";

/// One thing a request asks to act as (Go builds an `ObjectReference` of each).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Impersonation {
    /// A service account, from a `system:serviceaccount:NS:NAME` user name.
    ServiceAccount { namespace: String, name: String },
    /// Any other user.
    User(String),
    /// A group.
    Group(String),
    /// An extra value under a key.
    UserExtra { key: String, value: String },
    /// A uid.
    Uid(String),
}

impl Impersonation {
    /// Go's `%v` of the `ObjectReference` (kind, namespace, name, uid, apiVersion,
    /// resourceVersion, fieldPath), for its refusal of groups without a user.
    fn go_object_reference(&self) -> String {
        let (kind, namespace, name, api_version, field_path) = match self {
            Impersonation::ServiceAccount { namespace, name } => {
                ("ServiceAccount", namespace.as_str(), name.as_str(), "", "")
            }
            Impersonation::User(name) => ("User", "", name.as_str(), "", ""),
            Impersonation::Group(name) => ("Group", "", name.as_str(), "", ""),
            Impersonation::UserExtra { key, value } => (
                "UserExtra",
                "",
                value.as_str(),
                "authentication.k8s.io/v1",
                key.as_str(),
            ),
            Impersonation::Uid(uid) => ("UID", "", uid.as_str(), "authentication.k8s.io/v1", ""),
        };
        format!("{{{kind} {namespace} {name}  {api_version}  {field_path}}}")
    }

    /// What `requestor` must be allowed to do to act as this (Go's `actingAsAttributes`).
    fn attributes(&self, requestor: &Info) -> Attributes {
        let mut attributes = Attributes {
            user: requestor.clone(),
            verb: "impersonate".to_owned(),
            resource_request: true,
            api_version: "v1".to_owned(),
            ..Attributes::default()
        };
        match self {
            Impersonation::ServiceAccount { namespace, name } => {
                attributes.resource = "serviceaccounts".to_owned();
                attributes.namespace = namespace.clone();
                attributes.name = name.clone();
            }
            Impersonation::User(name) => {
                attributes.resource = "users".to_owned();
                attributes.name = name.clone();
            }
            Impersonation::Group(name) => {
                attributes.resource = "groups".to_owned();
                attributes.name = name.clone();
            }
            Impersonation::UserExtra { key, value } => {
                attributes.api_group = AUTHENTICATION_GROUP.to_owned();
                attributes.resource = "userextras".to_owned();
                attributes.subresource = key.clone();
                attributes.name = value.clone();
            }
            Impersonation::Uid(uid) => {
                attributes.api_group = AUTHENTICATION_GROUP.to_owned();
                attributes.resource = "uids".to_owned();
                attributes.name = uid.clone();
            }
        }
        attributes
    }
}

/// Go's `url.PathUnescape` of an extra key (a key that does not decode is kept as sent).
fn unescape_extra_key(encoded: &str) -> String {
    let bytes = encoded.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            let Some(byte) = hex else {
                return encoded.to_owned();
            };
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| encoded.to_owned())
}

/// What the headers ask to act as (Go's `buildImpersonationRequests`): a user first,
/// then the groups, the extra values and the uid; groups, extras or a uid without a user
/// are a BadRequest.
fn requested(headers: &HeaderMap) -> Result<Vec<Impersonation>, StatusError> {
    let text = |v: &axum::http::HeaderValue| v.to_str().unwrap_or_default().to_owned();
    let mut requests = Vec::new();
    let user = headers
        .get(IMPERSONATE_USER_HEADER)
        .map(text)
        .filter(|u| !u.is_empty());
    if let Some(user) = &user {
        requests.push(match split_username(user) {
            Some((namespace, name)) => Impersonation::ServiceAccount {
                namespace: namespace.to_owned(),
                name: name.to_owned(),
            },
            None => Impersonation::User(user.clone()),
        });
    }
    let mut others = false;
    for group in headers.get_all(IMPERSONATE_GROUP_HEADER) {
        others = true;
        requests.push(Impersonation::Group(text(group)));
    }
    for (name, value) in headers {
        let Some(key) = name.as_str().strip_prefix(IMPERSONATE_EXTRA_HEADER_PREFIX) else {
            continue;
        };
        others = true;
        requests.push(Impersonation::UserExtra {
            key: unescape_extra_key(key),
            value: text(value),
        });
    }
    if let Some(uid) = headers
        .get(IMPERSONATE_UID_HEADER)
        .map(text)
        .filter(|u| !u.is_empty())
    {
        others = true;
        requests.push(Impersonation::Uid(uid));
    }
    if others && user.is_none() {
        let listed: Vec<String> = requests
            .iter()
            .map(Impersonation::go_object_reference)
            .collect();
        return Err(errors::new_bad_request(format!(
            "requested [{}] without impersonating a user",
            listed.join(" ")
        )));
    }
    Ok(requests)
}

/// The user `requests` make (Go's: a service account has its groups unless groups are
/// named; a user but `system:anonymous` is also in `system:authenticated`, unless a
/// group named is it or `system:unauthenticated`; `system:anonymous` is in
/// `system:unauthenticated`).
fn impersonated_user(requests: &[Impersonation], groups_named: bool) -> Info {
    let mut user = Info::default();
    let mut extra: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for request in requests {
        match request {
            Impersonation::ServiceAccount { namespace, name } => {
                user.name = make_username(namespace, name);
                if !groups_named {
                    user.groups = make_groups(namespace);
                }
            }
            Impersonation::User(name) => user.name = name.clone(),
            Impersonation::Group(group) => user.groups.push(group.clone()),
            Impersonation::UserExtra { key, value } => {
                extra.entry(key.clone()).or_default().push(value.clone());
            }
            Impersonation::Uid(uid) => user.uid = uid.clone(),
        }
    }
    user.extra = extra;
    if user.name != ANONYMOUS {
        if !user
            .groups
            .iter()
            .any(|g| g == ALL_AUTHENTICATED || g == ALL_UNAUTHENTICATED)
        {
            user.groups.push(ALL_AUTHENTICATED.to_owned());
        }
    } else if !user.groups.iter().any(|g| g == ALL_UNAUTHENTICATED) {
        user.groups.push(ALL_UNAUTHENTICATED.to_owned());
    }
    user
}

/// The filter.
#[derive(Clone, Debug)]
pub(crate) struct WithImpersonation {
    authorizer: Arc<dyn Authorizer>,
}

impl WithImpersonation {
    /// Authorizes impersonation with `authorizer`.
    pub(crate) fn new(authorizer: Arc<dyn Authorizer>) -> Self {
        WithImpersonation { authorizer }
    }
}

impl Filter for WithImpersonation {
    fn filter<S>(&self, req: Request<Body>, next: Next<S>) -> Answer
    where
        S: Handle,
    {
        // Most requests ask for no one: they pass on as they are, with no future of this
        // filter's.
        let asks = req
            .headers()
            .keys()
            .any(|name| name.as_str().starts_with(IMPERSONATE_HEADER_PREFIX));
        if !asks {
            return next.run(req);
        }
        Box::pin(impersonate(Arc::clone(&self.authorizer), req, next))
    }
}

/// The answer to `req`, which asks to act as someone: as them when its user may, by
/// `next`; or a refusal.
async fn impersonate<S: Handle>(
    authorizer: Arc<dyn Authorizer>,
    mut req: Request<Body>,
    next: Next<S>,
) -> Response<Body> {
    let requests = match requested(req.headers()) {
        Ok(requests) if requests.is_empty() => return next.run(req).await,
        Ok(requests) => requests,
        Err(e) => return error_response(&e),
    };
    let Some(requestor) = req.extensions().get::<Info>().cloned() else {
        return error_response(&errors::new_internal_error("no user found for request"));
    };
    for request in &requests {
        let attributes = request.attributes(&requestor);
        let (decision, reason) = authorizer.authorize(&attributes).await;
        if decision != Decision::Allow {
            tracing::debug!(user = %requestor.name, ?request, %reason, "impersonation refused");
            return error_response(&forbidden(&attributes, &reason));
        }
    }
    let groups_named = req.headers().contains_key(IMPERSONATE_GROUP_HEADER);
    let user = impersonated_user(&requests, groups_named);
    tracing::debug!(user = %requestor.name, impersonated = %user.name, groups = ?user.groups, "impersonating");
    let headers = req.headers_mut();
    headers.remove(IMPERSONATE_USER_HEADER);
    headers.remove(IMPERSONATE_GROUP_HEADER);
    headers.remove(IMPERSONATE_UID_HEADER);
    let extras: Vec<_> = headers
        .keys()
        .filter(|name| name.as_str().starts_with(IMPERSONATE_EXTRA_HEADER_PREFIX))
        .cloned()
        .collect();
    for name in extras {
        headers.remove(name);
    }
    if let Some(audited) = req.extensions().get::<AuditedUsers>() {
        audited.impersonated(&user);
    }
    req.extensions_mut().insert(user);
    next.run(req).await
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(
                axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        h
    }

    #[test]
    fn a_service_account_user_name_is_impersonated_as_the_service_account() {
        let requests = requested(&headers(&[(
            "Impersonate-User",
            "system:serviceaccount:default:builder",
        )]))
        .unwrap();
        assert_eq!(
            requests,
            [Impersonation::ServiceAccount {
                namespace: "default".into(),
                name: "builder".into()
            }]
        );
        let user = impersonated_user(&requests, false);
        assert_eq!(user.name, "system:serviceaccount:default:builder");
        assert_eq!(
            user.groups,
            [
                "system:serviceaccounts",
                "system:serviceaccounts:default",
                "system:authenticated"
            ]
        );
        let attributes = requests[0].attributes(&Info::default());
        assert_eq!(
            (
                attributes.resource.as_str(),
                attributes.namespace.as_str(),
                attributes.name.as_str()
            ),
            ("serviceaccounts", "default", "builder")
        );
    }

    #[test]
    fn groups_extras_and_a_uid_make_the_user_as_go_makes_it() {
        let requests = requested(&headers(&[
            ("Impersonate-User", "bob"),
            ("Impersonate-Group", "dev"),
            ("Impersonate-Group", "ops"),
            ("Impersonate-Extra-Scopes%2Fread", "a"),
            ("Impersonate-Uid", "1234"),
        ]))
        .unwrap();
        let user = impersonated_user(&requests, true);
        assert_eq!(user.name, "bob");
        assert_eq!(user.uid, "1234");
        assert_eq!(user.groups, ["dev", "ops", "system:authenticated"]);
        assert_eq!(user.extra["scopes/read"], ["a"]);
        let extra = requests
            .iter()
            .find(|r| matches!(r, Impersonation::UserExtra { .. }))
            .unwrap()
            .attributes(&Info::default());
        assert_eq!(
            (
                extra.api_group.as_str(),
                extra.resource.as_str(),
                extra.subresource.as_str()
            ),
            ("authentication.k8s.io", "userextras", "scopes/read")
        );
        // Naming system:unauthenticated keeps system:authenticated out; the anonymous
        // user is unauthenticated.
        let requests = requested(&headers(&[
            ("Impersonate-User", "bob"),
            ("Impersonate-Group", "system:unauthenticated"),
        ]))
        .unwrap();
        assert_eq!(
            impersonated_user(&requests, true).groups,
            ["system:unauthenticated"]
        );
        let requests = requested(&headers(&[("Impersonate-User", "system:anonymous")])).unwrap();
        assert_eq!(
            impersonated_user(&requests, false).groups,
            ["system:unauthenticated"]
        );
    }

    #[test]
    fn groups_without_a_user_are_a_bad_request_in_gos_words() {
        let err = requested(&headers(&[("Impersonate-Group", "dev")])).unwrap_err();
        assert!(errors::is_bad_request(&err));
        assert_eq!(
            err.to_string(),
            "requested [{Group  dev    }] without impersonating a user"
        );
        assert_eq!(unescape_extra_key("a%2Fb"), "a/b");
        assert_eq!(unescape_extra_key("a%zz"), "a%zz");
    }
}
