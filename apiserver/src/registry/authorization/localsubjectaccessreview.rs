//! `LocalSubjectAccessReview` (Go's
//! `pkg/registry/authorization/localsubjectaccessreview`): may this user do this in the
//! namespace of the request's path?

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::schema::GroupVersionKind;
use serde_json::Value;

use super::{
    attributes_from_spec, decide, non_resource_value, refuse, review_kind, spec, subject_from_spec,
    validation,
};
use crate::authorization::Authorizer;
use crate::registry::rest::{Context, Creater, with_status};
use apimachinery::util::validation::field::{Error, Path};

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
        let subject = subject_from_spec(&spec);
        // Go's ValidateLocalSubjectAccessReview: the spec's errors, the metadata's, then
        // the attributes' namespace, which must be the review's own (the request's, which
        // the handler gives a review naming none), and no non-resource attributes.
        let mut errs = validation::validate_union(&spec);
        errs.extend(validation::validate_subject(&subject));
        errs.extend(validation::validate_resource_attributes(&spec));
        errs.extend(validation::validate_metadata(review, true));
        if let Some(attributes) = spec.get("resourceAttributes").filter(|v| !v.is_null()) {
            let asked = attributes
                .get("namespace")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if asked != namespace {
                errs.push(Error::invalid(
                    &Path::new("spec.resourceAttributes.namespace"),
                    asked,
                    "must match metadata.namespace",
                ));
            }
        }
        if let Some(non_resource) = spec.get("nonResourceAttributes").filter(|v| !v.is_null()) {
            errs.push(Error::invalid(
                &Path::new("spec.nonResourceAttributes"),
                non_resource_value(non_resource),
                "disallowed on this kind of request",
            ));
        }
        refuse(errs)?;
        let attributes = attributes_from_spec(&spec, subject);
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
