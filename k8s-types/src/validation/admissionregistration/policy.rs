//! The admission policies (Go's `ValidateValidatingAdmissionPolicy` and
//! `ValidateMutatingAdmissionPolicy`, with their `...Update`): failure policy, the kind
//! of the parameters, the resources matched, match conditions, variables, and the
//! validations and audit annotations (validating) or mutations and reinvocation
//! (mutating).
//!
//! Every expression here is CEL Go compiles with cel-go (parse, type check, the
//! expression's result type); ours does not compile CEL (see `cel.rs`) and judges of an
//! expression only what Go checks before compiling it: that it is there, and an audit
//! annotation's length. Go's strategies then authorize the user's read access to the
//! parameter kind, which needs an authorizer and a user (the oracle's strategies have
//! neither, and skip it, as an offline check must).

use apimachinery::apis::meta::v1::ObjectMeta;
use apimachinery::apis::meta::v1::validation::{name_is_dns_subdomain, validate_object_meta};
use apimachinery::util::go_strings::to_lower;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{is_dns1035_label, is_dns1123_subdomain, is_qualified_name};

use super::binding::{mutating_operations, validate_match_resources};
use super::{FAILURE_POLICIES, REINVOCATION_POLICIES, match_conditions, supported};
use crate::admissionregistration::v1::{
    AuditAnnotation, MatchCondition, MatchResources, MutatingAdmissionPolicy, Mutation, ParamKind,
    ValidatingAdmissionPolicy, Validation, Variable,
};
use crate::validation::go_value::go_json;
use crate::validation::invalid_each;

