//! The checks of a webhook's client configuration that admission webhooks and
//! CustomResourceDefinition conversion webhooks share (Go's
//! `k8s.io/apiserver/pkg/util/webhook`): a URL or an in-cluster service.

use apimachinery::util::validation::field::{Error, ErrorList, Path};
use apimachinery::util::validation::{is_dns1123_subdomain, is_valid_port_num};

use super::go_url;

/// What Go appends to a URL's errors.
const URL_FORM: &str = "; desired format: https://host[/path]";

/// An in-cluster service a webhook is reached at, as both APIs' service references hold it.
pub(crate) struct ServiceRef<'a> {
    pub name: &'a str,
    pub namespace: &'a str,
    pub path: Option<&'a str>,
    pub port: i32,
}

/// A webhook's client configuration: a URL or a service, exactly one (the check each
/// API's `validateWebhookClientConfig` makes around Go's shared URL and service checks).
pub(crate) fn validate_client_config(
    url: Option<&str>,
    service: Option<ServiceRef<'_>>,
    p: &Path,
    errs: &mut ErrorList,
) {
    match (url, service) {
        (Some(url), None) => validate_webhook_url(url, true, &p.child("url"), errs),
        // Go passes the service's name where `ValidateWebhookService` takes the namespace
        // and the namespace where it takes the name, so a missing namespace is reported
        // at `service.name` (and the other way round).
        (None, Some(s)) => validate_webhook_service(
            &p.child("service"),
            s.name,
            s.namespace,
            s.path,
            s.port,
            errs,
        ),
        _ => errs.push(Error::required(
            p,
            "exactly one of url or service is required",
        )),
    }
}

/// Go's `webhook.ValidateWebhookURL`.
pub(crate) fn validate_webhook_url(url: &str, force_https: bool, p: &Path, errs: &mut ErrorList) {
    let u = match go_url::parse(url) {
        Ok(u) => u,
        Err(e) => {
            errs.push(Error::required(
                p,
                format!("url must be a valid URL: {e}{URL_FORM}"),
            ));
            return;
        }
    };
    if force_https && u.scheme != "https" {
        errs.push(Error::invalid(
            p,
            u.scheme.as_str(),
            format!("'https' is the only allowed URL scheme{URL_FORM}"),
        ));
    }
    if u.host.is_empty() {
        errs.push(Error::invalid(
            p,
            "",
            format!("host must be specified{URL_FORM}"),
        ));
    }
    if u.user.is_some() {
        errs.push(Error::invalid(
            p,
            u.user_string(),
            "user information is not permitted in the URL",
        ));
    }
    if !u.fragment.is_empty() {
        errs.push(Error::invalid(
            p,
            u.fragment.as_str(),
            "fragments are not permitted in the URL",
        ));
    }
    if !u.raw_query.is_empty() {
        errs.push(Error::invalid(
            p,
            u.raw_query.as_str(),
            "query parameters are not permitted in the URL",
        ));
    }
}

/// Go's `webhook.ValidateWebhookService(fldPath, namespace, name, path, port)`.
pub(crate) fn validate_webhook_service(
    p: &Path,
    namespace: &str,
    name: &str,
    path: Option<&str>,
    port: i32,
    errs: &mut ErrorList,
) {
    if name.is_empty() {
        errs.push(Error::required(&p.child("name"), ""));
    }
    if namespace.is_empty() {
        errs.push(Error::required(&p.child("namespace"), ""));
    }
    let msgs = is_valid_port_num(i64::from(port));
    if !msgs.is_empty() {
        errs.push(Error::invalid(
            &p.child("port"),
            port,
            format!("port is not valid: {}", msgs.join(", ")),
        ));
    }
    let Some(url_path) = path else {
        return;
    };
    if url_path == "/" || url_path.is_empty() {
        return;
    }
    let pp = p.child("path");
    if url_path == "//" {
        errs.push(Error::invalid(&pp, url_path, "segment[0] may not be empty"));
        return;
    }
    if !url_path.starts_with('/') {
        errs.push(Error::invalid(&pp, url_path, "must start with a '/'"));
    }
    // Go drops the first byte whatever it is, and splits what is left on '/' as bytes:
    // a path starting with a character of several bytes leaves a first segment that is
    // not UTF-8 (which a DNS subdomain never is).
    let rest = url_path.as_bytes().get(1..).unwrap_or_default();
    let rest = rest.strip_suffix(b"/").unwrap_or(rest);
    for (i, step) in rest.split(|&b| b == b'/').enumerate() {
        if step.is_empty() {
            errs.push(Error::invalid(
                &pp,
                url_path,
                format!("segment[{i}] may not be empty"),
            ));
            continue;
        }
        let step = segment_text(step);
        for failure in is_dns1123_subdomain(&step) {
            errs.push(Error::invalid(
                &pp,
                url_path,
                format!("segment[{i}]: {failure}"),
            ));
        }
    }
}

/// A path segment as text to check as a DNS subdomain: itself when it is UTF-8, else the
/// same number of bytes with each non-ASCII byte as `_`, which fails the check as the
/// byte does in Go (a subdomain is ASCII) and keeps the length Go compares.
fn segment_text(step: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(step) {
        Ok(text) => text.into(),
        Err(_) => step
            .iter()
            .map(|&b| if b.is_ascii() { char::from(b) } else { '_' })
            .collect::<String>()
            .into(),
    }
}
