//! PodGroups (`scheduling.k8s.io`, `v1alpha2` on Kubernetes 1.36, `v1beta1` on 1.37; Go's
//! `pkg/registry/scheduling/podgroup/strategy.go`): on 1.37 the strategy of the gated
//! scheduling kinds (`gated_fields`), on 1.36 the generic one; and the table
//! `kubectl get podgroups` prints (Go's `printPodGroup`), each release's.

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, items, string_column};
use crate::registry::rest::RestStorage;
#[cfg(not(feature = "v1_37"))]
use crate::registry::strategy::GenericStrategy;

/// `PodGroupSpec{}.SwaggerDoc()["schedulingPolicy"]` of the release's version.
#[cfg(feature = "v1_37")]
const POLICY: &str = "schedulingPolicy defines the scheduling policy for this instance of the PodGroup. Controllers are expected to fill this field by copying it from a PodGroupTemplate.";
#[cfg(not(feature = "v1_37"))]
const POLICY: &str = "SchedulingPolicy defines the scheduling policy for this instance of the PodGroup. Controllers are expected to fill this field by copying it from a PodGroupTemplate. This field is immutable.";

/// The condition whose status the Status column shows: 1.37 renamed it.
#[cfg(feature = "v1_37")]
const SCHEDULED: &str = "PodGroupInitiallyScheduled";
#[cfg(not(feature = "v1_37"))]
const SCHEDULED: &str = "PodGroupScheduled";

/// Where the name of the Workload a PodGroup was made from is: 1.37's `workloadRef`
/// replaced 1.36's `podGroupTemplateRef.workload`.
#[cfg(feature = "v1_37")]
const WORKLOAD_REF: (&str, &str) = ("/spec/workloadRef", "/workloadName");
#[cfg(not(feature = "v1_37"))]
const WORKLOAD_REF: (&str, &str) = ("/spec/podGroupTemplateRef", "/workload/workloadName");

/// Go's `podGroupColumnDefinitions`.
pub const COLUMNS: [Column; 5] = [
    NAME,
    string_column("Policy", POLICY, 0),
    string_column("Workload", "Name of the referenced Workload object", 0),
    string_column("Status", "Status of the PodGroup", 0),
    AGE,
];

/// The PodGroups' table convertor.
pub static POD_GROUP_TABLE: Printer = Printer {
    #[cfg(feature = "v1_37")]
    api_version: "scheduling.k8s.io/v1beta1",
    #[cfg(not(feature = "v1_37"))]
    api_version: "scheduling.k8s.io/v1alpha2",
    kind: "PodGroup",
    columns: &COLUMNS,
    print: print_pod_group,
};

/// Go's `printPodGroup`: name, `Gang` or `Basic`, the Workload (`<none>` without a
/// reference), the status (`Pending`; `Scheduled` or `Unschedulable` once the scheduled
/// condition is there; a `DisruptionTarget` condition's reason over both), age.
pub fn print_pod_group(obj: &Value) -> Row {
    let policy = scheduling_policy(obj);
    let (reference, name) = WORKLOAD_REF;
    let workload = workload_name(obj, reference, name);
    // Go's map of the conditions by type: the last of a type counts.
    let conditions = items(obj, "/status/conditions");
    let last = |kind: &str| {
        conditions
            .iter()
            .rev()
            .find(|c| printers::text(c, "/type") == kind)
    };
    let mut status = "Pending";
    if let Some(c) = last(SCHEDULED) {
        status = if printers::text(c, "/status") == "True" {
            "Scheduled"
        } else {
            "Unschedulable"
        };
    }
    if let Some(c) = last("DisruptionTarget") {
        status = printers::text(c, "/reason");
    }
    Row::from(vec![
        Value::from(printers::text(obj, "/metadata/name")),
        Value::from(policy),
        Value::from(workload),
        Value::from(status),
        printers::age(obj),
    ])
}

/// The policy column of Go's pod group printers: `Gang` when the group is gang
/// scheduled, else `Basic`.
pub(super) fn scheduling_policy(obj: &Value) -> &'static str {
    if obj
        .pointer("/spec/schedulingPolicy/gang")
        .is_some_and(|g| !g.is_null())
    {
        "Gang"
    } else {
        "Basic"
    }
}

/// The workload column of Go's pod group printers: the name at `name` inside the
/// reference at `reference`, `<none>` without one.
pub(super) fn workload_name<'a>(obj: &'a Value, reference: &str, name: &str) -> &'a str {
    match obj.pointer(reference) {
        Some(r) if !r.is_null() => printers::text(r, name),
        _ => "<none>",
    }
}

/// The PodGroups' REST storage over `info`: 1.37's strategy
/// ([`GatedFieldsStrategy`](super::gated_fields::GatedFieldsStrategy)); on 1.36 the
/// generic one, without a generation (Go's sets none).
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    #[cfg(feature = "v1_37")]
    let strategy = super::gated_fields::GatedFieldsStrategy(super::gated_fields::Gated::PodGroup);
    #[cfg(not(feature = "v1_37"))]
    let strategy = GenericStrategy::default().without_generation();
    deps.standard_with_table(info, strategy, Arc::new(POD_GROUP_TABLE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cells(obj: &Value) -> Vec<Value> {
        let mut cells = print_pod_group(obj).cells;
        cells.pop(); // the age
        cells
    }

    #[test]
    fn the_row_has_the_policy_workload_and_status() {
        let mut gang = json!({"metadata": {"name": "g"},
            "spec": {"schedulingPolicy": {"gang": {"minCount": 2}}}});
        assert_eq!(cells(&gang), ["g", "Gang", "<none>", "Pending"]);
        #[cfg(feature = "v1_37")]
        let reference =
            json!({"workloadRef": {"workloadName": "train", "podGroupTemplateName": "t"}});
        #[cfg(not(feature = "v1_37"))]
        let reference = json!({"podGroupTemplateRef": {"workload": {"workloadName": "train", "podGroupTemplateName": "t"}}});
        for (k, v) in reference.as_object().unwrap() {
            gang["spec"][k] = v.clone();
        }
        gang["status"] = json!({"conditions": [{"type": SCHEDULED, "status": "False", "reason": "Unschedulable"}]});
        assert_eq!(cells(&gang), ["g", "Gang", "train", "Unschedulable"]);
        gang["status"]["conditions"][0]["status"] = json!("True");
        assert_eq!(cells(&gang)[3], "Scheduled");
        gang["status"]["conditions"]
            .as_array_mut()
            .unwrap()
            .push(json!({"type": "DisruptionTarget", "status": "True", "reason": "PreemptionByScheduler"}));
        assert_eq!(cells(&gang)[3], "PreemptionByScheduler");
        let basic = json!({"metadata": {"name": "b"}, "spec": {"schedulingPolicy": {"basic": {}}}});
        assert_eq!(cells(&basic)[1], "Basic");
    }
}
