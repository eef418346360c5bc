//! DeviceClass, ResourceClaim and ResourceClaimTemplate: what a user asks for.

use std::collections::{BTreeMap, BTreeSet};

use crate::validation::{
    validate_object_meta, validate_object_meta_update, validate_object_meta_with_opts,
};
use apimachinery::apis::meta::v1::ObjectMeta;
use apimachinery::apis::meta::v1::validation::{FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::is_qualified_name;

use super::super::template_meta::validate_template_object_meta;
#[cfg(feature = "v1_37")]
use super::resource_fully_qualified_name;
#[cfg(not(feature = "v1_37"))]
use super::validate_fully_qualified_name;
use super::{
    DEVICE_CONFIG_MAX_SIZE, DEVICE_REQUESTS_MAX_SIZE, dns1123_label, duplicate_items, duplicates,
    too_many, validate_device_class_name, validate_device_configuration,
    validate_device_toleration, validate_selectors,
};
use crate::resource::v1::{
    DeviceClaim, DeviceClass, DeviceClassSpec, DeviceConstraint, DeviceRequest, DeviceSubRequest,
    ExactDeviceRequest, ResourceClaim, ResourceClaimTemplate,
};
use crate::validation::declarative::immutable_value;

/// Go's `FirstAvailableDeviceRequestMaxSize`.
pub(super) const FIRST_AVAILABLE_MAX_SIZE: usize = 8;
/// Go's `DeviceConstraintsMaxSize`.
const DEVICE_CONSTRAINTS_MAX_SIZE: usize = 32;

/// Go's core `ValidateObjectMetaWithOpts` with a DNS-subdomain name rule, for a
/// cluster-scoped kind.
pub(super) fn object_meta_with_opts(meta: &ObjectMeta) -> ErrorList {
    validate_object_meta_with_opts(meta, false, name_is_dns_subdomain, &Path::new("metadata"))
}

/// Go's `ValidateDeviceClass`.
pub fn validate_device_class(class: &DeviceClass) -> ErrorList {
    let mut errs = object_meta_with_opts(&class.metadata);
    validate_device_class_spec(&class.spec, None, &Path::new("spec"), &mut errs);
    errs
}

/// Go's `ValidateDeviceClassUpdate`: the class as on create (its selectors and
/// configuration treated as stored when unchanged), and the metadata kept.
pub fn validate_device_class_update(new: &DeviceClass, old: &DeviceClass) -> ErrorList {
    let mut errs = object_meta_with_opts(&new.metadata);
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        &Path::new("metadata"),
    ));
    validate_device_class_spec(&new.spec, Some(&old.spec), &Path::new("spec"), &mut errs);
    errs
}

fn validate_device_class_spec(
    spec: &DeviceClassSpec,
    old: Option<&DeviceClassSpec>,
    path: &Path,
    errs: &mut ErrorList,
) {
    validate_selectors(&spec.selectors, &path.child("selectors"), errs);
    let stored = old.is_some_and(|o| o.config == spec.config);
    let cp = path.child("config");
    if !too_many(spec.config.len(), DEVICE_CONFIG_MAX_SIZE, &cp, errs) {
        for (i, c) in spec.config.iter().enumerate() {
            validate_device_configuration(c.opaque.as_ref(), &cp.index(i), stored, errs);
        }
    }
    if let Some(name) = &spec.extended_resource_name {
        #[cfg(not(feature = "v1_37"))]
        if !is_extended_resource_name(name) {
            errs.push(Error::invalid(
                &path.child("extendedResourceName"),
                name.as_str(),
                "must be a valid extended resource name",
            ));
        }
        #[cfg(feature = "v1_37")]
        for msg in extended_resource_name_errors(name) {
            errs.push(Error::invalid(
                &path.child("extendedResourceName"),
                name.as_str(),
                msg,
            ));
        }
    }
}

