//! The `resource.k8s.io` group's validation (Go's `pkg/apis/resource/validation` and the
//! strategies of `pkg/registry/resource`), over the hub types (`v1`; `v1beta2` for
//! DeviceTaintRule, `v1alpha3` for ResourcePoolStatusRequest): DeviceClass,
//! ResourceClaim, ResourceClaimTemplate ([`claim`]), ResourceSlice ([`slice`]),
//! DeviceTaintRule and ResourcePoolStatusRequest ([`taint_rule`]).
//!
//! What Go checks that this does not:
//! - the CEL expressions of device selectors are compiled by Go (cel-go, with the DRA
//!   environment) and a compile error reported with cel-go's text; here only their
//!   length and emptiness are checked (see [`super::cel`]);
//! - admin access (`adminAccess: true`) needs the namespace's
//!   `resource.kubernetes.io/admin-access: "true"` label, which kube-apiserver looks up:
//!   a validator of one object cannot, and the server's admission is where it belongs;
//! - a claim's status writes by a user who may not bind claims or write a driver's
//!   device status (the status strategy's authorization checks, the server's).
//!
//! A claim's `/status` validator ([`validate_resource_claim_status_update`]) has the
//! hand-written status rules (allocation results, device status, conditions), which the
//! main resource's strategy does not run; on Kubernetes 1.37 both run the claim's
//! declarative status rules (beta, now enforced): [`claim_status`].

mod capacity;
mod claim;
#[cfg(feature = "v1_37")]
mod claim_derived;
mod claim_json;
#[cfg(feature = "v1_37")]
mod claim_status;
mod claim_status_update;
mod node_allocatable;
mod pool_request_status;
mod slice;
mod taint_rule;

pub use claim::*;
pub use claim_status_update::validate_resource_claim_status_update;
pub use pool_request_status::validate_resource_pool_status_request_status_update;
pub use slice::*;
pub use taint_rule::*;

use std::collections::BTreeSet;

use apimachinery::apis::meta::v1::validation::validate_label_name;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{
    is_c_identifier, is_dns1123_label, is_dns1123_subdomain, is_valid_label_value,
};

// Go prints a bad value of a named string type (an effect, an operator, a qualified
// name) with `json.Marshal`, not `%q`: `json_value` writes it so.
use super::{invalid_each, json_value};
use crate::resource::v1::{
    CELDeviceSelector, DeviceSelector, DeviceTaint, DeviceToleration, OpaqueDeviceConfiguration,
};
use crate::validation::declarative::covered_driver_name;

/// Go's `DeviceMaxIDLength`: the name part of a qualified attribute or capacity name.
const DEVICE_MAX_ID_LENGTH: i64 = 32;
/// Go's `DeviceMaxDomainLength + 1 + DeviceMaxIDLength`: where map keys get truncated.
const ATTRIBUTE_AND_CAPACITY_MAX_KEY_LENGTH: usize = 63 + 1 + 32;
/// Go's `DeviceSelectorsMaxSize`.
const DEVICE_SELECTORS_MAX_SIZE: usize = 32;
/// Go's `DeviceConfigMaxSize`.
const DEVICE_CONFIG_MAX_SIZE: usize = 32;
/// Go's `DeviceRequestsMaxSize` (= `AllocationResultsMaxSize`).
const DEVICE_REQUESTS_MAX_SIZE: usize = 32;
/// Go's `OpaqueParametersMaxLength`.
const OPAQUE_PARAMETERS_MAX_LENGTH: usize = 10 * 1024;
/// Go's `CELSelectorExpressionMaxLength`.
const CEL_SELECTOR_EXPRESSION_MAX_LENGTH: usize = 10 * 1024;
/// Go's `PoolNameMaxLength`.
const POOL_NAME_MAX_LENGTH: usize = 253;

/// The supported taint effects, sorted as Go's `sets.List` gives them.
const TAINT_EFFECTS: &[&str] = &["NoExecute", "NoSchedule", "None"];

/// Go's `validateSlice`'s size check: `TooMany` alone when over `max`, so that the
/// items are not looked at (Go short-circuits for DoS protection).
fn too_many(len: usize, max: usize, path: &Path, errs: &mut ErrorList) -> bool {
    if len > max {
        errs.push(Error::too_many(path, len as i64, max as i64));
        return true;
    }
    false
}

/// Go's `validateSet` duplicate check on string keys: `Duplicate` at each repeat.
fn duplicates<'a>(keys: impl Iterator<Item = &'a str>, path: &Path, errs: &mut ErrorList) {
    let mut seen = BTreeSet::new();
    for (i, key) in keys.enumerate() {
        if !seen.insert(key) {
            errs.push(Error::duplicate(&path.index(i), key));
        }
    }
}

