//! The admission policies' bindings (Go's `ValidateValidatingAdmissionPolicyBinding`
//! and `ValidateMutatingAdmissionPolicyBinding`), and the resource matching the
//! policies share with them (`validateMatchResources`).

use std::collections::BTreeSet;

use apimachinery::apis::meta::v1::validation::{
    name_is_dns_subdomain, validate_object_meta, validate_path_segment_name,
};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use super::{MATCH_POLICIES, rule_with_operations, supported};
use crate::admissionregistration::v1::{
    MatchResources, MutatingAdmissionPolicyBinding, NamedRuleWithOperations, ParamRef,
    RuleWithOperations, ValidatingAdmissionPolicyBinding,
};
use crate::validation::go_value::go_list;
use crate::validation::invalid_each;
use crate::validation::label_selector::validate_label_selector_with;

const VALIDATION_ACTIONS: &[&str] = &["Audit", "Deny", "Warn"];
/// Go's `supportedMutatingOperations`: a mutation acts on no DELETE.
const MUTATING_OPERATIONS: &[&str] = &["*", "CONNECT", "CREATE", "UPDATE"];

/// Go's `ValidateValidatingAdmissionPolicyBinding`.
pub fn validate_validating_admission_policy_binding(
    b: &ValidatingAdmissionPolicyBinding,
) -> ErrorList {
    let mut errs = binding(
        &b.metadata,
        &b.spec.policy_name,
        b.spec.param_ref.as_ref(),
        b.spec.match_resources.as_ref(),
    );
    validation_actions(
        &b.spec.validation_actions,
        None,
        &Path::new("spec").child("validationActions"),
        &mut errs,
    );
    errs
}

/// Go's `ValidateValidatingAdmissionPolicyBindingUpdate`: the new object's checks
/// (the old one's actions matter only to 1.37's declarative rule, see
/// [`validation_actions`]).
pub fn validate_validating_admission_policy_binding_update(
    new: &ValidatingAdmissionPolicyBinding,
    old: &ValidatingAdmissionPolicyBinding,
) -> ErrorList {
    let mut errs = binding(
        &new.metadata,
        &new.spec.policy_name,
        new.spec.param_ref.as_ref(),
        new.spec.match_resources.as_ref(),
    );
    validation_actions(
        &new.spec.validation_actions,
        Some(&old.spec.validation_actions),
        &Path::new("spec").child("validationActions"),
        &mut errs,
    );
    errs
}

/// Go's `ValidateMutatingAdmissionPolicyBinding`: a validating binding's rules, and
/// only the operations a mutation can act on.
pub fn validate_mutating_admission_policy_binding(b: &MutatingAdmissionPolicyBinding) -> ErrorList {
    let mut errs = binding(
        &b.metadata,
        &b.spec.policy_name,
        b.spec.param_ref.as_ref(),
        b.spec.match_resources.as_ref(),
    );
    if let Some(mr) = &b.spec.match_resources {
        mutating_operations(mr, &Path::new("spec").child("matchResources"), &mut errs);
    }
    errs
}

/// The operations a mutation can act on, in every resource rule of `mr` (Go reports
/// them all at `<p>.resourceRules.operations`, without the rule's index).
pub(super) fn mutating_operations(mr: &MatchResources, p: &Path, errs: &mut ErrorList) {
    let rp = p.child("resourceRules");
    let op = rp.child("operations");
    for o in mr.resource_rules.iter().flat_map(|r| &r.operations) {
        supported(Some(o), MUTATING_OPERATIONS, &op, errs);
    }
}

/// Go's `ValidateMutatingAdmissionPolicyBindingUpdate`: the new object's checks.
pub fn validate_mutating_admission_policy_binding_update(
    new: &MutatingAdmissionPolicyBinding,
    _old: &MutatingAdmissionPolicyBinding,
) -> ErrorList {
    validate_mutating_admission_policy_binding(new)
}

/// What both kinds of binding check: metadata, the policy's name, the parameter
/// reference and the resources matched.
fn binding(
    meta: &apimachinery::apis::meta::v1::ObjectMeta,
    policy_name: &str,
    param_ref: Option<&ParamRef>,
    match_resources: Option<&MatchResources>,
) -> ErrorList {
    let mut errs = validate_object_meta(meta, false, name_is_dns_subdomain, &Path::new("metadata"));
    let sp = Path::new("spec");
    let pp = sp.child("policyName");
    if policy_name.is_empty() {
        errs.push(Error::required(&pp, ""));
    } else {
        invalid_each(
            &mut errs,
            &pp,
            policy_name,
            name_is_dns_subdomain(policy_name, false),
        );
    }
    if let Some(pr) = param_ref {
        validate_param_ref(pr, &sp.child("paramRef"), &mut errs);
    }
    if let Some(mr) = match_resources {
        validate_match_resources(mr, &sp.child("matchResources"), &mut errs);
    }
    errs
}

