//! The user of kube-apiserver's old insecure port (Go's `InsecureSuperuser`): for a
//! server reachable from its own machine only, a request without credentials is
//! `system:unsecured` in `system:masters`.

use std::sync::Arc;

use super::user::{ALL_AUTHENTICATED, Info, SYSTEM_PRIVILEGED_GROUP};
use super::{AuthenticationError, Authenticator, Request};

/// The superuser of requests without credentials.
pub const UNSECURED_USER: &str = "system:unsecured";

/// Asks its inner authenticator first: credentials a request carries are checked as
/// usual (and refused when not valid); a request without any is [`UNSECURED_USER`].
#[derive(Clone, Debug)]
pub struct InsecureSuperuser(pub Arc<dyn Authenticator>);

#[async_trait::async_trait]
impl Authenticator for InsecureSuperuser {
    async fn authenticate(
        &self,
        request: &Request<'_>,
    ) -> Result<Option<Info>, AuthenticationError> {
        Ok(Some(self.0.authenticate(request).await?.unwrap_or_else(
            || Info {
                name: UNSECURED_USER.to_owned(),
                groups: vec![
                    SYSTEM_PRIVILEGED_GROUP.to_owned(),
                    ALL_AUTHENTICATED.to_owned(),
                ],
                ..Info::default()
            },
        )))
    }
}

#[cfg(test)]
mod tests {
    use axum::http::{HeaderMap, HeaderValue, header};

    use super::*;
    use crate::authentication::bearer_token::BearerToken;
    use crate::authentication::token_file::TokenFile;

    #[tokio::test]
    async fn no_credentials_are_the_superuser_and_bad_ones_are_refused() {
        let file = TokenFile::parse("t.csv", "abc,alice,1\n").unwrap();
        let a = InsecureSuperuser(Arc::new(BearerToken(vec![Arc::new(file)])));
        let none = HeaderMap::new();
        let user = a
            .authenticate(&Request {
                headers: &none,
                client_certificates: &[],
            })
            .await
            .unwrap()
            .unwrap();
        assert_eq!(user.name, UNSECURED_USER);
        assert!(user.in_group(SYSTEM_PRIVILEGED_GROUP));
        let mut bad = HeaderMap::new();
        bad.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer nope"),
        );
        assert!(
            a.authenticate(&Request {
                headers: &bad,
                client_certificates: &[]
            })
            .await
            .is_err()
        );
        let mut good = HeaderMap::new();
        good.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer abc"),
        );
        let alice = a
            .authenticate(&Request {
                headers: &good,
                client_certificates: &[],
            })
            .await
            .unwrap()
            .unwrap();
        assert_eq!(alice.name, "alice");
    }
}