/// Go's `supportedValidationPolicyReason` (sorted).
const REASONS: &[&str] = &["Forbidden", "Invalid", "RequestEntityTooLarge"];
/// Go's `supportedPatchType` (sorted).
const PATCH_TYPES: &[&str] = &["ApplyConfiguration", "JSONPatch"];
/// Go's `maxAuditAnnotations`.
const MAX_AUDIT_ANNOTATIONS: usize = 20;
/// Go's `maxAuditAnnotationValueExpressionLength`: 5 KiB, half the length an audit
/// annotation's value may have, since an expression that joins strings grows.
const MAX_VALUE_EXPRESSION_LENGTH: usize = 5 * 1024;
/// The words CEL reserves, which a variable may not be named (Go's `celReserved`).
const CEL_RESERVED: &[&str] = &[
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// Go's `ValidateValidatingAdmissionPolicy`.
pub fn validate_validating_admission_policy(p: &ValidatingAdmissionPolicy) -> ErrorList {
    validating_policy(p, false)
}

/// Go's `ValidateValidatingAdmissionPolicyUpdate`: the new object's checks, but match
/// conditions are not judged again when they and the parameter kind are unchanged.
pub fn validate_validating_admission_policy_update(
    new: &ValidatingAdmissionPolicy,
    old: &ValidatingAdmissionPolicy,
) -> ErrorList {
    let unchanged = new.spec.param_kind == old.spec.param_kind
        && new.spec.match_conditions == old.spec.match_conditions;
    validating_policy(new, unchanged)
}

/// Go's `ValidateMutatingAdmissionPolicy`.
pub fn validate_mutating_admission_policy(p: &MutatingAdmissionPolicy) -> ErrorList {
    mutating_policy(p, false)
}

/// Go's `ValidateMutatingAdmissionPolicyUpdate`, as for a validating policy.
pub fn validate_mutating_admission_policy_update(
    new: &MutatingAdmissionPolicy,
    old: &MutatingAdmissionPolicy,
) -> ErrorList {
    let unchanged = new.spec.param_kind == old.spec.param_kind
        && new.spec.match_conditions == old.spec.match_conditions;
    mutating_policy(new, unchanged)
}

/// Go's `validateValidatingAdmissionPolicy` and its spec.
fn validating_policy(p: &ValidatingAdmissionPolicy, ignore_match_conditions: bool) -> ErrorList {
    let spec = &p.spec;
    let sp = Path::new("spec");
    let mut errs = shared(
        &p.metadata,
        &Shared {
            failure_policy: spec.failure_policy.as_deref(),
            param_kind: spec.param_kind.as_ref(),
            match_constraints: spec.match_constraints.as_ref(),
            match_conditions: (!ignore_match_conditions).then_some(&spec.match_conditions[..]),
            variables: &spec.variables,
        },
    );
    let vp = sp.child("validations");
    let ap = sp.child("auditAnnotations");
    if spec.validations.is_empty() && spec.audit_annotations.is_empty() {
        let detail = "validations or auditAnnotations must contain at least one item";
        errs.push(Error::required(&vp, detail));
        errs.push(Error::required(&ap, detail));
        return errs;
    }
    for (i, v) in spec.validations.iter().enumerate() {
        validation(v, &vp.index(i), &mut errs);
    }
    if spec.audit_annotations.len() > MAX_AUDIT_ANNOTATIONS {
        errs.push(Error::invalid(
            &ap,
            audit_annotations_value(&spec.audit_annotations),
            format!("must not have more than {MAX_AUDIT_ANNOTATIONS} auditAnnotations"),
        ));
    }
    let mut keys = std::collections::BTreeSet::new();
    for (i, a) in spec.audit_annotations.iter().enumerate() {
        let ip = ap.index(i);
        audit_annotation(&p.metadata.name, a, &ip, &mut errs);
        if !keys.insert(a.key.as_str()) {
            errs.push(Error::duplicate(&ip.child("key"), a.key.as_str()));
        }
    }
    errs
}

/// Go's `validateMutatingAdmissionPolicy` and its spec.
fn mutating_policy(p: &MutatingAdmissionPolicy, ignore_match_conditions: bool) -> ErrorList {
    let spec = &p.spec;
    let sp = Path::new("spec");
    let mut errs = shared(
        &p.metadata,
        &Shared {
            failure_policy: spec.failure_policy.as_deref(),
            param_kind: spec.param_kind.as_ref(),
            match_constraints: spec.match_constraints.as_ref(),
            match_conditions: (!ignore_match_conditions).then_some(&spec.match_conditions[..]),
            variables: &spec.variables,
        },
    );
    if let Some(mc) = &spec.match_constraints {
        mutating_operations(mc, &sp.child("matchConstraints"), &mut errs);
    }
    let mp = sp.child("mutations");
    if spec.mutations.is_empty() {
        errs.push(Error::required(
            &mp,
            "mutations must contain at least one item",
        ));
    }
    for (i, m) in spec.mutations.iter().enumerate() {
        mutation(m, &mp.index(i), &mut errs);
    }
    let rp = sp.child("reinvocationPolicy");
    if spec.reinvocation_policy.is_empty() {
        errs.push(Error::required(&rp, ""));
    } else {
        supported(
            Some(&spec.reinvocation_policy),
            REINVOCATION_POLICIES,
            &rp,
            &mut errs,
        );
    }
    errs
}

/// What both kinds of policy have, to be judged alike.
struct Shared<'a> {
    failure_policy: Option<&'a str>,
    param_kind: Option<&'a ParamKind>,
    match_constraints: Option<&'a MatchResources>,
    /// `None` on an update that leaves them (and the parameter kind) as they were.
    match_conditions: Option<&'a [MatchCondition]>,
    variables: &'a [Variable],
}

/// The object's metadata, and the spec's failure policy, parameter kind, matched
/// resources (at least one rule, which gives the expressions their types), match
/// conditions and variables.
fn shared(meta: &ObjectMeta, s: &Shared<'_>) -> ErrorList {
    let mut errs = validate_object_meta(meta, false, name_is_dns_subdomain, &Path::new("metadata"));
    let sp = Path::new("spec");
    let fp = sp.child("failurePolicy");
    match s.failure_policy {
        None => errs.push(Error::required(&fp, "")),
        policy => supported(policy, FAILURE_POLICIES, &fp, &mut errs),
    }
    if let Some(pk) = s.param_kind {
        param_kind(pk, &sp.child("paramKind"), &mut errs);
    }
    let cp = sp.child("matchConstraints");
    match s.match_constraints {
        None => errs.push(Error::required(&cp, "")),
        Some(mc) => {
            validate_match_resources(mc, &cp, &mut errs);
            if mc.resource_rules.is_empty() {
                errs.push(Error::required(&cp.child("resourceRules"), ""));
            }
        }
    }
    if let Some(conditions) = s.match_conditions {
        match_conditions(conditions, &sp.child("matchConditions"), &mut errs);
    }
    let vp = sp.child("variables");
    for (i, v) in s.variables.iter().enumerate() {
        variable(v, &vp.index(i), &mut errs);
    }
    errs
}

