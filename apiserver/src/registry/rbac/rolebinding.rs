//! RoleBindings (Go's `pkg/registry/rbac/rolebinding`): the RBAC strategy, and the table
//! `kubectl get rolebindings` prints (Go's `printRoleBinding`), whose row
//! [`print_binding`] ClusterRoleBindings print too.

use std::sync::Arc;

use serde_json::Value;

use crate::authorization::rbac::STRATEGY;
use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, items, string_column, text,
};
use crate::registry::rest::RestStorage;

/// `rbacv1beta1.RoleBinding{}.SwaggerDoc()["roleRef"]`, which 1.37 lower-cased.
#[cfg(feature = "v1_37")]
const ROLE_REF: &str = "roleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.";
#[cfg(not(feature = "v1_37"))]
const ROLE_REF: &str = "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.";

/// Go's `roleBindingsColumnDefinitions`.
pub const COLUMNS: [Column; 6] = [
    NAME,
    string_column("Role", ROLE_REF, 0),
    AGE,
    string_column("Users", "Users in the roleBinding", 1),
    string_column("Groups", "Groups in the roleBinding", 1),
    string_column("ServiceAccounts", "ServiceAccounts in the roleBinding", 1),
];

/// The RoleBindings' table convertor.
pub static ROLE_BINDING_TABLE: Printer = Printer {
    api_version: "rbac.authorization.k8s.io/v1",
    kind: "RoleBinding",
    columns: &COLUMNS,
    print: print_binding,
};

/// Go's `printRoleBinding` and `printClusterRoleBinding`: name, `<kind>/<name>` of the
/// role, age, and the subjects (Go's `rbac.SubjectsStrings`): users, groups and service
/// accounts (`<namespace>/<name>`), each joined with `, `; subjects of other kinds are
/// not shown.
pub fn print_binding(obj: &Value) -> Row {
    let (mut users, mut groups, mut accounts) = (Vec::new(), Vec::new(), Vec::new());
    for subject in items(obj, "/subjects") {
        let name = text(subject, "/name");
        match text(subject, "/kind") {
            "ServiceAccount" => accounts.push(format!("{}/{name}", text(subject, "/namespace"))),
            "User" => users.push(name.to_owned()),
            "Group" => groups.push(name.to_owned()),
            _ => {}
        }
    }
    let role = format!(
        "{}/{}",
        text(obj, "/roleRef/kind"),
        text(obj, "/roleRef/name")
    );
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(role),
        printers::age(obj),
        Value::from(users.join(", ")),
        Value::from(groups.join(", ")),
        Value::from(accounts.join(", ")),
    ])
}

/// The RoleBindings' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(info, STRATEGY, Arc::new(ROLE_BINDING_TABLE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintRoleBinding` cases, wide.
    #[test]
    fn bindings_print_the_role_and_the_subjects_by_kind() {
        let binding = json!({
            "metadata": {"name": "binding1", "namespace": "default"},
            "subjects": [
                {"kind": "User", "name": "system:kube-controller-manager"},
                {"kind": "Group", "name": "system:masters"},
                {"kind": "ServiceAccount", "name": "default", "namespace": "kube-system"},
                {"kind": "User", "name": "alice"},
                {"kind": "Other", "name": "x"}
            ],
            "roleRef": {"kind": "Role", "name": "extension-apiserver-authentication-reader"}
        });
        let cells = print_binding(&binding).cells;
        assert_eq!(cells[0], json!("binding1"));
        assert_eq!(
            cells[1],
            json!("Role/extension-apiserver-authentication-reader")
        );
        assert_eq!(cells[2], json!("<unknown>"));
        assert_eq!(
            cells[3..],
            [
                json!("system:kube-controller-manager, alice"),
                json!("system:masters"),
                json!("kube-system/default")
            ]
        );
        let bare = print_binding(&json!({"metadata": {"name": "b"}, "roleRef": {}})).cells;
        assert_eq!(
            bare[1..],
            [
                json!("/"),
                json!("<unknown>"),
                json!(""),
                json!(""),
                json!("")
            ]
        );
    }
}
