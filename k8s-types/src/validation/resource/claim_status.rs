//! A ResourceClaim's status as Kubernetes 1.37's main strategy judges it: the claim's
//! declarative rules (`zz_generated.validations.go`) cover the whole object, status
//! included, and 1.37 enforces those tagged `+k8s:beta`. The hand-written status
//! rules (`validateResourceClaimStatusUpdate`) belong to the status subresource and
//! are not run here.

use apimachinery::apis::meta::v1::validation::validate_label_name;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use super::super::json_value;
use super::slice::skip_node_operations_declared;
use super::{TAINT_EFFECTS, resource_pool_name};
use crate::resource::v1::{
    AllocatedDeviceStatus, AllocationResult, DeviceAllocationConfiguration,
    DeviceRequestAllocationResult, DeviceToleration, NetworkDeviceData, ResourceClaimStatus,
};
use crate::validation::declarative::long_name_caseless;
use crate::validation::semantic::semantic_eq;

/// `validate.UUID`'s message.
const UUID_MSG: &str = "must be a lowercase UUID in 8-4-4-4-12 format";

/// The status's declarative rules; on update (`old`) only what changed, and an
/// allocation, once set, may not change.
pub(super) fn validate_claim_status(
    status: &ResourceClaimStatus,
    old: Option<&ResourceClaimStatus>,
    errs: &mut ErrorList,
) {
    // Go's ratcheting compares with `Semantic.DeepEqual`: a nil list is an empty one.
    if old.is_some_and(|o| semantic_eq(o, status)) {
        return;
    }
    let path = Path::new("status");
    let old_allocation = old.and_then(|o| o.allocation.as_ref());
    if let Some(allocation) = &status.allocation {
        let ap = path.child("allocation");
        match old_allocation {
            Some(o) if semantic_eq(o, allocation) => {}
            Some(_) => errs.push(Error::invalid(
                &ap,
                BadValue::null(),
                "field cannot be modified once set",
            )),
            None => validate_allocation(allocation, &ap, errs),
        }
    }

    let reserved = &status.reserved_for;
    if old.is_none_or(|o| &o.reserved_for != reserved) {
        let rp = path.child("reservedFor");
        if reserved.len() > 256 {
            errs.push(Error::too_many(&rp, reserved.len() as i64, 256));
        } else {
            duplicates_by(reserved, |a, b| a.uid == b.uid, &rp, errs);
        }
    }

    let devices = &status.devices;
    let old_devices = old.map(|o| o.devices.as_slice()).unwrap_or_default();
    if old_devices != devices.as_slice() {
        let dp = path.child("devices");
        duplicates_by(devices, same_device, &dp, errs);
        for (i, d) in devices.iter().enumerate() {
            // An entry the update kept (same key, same content) is not checked again.
            if !old_devices.contains(d) {
                validate_device_status(d, &dp.index(i), errs);
            }
        }
    }
}

/// The key of a device's status entry: driver, pool, device and share.
fn same_device(a: &AllocatedDeviceStatus, b: &AllocatedDeviceStatus) -> bool {
    a.driver == b.driver && a.device == b.device && a.pool == b.pool && a.share_id == b.share_id
}

/// `validate.ValSliceUnique`: `Duplicate` at each later item matching an earlier
/// one, with the item (its JSON) as the value.
fn duplicates_by<T: apimachinery::util::json::WriteJson>(
    items: &[T],
    same: impl Fn(&T, &T) -> bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    for (i, item) in items.iter().enumerate() {
        if items[..i].iter().any(|earlier| same(earlier, item)) {
            errs.push(Error::duplicate(&path.index(i), json_value(item)));
        }
    }
}

fn validate_allocation(a: &AllocationResult, path: &Path, errs: &mut ErrorList) {
    let dp = path.child("devices");
    let rp = dp.child("results");
    let results = &a.devices.results;
    if results.len() > 32 {
        errs.push(Error::too_many(&rp, results.len() as i64, 32));
    } else {
        for (i, r) in results.iter().enumerate() {
            validate_result(r, &rp.index(i), errs);
        }
    }
    let cp = dp.child("config");
    let config = &a.devices.config;
    if config.len() > 64 {
        errs.push(Error::too_many(&cp, config.len() as i64, 64));
    } else {
        for (i, c) in config.iter().enumerate() {
            validate_config(c, &cp.index(i), errs);
        }
    }
}

