//! May this user do this (Go's `k8s.io/apiserver/pkg/authorization/authorizer`): an
//! [`Authorizer`] decides on the [`Attributes`] of every authenticated request before
//! any handler runs.
//!
//! [`rbac`] is kube-apiserver's RBAC authorizer over the Roles and bindings the server
//! stores; the access reviews (`kubectl auth can-i`) are answered from whatever
//! authorizer the server has by their REST storages (`registry::authorization`).

pub mod rbac;
mod union;

pub use self::union::{Named, Union};

use std::fmt::Debug;

use crate::authentication::user::{self, Info};
use crate::endpoints::request_info::RequestInfo;

use self::rbac::policy::PolicyRule;

/// What a request asks to do (Go's `authorizer.AttributesRecord`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attributes {
    /// Who asks.
    pub user: Info,
    /// The verb: for resource requests `get`, `list`, `watch`, `create`, `update`,
    /// `patch`, `delete`, `deletecollection` (and `impersonate`, `bind`, `escalate`,
    /// `approve`... for the checks that ask them); for other paths the lowercased HTTP
    /// method (`get`, `post`, `put`, `patch`, `delete`).
    pub verb: String,
    /// Whether the request is for an API resource (otherwise a non-resource path such as
    /// `/healthz` or `/apis`).
    pub resource_request: bool,
    /// The namespace, empty for cluster-scoped resources and non-resource paths.
    pub namespace: String,
    /// The API group (`""` for the core group).
    pub api_group: String,
    /// The API version.
    pub api_version: String,
    /// The resource, such as `pods`.
    pub resource: String,
    /// The subresource, such as `status`.
    pub subresource: String,
    /// The object's name, empty for collections.
    pub name: String,
    /// The request path.
    pub path: String,
}

impl Attributes {
    /// The attributes of a resource request by `user`.
    pub fn for_resource(user: Info, info: &RequestInfo, path: &str) -> Attributes {
        Attributes {
            user,
            verb: info.verb.clone(),
            resource_request: true,
            namespace: info.namespace.clone().unwrap_or_default(),
            api_group: info.api_group.clone(),
            api_version: info.api_version.clone(),
            resource: info.resource.clone(),
            subresource: info.subresource.clone(),
            name: info.name.clone(),
            path: path.to_owned(),
        }
    }

    /// The attributes of a request for a non-resource `path` with HTTP `method`.
    pub fn for_path(user: Info, method: &str, path: &str) -> Attributes {
        Attributes {
            user,
            verb: method.to_ascii_lowercase(),
            resource_request: false,
            path: path.to_owned(),
            ..Attributes::default()
        }
    }
}

/// An authorizer's answer (Go's `authorizer.Decision`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The request may go on.
    Allow,
    /// The request is refused, whatever later authorizers would say.
    Deny,
    /// This authorizer has nothing to say; the next one decides, and a request no
    /// authorizer allows is refused.
    NoOpinion,
}

/// What a user may do in a namespace, as far as an authorizer can list it (Go's
/// `authorizer.RuleResolver` answer), for `SelfSubjectRulesReview`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RulesInfo {
    /// Rules on resources (verbs, API groups, resources, resource names).
    pub resource_rules: Vec<PolicyRule>,
    /// Rules on non-resource paths (verbs, URLs).
    pub non_resource_rules: Vec<PolicyRule>,
    /// Whether the authorizer may allow more than it listed.
    pub incomplete: bool,
    /// What went wrong listing them, if anything.
    pub evaluation_error: String,
}

/// Decides whether a request may go on (Go's `authorizer.Authorizer`). The `String` is
/// the reason, shown to the client in a refusal and in audit events.
#[async_trait::async_trait]
pub trait Authorizer: Send + Sync + Debug {
    /// The decision on `attributes`.
    async fn authorize(&self, attributes: &Attributes) -> (Decision, String);

    /// The rules `user` has in `namespace` (Go's `RuleResolver.RulesFor`). An
    /// authorizer that cannot list its rules says so with `incomplete`, the default.
    async fn rules_for(&self, _user: &Info, _namespace: &str) -> RulesInfo {
        RulesInfo {
            incomplete: true,
            ..RulesInfo::default()
        }
    }
}

