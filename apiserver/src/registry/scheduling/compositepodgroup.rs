//! CompositePodGroups (Kubernetes 1.37, `scheduling.k8s.io/v1alpha3`; Go's
//! `pkg/registry/scheduling/compositepodgroup/strategy.go`): the strategy of the gated
//! scheduling kinds ([`GatedFieldsStrategy`]), and the table
//! `kubectl get compositepodgroups` prints (Go's `printCompositePodGroup`).

use std::sync::Arc;

use serde_json::Value;

use super::gated_fields::{Gated, GatedFieldsStrategy};
use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column};
use crate::registry::rest::RestStorage;

use super::podgroup::{scheduling_policy, workload_name};

/// Go's `compositePodGroupColumnDefinitions`.
pub const COLUMNS: [Column; 4] = [
    NAME,
    string_column(
        "Policy",
        "schedulingPolicy defines the scheduling policy for this instance of the CompositePodGroup. Controllers are expected to fill this field by copying it from a CompositePodGroupTemplate. This field is immutable.",
        0,
    ),
    string_column("Workload", "Name of the referenced Workload object", 0),
    AGE,
];

/// The CompositePodGroups' table convertor.
pub static COMPOSITE_POD_GROUP_TABLE: Printer = Printer {
    api_version: "scheduling.k8s.io/v1alpha3",
    kind: "CompositePodGroup",
    columns: &COLUMNS,
    print: print_composite_pod_group,
};

/// Go's `printCompositePodGroup`: name, `Gang` when the policy is gang scheduling (else
/// `Basic`), the Workload it was made from (`<none>` without a reference), age.
pub fn print_composite_pod_group(obj: &Value) -> Row {
    let policy = scheduling_policy(obj);
    let workload = workload_name(obj, "/spec/workloadRef", "/workloadName");
    Row::from(vec![
        Value::from(printers::text(obj, "/metadata/name")),
        Value::from(policy),
        Value::from(workload),
        printers::age(obj),
    ])
}

/// The CompositePodGroups' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        GatedFieldsStrategy(Gated::CompositePodGroup),
        Arc::new(COMPOSITE_POD_GROUP_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cells(obj: &Value) -> Vec<Value> {
        print_composite_pod_group(obj).cells
    }

    #[test]
    fn the_row_names_the_policy_and_the_workload() {
        let gang = json!({"metadata": {"name": "training"},
            "spec": {"schedulingPolicy": {"gang": {}},
                     "workloadRef": {"workloadName": "job-1", "templateName": "t"}}});
        assert_eq!(
            cells(&gang)[..3],
            [json!("training"), json!("Gang"), json!("job-1")]
        );
        let basic =
            json!({"metadata": {"name": "web"}, "spec": {"schedulingPolicy": {"basic": {}}}});
        assert_eq!(
            cells(&basic)[..3],
            [json!("web"), json!("Basic"), json!("<none>")]
        );
    }
}