/// A driver name's declarative rules: required, at most 63 bytes, a DNS subdomain
/// of either case.
fn driver_name(name: &str, path: &Path, errs: &mut ErrorList) {
    if name.is_empty() {
        errs.push(Error::required(path, ""));
        return;
    }
    long_name_caseless(name, path, errs);
    if name.len() > 63 {
        errs.push(Error::too_long(path, 63));
    }
}

fn uuid(value: &str, path: &Path, errs: &mut ErrorList) {
    let ok = value.len() == 36
        && value.bytes().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == b'-',
            _ => c.is_ascii_digit() || (b'a'..=b'f').contains(&c),
        });
    if !ok {
        errs.push(Error::invalid(path, value, UUID_MSG));
    }
}

fn validate_result(r: &DeviceRequestAllocationResult, path: &Path, errs: &mut ErrorList) {
    driver_name(&r.driver, &path.child("driver"), errs);
    let pp = path.child("pool");
    if r.pool.is_empty() {
        errs.push(Error::required(&pp, ""));
    } else {
        resource_pool_name(&r.pool, &pp, errs);
    }
    let tp = path.child("tolerations");
    for (i, t) in r.tolerations.iter().enumerate() {
        declared_toleration(t, &tp.index(i), errs);
    }
    for (name, list) in [
        ("bindingConditions", &r.binding_conditions),
        ("bindingFailureConditions", &r.binding_failure_conditions),
    ] {
        if list.len() > 4 {
            errs.push(Error::too_many(&path.child(name), list.len() as i64, 4));
        }
    }
    if let Some(id) = &r.share_id {
        uuid(id, &path.child("shareID"), errs);
    }
    skip_node_operations_declared(
        &r.skip_node_operations,
        &path.child("skipNodeOperations"),
        errs,
    );
}

/// `Validate_DeviceToleration`: a label key if set, a known operator, a known effect
/// if set.
pub(super) fn declared_toleration(t: &DeviceToleration, path: &Path, errs: &mut ErrorList) {
    if !t.key.is_empty() {
        errs.extend(validate_label_name(&t.key, &path.child("key")));
    }
    let op = path.child("operator");
    if t.operator.is_empty() {
        errs.push(Error::required(&op, ""));
    } else if !["Equal", "Exists"].contains(&t.operator.as_str()) {
        errs.push(Error::not_supported(
            &op,
            json_value(&t.operator),
            &["Equal", "Exists"],
        ));
    }
    if !t.effect.is_empty() && !TAINT_EFFECTS.contains(&t.effect.as_str()) {
        errs.push(Error::not_supported(
            &path.child("effect"),
            json_value(&t.effect),
            TAINT_EFFECTS,
        ));
    }
}

fn validate_config(c: &DeviceAllocationConfiguration, path: &Path, errs: &mut ErrorList) {
    const SOURCES: &[&str] = &["FromClaim", "FromClass"];
    let sp = path.child("source");
    if c.source.is_empty() {
        errs.push(Error::required(&sp, ""));
    } else if !SOURCES.contains(&c.source.as_str()) {
        errs.push(Error::not_supported(&sp, json_value(&c.source), SOURCES));
    }
    let rp = path.child("requests");
    if c.requests.len() > 32 {
        errs.push(Error::too_many(&rp, c.requests.len() as i64, 32));
    } else {
        duplicates_by(&c.requests, |a, b| a == b, &rp, errs);
    }
    if let Some(o) = &c.opaque {
        driver_name(&o.driver, &path.child("opaque").child("driver"), errs);
    }
}

fn validate_device_status(d: &AllocatedDeviceStatus, path: &Path, errs: &mut ErrorList) {
    if let Some(id) = &d.share_id {
        uuid(id, &path.child("shareID"), errs);
    }
    if let Some(n) = &d.network_data {
        validate_network_data(n, &path.child("networkData"), errs);
    }
}

fn validate_network_data(n: &NetworkDeviceData, path: &Path, errs: &mut ErrorList) {
    if n.interface_name.len() > 256 {
        errs.push(Error::too_long(&path.child("interfaceName"), 256));
    }
    let ip = path.child("ips");
    if n.ips.len() > 16 {
        errs.push(Error::too_many(&ip, n.ips.len() as i64, 16));
    } else {
        duplicates_by(&n.ips, |a, b| a == b, &ip, errs);
    }
    if n.hardware_address.len() > 128 {
        errs.push(Error::too_long(&path.child("hardwareAddress"), 128));
    }
}
