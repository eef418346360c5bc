//! `SelfSubjectAccessReview` (Go's `pkg/registry/authorization/selfsubjectaccessreview`):
//! may I? (`kubectl auth can-i`).

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::schema::GroupVersionKind;
use serde_json::Value;

use super::{attributes_from_spec, decide, refuse, review_kind, spec, validation};
use crate::authentication::user::Info;
use crate::authorization::Authorizer;
use crate::registry::rest::{Context, Creater, with_status};

const KIND: &str = "SelfSubjectAccessReview";

/// Answers `SelfSubjectAccessReview`s with the server's authorizer.
#[derive(Debug)]
pub struct SelfSubjectAccessReview {
    authorizer: Arc<dyn Authorizer>,
}

impl SelfSubjectAccessReview {
    /// Answers with `authorizer`.
    pub fn new(authorizer: Arc<dyn Authorizer>) -> Self {
        SelfSubjectAccessReview { authorizer }
    }

    /// The `status` of the review `review` (its JSON) asked by `user`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use apiserver::authentication::user::Info;
    /// use apiserver::authorization::AlwaysDeny;
    /// use apiserver::registry::authorization::selfsubjectaccessreview::SelfSubjectAccessReview;
    /// use serde_json::json;
    ///
    /// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
    /// let review = SelfSubjectAccessReview::new(Arc::new(AlwaysDeny));
    /// let asked = json!({"spec": {"resourceAttributes": {"verb": "get", "resource": "pods"}}});
    /// let status = review.status(&asked, &Info::anonymous()).await?;
    /// assert_eq!(status["allowed"], false);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub async fn status(&self, review: &Value, user: &Info) -> Result<Value, StatusError> {
        let spec = spec(review);
        // Go's ValidateSelfSubjectAccessReview: the spec's errors, then the metadata's.
        let mut errs = validation::validate_union(&spec);
        errs.extend(validation::validate_resource_attributes(&spec));
        errs.extend(validation::validate_metadata(review, false));
        refuse(errs)?;
        let attributes = attributes_from_spec(&spec, user.clone());
        Ok(decide(&*self.authorizer, &attributes).await)
    }
}

#[async_trait::async_trait]
impl Creater for SelfSubjectAccessReview {
    fn kind(&self, version: &str) -> GroupVersionKind {
        review_kind(version, KIND)
    }

    async fn create(&self, ctx: &Context<'_>, review: Value) -> Result<Value, StatusError> {
        let status = self.status(&review, ctx.user).await?;
        Ok(with_status(review, status))
    }
}
