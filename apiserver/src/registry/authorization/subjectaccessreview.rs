//! `SubjectAccessReview` (Go's `pkg/registry/authorization/subjectaccessreview`): may
//! this user do this?

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::schema::GroupVersionKind;
use serde_json::Value;

use super::{
    attributes_from_spec, decide, refuse, review_kind, spec, subject_from_spec, validation,
};
use crate::authorization::Authorizer;
use crate::registry::rest::{Context, Creater, with_status};

const KIND: &str = "SubjectAccessReview";

/// Answers `SubjectAccessReview`s with the server's authorizer.
#[derive(Debug)]
pub struct SubjectAccessReview {
    authorizer: Arc<dyn Authorizer>,
}

impl SubjectAccessReview {
    /// Answers with `authorizer`.
    pub fn new(authorizer: Arc<dyn Authorizer>) -> Self {
        SubjectAccessReview { authorizer }
    }

    /// The `status` of the review `review` (its JSON).
    pub async fn status(&self, review: &Value) -> Result<Value, StatusError> {
        let spec = spec(review);
        let subject = subject_from_spec(&spec);
        // Go's ValidateSubjectAccessReview: the spec's errors, then the metadata's.
        let mut errs = validation::validate_union(&spec);
        errs.extend(validation::validate_subject(&subject));
        errs.extend(validation::validate_resource_attributes(&spec));
        errs.extend(validation::validate_metadata(review, false));
        refuse(errs)?;
        let attributes = attributes_from_spec(&spec, subject);
        Ok(decide(&*self.authorizer, &attributes).await)
    }
}

#[async_trait::async_trait]
impl Creater for SubjectAccessReview {
    fn kind(&self, version: &str) -> GroupVersionKind {
        review_kind(version, KIND)
    }

    async fn create(&self, _ctx: &Context<'_>, review: Value) -> Result<Value, StatusError> {
        let status = self.status(&review).await?;
        Ok(with_status(review, status))
    }
}
