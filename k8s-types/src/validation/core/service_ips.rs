//! A Service's addresses (Go's `ValidateServiceClusterIPsRelatedFields`, the dual-stack
//! upgrade and downgrade rules of `ValidateServiceUpdate`, and the external IPs'
//! checks): `clusterIP`, `clusterIPs`, `ipFamilies`, `ipFamilyPolicy`, `externalIPs`;
//! and how Go prints the bad values of a Service's typed fields, which `service` shares.

use std::collections::BTreeSet;

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::ip::{ParsedIp, is_valid_ip_for_legacy_field, parse_ip_sloppy};

use super::super::json_value;
use super::validate_endpoint_ip;
use crate::core::v1::Service;

const IP_FAMILIES: &[&str] = &["IPv4", "IPv6"];
const IP_FAMILY_POLICIES: &[&str] = &["PreferDualStack", "RequireDualStack", "SingleStack"];

/// Go's `StrictIPCIDRValidation`, on by default in 1.36.
pub(crate) const STRICT_IP_CIDR: bool = true;

/// A value of a named string type, as Go's `json.Marshal` prints it.
pub(super) fn typed(value: &str) -> BadValue {
    json_value(value)
}

/// A `*string`, as Go's `json.Marshal` prints it (`null` when unset).
pub(super) fn opt_typed(value: &Option<String>) -> BadValue {
    match value {
        Some(v) => json_value(v.as_str()),
        None => BadValue::Json("null".into()),
    }
}

/// A `[]string` as Go prints it; an empty one is taken as Go's nil slice (`null`), which
/// is what a request that leaves the list out decodes to.
pub(super) fn strings(values: &[String]) -> BadValue {
    if values.is_empty() {
        BadValue::Json("null".into())
    } else {
        json_value(&values.to_vec())
    }
}

/// Go's `isHeadlessService`: `clusterIPs` is exactly `["None"]`.
pub(super) fn is_headless(svc: &Service) -> bool {
    svc.spec.cluster_ips.len() == 1 && svc.spec.cluster_ips[0] == "None"
}

/// Go's `netutils.IsIPv6String`: parses, and is not IPv4 (nor IPv4-mapped).
fn is_ipv6_string(ip: &str) -> bool {
    parse_ip_sloppy(ip).is_some_and(|p| p.to4().is_none())
}

/// Go's `ValidateServiceClusterIPsRelatedFields`: `clusterIP` and `clusterIPs` in step,
/// families and policy known, addresses valid, one per family, and each of its family.
pub(super) fn cluster_ips_related(svc: &Service, old: Option<&Service>, errs: &mut ErrorList) {
    let spec = &svc.spec;
    if spec.r#type == "ExternalName" {
        return;
    }
    let sp = Path::new("spec");
    let ips_path = sp.child("clusterIPs");
    let families_path = sp.child("ipFamilies");
    if !spec.cluster_ip.is_empty() {
        if spec.cluster_ips.is_empty() {
            errs.push(Error::required(&ips_path, ""));
        } else if spec.cluster_ips[0] != spec.cluster_ip {
            errs.push(Error::invalid(
                &ips_path,
                strings(&spec.cluster_ips),
                "first value must match `clusterIP`",
            ));
        }
    } else if !spec.cluster_ips.is_empty() {
        errs.push(Error::invalid(
            &ips_path,
            strings(&spec.cluster_ips),
            "must be empty when `clusterIP` is not specified",
        ));
    }
    let mut seen = BTreeSet::new();
    for (i, family) in spec.ip_families.iter().enumerate() {
        if !IP_FAMILIES.contains(&family.as_str()) {
            errs.push(Error::not_supported(
                &families_path.index(i),
                typed(family),
                IP_FAMILIES,
            ));
        }
        if !seen.insert(family.as_str()) {
            errs.push(Error::duplicate(&families_path.index(i), typed(family)));
        }
    }
    if let Some(policy) = &spec.ip_family_policy
        && !IP_FAMILY_POLICIES.contains(&policy.as_str())
    {
        errs.push(Error::not_supported(
            &sp.child("ipFamilyPolicy"),
            opt_typed(&spec.ip_family_policy),
            IP_FAMILY_POLICIES,
        ));
    }
    let existing: &[String] = old.map_or(&[], |o| &o.spec.cluster_ips);
    let mut invalid_ips = false;
    for (i, ip) in spec.cluster_ips.iter().enumerate() {
        if i == 0 && ip == "None" {
            if spec.cluster_ips.len() > 1 {
                invalid_ips = true;
                errs.push(Error::invalid(
                    &ips_path,
                    strings(&spec.cluster_ips),
                    "'None' must be the first and only value",
                ));
            }
            continue;
        }
        let found = is_valid_ip_for_legacy_field(&ips_path.index(i), ip, STRICT_IP_CIDR, existing);
        invalid_ips |= !found.is_empty();
        errs.extend(found);
    }
    if spec.cluster_ips.len() > 2 {
        errs.push(Error::invalid(
            &ips_path,
            strings(&spec.cluster_ips),
            "may only hold up to 2 values",
        ));
    }
    if invalid_ips {
        return;
    }
    if spec.cluster_ips.len() > 1 {
        let parsed: Vec<Option<ParsedIp>> = spec
            .cluster_ips
            .iter()
            .map(|ip| parse_ip_sloppy(ip))
            .collect();
        let v6 = parsed.iter().flatten().any(|p| p.to4().is_none());
        let v4 = parsed.iter().flatten().any(|p| p.to4().is_some());
        // Every address parsed (invalid ones returned above), so Go's error branch of
        // `IsDualStackIPStrings` cannot be reached.
        if !(v4 && v6) {
            errs.push(Error::invalid(
                &ips_path,
                strings(&spec.cluster_ips),
                "may specify no more than one IP for each IP family",
            ));
        }
    }
    if !is_headless(svc) && !spec.cluster_ips.is_empty() && !spec.ip_families.is_empty() {
        for (i, (ip, family)) in spec.cluster_ips.iter().zip(&spec.ip_families).enumerate() {
            let expected = match family.as_str() {
                "IPv4" if is_ipv6_string(ip) => "IPv4",
                "IPv6" if !is_ipv6_string(ip) => "IPv6",
                _ => continue,
            };
            errs.push(Error::invalid(
                &ips_path.index(i),
                ip.as_str(),
                format!("expected an {expected} value as indicated by `ipFamilies[{i}]`"),
            ));
        }
    }
}