/// Go's uniqueness check of a list keyed by name: the hand-written `validateSet`
/// reports the repeated key; on Kubernetes 1.37 the declarative `+listType=map` rule
/// (beta, enforced) covers it and reports the whole item, as the versioned JSON.
fn duplicate_items<T: apimachinery::util::json::WriteJson>(
    items: &[T],
    key: impl Fn(&T) -> &str,
    path: &Path,
    errs: &mut ErrorList,
) {
    let mut seen = BTreeSet::new();
    for (i, item) in items.iter().enumerate() {
        if !seen.insert(key(item)) {
            #[cfg(feature = "v1_37")]
            let value = json_value(item);
            #[cfg(not(feature = "v1_37"))]
            let value = key(item);
            errs.push(Error::duplicate(&path.index(i), value));
        }
    }
}

/// Go's `truncateIfTooLong`: a long map key shortened in the middle for its path.
fn truncate_if_too_long(s: &str, max_len: usize) -> String {
    let max_len = max_len.max(16);
    if s.len() <= max_len {
        return s.to_owned();
    }
    let remaining = max_len - 3;
    let head = &s.as_bytes()[..remaining.div_ceil(2)];
    let tail = &s.as_bytes()[s.len() - remaining / 2..];
    // Go slices bytes: a cut through a character leaves invalid UTF-8, which Go's
    // JSON writes as U+FFFD.
    format!(
        "{}...{}",
        String::from_utf8_lossy(head),
        String::from_utf8_lossy(tail)
    )
}

/// Go's `corevalidation.ValidateDNS1123Label`.
fn dns1123_label(value: &str, path: &Path, errs: &mut ErrorList) {
    invalid_each(errs, path, value, is_dns1123_label(value));
}

/// Go's `corevalidation.ValidateDNS1123Subdomain`.
fn dns1123_subdomain(value: &str, path: &Path, errs: &mut ErrorList) {
    invalid_each(errs, path, value, is_dns1123_subdomain(value));
}

/// Go's `ValidateCSIDriverName`, which DRA driver names reuse: required, at most 63
/// bytes, and a DNS subdomain once lower-cased.
pub fn validate_driver_name(name: &str, path: &Path, errs: &mut ErrorList) {
    if name.is_empty() {
        errs.push(Error::required(path, ""));
        return;
    }
    if name.len() > 63 {
        errs.push(Error::too_long(path, 63));
    }
    let lower = apimachinery::util::go_strings::to_lower(name);
    invalid_each(errs, path, name, is_dns1123_subdomain(&lower));
}

/// Go's `validatePoolName`: required, at most 253 bytes, DNS subdomains separated by
/// slashes.
fn validate_pool_name(name: &str, path: &Path, errs: &mut ErrorList) {
    if name.is_empty() {
        errs.push(Error::required(path, ""));
        return;
    }
    if name.len() > POOL_NAME_MAX_LENGTH {
        errs.push(Error::too_long(path, POOL_NAME_MAX_LENGTH as i64));
    }
    for part in name.split('/') {
        dns1123_subdomain(part, path, errs);
    }
}

/// Go's `validateDeviceClass`: a device class name, required.
fn validate_device_class_name(name: &str, path: &Path, errs: &mut ErrorList) {
    if name.is_empty() {
        errs.push(Error::required(path, ""));
    } else {
        dns1123_subdomain(name, path, errs);
    }
}

/// Go's `validateCIdentifier`: at most 32 bytes and a C identifier.
fn validate_c_identifier(id: &str, path: &Path, errs: &mut ErrorList) {
    if id.len() > DEVICE_MAX_ID_LENGTH as usize {
        errs.push(Error::too_long(path, DEVICE_MAX_ID_LENGTH));
    }
    invalid_each(errs, path, id, is_c_identifier(id));
}

/// Go's `validateQualifiedName`: a C identifier, or a driver-name domain, `/` and a C
/// identifier (a name with more slashes passes, as in Go: its TODO says so).
fn validate_qualified_name(name: &str, path: &Path, errs: &mut ErrorList) {
    let parts: Vec<&str> = name.split('/').collect();
    match parts.as_slice() {
        [id] => validate_c_identifier(id, path, errs),
        [domain, id] => {
            if domain.is_empty() {
                errs.push(Error::invalid(path, "", "the domain must not be empty"));
            } else {
                validate_driver_name(domain, path, errs);
            }
            if id.is_empty() {
                errs.push(Error::invalid(path, "", "the name must not be empty"));
            } else {
                validate_c_identifier(id, path, errs);
            }
        }
        _ => {}
    }
}

