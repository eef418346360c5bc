//! Ingress (Go's `ValidateIngressCreate`, `ValidateIngressUpdate` and
//! `ValidateIngressStatusUpdate`).

use apimachinery::apis::meta::v1::validation::{
    name_is_dns_label, name_is_dns_subdomain, name_is_dns1035_label, validate_path_segment_name,
};
use apimachinery::util::validation::domain::is_wildcard_dns1123_subdomain;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::ip::{is_valid_ip_for_legacy_field, parse_ip_sloppy};
use apimachinery::util::validation::{is_dns1123_subdomain, is_valid_port_name, is_valid_port_num};

use crate::core::v1::TypedLocalObjectReference;
use crate::networking::v1::{
    HTTPIngressPath, HTTPIngressRuleValue, Ingress, IngressBackend, IngressSpec,
};
use crate::validation::go_value::go_list;
use crate::validation::invalid_each;
use crate::validation::{validate_object_meta, validate_object_meta_update};

/// Go's `annotationIngressClass`: the class annotation that predates `ingressClassName`.
const ANNOTATION_INGRESS_CLASS: &str = "kubernetes.io/ingress.class";

/// Go's `IngressValidationOptions`: what an update may keep of its old object.
#[derive(Clone, Copy, Debug, Default)]
struct Options {
    /// Some TLS secret name of the old object was invalid.
    allow_invalid_secret_name: bool,
    /// Some wildcard rule of the old object had an invalid value.
    allow_invalid_wildcard_host_rule: bool,
    /// Service names are DNS labels rather than DNS-1035 labels: always, with
    /// `RelaxedServiceNameValidation` on (its default), except where Go checks an old
    /// object's rules with the zero options.
    relaxed_service_names: bool,
}

impl Options {
    fn create() -> Self {
        Options {
            relaxed_service_names: true,
            ..Options::default()
        }
    }
}

/// Go's `ValidateIngressCreate`: the spec, and the class annotation, when set beside
/// `ingressClassName`, equal to it.
pub fn validate_ingress(ing: &Ingress) -> ErrorList {
    let mut errs = validate(ing, Options::create());
    let annotation = ing.metadata.annotations.get(ANNOTATION_INGRESS_CLASS);
    if let (Some(a), Some(class)) = (annotation, &ing.spec.ingress_class_name) {
        if a != class {
            errs.push(Error::invalid(
                &Path::new("annotations").child(ANNOTATION_INGRESS_CLASS),
                a,
                "must match `ingressClassName` when both are specified",
            ));
        }
    }
    errs
}

/// Go's `ValidateIngressStatusUpdate`: the metadata update, and the load balancer's
/// ingress points (Go's `ValidateIngressLoadBalancerStatus`): valid IPs (those the old
/// status had kept as they were), hostnames that are DNS names and not IPs.
pub fn validate_ingress_status_update(new: &Ingress, old: &Ingress) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let existing: Vec<String> = old
        .status
        .load_balancer
        .ingress
        .iter()
        .filter(|i| !i.ip.is_empty())
        .map(|i| i.ip.clone())
        .collect();
    let status = Path::new("status");
    let load_balancer = status.child("loadBalancer");
    let path = load_balancer.child("ingress");
    for (i, ingress) in new.status.load_balancer.ingress.iter().enumerate() {
        let p = path.index(i);
        if !ingress.ip.is_empty() {
            errs.extend(is_valid_ip_for_legacy_field(
                &p.child("ip"),
                &ingress.ip,
                crate::validation::STRICT_IP_CIDR,
                &existing,
            ));
        }
        if !ingress.hostname.is_empty() {
            crate::validation::load_balancer_hostname(
                &ingress.hostname,
                &p.child("hostname"),
                &mut errs,
            );
        }
    }
    errs
}

/// Go's `ValidateIngressUpdate`: the spec again, keeping the invalid TLS secret names
/// and wildcard rules the old object had.
pub fn validate_ingress_update(new: &Ingress, old: &Ingress) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let opts = Options {
        allow_invalid_secret_name: old
            .spec
            .tls
            .iter()
            .any(|t| !tls_secret_name_messages(&t.secret_name).is_empty()),
        allow_invalid_wildcard_host_rule: old.spec.rules.iter().any(|r| {
            r.host.contains('*') && {
                let mut e = ErrorList::default();
                rule_value(r.http.as_ref(), &Path::root(), Options::default(), &mut e);
                !e.is_empty()
            }
        }),
        relaxed_service_names: true,
    };
    errs.extend(validate(new, opts));
    errs
}

