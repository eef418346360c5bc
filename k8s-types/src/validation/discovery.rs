//! The discovery group's validation (Go's `pkg/apis/discovery/validation`):
//! EndpointSlice. Its strategy merges declarative validation without enforcing it, so
//! Go's handwritten rules are what kube-apiserver reports.

use apimachinery::apis::meta::v1::validation::{
    FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain, validate_labels,
};
use apimachinery::util::validation::domain::is_fully_qualified_domain_name;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
// Go's `validation.IsValidIP` since 1.36 is the strict, canonical check of `ip`.
use apimachinery::util::validation::ip::{
    is_valid_ip, is_valid_ip_for_legacy_field, parse_ip_sloppy,
};
use apimachinery::util::validation::{is_dns1123_label, is_qualified_name, is_valid_label_value};

use super::{invalid_each, validate_endpoint_ip, validate_object_meta};
use crate::discovery::v1::{Endpoint, EndpointHints, EndpointPort, EndpointSlice};

const ADDRESS_TYPES: &[&str] = &["FQDN", "IPv4", "IPv6"];
const PORT_PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];
const MAX_TOPOLOGY_LABELS: usize = 16;
const MAX_ADDRESSES: usize = 100;
const MAX_PORTS: usize = 20000;
const MAX_ENDPOINTS: usize = 1000;
const MAX_ZONE_HINTS: usize = 8;
const MAX_NODE_HINTS: usize = 8;
/// The zone label `v1`'s conversion moves out of `deprecatedTopology` into `zone`.
const LABEL_TOPOLOGY_ZONE: &str = "topology.kubernetes.io/zone";

/// Go's `ValidateEndpointSliceCreate`.
pub fn validate_endpoint_slice(slice: &EndpointSlice) -> ErrorList {
    endpoint_slice(slice, None)
}