/// Kubernetes 1.37's declarative `+k8s:format=k8s-extended-resource-name` (beta), which
/// covers the hand-written check: what is wrong with the name, one message each.
#[cfg(feature = "v1_37")]
fn extended_resource_name_errors(name: &str) -> Vec<String> {
    let mut msgs = Vec::new();
    if !name.contains('/') {
        msgs.push(
            "a name must be a domain-prefixed path, such as 'example.com/my-prop'".to_owned(),
        );
    } else if name.contains("kubernetes.io/") {
        msgs.push("must not have \"kubernetes.io/\" domain".to_owned());
    }
    if name.starts_with("requests.") {
        msgs.push("must not have \"requests.\" prefix".to_owned());
    }
    msgs.extend(is_qualified_name(&format!("requests.{name}")));
    msgs
}

/// Go's `v1helper.IsExtendedResourceName`: domain-prefixed outside `kubernetes.io/`,
/// not `requests.`, and a qualified name once prefixed with `requests.` (as quota
/// names it).
pub fn is_extended_resource_name(name: &str) -> bool {
    let native = !name.contains('/') || name.contains("kubernetes.io/");
    if native || name.starts_with("requests.") {
        return false;
    }
    is_qualified_name(&format!("requests.{name}")).is_empty()
}

/// The names a claim's requests answer to: a request, or a request and one of its
/// sub-requests (Go's `requestNames`). A request without sub-requests has an empty set
/// (Go's nil), the map type the claim's constraint attributes use as well.
pub(super) struct RequestNames<'a>(BTreeMap<&'a str, BTreeSet<&'a str>>);

impl<'a> RequestNames<'a> {
    pub(super) fn of(claim: &'a DeviceClaim) -> Self {
        let mut names = BTreeMap::new();
        for r in claim.requests.iter().flatten() {
            let subs = r.first_available.iter().map(|s| s.name.as_str()).collect();
            names.insert(r.name.as_str(), subs);
        }
        RequestNames(names)
    }

    fn has(&self, name: &str) -> bool {
        let segments: Vec<&str> = name.split('/').collect();
        match segments.as_slice() {
            [request] => self.0.contains_key(request),
            [request, sub] => self.0.get(request).is_some_and(|subs| subs.contains(sub)),
            _ => false,
        }
    }
}

/// Go's `ValidateResourceClaim`.
pub fn validate_resource_claim(claim: &ResourceClaim) -> ErrorList {
    let mp = Path::new("metadata");
    let mut errs = validate_object_meta(&claim.metadata, true, name_is_dns_subdomain, &mp);
    validate_device_claim(
        &claim.spec.devices,
        &Path::new("spec").child("devices"),
        &mut errs,
    );
    #[cfg(feature = "v1_37")]
    super::claim_status::validate_claim_status(&claim.status, None, &mut errs);
    errs
}