/// Allows everything (Go's `--authorization-mode=AlwaysAllow`); the server's authorizer
/// when none is configured.
#[derive(Clone, Copy, Debug, Default)]
pub struct AlwaysAllow;

#[async_trait::async_trait]
impl Authorizer for AlwaysAllow {
    async fn authorize(&self, _attributes: &Attributes) -> (Decision, String) {
        (Decision::Allow, String::new())
    }

    async fn rules_for(&self, _user: &Info, _namespace: &str) -> RulesInfo {
        RulesInfo {
            resource_rules: vec![PolicyRule::new(&["*"]).groups(&["*"]).resources(&["*"])],
            non_resource_rules: vec![PolicyRule::new(&["*"]).urls(&["*"])],
            ..RulesInfo::default()
        }
    }
}

/// Refuses everything (Go's `--authorization-mode=AlwaysDeny`).
#[derive(Clone, Copy, Debug, Default)]
pub struct AlwaysDeny;

#[async_trait::async_trait]
impl Authorizer for AlwaysDeny {
    async fn authorize(&self, _attributes: &Attributes) -> (Decision, String) {
        (Decision::NoOpinion, "Everything is forbidden.".to_owned())
    }

    async fn rules_for(&self, _user: &Info, _namespace: &str) -> RulesInfo {
        RulesInfo::default()
    }
}

/// Allows members of `system:masters` everything and has no opinion on anyone else
/// (Go's `authorizerfactory.NewPrivilegedGroups`, first in kube-apiserver's chain).
#[derive(Clone, Copy, Debug, Default)]
pub struct PrivilegedGroups;

#[async_trait::async_trait]
impl Authorizer for PrivilegedGroups {
    async fn authorize(&self, attributes: &Attributes) -> (Decision, String) {
        if attributes.user.in_group(user::SYSTEM_PRIVILEGED_GROUP) {
            (Decision::Allow, String::new())
        } else {
            (Decision::NoOpinion, String::new())
        }
    }

    /// kube-apiserver lists no rules for it: members of `system:masters` see what
    /// the other authorizers (RBAC's `cluster-admin` binding) give them.
    async fn rules_for(&self, _user: &Info, _namespace: &str) -> RulesInfo {
        RulesInfo::default()
    }
}

/// The sentence of a refusal, as Go words it (`endpoints/handlers/responsewriters`'
/// `forbiddenMessage`): `User "alice" cannot get resource "pods" in API group "" in the
/// namespace "b"`.
pub fn forbidden_message(attributes: &Attributes) -> String {
    let user = &attributes.user.name;
    let verb = &attributes.verb;
    if !attributes.resource_request {
        return format!("User {user:?} cannot {verb} path {:?}", attributes.path);
    }
    let mut resource = attributes.resource.clone();
    if !attributes.subresource.is_empty() {
        resource = format!("{resource}/{}", attributes.subresource);
    }
    let group = &attributes.api_group;
    if attributes.namespace.is_empty() {
        format!(
            "User {user:?} cannot {verb} resource {resource:?} in API group {group:?} at the cluster scope"
        )
    } else {
        format!(
            "User {user:?} cannot {verb} resource {resource:?} in API group {group:?} in the namespace {:?}",
            attributes.namespace
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attributes(user: Info, namespace: &str) -> Attributes {
        Attributes {
            user,
            verb: "get".into(),
            resource_request: true,
            namespace: namespace.into(),
            api_version: "v1".into(),
            resource: "secrets".into(),
            name: "token".into(),
            ..Attributes::default()
        }
    }

    #[test]
    fn refusals_are_worded_as_go_words_them() {
        let user = Info {
            name: "alice".into(),
            ..Info::default()
        };
        assert_eq!(
            forbidden_message(&attributes(user.clone(), "b")),
            r#"User "alice" cannot get resource "secrets" in API group "" in the namespace "b""#
        );
        assert_eq!(
            forbidden_message(&attributes(user.clone(), "")),
            r#"User "alice" cannot get resource "secrets" in API group "" at the cluster scope"#
        );
        assert_eq!(
            forbidden_message(&Attributes::for_path(user, "GET", "/metrics")),
            r#"User "alice" cannot get path "/metrics""#
        );
    }
}
