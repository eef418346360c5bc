//! kube-apiserver's cache of token authentications (Go's
//! `k8s.io/apiserver/pkg/authentication/token/cache`, `cached_token_authenticator.go`,
//! around the union of its token authenticators): a token accepted is accepted again
//! without asking for [`SUCCESS_TTL`] (10 s, `--token-success-cache-ttl`'s default), so a
//! service-account token keeps working that long after its Secret, Pod or account is
//! deleted; a refusal is not cached (the failure TTL's default is 0).
//!
//! An answer is kept under an HMAC-SHA256 of the token and the audiences it was checked
//! for, with a key drawn at start: tokens stay out of the server's memory and the same
//! token for other audiences is another entry, as Go keys it.
//!
//! Requests for a key the cache does not hold yet are coalesced, as Go's
//! `singleflight.Group` coalesces them: the first starts one lookup of the delegate and
//! every request for the same key arriving while it runs waits for that lookup and gets
//! its answer, refusals and errors included (only a success is then cached). A burst of
//! requests with a new token (a controller's many clients starting together) costs one
//! token review, not one each. The lookup runs detached from the request that started
//! it, as Go detaches its context: a client that goes away does not fail the others
//! waiting for the same answer, and the answer is still cached. It is bounded by
//! [`SHARED_LOOKUP_TIMEOUT`] (Go's `sharedLookupTimeout`), as Go bounds the detached
//! context.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::FutureExt;
use futures_util::future::{BoxFuture, Shared};
use ring::hmac;

use super::bearer_token::TokenAuthenticator;
use super::user::Info;
use super::{AuthenticationError, record_matched_audiences, with_audiences};

/// How long kube-apiserver keeps a token's successful authentication
/// (`TokenSuccessCacheTTL`'s default).
pub const SUCCESS_TTL: Duration = Duration::from_secs(10);

/// How long a shared lookup may take before its waiters are refused (Go's
/// `sharedLookupTimeout`): the lookup no longer runs under any one request's deadline.
pub const SHARED_LOOKUP_TIMEOUT: Duration = Duration::from_secs(30);

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

/// What one lookup of the delegate answered, shared by every request that waited for it
/// (Go's `cacheRecord`): the answer and the audiences the token was found valid for.
#[derive(Clone, Debug)]
struct Record {
    answer: Result<Option<Info>, AuthenticationError>,
    matched: Option<Vec<String>>,
}

/// A lookup in flight, as its waiters poll it.
type Flight = Shared<BoxFuture<'static, Record>>;

/// The answers of `inner` cached for a while (Go's `cachedTokenAuthenticator` with
/// kube-apiserver's TTLs: successes for [`SUCCESS_TTL`], failures not at all), and the
/// lookups in flight shared.
#[derive(Debug)]
pub struct TokenCache {
    inner: Arc<dyn TokenAuthenticator>,
    ttl: Duration,
    /// The audiences a token is checked for when the request asks for none (the
    /// server's own), so that a review asking for them explicitly shares the entry.
    default_audiences: Vec<String>,
    /// `None` when no key could be drawn: nothing is cached then.
    key: Option<hmac::Key>,
    /// [`SHARED_LOOKUP_TIMEOUT`]; shorter in tests.
    lookup_timeout: Duration,
    /// Shared with the detached lookups, which outlive the request that started them.
    state: Arc<State>,
}

/// The cached answers and the lookups in flight, each behind a lock of its own held for
/// a map operation only, never across an await.
#[derive(Default)]
struct State {
    entries: Mutex<Entries>,
    flights: Mutex<Flights>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The entries' users are not worth printing, the flights cannot be.
        f.debug_struct("State").finish_non_exhaustive()
    }
}

#[derive(Debug, Default)]
struct Entries {
    map: HashMap<Vec<u8>, Entry>,
    sweep_at: usize,
}

/// The lookups in flight by key, each with a number of its own, so that a lookup ending
/// removes its own entry and never a later lookup's for the same key.
#[derive(Default)]
struct Flights {
    map: HashMap<Vec<u8>, (u64, Flight)>,
    next: u64,
}

impl State {
    fn entries(&self) -> std::sync::MutexGuard<'_, Entries> {
        // The map holds no invariant a panic elsewhere could break.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn flights(&self) -> std::sync::MutexGuard<'_, Flights> {
        // As for the entries: each update is one map operation.
        self.flights.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The unexpired entry of `key`.
    fn cached(&self, key: &[u8]) -> Option<Entry> {
        let now = Instant::now();
        self.entries()
            .map
            .get(key)
            .filter(|e| e.expires > now)
            .cloned()
    }

    /// Keeps `user`'s acceptance under `key` for `ttl`.
    fn keep(&self, key: Vec<u8>, user: Info, audiences: Option<Vec<String>>, ttl: Duration) {
        let entry = Entry {
            user,
            audiences,
            expires: Instant::now() + ttl,
        };
        let mut entries = self.entries();
        if entries.map.len() >= entries.sweep_at {
            let now = Instant::now();
            entries.map.retain(|_, e| e.expires > now);
            entries.sweep_at = SWEEP_AT.max(entries.map.len() * 2);
        }
        entries.map.insert(key, entry);
    }
}

