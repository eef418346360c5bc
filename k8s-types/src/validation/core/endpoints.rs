//! `v1` Endpoints (Go's `ValidateEndpointsCreate` and `ValidateEndpointsUpdate`), and
//! the address ranges every endpoint address (and, for historical reasons, a Service's
//! external IPs) must stay out of (`ValidateEndpointIP`), which EndpointSlices share.

use apimachinery::apis::meta::v1::validation::name_is_dns_subdomain;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::ip::{is_valid_ip_for_legacy_field, parse_ip_sloppy};
use apimachinery::util::validation::{is_dns1123_label, is_qualified_name, is_valid_port_num};

use super::super::{invalid_each, validate_object_meta, validate_object_meta_update};
use super::SUPPORTED_PORT_PROTOCOLS;
use super::service_ips::STRICT_IP_CIDR;
use crate::core::v1::{EndpointAddress, EndpointPort, EndpointSubset, Endpoints};

/// Go's `ValidateEndpointsCreate`.
pub fn validate_endpoints(ep: &Endpoints) -> ErrorList {
    endpoints(ep, None)
}

/// Go's `ValidateEndpointsUpdate`: the metadata's identity kept, and the subsets checked
/// again unless they are unchanged (older servers took data that fails today's rules).
/// Nothing else is immutable: a reused IP may move to another node.
pub fn validate_endpoints_update(new: &Endpoints, old: &Endpoints) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(endpoints(new, Some(old)));
    errs
}

/// Go's `ValidateEndpoints`.
fn endpoints(ep: &Endpoints, old: Option<&Endpoints>) -> ErrorList {
    let mut errs = validate_object_meta(
        &ep.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let subsets = validate_endpoint_subsets(&ep.subsets, &Path::new("subsets"));
    // Go compares the subsets only once they fail (they may be large); Go's semantic
    // equality takes an empty list for a missing one, as `Vec` equality does.
    if !subsets.is_empty() && old.is_none_or(|o| o.subsets != ep.subsets) {
        errs.extend(subsets);
    }
    errs
}

/// Go's `validateEndpointSubsets`: each subset has addresses (ready or not); ports need
/// names when there are several.
pub fn validate_endpoint_subsets(subsets: &[EndpointSubset], path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    for (i, ss) in subsets.iter().enumerate() {
        let p = path.index(i);
        if ss.addresses.is_empty() && ss.not_ready_addresses.is_empty() {
            errs.push(Error::required(
                &p,
                "must specify `addresses` or `notReadyAddresses`",
            ));
        }
        for (field, list) in [
            ("addresses", &ss.addresses),
            ("notReadyAddresses", &ss.not_ready_addresses),
        ] {
            let lp = p.child(field);
            for (j, a) in list.iter().enumerate() {
                endpoint_address(a, &lp.index(j), &mut errs);
            }
        }
        let pp = p.child("ports");
        for (j, port) in ss.ports.iter().enumerate() {
            endpoint_port(port, ss.ports.len() > 1, &pp.index(j), &mut errs);
        }
    }
    errs
}

/// Go's `validateEndpointAddress`: the IP as a legacy field and out of the reserved
/// ranges, a DNS-1123 label hostname, a DNS subdomain node name.
fn endpoint_address(a: &EndpointAddress, path: &Path, errs: &mut ErrorList) {
    let ip = path.child("ip");
    errs.extend(is_valid_ip_for_legacy_field(
        &ip,
        &a.ip,
        STRICT_IP_CIDR,
        &[],
    ));
    if !a.hostname.is_empty() {
        let hp = path.child("hostname");
        invalid_each(errs, &hp, &a.hostname, is_dns1123_label(&a.hostname));
    }
    if let Some(node) = &a.node_name {
        let np = path.child("nodeName");
        invalid_each(errs, &np, node, name_is_dns_subdomain(node, false));
    }
    errs.extend(validate_endpoint_ip(&a.ip, &ip));
}

/// Go's `validateEndpointPort`: a DNS-1123 label name (required among several ports), a
/// port number, a known protocol, a qualified `appProtocol`.
fn endpoint_port(port: &EndpointPort, require_name: bool, path: &Path, errs: &mut ErrorList) {
    let np = path.child("name");
    if require_name && port.name.is_empty() {
        errs.push(Error::required(&np, ""));
    } else if !port.name.is_empty() {
        invalid_each(errs, &np, &port.name, is_dns1123_label(&port.name));
    }
    for msg in is_valid_port_num(i64::from(port.port)) {
        errs.push(Error::invalid(&path.child("port"), port.port, msg));
    }
    let pp = path.child("protocol");
    if port.protocol.is_empty() {
        errs.push(Error::required(&pp, ""));
    } else if !SUPPORTED_PORT_PROTOCOLS.contains(&port.protocol.as_str()) {
        errs.push(Error::not_supported(
            &pp,
            BadValue::json_string(&port.protocol),
            SUPPORTED_PORT_PROTOCOLS,
        ));
    }
    if let Some(app) = &port.app_protocol {
        let ap = path.child("appProtocol");
        invalid_each(errs, &ap, app, is_qualified_name(app));
    }
}

/// Go's `ValidateEndpointIP`: an IP address that is not unspecified, loopback,
/// link-local or link-local multicast (Go's `net.IP` ranges: any `ffX2::` scope counts
/// as link-local multicast).
pub fn validate_endpoint_ip(ip: &str, path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    let Some(parsed) = parse_ip_sloppy(ip) else {
        errs.push(Error::invalid(path, ip, "must be a valid IP address"));
        return errs;
    };
    let b = parsed.octets();
    let (unspecified, loopback, link_local, link_local_multicast) = match parsed.to4() {
        Some(v4) => (
            v4 == [0, 0, 0, 0],
            v4[0] == 127,
            v4[0] == 169 && v4[1] == 254,
            v4[0] == 224 && v4[1] == 0 && v4[2] == 0,
        ),
        None => (
            b == [0; 16],
            b == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
            b[0] == 0xfe && b[1] & 0xc0 == 0x80,
            b[0] == 0xff && b[1] & 0x0f == 0x02,
        ),
    };
    let ranges = [
        (unspecified, format!("may not be unspecified ({ip})")),
        (
            loopback,
            "may not be in the loopback range (127.0.0.0/8, ::1/128)".to_owned(),
        ),
        (
            link_local,
            "may not be in the link-local range (169.254.0.0/16, fe80::/10)".to_owned(),
        ),
        (
            link_local_multicast,
            "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)".to_owned(),
        ),
    ];
    for (_, msg) in ranges.into_iter().filter(|(hit, _)| *hit) {
        errs.push(Error::invalid(path, ip, msg));
    }
    errs
}
