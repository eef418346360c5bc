//! DeviceTaintRule (an administrator's taint on devices) and ResourcePoolStatusRequest
//! (a request for a pool's status, validated declaratively only).

use crate::validation::{validate_object_meta, validate_object_meta_update};
use apimachinery::apis::meta::v1::validation::name_is_dns_subdomain;
#[cfg(feature = "v1_37")]
use apimachinery::apis::meta::v1::validation::validate_generic_object_meta;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use super::super::json_value;
use super::{
    dns1123_label, resource_pool_name, validate_device_taint, validate_driver_name,
    validate_pool_name,
};
use crate::resource::v1alpha3::{
    PoolStatus, ResourcePoolStatusRequest, ResourcePoolStatusRequestSpec,
    ResourcePoolStatusRequestStatus,
};
// The hub: `v1beta2` on 1.36; 1.37 serves `v1`, which became the hub.
#[cfg(feature = "v1_37")]
use crate::resource::v1::{DeviceTaintRule, DeviceTaintRuleSpec};
#[cfg(not(feature = "v1_37"))]
use crate::resource::v1beta2::{DeviceTaintRule, DeviceTaintRuleSpec};
use crate::validation::declarative::long_name_caseless;

/// Go's `ValidateDeviceTaintRule`.
pub fn validate_device_taint_rule(rule: &DeviceTaintRule) -> ErrorList {
    let mp = Path::new("metadata");
    let mut errs = validate_object_meta(&rule.metadata, false, name_is_dns_subdomain, &mp);
    validate_device_taint_rule_spec(&rule.spec, None, &mut errs);
    errs
}

/// Go's `ValidateDeviceTaintRuleUpdate`: metadata kept, the spec valid (an unchanged
/// effect is not checked again).
pub fn validate_device_taint_rule_update(
    new: &DeviceTaintRule,
    old: &DeviceTaintRule,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    validate_device_taint_rule_spec(&new.spec, Some(&old.spec), &mut errs);
    errs
}

/// Go's `DeviceTaintRuleStatusMaxConditions`.
const MAX_STATUS_CONDITIONS: i64 = 8;

/// Go's `ValidateDeviceTaintRuleStatusUpdate`, the `/status` validator: the metadata
/// update, and the conditions (`ValidateConditions`, at most eight).
pub fn validate_device_taint_rule_status_update(
    new: &DeviceTaintRule,
    old: &DeviceTaintRule,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let status = Path::new("status");
    let conditions = status.child("conditions");
    let list = &new.status.conditions;
    errs.extend(crate::validation::conditions::validate_conditions(
        list,
        &conditions,
    ));
    if i64::try_from(list.len()).unwrap_or(i64::MAX) > MAX_STATUS_CONDITIONS {
        errs.push(Error::too_many(
            &conditions,
            i64::try_from(list.len()).unwrap_or(i64::MAX),
            MAX_STATUS_CONDITIONS,
        ));
    }
    errs
}

fn validate_device_taint_rule_spec(
    spec: &DeviceTaintRuleSpec,
    old: Option<&DeviceTaintRuleSpec>,
    errs: &mut ErrorList,
) {
    let path = Path::new("spec");
    if let Some(sel) = &spec.device_selector {
        let sp = path.child("deviceSelector");
        if let Some(d) = &sel.driver {
            validate_driver_name(d, &sp.child("driver"), errs);
        }
        if let Some(p) = &sel.pool {
            validate_pool_name(p, &sp.child("pool"), errs);
        }
        if let Some(d) = &sel.device {
            dns1123_label(d, &sp.child("device"), errs);
        }
    }
    validate_device_taint(
        &spec.taint,
        old.map(|o| &o.taint),
        &path.child("taint"),
        errs,
    );
}

/// Go's `ValidateResourcePoolStatusRequest` (the metadata) and the declarative rules
/// of `resource.k8s.io/v1alpha3`, which its strategy enforces
/// (`WithDeclarativeEnforcement`): spec and status.
pub fn validate_resource_pool_status_request(r: &ResourcePoolStatusRequest) -> ErrorList {
    let mp = Path::new("metadata");
    let mut errs = validate_object_meta(&r.metadata, false, name_is_dns_subdomain, &mp);
    validate_request_spec(&r.spec, &mut errs);
    if let Some(status) = &r.status {
        validate_request_status(status, None, &mut errs);
    }
    errs
}

