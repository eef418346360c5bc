//! PriorityClasses (`scheduling.k8s.io/v1`; Go's `pkg/registry/scheduling/priorityclass`):
//! created at generation 1 though they have no spec, and the table
//! `kubectl get priorityclasses` prints (Go's `printPriorityClass`).

use std::sync::Arc;

use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::Strategy;
use apimachinery::api::errors::StatusError;

/// Go's PriorityClass strategy: `PrepareForCreate` sets the generation (to 1, which no
/// update changes).
#[derive(Clone, Copy, Debug, Default)]
pub struct PriorityClassStrategy;

impl Strategy for PriorityClassStrategy {
    fn prepare_for_create(
        &self,
        _scheme: &Scheme,
        _info: &ResourceInfo,
        mut obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        if let Some(meta) = obj.meta_mut() {
            meta.set_generation(1);
        }
        Ok(obj)
    }
}

/// Go's `priorityClassColumnDefinitions`: the preemption policy is a wide cell after the
/// age, yet of priority 0.
pub const COLUMNS: [Column; 5] = [
    NAME,
    Column {
        name: "Value",
        type_: "integer",
        format: "",
        description: "value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.",
        priority: 0,
    },
    Column {
        name: "Global-Default",
        type_: "boolean",
        format: "",
        description: "globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.",
        priority: 0,
    },
    AGE,
    string_column(
        "PreemptionPolicy",
        "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.",
        0,
    ),
];

/// The PriorityClasses' table convertor.
pub static PRIORITY_CLASS_TABLE: Printer = Printer {
    api_version: "scheduling.k8s.io/v1",
    kind: "PriorityClass",
    columns: &COLUMNS,
    print: print_priority_class,
};

/// Go's `printPriorityClass` (wide, as servers print): name, value, whether it is the
/// global default, age, the preemption policy (empty when unset).
pub fn print_priority_class(obj: &Value) -> Row {
    Row::from(vec![
        Value::from(printers::text(obj, "/metadata/name")),
        Value::from(printers::int(obj, "/value")),
        Value::from(
            obj.get("globalDefault")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        ),
        printers::age(obj),
        Value::from(printers::text(obj, "/preemptionPolicy")),
    ])
}

/// The PriorityClasses' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(info, PriorityClassStrategy, Arc::new(PRIORITY_CLASS_TABLE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_row_has_the_value_default_and_policy() {
        // Go's TestPrintPriorityClass cases, printed wide.
        let mut class = json!({"metadata": {"name": "pc2"}, "value": 1_000_000_000,
            "globalDefault": true, "preemptionPolicy": "PreemptLowerPriority"});
        let cells = print_priority_class(&class).cells;
        assert_eq!(
            cells[..3],
            [json!("pc2"), json!(1_000_000_000), json!(true)]
        );
        assert_eq!(cells[4], "PreemptLowerPriority");
        class.as_object_mut().unwrap().remove("preemptionPolicy");
        class.as_object_mut().unwrap().remove("globalDefault");
        let cells = print_priority_class(&class).cells;
        assert_eq!(cells[2], false);
        assert_eq!(cells[4], "");
    }
}
