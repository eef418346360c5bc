//! ResourceClaims (`resource.k8s.io`; Go's `pkg/registry/resource/resourceclaim`): the
//! generic strategy with the spec's disabled fields dropped ([`super::claimspec`]), and the table `kubectl get resourceclaims` prints (Go's
//! `printResourceClaim`), whose State column sums up the claim's allocation.

use std::sync::Arc;

use serde_json::Value;

use super::claimspec::ClaimSpecStrategy;
use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

/// Go's `resourceClaimColumnDefinitions`.
pub const COLUMNS: [Column; 3] = [
    NAME,
    string_column(
        "State",
        "A summary of the current state (allocated, pending, reserved, etc.).",
        0,
    ),
    AGE,
];

/// The ResourceClaims' table convertor.
pub static RESOURCE_CLAIM_TABLE: Printer = Printer {
    api_version: "resource.k8s.io/v1",
    kind: "ResourceClaim",
    columns: &COLUMNS,
    print: print_resource_claim,
};

/// Go's `printResourceClaim`: name, state, age.
pub fn print_resource_claim(obj: &Value) -> Row {
    Row::from(vec![
        Value::from(printers::text(obj, "/metadata/name")),
        Value::from(state(obj)),
        printers::age(obj),
    ])
}

/// Go's `resourceClaimState`: `deleted` once deletion started; then `pending` without an
/// allocation (unless deleted), else `allocated`, and `reserved` when some consumer has
/// it; joined by commas.
fn state(obj: &Value) -> String {
    let present = |pointer: &str| obj.pointer(pointer).is_some_and(|v| !v.is_null());
    let deleted = present("/metadata/deletionTimestamp");
    let mut states = Vec::new();
    if deleted {
        states.push("deleted");
    }
    if !present("/status/allocation") {
        if !deleted {
            states.push("pending");
        }
    } else {
        states.push("allocated");
        if !printers::items(obj, "/status/reservedFor").is_empty() {
            states.push("reserved");
        }
    }
    states.join(",")
}

/// The ResourceClaims' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        ClaimSpecStrategy {
            spec: "/spec",
            base: GenericStrategy::returning_deleted_object().without_generation(),
        },
        Arc::new(RESOURCE_CLAIM_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_state_sums_up_the_allocation() {
        // Go's TestPrintResourceClaim cases, and the deleted ones.
        let mut claim = json!({"metadata": {"name": "test-resourceclaim"}, "spec": {}});
        assert_eq!(print_resource_claim(&claim).cells[1], "pending");
        claim["status"] = json!({"allocation": {},
            "reservedFor": [{"resource": "pods", "name": "p", "uid": "1"}]});
        assert_eq!(print_resource_claim(&claim).cells[1], "allocated,reserved");
        claim["metadata"]["deletionTimestamp"] = json!("2026-01-01T00:00:00Z");
        assert_eq!(state(&claim), "deleted,allocated,reserved");
        claim["status"] = json!({});
        assert_eq!(state(&claim), "deleted");
    }
}
