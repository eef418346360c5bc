//! Service validation (Go's `ValidateServiceCreate`, `ValidateServiceUpdate` and
//! `ValidateServiceStatusUpdate` in `pkg/apis/core/validation`): ports, selector,
//! session affinity, the clusterIP/clusterIPs/ipFamilies/ipFamilyPolicy rules and their
//! dual-stack upgrades and downgrades, external IPs, load-balancer fields, traffic
//! policies, health-check node port and ExternalName. Feature gates at their 1.36
//! defaults: `RelaxedServiceNameValidation` (names are DNS-1123 labels),
//! `StrictIPCIDRValidation` and `PreferSameTrafficDistribution` on.
//!
//! Go prints a bad value of a named string type (`ServiceType`, `IPFamily`, ...) or of a
//! pointer through `json.Marshal`, and a plain `string` with `%q`; the values below
//! follow the Go type of each field.

use std::collections::BTreeSet;

use apimachinery::apis::meta::v1::validation::{name_is_dns_label, validate_labels};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::ip::{
    is_valid_cidr_for_legacy_field, is_valid_ip_for_legacy_field, parse_ip_sloppy,
};
use apimachinery::util::validation::{
    is_dns1123_label, is_dns1123_subdomain, is_qualified_name, is_valid_port_num,
};

use super::super::{invalid_each, validate_object_meta, validate_object_meta_update};
use super::service_ips::{
    STRICT_IP_CIDR, cluster_ips_related, external_ips, is_headless, opt_typed, typed,
    upgrade_downgrade_cluster_ips, upgrade_downgrade_ip_families,
};
use super::{SUPPORTED_PORT_PROTOCOLS, validate_port_num_or_name};
use crate::core::v1::{LoadBalancerStatus, Service, ServicePort};

const SERVICE_TYPES: &[&str] = &["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
const SESSION_AFFINITIES: &[&str] = &["ClientIP", "None"];
const EXTERNAL_TRAFFIC_POLICIES: &[&str] = &["Cluster", "Local"];
const INTERNAL_TRAFFIC_POLICIES: &[&str] = &["Cluster", "Local"];
/// In Go's order (a list, not a set): `PreferSameTrafficDistribution` is GA in 1.36.
const TRAFFIC_DISTRIBUTIONS: &[&str] = &["PreferClose", "PreferSameZone", "PreferSameNode"];
const LOAD_BALANCER_IP_MODES: &[&str] = &["Proxy", "VIP"];
/// Go's `core.MaxClientIPServiceAffinitySeconds`.
const MAX_CLIENT_IP_AFFINITY_SECONDS: i32 = 86400;

const ANNOTATION_TOPOLOGY_HINTS: &str = "service.kubernetes.io/topology-aware-hints";
const ANNOTATION_TOPOLOGY_MODE: &str = "service.kubernetes.io/topology-mode";
const ANNOTATION_SOURCE_RANGES: &str = "service.beta.kubernetes.io/load-balancer-source-ranges";

/// A required enumeration whose Go type is a named string.
fn typed_one_of(value: &str, allowed: &[&str], path: &Path, errs: &mut ErrorList) {
    if value.is_empty() {
        errs.push(Error::required(path, ""));
    } else if !allowed.contains(&value) {
        errs.push(Error::not_supported(path, typed(value), allowed));
    }
}

/// Go's `apiservice.ExternallyAccessible`.
fn externally_accessible(svc: &Service) -> bool {
    let t = svc.spec.r#type.as_str();
    t == "LoadBalancer"
        || t == "NodePort"
        || (t == "ClusterIP" && !svc.spec.external_ips.is_empty())
}

/// Go's `apiservice.NeedsHealthCheck`: a LoadBalancer with `externalTrafficPolicy: Local`.
fn needs_health_check(svc: &Service) -> bool {
    svc.spec.r#type == "LoadBalancer" && svc.spec.external_traffic_policy == "Local"
}

/// Go's `ValidateServiceCreate`: metadata (a DNS-1123 label name, Go's
/// `RelaxedServiceNameValidation`) and the Service.
pub fn validate_service(svc: &Service) -> ErrorList {
    let mut errs = validate_object_meta(
        &svc.metadata,
        true,
        name_is_dns_label,
        &Path::new("metadata"),
    );
    errs.extend(validate_service_spec(svc, None));
    errs
}

/// Go's `ValidateServiceUpdate`: metadata kept, clusterIPs and ipFamilies changed only by
/// a dual-stack upgrade or downgrade, `loadBalancerClass` and a LoadBalancer's
/// `healthCheckNodePort` kept, and the new Service valid (external IPs, source ranges and
/// clusterIPs the old one had accepted as they were).
pub fn validate_service_update(new: &Service, old: &Service) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    upgrade_downgrade_cluster_ips(old, new, &mut errs);
    upgrade_downgrade_ip_families(old, new, &mut errs);
    load_balancer_class(Some(old), new, &mut errs);
    if needs_health_check(old)
        && needs_health_check(new)
        && new.spec.health_check_node_port != old.spec.health_check_node_port
    {
        errs.push(Error::forbidden(
            &Path::new("spec").child("healthCheckNodePort"),
            "field is immutable",
        ));
    }
    errs.extend(validate_service_spec(new, Some(old)));
    errs
}

