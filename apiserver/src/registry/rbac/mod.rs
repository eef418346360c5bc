//! The rbac.authorization.k8s.io group's resources (Go's `pkg/registry/rbac`): Roles,
//! ClusterRoles and their bindings are written with the RBAC strategy (names are path
//! segments), and [`escalation`] is the check that no write grants what its writer does
//! not hold. RoleBindings and ClusterRoleBindings print their tables; Roles and
//! ClusterRoles have Go's default one (their strategies, Go's
//! `pkg/registry/rbac/role/strategy.go` and `pkg/registry/rbac/clusterrole/strategy.go`,
//! are [`STRATEGY`]).

pub mod clusterrolebinding;
pub mod escalation;
pub mod rolebinding;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use crate::authorization::rbac::STRATEGY;

/// The REST storage of RBAC resource `info` (Go's `rbac/rest/storage_rbac.go`).
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    match info.resource.as_str() {
        "rolebindings" => rolebinding::storage(info, deps),
        "clusterrolebindings" => clusterrolebinding::storage(info, deps),
        _ => deps.standard(info, STRATEGY),
    }
}
