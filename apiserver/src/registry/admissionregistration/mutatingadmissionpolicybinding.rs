//! MutatingAdmissionPolicyBindings (Go's
//! `pkg/registry/admissionregistration/mutatingadmissionpolicybinding/strategy.go`): the
//! strategy of [`super::reserved_names`], and the table `kubectl get
//! mutatingadmissionpolicybindings` prints (Go's `printMutatingAdmissionPolicyBinding`, a
//! validating binding's row).

use crate::registry::printers::Printer;

use super::validatingadmissionpolicybinding::{COLUMNS, print_policy_binding};

/// The MutatingAdmissionPolicyBindings' table convertor.
pub static TABLE: Printer = Printer {
    api_version: "admissionregistration.k8s.io/v1",
    kind: "MutatingAdmissionPolicyBinding",
    columns: &COLUMNS,
    print: print_policy_binding,
};