/// External IPs: valid (or kept from the old Service) and then, as Go does for
/// historical reasons, not unspecified, loopback or link-local (`ValidateEndpointIP`).
pub(super) fn external_ips(svc: &Service, old: Option<&Service>, sp: &Path, errs: &mut ErrorList) {
    let existing: &[String] = old.map_or(&[], |o| &o.spec.external_ips);
    let path = sp.child("externalIPs");
    for (i, ip) in svc.spec.external_ips.iter().enumerate() {
        let p = path.index(i);
        let found = is_valid_ip_for_legacy_field(&p, ip, STRICT_IP_CIDR, existing);
        if found.is_empty() {
            errs.extend(validate_endpoint_ip(ip, &p));
        } else {
            errs.extend(found);
        }
    }
}

/// Go's `validateUpgradeDowngradeClusterIPs`: the primary address kept; releasing the
/// secondary needs `ipFamilyPolicy: SingleStack`.
pub(super) fn upgrade_downgrade_cluster_ips(old: &Service, new: &Service, errs: &mut ErrorList) {
    if new.spec.r#type == "ExternalName" || old.spec.r#type == "ExternalName" {
        return;
    }
    if is_headless(old) && is_headless(new) {
        return;
    }
    let (o, n) = (&old.spec.cluster_ips, &new.spec.cluster_ips);
    let sp = Path::new("spec");
    let path = sp.child("clusterIPs");
    let changed = "may not change once set";
    if o.len() == n.len() {
        for (i, ip) in o.iter().enumerate() {
            if *ip != n[i] {
                errs.push(Error::invalid(&path.index(i), strings(n), changed));
            }
        }
    } else if o.len() > n.len() {
        if n.is_empty() {
            errs.push(Error::invalid(
                &path.index(0),
                strings(n),
                "primary clusterIP can not be unset",
            ));
        }
        if !n.is_empty() && n[0] != o[0] {
            errs.push(Error::invalid(&path.index(0), strings(n), changed));
        }
        if n.len() == 1 && new.spec.ip_family_policy.as_deref() != Some("SingleStack") {
            errs.push(Error::invalid(
                &Path::new("spec").child("ipFamilyPolicy"),
                opt_typed(&new.spec.ip_family_policy),
                "must be set to 'SingleStack' when releasing the secondary clusterIP",
            ));
        }
    } else if !o.is_empty() && n[0] != o[0] {
        errs.push(Error::invalid(&path.index(0), strings(n), changed));
    }
}

/// Go's `validateUpgradeDowngradeIPFamilies`: as for clusterIPs, unless the Service
/// becomes or stops being headless. (Go reports some of these with `clusterIPs` as the
/// bad value; so do we.)
pub(super) fn upgrade_downgrade_ip_families(old: &Service, new: &Service, errs: &mut ErrorList) {
    if new.spec.r#type == "ExternalName" || old.spec.r#type == "ExternalName" {
        return;
    }
    if is_headless(old) || is_headless(new) {
        return;
    }
    let (o, n) = (&old.spec.ip_families, &new.spec.ip_families);
    let sp = Path::new("spec");
    let families = sp.child("ipFamilies");
    let first = families.index(0);
    let changed = "may not change once set";
    if o.len() == n.len() {
        for (i, family) in o.iter().enumerate() {
            if *family != n[i] {
                errs.push(Error::invalid(&first, strings(n), changed));
            }
        }
    } else if o.len() > n.len() {
        if new.spec.cluster_ips.is_empty() {
            errs.push(Error::invalid(
                &first,
                strings(n),
                "primary ipFamily can not be unset",
            ));
        }
        if !n.is_empty() && n[0] != o[0] {
            errs.push(Error::invalid(
                &first,
                strings(&new.spec.cluster_ips),
                changed,
            ));
        }
        if n.len() == 1 && new.spec.ip_family_policy.as_deref() != Some("SingleStack") {
            errs.push(Error::invalid(
                &Path::new("spec").child("ipFamilyPolicy"),
                opt_typed(&new.spec.ip_family_policy),
                "must be set to 'SingleStack' when releasing the secondary ipFamily",
            ));
        }
    } else if !o.is_empty() && !n.is_empty() && n[0] != o[0] {
        errs.push(Error::invalid(
            &first,
            strings(&new.spec.cluster_ips),
            changed,
        ));
    }
}
