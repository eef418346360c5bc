//! Kubernetes 1.37's derived attributes of a request (`exactly.derivedAttributes`,
//! `firstAvailable[].derivedAttributes`): attributes a CEL expression computes for
//! each candidate device, which a constraint then matches on.
//!
//! Their declarative rules are not behind the (alpha, off) DRADerivedAttributes gate,
//! nor are Go's hand-written ones, so both run: at most 32 per request, each with a
//! fully qualified name and an expression; unique names; a name that a constraint on
//! the request (or on all requests) uses. Go also compiles the expression and adds
//! up its cost; ours checks only its length (see [`super::super::cel`]).
//!
//! Here too: the declarative rules of a request that sets both `exactly` and
//! `firstAvailable`, which Go's hand-written rules leave at that one error.

use std::collections::{BTreeMap, BTreeSet};

use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::super::json_value;
use super::claim::FIRST_AVAILABLE_MAX_SIZE;
use super::claim_status::declared_toleration;
use super::validate_device_class_name;
use super::{
    CEL_SELECTOR_EXPRESSION_MAX_LENGTH, DEVICE_REQUESTS_MAX_SIZE, duplicates,
    resource_fully_qualified_name,
};
use crate::resource::v1::{DeviceClaim, DeviceDerivedAttribute, DeviceRequest, DeviceToleration};

/// Go's `DeviceDerivedAttributesMaxSize`, the declarative `+k8s:maxItems`.
const MAX_DERIVED_ATTRIBUTES: usize = 32;

/// Go's `gatherConstraintAttributes`: the attributes the claim's constraints use, by
/// the request or `request/sub-request` they name; `""` for a constraint on all.
struct ConstraintAttributes<'a>(BTreeMap<&'a str, BTreeSet<&'a str>>);

impl<'a> ConstraintAttributes<'a> {
    fn of(claim: &'a DeviceClaim) -> Self {
        let mut attrs: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for c in &claim.constraints {
            let Some(name) = c
                .match_attribute
                .as_deref()
                .or(c.distinct_attribute.as_deref())
            else {
                continue;
            };
            if c.requests.is_empty() {
                attrs.entry("").or_default().insert(name);
            }
            for r in &c.requests {
                attrs.entry(r.as_str()).or_default().insert(name);
            }
        }
        ConstraintAttributes(attrs)
    }

    /// Go's `isAttributeUsedByConstraint`: by a constraint on all requests, on this
    /// one, or (for a sub-request) on its request.
    fn uses(&self, attr: &str, request: &str) -> bool {
        let has = |key: &str| self.0.get(key).is_some_and(|s| s.contains(attr));
        has("")
            || has(request)
            || request
                .split_once('/')
                .is_some_and(|(parent, _)| has(parent))
    }
}

/// The derived attributes of every request of a claim.
pub(super) fn validate_claim_derived_attributes(
    claim: &DeviceClaim,
    path: &Path,
    errs: &mut ErrorList,
) {
    let requests = claim.requests.as_deref().unwrap_or_default();
    if requests.len() > DEVICE_REQUESTS_MAX_SIZE {
        return;
    }
    let constraints = ConstraintAttributes::of(claim);
    let rp = path.child("requests");
    for (i, r) in requests.iter().enumerate() {
        let ip = rp.index(i);
        let both = r.exactly.is_some() && !r.first_available.is_empty();
        if both {
            declared_request_rules(r, &ip, errs);
        }
        if let Some(e) = &r.exactly {
            let ep = ip.child("exactly");
            let p = ep.child("derivedAttributes");
            // Go's hand-written rules go no further than the request's error when
            // both `exactly` and `firstAvailable` are set; the declarative ones do.
            let used = (!both).then_some((&constraints, r.name.as_str()));
            validate_derived_attributes(&e.derived_attributes, used, &p, errs);
        }
        if r.first_available.len() > FIRST_AVAILABLE_MAX_SIZE {
            continue;
        }
        let fp = ip.child("firstAvailable");
        for (j, s) in r.first_available.iter().enumerate() {
            let sp = fp.index(j);
            let p = sp.child("derivedAttributes");
            let name = format!("{}/{}", r.name, s.name);
            let used = (!both).then_some((&constraints, name.as_str()));
            validate_derived_attributes(&s.derived_attributes, used, &p, errs);
        }
    }
}

