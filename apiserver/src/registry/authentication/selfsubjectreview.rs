//! `SelfSubjectReview` (Go's `pkg/registry/authentication/selfsubjectreview`): who the
//! caller is, as the server authenticated it (`kubectl auth whoami`).

use apimachinery::api::errors::StatusError;
use apimachinery::schema::GroupVersionKind;
use serde_json::{Value, json};

use super::user_info;
use apimachinery::apis::meta::v1::Time;

use crate::registry::rest::{Context, Creater};

/// Answers `SelfSubjectReview`s.
#[derive(Clone, Copy, Debug, Default)]
pub struct SelfSubjectReview;

#[async_trait::async_trait]
impl Creater for SelfSubjectReview {
    fn kind(&self, version: &str) -> GroupVersionKind {
        GroupVersionKind::new("authentication.k8s.io", version, "SelfSubjectReview")
    }

    /// Go's REST answers a review of its own, made now: nothing of the one sent (its
    /// metadata, managedFields included) but the kind.
    async fn create(&self, ctx: &Context<'_>, review: Value) -> Result<Value, StatusError> {
        let mut answer = json!({
            "metadata": {"creationTimestamp": Time::now().to_rfc3339()},
            "status": {"userInfo": user_info(ctx.user)},
        });
        for key in ["apiVersion", "kind"] {
            if let Some(v) = review.get(key) {
                answer[key] = v.clone();
            }
        }
        Ok(answer)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::authentication::user::Info;

    #[tokio::test]
    async fn self_subject_review_leaves_out_empty_fields() {
        let user = Info::anonymous();
        let ctx = Context {
            user: &user,
            namespace: "",
            name: "",
            version: "v1",
            dry_run: false,
        };
        let answered = SelfSubjectReview.create(&ctx, json!({})).await.unwrap();
        assert_eq!(
            answered["status"],
            json!({"userInfo": {"username": "system:anonymous", "groups": ["system:unauthenticated"]}})
        );
    }
}