/// Go's `ValidateEndpointSliceUpdate`: `addressType` kept; the endpoints checked again
/// unless unchanged. Go's strategy checks the metadata as on create only (no
/// `ValidateObjectMetaUpdate`: kube-apiserver's `rest.BeforeUpdate` runs that for every
/// kind besides its strategy).
pub fn validate_endpoint_slice_update(new: &EndpointSlice, old: &EndpointSlice) -> ErrorList {
    let mut errs = endpoint_slice(new, Some(old));
    if new.address_type != old.address_type {
        errs.push(Error::invalid(
            &Path::new("addressType"),
            crate::validation::declarative::immutable_value(|| {
                BadValue::json_string(&new.address_type)
            }),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}

/// Go's `ValidateEndpointSlice`.
fn endpoint_slice(slice: &EndpointSlice, old: Option<&EndpointSlice>) -> ErrorList {
    let mut errs = validate_object_meta(
        &slice.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let at = Path::new("addressType");
    if slice.address_type.is_empty() {
        errs.push(Error::required(&at, ""));
    } else if !ADDRESS_TYPES.contains(&slice.address_type.as_str()) {
        errs.push(Error::not_supported(
            &at,
            BadValue::json_string(&slice.address_type),
            ADDRESS_TYPES,
        ));
    }
    errs.extend(validate_ports(
        slice.ports.as_deref().unwrap_or_default(),
        &Path::new("ports"),
    ));
    let endpoints = slice.endpoints.as_deref().unwrap_or_default();
    let found = validate_endpoints(endpoints, &slice.address_type, &Path::new("endpoints"));
    // Unchanged endpoints are not judged again (older servers took what fails today).
    let unchanged = old.is_some_and(|o| o.endpoints.as_deref().unwrap_or_default() == endpoints);
    if !unchanged {
        errs.extend(found);
    }
    errs
}

/// Go's `validateEndpoints`.
fn validate_endpoints(endpoints: &[Endpoint], address_type: &str, path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    if endpoints.len() > MAX_ENDPOINTS {
        errs.push(Error::too_many(
            path,
            count(endpoints.len()),
            count(MAX_ENDPOINTS),
        ));
        return errs;
    }
    for (i, ep) in endpoints.iter().enumerate() {
        let p = path.index(i);
        let ap = p.child("addresses");
        let addresses = ep.addresses.as_deref().unwrap_or_default();
        if addresses.is_empty() {
            errs.push(Error::required(
                &ap,
                crate::validation::declarative::required_detail(
                    "must contain at least 1 address",
                    true,
                ),
            ));
        } else if addresses.len() > MAX_ADDRESSES {
            errs.push(Error::too_many(
                &ap,
                count(addresses.len()),
                count(MAX_ADDRESSES),
            ));
        }
        for (j, address) in addresses.iter().enumerate() {
            address_of_type(address, address_type, &ap, j, &mut errs);
        }
        if let Some(node) = &ep.node_name {
            let np = p.child("nodeName");
            invalid_each(&mut errs, &np, node, name_is_dns_subdomain(node, false));
        }
        let tp = p.child("deprecatedTopology");
        if ep.deprecated_topology.len() > MAX_TOPOLOGY_LABELS {
            errs.push(Error::too_many(
                &tp,
                count(ep.deprecated_topology.len()),
                count(MAX_TOPOLOGY_LABELS),
            ));
        }
        errs.extend(validate_labels(&ep.deprecated_topology, &tp));
        if ep.deprecated_topology.contains_key(LABEL_TOPOLOGY_ZONE) {
            let why = std::io::Error::other("reserved key was not removed in conversion");
            errs.push(Error::internal_error(&tp.key(LABEL_TOPOLOGY_ZONE), &why));
        }
        if let Some(host) = &ep.hostname {
            let hp = p.child("hostname");
            invalid_each(&mut errs, &hp, host, is_dns1123_label(host));
        }
        if let Some(hints) = &ep.hints {
            validate_hints(hints, &p.child("hints"), &mut errs);
        }
    }
    errs
}

/// One address, by the slice's type (an unknown type is not checked: the type's own
/// error says it).
fn address_of_type(address: &str, address_type: &str, ap: &Path, j: usize, errs: &mut ErrorList) {
    let ip = ap.index(j);
    match address_type {
        "IPv4" => {
            let found = is_valid_ip_for_legacy_field(&ip, address, true, &[]);
            if !found.is_empty() {
                errs.extend(found);
                return;
            }
            if parse_ip_sloppy(address).is_none_or(|p| p.to4().is_none()) {
                errs.push(Error::invalid(ap, address, "must be an IPv4 address"));
            }
            errs.extend(validate_endpoint_ip(address, &ip));
        }
        "IPv6" => {
            let found = is_valid_ip(&ip, address);
            if !found.is_empty() {
                errs.extend(found);
                return;
            }
            if parse_ip_sloppy(address).is_none_or(|p| p.to4().is_some()) {
                errs.push(Error::invalid(ap, address, "must be an IPv6 address"));
            }
            errs.extend(validate_endpoint_ip(address, &ip));
        }
        "FQDN" => errs.extend(is_fully_qualified_domain_name(&ip, address)),
        _ => {}
    }
}

/// Go's `validatePorts`: DNS-1123 label names, unique, a known protocol, a qualified
/// `appProtocol`.
fn validate_ports(ports: &[EndpointPort], path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    if ports.len() > MAX_PORTS {
        errs.push(Error::too_many(path, count(ports.len()), count(MAX_PORTS)));
        return errs;
    }
    let mut names: Vec<&str> = Vec::with_capacity(ports.len());
    for (i, port) in ports.iter().enumerate() {
        let p = path.index(i);
        // Defaulting fills the name and protocol; a port that skipped it is taken as
        // having the defaults' empty name.
        let name = port.name.as_deref().unwrap_or_default();
        let np = p.child("name");
        if !name.is_empty() {
            invalid_each(&mut errs, &np, name, is_dns1123_label(name));
        }
        if names.contains(&name) {
            errs.push(Error::duplicate(&np, BadValue::json_string(name)));
        } else {
            names.push(name);
        }
        let pp = p.child("protocol");
        match &port.protocol {
            None => errs.push(Error::required(&pp, "")),
            Some(proto) if !PORT_PROTOCOLS.contains(&proto.as_str()) => {
                errs.push(Error::not_supported(
                    &pp,
                    BadValue::json_string(proto),
                    PORT_PROTOCOLS,
                ));
            }
            Some(_) => {}
        }
        if let Some(app) = &port.app_protocol {
            let ap = p.child("appProtocol");
            invalid_each(&mut errs, &ap, app, is_qualified_name(app));
        }
    }
    errs
}

/// Go's `validateHints`: at most 8 zones and 8 nodes, each named once, zones as label
/// values, nodes as DNS subdomains.
fn validate_hints(hints: &EndpointHints, path: &Path, errs: &mut ErrorList) {
    let zp = path.child("forZones");
    if hints.for_zones.len() > MAX_ZONE_HINTS {
        errs.push(Error::too_many(
            &zp,
            count(hints.for_zones.len()),
            count(MAX_ZONE_HINTS),
        ));
        return;
    }
    let mut seen: Vec<&str> = Vec::new();
    for (i, zone) in hints.for_zones.iter().enumerate() {
        let idx = zp.index(i);
        let p = idx.child("name");
        if seen.contains(&zone.name.as_str()) {
            errs.push(Error::duplicate(&p, zone.name.as_str()));
        } else {
            seen.push(&zone.name);
        }
        invalid_each(errs, &p, &zone.name, is_valid_label_value(&zone.name));
    }
    let np = path.child("forNodes");
    if hints.for_nodes.len() > MAX_NODE_HINTS {
        errs.push(Error::too_many(
            &np,
            count(hints.for_nodes.len()),
            count(MAX_NODE_HINTS),
        ));
        return;
    }
    let mut seen: Vec<&str> = Vec::new();
    for (i, node) in hints.for_nodes.iter().enumerate() {
        let idx = np.index(i);
        let p = idx.child("name");
        if seen.contains(&node.name.as_str()) {
            errs.push(Error::duplicate(&p, node.name.as_str()));
        } else {
            seen.push(&node.name);
        }
        invalid_each(
            errs,
            &p,
            &node.name,
            name_is_dns_subdomain(&node.name, false),
        );
    }
}

/// A length as Go's `int`.
fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}
