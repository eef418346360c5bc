//! ResourcePoolStatusRequests (`resource.k8s.io/v1alpha3`, not served by default; Go's
//! `pkg/registry/resource/resourcepoolstatusrequest`): the generic strategy, and the
//! table `kubectl get resourcepoolstatusrequests` prints (Go's
//! `printResourcePoolStatusRequest`): the devices of the pools the request found, summed.

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, Column, NAME, Printer, Row, string_column};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

/// Go's `resourcePoolStatusRequestColumnDefinitions` (no age: the time since the
/// request completed instead).
pub const COLUMNS: [Column; 10] = [
    NAME,
    string_column("Driver", "The driver to query pools for.", 0),
    string_column("Total", "Total number of devices across all pools.", 0),
    string_column(
        "Available",
        "Number of available devices across all pools.",
        0,
    ),
    string_column(
        "Allocated",
        "Number of allocated devices across all pools.",
        0,
    ),
    string_column(
        "Unavailable",
        "Number of unavailable devices across all pools.",
        0,
    ),
    string_column("Errors", "Number of pools with validation errors.", 0),
    Column {
        name: "Pools",
        type_: "integer",
        format: "",
        description: "Total number of matching pools.",
        priority: 0,
    },
    string_column("Status", "Processing status.", 0),
    string_column("Completed", "Time since the observation completed.", 0),
];

/// The ResourcePoolStatusRequests' table convertor.
pub static RESOURCE_POOL_STATUS_REQUEST_TABLE: Printer = Printer {
    api_version: "resource.k8s.io/v1alpha3",
    kind: "ResourcePoolStatusRequest",
    columns: &COLUMNS,
    print: print_resource_pool_status_request,
};

/// Go's `printResourcePoolStatusRequest`: name, driver; the pools' total, available,
/// allocated and unavailable devices and how many pools failed validation (each `-`
/// without a status or once failed); the pool count; `Pending`, `Complete` (with
/// `(<listed>/<count> pools)` when the list was cut short) or `Failed`, from the first
/// true condition of those two types; and how long ago it completed (`<none>` if not).
pub fn print_resource_pool_status_request(obj: &Value) -> Row {
    let mut status = "Pending".to_owned();
    let mut pool_count = 0;
    let mut sums = ["-", "-", "-", "-", "-"].map(String::from);
    let mut completed = "<none>".to_owned();
    if let Some(st) = obj.get("status").filter(|s| !s.is_null()) {
        let mut failed = false;
        for c in printers::items(st, "/conditions") {
            if printers::text(c, "/status") != "True" {
                continue;
            }
            match printers::text(c, "/type") {
                "Complete" => {
                    status = "Complete".to_owned();
                    completed = printers::since(c.get("lastTransitionTime"));
                    break;
                }
                "Failed" => {
                    status = "Failed".to_owned();
                    failed = true;
                    break;
                }
                _ => {}
            }
        }
        pool_count = printers::int(st, "/poolCount");
        let pools = printers::items(st, "/pools");
        if status == "Complete" && pool_count > pools.len() as i64 {
            status = format!("Complete ({}/{pool_count} pools)", pools.len());
        }
        if !failed {
            let sum = |field: &str| -> i64 { pools.iter().map(|p| printers::int(p, field)).sum() };
            let errors = pools
                .iter()
                .filter(|p| p.get("validationError").is_some_and(|e| !e.is_null()))
                .count();
            sums = [
                sum("/totalDevices").to_string(),
                sum("/availableDevices").to_string(),
                sum("/allocatedDevices").to_string(),
                sum("/unavailableDevices").to_string(),
                errors.to_string(),
            ];
        }
    }
    let mut cells = vec![
        Value::from(printers::text(obj, "/metadata/name")),
        Value::from(printers::text(obj, "/spec/driver")),
    ];
    cells.extend(sums.into_iter().map(Value::from));
    cells.extend([
        Value::from(pool_count),
        Value::from(status),
        Value::from(completed),
    ]);
    Row::from(cells)
}

/// The ResourcePoolStatusRequests' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        GenericStrategy::returning_deleted_object()
            .without_generation()
            .requiring_resource_version(),
        Arc::new(RESOURCE_POOL_STATUS_REQUEST_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cells(obj: &Value) -> Vec<Value> {
        print_resource_pool_status_request(obj).cells
    }

    #[test]
    fn pending_requests_have_no_counts() {
        let request = json!({"metadata": {"name": "r"}, "spec": {"driver": "gpu.example.com"}});
        assert_eq!(
            cells(&request),
            [
                json!("r"),
                json!("gpu.example.com"),
                json!("-"),
                json!("-"),
                json!("-"),
                json!("-"),
                json!("-"),
                json!(0),
                json!("Pending"),
                json!("<none>")
            ]
        );
    }

    #[test]
    fn completed_requests_sum_their_pools() {
        // Modelled on Go's TestPrintResourcePoolStatusRequest: two pools listed of three.
        let mut request = json!({"metadata": {"name": "r"}, "spec": {"driver": "d"},
            "status": {"poolCount": 3, "conditions": [
                {"type": "Complete", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z"}],
                "pools": [
                    {"driver": "d", "poolName": "a", "generation": 1, "totalDevices": 4,
                     "availableDevices": 3, "allocatedDevices": 1, "unavailableDevices": 0},
                    {"driver": "d", "poolName": "b", "generation": 1, "totalDevices": 2,
                     "availableDevices": 0, "allocatedDevices": 1, "unavailableDevices": 1,
                     "validationError": "bad"}]}});
        let row = cells(&request);
        assert_eq!(
            row[2..8],
            [
                json!("6"),
                json!("3"),
                json!("2"),
                json!("1"),
                json!("1"),
                json!(3)
            ]
        );
        assert_eq!(row[8], "Complete (2/3 pools)");
        assert_ne!(row[9], "<none>");
        request["status"]["conditions"] = json!([{"type": "Failed", "status": "True"}]);
        let row = cells(&request);
        assert_eq!(row[2], "-");
        assert_eq!(row[8], "Failed");
        assert_eq!(row[9], "<none>");
    }
}
