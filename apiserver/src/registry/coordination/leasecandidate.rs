//! LeaseCandidates (Go's `pkg/registry/coordination/leasecandidate`): the table
//! `kubectl get leasecandidates` prints (Go's `printLeaseCandidate`).

use serde_json::Value;

use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column, text};

/// Go's `leaseCandidateColumnDefinitions`: its version columns take their descriptions
/// from `ObjectMeta`'s docs, which have no such fields, so they are empty.
pub const COLUMNS: [Column; 5] = [
    NAME,
    string_column("LeaseName", LEASE_NAME_DESCRIPTION, 0),
    string_column("BinaryVersion", "", 0),
    string_column("EmulationVersion", "", 0),
    AGE,
];

/// coordination/v1alpha2's `LeaseCandidateSpec` doc of `leaseName` (1.37 starts it in
/// lower case).
#[cfg(feature = "v1_37")]
const LEASE_NAME_DESCRIPTION: &str = "leaseName is the name of the lease for which this candidate is contending. This field is immutable.";
#[cfg(not(feature = "v1_37"))]
const LEASE_NAME_DESCRIPTION: &str = "LeaseName is the name of the lease for which this candidate is contending. This field is immutable.";

/// The LeaseCandidates' table convertor.
pub static LEASE_CANDIDATE_TABLE: Printer = Printer {
    api_version: "coordination.k8s.io/v1beta1",
    kind: "LeaseCandidate",
    columns: &COLUMNS,
    print: print_lease_candidate,
};

/// Go's `printLeaseCandidate`: the lease contended for, the binary and emulation
/// versions (the same fields in every served version).
pub fn print_lease_candidate(obj: &Value) -> Row {
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(text(obj, "/spec/leaseName")),
        Value::from(text(obj, "/spec/binaryVersion")),
        Value::from(text(obj, "/spec/emulationVersion")),
        printers::age(obj),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lease_candidates_print_as_kubectl_shows_them() {
        let candidate = json!({"metadata": {"name": "c"}, "spec": {"leaseName": "l",
            "binaryVersion": "1.37.0", "emulationVersion": "1.36.0"}});
        assert_eq!(
            print_lease_candidate(&candidate).cells[..4],
            [json!("c"), json!("l"), json!("1.37.0"), json!("1.36.0")]
        );
    }
}
