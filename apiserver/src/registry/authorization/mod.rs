//! The access reviews of authorization.k8s.io (Go's `pkg/registry/authorization`),
//! answered from the server's authorizer, never stored: [`subjectaccessreview`] (may
//! this user do this?), [`localsubjectaccessreview`] (the same, in the request's
//! namespace), [`selfsubjectaccessreview`] (may I? — `kubectl auth can-i`) and
//! [`selfsubjectrulesreview`] (what may I do here? — `kubectl auth can-i --list`).

pub mod localsubjectaccessreview;
pub mod selfsubjectaccessreview;
pub mod selfsubjectrulesreview;
pub mod subjectaccessreview;
mod validation;

use std::collections::BTreeMap;
use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::schema::{GroupKind, GroupVersionKind};
use apimachinery::util::validation::field::{BadValue, ErrorList};
use serde_json::{Value, json};

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;
use crate::authentication::user::Info;
use crate::authorization::{Attributes, Authorizer, Decision};

const GROUP: &str = "authorization.k8s.io";

/// The REST storage of authorization.k8s.io resource `info` (Go's
/// `authorization/rest/storage_authorization.go`).
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    let authorizer = deps.authorizer.clone();
    match info.resource.as_str() {
        "subjectaccessreviews" => deps.answering(
            info,
            Arc::new(subjectaccessreview::SubjectAccessReview::new(authorizer)),
        ),
        "localsubjectaccessreviews" => deps.answering(
            info,
            Arc::new(localsubjectaccessreview::LocalSubjectAccessReview::new(
                authorizer,
            )),
        ),
        "selfsubjectaccessreviews" => deps.answering(
            info,
            Arc::new(selfsubjectaccessreview::SelfSubjectAccessReview::new(
                authorizer,
            )),
        ),
        "selfsubjectrulesreviews" => deps.answering(
            info,
            Arc::new(selfsubjectrulesreview::SelfSubjectRulesReview::new(
                authorizer,
            )),
        ),
        _ => deps.standard(info, GenericStrategy::default()),
    }
}

/// The kind of review `kind` at `version`.
fn review_kind(version: &str, kind: &str) -> GroupVersionKind {
    GroupVersionKind::new(GROUP, version, kind)
}

/// The `spec` of a review.
fn spec(review: &Value) -> Value {
    review.get("spec").cloned().unwrap_or(Value::Null)
}

/// A review refused as Go's validation refuses it, with every error `errs` holds (none:
/// accepted). Go names the review's kind as its decoded internal object has it, none
/// (`.authorization.k8s.io "" is invalid`), whatever the review.
fn refuse(errs: ErrorList) -> Result<(), StatusError> {
    if errs.is_empty() {
        return Ok(());
    }
    Err(errors::new_invalid(&GroupKind::new(GROUP, ""), "", &errs))
}

/// Go's value of the non-resource attributes in an error: its internal struct's JSON.
fn non_resource_value(non_resource: &Value) -> BadValue {
    if !non_resource.is_object() {
        return BadValue::null();
    }
    let text = |field: &str| match BadValue::json_string(
        non_resource
            .get(field)
            .and_then(Value::as_str)
            .unwrap_or(""),
    ) {
        BadValue::Json(t) => t,
        _ => String::new(),
    };
    BadValue::Json(format!(
        "{{\"Path\":{},\"Verb\":{}}}",
        text("path"),
        text("verb")
    ))
}

pub(crate) use crate::registry::string_list as strings;

/// The user a (Local)SubjectAccessReview asks about.
fn subject_from_spec(spec: &Value) -> Info {
    let text = |field: &str| {
        spec.get(field)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let extra: BTreeMap<String, Vec<String>> = spec
        .get("extra")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), strings(Some(v))))
                .collect()
        })
        .unwrap_or_default();
    Info {
        name: text("user"),
        uid: text("uid"),
        groups: strings(spec.get("groups")),
        extra,
    }
}

/// The request a review asks about (Go's `ResourceAttributesFrom` /
/// `NonResourceAttributesFrom`), from the one attribute set the review gives
/// ([`validation::validate_union`] refuses others).
fn attributes_from_spec(spec: &Value, user: Info) -> Attributes {
    let text = |v: &Value, field: &str| {
        v.get(field)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    match spec.get("resourceAttributes").filter(|v| !v.is_null()) {
        Some(r) => Attributes {
            user,
            verb: text(r, "verb"),
            resource_request: true,
            namespace: text(r, "namespace"),
            api_group: text(r, "group"),
            api_version: text(r, "version"),
            resource: text(r, "resource"),
            subresource: text(r, "subresource"),
            name: text(r, "name"),
            path: String::new(),
        },
        None => {
            let r = spec.get("nonResourceAttributes").unwrap_or(&Value::Null);
            Attributes {
                user,
                verb: text(r, "verb"),
                resource_request: false,
                path: text(r, "path"),
                ..Attributes::default()
            }
        }
    }
}

async fn decide(authorizer: &dyn Authorizer, attributes: &Attributes) -> Value {
    let (decision, reason) = authorizer.authorize(attributes).await;
    let mut status = json!({"allowed": decision == Decision::Allow});
    if decision == Decision::Deny {
        status["denied"] = Value::Bool(true);
    }
    if !reason.is_empty() {
        status["reason"] = Value::from(reason);
    }
    status
}

#[cfg(test)]
mod tests;
