//! ComponentStatuses (Go's `pkg/registry/core/componentstatus`, read-only): the table
//! `kubectl get componentstatuses` prints (Go's `printComponentStatus`). Go's REST
//! stores none: each get or list probes the control plane's components (etcd, the
//! scheduler, the controller manager) at that moment. kapi serve does not probe, so it
//! serves what its store has, which no request can write: nothing.

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{Column, NAME, Printer, Row, items, string_column, text};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

/// Go's `componentStatusColumnDefinitions` (no age).
pub const COLUMNS: [Column; 4] = [
    NAME,
    string_column("Status", "Status of the component conditions", 0),
    string_column("Message", "Message of the component conditions", 0),
    string_column("Error", "Error of the component conditions", 0),
];

/// The ComponentStatuses' table convertor.
pub static COMPONENT_STATUS_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "ComponentStatus",
    columns: &COLUMNS,
    print: print_component_status,
};

/// Go's `printComponentStatus`: name; of the first `Healthy` condition, `Healthy` (its
/// status `True`) or `Unhealthy`, its message and error; `Unknown` without one.
pub fn print_component_status(obj: &Value) -> Row {
    let healthy = items(obj, "/conditions")
        .iter()
        .find(|c| text(c, "/type") == "Healthy");
    let (status, message, error) = match healthy {
        Some(c) if text(c, "/status") == "True" => {
            ("Healthy", text(c, "/message"), text(c, "/error"))
        }
        Some(c) => ("Unhealthy", text(c, "/message"), text(c, "/error")),
        None => ("Unknown", "", ""),
    };
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(status),
        Value::from(message),
        Value::from(error),
    ])
}

/// The ComponentStatuses' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        GenericStrategy::default(),
        Arc::new(COMPONENT_STATUS_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintComponentStatus` cases.
    #[test]
    fn component_statuses_print_their_healthy_condition() {
        let cells = |obj: Value| Value::from(print_component_status(&obj).cells);
        assert_eq!(
            cells(json!({"metadata": {"name": "cs1"}, "conditions": []})),
            json!(["cs1", "Unknown", "", ""])
        );
        let condition = |status: &str| {
            json!([{"type": "Healthy", "status": status, "message": "test message",
                "error": "test error"}])
        };
        assert_eq!(
            cells(json!({"metadata": {"name": "cs2"}, "conditions": condition("True")})),
            json!(["cs2", "Healthy", "test message", "test error"])
        );
        assert_eq!(
            cells(json!({"metadata": {"name": "cs3"}, "conditions": condition("False")})),
            json!(["cs3", "Unhealthy", "test message", "test error"])
        );
    }
}
