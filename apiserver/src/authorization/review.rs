//! The access reviews of `authorization.k8s.io/v1`, answered from the server's
//! authorizer (Go's `pkg/registry/authorization/*`): `SubjectAccessReview` (may this
//! user do this?), `LocalSubjectAccessReview` (the same, in the request's namespace),
//! `SelfSubjectAccessReview` (may I? — `kubectl auth can-i`) and
//! `SelfSubjectRulesReview` (what may I do here? — `kubectl auth can-i --list`).

use std::collections::BTreeMap;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::schema::GroupKind;
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use serde_json::{Value, json};

use super::{Attributes, Authorizer, Decision};
use crate::authentication::user::Info;

const GROUP: &str = "authorization.k8s.io";

/// The `status` of a review of kind `resource` (`subjectaccessreviews`,
/// `localsubjectaccessreviews`, `selfsubjectaccessreviews` or
/// `selfsubjectrulesreviews`) whose JSON is `review`, asked by `user` in `namespace`
/// (the request path's, empty for cluster-scoped reviews); `None` for another kind.
///
/// ```
/// use apiserver::authentication::user::Info;
/// use apiserver::authorization::{AlwaysDeny, review};
/// use serde_json::json;
///
/// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
/// let asked = json!({"spec": {"resourceAttributes": {"verb": "get", "resource": "pods"}}});
/// let status = review::answer("selfsubjectaccessreviews", &asked, &Info::anonymous(), "", &AlwaysDeny)
///     .await?
///     .expect("a review kind");
/// assert_eq!(status["allowed"], false);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub async fn answer(
    resource: &str,
    review: &Value,
    user: &Info,
    namespace: &str,
    authorizer: &dyn Authorizer,
) -> Result<Option<Value>, StatusError> {
    let spec = review.get("spec").cloned().unwrap_or(Value::Null);
    match resource {
        "subjectaccessreviews" => {
            let subject = subject_from_spec(&spec);
            if subject.name.is_empty() && subject.groups.is_empty() {
                return Err(invalid(
                    "SubjectAccessReview",
                    "spec.user",
                    "at least one of user or group must be specified",
                ));
            }
            let attributes = attributes_from_spec("SubjectAccessReview", &spec, subject)?;
            Ok(Some(decide(authorizer, &attributes).await))
        }
        "selfsubjectaccessreviews" => {
            let attributes = attributes_from_spec("SelfSubjectAccessReview", &spec, user.clone())?;
            Ok(Some(decide(authorizer, &attributes).await))
        }
        "localsubjectaccessreviews" => {
            if namespace.is_empty() {
                return Err(errors::new_bad_request(
                    "namespace is required on this type: ",
                ));
            }
            if spec
                .get("nonResourceAttributes")
                .is_some_and(|v| !v.is_null())
            {
                return Err(invalid(
                    "LocalSubjectAccessReview",
                    "spec.nonResourceAttributes",
                    "disallowed on this kind of request",
                ));
            }
            let asked_namespace = spec
                .pointer("/resourceAttributes/namespace")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if asked_namespace != namespace {
                return Err(errors::new_bad_request(format!(
                    "spec.resourceAttributes.namespace must match namespace: {namespace}"
                )));
            }
            let subject = subject_from_spec(&spec);
            if subject.name.is_empty() && subject.groups.is_empty() {
                return Err(invalid(
                    "LocalSubjectAccessReview",
                    "spec.user",
                    "at least one of user or group must be specified",
                ));
            }
            let attributes = attributes_from_spec("LocalSubjectAccessReview", &spec, subject)?;
            Ok(Some(decide(authorizer, &attributes).await))
        }
        "selfsubjectrulesreviews" => {
            let asked = spec
                .get("namespace")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if asked.is_empty() {
                return Err(errors::new_bad_request("no namespace on request"));
            }
            let rules = authorizer.rules_for(user, asked).await;
            let resource_rules: Vec<Value> = rules
                .resource_rules
                .iter()
                .map(|r| {
                    json!({
                        "verbs": r.verbs,
                        "apiGroups": r.api_groups,
                        "resources": r.resources,
                        "resourceNames": r.resource_names,
                    })
                })
                .collect();
            let non_resource_rules: Vec<Value> = rules
                .non_resource_rules
                .iter()
                .map(|r| json!({"verbs": r.verbs, "nonResourceURLs": r.non_resource_urls}))
                .collect();
            let mut status = json!({
                "resourceRules": resource_rules,
                "nonResourceRules": non_resource_rules,
                "incomplete": rules.incomplete,
            });
            if !rules.evaluation_error.is_empty() {
                status["evaluationError"] = Value::from(rules.evaluation_error);
            }
            Ok(Some(status))
        }
        _ => Ok(None),
    }
}

/// A review refused as Go's validation refuses it: `field` is invalid (its value empty),
/// with `detail`.
fn invalid(kind: &str, field: &str, detail: &str) -> StatusError {
    let error = Error::invalid(&Path::new(field), "", detail);
    errors::new_invalid(&GroupKind::new(GROUP, kind), "", &ErrorList(vec![error]))
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

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
/// `NonResourceAttributesFrom`); exactly one of the two attribute sets must be given.
fn attributes_from_spec(kind: &str, spec: &Value, user: Info) -> Result<Attributes, StatusError> {
    let present = |field: &str| spec.get(field).is_some_and(|v| !v.is_null());
    let text = |v: &Value, field: &str| {
        v.get(field)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    match (
        present("resourceAttributes"),
        present("nonResourceAttributes"),
    ) {
        (true, true) => Err(invalid(
            kind,
            "spec.nonResourceAttributes",
            "cannot be specified in combination with resourceAttributes",
        )),
        (false, false) => Err(invalid(
            kind,
            "spec.resourceAttributes",
            "exactly one of nonResourceAttributes or resourceAttributes must be specified",
        )),
        (true, false) => {
            let r = &spec["resourceAttributes"];
            Ok(Attributes {
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
            })
        }
        (false, true) => {
            let r = &spec["nonResourceAttributes"];
            Ok(Attributes {
                user,
                verb: text(r, "verb"),
                resource_request: false,
                path: text(r, "path"),
                ..Attributes::default()
            })
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
