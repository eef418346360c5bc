//! Who is asking (Go's `k8s.io/apiserver/pkg/authentication`): an [`Authenticator`]
//! turns a request's credentials into a [`user::Info`].
//!
//! The server asks its authenticator first thing for every request. Without one
//! ([`Config::authenticator`](crate::server::Config::authenticator) not called) every
//! request is anonymous, which with the default
//! [`AlwaysAllow`](crate::authorization::AlwaysAllow) authorizer is the unsecured
//! server tests and examples start.
//!
//! kube-apiserver's authenticators, in its order, are here to be put in a
//! [`union::Union`] (wrapped in [`union::AuthenticatedGroupAdder`]): client certificates
//! ([`x509::X509Authenticator`]), then bearer tokens ([`bearer_token::BearerToken`]) of
//! the static token file ([`token_file::TokenFile`]) and of service accounts
//! ([`serviceaccount::ServiceAccountTokens`]), their answers cached a while
//! ([`token_cache::TokenCache`]).

pub mod bearer_token;
pub mod insecure;
pub mod serviceaccount;
pub mod token_cache;
pub mod token_file;
pub mod union;
pub mod user;
pub mod x509;

use std::fmt::Debug;

/// The header map of [`Request::headers`] (the `http` crate's).
pub use axum::http::HeaderMap;

/// What an authenticator sees of a request.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The request's headers (`Authorization` among them).
    pub headers: &'a HeaderMap,
    /// The client's certificate chain, leaf first, DER-encoded; empty over plain HTTP or
    /// when the client sent none.
    pub client_certificates: &'a [Vec<u8>],
}

/// The client certificate chain of a request's connection, leaf first, DER-encoded: the
/// TLS listener puts it in each request's extensions, and the server hands it to the
/// authenticator as [`Request::client_certificates`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientCertificates(pub Vec<Vec<u8>>);

/// Why credentials a request carried were refused; the request is answered 401, and the
/// reason stays in the server (Go never tells a client why its token was refused).
#[derive(Clone, Debug, thiserror::Error)]
#[error("{0}")]
pub struct AuthenticationError(pub String);

/// Turns a request's credentials into a user (Go's `authenticator.Request`).
#[async_trait::async_trait]
pub trait Authenticator: Send + Sync + Debug {
    /// `Ok(Some(user))` for credentials it recognises, `Ok(None)` when the request
    /// carries none of the kind it reads (the next authenticator is asked), an error for
    /// credentials of its kind that are not valid (the request is refused).
    async fn authenticate(
        &self,
        request: &Request<'_>,
    ) -> Result<Option<user::Info>, AuthenticationError>;
}

tokio::task_local! {
    static AUDIENCES: std::cell::RefCell<TokenAudiences>;
}

/// The audiences a token is checked for within [`with_audiences`], and those it was
/// found valid for.
#[derive(Debug, Default)]
struct TokenAudiences {
    requested: Vec<String>,
    matched: Option<Vec<String>>,
}

/// Runs `f` with tokens checked for `audiences` instead of the server's own (Go's
/// `authenticator.WithAudiences`, what a `TokenReview`'s `spec.audiences` asks); gives
/// `f`'s output and the audiences an audience-aware authenticator found the token valid
/// for.
pub async fn with_audiences<F: std::future::Future>(
    audiences: Vec<String>,
    f: F,
) -> (F::Output, Option<Vec<String>>) {
    let cell = std::cell::RefCell::new(TokenAudiences {
        requested: audiences,
        matched: None,
    });
    AUDIENCES
        .scope(cell, async {
            let out = f.await;
            let matched = AUDIENCES.with(|a| a.borrow_mut().matched.take());
            (out, matched)
        })
        .await
}

/// The audiences asked for by an enclosing [`with_audiences`], if any.
pub fn requested_audiences() -> Option<Vec<String>> {
    AUDIENCES
        .try_with(|a| a.borrow().requested.clone())
        .ok()
        .filter(|a| !a.is_empty())
}

/// Tells an enclosing [`with_audiences`] which audiences the token was valid for.
pub fn record_matched_audiences(audiences: Vec<String>) {
    let _ = AUDIENCES.try_with(|a| a.borrow_mut().matched = Some(audiences));
}

/// Every request is anonymous; the server's authenticator when none is configured.
#[derive(Clone, Copy, Debug, Default)]
pub struct Anonymous;

#[async_trait::async_trait]
impl Authenticator for Anonymous {
    async fn authenticate(
        &self,
        _request: &Request<'_>,
    ) -> Result<Option<user::Info>, AuthenticationError> {
        Ok(Some(user::Info::anonymous()))
    }
}
