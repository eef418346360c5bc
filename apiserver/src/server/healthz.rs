//! Health checks (Go's `server/healthz` and the checks kube-apiserver installs):
//! `/healthz`, `/livez` and `/readyz`, each the list of its named checks, every check
//! also at its own path (`/readyz/etcd`).
//!
//! | check | in | fails when |
//! | --- | --- | --- |
//! | `ping` | all | never |
//! | `log` | all | never (logging cannot block here) |
//! | `etcd` | all | the storage does not answer within 2 s (named as kube-apiserver names it, whatever the backend) |
//! | `etcd-readiness` | `/readyz` | the same |
//! | `shutdown` | `/readyz` | the server has been told to stop: readiness fails while it drains |
//!
//! As Go answers them: `ok`, or with `?verbose` every check's line (`[+]ping ok`) and
//! `readyz check passed`; a failing check makes the whole answer 500 with every line
//! (`[-]etcd failed: reason withheld`, the reason going to the server's log) and
//! `readyz check failed`; `?exclude=NAME` leaves a check out.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::Response;
use tokio::sync::watch;

use crate::endpoints::responsewriters::{http_error, json_response};
use crate::storage::Storage;

/// How long the storage has to answer its health check (Go's
/// `DefaultHealthcheckTimeout`).
const STORAGE_CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// The three health endpoints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Endpoint {
    Healthz,
    Livez,
    Readyz,
}

impl Endpoint {
    fn name(self) -> &'static str {
        match self {
            Endpoint::Healthz => "healthz",
            Endpoint::Livez => "livez",
            Endpoint::Readyz => "readyz",
        }
    }

    /// Its checks, in Go's order.
    fn checks(self) -> &'static [&'static str] {
        match self {
            Endpoint::Healthz | Endpoint::Livez => &["ping", "log", "etcd"],
            Endpoint::Readyz => &["ping", "log", "etcd", "etcd-readiness", "shutdown"],
        }
    }
}

/// The checks of one server.
#[derive(Clone, Debug)]
pub(crate) struct HealthChecks {
    storage: Arc<dyn Storage>,
    /// True once the server has been told to stop (and drains).
    shutdown_initiated: watch::Receiver<bool>,
}

impl HealthChecks {
    /// The checks of a server over `storage`, which stops once `shutdown_initiated` is
    /// true.
    pub(crate) fn new(
        storage: Arc<dyn Storage>,
        shutdown_initiated: watch::Receiver<bool>,
    ) -> Self {
        HealthChecks {
            storage,
            shutdown_initiated,
        }
    }

    /// Runs check `name`.
    async fn check(&self, name: &str) -> Result<(), String> {
        match name {
            "etcd" | "etcd-readiness" => {
                match tokio::time::timeout(STORAGE_CHECK_TIMEOUT, self.storage.current_revision())
                    .await
                {
                    Ok(Ok(_)) => Ok(()),
                    Ok(Err(e)) => Err(e.to_string()),
                    Err(_) => Err(format!(
                        "the storage did not answer within {STORAGE_CHECK_TIMEOUT:?}"
                    )),
                }
            }
            "shutdown" if *self.shutdown_initiated.borrow() => {
                Err("process is shutting down".to_owned())
            }
            _ => Ok(()),
        }
    }

    /// The answer to `path` with `query` (its raw query string), when it is a health
    /// endpoint or one of its checks.
    pub(crate) async fn serve(&self, path: &str, query: Option<&str>) -> Option<Response<Body>> {
        let trimmed = path.trim_end_matches('/');
        let mut parts = trimmed.trim_start_matches('/').splitn(2, '/');
        let endpoint = match parts.next()? {
            "healthz" => Endpoint::Healthz,
            "livez" => Endpoint::Livez,
            "readyz" => Endpoint::Readyz,
            _ => return None,
        };
        match parts.next() {
            None => Some(self.serve_root(endpoint, query).await),
            Some(name) if endpoint.checks().contains(&name) => Some(match self.check(name).await {
                Ok(()) => ok_response(b"ok".to_vec()),
                Err(why) => http_error(500, &format!("internal server error: {why}")),
            }),
            Some(_) => None,
        }
    }