/// Go's `ValidateServiceStatusUpdate`: metadata kept and the load balancer's status.
pub fn validate_service_status_update(new: &Service, old: &Service) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(validate_load_balancer_status(
        &new.status.load_balancer,
        Some(&old.status.load_balancer),
        &Path::new("status").child("loadBalancer"),
        &new.spec.r#type,
    ));
    errs
}

/// Go's `ValidateLoadBalancerStatus`: ingress only for LoadBalancer Services, valid IPs
/// (those the old status had kept as they were), `ipMode` with `ip` only, hostnames that
/// are DNS names and not IPs.
pub fn validate_load_balancer_status(
    status: &LoadBalancerStatus,
    old: Option<&LoadBalancerStatus>,
    path: &Path,
    service_type: &str,
) -> ErrorList {
    let mut errs = ErrorList::default();
    let ingress_path = path.child("ingress");
    if service_type != "LoadBalancer" && !status.ingress.is_empty() {
        errs.push(Error::forbidden(
            &ingress_path,
            "may only be used when `spec.type` is 'LoadBalancer'",
        ));
        return errs;
    }
    let existing: Vec<String> = old
        .map(|o| {
            o.ingress
                .iter()
                .filter(|i| !i.ip.is_empty())
                .map(|i| i.ip.clone())
                .collect()
        })
        .unwrap_or_default();
    for (i, ingress) in status.ingress.iter().enumerate() {
        let p = ingress_path.index(i);
        if !ingress.ip.is_empty() {
            errs.extend(is_valid_ip_for_legacy_field(
                &p.child("ip"),
                &ingress.ip,
                STRICT_IP_CIDR,
                &existing,
            ));
        }
        match &ingress.ip_mode {
            None if !ingress.ip.is_empty() => errs.push(Error::required(
                &p.child("ipMode"),
                "must be specified when `ip` is set",
            )),
            None => {}
            Some(_) if ingress.ip.is_empty() => errs.push(Error::forbidden(
                &p.child("ipMode"),
                "may not be specified when `ip` is not set",
            )),
            Some(mode) if !LOAD_BALANCER_IP_MODES.contains(&mode.as_str()) => {
                errs.push(Error::not_supported(
                    &p.child("ipMode"),
                    opt_typed(&ingress.ip_mode),
                    LOAD_BALANCER_IP_MODES,
                ));
            }
            Some(_) => {}
        }
        if !ingress.hostname.is_empty() {
            load_balancer_hostname(&ingress.hostname, &p.child("hostname"), &mut errs);
        }
    }
    errs
}

/// A load balancer's ingress hostname (a Service's, an Ingress's): a DNS name, not an
/// IP address.
pub(crate) fn load_balancer_hostname(hostname: &str, path: &Path, errs: &mut ErrorList) {
    invalid_each(errs, path, hostname, is_dns1123_subdomain(hostname));
    if parse_ip_sloppy(hostname).is_some() {
        errs.push(Error::invalid(
            path,
            hostname,
            "must be a DNS name, not an IP address",
        ));
    }
}

