//! Liveness and readiness checks (Go's `pkg/healthz`), served by the manager on its
//! health probe address: `/healthz` and `/readyz` answer for all their checks at once,
//! `/healthz/NAME` for one, in the plain-text format kubelet's probes and people read.
//!
//! ```
//! use std::sync::Arc;
//! use std::sync::atomic::{AtomicBool, Ordering};
//! use controller_runtime::healthz::{self, Handler};
//!
//! let ready = Arc::new(AtomicBool::new(false));
//! let mut readyz = Handler::new();
//! readyz.add("ping", healthz::ping());
//! readyz.add("synced", {
//!     let ready = Arc::clone(&ready);
//!     Arc::new(move || if ready.load(Ordering::Relaxed) { Ok(()) } else { Err("not yet".into()) })
//! });
//! let answer = readyz.answer("/", "");
//! assert_eq!(answer.status, 500);
//! assert_eq!(answer.body, "[+]ping ok\n[-]synced failed: reason withheld\nhealthz check failed\n");
//! ready.store(true, Ordering::Relaxed);
//! assert_eq!((readyz.answer("", "").status, readyz.answer("", "").body.as_str()), (200, "ok"));
//! assert_eq!(readyz.answer("/synced", "").body, "ok");
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::{Request, Response};

/// One check: `Ok` when healthy, `Err` with the reason otherwise (Go's `Checker`). The
/// reason is shown only by the check's own endpoint, never by the aggregated one, which
/// anyone who can reach the port may read.
pub type Checker = Arc<dyn Fn() -> Result<(), String> + Send + Sync>;

/// The check that always passes (Go's `healthz.Ping`): the process answers, so it lives.
pub fn ping() -> Checker {
    Arc::new(|| Ok(()))
}

/// What an endpoint answers: the HTTP status and the plain-text body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// 200 when healthy, 500 when a check failed, 404 for an unknown check.
    pub status: u16,
    /// The text of the answer.
    pub body: String,
}

/// The checks of one endpoint (Go's `healthz.Handler`), by name.
#[derive(Clone, Default)]
pub struct Handler {
    checks: BTreeMap<String, Checker>,
}

