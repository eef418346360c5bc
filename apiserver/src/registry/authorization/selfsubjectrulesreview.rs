//! `SelfSubjectRulesReview` (Go's `pkg/registry/authorization/selfsubjectrulesreview`):
//! what may I do in this namespace? (`kubectl auth can-i --list`)

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::schema::GroupVersionKind;
use serde_json::{Value, json};

use super::{review_kind, spec};
use crate::authentication::user::Info;
use crate::authorization::Authorizer;
use crate::registry::rest::{Context, Creater, with_status};

/// Answers `SelfSubjectRulesReview`s with the server's authorizer's rules.
#[derive(Debug)]
pub struct SelfSubjectRulesReview {
    authorizer: Arc<dyn Authorizer>,
}

impl SelfSubjectRulesReview {
    /// Answers with `authorizer`.
    pub fn new(authorizer: Arc<dyn Authorizer>) -> Self {
        SelfSubjectRulesReview { authorizer }
    }

    /// The `status` of the review `review` (its JSON) asked by `user`.
    pub async fn status(&self, review: &Value, user: &Info) -> Result<Value, StatusError> {
        let spec = spec(review);
        let asked = spec
            .get("namespace")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if asked.is_empty() {
            return Err(errors::new_bad_request("no namespace on request"));
        }
        let rules = self.authorizer.rules_for(user, asked).await;
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
        Ok(status)
    }
}

#[async_trait::async_trait]
impl Creater for SelfSubjectRulesReview {
    fn kind(&self, version: &str) -> GroupVersionKind {
        review_kind(version, "SelfSubjectRulesReview")
    }

    /// Go's REST answers a review of its own holding the status alone: the spec and
    /// metadata sent (managedFields included) are not in it.
    async fn create(&self, ctx: &Context<'_>, review: Value) -> Result<Value, StatusError> {
        let status = self.status(&review, ctx.user).await?;
        let mut answer = json!({"metadata": {}, "spec": {}});
        for key in ["apiVersion", "kind"] {
            if let Some(v) = review.get(key) {
                answer[key] = v.clone();
            }
        }
        Ok(with_status(answer, status))
    }
}
