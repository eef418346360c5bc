//! RuntimeClasses (Go's `pkg/registry/node/runtimeclass`): the generic strategy with
//! Go's warnings for deprecated node labels in `scheduling.nodeSelector`, and the table
//! `kubectl get runtimeclasses` prints (Go's `printRuntimeClass`: the handler).

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

use super::labels::warnings_for_runtime_class;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column, text};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{GenericStrategy, Strategy, Subresource};
use crate::registry::validation::NameValidation;
use crate::registry::{ResourceInfo, to_json};

/// Go's RuntimeClass strategy: updates name the version they replace, a PUT of a
/// missing class creates it, and deprecated node labels in its scheduling selector are
/// warned about on create and on every update (Go's `GetWarningsForRuntimeClass`).
#[derive(Clone, Copy, Debug)]
pub struct RuntimeClassStrategy(GenericStrategy);

impl Default for RuntimeClassStrategy {
    fn default() -> Self {
        RuntimeClassStrategy(
            GenericStrategy::default()
                .requiring_resource_version()
                .creating_on_update(),
        )
    }
}

/// The warnings for the class `obj` (none when it cannot be read).
fn warnings(obj: &dyn Object) -> Vec<String> {
    to_json(obj)
        .map(|class| warnings_for_runtime_class(&class))
        .unwrap_or_default()
}

impl Strategy for RuntimeClassStrategy {
    fn names(&self) -> NameValidation {
        self.0.names()
    }

    fn tracks_generation(&self) -> bool {
        self.0.tracks_generation()
    }

    fn allow_unconditional_update(&self) -> bool {
        self.0.allow_unconditional_update()
    }

    fn allow_create_on_update(&self) -> bool {
        self.0.allow_create_on_update()
    }

    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        self.0.prepare_for_create(scheme, info, obj)
    }

    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        self.0
            .prepare_for_update(scheme, info, old, new, subresource)
    }

    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        warnings(obj)
    }

    fn warnings_on_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        warnings(obj)
    }
}

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
        RuntimeClassStrategy::default(),
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
