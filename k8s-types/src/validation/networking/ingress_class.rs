//! IngressClass (Go's `ValidateIngressClass` and `ValidateIngressClassUpdate`).

use apimachinery::apis::meta::v1::validation::{
    FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_label, name_is_dns_subdomain, validate_path_segment_name,
};
use apimachinery::util::validation::domain::is_domain_prefixed_path;
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use apimachinery::util::validation::is_dns1123_subdomain;

use crate::networking::v1::{IngressClass, IngressClassParametersReference};
use crate::validation::invalid_each;
use crate::validation::{validate_object_meta, validate_object_meta_update};

/// Go's `maxLenIngressClassController`.
const MAX_CONTROLLER_LENGTH: i64 = 250;

/// Go's `ValidateIngressClass`: a domain-prefixed controller of at most 250 bytes, and
/// a parameters reference with a scope (and a namespace exactly for `Namespace`).
pub fn validate_ingress_class(class: &IngressClass) -> ErrorList {
    let mut errs = validate_object_meta(
        &class.metadata,
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let sp = Path::new("spec");
    let cp = sp.child("controller");
    let controller = &class.spec.controller;
    if controller.len() as i64 > MAX_CONTROLLER_LENGTH {
        errs.push(Error::too_long(&cp, MAX_CONTROLLER_LENGTH));
    }
    errs.extend(is_domain_prefixed_path(&cp, controller));
    if let Some(p) = &class.spec.parameters {
        parameters(p, &sp.child("parameters"), &mut errs);
    }
    errs
}

/// Go's `ValidateIngressClassUpdate`: `controller` kept.
pub fn validate_ingress_class_update(new: &IngressClass, old: &IngressClass) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    if new.spec.controller != old.spec.controller {
        errs.push(Error::invalid(
            &Path::new("spec").child("controller"),
            &new.spec.controller,
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs.extend(validate_ingress_class(new));
    errs
}

/// Go's `validateIngressClassParametersReference`.
fn parameters(p: &IngressClassParametersReference, fld: &Path, errs: &mut ErrorList) {
    if let Some(g) = &p.api_group {
        invalid_each(errs, &fld.child("apiGroup"), g, is_dns1123_subdomain(g));
    }
    for (field, value) in [("kind", &p.kind), ("name", &p.name)] {
        let fp = fld.child(field);
        if value.is_empty() {
            errs.push(Error::required(&fp, ""));
        } else {
            invalid_each(errs, &fp, value, validate_path_segment_name(value, false));
        }
    }
    let Some(scope) = &p.scope else {
        errs.push(Error::required(&fld.child("scope"), ""));
        return;
    };
    let np = fld.child("namespace");
    match scope.as_str() {
        "Namespace" => match &p.namespace {
            None => errs.push(Error::required(
                &np,
                "`parameters.scope` is set to 'Namespace'",
            )),
            Some(ns) => invalid_each(errs, &np, ns, name_is_dns_label(ns, false)),
        },
        "Cluster" => {
            if p.namespace.is_some() {
                errs.push(Error::forbidden(
                    &np,
                    "`parameters.scope` is set to 'Cluster'",
                ));
            }
        }
        other => errs.push(Error::not_supported(
            &fld.child("scope"),
            other,
            &["Cluster", "Namespace"],
        )),
    }
}
