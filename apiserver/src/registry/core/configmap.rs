//! ConfigMaps (Go's `pkg/registry/core/configmap`): the generic strategy, and the table
//! `kubectl get configmaps` prints (Go's `printConfigMap`: the number of keys).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

/// Go's `configMapColumnDefinitions`.
pub const COLUMNS: [Column; 3] = [
    NAME,
    string_column(
        "Data",
        "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
        0,
    ),
    AGE,
];

/// The ConfigMaps' table convertor.
pub static CONFIG_MAP_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "ConfigMap",
    columns: &COLUMNS,
    print: print_config_map,
};

/// Go's `printConfigMap`: name, how many keys (`data` and `binaryData`), age.
pub fn print_config_map(obj: &Value) -> Row {
    let keys = |field: &str| {
        obj.get(field)
            .and_then(Value::as_object)
            .map_or(0, |m| m.len())
    };
    let count = i64::try_from(keys("data") + keys("binaryData")).unwrap_or(i64::MAX);
    Row::from(vec![
        obj.pointer("/metadata/name")
            .cloned()
            .unwrap_or(Value::from("")),
        Value::from(count),
        printers::age(obj),
    ])
}

/// The ConfigMaps' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(info, GenericStrategy::default(), Arc::new(CONFIG_MAP_TABLE))
}
