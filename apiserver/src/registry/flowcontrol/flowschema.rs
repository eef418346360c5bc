//! FlowSchemas (Go's `pkg/registry/flowcontrol/flowschema`): the generic strategy, and
//! the table `kubectl get flowschemas` prints (Go's `printFlowSchema`), a list's rows in
//! the order the schemas match requests in (Go's `FlowSchemaSequence`).

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, int, items, string_column, text,
};
use crate::registry::rest::{RestStorage, StandardStorage, TableConvertor};
use crate::registry::strategy::GenericStrategy;

/// Go's `flowSchemaColumnDefinitions`.
pub const COLUMNS: [Column; 6] = [
    NAME,
    string_column(
        "PriorityLevel",
        "`name` is the name of the priority level configuration being referenced Required.",
        0,
    ),
    string_column(
        "MatchingPrecedence",
        "`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.",
        0,
    ),
    string_column(
        "DistinguisherMethod",
        "`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.",
        0,
    ),
    AGE,
    string_column(
        "MissingPL",
        "references a broken or non-existent PriorityLevelConfiguration",
        0,
    ),
];

/// The FlowSchemas' printer.
pub static FLOW_SCHEMA_PRINTER: Printer = Printer {
    api_version: "flowcontrol.apiserver.k8s.io/v1",
    kind: "FlowSchema",
    columns: &COLUMNS,
    print: print_flow_schema,
};

/// Go's `printFlowSchema`: name, the priority level, the matching precedence (an
/// integer), the distinguisher method's type (`<none>` unset), age, and whether the
/// priority level is missing (the `Dangling` condition's status, `?` without one).
pub fn print_flow_schema(obj: &Value) -> Row {
    let distinguisher = match obj.pointer("/spec/distinguisherMethod") {
        Some(method) if !method.is_null() => text(method, "/type"),
        _ => "<none>",
    };
    let missing = items(obj, "/status/conditions")
        .iter()
        .find(|c| text(c, "/type") == "Dangling")
        .map_or("?", |c| text(c, "/status"));
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(text(obj, "/spec/priorityLevelConfiguration/name")),
        Value::from(int(obj, "/spec/matchingPrecedence")),
        Value::from(distinguisher),
        printers::age(obj),
        Value::from(missing),
    ])
}

/// The FlowSchemas' table convertor: a list's rows by matching precedence, then name.
#[derive(Clone, Copy, Debug, Default)]
pub struct FlowSchemaTable;

impl TableConvertor for FlowSchemaTable {
    fn convert_to_table(
        &self,
        version: &str,
        objects: &[Value],
        list_meta: Map<String, Value>,
        include_object: &str,
    ) -> Value {
        FLOW_SCHEMA_PRINTER.convert_to_table(version, objects, list_meta, include_object)
    }

    fn convert_list_to_table(
        &self,
        version: &str,
        objects: &[Value],
        list_meta: Map<String, Value>,
        include_object: &str,
    ) -> Value {
        let mut sorted = objects.to_vec();
        sorted.sort_by(|a, b| {
            int(a, "/spec/matchingPrecedence")
                .cmp(&int(b, "/spec/matchingPrecedence"))
                .then_with(|| text(a, "/metadata/name").cmp(text(b, "/metadata/name")))
        });
        FLOW_SCHEMA_PRINTER.convert_to_table(version, &sorted, list_meta, include_object)
    }
}

/// The FlowSchemas' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    Arc::new(
        StandardStorage::new(deps.store(info, GenericStrategy::default()))
            .with_table_convertor(Arc::new(FlowSchemaTable)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(name: &str, precedence: i64) -> Value {
        json!({"metadata": {"name": name}, "spec": {"matchingPrecedence": precedence,
            "priorityLevelConfiguration": {"name": "global-default"}}})
    }

    /// Go's `TestPrintFlowSchema` cases.
    #[test]
    fn schemas_print_their_level_precedence_and_dangling_state() {
        let mut fs = schema("all-matcher", 1);
        assert_eq!(
            print_flow_schema(&fs).cells,
            [
                json!("all-matcher"),
                json!("global-default"),
                json!(1),
                json!("<none>"),
                json!("<unknown>"),
                json!("?")
            ]
        );
        fs["spec"]["distinguisherMethod"] = json!({"type": "ByUser"});
        fs["status"] = json!({"conditions": [{"type": "Other", "status": "True"},
            {"type": "Dangling", "status": "False"}]});
        let cells = print_flow_schema(&fs).cells;
        assert_eq!((&cells[3], &cells[5]), (&json!("ByUser"), &json!("False")));
    }

    #[test]
    fn a_lists_rows_are_by_precedence_then_name() {
        let list = [schema("b", 500), schema("z", 10), schema("a", 500)];
        let table = FlowSchemaTable.convert_list_to_table("v1", &list, Map::new(), "None");
        let names: Vec<&Value> = table["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| &r["cells"][0])
            .collect();
        assert_eq!(names, [&json!("z"), &json!("a"), &json!("b")]);
        let one = FlowSchemaTable.convert_to_table("v1", &list[..1], Map::new(), "None");
        assert_eq!(one["rows"][0]["cells"][0], json!("b"));
    }
}