/// Removes a lookup's entry from the flights when the lookup ends, however it ends (an
/// answer, a panic of the delegate, the runtime shutting down), so that the next request
/// for the key starts a lookup of its own instead of waiting for one that is gone.
struct Landing {
    state: Arc<State>,
    key: Vec<u8>,
    id: u64,
}

impl Drop for Landing {
    fn drop(&mut self) {
        let mut flights = self.state.flights();
        if flights
            .map
            .get(&self.key)
            .is_some_and(|(id, _)| *id == self.id)
        {
            flights.map.remove(&self.key);
        }
    }
}

/// One lookup of the delegate for the requests waiting on `key` (the body of Go's
/// `group.DoChan` call): the cache again first (a lookup that just ended may have filled
/// it), else `inner` asked for the `requested` audiences within `timeout`
/// ([`SHARED_LOOKUP_TIMEOUT`]), a success kept for `ttl`.
async fn look_up(
    inner: Arc<dyn TokenAuthenticator>,
    landing: Landing,
    token: String,
    requested: Vec<String>,
    ttl: Duration,
    timeout: Duration,
) -> Record {
    if let Some(entry) = landing.state.cached(&landing.key) {
        return Record {
            answer: Ok(Some(entry.user)),
            matched: entry.audiences,
        };
    }
    // Asked in a scope of its own, so that the audiences the token is valid for are
    // known (and kept) even when no review asks for them.
    let lookup = tokio::time::timeout(timeout, inner.authenticate_token(&token));
    let (answer, matched) = with_audiences(requested, lookup).await;
    let answer =
        answer.unwrap_or_else(|_| Err(AuthenticationError("context deadline exceeded".to_owned())));
    if let Ok(Some(user)) = &answer
        && !ttl.is_zero()
    {
        landing
            .state
            .keep(landing.key.clone(), user.clone(), matched.clone(), ttl);
    }
    // The flight is landed (its entry removed) before its waiters are woken, as Go's
    // group forgets a call before returning its result: a request arriving after that
    // finds the answer cached, or starts a lookup of its own.
    drop(landing);
    Record { answer, matched }
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
        let state = State::default();
        state.entries().sweep_at = SWEEP_AT;
        TokenCache {
            inner,
            ttl,
            default_audiences,
            key,
            lookup_timeout: SHARED_LOOKUP_TIMEOUT,
            state: Arc::new(state),
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

    /// The lookup in flight for `key`, or a new one started for `token`.
    fn flight(&self, key: Vec<u8>, token: &str) -> Flight {
        let mut flights = self.state.flights();
        if let Some((_, flight)) = flights.map.get(&key) {
            return flight.clone();
        }
        flights.next += 1;
        let id = flights.next;
        let landing = Landing {
            state: self.state.clone(),
            key: key.clone(),
            id,
        };
        let lookup = look_up(
            self.inner.clone(),
            landing,
            token.to_owned(),
            super::requested_audiences().unwrap_or_default(),
            self.ttl,
            self.lookup_timeout,
        );
        // Spawned, so that it runs to its end whoever waits for it (Go's detached
        // context); the lock is held until its entry is in, so that it cannot land
        // first. Outside a runtime (never in the server) it runs in its waiters instead.
        let flight = match tokio::runtime::Handle::try_current() {
            Ok(runtime) => runtime
                .spawn(lookup)
                .map(|joined| {
                    // A delegate that panicked: Go's `errAuthnCrash`.
                    joined.unwrap_or_else(|_| Record {
                        answer: Err(AuthenticationError(
                            "authentication failed unexpectedly".to_owned(),
                        )),
                        matched: None,
                    })
                })
                .boxed()
                .shared(),
            Err(_) => lookup.boxed().shared(),
        };
        flights.map.insert(key, (id, flight.clone()));
        flight
    }
}

#[async_trait::async_trait]
impl TokenAuthenticator for TokenCache {
    async fn authenticate_token(&self, token: &str) -> Result<Option<Info>, AuthenticationError> {
        let Some(key) = self.key_of(token) else {
            return self.inner.authenticate_token(token).await;
        };
        if let Some(entry) = self.state.cached(&key) {
            if let Some(audiences) = entry.audiences {
                record_matched_audiences(audiences);
            }
            return Ok(Some(entry.user));
        }
        let record = self.flight(key, token).await;
        if let Some(audiences) = record.matched {
            record_matched_audiences(audiences);
        }
        record.answer
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

    /// Answers once let through, each time it is asked: accepts while `valid`, counting
    /// the times it is asked and telling when a lookup has started.
    #[derive(Debug)]
    struct Gated {
        asked: AtomicUsize,
        valid: std::sync::atomic::AtomicBool,
        started: tokio::sync::Notify,
        gate: tokio::sync::Semaphore,
    }

    /// A gated delegate, accepting when `valid`, its gate closed.
    fn gated(valid: bool) -> Arc<Gated> {
        Arc::new(Gated {
            asked: AtomicUsize::new(0),
            valid: std::sync::atomic::AtomicBool::new(valid),
            started: tokio::sync::Notify::new(),
            gate: tokio::sync::Semaphore::new(0),
        })
    }

    #[async_trait::async_trait]
    impl TokenAuthenticator for Gated {
        async fn authenticate_token(
            &self,
            token: &str,
        ) -> Result<Option<Info>, AuthenticationError> {
            self.asked.fetch_add(1, Ordering::SeqCst);
            self.started.notify_one();
            if let Ok(permit) = self.gate.acquire().await {
                permit.forget();
            }
            if !self.valid.load(Ordering::SeqCst) {
                return Err(AuthenticationError("refused".into()));
            }
            record_matched_audiences(vec!["api".into()]);
            Ok(Some(Info {
                name: token.to_owned(),
                ..Info::default()
            }))
        }
    }

    /// `n` requests for `token` at once, the delegate let through (as many times as
    /// there are requests) once they all wait.
    async fn at_once(
        cache: &TokenCache,
        gated: &Gated,
        token: &str,
        n: usize,
    ) -> Vec<Result<Option<Info>, AuthenticationError>> {
        let callers = (0..n).map(|_| cache.authenticate_token(token));
        let release = async {
            gated.started.notified().await;
            gated.gate.add_permits(n);
        };
        let both = futures_util::future::join(futures_util::future::join_all(callers), release);
        tokio::time::timeout(Duration::from_secs(10), both)
            .await
            .unwrap()
            .0
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_first_requests_share_one_lookup() {
        let gated = gated(true);
        let cache = TokenCache::new(gated.clone(), SUCCESS_TTL, vec![]);
        let answers = at_once(&cache, &gated, "t", 16).await;
        assert_eq!(gated.asked.load(Ordering::SeqCst), 1);
        for answer in answers {
            assert_eq!(answer.unwrap().unwrap().name, "t");
        }
        // The shared success is cached; the audiences reach every waiter.
        let (user, audiences) = with_audiences(vec![], cache.authenticate_token("t")).await;
        assert_eq!(user.unwrap().unwrap().name, "t");
        assert_eq!(audiences, Some(vec!["api".to_owned()]));
        assert_eq!(gated.asked.load(Ordering::SeqCst), 1);
        // Another key (other audiences) is a lookup of its own.
        let other = with_audiences(vec!["other".into()], at_once(&cache, &gated, "t", 4));
        assert!(other.await.0.into_iter().all(|a| a.is_ok()));
        assert_eq!(gated.asked.load(Ordering::SeqCst), 2);
        assert!(cache.state.flights().map.is_empty());
    }

    #[tokio::test]
    async fn a_shared_refusal_reaches_every_waiter_and_is_not_cached() {
        let gated = gated(false);
        let cache = TokenCache::new(gated.clone(), SUCCESS_TTL, vec![]);
        let answers = at_once(&cache, &gated, "t", 8).await;
        assert_eq!(gated.asked.load(Ordering::SeqCst), 1);
        for answer in answers {
            assert_eq!(answer.unwrap_err().0, "refused");
        }
        // Not cached: the next request asks again (the gate still open), and is
        // accepted now.
        gated.valid.store(true, Ordering::SeqCst);
        assert!(cache.authenticate_token("t").await.unwrap().is_some());
        assert_eq!(gated.asked.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_cancelled_first_request_does_not_fail_the_others() {
        let gated = gated(true);
        let cache = Arc::new(TokenCache::new(gated.clone(), SUCCESS_TTL, vec![]));
        let first = tokio::spawn({
            let cache = cache.clone();
            async move { cache.authenticate_token("t").await }
        });
        gated.started.notified().await;
        let second = tokio::spawn({
            let cache = cache.clone();
            async move { cache.authenticate_token("t").await }
        });
        // The second request joins the flight (the map's, the first's and its own
        // handle on it), then the first goes away.
        let waiters = || {
            let flights = cache.state.flights();
            flights
                .map
                .values()
                .next()
                .and_then(|(_, f)| f.strong_count())
        };
        for _ in 0..1000 {
            if waiters() == Some(3) {
                break;
            }
            tokio::task::yield_now().await;
        }
        assert_eq!(waiters(), Some(3));
        first.abort();
        assert!(first.await.unwrap_err().is_cancelled());
        gated.gate.add_permits(1);
        assert_eq!(second.await.unwrap().unwrap().unwrap().name, "t");
        assert_eq!(gated.asked.load(Ordering::SeqCst), 1);
        // The lookup still cached its answer.
        assert!(cache.state.cached(&cache.key_of("t").unwrap()).is_some());
    }

    #[tokio::test]
    async fn a_lookup_past_the_shared_timeout_is_refused() {
        let gated = gated(true);
        let mut cache = TokenCache::new(gated.clone(), SUCCESS_TTL, vec![]);
        cache.lookup_timeout = Duration::from_millis(20);
        let answer = cache.authenticate_token("t").await;
        assert_eq!(answer.unwrap_err().0, "context deadline exceeded");
        assert!(cache.state.flights().map.is_empty());
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
