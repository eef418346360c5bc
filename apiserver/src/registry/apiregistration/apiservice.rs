//! APIServices (Go's kube-aggregator `pkg/registry/apiservice`): the strategy (no
//! generation; a create's status cleared, and a local APIService, served by the
//! server itself, available at once) and the table `kubectl get apiservices` prints,
//! which the aggregator's REST storage makes itself (not kubectl's printers): the
//! service behind each group version and whether it is available.

use apimachinery::api::errors::StatusError;
use apimachinery::apis::meta::v1::Time;
use apimachinery::runtime::{Object, Scheme};
use serde_json::{Value, json};

use crate::registry::strategy::{Strategy, Subresource, generation_rule, prepare_for_update};
use crate::registry::{ResourceInfo, from_value, to_json};

/// Go's `apiServerStrategy`: no `metadata.generation`, updates only at a named
/// `resourceVersion`, and on create the status the aggregator's availability
/// controller would write for a local APIService (no `spec.service`), which needs no
/// probe.
#[derive(Clone, Copy, Debug, Default)]
pub struct ApiServiceStrategy;

impl Strategy for ApiServiceStrategy {
    fn tracks_generation(&self) -> bool {
        false
    }

    fn allow_unconditional_update(&self) -> bool {
        false
    }

    /// Go's `PrepareForCreate`: the status cleared; a local APIService's `Available`
    /// condition `True` (reason `Local`).
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let mut value = to_json(&*obj)?;
        let local = value.pointer("/spec/service").is_none_or(Value::is_null);
        let status = if local {
            json!({"conditions": [{
                "type": "Available",
                "status": "True",
                "lastTransitionTime": Time::now().to_rfc3339(),
                "reason": "Local",
                "message": "Local APIServices are always available",
            }]})
        } else {
            json!({})
        };
        if let Some(map) = value.as_object_mut() {
            map.insert("status".into(), status);
        }
        from_value(scheme, &info.storage_gvk, value)
    }

    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        prepare_for_update(scheme, info, old, new, subresource, generation_rule(false))
    }
}

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
