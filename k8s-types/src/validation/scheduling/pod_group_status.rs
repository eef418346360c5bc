//! Go's `ValidatePodGroupStatusUpdate` (the PodGroup's `/status` validator), the same
//! for `v1alpha2` (1.36) and `v1beta1` (1.37), whose fields have the same names: the
//! metadata update, the conditions (`ValidateConditions`), each resource claim status
//! naming one of the spec's claims, then the status's declarative rules (each version's
//! own) as on an update.

use apimachinery::util::validation::field::{Error, ErrorList, Path};

use crate::meta::v1::Condition;
use crate::validation::conditions::validate_conditions;

/// The conditions, and the statuses' names (`status_names`) among the spec's claims'
/// (`claim_names`).
pub(super) fn hand_written_status(
    conditions: &[Condition],
    claim_names: &[&str],
    status_names: &[&str],
    path: &Path,
    errs: &mut ErrorList,
) {
    errs.extend(validate_conditions(conditions, &path.child("conditions")));
    let statuses = path.child("resourceClaimStatuses");
    for (i, name) in status_names.iter().enumerate() {
        if !claim_names.contains(name) {
            errs.push(Error::invalid(
                &statuses.index(i).child("name"),
                *name,
                "must match the name of an entry in `spec.resourceClaims`",
            ));
        }
    }
}

/// Defines `validate_pod_group_status_update` for the PodGroup type `$group` of the
/// module it is used in, whose status's declarative rules are `$rules`.
macro_rules! pod_group_status_update {
    ($group:ty, $rules:ident) => {
        /// Go's `ValidatePodGroupStatusUpdate`, the `/status` validator: the metadata
        /// update, the conditions and claim statuses, then the status's declarative
        /// rules as on an update.
        pub fn validate_pod_group_status_update(
            new: &$group,
            old: &$group,
        ) -> apimachinery::util::validation::field::ErrorList {
            use apimachinery::util::validation::field::Path;
            let mut errs = crate::validation::validate_object_meta_update(
                &new.metadata,
                &old.metadata,
                &Path::new("metadata"),
            );
            let path = Path::new("status");
            let claims: Vec<&str> = new
                .spec
                .resource_claims
                .iter()
                .map(|c| c.name.as_str())
                .collect();
            let statuses: Vec<&str> = new
                .status
                .resource_claim_statuses
                .iter()
                .map(|s| s.name.as_str())
                .collect();
            super::pod_group_status::hand_written_status(
                &new.status.conditions,
                &claims,
                &statuses,
                &path,
                &mut errs,
            );
            let old_status = super::declared::Old {
                update: true,
                old: Some(&old.status),
            };
            if !old_status.unchanged(&new.status) {
                $rules(&new.status, old_status, &path, &mut errs);
            }
            errs
        }
    };
}
pub(super) use pod_group_status_update;
