//! MutatingAdmissionPolicies (Go's
//! `pkg/registry/admissionregistration/mutatingadmissionpolicy`): the generic strategy,
//! and the table `kubectl get mutatingadmissionpolicies` prints (Go's
//! `printMutatingAdmissionPolicy`: how many mutations, the parameters' kind).

use serde_json::Value;

use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, items, string_column, text,
};

use super::params::{PARAM_KIND, param_kind};

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
    let mutations = i64::try_from(items(obj, "/spec/mutations").len()).unwrap_or(i64::MAX);
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(mutations),
        Value::from(param_kind(obj)),
        printers::age(obj),
    ])
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
