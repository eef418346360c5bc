//! Who made a request (Go's `k8s.io/apiserver/pkg/authentication/user`).

use std::collections::BTreeMap;

/// The user of an anonymous request.
pub const ANONYMOUS: &str = "system:anonymous";
/// The group of every authenticated user.
pub const ALL_AUTHENTICATED: &str = "system:authenticated";
/// The group of every anonymous request.
pub const ALL_UNAUTHENTICATED: &str = "system:unauthenticated";
/// The group every authorizer of kube-apiserver allows everything.
pub const SYSTEM_PRIVILEGED_GROUP: &str = "system:masters";

/// A user as the authenticators found it (Go's `user.Info`/`DefaultInfo`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// The user name, such as `alice` or `system:serviceaccount:default:builder`.
    pub name: String,
    /// A unique id, empty when the authenticator has none.
    pub uid: String,
    /// The groups the user is in.
    pub groups: Vec<String>,
    /// Whatever else the authenticator knows (scopes, the credential's id, ...).
    pub extra: BTreeMap<String, Vec<String>>,
}

impl Info {
    /// The user of an anonymous request: `system:anonymous` in
    /// `system:unauthenticated`.
    pub fn anonymous() -> Info {
        Info {
            name: ANONYMOUS.to_owned(),
            groups: vec![ALL_UNAUTHENTICATED.to_owned()],
            ..Info::default()
        }
    }

    /// Whether the user is in `group`.
    pub fn in_group(&self, group: &str) -> bool {
        self.groups.iter().any(|g| g == group)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_anonymous_user_is_in_the_unauthenticated_group_only() {
        let user = Info::anonymous();
        assert_eq!(user.name, ANONYMOUS);
        assert!(user.in_group(ALL_UNAUTHENTICATED));
        assert!(!user.in_group(ALL_AUTHENTICATED));
    }
}
