//! ClusterRoleBindings (Go's `pkg/registry/rbac/clusterrolebinding`): the RBAC strategy,
//! and the table `kubectl get clusterrolebindings` prints (Go's
//! `printClusterRoleBinding`, the row of a RoleBinding's).

use std::sync::Arc;

use crate::authorization::rbac::STRATEGY;
use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{AGE, Column, NAME, Printer, string_column};
use crate::registry::rest::RestStorage;

use super::rolebinding::print_binding;

/// `rbacv1beta1.ClusterRoleBinding{}.SwaggerDoc()["roleRef"]`, which 1.37 lower-cased.
#[cfg(feature = "v1_37")]
const ROLE_REF: &str = "roleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.";
#[cfg(not(feature = "v1_37"))]
const ROLE_REF: &str = "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.";

/// Go's `clusterRoleBindingsColumnDefinitions`.
pub const COLUMNS: [Column; 6] = [
    NAME,
    string_column("Role", ROLE_REF, 0),
    AGE,
    string_column("Users", "Users in the clusterRoleBinding", 1),
    string_column("Groups", "Groups in the clusterRoleBinding", 1),
    string_column(
        "ServiceAccounts",
        "ServiceAccounts in the clusterRoleBinding",
        1,
    ),
];

/// The ClusterRoleBindings' table convertor.
pub static CLUSTER_ROLE_BINDING_TABLE: Printer = Printer {
    api_version: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    columns: &COLUMNS,
    print: print_binding,
};

/// The ClusterRoleBindings' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(info, STRATEGY, Arc::new(CLUSTER_ROLE_BINDING_TABLE))
}
