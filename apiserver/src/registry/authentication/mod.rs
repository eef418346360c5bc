//! The authentication.k8s.io group's reviews (Go's `pkg/registry/authentication`):
//! [`tokenreview`] (what the server's authenticators say of a token: webhook token
//! authenticators of other servers ask it) and [`selfsubjectreview`] (who the caller is:
//! `kubectl auth whoami`), answered, never stored.

pub mod selfsubjectreview;
pub mod tokenreview;

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;
use crate::authentication::user::Info;

/// The REST storage of authentication.k8s.io resource `info` (Go's
/// `authentication/rest/storage_authentication.go`).
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "tokenreviews" => {
            let review = tokenreview::TokenReview::new(deps.authenticator.clone());
            deps.answering(info, Arc::new(review))
        }
        "selfsubjectreviews" => {
            deps.answering(info, Arc::new(selfsubjectreview::SelfSubjectReview))
        }
        _ => deps.standard(info, GenericStrategy::default()),
    }
}

/// The `UserInfo` of a review, as Go writes it (`uid`, `groups`, `extra` left out when
/// empty).
pub fn user_info(user: &Info) -> Value {
    let mut info = Map::new();
    info.insert("username".into(), json!(user.name));
    if !user.uid.is_empty() {
        info.insert("uid".into(), json!(user.uid));
    }
    if !user.groups.is_empty() {
        info.insert("groups".into(), json!(user.groups));
    }
    if !user.extra.is_empty() {
        info.insert("extra".into(), json!(user.extra));
    }
    Value::Object(info)
}
