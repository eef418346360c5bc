//! The scheduling group's validation (Go's `pkg/apis/scheduling/validation`):
//! PriorityClass; on Kubernetes 1.37, Workload and PodGroup (`v1beta1`) and
//! CompositePodGroup (`v1alpha3`, with its `/status` check), with the declarative rules
//! kube-apiserver runs for them.

use apimachinery::apis::meta::v1::validation::{FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

#[cfg(feature = "v1_37")]
mod composite_pod_group;
mod declared;
#[cfg(feature = "v1_37")]
mod pod_group;
mod pod_group_status;
#[cfg(feature = "v1_37")]
mod template;
#[cfg(not(feature = "v1_37"))]
mod v1alpha2;
#[cfg(feature = "v1_37")]
mod workload;

#[cfg(feature = "v1_37")]
pub use composite_pod_group::{
    validate_composite_pod_group, validate_composite_pod_group_status_update,
    validate_composite_pod_group_update,
};
#[cfg(feature = "v1_37")]
pub use pod_group::{validate_pod_group, validate_pod_group_status_update};
#[cfg(not(feature = "v1_37"))]
pub use v1alpha2::{validate_pod_group, validate_pod_group_status_update, validate_workload};
#[cfg(feature = "v1_37")]
pub use workload::validate_workload;

use super::json_value;
use crate::scheduling::v1::PriorityClass;
use crate::validation::{validate_object_meta, validate_object_meta_update};

/// Go's `HighestUserDefinablePriority`.
pub const HIGHEST_USER_DEFINABLE_PRIORITY: i32 = 1_000_000_000;

/// The system priority classes: name, value (global default is false for both).
const SYSTEM_CLASSES: &[(&str, i32)] = &[
    ("system-node-critical", 2_000_001_000),
    ("system-cluster-critical", 2_000_000_000),
];

/// Go's `ValidatePriorityClass`: `system-` names only for the known system classes
/// with their values, user values at most 1,000,000,000, and the preemption policy.
pub fn validate_priority_class(pc: &PriorityClass) -> ErrorList {
    let mp = Path::new("metadata");
    let mut errs = validate_object_meta(&pc.metadata, false, name_is_dns_subdomain, &mp);
    let name = &pc.metadata.name;
    if name.starts_with("system-") {
        let problem = match SYSTEM_CLASSES.iter().find(|(n, _)| n == name) {
            None => Some(format!("{name} is not a known system priority class")),
            Some((_, v)) if *v != pc.value => {
                Some(format!("value of {name} PriorityClass must be {v}"))
            }
            Some(_) if pc.global_default => Some(format!(
                "globalDefault of {name} PriorityClass must be false"
            )),
            Some(_) => None,
        };
        if let Some(p) = problem {
            errs.push(Error::forbidden(
                &mp.child("name"),
                format!(
                    "priority class names with 'system-' prefix are reserved for system use only. error: {p}"
                ),
            ));
        }
    } else if pc.value > HIGHEST_USER_DEFINABLE_PRIORITY {
        errs.push(Error::forbidden(
            &Path::new("value"),
            format!(
                "maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}"
            ),
        ));
    }
    if let Some(p) = &pc.preemption_policy {
        const POLICIES: &[&str] = &["PreemptLowerPriority", "Never"];
        if p.is_empty() {
            errs.push(Error::required(&Path::new("preemptionPolicy"), ""));
        } else if !POLICIES.contains(&p.as_str()) {
            errs.push(Error::not_supported(
                &Path::new("preemptionPolicy"),
                BadValue::json_string(p),
                POLICIES,
            ));
        }
    }
    errs
}

/// Go's `ValidatePriorityClassUpdate`: value and preemption policy kept (the new
/// object's other fields are not checked again).
pub fn validate_priority_class_update(new: &PriorityClass, old: &PriorityClass) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    if new.value != old.value {
        errs.push(Error::forbidden(
            &Path::new("value"),
            "may not be changed in an update.",
        ));
    }
    if new.preemption_policy != old.preemption_policy {
        errs.push(Error::invalid(
            &Path::new("preemptionPolicy"),
            json_value(&new.preemption_policy),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}
