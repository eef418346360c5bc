//! A ValidatingAdmissionPolicy's `/status` (Go's
//! `ValidateValidatingAdmissionPolicyStatusUpdate`, which its status strategy's
//! `ValidateUpdate` runs): the type checker's warnings, each with its text and the path
//! of the expression it is about, and the conditions.
//!
//! Go's check looks at the new status alone: not the old object, and not the metadata,
//! which kube-apiserver's common checks cover on every write. Its declarative rules on
//! 1.37 (the conditions' unique types and each condition's fields) are alpha, so shown
//! to no one. A MutatingAdmissionPolicy has no `/status` (1.36 and 1.37 serve none).

use apimachinery::util::jsonpath;
use apimachinery::util::validation::field::{Error, ErrorList, Path};

use crate::admissionregistration::v1::{ExpressionWarning, ValidatingAdmissionPolicy};
use crate::validation::conditions::validate_conditions;

/// Go's `ValidateValidatingAdmissionPolicyStatusUpdate`: `new`'s status, whatever `old`
/// had.
pub fn validate_validating_admission_policy_status_update(
    new: &ValidatingAdmissionPolicy,
    _old: &ValidatingAdmissionPolicy,
) -> ErrorList {
    let mut errs = ErrorList::default();
    let status = Path::new("status");
    if let Some(checking) = &new.status.type_checking {
        let type_checking = status.child("typeChecking");
        let warnings = type_checking.child("expressionWarnings");
        for (i, warning) in checking.expression_warnings.iter().enumerate() {
            validate_expression_warning(warning, &warnings.index(i), &mut errs);
        }
    }
    errs.extend(validate_conditions(
        &new.status.conditions,
        &status.child("conditions"),
    ));
    errs
}

/// Go's `validateExpressionWarning`: the warning's text, and the path it names.
fn validate_expression_warning(warning: &ExpressionWarning, path: &Path, errs: &mut ErrorList) {
    if warning.warning.is_empty() {
        errs.push(Error::required(&path.child("warning"), ""));
    }
    validate_field_ref(&warning.field_ref, &path.child("fieldRef"), errs);
}

/// Go's `validateFieldRef`: a path to the expression's field, given without the braces
/// of a JSONPath template, that client-go's parser reads as one action; nothing more is
/// asked of it (which field it names, whether the policy has it), so that a server of
/// another release takes what this one wrote.
fn validate_field_ref(field_ref: &str, path: &Path, errs: &mut ErrorList) {
    // Go's `strings.TrimSpace`: Unicode's white space, Rust's too.
    let field_ref = field_ref.trim();
    if field_ref.is_empty() {
        errs.push(Error::required(path, ""));
        return;
    }
    if let Err(e) = jsonpath::parse(&format!("{{{field_ref}}}")) {
        errs.push(Error::invalid(
            path,
            field_ref,
            format!("invalid JSONPath: {e}"),
        ));
    }
}
