//! Pretty printing of JSON answers, as Go's output negotiation does it
//! (`negotiation.NegotiateOutputMediaType` picks the JSON serializer's pretty form): when
//! the `Accept` media type says `pretty=1`, or Go's `isPrettyPrint` says so (the query's
//! `pretty` as `strconv.ParseBool` reads it, else a `User-Agent` of curl, Wget or a
//! browser). The answer's JSON is then indented as `json.MarshalIndent` writes it, for
//! every negotiated answer: objects, lists, tables, discovery and the errors of the
//! filters after this one. An error for a request whose `Accept` Go's error writer cannot
//! negotiate (a table, HTML) is indented too: Go writes those with `WriteRawJSON`.
//! Watches stream as they are, and the OpenAPI documents, which Go serves outside
//! negotiation, keep their bytes.

use axum::body::Body;
use axum::http::header::{ACCEPT, CONTENT_LENGTH, CONTENT_TYPE, USER_AGENT};
use axum::http::{Request, Response};

use super::{Answer, Filter, Handle, Next};

/// The filter.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WithPrettyPrint;

impl Filter for WithPrettyPrint {
    fn filter<S>(&self, req: Request<Body>, next: Next<S>) -> Answer
    where
        S: Handle,
    {
        let pretty = wants_pretty(&req);
        // Go writes an error it cannot negotiate a format for (no clause of `Accept`
        // fits its errors: a table, HTML...) with `WriteRawJSON`, indented.
        let raw_errors = !accepts_plain_errors(&req);
        if (!pretty && !raw_errors) || is_watch(&req) || req.uri().path().starts_with("/openapi/") {
            return next.run(req);
        }
        let answer = next.run(req);
        Box::pin(async move {
            let response = answer.await;
            let json = response
                .headers()
                .get(CONTENT_TYPE)
                .and_then(|t| t.to_str().ok())
                .is_some_and(|t| t.starts_with("application/json"));
            let error = response.status().as_u16() >= 400;
            if !json || !(pretty || error) {
                return response;
            }
            let (mut parts, body) = response.into_parts();
            match axum::body::to_bytes(body, usize::MAX).await {
                Ok(bytes) => {
                    parts.headers.remove(CONTENT_LENGTH);
                    let pretty = apimachinery::util::json::indent(&bytes);
                    Response::from_parts(parts, Body::from(pretty))
                }
                // The body broke off while it was read: the client sees it end.
                Err(_) => Response::from_parts(parts, Body::empty()),
            }
        })
    }
}

/// Whether `req` asks for pretty JSON: `pretty=1` among its `Accept` media type's
/// parameters, or Go's `isPrettyPrint`.
fn wants_pretty(req: &Request<Body>) -> bool {
    let header = |name| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    };
    let accept_pretty = header(ACCEPT)
        .split(';')
        .any(|param| param.trim() == "pretty=1");
    if accept_pretty {
        return true;
    }
    let query = req.uri().query().unwrap_or_default();
    // The query's first `pretty` decides when it has a value.
    if query.contains("pretty") {
        if let Some(value) = query
            .split('&')
            .filter_map(|pair| pair.split_once('=').or(Some((pair, ""))))
            .find(|(key, _)| *key == "pretty")
            .map(|(_, value)| value)
            .filter(|value| !value.is_empty())
        {
            return matches!(value, "1" | "t" | "T" | "TRUE" | "true" | "True");
        }
    }
    let agent = header(USER_AGENT);
    agent.starts_with("curl") || agent.starts_with("Wget") || agent.starts_with("Mozilla/5.0")
}

/// Whether some clause of the request's `Accept` (or its absence) is one Go's error
/// writer negotiates (its default restrictions: JSON, YAML or protobuf, or a wildcard,
/// without a transformation such as `as=Table`).
fn accepts_plain_errors(req: &Request<Body>) -> bool {
    let accept = req
        .headers()
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if accept.trim().is_empty() {
        return true;
    }
    accept.split(',').any(|clause| {
        let mut parts = clause.split(';').map(str::trim);
        let media = parts.next().unwrap_or_default();
        let plain = matches!(
            media,
            "*/*"
                | "application/*"
                | "application/json"
                | "application/yaml"
                | "application/vnd.kubernetes.protobuf"
        );
        plain && !parts.any(|param| param.starts_with("as="))
    })
}

/// Whether `req` is a watch (`?watch=` true, or a legacy `/watch/` path): its answer is
/// a stream, never pretty.
fn is_watch(req: &Request<Body>) -> bool {
    let watch_query = req
        .uri()
        .query()
        .unwrap_or_default()
        .split('&')
        .any(|pair| matches!(pair, "watch=1" | "watch=true"));
    watch_query || req.uri().path().contains("/watch/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(uri: &str, headers: &[(&str, &str)]) -> Request<Body> {
        let mut req = Request::builder().uri(uri);
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        req.body(Body::empty()).unwrap_or_default()
    }

    #[test]
    fn pretty_is_asked_as_gos_is_pretty_print_reads_it() {
        assert!(wants_pretty(&request("/api?pretty=true", &[])));
        assert!(wants_pretty(&request("/api?pretty=1", &[])));
        assert!(!wants_pretty(&request(
            "/api?pretty=false",
            &[("user-agent", "curl/8.5.0")]
        )));
        assert!(!wants_pretty(&request("/api?pretty=yes", &[])));
        assert!(wants_pretty(&request(
            "/api?pretty=",
            &[("user-agent", "curl/8.5.0")]
        )));
        assert!(wants_pretty(&request(
            "/api",
            &[("user-agent", "Mozilla/5.0 (X11)")]
        )));
        assert!(!wants_pretty(&request(
            "/api",
            &[("user-agent", "kubectl/v1.32.0")]
        )));
        assert!(wants_pretty(&request(
            "/api",
            &[("accept", "application/json;pretty=1")]
        )));
        assert!(is_watch(&request("/api/v1/pods?watch=true&pretty=1", &[])));
        let table = "application/json;as=Table;v=v1;g=meta.k8s.io";
        assert!(!accepts_plain_errors(&request(
            "/api",
            &[("accept", table)]
        )));
        assert!(!accepts_plain_errors(&request(
            "/api",
            &[("accept", "text/html")]
        )));
        let fallback = format!("{table}, application/json");
        assert!(accepts_plain_errors(&request(
            "/api",
            &[("accept", &fallback)]
        )));
        assert!(accepts_plain_errors(&request("/api", &[])));
        assert!(is_watch(&request("/api/v1/watch/pods", &[])));
    }
}