/// The update: metadata kept; the spec immutable; a changed status valid (the
/// declarative rules check only what changed).
pub fn validate_resource_pool_status_request_update(
    new: &ResourcePoolStatusRequest,
    old: &ResourcePoolStatusRequest,
) -> ErrorList {
    let meta = validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    // On 1.37 kube-apiserver runs the declarative rules (the spec's and the status's
    // below) after the generic metadata checks, which run when the hand-written update
    // checks (the metadata's only) found nothing: a namespace, kept from the old object,
    // is then refused. On 1.36 the strategy's `ValidateUpdate` merged them, so any of
    // them skipped the generic checks.
    #[cfg(feature = "v1_37")]
    let meta = if meta.is_empty() {
        validate_generic_object_meta(&new.metadata, false)
    } else {
        meta
    };
    let mut errs = meta;
    if new.spec != old.spec {
        errs.push(Error::invalid(
            &Path::new("spec"),
            BadValue::Json("null".to_owned()),
            "field is immutable",
        ));
    }
    if new.status != old.status {
        if let Some(status) = &new.status {
            validate_request_status(status, old.status.as_ref(), &mut errs);
        }
    }
    errs
}

/// `validate.Minimum` and `validate.Maximum`.
fn in_range(value: i64, min: Option<i64>, max: Option<i64>, path: &Path, errs: &mut ErrorList) {
    if let Some(min) = min.filter(|m| value < *m) {
        errs.push(Error::invalid(
            path,
            value,
            format!("must be greater than or equal to {min}"),
        ));
    }
    if let Some(max) = max.filter(|m| value > *m) {
        errs.push(Error::invalid(
            path,
            value,
            format!("must be less than or equal to {max}"),
        ));
    }
}

fn validate_request_spec(spec: &ResourcePoolStatusRequestSpec, errs: &mut ErrorList) {
    let path = Path::new("spec");
    let dp = path.child("driver");
    if spec.driver.is_empty() {
        errs.push(Error::required(&dp, ""));
    } else {
        long_name_caseless(&spec.driver, &dp, errs);
    }
    if let Some(p) = &spec.pool_name {
        resource_pool_name(p, &path.child("poolName"), errs);
    }
    let lp = path.child("limit");
    match spec.limit {
        None => errs.push(Error::required(&lp, "")),
        Some(l) => in_range(i64::from(l), Some(1), Some(1000), &lp, errs),
    }
    // 1.37's field, forbidden while its alpha gate (DRAPartitionableDevicesType) is off.
    #[cfg(feature = "v1_37")]
    if spec.default_partition_type_attribute.is_some() {
        errs.push(Error::forbidden(
            &path.child("defaultPartitionTypeAttribute"),
            "",
        ));
    }
}

/// The status's declarative rules; on update only the fields that changed.
pub(super) fn validate_request_status(
    status: &ResourcePoolStatusRequestStatus,
    old: Option<&ResourcePoolStatusRequestStatus>,
    errs: &mut ErrorList,
) {
    let path = Path::new("status");
    if old.is_none_or(|o| o.pool_count != status.pool_count) {
        let p = path.child("poolCount");
        match status.pool_count {
            None => errs.push(Error::required(&p, "")),
            Some(n) => in_range(i64::from(n), Some(0), None, &p, errs),
        }
    }
    if old.is_none_or(|o| o.pools != status.pools) {
        let p = path.child("pools");
        if status.pools.len() > 1000 {
            errs.push(Error::too_many(&p, status.pools.len() as i64, 1000));
        } else {
            for (i, pool) in status.pools.iter().enumerate() {
                validate_pool_status(pool, &p.index(i), errs);
            }
        }
    }
    if old.is_none_or(|o| o.conditions != status.conditions) {
        let p = path.child("conditions");
        let conditions = &status.conditions;
        if conditions.len() > 10 {
            errs.push(Error::too_many(&p, conditions.len() as i64, 10));
        } else {
            for (i, c) in conditions.iter().enumerate() {
                if conditions[..i].iter().any(|o| o.r#type == c.r#type) {
                    errs.push(Error::duplicate(&p.index(i), json_value(c)));
                }
            }
        }
    }
}

