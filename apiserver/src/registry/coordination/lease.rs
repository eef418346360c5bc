//! Leases (Go's `pkg/registry/coordination/lease`): the table `kubectl get leases`
//! prints (Go's `printLease`).

use serde_json::Value;

use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column, text};

/// Go's `leaseColumnDefinitions`.
pub const COLUMNS: [Column; 3] = [
    NAME,
    string_column(
        "Holder",
        "holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.",
        0,
    ),
    AGE,
];

/// The Leases' table convertor.
pub static LEASE_TABLE: Printer = Printer {
    api_version: "coordination.k8s.io/v1",
    kind: "Lease",
    columns: &COLUMNS,
    print: print_lease,
};

/// Go's `printLease`: the holder's identity (empty for none).
pub fn print_lease(obj: &Value) -> Row {
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(text(obj, "/spec/holderIdentity")),
        printers::age(obj),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn leases_print_as_kubectl_shows_them() {
        let lease = json!({"metadata": {"name": "l"}, "spec": {"holderIdentity": "node-1"}});
        assert_eq!(
            print_lease(&lease).cells[..2],
            [json!("l"), json!("node-1")]
        );
        assert_eq!(print_lease(&json!({"spec": {}})).cells[1], json!(""));
    }
}
