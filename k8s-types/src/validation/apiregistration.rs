//! The aggregator's validation (Go's `k8s.io/kube-aggregator/pkg/apis/apiregistration/validation`):
//! APIService.

use apimachinery::apis::meta::v1::validation::{
    validate_object_meta_update, validate_path_segment_name,
};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{is_dns1035_label, is_dns1123_subdomain, is_valid_port_num};

use super::invalid_each;
use super::name_rule::validate_object_meta_with;
use crate::apiregistration::v1::APIService;

/// Go's `ValidateAPIService`: the name is `version.group`, an empty group only for
/// `v1`, priorities in range, and a caBundle or `insecureSkipTLSVerify` only with a
/// service (and not both).
pub fn validate_api_service(s: &APIService) -> ErrorList {
    let spec = &s.spec;
    let required = format!("{}.{}", spec.version, spec.group);
    let mut errs = validate_object_meta_with(
        &s.metadata,
        false,
        |name, _| {
            let minimal = validate_path_segment_name(name, false);
            if !minimal.is_empty() {
                return minimal;
            }
            if name != required {
                let quoted = apimachinery::util::validation::field::go_quote(&required);
                return vec![format!("must be `spec.version+\".\"+spec.group`: {quoted}")];
            }
            Vec::new()
        },
        &Path::new("metadata"),
    );
    let sp = Path::new("spec");
    if spec.group.is_empty() && spec.version != "v1" {
        errs.push(Error::required(
            &sp.child("group"),
            "only v1 may have an empty group and it better be legacy kube",
        ));
    }
    if !spec.group.is_empty() {
        invalid_each(
            &mut errs,
            &sp.child("group"),
            &spec.group,
            is_dns1123_subdomain(&spec.group),
        );
    }
    invalid_each(
        &mut errs,
        &sp.child("version"),
        &spec.version,
        is_dns1035_label(&spec.version),
    );
    if spec.group_priority_minimum <= 0 || spec.group_priority_minimum > 20000 {
        errs.push(Error::invalid(
            &sp.child("groupPriorityMinimum"),
            spec.group_priority_minimum,
            "must be positive and less than 20000",
        ));
    }
    if spec.version_priority <= 0 || spec.version_priority > 1000 {
        errs.push(Error::invalid(
            &sp.child("versionPriority"),
            spec.version_priority,
            "must be positive and less than 1000",
        ));
    }
    let ca_len = spec.ca_bundle.as_ref().map_or(0, |b| b.0.len());
    let Some(service) = &spec.service else {
        if ca_len != 0 {
            errs.push(Error::invalid(
                &sp.child("caBundle"),
                format!("{ca_len} bytes"),
                "local APIServices may not have a caBundle",
            ));
        }
        if spec.insecure_skip_tls_verify {
            errs.push(Error::invalid(
                &sp.child("insecureSkipTLSVerify"),
                true,
                "local APIServices may not have insecureSkipTLSVerify",
            ));
        }
        return errs;
    };
    let svc = sp.child("service");
    if service.namespace.is_empty() {
        errs.push(Error::required(&svc.child("namespace"), ""));
    }
    if service.name.is_empty() {
        errs.push(Error::required(&svc.child("name"), ""));
    }
    // The internal type's port is an int32, nil reading as 0.
    let port = service.port.unwrap_or(0);
    let msgs = is_valid_port_num(i64::from(port));
    if !msgs.is_empty() {
        errs.push(Error::invalid(
            &svc.child("port"),
            BadValue::Int(i64::from(port)),
            format!("port is not valid: {}", msgs.join(", ")),
        ));
    }
    if spec.insecure_skip_tls_verify && ca_len > 0 {
        errs.push(Error::invalid(
            &sp.child("insecureSkipTLSVerify"),
            true,
            "may not be true if caBundle is present",
        ));
    }
    errs
}

/// Go's `ValidateAPIServiceUpdate`: the object as on create; nothing is immutable.
pub fn validate_api_service_update(new: &APIService, old: &APIService) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(validate_api_service(new));
    errs
}