/// Go's unexported `validateService`: everything but the metadata.
fn validate_service_spec(svc: &Service, old: Option<&Service>) -> ErrorList {
    let mut errs = ErrorList::default();
    let spec = &svc.spec;
    let annotations = &svc.metadata.annotations;
    if let (Some(mode), Some(hints)) = (
        annotations.get(ANNOTATION_TOPOLOGY_MODE),
        annotations.get(ANNOTATION_TOPOLOGY_HINTS),
    ) && mode != hints
    {
        errs.push(Error::invalid(
            &Path::new("metadata")
                .child("annotations")
                .key(ANNOTATION_TOPOLOGY_MODE),
            mode.as_str(),
            format!("must match annotations[{ANNOTATION_TOPOLOGY_HINTS}] when both are specified"),
        ));
    }
    let sp = Path::new("spec");
    let headless = is_headless(svc);
    if spec.ports.is_empty() && !headless && spec.r#type != "ExternalName" {
        errs.push(Error::required(&sp.child("ports"), ""));
    }
    match spec.r#type.as_str() {
        t @ ("LoadBalancer" | "NodePort") if headless => errs.push(Error::invalid(
            &sp.child("clusterIPs").index(0),
            spec.cluster_ips[0].as_str(),
            format!("may not be set to 'None' for {t} services"),
        )),
        "ExternalName" => external_name(svc, &sp, &mut errs),
        _ => {}
    }
    let mut names = BTreeSet::new();
    let ports_path = sp.child("ports");
    for (i, port) in spec.ports.iter().enumerate() {
        service_port(
            port,
            spec.ports.len() > 1,
            &mut names,
            &ports_path.index(i),
            &mut errs,
        );
    }
    errs.extend(validate_labels(&spec.selector, &sp.child("selector")));
    session_affinity(svc, &sp, &mut errs);
    cluster_ips_related(svc, old, &mut errs);
    external_ips(svc, old, &sp, &mut errs);
    typed_one_of(&spec.r#type, SERVICE_TYPES, &sp.child("type"), &mut errs);
    if spec.r#type == "ClusterIP" {
        for (i, port) in spec.ports.iter().enumerate() {
            if port.node_port != 0 {
                errs.push(Error::forbidden(
                    &ports_path.index(i).child("nodePort"),
                    "may not be used when `type` is 'ClusterIP'",
                ));
            }
        }
    }
    duplicate_ports(&spec.ports, &ports_path, &mut errs);
    source_ranges(svc, old, &mut errs);
    if spec.allocate_load_balancer_node_ports.is_some() && spec.r#type != "LoadBalancer" {
        errs.push(Error::forbidden(
            &sp.child("allocateLoadBalancerNodePorts"),
            "may only be used when `type` is 'LoadBalancer'",
        ));
    }
    if spec.r#type == "LoadBalancer" && spec.allocate_load_balancer_node_ports.is_none() {
        // Go's path has no `spec.` here.
        errs.push(Error::required(
            &Path::new("allocateLoadBalancerNodePorts"),
            "",
        ));
    }
    load_balancer_class(None, svc, &mut errs);
    traffic_policies(svc, &sp, &mut errs);
    errs
}

/// An ExternalName Service: no cluster IPs, families or policy; a DNS name to point at
/// (a trailing dot allowed).
fn external_name(svc: &Service, sp: &Path, errs: &mut ErrorList) {
    let spec = &svc.spec;
    for (set, field) in [
        (!spec.cluster_ips.is_empty(), "clusterIPs"),
        (!spec.ip_families.is_empty(), "ipFamilies"),
        (spec.ip_family_policy.is_some(), "ipFamilyPolicy"),
    ] {
        if set {
            errs.push(Error::forbidden(
                &sp.child(field),
                "may not be set for ExternalName services",
            ));
        }
    }
    let cname = spec
        .external_name
        .strip_suffix('.')
        .unwrap_or(&spec.external_name);
    if cname.is_empty() {
        errs.push(Error::required(&sp.child("externalName"), ""));
    } else {
        invalid_each(
            errs,
            &sp.child("externalName"),
            cname,
            is_dns1123_subdomain(cname),
        );
    }
}

