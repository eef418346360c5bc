//! `TokenReview` (Go's `pkg/registry/authentication/tokenreview`): the token of
//! `spec.token` presented as a bearer token to the server's authenticator, for the
//! audiences of `spec.audiences` (the server's when empty); `status.audiences` names
//! those a service-account token was valid for. A token no authenticator accepts is
//! `authenticated: false` with the reason in `error`; an empty token is a BadRequest.
//! (Static tokens are not audience-aware: `spec.audiences` does not restrict them.)

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::schema::GroupVersionKind;
use axum::http::{HeaderMap, HeaderValue, header};
use serde_json::{Value, json};

use super::user_info;
use crate::authentication::{self, Authenticator, Request};
use crate::registry::rest::{Context, Creater, with_status};

/// Answers `TokenReview`s with the server's authenticator.
#[derive(Debug)]
pub struct TokenReview {
    authenticator: Arc<dyn Authenticator>,
}

impl TokenReview {
    /// Reviews tokens with `authenticator`.
    pub fn new(authenticator: Arc<dyn Authenticator>) -> Self {
        TokenReview { authenticator }
    }

    /// The `status` of the review `review` (its JSON).
    pub async fn status(&self, review: &Value) -> Result<Value, StatusError> {
        let token = review
            .pointer("/spec/token")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if token.is_empty() {
            return Err(errors::new_bad_request(
                "token is required for TokenReview in authentication",
            ));
        }
        let mut headers = HeaderMap::new();
        let Ok(value) = HeaderValue::from_str(&format!("Bearer {token}")) else {
            return Ok(json!({"authenticated": false, "error": "invalid bearer token"}));
        };
        headers.insert(header::AUTHORIZATION, value);
        let request = Request {
            headers: &headers,
            client_certificates: &[],
        };
        let requested: Vec<String> = review
            .pointer("/spec/audiences")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let (answer, matched) =
            authentication::with_audiences(requested, self.authenticator.authenticate(&request))
                .await;
        Ok(match answer {
            Ok(Some(user)) => {
                let mut status = json!({"authenticated": true, "user": user_info(&user)});
                if let Some(audiences) = matched {
                    status["audiences"] = json!(audiences);
                }
                status
            }
            Ok(None) => json!({"authenticated": false}),
            Err(e) => json!({"authenticated": false, "error": e.0}),
        })
    }
}

#[async_trait::async_trait]
impl Creater for TokenReview {
    fn kind(&self, version: &str) -> GroupVersionKind {
        GroupVersionKind::new("authentication.k8s.io", version, "TokenReview")
    }

    async fn create(&self, _ctx: &Context<'_>, review: Value) -> Result<Value, StatusError> {
        let status = self.status(&review).await?;
        Ok(with_status(review, status))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::authentication::bearer_token::BearerToken;
    use crate::authentication::token_file::TokenFile;
    use crate::authentication::union::AuthenticatedGroupAdder;

    fn review() -> TokenReview {
        let file = TokenFile::parse("t.csv", "abc,alice,1001,dev\n").unwrap();
        TokenReview::new(Arc::new(AuthenticatedGroupAdder(Arc::new(BearerToken(
            vec![Arc::new(file)],
        )))))
    }

    #[tokio::test]
    async fn a_known_token_is_reviewed_as_its_user() {
        let status = review()
            .status(&json!({"spec": {"token": "abc"}}))
            .await
            .unwrap();
        assert_eq!(
            status,
            json!({"authenticated": true, "user": {"username": "alice", "uid": "1001", "groups": ["dev", "system:authenticated"]}})
        );
    }

    #[tokio::test]
    async fn an_unknown_token_is_not_authenticated_and_an_empty_one_is_a_bad_request() {
        let status = review()
            .status(&json!({"spec": {"token": "zzz"}}))
            .await
            .unwrap();
        assert_eq!(
            status,
            json!({"authenticated": false, "error": "invalid bearer token"})
        );
        let err = review().status(&json!({"spec": {}})).await.unwrap_err();
        assert!(errors::is_bad_request(&err));
    }
}
