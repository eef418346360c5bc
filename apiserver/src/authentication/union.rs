//! Several authenticators asked in turn (Go's `authentication/request/union`), and the
//! `system:authenticated` group every authenticated user is given (Go's
//! `authentication/group.AuthenticatedGroupAdder`).

use std::future::Future;
use std::sync::Arc;

use super::bearer_token::TokenAuthenticator;
use super::user::{ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, Info};
use super::{AuthenticationError, Authenticator, Request};

/// Go's union rule, for requests and for tokens alike: asks each of `members` in order
/// with `ask`; the first user found wins; when none finds one, the refusals (joined by
/// `, `) are the answer, or nothing when none refused.
async fn first_found<'a, T, F, Fut>(
    members: &'a [Arc<T>],
    ask: F,
) -> Result<Option<Info>, AuthenticationError>
where
    T: ?Sized,
    F: Fn(&'a T) -> Fut,
    Fut: Future<Output = Result<Option<Info>, AuthenticationError>>,
{
    let mut refusals = Vec::new();
    for member in members {
        match ask(member).await {
            Ok(Some(user)) => return Ok(Some(user)),
            Ok(None) => {}
            Err(e) => refusals.push(e.0),
        }
    }
    if refusals.is_empty() {
        Ok(None)
    } else {
        Err(AuthenticationError(refusals.join(", ")))
    }
}

/// Asks each authenticator in order; the first user found wins. Credentials one of them
/// refused do not stop the others (Go's union with `FailOnError` false), but when none
/// finds a user the refusals are the answer: the request is not treated as anonymous.
#[derive(Clone, Debug, Default)]
pub struct Union(pub Vec<Arc<dyn Authenticator>>);

#[async_trait::async_trait]
impl Authenticator for Union {
    async fn authenticate(
        &self,
        request: &Request<'_>,
    ) -> Result<Option<Info>, AuthenticationError> {
        first_found(&self.0, |a| a.authenticate(request)).await
    }
}

/// The token authenticators asked in order, as one (Go's `tokenunion.New`), by the
/// rule of [`Union`]: the first to accept a token gives its user; a token none accepts
/// is refused with each refusal (as [`BearerToken`](super::bearer_token::BearerToken)
/// shows them), or is not recognised when none refused it.
#[derive(Clone, Debug, Default)]
pub struct TokenUnion(pub Vec<Arc<dyn TokenAuthenticator>>);

#[async_trait::async_trait]
impl TokenAuthenticator for TokenUnion {
    async fn authenticate_token(&self, token: &str) -> Result<Option<Info>, AuthenticationError> {
        first_found(&self.0, |a| a.authenticate_token(token)).await
    }
}

/// Adds `system:authenticated` to the groups of every user its inner authenticator
/// finds, unless the user already has it or is in `system:unauthenticated`, as Go does
/// after its union of authenticators.
#[derive(Clone, Debug)]
pub struct AuthenticatedGroupAdder(pub Arc<dyn Authenticator>);

#[async_trait::async_trait]
impl Authenticator for AuthenticatedGroupAdder {
    async fn authenticate(
        &self,
        request: &Request<'_>,
    ) -> Result<Option<Info>, AuthenticationError> {
        let Some(mut user) = self.0.authenticate(request).await? else {
            return Ok(None);
        };
        if !user.in_group(ALL_AUTHENTICATED) && !user.in_group(ALL_UNAUTHENTICATED) {
            user.groups.push(ALL_AUTHENTICATED.to_owned());
        }
        Ok(Some(user))
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderMap;

    use super::*;

    #[derive(Debug)]
    struct Fixed(Result<Option<Info>, &'static str>);

    #[async_trait::async_trait]
    impl Authenticator for Fixed {
        async fn authenticate(&self, _: &Request<'_>) -> Result<Option<Info>, AuthenticationError> {
            self.0
                .clone()
                .map_err(|e| AuthenticationError(e.to_owned()))
        }
    }

    fn user(name: &str) -> Info {
        Info {
            name: name.to_owned(),
            ..Info::default()
        }
    }

    async fn ask(authenticator: &dyn Authenticator) -> Result<Option<Info>, AuthenticationError> {
        let headers = HeaderMap::new();
        let request = Request {
            headers: &headers,
            client_certificates: &[],
        };
        authenticator.authenticate(&request).await
    }

    #[tokio::test]
    async fn the_first_user_found_wins_over_earlier_refusals() {
        let union = Union(vec![
            Arc::new(Fixed(Err("bad certificate"))),
            Arc::new(Fixed(Ok(None))),
            Arc::new(Fixed(Ok(Some(user("alice"))))),
            Arc::new(Fixed(Ok(Some(user("bob"))))),
        ]);
        assert_eq!(ask(&union).await.unwrap().unwrap().name, "alice");
    }

    #[tokio::test]
    async fn refusals_with_no_user_are_an_error_and_no_credentials_are_none() {
        let refused = Union(vec![
            Arc::new(Fixed(Err("bad token"))),
            Arc::new(Fixed(Ok(None))),
        ]);
        assert_eq!(ask(&refused).await.unwrap_err().0, "bad token");
        let nothing = Union(vec![Arc::new(Fixed(Ok(None)))]);
        assert!(ask(&nothing).await.unwrap().is_none());
    }

    #[tokio::test]
    async fn authenticated_users_get_the_authenticated_group_once() {
        let adder = AuthenticatedGroupAdder(Arc::new(Fixed(Ok(Some(user("alice"))))));
        assert_eq!(
            ask(&adder).await.unwrap().unwrap().groups,
            [ALL_AUTHENTICATED]
        );
        let mut already = user("bob");
        already.groups = vec![ALL_AUTHENTICATED.to_owned(), "dev".to_owned()];
        let adder = AuthenticatedGroupAdder(Arc::new(Fixed(Ok(Some(already.clone())))));
        assert_eq!(ask(&adder).await.unwrap().unwrap(), already);
        let adder = AuthenticatedGroupAdder(Arc::new(Fixed(Ok(Some(Info::anonymous())))));
        assert_eq!(ask(&adder).await.unwrap().unwrap(), Info::anonymous());
    }
}