fn validate(ing: &Ingress, opts: Options) -> ErrorList {
    let mut errs = validate_object_meta(
        &ing.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    validate_spec(&ing.spec, &Path::new("spec"), opts, &mut errs);
    errs
}

/// Go's `ValidateIngressSpec`.
fn validate_spec(spec: &IngressSpec, fld: &Path, opts: Options, errs: &mut ErrorList) {
    if spec.rules.is_empty() && spec.default_backend.is_none() {
        errs.push(Error::invalid(
            fld,
            go_list(&spec.rules),
            "either `defaultBackend` or `rules` must be specified",
        ));
    }
    if let Some(b) = &spec.default_backend {
        validate_backend(b, &fld.child("defaultBackend"), opts, errs);
    }
    let rules = fld.child("rules");
    for (i, rule) in spec.rules.iter().enumerate() {
        let p = rules.index(i);
        let mut wildcard = false;
        if !rule.host.is_empty() {
            let hp = p.child("host");
            if parse_ip_sloppy(&rule.host).is_some() {
                errs.push(Error::invalid(
                    &hp,
                    &rule.host,
                    "must be a DNS name, not an IP address",
                ));
            }
            if rule.host.contains('*') {
                invalid_each(
                    errs,
                    &hp,
                    &rule.host,
                    is_wildcard_dns1123_subdomain(&rule.host),
                );
                wildcard = true;
            } else {
                invalid_each(errs, &hp, &rule.host, is_dns1123_subdomain(&rule.host));
            }
        }
        if !wildcard || !opts.allow_invalid_wildcard_host_rule {
            rule_value(rule.http.as_ref(), &p, opts, errs);
        }
    }
    let tls = fld.child("tls");
    for (i, t) in spec.tls.iter().enumerate() {
        let tp = tls.index(i);
        let hosts = tp.child("hosts");
        for (j, host) in t.hosts.iter().enumerate() {
            let msgs = if host.contains('*') {
                is_wildcard_dns1123_subdomain(host)
            } else {
                is_dns1123_subdomain(host)
            };
            invalid_each(errs, &hosts.index(j), host, msgs);
        }
        if !opts.allow_invalid_secret_name {
            invalid_each(
                errs,
                &tp.child("secretName"),
                &t.secret_name,
                tls_secret_name_messages(&t.secret_name),
            );
        }
    }
    if let Some(class) = &spec.ingress_class_name {
        invalid_each(
            errs,
            &fld.child("ingressClassName"),
            class,
            name_is_dns_subdomain(class, false),
        );
    }
}

/// Go's `validateTLSSecretName`: a Secret's name, when given.
fn tls_secret_name_messages(name: &str) -> Vec<String> {
    if name.is_empty() {
        Vec::new()
    } else {
        name_is_dns_subdomain(name, false)
    }
}

/// Go's `validateIngressRuleValue`: the HTTP paths, at least one.
fn rule_value(
    http: Option<&HTTPIngressRuleValue>,
    fld: &Path,
    opts: Options,
    errs: &mut ErrorList,
) {
    let Some(http) = http else {
        return;
    };
    let hp = fld.child("http");
    let paths = http.paths.as_deref().unwrap_or_default();
    if paths.is_empty() {
        errs.push(Error::required(&hp.child("paths"), ""));
    }
    let list = hp.child("paths");
    for (j, path) in paths.iter().enumerate() {
        validate_path(path, &list.index(j), opts, errs);
    }
}

/// Go's `validateHTTPIngressPath`.
fn validate_path(path: &HTTPIngressPath, fld: &Path, opts: Options, errs: &mut ErrorList) {
    let pp = fld.child("path");
    let Some(path_type) = path.path_type.as_deref() else {
        errs.push(Error::required(
            &fld.child("pathType"),
            "pathType must be specified",
        ));
        return;
    };
    match path_type {
        "Exact" | "Prefix" => {
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
        "ImplementationSpecific" => {
            if !path.path.is_empty() && !path.path.starts_with('/') {
                errs.push(Error::invalid(&pp, &path.path, "must be an absolute path"));
            }
        }
        other => errs.push(Error::not_supported(
            &fld.child("pathType"),
            BadValue::json_string(other),
            &["Exact", "ImplementationSpecific", "Prefix"],
        )),
    }
    validate_backend(&path.backend, &fld.child("backend"), opts, errs);
}

/// Go's `validateIngressBackend`: a resource or a service with a port name or number.
fn validate_backend(b: &IngressBackend, fld: &Path, opts: Options, errs: &mut ErrorList) {
    match (&b.service, &b.resource) {
        (Some(_), Some(_)) => errs.push(Error::invalid(
            fld,
            "",
            "cannot set both resource and service backends",
        )),
        (None, Some(r)) => typed_local_object_reference(r, &fld.child("resource"), errs),
        (Some(s), None) => {
            let sp = fld.child("service");
            if s.name.is_empty() {
                errs.push(Error::required(&sp.child("name"), ""));
            } else {
                let msgs = if opts.relaxed_service_names {
                    name_is_dns_label(&s.name, false)
                } else {
                    name_is_dns1035_label(&s.name, false)
                };
                invalid_each(errs, &sp.child("name"), &s.name, msgs);
            }
            let (name, number) = (&s.port.name, s.port.number);
            let port = sp.child("port");
            if !name.is_empty() && number != 0 {
                errs.push(Error::invalid(
                    fld,
                    "",
                    "cannot set both port name & port number",
                ));
            } else if !name.is_empty() {
                invalid_each(errs, &port.child("name"), name, is_valid_port_name(name));
            } else if number != 0 {
                for msg in is_valid_port_num(i64::from(number)) {
                    errs.push(Error::invalid(&port.child("number"), number, msg));
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

/// Go's `validateIngressTypedLocalObjectReference`: a DNS-subdomain API group, and a
/// kind and name that are path segments.
fn typed_local_object_reference(r: &TypedLocalObjectReference, fld: &Path, errs: &mut ErrorList) {
    if let Some(g) = &r.api_group {
        invalid_each(errs, &fld.child("apiGroup"), g, is_dns1123_subdomain(g));
    }
    for (field, value) in [("kind", &r.kind), ("name", &r.name)] {
        let p = fld.child(field);
        if value.is_empty() {
            errs.push(Error::required(&p, ""));
        } else {
            invalid_each(errs, &p, value, validate_path_segment_name(value, false));
        }
    }
}