/// Go's `ValidateResourceClaimUpdate`: the metadata, and the spec unchanged (not
/// validated again: the user cannot change it).
pub fn validate_resource_claim_update(new: &ResourceClaim, old: &ResourceClaim) -> ErrorList {
    let mp = Path::new("metadata");
    let mut errs = validate_object_meta(&new.metadata, true, name_is_dns_subdomain, &mp);
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        &mp,
    ));
    if !semantic_eq(&new.spec.devices, &old.spec.devices) {
        errs.push(Error::invalid(
            &Path::new("spec"),
            immutable_value(|| spec_bad_value(&new.spec.devices)),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    #[cfg(feature = "v1_37")]
    super::claim_status::validate_claim_status(&new.status, Some(&old.status), &mut errs);
    errs
}

/// Go's `ValidateResourceClaimTemplate`.
pub fn validate_resource_claim_template(t: &ResourceClaimTemplate) -> ErrorList {
    let mp = Path::new("metadata");
    let mut errs = validate_object_meta(&t.metadata, true, name_is_dns_subdomain, &mp);
    let sp = Path::new("spec");
    errs.extend(validate_template_object_meta(
        &t.spec.metadata,
        &sp.child("metadata"),
    ));
    validate_device_claim(
        &t.spec.spec.devices,
        &sp.child("spec").child("devices"),
        &mut errs,
    );
    errs
}

/// Go's strategy `ValidateUpdate`: the template as on create, then
/// `ValidateResourceClaimTemplateUpdate` (metadata kept, spec unchanged).
pub fn validate_resource_claim_template_update(
    new: &ResourceClaimTemplate,
    old: &ResourceClaimTemplate,
) -> ErrorList {
    let mut errs = validate_resource_claim_template(new);
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        &Path::new("metadata"),
    ));
    if new.spec.metadata != old.spec.metadata
        || !semantic_eq(&new.spec.spec.devices, &old.spec.spec.devices)
    {
        errs.push(Error::invalid(
            &Path::new("spec"),
            super::claim_json::template_spec(&new.spec),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}

/// Go's `apiequality.Semantic.DeepEqual` on a claim's devices: a missing list and an
/// empty one are equal.
pub(super) fn semantic_eq(a: &DeviceClaim, b: &DeviceClaim) -> bool {
    a.constraints == b.constraints
        && a.config == b.config
        && a.requests.as_deref().unwrap_or_default() == b.requests.as_deref().unwrap_or_default()
}

/// The claim spec as Go prints it in its immutability error.
fn spec_bad_value(devices: &DeviceClaim) -> BadValue {
    super::claim_json::claim_spec(devices)
}

/// Go's `validateDeviceClaim`: requests (unique names), constraints and
/// configuration, whose request references must name the claim's requests.
fn validate_device_claim(claim: &DeviceClaim, path: &Path, errs: &mut ErrorList) {
    let names = RequestNames::of(claim);
    let requests = claim.requests.as_deref().unwrap_or_default();
    let rp = path.child("requests");
    if !too_many(requests.len(), DEVICE_REQUESTS_MAX_SIZE, &rp, errs) {
        for (i, r) in requests.iter().enumerate() {
            validate_device_request(r, &rp.index(i), errs);
        }
        duplicate_items(requests, |r| r.name.as_str(), &rp, errs);
    }
    #[cfg(feature = "v1_37")]
    super::claim_derived::validate_claim_derived_attributes(claim, path, errs);
    let cp = path.child("constraints");
    if !too_many(
        claim.constraints.len(),
        DEVICE_CONSTRAINTS_MAX_SIZE,
        &cp,
        errs,
    ) {
        for (i, c) in claim.constraints.iter().enumerate() {
            validate_device_constraint(c, &cp.index(i), &names, errs);
        }
    }
    let fp = path.child("config");
    if !too_many(claim.config.len(), DEVICE_CONFIG_MAX_SIZE, &fp, errs) {
        for (i, c) in claim.config.iter().enumerate() {
            let p = fp.index(i);
            validate_request_refs(&c.requests, &p.child("requests"), &names, errs);
            validate_device_configuration(c.opaque.as_ref(), &p, false, errs);
        }
    }
}

/// Go's `validateSet` of request references: at most 32, each a known request, unique.
fn validate_request_refs(refs: &[String], path: &Path, names: &RequestNames, errs: &mut ErrorList) {
    if too_many(refs.len(), DEVICE_REQUESTS_MAX_SIZE, path, errs) {
        return;
    }
    for (i, name) in refs.iter().enumerate() {
        validate_request_name_ref(name, &path.index(i), names, errs);
    }
    duplicates(refs.iter().map(String::as_str), path, errs);
}

/// Go's `validateRequestNameRef`.
pub(super) fn validate_request_name_ref(
    name: &str,
    path: &Path,
    names: &RequestNames,
    errs: &mut ErrorList,
) {
    const MSG: &str = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";
    let segments: Vec<&str> = name.split('/').collect();
    if segments.len() > 2 {
        errs.push(Error::invalid(path, name, MSG));
        return;
    }
    for s in &segments {
        dns1123_label(s, path, errs);
    }
    if !names.has(name) {
        errs.push(Error::invalid(path, name, MSG));
    }
}

/// Go's `validateDeviceRequest`: a DNS-label name and exactly one of `exactly` and
/// `firstAvailable`.
fn validate_device_request(r: &DeviceRequest, path: &Path, errs: &mut ErrorList) {
    dns1123_label(&r.name, &path.child("name"), errs);
    let first = !r.first_available.is_empty();
    match (&r.exactly, first) {
        (None, false) => errs.push(Error::required(
            path,
            "exactly one of `exactly` or `firstAvailable` is required",
        )),
        (Some(_), true) => errs.push(Error::invalid(
            path,
            BadValue::Json("null".to_owned()),
            "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set",
        )),
        (None, true) => {
            let fp = path.child("firstAvailable");
            if !too_many(r.first_available.len(), FIRST_AVAILABLE_MAX_SIZE, &fp, errs) {
                for (i, s) in r.first_available.iter().enumerate() {
                    validate_device_sub_request(s, &fp.index(i), errs);
                }
                duplicate_items(&r.first_available, |s| s.name.as_str(), &fp, errs);
            }
        }
        (Some(e), false) => validate_exact_device_request(e, &path.child("exactly"), errs),
    }
}

fn validate_device_sub_request(s: &DeviceSubRequest, path: &Path, errs: &mut ErrorList) {
    dns1123_label(&s.name, &path.child("name"), errs);
    validate_device_class_name(&s.device_class_name, &path.child("deviceClassName"), errs);
    validate_selectors(&s.selectors, &path.child("selectors"), errs);
    validate_allocation_mode(&s.allocation_mode, s.count, path, errs);
    let tp = path.child("tolerations");
    for (i, t) in s.tolerations.iter().enumerate() {
        validate_device_toleration(t, &tp.index(i), errs);
    }
}

fn validate_exact_device_request(e: &ExactDeviceRequest, path: &Path, errs: &mut ErrorList) {
    validate_device_class_name(&e.device_class_name, &path.child("deviceClassName"), errs);
    validate_selectors(&e.selectors, &path.child("selectors"), errs);
    validate_allocation_mode(&e.allocation_mode, e.count, path, errs);
    let tp = path.child("tolerations");
    for (i, t) in e.tolerations.iter().enumerate() {
        validate_device_toleration(t, &tp.index(i), errs);
    }
}

/// Go's `validateDeviceAllocationMode`: `All` without a count, `ExactCount` with a
/// positive one.
fn validate_allocation_mode(mode: &str, count: i64, path: &Path, errs: &mut ErrorList) {
    match mode {
        "All" => {
            if count != 0 {
                errs.push(Error::invalid(
                    &path.child("count"),
                    count,
                    format!("must not be specified when allocationMode is '{mode}'"),
                ));
            }
        }
        "ExactCount" => {
            if count <= 0 {
                errs.push(Error::invalid(
                    &path.child("count"),
                    count,
                    "must be greater than zero",
                ));
            }
        }
        _ => errs.push(Error::not_supported(
            &path.child("allocationMode"),
            super::super::json_value(mode),
            &["All", "ExactCount"],
        )),
    }
}

/// Go's `validateDeviceConstraint`: known, unique requests and one attribute.
fn validate_device_constraint(
    c: &DeviceConstraint,
    path: &Path,
    names: &RequestNames,
    errs: &mut ErrorList,
) {
    validate_request_refs(&c.requests, &path.child("requests"), names, errs);
    // Kubernetes 1.37: each attribute's declarative format rule (beta) covers the
    // hand-written check, and it looks at both fields, not only the first one set.
    #[cfg(feature = "v1_37")]
    {
        if let Some(a) = &c.match_attribute {
            resource_fully_qualified_name(a, &path.child("matchAttribute"), errs);
        }
        if let Some(a) = &c.distinct_attribute {
            resource_fully_qualified_name(a, &path.child("distinctAttribute"), errs);
        }
        if c.match_attribute.is_none() && c.distinct_attribute.is_none() {
            errs.push(Error::required(path, CONSTRAINT_ATTRIBUTE_REQUIRED));
        }
    }
    #[cfg(not(feature = "v1_37"))]
    if let Some(a) = &c.match_attribute {
        validate_fully_qualified_name(a, &path.child("matchAttribute"), errs);
    } else if let Some(a) = &c.distinct_attribute {
        validate_fully_qualified_name(a, &path.child("distinctAttribute"), errs);
    } else {
        // DRAConsumableCapacity is on by default in 1.36: Go's message for that case.
        errs.push(Error::required(path, CONSTRAINT_ATTRIBUTE_REQUIRED));
    }
}

/// Go's message when a constraint names no attribute (DRAConsumableCapacity, on by
/// default since 1.36, picks it).
const CONSTRAINT_ATTRIBUTE_REQUIRED: &str = "exactly one of \"matchAttribute\" or \"distinctAttribute\" is required, but multiple fields are set";
