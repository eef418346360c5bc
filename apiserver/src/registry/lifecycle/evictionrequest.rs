//! EvictionRequests (Go's `pkg/registry/lifecycle/evictionrequest/strategy.go`): the
//! generic strategy (a create clears the status, a `/status` write keeps the stored
//! labels and annotations, an update names the version it replaces), and the table
//! `kubectl get evictionrequests` prints (Go's `printEvictionRequest`).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

/// `EvictionRequestSpec{}.SwaggerDoc()["target"]`, which two columns describe.
pub(super) const TARGET: &str = "target contains a reference to an object (e.g. a pod) that should be evicted. This field is required and immutable.";

/// Go's `evictionRequestColumnDefinitions`.
pub const COLUMNS: [Column; 7] = [
    NAME,
    string_column("Target", TARGET, 0),
    string_column("Target Type", TARGET, 0),
    string_column(
        "Status",
        "conditions contain information about the eviction request.\n\nEvictionRequest specific conditions are: TargetEvicted or Failed (managed by evictionrequest-controller). - Failed means that the eviction request is no longer being processed\n  by any eviction responder. This can happen if the request is canceled or if no responder\n  managed to evict the target (e.g. terminate or delete a pod).\n- TargetEvicted means that the target has been evicted (e.g. a pod has been terminated or deleted).\n\nThese conditions can be reset if the eviction was unsuccessful and a new Eviction intent has been submitted.\n\nThe maximum length of the conditions list is 100.",
        0,
    ),
    string_column(
        "Requester",
        "requester allows you to identify the entity, that requested the eviction of the target.\n\nIt must be a valid domain-prefixed key (such as \"acme.io/foo\"). Domain names *.k8s.io and *.kubernetes.io are reserved. This field is required and immutable.",
        0,
    ),
    string_column(
        "Intent",
        "intent specifies the action that should be taken for the specified target.\n\n- Eviction means that the requester is interested in the eviction of the target. - Withdrawn means that the requester is no longer interested in the eviction of the target.\n  If all requesters' intents are withdrawn for a common target, the eviction will be canceled.\n  Cancellation consequences:\n  - Inactive responders will never run.\n  - Active responders are expected to cancel the eviction.\n  - Completed or Interrupted responders should not take any action.",
        0,
    ),
    AGE,
];

/// The EvictionRequests' table convertor.
pub static EVICTION_REQUEST_TABLE: Printer = Printer {
    api_version: "lifecycle.k8s.io/v1alpha1",
    kind: "EvictionRequest",
    columns: &COLUMNS,
    print: print_eviction_request,
};

/// Go's `printEvictionRequest`: name, the target Pod and its type (`<unset>` without
/// one), the status, requester, intent, age.
pub fn print_eviction_request(obj: &Value) -> Row {
    let (target, target_type) = target(obj);
    Row::from(vec![
        Value::from(printers::text(obj, "/metadata/name")),
        Value::from(target),
        Value::from(target_type),
        Value::from(status(obj)),
        Value::from(printers::text(obj, "/spec/requester")),
        Value::from(printers::text(obj, "/spec/intent")),
        printers::age(obj),
    ])
}

/// The target Pod's name and the target's type (`Pod`), `<unset>` both without one (as
/// Go's EvictionRequest and Eviction printers show them).
pub(super) fn target(obj: &Value) -> (&str, &str) {
    match obj.pointer("/spec/target/pod") {
        Some(pod) if !pod.is_null() => (printers::text(pod, "/name"), "Pod"),
        _ => ("<unset>", "<unset>"),
    }
}

/// Go's `resolveEvictionStatusConditions`: `Pending` until the controller has observed
/// the request, then `Progressing`; a true `Failed` or, over it, a true `TargetEvicted`
/// condition as `Type (Reason)`.
pub(super) fn status(obj: &Value) -> String {
    let observed = obj
        .pointer("/status/observedGeneration")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let mut status = if observed > 0 {
        "Progressing"
    } else {
        "Pending"
    }
    .to_owned();
    let conditions = obj
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    // Go's meta.FindStatusCondition: the first condition of the type.
    let true_condition = |kind: &str| {
        conditions
            .iter()
            .find(|c| printers::text(c, "/type") == kind)
            .filter(|c| printers::text(c, "/status") == "True")
            .map(|c| format!("{kind} ({})", printers::text(c, "/reason")))
    };
    if let Some(failed) = true_condition("Failed") {
        status = failed;
    }
    if let Some(evicted) = true_condition("TargetEvicted") {
        status = evicted;
    }
    status
}

/// The EvictionRequests' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        GenericStrategy::default()
            .requiring_resource_version()
            .with_status_by_status_writes_only(),
        Arc::new(EVICTION_REQUEST_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cells(obj: &Value) -> Vec<Value> {
        let mut cells = print_eviction_request(obj).cells;
        cells.pop(); // the age
        cells
    }

    #[test]
    fn the_row_resolves_target_and_status_as_go() {
        let pending = json!({"metadata": {"name": "r"},
            "spec": {"target": {"pod": {"name": "web-0", "uid": "u"}},
                     "requester": "acme.io/drain", "intent": "Eviction"}});
        assert_eq!(
            cells(&pending),
            ["r", "web-0", "Pod", "Pending", "acme.io/drain", "Eviction"]
        );
        let mut done = pending.clone();
        done["status"] = json!({"observedGeneration": 1, "conditions": [
            {"type": "Failed", "status": "True", "reason": "Canceled"},
            {"type": "TargetEvicted", "status": "True", "reason": "PodDeleted"}]});
        assert_eq!(cells(&done)[3], "TargetEvicted (PodDeleted)");
        done["status"]["conditions"][1]["status"] = json!("False");
        assert_eq!(cells(&done)[3], "Failed (Canceled)");
        done["status"]["conditions"] = json!([]);
        assert_eq!(cells(&done)[3], "Progressing");
        let untargeted = json!({"metadata": {"name": "r"}, "spec": {}});
        assert_eq!(cells(&untargeted)[1..3], ["<unset>", "<unset>"]);
    }
}