/// Go's `validateFullyQualifiedName`: a qualified name that has a domain.
fn validate_fully_qualified_name(name: &str, path: &Path, errs: &mut ErrorList) {
    validate_qualified_name(name, path, errs);
    if !name.contains('/') {
        errs.push(Error::invalid(
            path,
            json_value(name),
            "a fully qualified name must be a domain and a name separated by a slash",
        ));
    }
}

/// The declarative `+k8s:format=k8s-resource-fully-qualified-name` (apimachinery's
/// `validate.ResourceFullyQualifiedName`), which on Kubernetes 1.37 stands in for the
/// hand-written [`validate_fully_qualified_name`] it covers. Its words differ: a
/// domain is a lowercase DNS subdomain as written (not lower-cased first), reported
/// with the domain alone as the value and `prefix: ` before the detail.
#[cfg(feature = "v1_37")]
fn resource_fully_qualified_name(name: &str, path: &Path, errs: &mut ErrorList) {
    let parts: Vec<&str> = name.split('/').collect();
    match parts.as_slice() {
        [id] => validate_c_identifier(id, path, errs),
        [domain, id] => {
            if domain.is_empty() {
                errs.push(Error::invalid(path, "", "prefix must not be empty"));
            } else {
                if domain.len() > 63 {
                    errs.push(Error::too_long(path, 63));
                }
                for msg in is_dns1123_subdomain(domain) {
                    errs.push(Error::invalid(path, *domain, format!("prefix: {msg}")));
                }
            }
            if id.is_empty() {
                errs.push(Error::invalid(path, "", "name must not be empty"));
            } else {
                validate_c_identifier(id, path, errs);
            }
        }
        _ => {}
    }
    if !name.contains('/') {
        errs.push(Error::invalid(
            path,
            name,
            "a fully qualified name must be a domain and a name separated by a slash",
        ));
    }
}

/// `validate.ResourcePoolName`: at most 253 bytes, non-empty DNS-subdomain segments.
fn resource_pool_name(value: &str, path: &Path, errs: &mut ErrorList) {
    if value.len() > 253 {
        errs.push(Error::too_long(path, 253));
    }
    for (i, part) in value.split('/').enumerate() {
        if part.is_empty() {
            errs.push(Error::invalid(
                path,
                value,
                format!("segment {i}: must not be empty"),
            ));
            continue;
        }
        for m in apimachinery::util::validation::is_dns1123_subdomain(part) {
            errs.push(Error::invalid(path, part, format!("segment {i}: {m}")));
        }
    }
}

/// Go's `validateSelectorSlice`: at most 32 selectors, each with its CEL expression.
fn validate_selectors(selectors: &[DeviceSelector], path: &Path, errs: &mut ErrorList) {
    if too_many(selectors.len(), DEVICE_SELECTORS_MAX_SIZE, path, errs) {
        return;
    }
    for (i, s) in selectors.iter().enumerate() {
        let p = path.index(i);
        match &s.cel {
            None => errs.push(Error::required(&p.child("cel"), "")),
            Some(cel) => validate_cel_selector(cel, &p.child("cel"), errs),
        }
    }
}

/// Go's `validateCELSelector`: at most 10 KiB, and an expression that compiles in the
/// DRA environment (here: one that is not empty, see [`super::cel`]).
fn validate_cel_selector(cel: &CELDeviceSelector, path: &Path, errs: &mut ErrorList) {
    let p = path.child("expression");
    if cel.expression.len() > CEL_SELECTOR_EXPRESSION_MAX_LENGTH {
        errs.push(Error::too_long(
            &p,
            CEL_SELECTOR_EXPRESSION_MAX_LENGTH as i64,
        ));
        return;
    }
    if let Some(msg) = super::cel::compile_error(&cel.expression) {
        errs.push(Error::invalid(&p, cel.expression.as_str(), msg));
    }
}

/// Go's `validateDeviceConfiguration`: the opaque configuration, required.
fn validate_device_configuration(
    opaque: Option<&OpaqueDeviceConfiguration>,
    path: &Path,
    stored: bool,
    errs: &mut ErrorList,
) {
    let p = path.child("opaque");
    match opaque {
        None => errs.push(Error::required(&p, "")),
        Some(o) => {
            covered_driver_name(
                &o.driver,
                None,
                &p.child("driver"),
                errs,
                validate_driver_name,
            );
            validate_raw_extension(
                &o.parameters.raw,
                &p.child("parameters"),
                stored,
                OPAQUE_PARAMETERS_MAX_LENGTH,
                errs,
            );
        }
    }
}