/// One request's derived attributes: the declarative rules, and with `used` (the
/// claim's constraints and the request's name) Go's hand-written ones.
fn validate_derived_attributes(
    attrs: &[DeviceDerivedAttribute],
    used: Option<(&ConstraintAttributes, &str)>,
    path: &Path,
    errs: &mut ErrorList,
) {
    if attrs.len() > MAX_DERIVED_ATTRIBUTES {
        errs.push(Error::too_many(
            path,
            attrs.len() as i64,
            MAX_DERIVED_ATTRIBUTES as i64,
        ));
    } else {
        for (i, a) in attrs.iter().enumerate() {
            let ip = path.index(i);
            let np = ip.child("name");
            if a.name.is_empty() {
                errs.push(Error::required(&np, ""));
            } else {
                resource_fully_qualified_name(&a.name, &np, errs);
            }
            if a.expression.is_empty() {
                errs.push(Error::required(&ip.child("expression"), ""));
            }
        }
    }
    let Some((constraints, request)) = used else {
        return;
    };
    for (i, a) in attrs.iter().enumerate() {
        let ip = path.index(i);
        if !a.name.is_empty() && !constraints.uses(&a.name, request) {
            // Go's value is a `FullyQualifiedName`, a named string type, which its
            // field errors print as JSON (`<` as `\u003c`), not quoted (seed 1108 of
            // the oracle's run from 500).
            errs.push(Error::invalid(
                &ip.child("name"),
                json_value(a.name.as_str()),
                "must be referenced by at least one matchAttribute or distinctAttribute constraint targeting this request",
            ));
        }
        if a.expression.len() > CEL_SELECTOR_EXPRESSION_MAX_LENGTH {
            errs.push(Error::too_long(
                &ip.child("expression"),
                CEL_SELECTOR_EXPRESSION_MAX_LENGTH as i64,
            ));
        }
    }
    duplicates(attrs.iter().map(|a| a.name.as_str()), path, errs);
}

/// A request with both `exactly` and `firstAvailable`: Go's hand-written rules stop at
/// that error, while the declarative ones (beta, enforced on 1.37) still look at both:
/// a sub-request's device class, each allocation mode, each toleration.
fn declared_request_rules(r: &DeviceRequest, path: &Path, errs: &mut ErrorList) {
    if let Some(e) = &r.exactly {
        let ep = path.child("exactly");
        allocation_mode(&e.allocation_mode, &ep, errs);
        tolerations(&e.tolerations, &ep, errs);
    }
    if r.first_available.len() > FIRST_AVAILABLE_MAX_SIZE {
        return;
    }
    let fp = path.child("firstAvailable");
    for (i, s) in r.first_available.iter().enumerate() {
        let sp = fp.index(i);
        validate_device_class_name(&s.device_class_name, &sp.child("deviceClassName"), errs);
        allocation_mode(&s.allocation_mode, &sp, errs);
        tolerations(&s.tolerations, &sp, errs);
    }
}

/// `Validate_DeviceAllocationMode`: a known mode, if set.
fn allocation_mode(mode: &str, path: &Path, errs: &mut ErrorList) {
    const MODES: &[&str] = &["All", "ExactCount"];
    if !mode.is_empty() && !MODES.contains(&mode) {
        errs.push(Error::not_supported(
            &path.child("allocationMode"),
            json_value(mode),
            MODES,
        ));
    }
}

fn tolerations(tolerations: &[DeviceToleration], path: &Path, errs: &mut ErrorList) {
    let tp = path.child("tolerations");
    for (i, t) in tolerations.iter().enumerate() {
        declared_toleration(t, &tp.index(i), errs);
    }
}
