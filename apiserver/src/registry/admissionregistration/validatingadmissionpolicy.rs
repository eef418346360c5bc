//! ValidatingAdmissionPolicies (Go's
//! `pkg/registry/admissionregistration/validatingadmissionpolicy/strategy.go`): the
//! strategy of [`super::reserved_names`], and the table `kubectl get
//! validatingadmissionpolicies` prints (Go's `printValidatingAdmissionPolicy`: how many
//! validations, the parameters' kind).

use serde_json::Value;

use crate::registry::printers::{AGE, Column, NAME, Printer, Row, string_column};

use super::params::{PARAM_KIND, policy_row};

/// Go's `validatingAdmissionPolicy` column definitions.
pub const COLUMNS: [Column; 4] = [
    NAME,
    Column {
        type_: "integer",
        ..string_column(
            "Validations",
            "Validations indicates the number of validation rules defined in this configuration",
            0,
        )
    },
    PARAM_KIND,
    AGE,
];

/// The ValidatingAdmissionPolicies' table convertor.
pub static TABLE: Printer = Printer {
    api_version: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicy",
    columns: &COLUMNS,
    print: print_validating_admission_policy,
};

/// Go's `printValidatingAdmissionPolicy`: name, the number of validations, the
/// parameters' kind, age.
pub fn print_validating_admission_policy(obj: &Value) -> Row {
    policy_row(obj, "/spec/validations")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn policies_print_their_validations_and_param_kind() {
        let policy = json!({"metadata": {"name": "p"}, "spec": {
            "paramKind": {"apiVersion": "v1", "kind": "ConfigMap"},
            "validations": [{"expression": "true"}]}});
        assert_eq!(
            print_validating_admission_policy(&policy).cells[..3],
            [json!("p"), json!(1), json!("v1/ConfigMap")]
        );
    }
}
