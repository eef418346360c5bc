//! `rbac.authorization.k8s.io/v1`, `v1beta1` and `v1alpha1` (Go's
//! `pkg/apis/rbac/<version>/defaults.go`): a binding's role reference and its user and
//! group subjects are of the RBAC API group (a service account's is the core group);
//! `v1alpha1` subjects name an API version instead.

use apimachinery::conversion::Defaulters;

/// The RBAC API group.
pub const GROUP_NAME: &str = "rbac.authorization.k8s.io";

macro_rules! binding {
    ($d:ident, $ty:ty) => {
        $d.add(|obj: &mut $ty| {
            if obj.role_ref.api_group.is_empty() {
                obj.role_ref.api_group = GROUP_NAME.to_owned();
            }
            for s in &mut obj.subjects {
                if s.api_group.is_empty() && (s.kind == "User" || s.kind == "Group") {
                    s.api_group = GROUP_NAME.to_owned();
                }
            }
        });
    };
}

macro_rules! binding_v1alpha1 {
    ($d:ident, $ty:ty) => {
        $d.add(|obj: &mut $ty| {
            if obj.role_ref.api_group.is_empty() {
                obj.role_ref.api_group = GROUP_NAME.to_owned();
            }
            for s in &mut obj.subjects {
                if s.api_version.is_empty() {
                    match s.kind.as_str() {
                        "ServiceAccount" => s.api_version = "v1".to_owned(),
                        "User" | "Group" => s.api_version = format!("{GROUP_NAME}/v1alpha1"),
                        _ => {}
                    }
                }
            }
        });
    };
}

pub(super) fn register(d: &mut Defaulters) {
    use crate::rbac::{v1, v1alpha1, v1beta1};
    binding!(d, v1::RoleBinding);
    binding!(d, v1::ClusterRoleBinding);
    binding!(d, v1beta1::RoleBinding);
    binding!(d, v1beta1::ClusterRoleBinding);
    binding_v1alpha1!(d, v1alpha1::RoleBinding);
    binding_v1alpha1!(d, v1alpha1::ClusterRoleBinding);
}