/// Go's `validateParamKind`: an API version as an APIService's group and version would
/// be, and a kind that is a DNS label in lower case.
fn param_kind(pk: &ParamKind, p: &Path, errs: &mut ErrorList) {
    let ap = p.child("apiVersion");
    let av = pk.api_version.as_str();
    if av.is_empty() {
        errs.push(Error::required(&ap, ""));
    } else if let Some((group, version)) = group_version(av) {
        if !group.is_empty() {
            let msgs = is_dns1123_subdomain(group);
            if !msgs.is_empty() {
                errs.push(Error::invalid(&ap, group, msgs.join(",")));
            }
        }
        if version.is_empty() {
            errs.push(Error::invalid(&ap, av, "version must be specified"));
        } else {
            let msgs = is_dns1035_label(version);
            if !msgs.is_empty() {
                errs.push(Error::invalid(&ap, version, msgs.join(",")));
            }
        }
    } else {
        errs.push(Error::invalid(
            &ap,
            av,
            format!("unexpected GroupVersion string: {av}"),
        ));
    }
    let kp = p.child("kind");
    if pk.kind.is_empty() {
        errs.push(Error::required(&kp, ""));
    } else {
        let msgs = is_dns1035_label(&to_lower(&pk.kind));
        if !msgs.is_empty() {
            errs.push(Error::invalid(
                &kp,
                pk.kind.as_str(),
                format!(
                    "may have mixed case, but should otherwise match: {}",
                    msgs.join(",")
                ),
            ));
        }
    }
}

/// Go's `parseGroupVersion` here (not apimachinery's): `/` alone is empty, no slash is
/// a version alone, more than one slash is no group version (`None`).
fn group_version(gv: &str) -> Option<(&str, &str)> {
    if gv == "/" {
        return Some(("", ""));
    }
    match gv.matches('/').count() {
        0 => Some(("", gv)),
        1 => gv.split_once('/'),
        _ => None,
    }
}

/// Go's `validateVariable`: a name that is a CEL identifier, and an expression.
fn variable(v: &Variable, p: &Path, errs: &mut ErrorList) {
    let np = p.child("name");
    if v.name.trim().is_empty() {
        errs.push(Error::required(&np, "name is not specified"));
    } else if !is_cel_identifier(&v.name) {
        errs.push(Error::invalid(
            &np,
            v.name.as_str(),
            "must be a valid CEL identifier",
        ));
    }
    if v.expression.trim().is_empty() {
        errs.push(Error::required(
            &p.child("expression"),
            "expression is not specified",
        ));
    }
}

/// Go's `isCELIdentifier`: `[_a-zA-Z][_a-zA-Z0-9]*`, not a reserved word.
fn is_cel_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
        && !CEL_RESERVED.contains(&name)
}