fn validate_pool_status(pool: &PoolStatus, path: &Path, errs: &mut ErrorList) {
    let dp = path.child("driver");
    if pool.driver.is_empty() {
        errs.push(Error::required(&dp, ""));
    } else {
        long_name_caseless(&pool.driver, &dp, errs);
    }
    let pp = path.child("poolName");
    if pool.pool_name.is_empty() {
        errs.push(Error::required(&pp, ""));
    } else {
        resource_pool_name(&pool.pool_name, &pp, errs);
    }
    let gp = path.child("generation");
    if pool.generation == 0 {
        errs.push(Error::required(&gp, ""));
    } else {
        in_range(pool.generation, Some(0), None, &gp, errs);
    }
    for (name, value, min) in [
        ("resourceSliceCount", pool.resource_slice_count, 1),
        ("totalDevices", pool.total_devices, 0),
        ("allocatedDevices", pool.allocated_devices, 0),
        ("availableDevices", pool.available_devices, 0),
        ("unavailableDevices", pool.unavailable_devices, 0),
    ] {
        if let Some(v) = value {
            in_range(i64::from(v), Some(min), None, &path.child(name), errs);
        }
    }
    if let Some(n) = &pool.node_name {
        for m in apimachinery::util::validation::is_dns1123_subdomain(n) {
            errs.push(Error::invalid(&path.child("nodeName"), n.as_str(), m));
        }
    }
    if let Some(e) = &pool.validation_error {
        if e.len() > 256 {
            errs.push(Error::too_long(&path.child("validationError"), 256));
        }
    }
    #[cfg(feature = "v1_37")]
    validate_pool_summaries(pool, path, errs);
}

/// `validate.RequiredPointer` and `validate.Minimum` of an optional count.
#[cfg(feature = "v1_37")]
fn required_at_least(value: Option<i32>, min: i64, path: &Path, errs: &mut ErrorList) {
    match value {
        None => errs.push(Error::required(path, "")),
        Some(v) => in_range(i64::from(v), Some(min), None, path, errs),
    }
}

/// Kubernetes 1.37's summaries of a pool: `partitionSummary` (at most 32, unique by
/// attribute and type, each with its counts) and `shareableSummary` (its device
/// counts, and at most 32 capacities with all their quantities).
#[cfg(feature = "v1_37")]
fn validate_pool_summaries(pool: &PoolStatus, path: &Path, errs: &mut ErrorList) {
    const MAX_ITEMS: usize = 32;
    let pp = path.child("partitionSummary");
    let partitions = &pool.partition_summary;
    if partitions.len() > MAX_ITEMS {
        errs.push(Error::too_many(
            &pp,
            partitions.len() as i64,
            MAX_ITEMS as i64,
        ));
    } else {
        for (i, p) in partitions.iter().enumerate() {
            if partitions[..i]
                .iter()
                .any(|o| o.attribute == p.attribute && o.r#type == p.r#type)
            {
                errs.push(Error::duplicate(&pp.index(i), json_value(p)));
            }
        }
        for (i, p) in partitions.iter().enumerate() {
            let ip = pp.index(i);
            for (name, value) in [("attribute", &p.attribute), ("type", &p.r#type)] {
                if value.is_empty() {
                    errs.push(Error::required(&ip.child(name), ""));
                }
            }
            required_at_least(p.total, 0, &ip.child("total"), errs);
            required_at_least(p.allocatable, 0, &ip.child("allocatable"), errs);
        }
    }
    let Some(summary) = &pool.shareable_summary else {
        return;
    };
    let sp = path.child("shareableSummary");
    required_at_least(
        summary.fully_available_devices,
        0,
        &sp.child("fullyAvailableDevices"),
        errs,
    );
    required_at_least(
        summary.partially_available_devices,
        0,
        &sp.child("partiallyAvailableDevices"),
        errs,
    );
    let cp = sp.child("capacity");
    if summary.capacity.len() > MAX_ITEMS {
        errs.push(Error::too_many(
            &cp,
            summary.capacity.len() as i64,
            MAX_ITEMS as i64,
        ));
        return;
    }
    for (i, c) in summary.capacity.iter().enumerate() {
        let ip = cp.index(i);
        if c.name.is_empty() {
            errs.push(Error::required(&ip.child("name"), ""));
        }
        for (name, value) in [
            ("total", &c.total),
            ("consumed", &c.consumed),
            ("available", &c.available),
        ] {
            if value.is_none() {
                errs.push(Error::required(&ip.child(name), ""));
            }
        }
    }
}
