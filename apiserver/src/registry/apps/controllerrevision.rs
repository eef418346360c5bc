//! ControllerRevisions (Go's `pkg/registry/apps/controllerrevision`): the table
//! `kubectl get controllerrevisions` prints (Go's `printControllerRevision`).

use apimachinery::util::go_strings::to_lower;
use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, int, items, string_column, text,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

/// Go's `controllerRevisionColumnDefinition`.
pub const COLUMNS: [Column; 4] = [
    NAME,
    string_column("Controller", "Controller of the object", 0),
    string_column(
        "Revision",
        "Revision indicates the revision of the state represented by Data.",
        0,
    ),
    AGE,
];

/// The ControllerRevisions' table convertor.
pub static CONTROLLER_REVISION_TABLE: Printer = Printer {
    api_version: "apps/v1",
    kind: "ControllerRevision",
    columns: &COLUMNS,
    print: print_controller_revision,
};

/// Go's `printControllerRevision`: the controlling owner as `kind.group/name` in lower
/// case (`<none>` without one), the revision (an integer cell).
pub fn print_controller_revision(obj: &Value) -> Row {
    let controller = items(obj, "/metadata/ownerReferences")
        .iter()
        .find(|r| r.get("controller").and_then(Value::as_bool) == Some(true))
        .map_or_else(|| "<none>".to_owned(), controller_name);
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(controller),
        Value::from(int(obj, "/revision")),
        printers::age(obj),
    ])
}

/// Go's `formatResourceName` of an owner reference, with its kind: the group kind
/// (`Kind.group`, `Kind` in the core group) in lower case, `/`, the name; the name alone
/// when the reference has neither group nor kind.
fn controller_name(owner: &Value) -> String {
    let name = text(owner, "/name");
    let kind = text(owner, "/kind");
    // Go's `schema.ParseGroupVersion`: the group is what precedes the `/`, none for `v1`.
    let group = text(owner, "/apiVersion")
        .split_once('/')
        .map_or("", |(group, _)| group);
    let group_kind = match (group, kind) {
        ("", "") => return name.to_owned(),
        ("", kind) => kind.to_owned(),
        (group, kind) => format!("{kind}.{group}"),
    };
    format!("{}/{name}", to_lower(&group_kind))
}

/// The ControllerRevisions' REST storage over `info`, with the table.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        GenericStrategy::default(),
        Arc::new(CONTROLLER_REVISION_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintControllerRevision`.
    #[test]
    fn controller_revisions_print_as_kubectl_shows_them() {
        let owned = json!({"metadata": {"name": "test1", "ownerReferences": [
                {"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "foo", "controller": false},
                {"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "bar", "controller": true}]},
            "revision": 1});
        let mut cells = print_controller_revision(&owned).cells;
        cells.remove(3);
        assert_eq!(
            Value::from(cells),
            json!(["test1", "daemonset.apps/bar", 1])
        );
        let orphan = json!({"metadata": {"name": "test2", "ownerReferences": [
                {"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "foo", "controller": false}]},
            "revision": 2});
        assert_eq!(print_controller_revision(&orphan).cells[1], json!("<none>"));
        let core = json!({"metadata": {"name": "test3", "ownerReferences": [
                {"apiVersion": "v1", "kind": "Pod", "name": "p", "controller": true}]}});
        assert_eq!(print_controller_revision(&core).cells[1], json!("pod/p"));
    }
}
