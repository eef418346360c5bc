//! MutatingAdmissionPolicies (Go's
//! `pkg/registry/admissionregistration/mutatingadmissionpolicy/strategy.go`): the strategy
//! of [`super::reserved_names`], and the table `kubectl get mutatingadmissionpolicies`
//! prints (Go's `printMutatingAdmissionPolicy`: how many mutations, the parameters' kind).

use serde_json::Value;

use crate::registry::printers::{AGE, Column, NAME, Printer, Row, string_column};

use super::params::{PARAM_KIND, policy_row};

/// Go's `mutatingAdmissionPolicy` column definitions.
pub const COLUMNS: [Column; 4] = [
    NAME,
    Column {
        type_: "integer",
        ..string_column(
            "Mutations",
            "Mutation indicates the number of mutations rules defined in this configuration",
            0,
        )
    },
    PARAM_KIND,
    AGE,
];

/// The MutatingAdmissionPolicies' table convertor.
pub static TABLE: Printer = Printer {
    api_version: "admissionregistration.k8s.io/v1",
    kind: "MutatingAdmissionPolicy",
    columns: &COLUMNS,
    print: print_mutating_admission_policy,
};

/// Go's `printMutatingAdmissionPolicy`: name, the number of mutations, the parameters'
/// kind, age.
pub fn print_mutating_admission_policy(obj: &Value) -> Row {
    policy_row(obj, "/spec/mutations")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn policies_print_their_mutations_and_param_kind() {
        let policy = json!({"metadata": {"name": "p"}, "spec": {"mutations": [{}, {}]}});
        assert_eq!(
            print_mutating_admission_policy(&policy).cells[..3],
            [json!("p"), json!(2), json!("<unset>")]
        );
    }
}