/// Go's `validateParamRef`: a name or a selector, not both, and what to do when the
/// parameter is missing.
fn validate_param_ref(pr: &ParamRef, p: &Path, errs: &mut ErrorList) {
    let np = p.child("name");
    let sp = p.child("selector");
    if !pr.name.is_empty() {
        invalid_each(
            errs,
            &np,
            &pr.name,
            validate_path_segment_name(&pr.name, false),
        );
        if pr.selector.is_some() {
            errs.push(Error::forbidden(
                &np,
                "name and selector are mutually exclusive",
            ));
        }
    }
    if let Some(sel) = &pr.selector {
        errs.extend(validate_label_selector_with(Some(sel), false, &sp));
        if !pr.name.is_empty() {
            errs.push(Error::forbidden(
                &sp,
                "name and selector are mutually exclusive",
            ));
        }
    }
    if pr.name.is_empty() && pr.selector.is_none() {
        errs.push(Error::required(
            p,
            "one of name or selector must be specified",
        ));
    }
    let ap = p.child("parameterNotFoundAction");
    match pr.parameter_not_found_action.as_deref() {
        None | Some("") => errs.push(Error::required(&ap, "")),
        Some("Deny" | "Allow") => {}
        Some(other) => errs.push(Error::not_supported(
            &ap,
            BadValue::json_string(other),
            &["Deny", "Allow"],
        )),
    }
}

/// Go's `validateMatchResources`: a match policy and both selectors (strictly), and
/// the named rules.
pub(super) fn validate_match_resources(mr: &MatchResources, p: &Path, errs: &mut ErrorList) {
    let mp = p.child("matchPolicy");
    match mr.match_policy.as_deref() {
        None => errs.push(Error::required(&mp, "")),
        policy => supported(policy, MATCH_POLICIES, &mp, errs),
    }
    for (field, sel) in [
        ("namespaceSelector", &mr.namespace_selector),
        ("objectSelector", &mr.object_selector),
    ] {
        let fp = p.child(field);
        match sel {
            None => errs.push(Error::required(&fp, "")),
            Some(s) => errs.extend(validate_label_selector_with(Some(s), false, &fp)),
        }
    }
    for (field, rules) in [
        ("resourceRules", &mr.resource_rules),
        ("excludeResourceRules", &mr.exclude_resource_rules),
    ] {
        let fp = p.child(field);
        for (i, rule) in rules.iter().enumerate() {
            named_rule(rule, &fp.index(i), errs);
        }
    }
}

/// Go's `validateNamedRuleWithOperations`: path-segment resource names, each once.
fn named_rule(rule: &NamedRuleWithOperations, p: &Path, errs: &mut ErrorList) {
    let rp = p.child("resourceNames");
    let mut seen = BTreeSet::new();
    for (i, name) in rule.resource_names.iter().enumerate() {
        let ip = rp.index(i);
        invalid_each(errs, &ip, name, validate_path_segment_name(name, false));
        if !seen.insert(name.as_str()) {
            errs.push(Error::duplicate(&ip, name.as_str()));
        }
    }
    let unnamed = RuleWithOperations {
        operations: rule.operations.clone(),
        api_groups: rule.api_groups.clone(),
        api_versions: rule.api_versions.clone(),
        resources: rule.resources.clone(),
        scope: rule.scope.clone(),
    };
    rule_with_operations(&unnamed, p, errs);
}

/// Go's `validateValidationActions`: known, each once, not both Deny and Warn, at
/// least one.
fn validation_actions(actions: &[String], old: Option<&[String]>, p: &Path, errs: &mut ErrorList) {
    let mut seen = BTreeSet::new();
    for (i, a) in actions.iter().enumerate() {
        let ip = p.index(i);
        supported(Some(a), VALIDATION_ACTIONS, &ip, errs);
        if !seen.insert(a.as_str()) {
            errs.push(Error::duplicate(&ip, BadValue::json_string(a)));
        }
    }
    if seen.contains("Deny") && seen.contains("Warn") {
        errs.push(Error::invalid(
            p,
            go_list(actions),
            "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
        ));
    }
    if seen.is_empty() {
        errs.push(Error::required(
            p,
            crate::validation::declarative::required_detail(
                "at least one validation action is required",
                old != Some(actions),
            ),
        ));
    }
}