/// Go's `validateServicePort`.
fn service_port<'a>(
    port: &'a ServicePort,
    require_name: bool,
    names: &mut BTreeSet<&'a str>,
    p: &Path,
    errs: &mut ErrorList,
) {
    if require_name && port.name.is_empty() {
        errs.push(Error::required(&p.child("name"), ""));
    } else if !port.name.is_empty() {
        invalid_each(
            errs,
            &p.child("name"),
            &port.name,
            is_dns1123_label(&port.name),
        );
        if !names.insert(port.name.as_str()) {
            errs.push(Error::duplicate(&p.child("name"), port.name.as_str()));
        }
    }
    for msg in is_valid_port_num(i64::from(port.port)) {
        errs.push(Error::invalid(&p.child("port"), port.port, msg));
    }
    typed_one_of(
        &port.protocol,
        SUPPORTED_PORT_PROTOCOLS,
        &p.child("protocol"),
        errs,
    );
    errs.extend(validate_port_num_or_name(
        &port.target_port,
        &p.child("targetPort"),
    ));
    if let Some(app) = &port.app_protocol {
        invalid_each(errs, &p.child("appProtocol"), app, is_qualified_name(app));
    }
}

/// Session affinity, and its config required with `ClientIP`, forbidden with `None`.
fn session_affinity(svc: &Service, sp: &Path, errs: &mut ErrorList) {
    let spec = &svc.spec;
    typed_one_of(
        &spec.session_affinity,
        SESSION_AFFINITIES,
        &sp.child("sessionAffinity"),
        errs,
    );
    let cp = sp.child("sessionAffinityConfig");
    match spec.session_affinity.as_str() {
        "ClientIP" => {
            let detail = "when session affinity type is ClientIP";
            let Some(config) = &spec.session_affinity_config else {
                errs.push(Error::required(&cp, detail));
                return;
            };
            let Some(client_ip) = &config.client_ip else {
                errs.push(Error::required(&cp.child("clientIP"), detail));
                return;
            };
            let cip = cp.child("clientIP");
            let tp = cip.child("timeoutSeconds");
            match client_ip.timeout_seconds {
                None => errs.push(Error::required(&tp, detail)),
                Some(t) if t <= 0 || t > MAX_CLIENT_IP_AFFINITY_SECONDS => {
                    errs.push(Error::invalid(
                        &tp,
                        t,
                        format!(
                            "must be greater than 0 and less than {MAX_CLIENT_IP_AFFINITY_SECONDS}"
                        ),
                    ));
                }
                Some(_) => {}
            }
        }
        "None" if spec.session_affinity_config.is_some() => errs.push(Error::forbidden(
            &cp,
            "must not be set when session affinity is None",
        )),
        _ => {}
    }
}