    /// Go's `handleRootHealth`.
    async fn serve_root(&self, endpoint: Endpoint, query: Option<&str>) -> Response<Body> {
        let params: Vec<(String, String)> = query
            .map(|q| serde_urlencoded::from_str(q).unwrap_or_default())
            .unwrap_or_default();
        let mut excluded: Vec<&str> = params
            .iter()
            .filter(|(k, _)| k == "exclude")
            .map(|(_, v)| v.as_str())
            .collect();
        let verbose = params.iter().any(|(k, _)| k == "verbose");
        let mut lines = String::new();
        let mut failed = Vec::new();
        for name in endpoint.checks() {
            if excluded.contains(name) {
                excluded.retain(|e| e != name);
                lines.push_str(&format!("[+]{name} excluded: ok\n"));
                continue;
            }
            match self.check(name).await {
                Ok(()) => lines.push_str(&format!("[+]{name} ok\n")),
                Err(why) => {
                    // Public endpoints: the reason goes to the log only.
                    lines.push_str(&format!("[-]{name} failed: reason withheld\n"));
                    tracing::warn!(check = name, endpoint = endpoint.name(), reason = %why, "health check failed");
                    failed.push(*name);
                }
            }
        }
        if !excluded.is_empty() {
            let quoted: Vec<String> = excluded.iter().map(|e| format!("{e:?}")).collect();
            lines.push_str(&format!(
                "warn: some health checks cannot be excluded: no matches for {}\n",
                quoted.join(", ")
            ));
        }
        if !failed.is_empty() {
            return http_error(500, &format!("{lines}{} check failed", endpoint.name()));
        }
        if !verbose {
            return ok_response(b"ok".to_vec());
        }
        lines.push_str(&format!("{} check passed\n", endpoint.name()));
        ok_response(lines.into_bytes())
    }
}

/// A 200 plain-text answer, with Go's `nosniff`.
fn ok_response(body: Vec<u8>) -> Response<Body> {
    let mut resp = json_response(200, "text/plain; charset=utf-8", body);
    resp.headers_mut().insert(
        axum::http::header::X_CONTENT_TYPE_OPTIONS,
        axum::http::HeaderValue::from_static("nosniff"),
    );
    resp
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::storage::MemoryStorage;

    async fn text(resp: Response<Body>) -> (u16, String) {
        let status = resp.status().as_u16();
        let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, String::from_utf8(bytes.to_vec()).unwrap())
    }

    #[tokio::test]
    async fn checks_are_listed_excluded_and_failed_as_go_lists_them() {
        let (stop, stopped) = watch::channel(false);
        let checks = HealthChecks::new(Arc::new(MemoryStorage::new()), stopped);
        assert_eq!(
            text(checks.serve("/readyz", None).await.unwrap()).await,
            (200, "ok".to_owned())
        );
        assert_eq!(
            text(checks.serve("/livez", Some("verbose")).await.unwrap()).await,
            (
                200,
                "[+]ping ok\n[+]log ok\n[+]etcd ok\nlivez check passed\n".to_owned()
            )
        );
        assert_eq!(
            text(checks.serve("/readyz/etcd", None).await.unwrap()).await,
            (200, "ok".to_owned())
        );
        assert!(checks.serve("/readyz/nothing", None).await.is_none());
        assert!(checks.serve("/version", None).await.is_none());
        stop.send(true).unwrap();
        let (code, body) = text(checks.serve("/readyz", None).await.unwrap()).await;
        assert_eq!(code, 500);
        assert_eq!(
            body,
            "[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-readiness ok\n[-]shutdown failed: reason withheld\nreadyz check failed\n"
        );
        // Liveness does not care, and an excluded check is passed over.
        assert_eq!(
            text(checks.serve("/livez", None).await.unwrap()).await.0,
            200
        );
        let (code, body) = text(
            checks
                .serve("/readyz", Some("verbose&exclude=shutdown&exclude=nope"))
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(code, 200);
        assert!(body.contains("[+]shutdown excluded: ok\n"), "{body}");
        assert!(
            body.contains("warn: some health checks cannot be excluded: no matches for \"nope\"\n"),
            "{body}"
        );
        let (code, body) = text(checks.serve("/readyz/shutdown", None).await.unwrap()).await;
        assert_eq!(
            (code, body.as_str()),
            (500, "internal server error: process is shutting down\n")
        );
    }
}
