//! kube-apiserver's cache of token authentications (Go's
//! `k8s.io/apiserver/pkg/authentication/token/cache`, around the union of its token
//! authenticators): a token accepted is accepted again without asking for
//! [`SUCCESS_TTL`] (10 s, `--token-success-cache-ttl`'s default), so a service-account
//! token keeps working that long after its Secret, Pod or account is deleted; a refusal
//! is not cached (the failure TTL's default is 0).
//!
//! An answer is kept under an HMAC-SHA256 of the token and the audiences it was checked
//! for, with a key drawn at start: tokens stay out of the server's memory and the same
//! token for other audiences is another entry, as Go keys it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ring::hmac;

use super::bearer_token::TokenAuthenticator;
use super::user::Info;
use super::{AuthenticationError, record_matched_audiences, with_audiences};

/// How long kube-apiserver keeps a token's successful authentication
/// (`TokenSuccessCacheTTL`'s default).
pub const SUCCESS_TTL: Duration = Duration::from_secs(10);

/// Entries are swept of the expired ones when the map reaches this many, and then at
/// twice what remains, so a burst of distinct tokens does not grow it without end.
const SWEEP_AT: usize = 1024;

/// A token's accepted answer: the user and the audiences it was valid for.
#[derive(Clone, Debug)]
struct Entry {
    user: Info,
    audiences: Option<Vec<String>>,
    expires: Instant,
}

/// The answers of `inner` cached for a while (Go's `cachedTokenAuthenticator` with
/// kube-apiserver's TTLs: successes for [`SUCCESS_TTL`], failures not at all).
#[derive(Debug)]
pub struct TokenCache {
    inner: Arc<dyn TokenAuthenticator>,
    ttl: Duration,
    /// The audiences a token is checked for when the request asks for none (the
    /// server's own), so that a review asking for them explicitly shares the entry.
    default_audiences: Vec<String>,
    /// `None` when no key could be drawn: nothing is cached then.
    key: Option<hmac::Key>,
    entries: Mutex<Entries>,
}

#[derive(Debug, Default)]
struct Entries {
    map: HashMap<Vec<u8>, Entry>,
    sweep_at: usize,
}

impl TokenCache {
    /// Caches what `inner` accepts for `ttl`; tokens checked for no particular audience
    /// are checked for `default_audiences` (the server's `--api-audiences`).
    pub fn new(
        inner: Arc<dyn TokenAuthenticator>,
        ttl: Duration,
        default_audiences: Vec<String>,
    ) -> TokenCache {
        let key = hmac::Key::generate(hmac::HMAC_SHA256, &ring::rand::SystemRandom::new()).ok();
        TokenCache {
            inner,
            ttl,
            default_audiences,
            key,
            entries: Mutex::new(Entries {
                map: HashMap::new(),
                sweep_at: SWEEP_AT,
            }),
        }
    }

