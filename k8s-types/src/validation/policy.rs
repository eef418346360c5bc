//! The policy group's validation (Go's `pkg/apis/policy/validation` and the
//! `poddisruptionbudget` strategy): PodDisruptionBudget.
//!
//! Go's strategy validates the spec only: the metadata is checked by the generic
//! checks every object gets after its strategy's own (names as path segments), and an
//! update has no rules of its own beyond tolerating the invalid selector an old budget
//! already had.

use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::conditions::validate_conditions;
use super::go_internal::GoStruct;
use super::int_or_percent::{not_more_than_100_percent, positive_int_or_percent};
use super::label_selector::validate_label_selector_with;
use super::non_negative;
use crate::policy::v1::{PodDisruptionBudget, PodDisruptionBudgetSpec};

const EVICTION_POLICIES: [&str; 2] = ["AlwaysAllow", "IfHealthyBudget"];

/// Go's `ValidatePodDisruptionBudget`: one of minAvailable and maxUnavailable, each a
/// non-negative integer or a percentage up to 100%; the selector; the eviction policy.
pub fn validate_pod_disruption_budget(pdb: &PodDisruptionBudget) -> ErrorList {
    spec(&pdb.spec, false)
}

/// Go's strategy `ValidateUpdate`: the new budget as on create, its selector's invalid
/// values tolerated when the old one's selector was invalid.
pub fn validate_pod_disruption_budget_update(
    new: &PodDisruptionBudget,
    old: &PodDisruptionBudget,
) -> ErrorList {
    let tolerate = old.spec.selector.as_ref().is_some_and(|sel| {
        !apimachinery::apis::meta::v1::validation::validate_label_selector(sel, &Path::root())
            .is_empty()
    });
    spec(&new.spec, tolerate)
}

/// Go's status strategy `ValidateUpdate` (`ValidatePodDisruptionBudgetStatusUpdate` at
/// policy/v1, the only version served): the conditions, and the counts not negative.
pub fn validate_pod_disruption_budget_status_update(
    new: &PodDisruptionBudget,
    _old: &PodDisruptionBudget,
) -> ErrorList {
    let fld = Path::new("status");
    let status = &new.status;
    let mut errs = validate_conditions(&status.conditions, &fld.child("conditions"));
    for (value, name) in [
        (status.disruptions_allowed, "disruptionsAllowed"),
        (status.current_healthy, "currentHealthy"),
        (status.desired_healthy, "desiredHealthy"),
        (status.expected_pods, "expectedPods"),
    ] {
        non_negative(i64::from(value), &fld.child(name), &mut errs);
    }
    errs
}

/// Go's `ValidatePodDisruptionBudgetSpec`.
fn spec(spec: &PodDisruptionBudgetSpec, allow_invalid_label_value: bool) -> ErrorList {
    let mut errs = ErrorList::default();
    let fld = Path::new("spec");
    if spec.min_available.is_some() && spec.max_unavailable.is_some() {
        let internal = GoStruct::new()
            .field("MinAvailable", &spec.min_available)
            .field("Selector", &spec.selector)
            .field("MaxUnavailable", &spec.max_unavailable)
            .field(
                "UnhealthyPodEvictionPolicy",
                &spec.unhealthy_pod_eviction_policy,
            );
        errs.push(Error::invalid(
            &fld,
            internal.value(),
            "minAvailable and maxUnavailable cannot be both set",
        ));
    }
    for (name, v) in [
        ("minAvailable", &spec.min_available),
        ("maxUnavailable", &spec.max_unavailable),
    ] {
        if let Some(v) = v {
            let path = fld.child(name);
            positive_int_or_percent(v, &path, &mut errs);
            not_more_than_100_percent(v, &path, &mut errs);
        }
    }
    errs.extend(validate_label_selector_with(
        spec.selector.as_ref(),
        allow_invalid_label_value,
        &fld.child("selector"),
    ));
    if let Some(p) = &spec.unhealthy_pod_eviction_policy {
        if !EVICTION_POLICIES.contains(&p.as_str()) {
            errs.push(Error::not_supported(
                &fld.child("unhealthyPodEvictionPolicy"),
                super::json_value(p),
                &EVICTION_POLICIES,
            ));
        }
    }
    errs
}