impl std::fmt::Debug for Handler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handler")
            .field("checks", &self.checks.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl Handler {
    /// An endpoint without checks; it answers as if it had only `ping`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the check `name`; a later check of the same name replaces it.
    pub fn add(&mut self, name: impl Into<String>, check: Checker) {
        self.checks.insert(name.into(), check);
    }

    /// The answer to a request for `path` below the endpoint (`""` or `"/"`: every
    /// check; `"/NAME"`: that check alone) with the URL query `query` (`verbose` lists
    /// every check on success too; each `exclude=NAME` skips one check).
    pub fn answer(&self, path: &str, query: &str) -> Answer {
        let name = path.trim_matches('/');
        if name.is_empty() {
            return self.aggregated(query);
        }
        let check = match self.checks.get(name) {
            Some(check) => Arc::clone(check),
            None if self.checks.is_empty() && name == "ping" => ping(),
            None => {
                return Answer {
                    status: 404,
                    body: "404 page not found\n".into(),
                };
            }
        };
        match check() {
            Ok(()) => Answer {
                status: 200,
                body: "ok".into(),
            },
            Err(why) => Answer {
                status: 500,
                body: format!("internal server error: {why}\n"),
            },
        }
    }

    fn aggregated(&self, query: &str) -> Answer {
        // An unreadable query asks for nothing special.
        let params: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap_or_default();
        let verbose = params.iter().any(|(k, _)| k == "verbose");
        let mut excluded: BTreeSet<&str> = params
            .iter()
            .filter(|(k, _)| k == "exclude")
            .map(|(_, v)| v.as_str())
            .collect();
        let mut failed = false;
        let mut lines = String::new();
        for (name, check) in &self.checks {
            if excluded.remove(name.as_str()) {
                let _ = writeln!(lines, "[+]{name} excluded: ok");
            } else if check().is_ok() {
                let _ = writeln!(lines, "[+]{name} ok");
            } else {
                failed = true;
                let _ = writeln!(lines, "[-]{name} failed: reason withheld");
            }
        }
        if self.checks.is_empty() {
            lines.push_str("[+]ping ok\n");
        }
        let status = if failed { 500 } else { 200 };
        if !failed && !verbose {
            return Answer {
                status,
                body: "ok".into(),
            };
        }
        if !excluded.is_empty() {
            let names: Vec<String> = excluded.iter().map(|n| format!("{n:?}")).collect();
            let _ = writeln!(
                lines,
                "warn: some health checks cannot be excluded: no matches for {}",
                names.join(",")
            );
        }
        lines.push_str(if failed {
            "healthz check failed\n"
        } else {
            "healthz check passed\n"
        });
        Answer {
            status,
            body: lines,
        }
    }
}

/// The manager's probe server: the liveness and readiness endpoints on one listener.
pub(crate) struct ProbeServer {
    /// The liveness endpoint's path (`/healthz`) and checks.
    pub(crate) liveness: (String, Handler),
    /// The readiness endpoint's path (`/readyz`) and checks.
    pub(crate) readiness: (String, Handler),
}

impl ProbeServer {
    /// The answer to one request: a liveness or readiness endpoint, or 404.
    pub(crate) fn answer(&self, req: &Request<Incoming>) -> Response<Full<Bytes>> {
        let path = req.uri().path();
        let query = req.uri().query().unwrap_or_default();
        let under = |endpoint: &str| {
            let rest = path.strip_prefix(endpoint.trim_end_matches('/'))?;
            (rest.is_empty() || rest.starts_with('/')).then_some(rest)
        };
        let answer = if let Some(rest) = under(&self.liveness.0) {
            self.liveness.1.answer(rest, query)
        } else if let Some(rest) = under(&self.readiness.0) {
            self.readiness.1.answer(rest, query)
        } else {
            Answer {
                status: 404,
                body: "404 page not found\n".into(),
            }
        };
        crate::http_server::text(answer.status, "text/plain; charset=utf-8", answer.body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failing(why: &str) -> Checker {
        let why = why.to_owned();
        Arc::new(move || Err(why.clone()))
    }

    #[test]
    fn no_checks_answers_as_ping() {
        let h = Handler::new();
        assert_eq!(
            h.answer("/", ""),
            Answer {
                status: 200,
                body: "ok".into()
            }
        );
        assert_eq!(
            h.answer("", "verbose").body,
            "[+]ping ok\nhealthz check passed\n"
        );
        assert_eq!(h.answer("/ping", "").body, "ok");
        assert_eq!(h.answer("/other", "").status, 404);
    }

    #[test]
    fn aggregated_answers_in_gos_text() {
        let mut h = Handler::new();
        h.add("b-log", ping());
        h.add("a-cache", failing("informers not synced"));
        // Sorted by name, always verbose on failure, the reason withheld.
        let a = h.answer("/", "");
        assert_eq!(a.status, 500);
        assert_eq!(
            a.body,
            "[-]a-cache failed: reason withheld\n[+]b-log ok\nhealthz check failed\n"
        );
        // Excluding the failing check passes; an unknown exclude is warned about.
        let a = h.answer("/", "exclude=a-cache&exclude=nope");
        assert_eq!(a.status, 200);
        assert_eq!(a.body, "ok");
        let a = h.answer("/", "verbose&exclude=a-cache&exclude=nope&exclude=zz");
        assert_eq!(
            a.body,
            "[+]a-cache excluded: ok\n[+]b-log ok\n\
             warn: some health checks cannot be excluded: no matches for \"nope\",\"zz\"\n\
             healthz check passed\n"
        );
    }

    #[test]
    fn one_check_shows_its_reason() {
        let mut h = Handler::new();
        h.add("cache", failing("informers not synced"));
        h.add("log", ping());
        assert_eq!(
            h.answer("/cache", ""),
            Answer {
                status: 500,
                body: "internal server error: informers not synced\n".into()
            }
        );
        assert_eq!(h.answer("/log/", "").body, "ok");
        // `ping` is only implied when there is no check at all.
        assert_eq!(h.answer("/ping", "").status, 404);
    }
}
