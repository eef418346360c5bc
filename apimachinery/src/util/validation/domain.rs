//! Domain names and domain-prefixed names, as Go's
//! `k8s.io/apimachinery/pkg/util/validation` checks them: wildcard subdomains
//! (`*.example.com`), fully qualified domain names, and the `example.com/path` and
//! `example.com/key` forms of controller names and keys.
//!
//! ```
//! use apimachinery::util::validation::domain::{is_domain_prefixed_path, is_wildcard_dns1123_subdomain};
//! use apimachinery::util::validation::field::Path;
//!
//! assert!(is_wildcard_dns1123_subdomain("*.example.com").is_empty());
//! assert_eq!(
//!     is_domain_prefixed_path(&Path::new("controller"), "nginx").to_string(),
//!     "controller: Invalid value: \"nginx\": must be a domain-prefixed path (such as \"acme.io/foo\")"
//! );
//! ```

use super::field::{Error, ErrorList, Path};
use super::{
    DNS1123_SUBDOMAIN_MAX_LENGTH, is_dns1123_label, is_dns1123_subdomain, is_qualified_name,
    max_len_error, regex_error,
};

const WILDCARD_DNS1123_SUBDOMAIN_FMT: &str =
    "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const WILDCARD_DNS1123_SUBDOMAIN_ERR_MSG: &str = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const HTTP_PATH_FMT: &str = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";

/// Go's `IsWildcardDNS1123Subdomain`: `*.` and a DNS-1123 subdomain, at most 253
/// characters in all.
pub fn is_wildcard_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    // The regex checks the form only: the length of the rest is not its concern.
    let ok = value.strip_prefix("*.").is_some_and(|rest| {
        rest.split('.').all(|l| {
            let b = l.as_bytes();
            let edge = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
            match (b.first(), b.last()) {
                (Some(&f), Some(&e)) => {
                    edge(f) && edge(e) && b.iter().all(|&c| edge(c) || c == b'-')
                }
                _ => false,
            }
        })
    });
    if !ok {
        errs.push(regex_error(
            WILDCARD_DNS1123_SUBDOMAIN_ERR_MSG,
            WILDCARD_DNS1123_SUBDOMAIN_FMT,
            &["*.example.com"],
        ));
    }
    errs
}

/// Go's `IsDomainPrefixedPath`: `host/path`, the host a DNS-1123 subdomain and the path
/// of URL path characters.
pub fn is_domain_prefixed_path(path: &Path, value: &str) -> ErrorList {
    let mut errs = ErrorList::default();
    if value.is_empty() {
        errs.push(Error::required(path, ""));
        return errs;
    }
    let Some((host, rest)) = value
        .split_once('/')
        .filter(|(h, r)| !h.is_empty() && !r.is_empty())
    else {
        errs.push(Error::invalid(
            path,
            value,
            "must be a domain-prefixed path (such as \"acme.io/foo\")",
        ));
        return errs;
    };
    for msg in is_dns1123_subdomain(host) {
        errs.push(Error::invalid(path, host, msg));
    }
    let path_ok = rest
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || b"/-._~%!$&'()*+,;=:".contains(&c));
    if !path_ok {
        errs.push(Error::invalid(
            path,
            rest,
            regex_error("Invalid path", HTTP_PATH_FMT, &[]),
        ));
    }
    errs
}

/// Go's `IsFullyQualifiedDomainName`: a DNS-1123 subdomain (a final `.` allowed) of at
/// least two labels; the first problem only.
pub fn is_fully_qualified_domain_name(path: &Path, name: &str) -> ErrorList {
    let mut errs = ErrorList::default();
    if name.is_empty() {
        errs.push(Error::required(path, ""));
        return errs;
    }
    let name = name.strip_suffix('.').unwrap_or(name);
    let msgs = is_dns1123_subdomain(name);
    if !msgs.is_empty() {
        errs.push(Error::invalid(path, name, msgs.join(",")));
        return errs;
    }
    if name.split('.').count() < 2 {
        errs.push(Error::invalid(
            path,
            name,
            "should be a domain with at least two segments separated by dots",
        ));
        return errs;
    }
    for label in name.split('.') {
        let msgs = is_dns1123_label(label);
        if !msgs.is_empty() {
            errs.push(Error::invalid(path, label, msgs.join(",")));
            return errs;
        }
    }
    errs
}

/// Go's `IsDomainPrefixedKey`: a qualified name with a prefix (`acme.io/foo`).
pub fn is_domain_prefixed_key(path: &Path, key: &str) -> ErrorList {
    let mut errs = ErrorList::default();
    if key.is_empty() {
        errs.push(Error::required(path, ""));
        return errs;
    }
    for msg in is_qualified_name(key) {
        errs.push(Error::invalid(path, key, msg));
    }
    if errs.is_empty() && key.split('/').count() != 2 {
        errs.push(Error::invalid(
            path,
            key,
            "must be a domain-prefixed key (such as \"acme.io/foo\")",
        ));
    }
    errs
}
