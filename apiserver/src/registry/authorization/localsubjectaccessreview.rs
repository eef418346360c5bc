//! `LocalSubjectAccessReview` (Go's
//! `pkg/registry/authorization/localsubjectaccessreview`): may this user do this in the
//! namespace of the request's path?

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::schema::GroupVersionKind;
use serde_json::Value;

use super::{
    attributes_from_spec, decide, invalid_value, non_resource_value, require_subject, review_kind,
    spec, subject_from_spec,
};
use crate::authorization::Authorizer;
use crate::registry::rest::{Context, Creater, with_status};
use apimachinery::util::validation::field::BadValue;

const KIND: &str = "LocalSubjectAccessReview";

/// Answers `LocalSubjectAccessReview`s with the server's authorizer.
#[derive(Debug)]
pub struct LocalSubjectAccessReview {
    authorizer: Arc<dyn Authorizer>,
}

impl LocalSubjectAccessReview {
    /// Answers with `authorizer`.
    pub fn new(authorizer: Arc<dyn Authorizer>) -> Self {
        LocalSubjectAccessReview { authorizer }
    }

    /// The `status` of the review `review` (its JSON) posted in `namespace`.
    pub async fn status(&self, review: &Value, namespace: &str) -> Result<Value, StatusError> {
        if namespace.is_empty() {
            return Err(errors::new_bad_request(
                "namespace is required on this type: ",
            ));
        }
        let spec = spec(review);
        // Go's ValidateLocalSubjectAccessReview: the attributes' namespace is the
        // review's own (the request's, which the handler gives a review naming none).
        if let Some(attributes) = spec.get("resourceAttributes").filter(|v| !v.is_null()) {
            let asked = attributes
                .get("namespace")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if asked != namespace {
                return Err(invalid_value(
                    KIND,
                    "spec.resourceAttributes.namespace",
                    BadValue::from(asked),
                    "must match metadata.namespace",
                ));
            }
        }
        if let Some(non_resource) = spec.get("nonResourceAttributes").filter(|v| !v.is_null()) {
            return Err(invalid_value(
                KIND,
                "spec.nonResourceAttributes",
                non_resource_value(non_resource),
                "disallowed on this kind of request",
            ));
        }
        let subject = subject_from_spec(&spec);
        require_subject(KIND, &subject)?;
        let attributes = attributes_from_spec(KIND, &spec, subject)?;
        Ok(decide(&*self.authorizer, &attributes).await)
    }
}

#[async_trait::async_trait]
impl Creater for LocalSubjectAccessReview {
    fn kind(&self, version: &str) -> GroupVersionKind {
        review_kind(version, KIND)
    }

    async fn create(&self, ctx: &Context<'_>, review: Value) -> Result<Value, StatusError> {
        let status = self.status(&review, ctx.namespace).await?;
        Ok(with_status(review, status))
    }
}
