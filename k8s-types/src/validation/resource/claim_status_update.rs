//! A ResourceClaim's `/status` validator: Go's `ValidateResourceClaimStatusUpdate` (the
//! hand-written rules of `pkg/apis/resource/validation`), and on Kubernetes 1.37 the
//! claim's declarative rules, which kube-apiserver runs after it on the subresource too.
//!
//! On 1.37 a hand-written error Go marks as covered by a declarative rule is dropped where
//! that (beta, enforced) rule reports an error of the same type at the same field
//! (`FilterCoveredHandwrittenErrors`); the declarative errors follow the hand-written ones.
//! The status strategy's authorization checks (binding a claim, writing a driver's device
//! status, admin access and its namespace label) need the request's user and namespace:
//! they are the server's, not this validator's.

use std::collections::BTreeSet;

use apimachinery::apis::meta::v1::validation::FIELD_IMMUTABLE_ERROR_MSG;
use apimachinery::util::validation::field::{
    BadValue, Error, ErrorList, ErrorType, Path, go_quote_bytes,
};
use apimachinery::util::validation::ip::parse_cidr_sloppy;

use super::claim::{RequestNames, validate_request_name_ref};
use super::{
    DEVICE_CONFIG_MAX_SIZE, DEVICE_REQUESTS_MAX_SIZE, OPAQUE_PARAMETERS_MAX_LENGTH, dns1123_label,
    duplicates, too_many, validate_binding_parameters, validate_driver_name, validate_pool_name,
    validate_raw_extension,
};
use crate::resource::v1::{
    AllocatedDeviceStatus, AllocationResult, DeviceAllocationConfiguration,
    DeviceRequestAllocationResult, NetworkDeviceData, ResourceClaim, ResourceClaimStatus,
};
use crate::validation::conditions::validate_conditions;
use crate::validation::json_value;
use crate::validation::pod_placement::validate_node_selector;
use crate::validation::validate_object_meta_update;

/// Go's `ResourceClaimReservedForMaxSize`.
const RESERVED_FOR_MAX_SIZE: usize = 256;
/// Go's `AllocatedDeviceStatusMaxConditions`.
const DEVICE_STATUS_MAX_CONDITIONS: usize = 8;
/// Go's `AllocatedDeviceStatusDataMaxLength`.
const DEVICE_STATUS_DATA_MAX_LENGTH: usize = 10 * 1024;
/// Go's `NetworkDeviceDataInterfaceNameMaxLength`.
const INTERFACE_NAME_MAX_LENGTH: usize = 256;
/// Go's `NetworkDeviceDataHardwareAddressMaxLength`.
const HARDWARE_ADDRESS_MAX_LENGTH: usize = 128;
/// Go's `NetworkDeviceDataMaxIPs`.
const MAX_IPS: usize = 16;

/// Go's `ValidateResourceClaimStatusUpdate` (the metadata update, then the status against
/// the old one, the spec's requests naming what results may refer to) and, on
/// Kubernetes 1.37, the claim's declarative rules where the write changed it.
pub fn validate_resource_claim_status_update(
    new: &ResourceClaim,
    old: &ResourceClaim,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let names = RequestNames::of(&new.spec.devices);
    let mut checked = Checked::default();
    status_update(
        &new.status,
        &old.status,
        new.metadata.deletion_timestamp.is_some(),
        &names,
        &mut checked,
    );
    #[cfg(feature = "v1_37")]
    {
        let declared = declared_rules(new, old);
        errs.extend(checked.not_superseded_by(&declared));
        errs.extend(declared);
    }
    #[cfg(not(feature = "v1_37"))]
    errs.extend(checked.all());
    errs
}

