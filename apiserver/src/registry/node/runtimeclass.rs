//! RuntimeClasses (Go's `pkg/registry/node/runtimeclass`): the generic strategy, and the
//! table `kubectl get runtimeclasses` prints (Go's `printRuntimeClass`: the handler).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column, text};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

/// Go's `runtimeClassColumnDefinitions`: the handler's description is
/// `metav1.ObjectMeta{}.SwaggerDoc()["handler"]`, which is empty.
pub const COLUMNS: [Column; 3] = [NAME, string_column("Handler", "", 0), AGE];

/// The RuntimeClasses' table convertor.
pub static RUNTIME_CLASS_TABLE: Printer = Printer {
    api_version: "node.k8s.io/v1",
    kind: "RuntimeClass",
    columns: &COLUMNS,
    print: print_runtime_class,
};

/// Go's `printRuntimeClass`: name, handler, age.
pub fn print_runtime_class(obj: &Value) -> Row {
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(text(obj, "/handler")),
        printers::age(obj),
    ])
}

/// The RuntimeClasses' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        GenericStrategy::default()
            .requiring_resource_version()
            .creating_on_update(),
        Arc::new(RUNTIME_CLASS_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintRuntimeClass` cases.
    #[test]
    fn classes_print_their_handler() {
        let class = json!({"metadata": {"name": "rc1"}, "handler": "h1"});
        assert_eq!(
            print_runtime_class(&class).cells[..2],
            [json!("rc1"), json!("h1")]
        );
    }
}
