//! APIServices (Go's kube-aggregator `pkg/registry/apiservice`): the table
//! `kubectl get apiservices` prints, which the aggregator's REST storage makes itself
//! (not kubectl's printers): the service behind each group version and whether it is
//! available.

use serde_json::Value;

use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, items, string_column, text,
};

/// The aggregator's columns.
pub const COLUMNS: [Column; 4] = [
    NAME,
    string_column(
        "Service",
        "The reference to the service that hosts this API endpoint.",
        0,
    ),
    string_column("Available", "Whether this service is available.", 0),
    AGE,
];

/// The APIServices' table convertor.
pub static API_SERVICE_TABLE: Printer = Printer {
    api_version: "apiregistration.k8s.io/v1",
    kind: "APIService",
    columns: &COLUMNS,
    print: print_api_service,
};

/// The aggregator's row: name; `namespace/name` of the service, `Local` for none; the
/// `Available` condition's status (with its reason in parentheses when it is not
/// `True` and has one), `Unknown` without the condition; age.
pub fn print_api_service(obj: &Value) -> Row {
    let service = match obj.pointer("/spec/service").filter(|s| !s.is_null()) {
        Some(s) => format!("{}/{}", text(s, "/namespace"), text(s, "/name")),
        None => "Local".to_owned(),
    };
    let available = items(obj, "/status/conditions")
        .iter()
        .find(|c| text(c, "/type") == "Available")
        .map_or_else(
            || "Unknown".to_owned(),
            |c| match (text(c, "/status"), text(c, "/reason")) {
                ("True", _) => "True".to_owned(),
                (status, "") => status.to_owned(),
                (status, reason) => format!("{status} ({reason})"),
            },
        );
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(service),
        Value::from(available),
        printers::age(obj),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn api_services_print_as_the_aggregator_prints_them() {
        let local = json!({"metadata": {"name": "v1.apps"}, "spec": {"group": "apps"},
            "status": {"conditions": [{"type": "Available", "status": "True", "reason": "Local"}]}});
        let row = print_api_service(&local);
        assert_eq!(
            row.cells[..3],
            [json!("v1.apps"), json!("Local"), json!("True")]
        );
        let remote = json!({"metadata": {"name": "v1beta1.metrics.k8s.io"},
            "spec": {"service": {"namespace": "kube-system", "name": "metrics-server"}},
            "status": {"conditions": [{"type": "Available", "status": "False",
                "reason": "MissingEndpoints"}]}});
        let row = print_api_service(&remote);
        assert_eq!(
            row.cells[1..3],
            [
                json!("kube-system/metrics-server"),
                json!("False (MissingEndpoints)")
            ]
        );
        let unknown = json!({"metadata": {"name": "v1.x"}});
        assert_eq!(print_api_service(&unknown).cells[2], json!("Unknown"));
    }
}