/// Duplicate node ports and ports, each by (protocol, number).
fn duplicate_ports(ports: &[ServicePort], ports_path: &Path, errs: &mut ErrorList) {
    let mut node_ports = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        if port.node_port != 0 && !node_ports.insert((port.protocol.as_str(), port.node_port)) {
            errs.push(Error::duplicate(
                &ports_path.index(i).child("nodePort"),
                port.node_port,
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        if !seen.insert((port.protocol.as_str(), port.port)) {
            // Go prints its internal `core.ServicePort` key (no JSON tags), only
            // protocol and port set.
            let protocol = match typed(&port.protocol) {
                BadValue::Json(s) => s,
                _ => String::new(),
            };
            errs.push(Error::duplicate(
                &ports_path.index(i),
                BadValue::Json(format!(
                    "{{\"Name\":\"\",\"Protocol\":{protocol},\"AppProtocol\":null,\"Port\":{},\"TargetPort\":0,\"NodePort\":0}}",
                    port.port
                )),
            ));
        }
    }
}

/// `loadBalancerSourceRanges` (or, without it, its older annotation): LoadBalancer only,
/// CIDRs (space-padding allowed, values the old Service had kept).
fn source_ranges(svc: &Service, old: Option<&Service>, errs: &mut ErrorList) {
    let spec = &svc.spec;
    let not_lb = spec.r#type != "LoadBalancer";
    let lb_only = "may only be used when `type` is 'LoadBalancer'";
    if !spec.load_balancer_source_ranges.is_empty() {
        // Go's path spells the field with a capital L.
        let spec_path = Path::new("spec");
        let path = spec_path.child("LoadBalancerSourceRanges");
        if not_lb {
            errs.push(Error::forbidden(&path, lb_only));
        }
        let existing: Vec<String> = old
            .map(|o| {
                o.spec
                    .load_balancer_source_ranges
                    .iter()
                    .map(|v| v.trim().to_string())
                    .collect()
            })
            .unwrap_or_default();
        for (i, value) in spec.load_balancer_source_ranges.iter().enumerate() {
            errs.extend(is_valid_cidr_for_legacy_field(
                &path.index(i),
                value.trim(),
                STRICT_IP_CIDR,
                &existing,
            ));
        }
    } else if let Some(val) = svc.metadata.annotations.get(ANNOTATION_SOURCE_RANGES) {
        let meta = Path::new("metadata");
        let annotations = meta.child("annotations");
        let path = annotations.key(ANNOTATION_SOURCE_RANGES);
        if not_lb {
            errs.push(Error::forbidden(&path, lb_only));
        }
        let unchanged =
            old.is_some_and(|o| o.metadata.annotations.get(ANNOTATION_SOURCE_RANGES) == Some(val));
        let val = val.trim();
        if !unchanged && !val.is_empty() {
            for cidr in val.split(',') {
                errs.extend(is_valid_cidr_for_legacy_field(
                    &path,
                    cidr.trim(),
                    STRICT_IP_CIDR,
                    &[],
                ));
            }
        }
    }
}

/// Go's `validateLoadBalancerClassField`: kept while a LoadBalancer stays one, a
/// qualified name, and only on LoadBalancers.
fn load_balancer_class(old: Option<&Service>, svc: &Service, errs: &mut ErrorList) {
    let sp = Path::new("spec");
    let path = sp.child("loadBalancerClass");
    let class = &svc.spec.load_balancer_class;
    let is_lb = svc.spec.r#type == "LoadBalancer";
    if let Some(old) = old
        && old.spec.r#type == "LoadBalancer"
        && is_lb
        && old.spec.load_balancer_class != *class
    {
        errs.push(Error::invalid(
            &path,
            opt_typed(class),
            "may not change once set",
        ));
    }
    match class {
        Some(c) if is_lb => invalid_each(errs, &path, c, is_qualified_name(c)),
        Some(_) => errs.push(Error::forbidden(
            &path,
            "may only be used when `type` is 'LoadBalancer'",
        )),
        None => {}
    }
}

/// External and internal traffic policies, the health-check node port, and
/// `trafficDistribution`.
fn traffic_policies(svc: &Service, sp: &Path, errs: &mut ErrorList) {
    let spec = &svc.spec;
    let etp = sp.child("externalTrafficPolicy");
    if !externally_accessible(svc) {
        if !spec.external_traffic_policy.is_empty() {
            errs.push(Error::invalid(
                &etp,
                typed(&spec.external_traffic_policy),
                "may only be set for externally-accessible services",
            ));
        }
    } else {
        typed_one_of(
            &spec.external_traffic_policy,
            EXTERNAL_TRAFFIC_POLICIES,
            &etp,
            errs,
        );
    }
    let hc = sp.child("healthCheckNodePort");
    if !needs_health_check(svc) {
        if spec.health_check_node_port != 0 {
            errs.push(Error::invalid(
                &hc,
                spec.health_check_node_port,
                "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
            ));
        }
    } else if spec.health_check_node_port == 0 {
        errs.push(Error::required(&hc, ""));
    } else {
        for msg in is_valid_port_num(i64::from(spec.health_check_node_port)) {
            errs.push(Error::invalid(&hc, spec.health_check_node_port, msg));
        }
    }
    let itp = sp.child("internalTrafficPolicy");
    match &spec.internal_traffic_policy {
        // Go does not forbid it on other types, for objects stored before it checked.
        None if matches!(
            spec.r#type.as_str(),
            "NodePort" | "LoadBalancer" | "ClusterIP"
        ) =>
        {
            errs.push(Error::required(&itp, ""));
        }
        Some(p) if !INTERNAL_TRAFFIC_POLICIES.contains(&p.as_str()) => {
            errs.push(Error::not_supported(
                &itp,
                typed(p),
                INTERNAL_TRAFFIC_POLICIES,
            ));
        }
        _ => {}
    }
    if let Some(td) = &spec.traffic_distribution
        && !TRAFFIC_DISTRIBUTIONS.contains(&td.as_str())
    {
        errs.push(Error::not_supported(
            &sp.child("trafficDistribution"),
            td.as_str(),
            TRAFFIC_DISTRIBUTIONS,
        ));
    }
}
