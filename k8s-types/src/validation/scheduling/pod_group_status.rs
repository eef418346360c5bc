//! The hand-written part of Go's `ValidatePodGroupStatusUpdate` (the PodGroup's
//! `/status` validator), the same for `v1alpha2` (1.36) and `v1beta1` (1.37): the
//! conditions (`ValidateConditions`), and each resource claim status naming one of the
//! spec's claims. Each version's validator adds the metadata update and the status's
//! declarative rules.

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
