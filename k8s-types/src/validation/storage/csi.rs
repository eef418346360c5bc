//! The CSI kinds (Go's `ValidateCSIDriver`, `ValidateCSINode` and
//! `ValidateCSIStorageCapacity`).

// A `BTreeSet<&str>`, not a `HashSet`: the std map code for `&str` keys is compiled
// for other checks already (`HashSet` would add hashbrown's, for the same answers).
use std::collections::BTreeSet;

use apimachinery::apis::meta::v1::validation::{
    FIELD_IMMUTABLE_ERROR_MSG, IS_NEGATIVE_ERROR_MSG, name_is_dns_subdomain,
};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::is_qualified_name;

use crate::storage::v1::{CSIDriver, CSIDriverSpec, CSINode, CSINodeDriver, CSIStorageCapacity};
use crate::validation::go_value::{go_json, go_list};
use crate::validation::invalid_each;
use crate::validation::label_selector::{has_invalid_label_selector, validate_label_selector_with};
// Go's core function, which the PersistentVolume's CSI source checks too.
use crate::validation::validate_csi_driver_name;
use crate::validation::{validate_object_meta, validate_object_meta_update};

/// Go's `csiNodeIDMaxLength`.
const CSI_NODE_ID_MAX_LENGTH: usize = 256;

