//! IPAddress and ServiceCIDR, the objects of Service IP allocation (Go's
//! `ValidateIPAddress` and `ValidateServiceCIDR`).

use apimachinery::apis::meta::v1::validation::{
    FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain, validate_path_segment_name,
};
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use apimachinery::util::validation::ip::{is_valid_cidr, is_valid_ip, parse_cidr_sloppy};
use apimachinery::util::validation::is_dns1123_subdomain;

use crate::networking::v1::{IPAddress, ParentReference, ServiceCIDR};
use crate::validation::declarative::immutable_value;
use crate::validation::go_value::{go_json, go_list};
use crate::validation::invalid_each;
use crate::validation::{validate_object_meta, validate_object_meta_update};

/// Go's `ValidateIPAddressName`: the name is an IP address in canonical form.
pub fn validate_ip_address_name(name: &str, _prefix: bool) -> Vec<String> {
    is_valid_ip(&Path::root(), name)
        .iter()
        .map(|e| e.detail.clone())
        .collect()
}

/// Go's `ValidateIPAddress`: the name, and a parent reference with a resource and a
/// name (path segments), a DNS-subdomain group and a path-segment namespace.
pub fn validate_ip_address(ip: &IPAddress) -> ErrorList {
    let mut errs = validate_object_meta(
        &ip.metadata,
        false,
        validate_ip_address_name,
        &Path::new("metadata"),
    );
    let sp = Path::new("spec");
    let rp = sp.child("parentRef");
    let Some(r) = &ip.spec.parent_ref else {
        errs.push(Error::required(&rp, ""));
        return errs;
    };
    if !r.group.is_empty() {
        invalid_each(
            &mut errs,
            &rp.child("group"),
            &r.group,
            is_dns1123_subdomain(&r.group),
        );
    }
    for (field, value) in [("resource", &r.resource), ("name", &r.name)] {
        let p = rp.child(field);
        if value.is_empty() {
            errs.push(Error::required(&p, ""));
        } else {
            invalid_each(
                &mut errs,
                &p,
                value,
                validate_path_segment_name(value, false),
            );
        }
    }
    if !r.namespace.is_empty() {
        invalid_each(
            &mut errs,
            &rp.child("namespace"),
            &r.namespace,
            validate_path_segment_name(&r.namespace, false),
        );
    }
    errs
}

/// Go's strategy on update: the object as on create, and `parentRef` kept.
pub fn validate_ip_address_update(new: &IPAddress, old: &IPAddress) -> ErrorList {
    let mut errs = validate_ip_address(new);
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        &Path::new("metadata"),
    ));
    if new.spec.parent_ref != old.spec.parent_ref {
        errs.push(Error::invalid(
            &Path::new("spec").child("parentRef"),
            immutable_value(|| go_json(&new.spec.parent_ref.as_ref().map(GoParentReference::of))),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}

/// Go's internal `networking.ParentReference`, as an error prints it.
#[derive(serde::Serialize)]
#[serde(rename_all = "PascalCase")]
struct GoParentReference<'a> {
    group: &'a str,
    resource: &'a str,
    namespace: &'a str,
    name: &'a str,
}

impl<'a> GoParentReference<'a> {
    fn of(r: &'a ParentReference) -> Self {
        GoParentReference {
            group: &r.group,
            resource: &r.resource,
            namespace: &r.namespace,
            name: &r.name,
        }
    }
}

/// Go's `ValidateServiceCIDR`.
pub fn validate_service_cidr(c: &ServiceCIDR) -> ErrorList {
    let mut errs = validate_object_meta(
        &c.metadata,
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    validate_cidrs(&c.spec.cidrs, &mut errs);
    errs
}

/// Go's `validateServiceCIDRSpec`: one or two canonical CIDRs, of different families.
fn validate_cidrs(cidrs: &[String], errs: &mut ErrorList) {
    let sp = Path::new("spec");
    let p = sp.child("cidrs");
    if cidrs.is_empty() {
        errs.push(Error::required(&p, "at least one CIDR required"));
        return;
    }
    if cidrs.len() > 2 {
        #[derive(serde::Serialize)]
        struct GoSpec<'a> {
            #[serde(rename = "CIDRs")]
            cidrs: &'a [String],
        }
        errs.push(Error::invalid(
            &p,
            go_json(&GoSpec { cidrs }),
            "may only hold up to 2 values",
        ));
        return;
    }
    for (i, cidr) in cidrs.iter().enumerate() {
        errs.extend(is_valid_cidr(&p.index(i), cidr));
    }
    if let [a, b] = cidrs {
        let family = |s: &str| parse_cidr_sloppy(s).map(|c| c.is_ipv4());
        if family(a).is_some() && family(a) == family(b) {
            errs.push(Error::invalid(
                &p,
                go_list(cidrs),
                "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64",
            ));
        }
    }
}

/// Go's `ValidateServiceCIDRStatusUpdate`, the `/status` validator: the metadata update
/// only.
pub fn validate_service_cidr_status_update(new: &ServiceCIDR, old: &ServiceCIDR) -> ErrorList {
    validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"))
}

/// Go's `ValidateServiceCIDRUpdate`: the CIDRs kept, but a second one of the other
/// family may be added to a single one.
pub fn validate_service_cidr_update(new: &ServiceCIDR, old: &ServiceCIDR) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let sp = Path::new("spec");
    let p = sp.child("cidrs");
    let (n, o) = (&new.spec.cidrs, &old.spec.cidrs);
    if n.len() == o.len() {
        for (i, (a, b)) in n.iter().zip(o).enumerate() {
            if a != b {
                errs.push(Error::invalid(&p.index(i), a, FIELD_IMMUTABLE_ERROR_MSG));
            }
        }
    } else if o.len() == 1 && n.len() == 2 {
        if n[0] != o[0] {
            errs.push(Error::invalid(
                &p.index(0),
                &n[0],
                FIELD_IMMUTABLE_ERROR_MSG,
            ));
        }
        validate_cidrs(n, &mut errs);
    } else {
        errs.push(Error::invalid(&p, go_list(n), FIELD_IMMUTABLE_ERROR_MSG));
    }
    errs
}
