//! The answers of `authentication.k8s.io/v1` `TokenReview` (what the server's
//! authenticators say of a token: webhook token authenticators of other servers ask it)
//! and `SelfSubjectReview` (who the caller is: `kubectl auth whoami`).

use axum::http::{HeaderMap, HeaderValue, header};
use serde_json::{Map, Value, json};

use super::user::Info;
use super::{Authenticator, Request};
use apimachinery::api::errors::{self, StatusError};

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

/// The `status` of a `SelfSubjectReview` by `user`.
pub fn self_subject_review_status(user: &Info) -> Value {
    json!({ "userInfo": user_info(user) })
}

/// The `status` of the `TokenReview` `review` (its JSON): the token of `spec.token`
/// presented as a bearer token to `authenticator`, as Go's TokenReview does, for the
/// audiences of `spec.audiences` (the server's when empty): `status.audiences` names
/// those a service-account token was valid for. A token no authenticator accepts is
/// `authenticated: false` with the reason in `error`. An empty token is a BadRequest.
/// (Static tokens are not audience-aware: `spec.audiences` does not restrict them.)
pub async fn token_review_status(
    authenticator: &dyn Authenticator,
    review: &Value,
) -> Result<Value, StatusError> {
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
        super::with_audiences(requested, authenticator.authenticate(&request)).await;
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::authentication::bearer_token::BearerToken;
    use crate::authentication::token_file::TokenFile;
    use crate::authentication::union::AuthenticatedGroupAdder;

    fn authenticator() -> AuthenticatedGroupAdder {
        let file = TokenFile::parse("t.csv", "abc,alice,1001,dev\n").unwrap();
        AuthenticatedGroupAdder(Arc::new(BearerToken(vec![Arc::new(file)])))
    }

    #[tokio::test]
    async fn a_known_token_is_reviewed_as_its_user() {
        let status = token_review_status(&authenticator(), &json!({"spec": {"token": "abc"}}))
            .await
            .unwrap();
        assert_eq!(
            status,
            json!({"authenticated": true, "user": {"username": "alice", "uid": "1001", "groups": ["dev", "system:authenticated"]}})
        );
    }

    #[tokio::test]
    async fn an_unknown_token_is_not_authenticated_and_an_empty_one_is_a_bad_request() {
        let status = token_review_status(&authenticator(), &json!({"spec": {"token": "zzz"}}))
            .await
            .unwrap();
        assert_eq!(
            status,
            json!({"authenticated": false, "error": "invalid bearer token"})
        );
        let err = token_review_status(&authenticator(), &json!({"spec": {}}))
            .await
            .unwrap_err();
        assert_eq!(err.code(), 400);
    }

    #[test]
    fn self_subject_review_leaves_out_empty_fields() {
        assert_eq!(
            self_subject_review_status(&Info::anonymous()),
            json!({"userInfo": {"username": "system:anonymous", "groups": ["system:unauthenticated"]}})
        );
    }
}