    /// Go's `keyFunc`: the HMAC of the token and the audiences, each length-prefixed so
    /// that no two lists of strings hash alike.
    fn key_of(&self, token: &str) -> Option<Vec<u8>> {
        let key = self.key.as_ref()?;
        let audiences =
            super::requested_audiences().unwrap_or_else(|| self.default_audiences.clone());
        let mut context = hmac::Context::with_key(key);
        let length = |n: usize| u32::try_from(n).unwrap_or(u32::MAX).to_be_bytes();
        context.update(&length(token.len()));
        context.update(token.as_bytes());
        context.update(&length(audiences.len()));
        for audience in &audiences {
            context.update(&length(audience.len()));
            context.update(audience.as_bytes());
        }
        Some(context.sign().as_ref().to_vec())
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, Entries> {
        // The map holds no invariant a panic elsewhere could break.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[async_trait::async_trait]
impl TokenAuthenticator for TokenCache {
    async fn authenticate_token(&self, token: &str) -> Result<Option<Info>, AuthenticationError> {
        let Some(key) = self.key_of(token) else {
            return self.inner.authenticate_token(token).await;
        };
        let now = Instant::now();
        let cached = self
            .entries()
            .map
            .get(&key)
            .filter(|e| e.expires > now)
            .cloned();
        if let Some(entry) = cached {
            if let Some(audiences) = entry.audiences {
                record_matched_audiences(audiences);
            }
            return Ok(Some(entry.user));
        }
        // Asked in a scope of its own, so that the audiences the token is valid for are
        // known (and kept) even when no review asks for them.
        let requested = super::requested_audiences().unwrap_or_default();
        let (answer, matched) =
            with_audiences(requested, self.inner.authenticate_token(token)).await;
        if let Some(audiences) = &matched {
            record_matched_audiences(audiences.clone());
        }
        if let Ok(Some(user)) = &answer
            && !self.ttl.is_zero()
        {
            let entry = Entry {
                user: user.clone(),
                audiences: matched,
                expires: Instant::now() + self.ttl,
            };
            let mut entries = self.entries();
            if entries.map.len() >= entries.sweep_at {
                let now = Instant::now();
                entries.map.retain(|_, e| e.expires > now);
                entries.sweep_at = SWEEP_AT.max(entries.map.len() * 2);
            }
            entries.map.insert(key, entry);
        }
        answer
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::authentication::union::TokenUnion;

    /// Accepts `token` while `valid`, counting the times it is asked.
    #[derive(Debug, Default)]
    struct Counting {
        asked: AtomicUsize,
        valid: std::sync::atomic::AtomicBool,
    }

    #[async_trait::async_trait]
    impl TokenAuthenticator for Counting {
        async fn authenticate_token(
            &self,
            token: &str,
        ) -> Result<Option<Info>, AuthenticationError> {
            self.asked.fetch_add(1, Ordering::SeqCst);
            if !self.valid.load(Ordering::SeqCst) {
                return Err(AuthenticationError("gone".into()));
            }
            record_matched_audiences(vec!["api".into()]);
            Ok(Some(Info {
                name: token.to_owned(),
                ..Info::default()
            }))
        }
    }

    #[tokio::test]
    async fn a_success_is_kept_for_its_ttl_and_a_failure_not_at_all() {
        let inner = Arc::new(Counting::default());
        let cache = TokenCache::new(inner.clone(), Duration::from_millis(200), vec![]);
        assert!(cache.authenticate_token("t").await.is_err());
        assert!(cache.authenticate_token("t").await.is_err());
        assert_eq!(inner.asked.load(Ordering::SeqCst), 2);
        inner.valid.store(true, Ordering::SeqCst);
        assert!(cache.authenticate_token("t").await.unwrap().is_some());
        // Refused now, accepted from the cache until the entry expires.
        inner.valid.store(false, Ordering::SeqCst);
        let (user, audiences) = with_audiences(vec![], cache.authenticate_token("t")).await;
        assert_eq!(user.unwrap().unwrap().name, "t");
        assert_eq!(audiences, Some(vec!["api".to_owned()]));
        assert_eq!(inner.asked.load(Ordering::SeqCst), 3);
        tokio::time::sleep(Duration::from_millis(250)).await;
        assert!(cache.authenticate_token("t").await.is_err());
        assert_eq!(inner.asked.load(Ordering::SeqCst), 4);
    }

    #[tokio::test]
    async fn other_audiences_are_another_entry_and_the_default_ones_the_same() {
        let inner = Arc::new(Counting::default());
        inner.valid.store(true, Ordering::SeqCst);
        let cache = TokenCache::new(inner.clone(), SUCCESS_TTL, vec!["api".into()]);
        cache.authenticate_token("t").await.unwrap();
        let (_, _) = with_audiences(vec!["api".into()], cache.authenticate_token("t")).await;
        assert_eq!(inner.asked.load(Ordering::SeqCst), 1);
        let (_, _) = with_audiences(vec!["other".into()], cache.authenticate_token("t")).await;
        assert_eq!(inner.asked.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_union_gives_the_first_user_or_every_refusal() {
        let refusing = Arc::new(Counting::default());
        let accepting = Arc::new(Counting::default());
        accepting.valid.store(true, Ordering::SeqCst);
        let union = TokenUnion(vec![refusing.clone(), accepting]);
        assert_eq!(
            union.authenticate_token("t").await.unwrap().unwrap().name,
            "t"
        );
        let none = TokenUnion(vec![refusing.clone(), refusing]);
        assert_eq!(
            none.authenticate_token("t").await.unwrap_err().0,
            "gone, gone"
        );
        assert!(
            TokenUnion(vec![])
                .authenticate_token("t")
                .await
                .unwrap()
                .is_none()
        );
    }
}
