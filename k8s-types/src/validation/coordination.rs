//! The coordination group's validation (Go's `pkg/apis/coordination/validation`): Lease.

use apimachinery::apis::meta::v1::validation::{
    IS_NEGATIVE_ERROR_MSG, name_is_dns_subdomain, validate_object_meta,
};
use apimachinery::util::validation::field::{Error, ErrorList, Path};

use crate::coordination::v1::Lease;

/// Go's `ValidateLease`: a positive duration, non-negative transitions, a preferred
/// holder only with a strategy.
pub fn validate_lease(lease: &Lease) -> ErrorList {
    let mut errs = validate_object_meta(
        &lease.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let spec = &lease.spec;
    let fld = Path::new("spec");
    if let Some(d) = spec.lease_duration_seconds {
        if d <= 0 {
            errs.push(Error::invalid(
                &fld.child("leaseDurationSeconds"),
                d,
                "must be greater than 0",
            ));
        }
    }
    if let Some(t) = spec.lease_transitions {
        if t < 0 {
            errs.push(Error::invalid(
                &fld.child("leaseTransitions"),
                t,
                IS_NEGATIVE_ERROR_MSG,
            ));
        }
    }
    let holder = spec.preferred_holder.as_deref().unwrap_or_default();
    if !holder.is_empty() && spec.strategy.as_deref().unwrap_or_default().is_empty() {
        errs.push(Error::forbidden(
            &fld.child("preferredHolder"),
            "may only be specified if `strategy` is defined",
        ));
    }
    errs
}
