//! What a request path and method ask for (Go's `request.RequestInfoFactory`):
//! `/apis/apps/v1/namespaces/default/deployments/web/scale` is the `scale` subresource
//! of deployment `web` in `default`, read with `get` or written with `update`/`patch`.

use axum::http::{HeaderMap, HeaderName};

/// A parsed resource request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestInfo {
    /// The verb: `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`,
    /// `deletecollection`.
    pub verb: String,
    /// The API group (`""` for `/api`).
    pub api_group: String,
    /// The API version.
    pub api_version: String,
    /// The namespace, when the path names one.
    pub namespace: Option<String>,
    /// The resource, such as `deployments`.
    pub resource: String,
    /// The subresource, such as `status`.
    pub subresource: String,
    /// The object's name, for item paths.
    pub name: String,
}

/// Why a path is not a resource request the server understands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RequestInfoError {
    /// A path under `/api` or `/apis` too short or too long to name a resource.
    #[error("the server could not find the requested resource ({path})")]
    NotFound {
        /// The request path.
        path: String,
    },
    /// A method that no resource path accepts.
    #[error("method {method} is not allowed on {path}")]
    MethodNotAllowed {
        /// The method.
        method: String,
        /// The request path.
        path: String,
    },
}

impl RequestInfo {
    /// Parses `method` and `path`; `watch` is the `watch` query parameter (true turns a
    /// list or get into a watch, as Go does). `None` for paths outside `/api` and `/apis`
    /// group versions (discovery is served elsewhere).
    pub fn parse(method: &str, path: &str, watch: bool) -> Result<RequestInfo, RequestInfoError> {
        let not_found = || RequestInfoError::NotFound {
            path: path.to_owned(),
        };
        let parts = split_path(path);
        let (api_group, api_version, mut rest) = match parts.as_slice() {
            ["api", version, rest @ ..] => (String::new(), (*version).to_owned(), rest),
            ["apis", group, version, rest @ ..] => {
                ((*group).to_owned(), (*version).to_owned(), rest)
            }
            _ => return Err(not_found()),
        };
        let mut info = RequestInfo {
            api_group,
            api_version,
            ..RequestInfo::default()
        };
        let mut watch_path = false;
        if rest.first() == Some(&"watch") {
            watch_path = true;
            rest = &rest[1..];
        }
        // `namespaces/{ns}/{resource}...`; `namespaces` and `namespaces/{name}[/sub]`
        // alone are the namespaces resource itself.
        // (`namespaces/{name}/status` and `/finalize` are subresources of a namespace.)
        if rest.len() >= 3 && rest[0] == "namespaces" && !matches!(rest[2], "status" | "finalize") {
            info.namespace = Some(rest[1].to_owned());
            rest = &rest[2..];
        }
        match rest {
            [resource] => info.resource = (*resource).to_owned(),
            [resource, name] => {
                info.resource = (*resource).to_owned();
                info.name = (*name).to_owned();
            }
            [resource, name, sub] => {
                info.resource = (*resource).to_owned();
                info.name = (*name).to_owned();
                info.subresource = (*sub).to_owned();
            }
            _ => return Err(not_found()),
        }
        if info.resource.is_empty() || info.name.contains(char::is_control) {
            return Err(not_found());
        }
        let collection = info.name.is_empty();
        info.verb = match method {
            "GET" | "HEAD" if watch_path || watch => "watch",
            "GET" | "HEAD" if collection => "list",
            "GET" | "HEAD" => "get",
            "POST" => "create",
            "PUT" => "update",
            "PATCH" => "patch",
            "DELETE" if collection => "deletecollection",
            "DELETE" => "delete",
            _ => {
                return Err(RequestInfoError::MethodNotAllowed {
                    method: method.to_owned(),
                    path: path.to_owned(),
                });
            }
        }
        .to_owned();
        Ok(info)
    }
}

/// The segments of `path` between its slashes, leading and trailing ones trimmed (Go's
/// `splitPath`). Found byte by byte: `str::split` looks for each slash with `memchr`,
/// whose setup costs more than a whole short segment (about 130 instructions a segment,
/// in callgrind, against 4 a byte here).
fn split_path(path: &str) -> Vec<&str> {
    let trimmed = path.trim_matches('/');
    let mut segments = Vec::with_capacity(8);
    let mut start = 0;
    for (i, byte) in trimmed.bytes().enumerate() {
        if byte == b'/' {
            segments.push(&trimmed[start..i]);
            start = i + 1;
        }
    }
    segments.push(&trimmed[start..]);
    segments
}

/// A request header's value, when it is text.
pub fn header_str(headers: &HeaderMap, name: HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(method: &str, path: &str) -> RequestInfo {
        RequestInfo::parse(method, path, false).unwrap_or_default()
    }

    #[test]
    fn paths_split_as_str_split_does() {
        for path in [
            "",
            "/",
            "//",
            "/api",
            "/api/",
            "api/v1",
            "/api//v1/",
            "/apis/apps/v1/namespaces/default/deployments/web/scale",
            "/api/v1/namespaces/é/configmaps/ü",
        ] {
            let want: Vec<&str> = path.trim_matches('/').split('/').collect();
            assert_eq!(split_path(path), want, "{path}");
        }
    }

    #[test]
    fn paths_parse_as_go() {
        let i = parse(
            "GET",
            "/apis/apps/v1/namespaces/default/deployments/web/scale",
        );
        assert_eq!(
            (
                i.verb.as_str(),
                i.api_group.as_str(),
                i.namespace.as_deref()
            ),
            ("get", "apps", Some("default"))
        );
        assert_eq!(
            (i.resource.as_str(), i.name.as_str(), i.subresource.as_str()),
            ("deployments", "web", "scale")
        );
        let i = parse("GET", "/api/v1/namespaces");
        assert_eq!(
            (i.verb.as_str(), i.resource.as_str(), i.namespace),
            ("list", "namespaces", None)
        );
        let i = parse("GET", "/api/v1/namespaces/default");
        assert_eq!(
            (i.resource.as_str(), i.name.as_str()),
            ("namespaces", "default")
        );
        let i = parse("PUT", "/api/v1/namespaces/default/status");
        assert_eq!(
            (i.verb.as_str(), i.name.as_str(), i.subresource.as_str()),
            ("update", "default", "status")
        );
        let i = parse("GET", "/api/v1/watch/namespaces/ns/pods");
        assert_eq!(
            (i.verb.as_str(), i.namespace.as_deref()),
            ("watch", Some("ns"))
        );
        assert_eq!(
            parse("DELETE", "/api/v1/namespaces/ns/pods").verb,
            "deletecollection"
        );
        assert_eq!(parse("GET", "/api/v1/pods").verb, "list");
        assert!(RequestInfo::parse("GET", "/api", false).is_err());
        assert!(RequestInfo::parse("GET", "/api/v1/a/b/c/d/e/f", false).is_err());
        assert!(matches!(
            RequestInfo::parse("TRACE", "/api/v1/pods", false),
            Err(RequestInfoError::MethodNotAllowed { .. })
        ));
    }
}