/// The declarative rules of `Validate_ResourceClaim` on an update of the subresource: the
/// spec immutable (a status write keeps it; the check is for a caller that did not), then
/// the status where it changed.
#[cfg(feature = "v1_37")]
fn declared_rules(new: &ResourceClaim, old: &ResourceClaim) -> ErrorList {
    let mut errs = ErrorList::default();
    if !super::claim::semantic_eq(&new.spec.devices, &old.spec.devices) {
        errs.push(Error::invalid(
            &Path::new("spec"),
            BadValue::null(),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    super::claim_status::validate_claim_status(&new.status, Some(&old.status), &mut errs);
    errs
}

/// Hand-written errors, each with whether Go marks it covered by a declarative rule.
#[derive(Default)]
struct Checked(Vec<(Error, bool)>);

impl Checked {
    fn push(&mut self, err: Error) {
        self.0.push((err, false));
    }

    fn covered(&mut self, err: Error) {
        self.0.push((err, true));
    }

    fn extend(&mut self, errs: ErrorList) {
        self.0.extend(errs.0.into_iter().map(|e| (e, false)));
    }

    /// Runs a check of the group's that writes to an `ErrorList`, its errors marked
    /// `covered` or not; what the check answers.
    fn run<T>(&mut self, covered: bool, check: impl FnOnce(&mut ErrorList) -> T) -> T {
        let mut found = ErrorList::default();
        let answer = check(&mut found);
        self.0.extend(found.0.into_iter().map(|e| (e, covered)));
        answer
    }

    /// Every error, as Kubernetes 1.36 reports them.
    #[cfg(not(feature = "v1_37"))]
    fn all(self) -> ErrorList {
        ErrorList(self.0.into_iter().map(|(e, _)| e).collect())
    }

    /// The errors Go keeps beside the declarative ones `declared`: a covered error goes
    /// where a declarative error of its type names its field.
    #[cfg(feature = "v1_37")]
    fn not_superseded_by(self, declared: &ErrorList) -> ErrorList {
        let superseded = |e: &Error| {
            declared
                .iter()
                .any(|d| d.error_type == e.error_type && d.field == e.field)
        };
        ErrorList(
            self.0
                .into_iter()
                .filter(|(e, covered)| !(*covered && superseded(e)))
                .map(|(e, _)| e)
                .collect(),
        )
    }
}

/// Go's `validateResourceClaimStatusUpdate`.
fn status_update(
    status: &ResourceClaimStatus,
    old: &ResourceClaimStatus,
    claim_deleted: bool,
    names: &RequestNames,
    errs: &mut Checked,
) {
    let path = Path::new("status");
    let rp = path.child("reservedFor");
    let reserved = &status.reserved_for;
    if !errs.run(true, |e| {
        too_many(reserved.len(), RESERVED_FOR_MAX_SIZE, &rp, e)
    }) {
        for (i, r) in reserved.iter().enumerate() {
            let p = rp.index(i);
            for (name, value) in [
                ("resource", &r.resource),
                ("name", &r.name),
                ("uid", &r.uid),
            ] {
                if value.is_empty() {
                    errs.push(Error::required(&p.child(name), ""));
                }
            }
        }
        let mut seen = BTreeSet::new();
        for (i, r) in reserved.iter().enumerate() {
            if !seen.insert(r.uid.as_str()) {
                errs.covered(Error::duplicate(&rp.index(i), json_value(&r.uid)));
            }
        }
    }

    let allocated: BTreeSet<SharedDeviceId> = status
        .allocation
        .iter()
        .flat_map(|a| &a.devices.results)
        .map(|r| SharedDeviceId::new(&r.driver, &r.pool, &r.device, r.share_id.as_deref()))
        .collect();
    let dp = path.child("devices");
    for (i, d) in status.devices.iter().enumerate() {
        device_status(d, &dp.index(i), &allocated, errs);
    }
    let mut seen = BTreeSet::new();
    for (i, d) in status.devices.iter().enumerate() {
        let id = SharedDeviceId::of(d);
        if !seen.insert(id.clone()) {
            errs.covered(Error::duplicate(&dp.index(i), id.value()));
        }
    }

    if !reserved.is_empty() {
        if status.allocation.is_none() {
            errs.push(Error::forbidden(
                &rp,
                "may not be specified when `allocated` is not set",
            ));
        } else if claim_deleted && reserved.iter().any(|r| !old.reserved_for.contains(r)) {
            // Entries may go while the claim is being deallocated, not come.
            errs.push(Error::forbidden(
                &rp,
                "new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set",
            ));
        }
    }

    let ap = path.child("allocation");
    match (&old.allocation, &status.allocation) {
        // Go compares with `Semantic.DeepEqual` and prints the new allocation as its
        // internal struct; results once written are not validated again (new ones are
        // held to tighter rules than stored ones were).
        (Some(before), Some(now)) if !crate::validation::semantic::semantic_eq(now, before) => {
            errs.covered(Error::invalid(
                &ap,
                BadValue::Json(super::claim_json::allocation_result(now)),
                FIELD_IMMUTABLE_ERROR_MSG,
            ));
        }
        (None, Some(now)) => allocation_result(now, &ap, names, errs),
        _ => {}
    }
}

/// Go's `validateAllocationResult` for a new allocation.
fn allocation_result(a: &AllocationResult, path: &Path, names: &RequestNames, errs: &mut Checked) {
    let dp = path.child("devices");
    let rp = dp.child("results");
    let results = &a.devices.results;
    if !errs.run(true, |e| {
        too_many(results.len(), DEVICE_REQUESTS_MAX_SIZE, &rp, e)
    }) {
        for (i, r) in results.iter().enumerate() {
            request_allocation_result(r, &rp.index(i), names, errs);
        }
    }
    let cp = dp.child("config");
    let config = &a.devices.config;
    // A class's configuration and the claim's.
    let max_config = 2 * DEVICE_CONFIG_MAX_SIZE;
    if !errs.run(true, |e| too_many(config.len(), max_config, &cp, e)) {
        for (i, c) in config.iter().enumerate() {
            allocation_configuration(c, &cp.index(i), names, errs);
        }
    }
    if let Some(selector) = &a.node_selector {
        errs.run(false, |e| {
            validate_node_selector(selector, &path.child("nodeSelector"), e)
        });
    }
}

/// Go's `validateDeviceRequestAllocationResult`.
fn request_allocation_result(
    r: &DeviceRequestAllocationResult,
    path: &Path,
    names: &RequestNames,
    errs: &mut Checked,
) {
    errs.run(false, |e| {
        validate_request_name_ref(&r.request, &path.child("request"), names, e)
    });
    // Required, format and size covered.
    errs.run(true, |e| {
        validate_driver_name(&r.driver, &path.child("driver"), e)
    });
    errs.run(true, |e| {
        validate_pool_name(&r.pool, &path.child("pool"), e)
    });
    errs.run(false, |e| {
        dns1123_label(&r.device, &path.child("device"), e)
    });
    binding_parameters(
        &r.binding_conditions,
        &r.binding_failure_conditions,
        path,
        errs,
    );
    // Kubernetes 1.37 checks a result's tolerations and skipped node operations.
    #[cfg(feature = "v1_37")]
    {
        let tp = path.child("tolerations");
        for (i, t) in r.tolerations.iter().enumerate() {
            let mut found = ErrorList::default();
            super::validate_device_toleration(t, &tp.index(i), &mut found);
            toleration_errors(found, errs);
        }
    }
    if let Some(id) = &r.share_id {
        uid(id, &path.child("shareID"), errs);
    }
    #[cfg(feature = "v1_37")]
    {
        errs.run(false, |e| {
            super::slice::validate_skip_node_operations(
                &r.skip_node_operations,
                &path.child("skipNodeOperations"),
                e,
            )
        });
    }
}

/// A toleration's errors: its key's, a missing or unknown operator and an unknown
/// effect are covered; the value's are not.
#[cfg(feature = "v1_37")]
fn toleration_errors(found: ErrorList, errs: &mut Checked) {
    for e in found.0 {
        if e.field.ends_with(".value") {
            errs.push(e);
        } else {
            errs.covered(e);
        }
    }
}

/// Go's `validateDeviceBindingParameters`: the lists' sizes are covered.
fn binding_parameters(conditions: &[String], failure: &[String], path: &Path, errs: &mut Checked) {
    let mut found = ErrorList::default();
    validate_binding_parameters(conditions, failure, path, &mut found);
    for e in found.0 {
        if e.error_type == ErrorType::TooMany {
            errs.covered(e);
        } else {
            errs.push(e);
        }
    }
}

/// Go's `validateDeviceAllocationConfiguration`.
fn allocation_configuration(
    c: &DeviceAllocationConfiguration,
    path: &Path,
    names: &RequestNames,
    errs: &mut Checked,
) {
    const SOURCES: &[&str] = &["FromClaim", "FromClass"];
    let sp = path.child("source");
    match c.source.as_str() {
        "" => errs.covered(Error::required(&sp, "")),
        s if SOURCES.contains(&s) => {}
        s => errs.covered(Error::not_supported(&sp, json_value(s), SOURCES)),
    }
    let rp = path.child("requests");
    if !errs.run(true, |e| {
        too_many(c.requests.len(), DEVICE_REQUESTS_MAX_SIZE, &rp, e)
    }) {
        for (i, name) in c.requests.iter().enumerate() {
            errs.run(false, |e| {
                validate_request_name_ref(name, &rp.index(i), names, e)
            });
        }
        errs.run(true, |e| {
            duplicates(c.requests.iter().map(String::as_str), &rp, e)
        });
    }
    let op = path.child("opaque");
    match &c.opaque {
        None => errs.push(Error::required(&op, "")),
        Some(o) => {
            errs.run(true, |e| {
                validate_driver_name(&o.driver, &op.child("driver"), e)
            });
            errs.run(false, |e| {
                validate_raw_extension(
                    &o.parameters.raw,
                    &op.child("parameters"),
                    false,
                    OPAQUE_PARAMETERS_MAX_LENGTH,
                    e,
                )
            });
        }
    }
}

/// Go's `validateDeviceStatus`: the device's names, its share ID, that it is one the
/// allocation gave, its conditions, data and network data.
fn device_status(
    d: &AllocatedDeviceStatus,
    path: &Path,
    allocated: &BTreeSet<SharedDeviceId>,
    errs: &mut Checked,
) {
    errs.run(false, |e| {
        validate_driver_name(&d.driver, &path.child("driver"), e);
        validate_pool_name(&d.pool, &path.child("pool"), e);
        dns1123_label(&d.device, &path.child("device"), e);
    });
    if let Some(id) = &d.share_id {
        uid(id, &path.child("shareID"), errs);
    }
    let id = SharedDeviceId::of(d);
    if !allocated.contains(&id) {
        errs.push(Error::invalid(
            path,
            id.value(),
            "must be an allocated device in the claim",
        ));
    }
    let conditions = d.conditions.as_deref().unwrap_or_default();
    let cp = path.child("conditions");
    if conditions.len() > DEVICE_STATUS_MAX_CONDITIONS {
        errs.push(Error::too_many(
            &cp,
            conditions.len() as i64,
            DEVICE_STATUS_MAX_CONDITIONS as i64,
        ));
    }
    errs.extend(validate_conditions(conditions, &cp));
    if let Some(data) = d.data.as_ref().filter(|d| !d.raw.is_empty()) {
        errs.run(false, |e| {
            validate_raw_extension(
                &data.raw,
                &path.child("data"),
                false,
                DEVICE_STATUS_DATA_MAX_LENGTH,
                e,
            )
        });
    }
    if let Some(n) = &d.network_data {
        network_data(n, &path.child("networkData"), errs);
    }
}

/// Go's `validateNetworkDeviceData`: the lengths and the list's size and uniqueness are
/// covered, each address's form is not.
fn network_data(n: &NetworkDeviceData, path: &Path, errs: &mut Checked) {
    if n.interface_name.len() > INTERFACE_NAME_MAX_LENGTH {
        errs.covered(Error::too_long(
            &path.child("interfaceName"),
            INTERFACE_NAME_MAX_LENGTH as i64,
        ));
    }
    if n.hardware_address.len() > HARDWARE_ADDRESS_MAX_LENGTH {
        errs.covered(Error::too_long(
            &path.child("hardwareAddress"),
            HARDWARE_ADDRESS_MAX_LENGTH as i64,
        ));
    }
    let ip = path.child("ips");
    if errs.run(true, |e| too_many(n.ips.len(), MAX_IPS, &ip, e)) {
        return;
    }
    for (i, address) in n.ips.iter().enumerate() {
        if let Some(msg) = interface_address_error(address) {
            errs.push(Error::invalid(&ip.index(i), address.as_str(), msg));
        }
    }
    errs.run(true, |e| {
        duplicates(n.ips.iter().map(String::as_str), &ip, e)
    });
}

/// Go's `IsValidInterfaceAddress`: an address with its prefix length, in canonical form.
fn interface_address_error(value: &str) -> Option<String> {
    let Some(cidr) = parse_cidr_sloppy(value) else {
        return Some(
            "must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)".to_owned(),
        );
    };
    // The prefix of an IPv4 address written in IPv6 form counts IPv4's bits.
    let mut ones = cidr.ones;
    if cidr.bits == 128 && cidr.ip.to4().is_some() && ones > 32 {
        ones -= 96;
    }
    let canonical = format!("{}/{ones}", cidr.ip.go_string());
    (value != canonical).then(|| format!("must be in canonical form ({})", go_quote(&canonical)))
}

/// Go's `%q` of a canonical address (ASCII without quotes or backslashes).
fn go_quote(s: &str) -> String {
    format!("\"{s}\"")
}

/// Go's `validateUID` (covered): `uuid.Validate`, then the normalized form.
fn uid(value: &str, path: &Path, errs: &mut Checked) {
    let detail = match uuid_error(value) {
        Some(e) => format!("error validating uid: {e}"),
        None if value.len() != 36 || value.bytes().any(|b| b.is_ascii_uppercase()) => {
            "uid must be in RFC 4122 normalized form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters".to_owned()
        }
        None => return,
    };
    errs.covered(Error::invalid(path, value, detail));
}

/// `github.com/google/uuid`'s `Validate`: the standard form, with a `urn:uuid:` prefix,
/// in braces, or 32 hex digits without hyphens.
fn uuid_error(s: &str) -> Option<String> {
    const FORMAT: &str = "invalid UUID format";
    let b = s.as_bytes();
    let hex = |i: usize| b[i].is_ascii_hexdigit() && b[i + 1].is_ascii_hexdigit();
    let standard = match b.len() {
        36 => b,
        45 => {
            // Go prints the prefix with `%q`, bytes and all; `urn:uuid:` in any case.
            let prefix = &b[..9];
            if !prefix.eq_ignore_ascii_case(b"urn:uuid:") {
                return Some(format!("invalid urn prefix: {}", go_quote_bytes(prefix)));
            }
            &b[9..]
        }
        38 => {
            if b[0] != b'{' || b[37] != b'}' {
                return Some("invalid bracketed UUID format".to_owned());
            }
            &b[1..37]
        }
        32 => {
            return (0..32)
                .step_by(2)
                .any(|i| !hex(i))
                .then(|| FORMAT.to_owned());
        }
        n => return Some(format!("invalid UUID length: {n}")),
    };
    let sb = standard;
    let hex = |i: usize| sb[i].is_ascii_hexdigit() && sb[i + 1].is_ascii_hexdigit();
    let dashes = [8, 13, 18, 23].iter().all(|&i| sb[i] == b'-');
    let digits = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]
        .iter()
        .all(|&i| hex(i));
    (!(dashes && digits)).then(|| FORMAT.to_owned())
}

/// Go's `SharedDeviceID`: a device's driver, pool and name, and its share.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct SharedDeviceId {
    driver: String,
    pool: String,
    device: String,
    share: String,
}

impl SharedDeviceId {
    fn new(driver: &str, pool: &str, device: &str, share: Option<&str>) -> Self {
        SharedDeviceId {
            driver: driver.to_owned(),
            pool: pool.to_owned(),
            device: device.to_owned(),
            share: share.unwrap_or_default().to_owned(),
        }
    }

    fn of(d: &AllocatedDeviceStatus) -> Self {
        Self::new(&d.driver, &d.pool, &d.device, d.share_id.as_deref())
    }

    /// As a field error prints it: `json.Marshal` of the struct, whose unique strings
    /// write themselves as JSON strings.
    fn value(&self) -> BadValue {
        let s = |v: &str| match json_value(v) {
            BadValue::Json(text) => text,
            _ => String::new(),
        };
        BadValue::Json(format!(
            "{{\"Driver\":{},\"Pool\":{},\"Device\":{},\"ShareID\":{}}}",
            s(&self.driver),
            s(&self.pool),
            s(&self.device),
            s(&self.share)
        ))
    }
}
