//! Bearer tokens (Go's `authentication/request/bearertoken` and
//! `authenticator.Token`): the `Authorization: Bearer TOKEN` header handed to token
//! authenticators, such as the [static token file](super::token_file::TokenFile) and
//! [service-account tokens](super::serviceaccount::TokenAuthenticator).

use std::fmt::Debug;
use std::sync::Arc;

use axum::http::{HeaderMap, header};

use super::user::Info;
use super::{AuthenticationError, Authenticator, Request};

/// Turns a bearer token into a user (Go's `authenticator.Token`).
#[async_trait::async_trait]
pub trait TokenAuthenticator: Send + Sync + Debug {
    /// `Ok(Some(user))` for a token it issued or knows, `Ok(None)` for a token it does
    /// not recognise (another authenticator may), an error for a token of its own kind
    /// that is not valid (expired, for another audience, of a deleted account...).
    async fn authenticate_token(&self, token: &str) -> Result<Option<Info>, AuthenticationError>;
}

/// The token of an `Authorization: Bearer TOKEN` header; `None` when the request has no
/// such header (the scheme compared without case, as Go's).
pub fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let mut parts = value.split_whitespace();
    let scheme = parts.next()?;
    let token = parts.next()?;
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return None;
    }
    Some(token)
}

/// The bearer-token authenticator: asks its token authenticators in order. A request
/// without a bearer token is none of its business; one whose token no token
/// authenticator recognises is refused (Go's "invalid bearer token"), not anonymous.
#[derive(Clone, Debug, Default)]
pub struct BearerToken(pub Vec<Arc<dyn TokenAuthenticator>>);

impl BearerToken {
    /// What the token authenticators say of `token` (also what a `TokenReview` asks).
    pub async fn authenticate_token(&self, token: &str) -> Result<Info, AuthenticationError> {
        let mut refusals = Vec::new();
        for authenticator in &self.0 {
            match authenticator.authenticate_token(token).await {
                Ok(Some(user)) => return Ok(user),
                Ok(None) => {}
                Err(e) => refusals.push(e.0),
            }
        }
        if refusals.is_empty() {
            Err(AuthenticationError("invalid bearer token".to_owned()))
        } else {
            // Go's aggregate of the invalid-token error and each refusal: bracketed,
            // as an aggregate of more than one error prints.
            Err(AuthenticationError(format!(
                "[invalid bearer token, {}]",
                refusals.join(", ")
            )))
        }
    }
}

#[async_trait::async_trait]
impl Authenticator for BearerToken {
    async fn authenticate(
        &self,
        request: &Request<'_>,
    ) -> Result<Option<Info>, AuthenticationError> {
        match bearer_token(request.headers) {
            Some(token) => self.authenticate_token(token).await.map(Some),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(authorization: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_str(authorization).unwrap(),
        );
        h
    }

    #[test]
    fn the_bearer_scheme_is_read_without_case_and_others_are_ignored() {
        assert_eq!(bearer_token(&headers("Bearer abc")), Some("abc"));
        assert_eq!(bearer_token(&headers("bearer  abc")), Some("abc"));
        assert_eq!(bearer_token(&headers("Basic YWxpY2U6cHc=")), None);
        assert_eq!(bearer_token(&headers("Bearer")), None);
        assert_eq!(bearer_token(&HeaderMap::new()), None);
    }

    #[derive(Debug)]
    struct Only(&'static str);

    #[async_trait::async_trait]
    impl TokenAuthenticator for Only {
        async fn authenticate_token(
            &self,
            token: &str,
        ) -> Result<Option<Info>, AuthenticationError> {
            Ok((token == self.0).then(|| Info {
                name: token.to_owned(),
                ..Info::default()
            }))
        }
    }

    #[tokio::test]
    async fn an_unrecognised_token_is_refused_not_anonymous() {
        let bearer = BearerToken(vec![Arc::new(Only("a")), Arc::new(Only("b"))]);
        let h = headers("Bearer b");
        let request = Request {
            headers: &h,
            client_certificates: &[],
        };
        assert_eq!(
            bearer.authenticate(&request).await.unwrap().unwrap().name,
            "b"
        );
        let h = headers("Bearer c");
        let request = Request {
            headers: &h,
            client_certificates: &[],
        };
        assert_eq!(
            bearer.authenticate(&request).await.unwrap_err().0,
            "invalid bearer token"
        );
        let none = HeaderMap::new();
        let request = Request {
            headers: &none,
            client_certificates: &[],
        };
        assert!(bearer.authenticate(&request).await.unwrap().is_none());
    }
}
