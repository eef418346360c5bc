//! ResourceQuotas (Go's `pkg/registry/core/resourcequota`): no generation, a delete
//! answers with the deleted quota, and the table `kubectl get resourcequotas` prints
//! (Go's `printResourceQuota`: what is used of each hard limit).

use std::sync::Arc;

use apimachinery::api::resource::Quantity;
use apimachinery::runtime::Object;
use serde_json::Value;

use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, quantity, string_column, text,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::Strategy;
use crate::registry::{ResourceInfo, to_json};

/// Go's resource quota strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct ResourceQuotaStrategy;

impl Strategy for ResourceQuotaStrategy {
    /// Go's resource quota strategy keeps no generation.
    fn tracks_generation(&self) -> bool {
        false
    }

    fn returns_deleted_object(&self) -> bool {
        true
    }

    /// Go's `WarningsOnCreate` (its `WarningsOnUpdate` says nothing).
    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        to_json(obj).map(|q| quota_warnings(&q)).unwrap_or_default()
    }
}

/// Go's `knownResourceNames`, whose request and limit a quota compares.
const KNOWN_RESOURCES: [&str; 4] = ["cpu", "memory", "storage", "ephemeral-storage"];

/// Go's resource quota `WarningsOnCreate`: a hard request above its hard limit (`cpu`
/// and `memory` stand for their requests when `requests.*` is not given).
fn quota_warnings(quota: &Value) -> Vec<String> {
    let hard = |name: &str| {
        quota
            .pointer("/spec/hard")
            .and_then(|h| h.get(name))
            .and_then(Value::as_str)
            .and_then(|q| Quantity::parse_quantity(q).ok())
    };
    let mut warnings = Vec::new();
    for resource in KNOWN_RESOURCES {
        let mut request_name = format!("requests.{resource}");
        let mut request = hard(&request_name);
        if request.is_none() && matches!(resource, "cpu" | "memory") {
            request = hard(resource);
            request_name = resource.to_owned();
        }
        let limit_name = format!("limits.{resource}");
        if let (Some(request), Some(limit)) = (request, hard(&limit_name)) {
            if request > limit {
                warnings.push(format!(
                    "ResourceQuota {request_name} ({request}) should be less than {limit_name} ({limit})"
                ));
            }
        }
    }
    warnings
}

/// Go's `resourceQuotaColumnDefinitions`.
pub const COLUMNS: [Column; 4] = [
    NAME,
    string_column(
        "Request",
        "Request represents a minimum amount of cpu/memory that a container may consume.",
        0,
    ),
    string_column(
        "Limit",
        "Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.",
        0,
    ),
    AGE,
];

/// The ResourceQuotas' table convertor.
pub static RESOURCE_QUOTA_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "ResourceQuota",
    columns: &COLUMNS,
    print: print_resource_quota,
};

/// Go's `printResourceQuota`: name; `resource: used/hard` for each resource of
/// `status.hard` in name order, those named `limits.*` in the second cell, the others in
/// the first; age.
pub fn print_resource_quota(obj: &Value) -> Row {
    let used = obj.pointer("/status/used");
    let (mut request, mut limit) = (Vec::new(), Vec::new());
    let mut hard: Vec<(&String, &Value)> = obj
        .pointer("/status/hard")
        .and_then(Value::as_object)
        .map(|m| m.iter().collect())
        .unwrap_or_default();
    hard.sort_unstable_by_key(|(resource, _)| *resource);
    for (resource, hard) in hard {
        let cell = format!(
            "{resource}: {}/{}",
            quantity(used.and_then(|u| u.get(resource))),
            quantity(Some(hard))
        );
        let is_limit = resource
            .split_once('.')
            .is_some_and(|(first, _)| first == "limits");
        if is_limit {
            limit.push(cell);
        } else {
            request.push(cell);
        }
    }
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(request.join(", ")),
        Value::from(limit.join(", ")),
        printers::age(obj),
    ])
}

/// The ResourceQuotas' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(info, ResourceQuotaStrategy, Arc::new(RESOURCE_QUOTA_TABLE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintResourceQuota` case, and a quota the controller has not counted.
    #[test]
    fn resource_quotas_print_used_of_hard_requests_and_limits() {
        let quota = json!({"metadata": {"name": "test-resourcequota"}, "spec": {},
            "status": {
                "used": {"cpu": "1", "memory": "1Gi", "pods": "1", "services": "1",
                    "replicationcontrollers": "1", "resourcequotas": "1",
                    "limits.cpu": "2", "limits.memory": "2Gi"},
                "hard": {"cpu": "100", "memory": "4Gi", "pods": "10", "services": "10",
                    "replicationcontrollers": "10", "resourcequotas": "1",
                    "limits.cpu": "200", "limits.memory": "8Gi"}}});
        assert_eq!(
            Value::from(print_resource_quota(&quota).cells),
            json!([
                "test-resourcequota",
                "cpu: 1/100, memory: 1Gi/4Gi, pods: 1/10, replicationcontrollers: 1/10, resourcequotas: 1/1, services: 1/10",
                "limits.cpu: 2/200, limits.memory: 2Gi/8Gi",
                "<unknown>"
            ])
        );
        let uncounted = json!({"metadata": {"name": "q"},
            "spec": {"hard": {"pods": "2"}},
            "status": {"hard": {"count/deployments.apps": "2000m", "limits": "1", "pods": "2"}}});
        assert_eq!(
            Value::from(print_resource_quota(&uncounted).cells),
            json!([
                "q",
                "count/deployments.apps: 0/2, limits: 0/1, pods: 0/2",
                "",
                "<unknown>"
            ])
        );
        let fresh = json!({"metadata": {"name": "q"}, "spec": {"hard": {"pods": "2"}}});
        assert_eq!(
            Value::from(print_resource_quota(&fresh).cells),
            json!(["q", "", "", "<unknown>"])
        );
    }

    /// Go's `TestResourceQuotaStrategy` warning cases.
    #[test]
    fn requests_above_limits_are_warned_about() {
        let quota = serde_json::json!({"spec": {"hard": {
            "cpu": "2", "limits.cpu": "1", "requests.memory": "1Gi", "limits.memory": "2Gi",
            "requests.storage": "10Gi", "limits.storage": "1Gi"}}});
        assert_eq!(
            quota_warnings(&quota),
            [
                "ResourceQuota cpu (2) should be less than limits.cpu (1)",
                "ResourceQuota requests.storage (10Gi) should be less than limits.storage (1Gi)",
            ]
        );
    }
}
