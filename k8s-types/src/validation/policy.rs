//! The policy group's validation (Go's `pkg/apis/policy/validation`):
//! PodDisruptionBudget.

use apimachinery::apis::meta::v1::validation::{
    name_is_dns_subdomain, validate_label_selector, validate_object_meta,
};
use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::{int_or_percent, int_or_string_value};
use crate::policy::v1::PodDisruptionBudget;

/// Go's `ValidatePodDisruptionBudget`: one of minAvailable and maxUnavailable, each a
/// non-negative integer or a percentage up to 100%; the selector; the eviction policy.
pub fn validate_pod_disruption_budget(pdb: &PodDisruptionBudget) -> ErrorList {
    let mut errs = validate_object_meta(
        &pdb.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let spec = &pdb.spec;
    let fld = Path::new("spec");
    if let (Some(min), Some(_)) = (&spec.min_available, &spec.max_unavailable) {
        errs.push(Error::invalid(
            &fld.child("minAvailable"),
            int_or_string_value(min),
            "minAvailable and maxUnavailable cannot be both set",
        ));
    }
    if let Some(v) = &spec.min_available {
        int_or_percent(v, &fld.child("minAvailable"), &mut errs);
    }
    if let Some(v) = &spec.max_unavailable {
        int_or_percent(v, &fld.child("maxUnavailable"), &mut errs);
    }
    if let Some(sel) = &spec.selector {
        errs.extend(validate_label_selector(sel, &fld.child("selector")));
    }
    if let Some(p) = &spec.unhealthy_pod_eviction_policy {
        const POLICIES: &[&str] = &["AlwaysAllow", "IfHealthyBudget"];
        if !POLICIES.contains(&p.as_str()) {
            errs.push(Error::not_supported(
                &fld.child("unhealthyPodEvictionPolicy"),
                p,
                POLICIES,
            ));
        }
    }
    errs
}
