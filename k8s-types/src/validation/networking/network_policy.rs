//! NetworkPolicy (Go's `ValidateNetworkPolicy` and `ValidateNetworkPolicyUpdate`).

use apimachinery::apis::meta::v1::validation::name_is_dns_subdomain;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::ip::{is_valid_cidr_for_legacy_field, parse_cidr_sloppy};
use apimachinery::util::validation::{is_valid_port_name, is_valid_port_num};

use crate::networking::v1::{
    IPBlock, NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort, NetworkPolicySpec,
};
use crate::validation::go_value::go_json;
use crate::validation::invalid_each;
use crate::validation::label_selector::{has_invalid_label_selector, validate_label_selector_with};
use crate::validation::{validate_object_meta, validate_object_meta_update};
use crate::value::IntOrString;

/// Go's `NetworkPolicyValidationOptions`.
#[derive(Default)]
struct Options<'a> {
    /// The old object's pod selector had a problem: invalid label values in selectors
    /// are then tolerated.
    allow_invalid_label_values: bool,
    /// The CIDRs of the old object, accepted as they are.
    old_cidrs: &'a [String],
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
    validate_spec(&np.spec, &Options::default(), &mut errs);
    errs
}

/// Go's `ValidateNetworkPolicyUpdate` with the strategy's options: the old object's
/// CIDRs stay valid, and so do invalid label values when its pod selector had a
/// problem.
pub fn validate_network_policy_update(new: &NetworkPolicy, old: &NetworkPolicy) -> ErrorList {
    let mut old_cidrs = Vec::new();
    let peers = old.spec.ingress.iter().flat_map(|r| &r.from);
    for peer in peers.chain(old.spec.egress.iter().flat_map(|r| &r.to)) {
        if let Some(b) = &peer.ip_block {
            old_cidrs.push(b.cidr.clone());
            old_cidrs.extend(b.except.iter().cloned());
        }
    }
    let opts = Options {
        allow_invalid_label_values: has_invalid_label_selector(&old.spec.pod_selector),
        old_cidrs: &old_cidrs,
    };
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    validate_spec(&new.spec, &opts, &mut errs);
    errs
}

/// Go's `ValidateNetworkPolicySpec`.
fn validate_spec(spec: &NetworkPolicySpec, opts: &Options, errs: &mut ErrorList) {
    let fld = Path::new("spec");
    errs.extend(validate_label_selector_with(
        Some(&spec.pod_selector),
        opts.allow_invalid_label_values,
        &fld.child("podSelector"),
    ));
    let ingress = fld.child("ingress");
    for (i, rule) in spec.ingress.iter().enumerate() {
        let p = ingress.index(i);
        let ports = p.child("ports");
        for (j, port) in rule.ports.iter().enumerate() {
            validate_port(port, &ports.index(j), errs);
        }
        let from = p.child("from");
        for (j, peer) in rule.from.iter().enumerate() {
            validate_peer(peer, opts, &from.index(j), errs);
        }
    }
    let egress = fld.child("egress");
    for (i, rule) in spec.egress.iter().enumerate() {
        let p = egress.index(i);
        let ports = p.child("ports");
        for (j, port) in rule.ports.iter().enumerate() {
            validate_port(port, &ports.index(j), errs);
        }
        let to = p.child("to");
        for (j, peer) in rule.to.iter().enumerate() {
            validate_peer(peer, opts, &to.index(j), errs);
        }
    }
    let tp = fld.child("policyTypes");
    if spec.policy_types.len() > 2 {
        errs.push(Error::invalid(
            &tp,
            go_json(&spec.policy_types),
            "may not specify more than two policyTypes",
        ));
        return;
    }
    for (i, t) in spec.policy_types.iter().enumerate() {
        if t != "Ingress" && t != "Egress" {
            errs.push(Error::not_supported(
                &tp.index(i),
                BadValue::json_string(t),
                &["Ingress", "Egress"],
            ));
        }
    }
}

/// Go's `ValidateNetworkPolicyPort`.
fn validate_port(port: &NetworkPolicyPort, fld: &Path, errs: &mut ErrorList) {
    if let Some(p) = &port.protocol {
        if !["TCP", "UDP", "SCTP"].contains(&p.as_str()) {
            errs.push(Error::not_supported(
                &fld.child("protocol"),
                BadValue::json_string(p),
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
                    // Go reports the port up to 1.36 and the end port from 1.37.
                    #[cfg(not(feature = "v1_37"))]
                    let reported = *n;
                    #[cfg(feature = "v1_37")]
                    let reported = end;
                    errs.push(Error::invalid(
                        &ep,
                        reported,
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

/// Go's `ValidateNetworkPolicyPeer`: one kind of peer, an ipBlock alone.
fn validate_peer(peer: &NetworkPolicyPeer, opts: &Options, fld: &Path, errs: &mut ErrorList) {
    let mut peers = 0;
    let allow = opts.allow_invalid_label_values;
    if let Some(s) = &peer.pod_selector {
        peers += 1;
        errs.extend(validate_label_selector_with(
            Some(s),
            allow,
            &fld.child("podSelector"),
        ));
    }
    if let Some(s) = &peer.namespace_selector {
        peers += 1;
        errs.extend(validate_label_selector_with(
            Some(s),
            allow,
            &fld.child("namespaceSelector"),
        ));
    }
    if let Some(b) = &peer.ip_block {
        peers += 1;
        validate_ip_block(b, opts, &fld.child("ipBlock"), errs);
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

/// Go's `ValidateIPBlock`: a CIDR (strictly valid unless the old object had it), and
/// exceptions strictly inside it.
fn validate_ip_block(b: &IPBlock, opts: &Options, fld: &Path, errs: &mut ErrorList) {
    let cp = fld.child("cidr");
    if b.cidr.is_empty() {
        errs.push(Error::required(&cp, ""));
        return;
    }
    errs.extend(is_valid_cidr_for_legacy_field(
        &cp,
        &b.cidr,
        true,
        opts.old_cidrs,
    ));
    let Some(cidr) = parse_cidr_sloppy(&b.cidr) else {
        return;
    };
    let excepts = fld.child("except");
    for (i, except) in b.except.iter().enumerate() {
        let ep = excepts.index(i);
        errs.extend(is_valid_cidr_for_legacy_field(
            &ep,
            except,
            true,
            opts.old_cidrs,
        ));
        let Some(e) = parse_cidr_sloppy(except) else {
            continue;
        };
        if !cidr.contains(&e.network()) || cidr.ones >= e.ones {
            errs.push(Error::invalid(
                &ep,
                except,
                "must be a strict subset of `cidr`",
            ));
        }
    }
}
