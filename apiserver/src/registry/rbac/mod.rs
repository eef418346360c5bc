//! The rbac.authorization.k8s.io group's resources (Go's `pkg/registry/rbac`): Roles,
//! ClusterRoles and their bindings are written with the RBAC strategy (names are path
//! segments), and [`escalation`] is the check that no write grants what its writer does
//! not hold.

pub mod escalation;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::rest::RestStorage;
use crate::authorization::rbac::STRATEGY;

/// The REST storage of RBAC resource `info` (Go's `rbac/rest/storage_rbac.go`).
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard(info, STRATEGY)
}
