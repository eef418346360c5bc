//! The networking group's validation (Go's `pkg/apis/networking/validation`): Ingress
//! and NetworkPolicy.

use std::net::IpAddr;

use apimachinery::apis::meta::v1::validation::{
    name_is_dns_subdomain, name_is_dns1035_label, validate_label_selector, validate_object_meta,
};
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use apimachinery::util::validation::{
    is_dns1123_subdomain, is_valid_cidr, is_valid_port_name, is_valid_port_num,
};

use super::{invalid_each, json_value};
use crate::networking::v1::{
    HTTPIngressPath, IPBlock, Ingress, IngressBackend, NetworkPolicy, NetworkPolicyPeer,
    NetworkPolicyPort,
};
use crate::value::IntOrString;

const WILDCARD_MESSAGE: &str = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/// Go's `IsWildcardDNS1123Subdomain`.
fn is_wildcard_dns1123_subdomain(host: &str) -> Vec<String> {
    let mut msgs = Vec::new();
    if host.len() > 253 {
        msgs.push("must be no more than 253 characters".to_owned());
    }
    let ok = host
        .strip_prefix("*.")
        .is_some_and(|rest| is_dns1123_subdomain(rest).is_empty());
    if !ok {
        msgs.push(WILDCARD_MESSAGE.to_owned());
    }
    msgs
}

fn host_messages(host: &str) -> Vec<String> {
    if host.contains('*') {
        is_wildcard_dns1123_subdomain(host)
    } else {
        is_dns1123_subdomain(host)
    }
}

