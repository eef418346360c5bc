//! The coordination group's validation (Go's `pkg/apis/coordination/validation`): Lease
//! and LeaseCandidate.

use apimachinery::apis::meta::v1::validation::{
    FIELD_IMMUTABLE_ERROR_MSG, IS_NEGATIVE_ERROR_MSG, name_is_dns_subdomain, validate_object_meta,
    validate_object_meta_update,
};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{is_config_map_key, is_qualified_name};

use super::semver::Version;
use crate::coordination::v1::{Lease, LeaseSpec};
use crate::coordination::v1beta1::{LeaseCandidate, LeaseCandidateSpec};

/// Go's `validLeaseStrategies`.
const LEASE_STRATEGIES: &[&str] = &["OldestEmulationVersion"];

/// Go's `ValidateLease`.
pub fn validate_lease(lease: &Lease) -> ErrorList {
    let mut errs = validate_object_meta(
        &lease.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    errs.extend(validate_lease_spec(&lease.spec, &Path::new("spec")));
    errs
}

/// Go's `ValidateLeaseUpdate`: the spec is checked again, nothing in it is immutable.
pub fn validate_lease_update(new: &Lease, old: &Lease) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(validate_lease_spec(&new.spec, &Path::new("spec")));
    errs
}

/// Go's `ValidateLeaseSpec`: a positive duration, non-negative transitions, a known or
/// qualified strategy, a preferred holder only with a strategy.
pub fn validate_lease_spec(spec: &LeaseSpec, fld: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    if let Some(d) = spec.lease_duration_seconds.filter(|d| *d <= 0) {
        errs.push(Error::invalid(
            &fld.child("leaseDurationSeconds"),
            d,
            "must be greater than 0",
        ));
    }
    if let Some(t) = spec.lease_transitions.filter(|t| *t < 0) {
        errs.push(Error::invalid(
            &fld.child("leaseTransitions"),
            t,
            IS_NEGATIVE_ERROR_MSG,
        ));
    }
    if let Some(s) = &spec.strategy {
        errs.extend(validate_coordinated_lease_strategy(
            s,
            &fld.child("strategy"),
        ));
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

/// Go's `ValidateCoordinatedLeaseStrategy`: a name of Kubernetes' own, or a qualified
/// name with a domain. Go reports it one level further down (`strategy.strategy`), and
/// prints it as the named string type it is (JSON).
pub fn validate_coordinated_lease_strategy(strategy: &str, fld: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    let p = fld.child("strategy");
    if !strategy.contains('/') {
        if !LEASE_STRATEGIES.contains(&strategy) {
            errs.push(Error::not_supported(
                &p,
                BadValue::json_string(strategy),
                LEASE_STRATEGIES,
            ));
        }
    } else {
        for msg in is_qualified_name(strategy) {
            errs.push(Error::invalid(&p, BadValue::json_string(strategy), msg));
        }
    }
    errs
}

/// Go's `ValidLeaseCandidateName`: a ConfigMap key's rule.
pub fn validate_lease_candidate_name(name: &str, _prefix: bool) -> Vec<String> {
    is_config_map_key(name)
}

/// Go's `ValidateLeaseCandidate`.
pub fn validate_lease_candidate(c: &LeaseCandidate) -> ErrorList {
    let mut errs = validate_object_meta(
        &c.metadata,
        true,
        validate_lease_candidate_name,
        &Path::new("metadata"),
    );
    errs.extend(validate_lease_candidate_spec(&c.spec, &Path::new("spec")));
    errs
}

/// Go's `ValidateLeaseCandidateUpdate`: `leaseName` kept.
pub fn validate_lease_candidate_update(new: &LeaseCandidate, old: &LeaseCandidate) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(validate_lease_candidate_spec(&new.spec, &Path::new("spec")));
    if new.spec.lease_name != old.spec.lease_name {
        errs.push(Error::invalid(
            &Path::new("spec").child("leaseName"),
            &new.spec.lease_name,
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}

/// Go's `ValidateLeaseCandidateSpec`: a lease name, semantic versions with the binary
/// at least the emulation version, and a strategy (which needs an emulation version
/// when it is `OldestEmulationVersion`).
pub fn validate_lease_candidate_spec(spec: &LeaseCandidateSpec, fld: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    if spec.lease_name.is_empty() {
        errs.push(Error::required(&fld.child("leaseName"), ""));
    }
    let mut emulation = Version::default();
    if !spec.emulation_version.is_empty() {
        match Version::parse(&spec.emulation_version) {
            Some(v) => emulation = v,
            None => errs.push(Error::invalid(
                &fld.child("emulationVersion"),
                &spec.emulation_version,
                "must be a valid semantic version",
            )),
        }
    }
    let mut binary = Version::default();
    let bp = fld.child("binaryVersion");
    if spec.binary_version.is_empty() {
        errs.push(Error::required(&bp, ""));
    } else {
        match Version::parse(&spec.binary_version) {
            Some(v) => binary = v,
            None => errs.push(Error::invalid(
                &bp,
                &spec.binary_version,
                "must be a valid semantic version",
            )),
        }
    }
    if !spec.binary_version.is_empty() && !spec.emulation_version.is_empty() && binary < emulation {
        errs.push(Error::invalid(
            &bp,
            &spec.binary_version,
            "must be greater than or equal to `emulationVersion`",
        ));
    }
    if spec.strategy.is_empty() {
        errs.push(Error::required(&fld.child("strategy"), ""));
    } else {
        if spec.strategy == "OldestEmulationVersion" && emulation == Version::default() {
            errs.push(Error::required(
                &fld.child("emulationVersion"),
                "must be specified when `strategy` is 'OldestEmulationVersion'",
            ));
        }
        errs.extend(validate_coordinated_lease_strategy(
            &spec.strategy,
            &fld.child("strategy"),
        ));
    }
    errs
}
