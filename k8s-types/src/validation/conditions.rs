//! Go's `metav1validation.ValidateConditions`: the `metav1.Condition` lists of a status
//! (a PodDisruptionBudget's), each condition's type a label key and unique in the list,
//! its status `True`, `False` or `Unknown`, its reason a condition reason, its
//! transition time set. Kubernetes 1.37 reports a missing type or status as `Required`
//! and a repeated type at the item's path; 1.36 checks a missing type as a label key and
//! a missing status against the supported values.

use std::collections::BTreeSet;

use apimachinery::apis::meta::v1::validation::{is_valid_condition_reason, validate_label_name};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use crate::meta::v1::Condition;

/// Go's `maxReasonLen`.
const MAX_REASON_LEN: i64 = 1024;
/// Go's `maxMessageLen`.
const MAX_MESSAGE_LEN: i64 = 32 * 1024;

/// Go's `ValidateConditions`.
pub(crate) fn validate_conditions(conditions: &[Condition], fld: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    let mut seen = BTreeSet::new();
    for (i, condition) in conditions.iter().enumerate() {
        let item = fld.index(i);
        if !seen.insert(condition.r#type.as_str()) {
            let type_path = item.child("type");
            let at = if cfg!(feature = "v1_37") {
                &item
            } else {
                &type_path
            };
            errs.push(Error::duplicate(at, condition.r#type.as_str()));
        }
        errs.extend(validate_condition(condition, &item));
    }
    errs
}

/// Go's `ValidateCondition`.
fn validate_condition(condition: &Condition, fld: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    let v1_37 = cfg!(feature = "v1_37");
    if v1_37 && condition.r#type.is_empty() {
        errs.push(Error::required(&fld.child("type"), "is required"));
    } else {
        errs.extend(validate_label_name(&condition.r#type, &fld.child("type")));
    }
    if v1_37 && condition.status.is_empty() {
        errs.push(Error::required(&fld.child("status"), ""));
    } else if !matches!(condition.status.as_str(), "True" | "False" | "Unknown") {
        errs.push(Error::not_supported(
            &fld.child("status"),
            // A named string type: Go prints it as JSON.
            BadValue::json_string(&condition.status),
            &["False", "True", "Unknown"],
        ));
    }
    if condition.observed_generation < 0 {
        errs.push(Error::invalid(
            &fld.child("observedGeneration"),
            condition.observed_generation,
            "must be greater than or equal to zero",
        ));
    }
    if condition.last_transition_time.is_zero() {
        errs.push(Error::required(&fld.child("lastTransitionTime"), ""));
    }
    if condition.reason.is_empty() {
        errs.push(Error::required(&fld.child("reason"), ""));
    } else {
        for msg in is_valid_condition_reason(&condition.reason) {
            errs.push(Error::invalid(
                &fld.child("reason"),
                condition.reason.as_str(),
                msg,
            ));
        }
        if condition.reason.len() as i64 > MAX_REASON_LEN {
            errs.push(Error::too_long(&fld.child("reason"), MAX_REASON_LEN));
        }
    }
    if condition.message.len() as i64 > MAX_MESSAGE_LEN {
        errs.push(Error::too_long(&fld.child("message"), MAX_MESSAGE_LEN));
    }
    errs
}