/// Go's `ValidateCSIDriver`.
pub fn validate_csi_driver(d: &CSIDriver) -> ErrorList {
    let mut errs = validate_object_meta(
        &d.metadata,
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    validate_csi_driver_spec(&d.spec, &mut errs);
    errs
}

/// Go's `ValidateCSIDriverUpdate`: `attachRequired` (reported as Go names it,
/// `attachedRequired`) and `volumeLifecycleModes` kept.
pub fn validate_csi_driver_update(new: &CSIDriver, old: &CSIDriver) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    validate_csi_driver_spec(&new.spec, &mut errs);
    let sp = Path::new("spec");
    if new.spec.attach_required != old.spec.attach_required {
        errs.push(Error::invalid(
            &sp.child("attachedRequired"),
            go_json(&new.spec.attach_required),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    if new.spec.volume_lifecycle_modes != old.spec.volume_lifecycle_modes {
        errs.push(Error::invalid(
            &sp.child("volumeLifecycleModes"),
            go_list(&new.spec.volume_lifecycle_modes),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}

/// Go's `validateCSIDriverSpec`, with `SELinuxMountReadWriteOncePod` on (GA) and
/// `VolumeLimitScaling` off (alpha), their 1.36 defaults.
fn validate_csi_driver_spec(spec: &CSIDriverSpec, errs: &mut ErrorList) {
    let sp = Path::new("spec");
    for (field, value) in [
        ("attachedRequired", spec.attach_required),
        ("podInfoOnMount", spec.pod_info_on_mount),
        ("storageCapacity", spec.storage_capacity),
    ] {
        if value.is_none() {
            errs.push(Error::required(&sp.child(field), ""));
        }
    }
    if let Some(p) = &spec.fs_group_policy {
        const POLICIES: &[&str] = &["File", "None", "ReadWriteOnceWithFSType"];
        if !POLICIES.contains(&p.as_str()) {
            errs.push(Error::not_supported(
                &sp.child("fsGroupPolicy"),
                BadValue::json_string(p),
                POLICIES,
            ));
        }
    }
    let tp = sp.child("tokenRequests");
    let mut audiences = BTreeSet::new();
    for (i, t) in spec.token_requests.iter().enumerate() {
        let p = tp.index(i);
        if !audiences.insert(t.audience.as_str()) {
            errs.push(Error::duplicate(&p.child("audience"), &t.audience));
            continue;
        }
        let Some(secs) = t.expiration_seconds else {
            continue;
        };
        if secs < 600 {
            errs.push(Error::invalid(
                &p.child("expirationSeconds"),
                secs,
                "may not specify a duration less than 10 minutes",
            ));
        }
        if secs > 1 << 32 {
            errs.push(Error::invalid(
                &p.child("expirationSeconds"),
                secs,
                "may not specify a duration larger than 2^32 seconds",
            ));
        }
    }
    for mode in &spec.volume_lifecycle_modes {
        if mode != "Persistent" && mode != "Ephemeral" {
            errs.push(Error::not_supported(
                &sp.child("volumeLifecycleModes"),
                BadValue::json_string(mode),
                &["Persistent", "Ephemeral"],
            ));
        }
    }
    if spec.se_linux_mount.is_none() {
        errs.push(Error::required(&sp.child("seLinuxMount"), ""));
    }
    if let Some(period) = spec
        .node_allocatable_update_period_seconds
        .filter(|p| *p < 10)
    {
        errs.push(Error::invalid(
            &sp.child("nodeAllocatableUpdatePeriodSeconds"),
            period,
            "must be greater than or equal to 10 seconds",
        ));
    }
    if let Some(v) = spec.service_account_token_in_secrets {
        if spec.token_requests.is_empty() {
            errs.push(Error::invalid(
                &sp.child("serviceAccountTokenInSecrets"),
                v,
                "serviceAccountTokenInSecrets is set but no tokenRequests are specified",
            ));
        }
    }
}

/// Go's `ValidateCSINode`: drivers with valid, unique names, node IDs of at most 256
/// bytes, non-negative allocatable counts and unique, qualified topology keys.
pub fn validate_csi_node(n: &CSINode) -> ErrorList {
    let mut errs = validate_object_meta(
        &n.metadata,
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let dp = Path::new("spec");
    let dp = dp.child("drivers");
    let mut names = BTreeSet::new();
    for (i, d) in n
        .spec
        .drivers
        .as_deref()
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let p = dp.index(i);
        errs.extend(validate_csi_driver_name(&d.name, &p.child("name")));
        let ip = p.child("nodeID");
        if d.node_id.is_empty() {
            errs.push(Error::required(&ip, ""));
        }
        if d.node_id.len() > CSI_NODE_ID_MAX_LENGTH {
            errs.push(Error::invalid(
                &ip,
                &d.node_id,
                format!("must be {CSI_NODE_ID_MAX_LENGTH} characters or less"),
            ));
        }
        if let Some(count) = d.allocatable.as_ref().and_then(|a| a.count) {
            if count < 0 {
                errs.push(Error::invalid(
                    &p.child("allocatable").child("count"),
                    count,
                    IS_NEGATIVE_ERROR_MSG,
                ));
            }
        }
        if !names.insert(d.name.as_str()) {
            errs.push(Error::duplicate(&p.child("name"), &d.name));
        }
        // Go reports the topology keys' problems on the driver itself.
        let mut keys = BTreeSet::new();
        for key in d.topology_keys.as_deref().unwrap_or_default() {
            if key.is_empty() {
                errs.push(Error::required(&p, ""));
            }
            if !keys.insert(key.as_str()) {
                errs.push(Error::duplicate(&p, key));
            }
            invalid_each(&mut errs, &p, key, is_qualified_name(key));
        }
    }
    errs
}

/// Go's `ValidateCSINodeUpdate` (with `MutableCSINodeAllocatableCount`, GA): a driver
/// kept by name keeps all but its allocatable count.
pub fn validate_csi_node_update(new: &CSINode, old: &CSINode) -> ErrorList {
    let mut errs = validate_csi_node(new);
    let new_drivers = new.spec.drivers.as_deref().unwrap_or_default();
    for o in old.spec.drivers.as_deref().unwrap_or_default() {
        for n in new_drivers.iter().filter(|n| n.name == o.name) {
            let without_count = |d: &'_ CSINodeDriver| {
                let keys = d.topology_keys.as_deref().unwrap_or_default().to_vec();
                (d.name.clone(), d.node_id.clone(), keys)
            };
            if without_count(n) != without_count(o) {
                errs.push(Error::invalid(
                    &Path::new("spec").child("drivers"),
                    go_csi_node_driver(n),
                    FIELD_IMMUTABLE_ERROR_MSG,
                ));
            }
        }
    }
    errs
}

/// Go's internal `storage.CSINodeDriver` as an error prints it (its allocatable count
/// cleared, as Go clears it before comparing).
fn go_csi_node_driver(d: &CSINodeDriver) -> apimachinery::util::validation::field::BadValue {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "PascalCase")]
    struct GoDriver<'a> {
        name: &'a str,
        #[serde(rename = "NodeID")]
        node_id: &'a str,
        topology_keys: Option<&'a [String]>,
        allocatable: Option<()>,
    }
    let keys = d.topology_keys.as_deref().filter(|k| !k.is_empty());
    go_json(&GoDriver {
        name: &d.name,
        node_id: &d.node_id,
        topology_keys: keys,
        allocatable: None,
    })
}

/// Go's `ValidateCSIStorageCapacity`: the node topology selector, a class name, a
/// non-negative capacity.
pub fn validate_csi_storage_capacity(c: &CSIStorageCapacity) -> ErrorList {
    validate_capacity(c, false)
}

fn validate_capacity(c: &CSIStorageCapacity, allow_invalid_values: bool) -> ErrorList {
    let mut errs = validate_object_meta(
        &c.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    if let Some(s) = &c.node_topology {
        errs.extend(validate_label_selector_with(
            Some(s),
            allow_invalid_values,
            &Path::new("nodeTopology"),
        ));
    }
    invalid_each(
        &mut errs,
        &Path::new("storageClassName"),
        &c.storage_class_name,
        name_is_dns_subdomain(&c.storage_class_name, false),
    );
    if let Some(q) = c.capacity.as_ref().filter(|q| q.sign() < 0) {
        errs.push(Error::invalid(
            &Path::new("capacity"),
            q.to_string(),
            IS_NEGATIVE_ERROR_MSG,
        ));
    }
    errs
}

/// Go's strategy on update: the object as on create (invalid label values tolerated
/// when the old selector had a problem), with its topology and class kept.
pub fn validate_csi_storage_capacity_update(
    new: &CSIStorageCapacity,
    old: &CSIStorageCapacity,
) -> ErrorList {
    let allow = old
        .node_topology
        .as_ref()
        .is_some_and(has_invalid_label_selector);
    let mut errs = validate_capacity(new, allow);
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        &Path::new("metadata"),
    ));
    if new.node_topology != old.node_topology {
        errs.push(Error::invalid(
            &Path::new("nodeTopology"),
            crate::validation::json_value(&new.node_topology),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    if new.storage_class_name != old.storage_class_name {
        errs.push(Error::invalid(
            &Path::new("storageClassName"),
            &new.storage_class_name,
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}
