//! A claim's `status.healthStatus` (Kubernetes 1.37): the declarative rules of
//! `corev1.VolumeHealthStatus` and `corev1.VolumeHealthCondition` (Go's generated
//! `Validate_VolumeHealthStatus`, standard rules, so enforced by both the main and the
//! `/status` strategy), and the hand-written reason format the `/status` strategy adds
//! (Go's `validateVolumeHealthStatus`).

use apimachinery::apis::meta::v1::validation::is_valid_condition_reason;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path, json_of};

use crate::core::v1::{VolumeHealthCondition, VolumeHealthStatus};
use crate::validation::invalid_each;

/// `+k8s:maxItems` of `healthConditions`.
const MAX_CONDITIONS: usize = 16;
/// `+k8s:maxBytes` of a condition's reason and message.
const MAX_REASON_BYTES: usize = 256;
const MAX_MESSAGE_BYTES: usize = 1024;
/// Go's `VolumeHealthStatusType` values, sorted as `NotSupported` lists them.
const STATUS_TYPES: &[&str] = &["DataLoss", "Degraded", "Inaccessible"];

/// The declarative rules of a claim's `healthStatus` under `path`, judged as an update
/// of `old` when there is one: an unchanged status, an unchanged condition (matched by
/// status and reason) and an unchanged field are not checked again.
pub(crate) fn validate_volume_health_status(
    new: Option<&VolumeHealthStatus>,
    old: Option<Option<&VolumeHealthStatus>>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let Some(status) = new else { return };
    if old == Some(Some(status)) {
        return;
    }
    let old_list = old.map(|o| o.map_or(&[][..], |o| o.health_conditions.as_slice()));
    let list = &status.health_conditions;
    let p = path.child("healthConditions");
    if old_list == Some(list.as_slice()) {
        return;
    }
    if list.len() > MAX_CONDITIONS {
        errs.push(Error::too_many(
            &p,
            i64::try_from(list.len()).unwrap_or(i64::MAX),
            MAX_CONDITIONS as i64,
        ));
        return;
    }
    let key = |c: &VolumeHealthCondition| (c.status.clone(), c.reason.clone());
    // A key repeated is reported on each later condition, as `ValSliceUnique` does.
    for (i, c) in list.iter().enumerate() {
        if list[..i].iter().any(|e| key(e) == key(c)) {
            errs.push(Error::duplicate(&p.index(i), json_of(c)));
        }
    }
    for (i, c) in list.iter().enumerate() {
        let old = old_list.and_then(|o| o.iter().find(|o| key(o) == key(c)));
        if old == Some(c) {
            continue;
        }
        condition(c, old, &p.index(i), errs);
    }
}

/// Go's `Validate_VolumeHealthCondition`; `old` is the condition of the same status
/// and reason an update replaces (so only its message is checked again).
fn condition(
    c: &VolumeHealthCondition,
    old: Option<&VolumeHealthCondition>,
    path: &Path,
    errs: &mut ErrorList,
) {
    if old.is_none() {
        let sp = path.child("status");
        if c.status.is_empty() {
            errs.push(Error::required(&sp, ""));
        } else if !STATUS_TYPES.contains(&c.status.as_str()) {
            errs.push(Error::not_supported(
                &sp,
                BadValue::json_string(&c.status),
                STATUS_TYPES,
            ));
        }
        let rp = path.child("reason");
        if c.reason.is_empty() {
            errs.push(Error::required(&rp, ""));
        } else if c.reason.len() > MAX_REASON_BYTES {
            errs.push(Error::too_long(&rp, MAX_REASON_BYTES as i64));
        }
    }
    if old.is_some_and(|o| o.message == c.message) {
        return;
    }
    if c.message.len() > MAX_MESSAGE_BYTES {
        errs.push(Error::too_long(
            &path.child("message"),
            MAX_MESSAGE_BYTES as i64,
        ));
    }
}

/// Go's `validateVolumeHealthStatus` (the `/status` strategy's hand-written check): a
/// condition's non-empty reason in Go's condition-reason format.
pub(crate) fn validate_volume_health_reasons(
    status: Option<&VolumeHealthStatus>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let Some(status) = status else { return };
    let p = path.child("healthConditions");
    for (i, c) in status.health_conditions.iter().enumerate() {
        if !c.reason.is_empty() {
            let ip = p.index(i);
            let rp = ip.child("reason");
            invalid_each(errs, &rp, &c.reason, is_valid_condition_reason(&c.reason));
        }
    }
}
