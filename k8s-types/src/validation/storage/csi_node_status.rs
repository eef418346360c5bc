//! A CSINode's `/status` (Kubernetes 1.37; Go's `ValidateCSINodeStatusUpdate`): the
//! storage health each driver reports, unique by driver name, at most 16 conditions
//! each, with known statuses, access and volume modes and a condition reason.
//!
//! The field is behind the CSIVolumeHealth gate (alpha, off by default): Go's status
//! strategy drops it from an update unless the old object had it, so a default server
//! only judges health an object already carried.

// A `BTreeSet<&str>`, not a `HashSet`: the std map code for `&str` keys is compiled
// for other checks already (`HashSet` would add hashbrown's, for the same answers).
use std::collections::BTreeSet;

use apimachinery::apis::meta::v1::validation::is_valid_condition_reason;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use crate::storage::v1::{CSINode, StorageHealth, StorageHealthCondition};
use crate::validation::{validate_csi_driver_name, validate_object_meta_update};

/// Go's `maxStorageHealthConditions`.
const MAX_CONDITIONS: i64 = 16;
/// Go's `validStorageHealthStatusTypes`, sorted as `NotSupported` lists them.
const STATUS_TYPES: &[&str] = &["StorageDegraded", "StorageUnreachable"];
/// Go's `validStorageHealthAccessModes`, sorted.
const ACCESS_MODES: &[&str] = &[
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOnce",
    "ReadWriteOncePod",
];
/// The volume modes, in the order Go lists them.
const VOLUME_MODES: &[&str] = &["Filesystem", "Block"];

/// Go's `ValidateCSINodeStatusUpdate`: the metadata's identity kept and each storage
/// health entry valid, no driver named twice.
pub fn validate_csi_node_status_update(new: &CSINode, old: &CSINode) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let status = Path::new("status");
    let fld = status.child("storageHealth");
    let mut seen = BTreeSet::new();
    for (i, health) in new.status.storage_health.iter().enumerate() {
        let ip = fld.index(i);
        if !seen.insert(health.name.as_str()) {
            errs.push(Error::duplicate(&ip, health.name.as_str()));
        }
        storage_health(health, &ip, &mut errs);
    }
    errs
}

/// Go's `validateStorageHealth`.
fn storage_health(health: &StorageHealth, path: &Path, errs: &mut ErrorList) {
    let np = path.child("name");
    if health.name.is_empty() {
        errs.push(Error::required(&np, ""));
    } else {
        errs.extend(validate_csi_driver_name(&health.name, &np));
    }
    let cp = path.child("healthConditions");
    let n = i64::try_from(health.health_conditions.len()).unwrap_or(i64::MAX);
    if n > MAX_CONDITIONS {
        errs.push(Error::too_many(&cp, n, MAX_CONDITIONS));
        return;
    }
    for (i, condition) in health.health_conditions.iter().enumerate() {
        storage_health_condition(condition, &cp.index(i), errs);
    }
}

/// Go's `validateStorageHealthCondition`.
fn storage_health_condition(c: &StorageHealthCondition, path: &Path, errs: &mut ErrorList) {
    if !STATUS_TYPES.contains(&c.status.as_str()) {
        errs.push(Error::not_supported(
            &path.child("status"),
            BadValue::json_string(&c.status),
            STATUS_TYPES,
        ));
    }
    let rp = path.child("reason");
    if c.reason.is_empty() {
        errs.push(Error::required(&rp, ""));
    } else {
        for msg in is_valid_condition_reason(&c.reason) {
            errs.push(Error::invalid(&rp, c.reason.as_str(), msg));
        }
        if c.reason.len() > 256 {
            errs.push(Error::too_long(&rp, 256));
        }
    }
    if c.message.len() > 1024 {
        errs.push(Error::too_long(&path.child("message"), 1024));
    }
    if let Some(mode) = c
        .access_mode
        .as_deref()
        .filter(|m| !ACCESS_MODES.contains(m))
    {
        errs.push(Error::not_supported(
            &path.child("accessMode"),
            BadValue::json_string(mode),
            ACCESS_MODES,
        ));
    }
    if let Some(mode) = c
        .volume_mode
        .as_deref()
        .filter(|m| !VOLUME_MODES.contains(m))
    {
        errs.push(Error::not_supported(
            &path.child("volumeMode"),
            BadValue::json_string(mode),
            VOLUME_MODES,
        ));
    }
}
