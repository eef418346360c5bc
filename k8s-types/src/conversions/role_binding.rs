//! `rbac.authorization.k8s.io/v1alpha1` RoleBinding and ClusterRoleBinding subjects ⇄
//! the `rbac.authorization.k8s.io/v1` hub.
//!
//! A `v1alpha1` subject names the API version of its kind (`apiVersion`), a `v1` subject
//! the API group (`apiGroup`). As in Kubernetes (`pkg/apis/rbac/v1alpha1/conversion.go`):
//!
//! - to `v1`: a `ServiceAccount` gets the core group (`""`), a `User` or `Group` the RBAC
//!   group, whatever their `apiVersion` says; any other kind the group of its
//!   `apiVersion` (none when the version does not parse). The `User` named `*`, which
//!   `v1alpha1` read as every authenticated user, becomes the `Group`
//!   `system:authenticated`;
//! - to `v1alpha1`: a `ServiceAccount` of the core group gets `v1`, a `User` or `Group`
//!   of the RBAC group `rbac.authorization.k8s.io/v1alpha1`, any other subject its group
//!   with an empty version (`example.com/`, or nothing for the core group).
//!
//! What does not come back, as in Go: the version part of `apiVersion` (only the group
//! survives `v1`, so a `v1alpha1` subject comes back with the version above, e.g. a
//! `ServiceAccount` without `apiVersion` with `v1`); an unparsable `apiVersion`; and the
//! `User` `*`, which comes back as the `Group` `system:authenticated`.

use apimachinery::conversion::{ConversionError, Convert, Scope};
use apimachinery::schema::{GroupVersion, parse_group_version};

use crate::rbac::v1 as hub;
use crate::rbac::v1alpha1 as old;

/// The RBAC API group, which `User` and `Group` subjects belong to.
pub const RBAC_GROUP: &str = "rbac.authorization.k8s.io";
/// The `apiVersion` `v1alpha1` gives `User` and `Group` subjects.
pub const RBAC_V1ALPHA1: &str = "rbac.authorization.k8s.io/v1alpha1";
/// The group `v1alpha1`'s `User` `*` stands for.
pub const ALL_AUTHENTICATED: &str = "system:authenticated";

const SERVICE_ACCOUNT: &str = "ServiceAccount";
const USER: &str = "User";
const GROUP: &str = "Group";

fn to_hub(s: &old::Subject) -> hub::Subject {
    let api_group = match s.kind.as_str() {
        SERVICE_ACCOUNT => String::new(),
        USER | GROUP => RBAC_GROUP.to_owned(),
        // Go leaves the group empty when the version does not parse.
        _ => parse_group_version(&s.api_version)
            .map(|gv| gv.group.to_string())
            .unwrap_or_default(),
    };
    let everyone = s.kind == USER && api_group == RBAC_GROUP && s.name == "*";
    hub::Subject {
        kind: if everyone { GROUP } else { &s.kind }.to_owned(),
        api_group,
        name: if everyone { ALL_AUTHENTICATED } else { &s.name }.to_owned(),
        namespace: s.namespace.clone(),
    }
}

fn from_hub(s: &hub::Subject) -> old::Subject {
    let api_version = match (s.kind.as_str(), s.api_group.as_str()) {
        (SERVICE_ACCOUNT, "") => "v1".to_owned(),
        (USER | GROUP, RBAC_GROUP) => RBAC_V1ALPHA1.to_owned(),
        (_, group) => GroupVersion::new(group, "").to_string(),
    };
    old::Subject {
        kind: s.kind.clone(),
        api_version,
        name: s.name.clone(),
        namespace: s.namespace.clone(),
    }
}

impl Convert<hub::Subject> for old::Subject {
    fn convert(self, scope: &Scope<'_>) -> Result<hub::Subject, ConversionError> {
        self.convert_ref(scope)
    }

    fn convert_ref(&self, _: &Scope<'_>) -> Result<hub::Subject, ConversionError> {
        Ok(to_hub(self))
    }
}

impl Convert<old::Subject> for hub::Subject {
    fn convert(self, scope: &Scope<'_>) -> Result<old::Subject, ConversionError> {
        self.convert_ref(scope)
    }

    fn convert_ref(&self, _: &Scope<'_>) -> Result<old::Subject, ConversionError> {
        Ok(from_hub(self))
    }
}