/// Go's `validateValidation`: an expression; a message expression and a message, when
/// given, not blank, the message on one line; a known reason.
fn validation(v: &Validation, p: &Path, errs: &mut ErrorList) {
    if v.expression.trim().is_empty() {
        errs.push(Error::required(
            &p.child("expression"),
            "expression is not specified",
        ));
    }
    if !v.message_expression.is_empty() && v.message_expression.trim().is_empty() {
        errs.push(Error::invalid(
            &p.child("messageExpression"),
            v.message_expression.as_str(),
            "must be non-empty if specified",
        ));
    }
    let mp = p.child("message");
    let message = v.message.trim();
    if !v.message.is_empty() && message.is_empty() {
        errs.push(Error::invalid(
            &mp,
            v.message.as_str(),
            "must be non-empty if specified",
        ));
    } else if message.contains(['\n', '\r']) {
        errs.push(Error::invalid(
            &mp,
            v.message.as_str(),
            "must not contain line breaks",
        ));
    }
    if let Some(reason) = v.reason.as_deref() {
        // Go checks a set reason, even an empty one.
        if !REASONS.contains(&reason) {
            errs.push(Error::not_supported(
                &p.child("reason"),
                BadValue::json_string(reason),
                REASONS,
            ));
        }
    }
}

/// Go's `validateAuditAnnotation`: the key, joined to the policy's name, a qualified
/// name; a value expression of at most 5 KiB (trimmed).
fn audit_annotation(policy_name: &str, a: &AuditAnnotation, p: &Path, errs: &mut ErrorList) {
    let kp = p.child("key");
    if policy_name.is_empty() {
        errs.push(Error::invalid(
            &kp,
            a.key.as_str(),
            "requires metadata.name be non-empty",
        ));
    } else {
        let qualified = format!("{policy_name}/{}", a.key);
        invalid_each(errs, &kp, &qualified, is_qualified_name(&qualified));
    }
    let vp = p.child("valueExpression");
    let value = a.value_expression.trim();
    if value.is_empty() {
        errs.push(Error::required(&vp, "valueExpression is not specified"));
    } else if value.len() > MAX_VALUE_EXPRESSION_LENGTH {
        errs.push(Error::required(
            &vp,
            format!("must not exceed {MAX_VALUE_EXPRESSION_LENGTH} bytes in length"),
        ));
    }
}

/// The audit annotations as Go prints its internal list (`json.Marshal` of structs
/// without tags: the Go field names).
fn audit_annotations_value(annotations: &[AuditAnnotation]) -> BadValue {
    #[derive(serde::Serialize)]
    struct GoAuditAnnotation<'a> {
        #[serde(rename = "Key")]
        key: &'a str,
        #[serde(rename = "ValueExpression")]
        value_expression: &'a str,
    }
    let list: Vec<GoAuditAnnotation<'_>> = annotations
        .iter()
        .map(|a| GoAuditAnnotation {
            key: &a.key,
            value_expression: &a.value_expression,
        })
        .collect();
    go_json(&list)
}

/// Go's `validateMutation`: a patch type, and the patch of that type (with an
/// expression), not the other.
fn mutation(m: &Mutation, p: &Path, errs: &mut ErrorList) {
    let ap = p.child("applyConfiguration");
    let jp = p.child("jsonPatch");
    let apply = m
        .apply_configuration
        .as_ref()
        .map(|a| a.expression.as_str());
    let json_patch = m.json_patch.as_ref().map(|j| j.expression.as_str());
    // (the patch the type names, its path and name; the other's)
    let (given, given_path, name, other, other_path, other_name) = match m.patch_type.as_str() {
        "" => {
            errs.push(Error::required(&p.child("patchType"), ""));
            return;
        }
        "JSONPatch" => (
            json_patch,
            &jp,
            "JSONPatch",
            apply,
            &ap,
            "applyConfiguration",
        ),
        "ApplyConfiguration" => (
            apply,
            &ap,
            "ApplyConfiguration",
            json_patch,
            &jp,
            "jsonPatch",
        ),
        other => {
            errs.push(Error::not_supported(
                &p.child("patchType"),
                BadValue::json_string(other),
                PATCH_TYPES,
            ));
            return;
        }
    };
    match given {
        None => errs.push(Error::required(
            given_path,
            format!("must be specified when patchType is {name}"),
        )),
        Some(expression) if expression.trim().is_empty() => {
            errs.push(Error::required(&given_path.child("expression"), ""));
        }
        Some(_) => {}
    }
    if other.is_some() {
        errs.push(Error::invalid(
            other_path,
            format!("{{{other_name}}}"),
            format!("must not be specified when patchType is {name}"),
        ));
    }
}