/// Go's `ValidateIngressCreate`: rules or a default backend, hosts (DNS names, not IPs,
/// wildcards), paths and path types, backends, TLS hosts, the class name.
pub fn validate_ingress(ing: &Ingress) -> ErrorList {
    let mut errs = validate_object_meta(
        &ing.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let spec = &ing.spec;
    let fld = Path::new("spec");
    if spec.rules.is_empty() && spec.default_backend.is_none() {
        errs.push(Error::invalid(
            &fld,
            json_value(&serde_json::Value::Null),
            "either `defaultBackend` or `rules` must be specified",
        ));
    }
    if let Some(b) = &spec.default_backend {
        validate_backend(b, &fld.child("defaultBackend"), &mut errs);
    }
    let rules = fld.child("rules");
    for (i, rule) in spec.rules.iter().enumerate() {
        let p = rules.index(i);
        if !rule.host.is_empty() {
            let hp = p.child("host");
            if rule.host.parse::<IpAddr>().is_ok() {
                errs.push(Error::invalid(
                    &hp,
                    &rule.host,
                    "must be a DNS name, not an IP address",
                ));
            }
            invalid_each(&mut errs, &hp, &rule.host, host_messages(&rule.host));
        }
        if let Some(http) = &rule.http {
            let hp = p.child("http");
            let paths = http.paths.as_deref().unwrap_or_default();
            if paths.is_empty() {
                errs.push(Error::required(&hp.child("paths"), ""));
            }
            for (j, path) in paths.iter().enumerate() {
                validate_path(path, &hp.child("paths").index(j), &mut errs);
            }
        }
    }
    let tls_path = fld.child("tls");
    for (i, tls) in spec.tls.iter().enumerate() {
        let tp = tls_path.index(i);
        let hosts = tp.child("hosts");
        for (j, host) in tls.hosts.iter().enumerate() {
            let p = hosts.index(j);
            invalid_each(&mut errs, &p, host, host_messages(host));
        }
    }
    if let Some(class) = &spec.ingress_class_name {
        invalid_each(
            &mut errs,
            &fld.child("ingressClassName"),
            class,
            name_is_dns_subdomain(class, false),
        );
    }
    errs
}

fn validate_path(path: &HTTPIngressPath, fld: &Path, errs: &mut ErrorList) {
    let pp = fld.child("path");
    match path.path_type.as_deref() {
        None => {
            errs.push(Error::required(
                &fld.child("pathType"),
                "pathType must be specified",
            ));
            return;
        }
        Some("Exact" | "Prefix") => {
            if !path.path.starts_with('/') {
                errs.push(Error::invalid(&pp, &path.path, "must be an absolute path"));
            }
            for seq in ["//", "/./", "/../", "%2f", "%2F"] {
                if path.path.contains(seq) {
                    errs.push(Error::invalid(
                        &pp,
                        &path.path,
                        format!("must not contain '{seq}'"),
                    ));
                }
            }
            for suffix in ["/..", "/."] {
                if path.path.ends_with(suffix) {
                    errs.push(Error::invalid(
                        &pp,
                        &path.path,
                        format!("cannot end with '{suffix}'"),
                    ));
                }
            }
        }
        Some("ImplementationSpecific") => {
            if !path.path.is_empty() && !path.path.starts_with('/') {
                errs.push(Error::invalid(&pp, &path.path, "must be an absolute path"));
            }
        }
        Some(other) => errs.push(Error::not_supported(
            &fld.child("pathType"),
            other,
            &["Exact", "ImplementationSpecific", "Prefix"],
        )),
    }
    validate_backend(&path.backend, &fld.child("backend"), errs);
}

fn validate_backend(b: &IngressBackend, fld: &Path, errs: &mut ErrorList) {
    match (&b.service, &b.resource) {
        (Some(_), Some(_)) => errs.push(Error::invalid(
            fld,
            "",
            "cannot set both resource and service backends",
        )),
        (None, Some(r)) => {
            let rp = fld.child("resource");
            if r.kind.is_empty() {
                errs.push(Error::required(&rp.child("kind"), ""));
            }
            if r.name.is_empty() {
                errs.push(Error::required(&rp.child("name"), ""));
            }
        }
        (Some(s), None) => {
            let sp = fld.child("service");
            if s.name.is_empty() {
                errs.push(Error::required(&sp.child("name"), ""));
            } else {
                invalid_each(
                    errs,
                    &sp.child("name"),
                    &s.name,
                    name_is_dns1035_label(&s.name, false),
                );
            }
            let (name, number) = (&s.port.name, s.port.number);
            if !name.is_empty() && number != 0 {
                errs.push(Error::invalid(
                    fld,
                    "",
                    "cannot set both port name & port number",
                ));
            } else if !name.is_empty() {
                invalid_each(
                    errs,
                    &sp.child("port").child("name"),
                    name,
                    is_valid_port_name(name),
                );
            } else if number != 0 {
                for msg in is_valid_port_num(i64::from(number)) {
                    errs.push(Error::invalid(
                        &sp.child("port").child("number"),
                        number,
                        msg,
                    ));
                }
            } else {
                errs.push(Error::required(fld, "port name or number is required"));
            }
        }
        (None, None) => errs.push(Error::invalid(
            fld,
            "",
            "resource or service backend is required",
        )),
    }
}

/// Go's `ValidateNetworkPolicy`: the pod selector, each rule's ports and peers, and the
/// policy types.
pub fn validate_network_policy(np: &NetworkPolicy) -> ErrorList {
    let mut errs = validate_object_meta(
        &np.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let spec = &np.spec;
    let fld = Path::new("spec");
    errs.extend(validate_label_selector(
        &spec.pod_selector,
        &fld.child("podSelector"),
    ));
    let ingress = fld.child("ingress");
    for (i, rule) in spec.ingress.iter().enumerate() {
        let p = ingress.index(i);
        for (j, port) in rule.ports.iter().enumerate() {
            validate_port(port, &p.child("ports").index(j), &mut errs);
        }
        for (j, peer) in rule.from.iter().enumerate() {
            validate_peer(peer, &p.child("from").index(j), &mut errs);
        }
    }
    let egress = fld.child("egress");
    for (i, rule) in spec.egress.iter().enumerate() {
        let p = egress.index(i);
        for (j, port) in rule.ports.iter().enumerate() {
            validate_port(port, &p.child("ports").index(j), &mut errs);
        }
        for (j, peer) in rule.to.iter().enumerate() {
            validate_peer(peer, &p.child("to").index(j), &mut errs);
        }
    }
    let tp = fld.child("policyTypes");
    if spec.policy_types.len() > 2 {
        errs.push(Error::invalid(
            &tp,
            json_value(&spec.policy_types),
            "may not specify more than two policyTypes",
        ));
        return errs;
    }
    for (i, t) in spec.policy_types.iter().enumerate() {
        if t != "Ingress" && t != "Egress" {
            errs.push(Error::not_supported(
                &tp.index(i),
                t,
                &["Ingress", "Egress"],
            ));
        }
    }
    errs
}

fn validate_port(port: &NetworkPolicyPort, fld: &Path, errs: &mut ErrorList) {
    if let Some(p) = &port.protocol {
        if !["TCP", "UDP", "SCTP"].contains(&p.as_str()) {
            errs.push(Error::not_supported(
                &fld.child("protocol"),
                p,
                &["TCP", "UDP", "SCTP"],
            ));
        }
    }
    let ep = fld.child("endPort");
    match &port.port {
        Some(IntOrString::Int(n)) => {
            for msg in is_valid_port_num(i64::from(*n)) {
                errs.push(Error::invalid(&fld.child("port"), *n, msg));
            }
            if let Some(end) = port.end_port {
                if end < *n {
                    errs.push(Error::invalid(
                        &ep,
                        *n,
                        "must be greater than or equal to `port`",
                    ));
                }
                for msg in is_valid_port_num(i64::from(end)) {
                    errs.push(Error::invalid(&ep, end, msg));
                }
            }
        }
        Some(IntOrString::String(s)) => {
            if let Some(end) = port.end_port {
                errs.push(Error::invalid(
                    &ep,
                    end,
                    "may not be specified when `port` is non-numeric",
                ));
            }
            invalid_each(errs, &fld.child("port"), s, is_valid_port_name(s));
        }
        None => {
            if let Some(end) = port.end_port {
                errs.push(Error::invalid(
                    &ep,
                    end,
                    "may not be specified when `port` is not specified",
                ));
            }
        }
    }
}

fn validate_peer(peer: &NetworkPolicyPeer, fld: &Path, errs: &mut ErrorList) {
    let mut peers = 0;
    if let Some(s) = &peer.pod_selector {
        peers += 1;
        errs.extend(validate_label_selector(s, &fld.child("podSelector")));
    }
    if let Some(s) = &peer.namespace_selector {
        peers += 1;
        errs.extend(validate_label_selector(s, &fld.child("namespaceSelector")));
    }
    if let Some(b) = &peer.ip_block {
        peers += 1;
        validate_ip_block(b, &fld.child("ipBlock"), errs);
    }
    if peers == 0 {
        errs.push(Error::required(fld, "must specify a peer"));
    } else if peers > 1 && peer.ip_block.is_some() {
        errs.push(Error::forbidden(
            fld,
            "may not specify both ipBlock and another peer",
        ));
    }
}

/// A CIDR's network as bits (IPv6 and IPv4 kept apart) and its prefix length.
fn parse_cidr(s: &str) -> Option<(bool, u128, u32)> {
    let (ip, bits) = s.split_once('/')?;
    let bits: u32 = bits.parse().ok()?;
    match ip.parse::<IpAddr>().ok()? {
        IpAddr::V4(a) if bits <= 32 => {
            let mask = if bits == 0 {
                0
            } else {
                u32::MAX << (32 - bits)
            };
            Some((false, u128::from(u32::from(a) & mask), bits))
        }
        IpAddr::V6(a) if bits <= 128 => {
            let mask = if bits == 0 {
                0
            } else {
                u128::MAX << (128 - bits)
            };
            Some((true, u128::from(a) & mask, bits))
        }
        _ => None,
    }
}

fn validate_ip_block(b: &IPBlock, fld: &Path, errs: &mut ErrorList) {
    let cp = fld.child("cidr");
    if b.cidr.is_empty() {
        errs.push(Error::required(&cp, ""));
        return;
    }
    errs.extend(is_valid_cidr(&cp, &b.cidr));
    let Some((v6, net, len)) = parse_cidr(&b.cidr) else {
        return;
    };
    let excepts = fld.child("except");
    for (i, except) in b.except.iter().enumerate() {
        let ep = excepts.index(i);
        let before = errs.len();
        errs.extend(is_valid_cidr(&ep, except));
        if errs.len() > before {
            continue;
        }
        let Some((ev6, enet, elen)) = parse_cidr(except) else {
            continue;
        };
        let width = if v6 { 128 } else { 32 };
        let mask = if len == 0 {
            0
        } else {
            (u128::MAX >> (128 - width)) << (width - len)
        };
        let contained = v6 == ev6 && (enet & mask) == net;
        if !contained || len >= elen {
            errs.push(Error::invalid(
                &ep,
                except,
                "must be a strict subset of `cidr`",
            ));
        }
    }
}