/// Go's `validateRawExtension`: present, at most `max` bytes when new, and a JSON
/// object.
fn validate_raw_extension(raw: &[u8], path: &Path, stored: bool, max: usize, errs: &mut ErrorList) {
    if raw.is_empty() {
        errs.push(Error::required(path, ""));
    } else if !stored && raw.len() > max {
        errs.push(Error::too_long(path, max as i64));
    } else {
        match serde_json::from_slice::<serde_json::Value>(raw) {
            // Ours holds the bytes of JSON it read, so they parse; Go's message for text
            // that does not is its decoder's, which this does not imitate.
            Err(e) => errs.push(Error::invalid(
                path,
                "<value omitted>",
                format!("error parsing data as JSON: {e}"),
            )),
            Ok(serde_json::Value::Null) => errs.push(Error::required(path, "")),
            Ok(serde_json::Value::Object(_)) => {}
            Ok(_) => errs.push(Error::invalid(
                path,
                "<value omitted>",
                "must be a valid JSON object",
            )),
        }
    }
}

/// Go's `validateLabelValue`.
fn validate_label_value(value: &str, path: &Path, errs: &mut ErrorList) {
    invalid_each(errs, path, value, is_valid_label_value(value));
}

/// Go's `validateDeviceTaint`: a label-name key, a label value, and an effect (checked
/// only when new or changed).
fn validate_device_taint(
    taint: &DeviceTaint,
    old: Option<&DeviceTaint>,
    path: &Path,
    errs: &mut ErrorList,
) {
    errs.extend(validate_label_name(&taint.key, &path.child("key")));
    if !taint.value.is_empty() {
        validate_label_value(&taint.value, &path.child("value"), errs);
    }
    if old.is_none_or(|o| o.effect != taint.effect) {
        let p = path.child("effect");
        if taint.effect.is_empty() {
            errs.push(Error::required(&p, ""));
        } else if !TAINT_EFFECTS.contains(&taint.effect.as_str()) {
            errs.push(Error::not_supported(
                &p,
                json_value(&taint.effect),
                TAINT_EFFECTS,
            ));
        }
    }
}

/// Go's `validateDeviceToleration`.
fn validate_device_toleration(t: &DeviceToleration, path: &Path, errs: &mut ErrorList) {
    if !t.key.is_empty() {
        errs.extend(validate_label_name(&t.key, &path.child("key")));
    }
    match t.operator.as_str() {
        "Exists" => {
            if !t.value.is_empty() {
                errs.push(Error::invalid(
                    &path.child("value"),
                    t.value.as_str(),
                    "must be empty for operator `Exists`",
                ));
            }
        }
        "Equal" => validate_label_value(&t.value, &path.child("value"), errs),
        "" => errs.push(Error::required(&path.child("operator"), "")),
        _ => errs.push(Error::not_supported(
            &path.child("operator"),
            json_value(&t.operator),
            &["Equal", "Exists"],
        )),
    }
    if !t.effect.is_empty() && !TAINT_EFFECTS.contains(&t.effect.as_str()) {
        errs.push(Error::not_supported(
            &path.child("effect"),
            json_value(&t.effect),
            TAINT_EFFECTS,
        ));
    }
}

/// Go's `validateDeviceBindingParameters`: at most 4 of each, label-name conditions,
/// no repeats, no overlap, and both lists or neither.
fn validate_binding_parameters(
    conditions: &[String],
    failure_conditions: &[String],
    path: &Path,
    errs: &mut ErrorList,
) {
    let cp = path.child("bindingConditions");
    let fp = path.child("bindingFailureConditions");
    for (list, p) in [(conditions, &cp), (failure_conditions, &fp)] {
        if !too_many(list.len(), 4, p, errs) {
            for (i, c) in list.iter().enumerate() {
                errs.extend(validate_label_name(c, &p.index(i)));
            }
        }
    }
    duplicates(conditions.iter().map(String::as_str), &cp, errs);
    let mut seen = BTreeSet::new();
    for (i, c) in failure_conditions.iter().enumerate() {
        let p = fp.index(i);
        if !seen.insert(c.as_str()) {
            errs.push(Error::duplicate(&p, c.as_str()));
        }
        if conditions.contains(c) {
            errs.push(Error::invalid(
                &p,
                c.as_str(),
                "bindingFailureConditions must not overlap with bindingConditions",
            ));
        }
    }
    // The empty list is Go's nil slice, which it prints as `null`.
    if conditions.is_empty() && !failure_conditions.is_empty() {
        errs.push(Error::invalid(
            &cp,
            BadValue::Json("null".to_owned()),
            "bindingConditions are required to use bindingFailureConditions",
        ));
    }
    if failure_conditions.is_empty() && !conditions.is_empty() {
        errs.push(Error::invalid(
            &fp,
            BadValue::Json("null".to_owned()),
            "bindingFailureConditions are required to use bindingConditions",
        ));
    }
}
