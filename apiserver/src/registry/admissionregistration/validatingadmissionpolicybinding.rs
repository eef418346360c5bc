//! ValidatingAdmissionPolicyBindings (Go's
//! `pkg/registry/admissionregistration/validatingadmissionpolicybinding/strategy.go`): the
//! strategy of [`super::reserved_names`], and the table `kubectl get
//! validatingadmissionpolicybindings` prints (Go's `printValidatingAdmissionPolicyBinding`:
//! the policy and the parameters), whose columns and row MutatingAdmissionPolicyBindings
//! print too.

use serde_json::Value;

use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column, text};

use super::params::param_ref;

/// Go's `validatingAdmissionPolicyBinding` (and `mutatingAdmissionPolicyBinding`)
/// column definitions.
pub const COLUMNS: [Column; 4] = [
    NAME,
    string_column(
        "PolicyName",
        "PolicyName indicates the policy definition which the policy binding binded to",
        0,
    ),
    string_column(
        "ParamRef",
        "ParamRef indicates the param resource which sets the configuration param",
        0,
    ),
    AGE,
];

/// The ValidatingAdmissionPolicyBindings' table convertor.
pub static TABLE: Printer = Printer {
    api_version: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicyBinding",
    columns: &COLUMNS,
    print: print_policy_binding,
};

/// Go's `printValidatingAdmissionPolicyBinding` and
/// `printMutatingAdmissionPolicyBinding`: name, the policy, the parameters, age.
pub fn print_policy_binding(obj: &Value) -> Row {
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(text(obj, "/spec/policyName")),
        Value::from(param_ref(obj)),
        printers::age(obj),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bindings_print_their_policy_and_params() {
        let binding = json!({"metadata": {"name": "b"}, "spec": {"policyName": "p",
            "paramRef": {"name": "cm", "namespace": "ns"}}});
        assert_eq!(
            print_policy_binding(&binding).cells[..3],
            [json!("b"), json!("p"), json!("ns/cm")]
        );
    }
}
