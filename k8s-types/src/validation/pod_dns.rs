//! A pod's name resolution (Go's `validatePodDNSConfig` and `ValidateHostAliases` in
//! `pkg/apis/core/validation`): `dnsConfig` against `dnsPolicy` (nameservers,
//! search domains, options) and `hostAliases`, with Go's limits, paths and messages.

use apimachinery::util::validation::field::{Error, ErrorList, Path};
use apimachinery::util::validation::ip::is_valid_ip_for_legacy_field;
use apimachinery::util::validation::{is_dns1123_subdomain, is_dns1123_subdomain_with_underscore};

use super::core::STRICT_IP_CIDR;
use super::{invalid_each, json_value};
use crate::core::v1::{HostAlias, PodDNSConfig};

/// Go's `MaxDNSNameservers`.
pub const MAX_DNS_NAMESERVERS: usize = 3;
/// Go's `MaxDNSSearchPaths`.
pub const MAX_DNS_SEARCH_PATHS: usize = 32;
/// Go's `MaxDNSSearchListChars` (the search domains joined by spaces).
pub const MAX_DNS_SEARCH_LIST_CHARS: usize = 2048;

/// Go's `validatePodDNSConfig`: with `dnsPolicy: None` a config with a nameserver is
/// required; at most 3 nameservers, each an IP (Go's legacy-field check: neither leading
/// zeros nor the IPv4-mapped form); at most 32 search domains of 2048
/// characters in all, each (less one trailing dot) a DNS subdomain that may hold `_`
/// (Go's relaxed search rule, on by default; `.` alone allowed); options named.
pub fn validate_pod_dns_config(
    config: Option<&PodDNSConfig>,
    dns_policy: &str,
    path: &Path<'_>,
    errs: &mut ErrorList,
) {
    if dns_policy == "None" {
        match config {
            None => {
                errs.push(Error::required(
                    path,
                    "must provide `dnsConfig` when `dnsPolicy` is None",
                ));
                return;
            }
            Some(c) if c.nameservers.is_empty() => {
                errs.push(Error::required(
                    &path.child("nameservers"),
                    "must provide at least one DNS nameserver when `dnsPolicy` is None",
                ));
                return;
            }
            Some(_) => {}
        }
    }
    let Some(config) = config else { return };
    let np = path.child("nameservers");
    if config.nameservers.len() > MAX_DNS_NAMESERVERS {
        errs.push(Error::invalid(
            &np,
            json_value(&config.nameservers),
            format!("must not have more than {MAX_DNS_NAMESERVERS} nameservers"),
        ));
    }
    for (i, ns) in config.nameservers.iter().enumerate() {
        errs.extend(is_valid_ip_for_legacy_field(
            &np.index(i),
            ns,
            STRICT_IP_CIDR,
            &[],
        ));
    }
    let sp = path.child("searches");
    if config.searches.len() > MAX_DNS_SEARCH_PATHS {
        errs.push(Error::invalid(
            &sp,
            json_value(&config.searches),
            format!("must not have more than {MAX_DNS_SEARCH_PATHS} search paths"),
        ));
    }
    let joined = config.searches.iter().map(String::len).sum::<usize>()
        + config.searches.len().saturating_sub(1);
    if joined > MAX_DNS_SEARCH_LIST_CHARS {
        errs.push(Error::invalid(
            &sp,
            json_value(&config.searches),
            format!(
                "must not have more than {MAX_DNS_SEARCH_LIST_CHARS} characters (including spaces) in the search list"
            ),
        ));
    }
    for (i, search) in config.searches.iter().enumerate() {
        if search == "." {
            continue;
        }
        let trimmed = search.strip_suffix('.').unwrap_or(search);
        invalid_each(
            errs,
            &sp.index(i),
            trimmed,
            is_dns1123_subdomain_with_underscore(trimmed),
        );
    }
    let op = path.child("options");
    for (i, option) in config.options.iter().enumerate() {
        if option.name.is_empty() {
            errs.push(Error::required(&op.index(i), "must not be empty"));
        }
    }
}

/// Go's `ValidateHostAliases`: each alias's IP an address (as the nameservers: neither
/// leading zeros nor the IPv4-mapped form, old values included), each hostname a DNS
/// subdomain.
pub fn validate_host_aliases(aliases: &[HostAlias], path: &Path<'_>, errs: &mut ErrorList) {
    for (i, alias) in aliases.iter().enumerate() {
        let p = path.index(i);
        errs.extend(is_valid_ip_for_legacy_field(
            &p.child("ip"),
            &alias.ip,
            STRICT_IP_CIDR,
            &[],
        ));
        let hp = p.child("hostnames");
        for (j, hostname) in alias.hostnames.iter().enumerate() {
            invalid_each(errs, &hp.index(j), hostname, is_dns1123_subdomain(hostname));
        }
    }
}
