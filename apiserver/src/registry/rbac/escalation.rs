//! No granting what you do not hold (Go's `pkg/registry/rbac/validation` and the RBAC
//! registries' escalation checks): a Role or ClusterRole may only be written with rules
//! its writer holds, and a binding only to a role whose rules its writer holds —
//! unless the writer may `escalate` that role or `bind` it, or is in `system:masters`.
//!
//! Go runs these checks in the RBAC resources' REST storage (`pkg/registry/rbac`'s
//! `escalation_check.go` and the `policybased` storages). Here they are an admission
//! [`ValidationInterface`] the server is configured with (kube-apiserver's RBAC mode
//! adds it): the server's handlers already give admission the user, the decoded object
//! in its storage version and the old one, on exactly the writes the check is about.
//! The check sees every write the admission chain sees: creates, and updates and
//! patches once the handlers run the chain on them.

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::schema::GroupResource;
use serde_json::Value;

use crate::admission::{Attributes, Operation, ValidationInterface};
use crate::authentication::user::{Info, SYSTEM_PRIVILEGED_GROUP};
use crate::authorization::rbac::Rbac;
use crate::authorization::rbac::policy::{self, GROUP, PolicyRule, RbacObject, RoleRef, covers};
use crate::authorization::{self, Authorizer, Decision};
use crate::registry::to_json;

/// The escalation check, as an admission plugin.
#[derive(Debug, Clone)]
pub struct EscalationCheck {
    rbac: Arc<Rbac>,
    authorizer: Arc<dyn Authorizer>,
}

impl EscalationCheck {
    /// The check of writes against the rules `rbac` gives their writer; `authorizer`
    /// (the server's) decides whether the writer may `escalate` or `bind` a role.
    pub fn new(rbac: Arc<Rbac>, authorizer: Arc<dyn Authorizer>) -> EscalationCheck {
        EscalationCheck { rbac, authorizer }
    }

    async fn authorized(
        &self,
        user: &Info,
        verb: &str,
        resource: &str,
        namespace: &str,
        name: &str,
    ) -> bool {
        let attributes = authorization::Attributes {
            user: user.clone(),
            verb: verb.to_owned(),
            resource_request: true,
            namespace: namespace.to_owned(),
            api_group: GROUP.to_owned(),
            resource: resource.to_owned(),
            name: name.to_owned(),
            ..authorization::Attributes::default()
        };
        self.authorizer.authorize(&attributes).await.0 == Decision::Allow
    }

    /// Go's `ConfirmNoEscalation`: the sentence listing what `user` does not hold, or
    /// `None` when it holds all of `rules` in `namespace`.
    async fn missing(&self, user: &Info, namespace: &str, rules: &[PolicyRule]) -> Option<String> {
        let (owner, errors) = self.rbac.rules_for(user, namespace).await;
        let (covered, missing) = covers(&owner, rules);
        if covered {
            return None;
        }
        let mut descriptions: Vec<String> = policy::compact(missing)
            .iter()
            .map(PolicyRule::compact_string)
            .collect();
        descriptions.sort();
        descriptions.dedup();
        let mut message = format!(
            "user {:?} (groups={}) is attempting to grant RBAC permissions not currently held:\n{}",
            user.name,
            policy::go_quoted_list(&user.groups),
            descriptions.join("\n")
        );
        if !errors.is_empty() {
            message.push_str(&format!(
                "; resolution errors: [{}]",
                crate::authorization::rbac::aggregate_errors(&errors)
            ));
        }
        Some(message)
    }
}

/// Full authority: what using an aggregation rule needs.
fn full_authority() -> Vec<PolicyRule> {
    vec![
        PolicyRule::new(&["*"]).groups(&["*"]).resources(&["*"]),
        PolicyRule::new(&["*"]).urls(&["*"]),
    ]
}

/// The object's JSON without the fields only the garbage collector changes (Go's
/// `IsOnlyMutatingGCFields`) and those the server sets.
fn comparable(obj: &dyn apimachinery::runtime::Object) -> Option<Value> {
    let mut v = to_json(obj).ok()?;
    if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        for field in [
            "ownerReferences",
            "finalizers",
            "resourceVersion",
            "managedFields",
            "generation",
        ] {
            meta.remove(field);
        }
    }
    Some(v)
}

#[async_trait::async_trait]
impl ValidationInterface for EscalationCheck {
    fn handles(&self, operation: Operation) -> bool {
        matches!(operation, Operation::Create | Operation::Update)
    }

    async fn validate(&self, attributes: &Attributes) -> Result<(), StatusError> {
        let resource = attributes.resource.resource.as_str();
        if attributes.resource.group != GROUP
            || !attributes.subresource.is_empty()
            || !matches!(
                resource,
                "roles" | "clusterroles" | "rolebindings" | "clusterrolebindings"
            )
        {
            return Ok(());
        }
        let user = &attributes.user;
        if user.in_group(SYSTEM_PRIVILEGED_GROUP) {
            return Ok(());
        }
        let Some(object) = attributes.object.as_deref() else {
            return Ok(());
        };
        if let Some(old) = attributes.old_object.as_deref() {
            if comparable(object).is_some() && comparable(object) == comparable(old) {
                return Ok(());
            }
        }
        let json = to_json(object)?;
        let obj: RbacObject = serde_json::from_value(json)
            .map_err(|e| errors::new_internal_error(format!("reading {resource}: {e}")))?;
        let name = obj.metadata.name.clone();
        let namespace = attributes.namespace.as_str();
        let forbidden =
            |why: &str| errors::new_forbidden(&GroupResource::new(GROUP, resource), &name, why);
        match resource {
            "roles" | "clusterroles" => {
                if self
                    .authorized(user, "escalate", resource, namespace, &name)
                    .await
                {
                    return Ok(());
                }
                let rules = obj.rules.unwrap_or_default();
                if let Some(why) = self.missing(user, namespace, &rules).await {
                    return Err(forbidden(&why));
                }
                // An aggregation rule can gather anything: it takes `*` on everything.
                if obj.aggregation_rule.is_some()
                    && self
                        .missing(user, namespace, &full_authority())
                        .await
                        .is_some()
                {
                    return Err(forbidden(
                        "must have cluster-admin privileges to use the aggregationRule",
                    ));
                }
                Ok(())
            }
            _ => {
                let role_ref: RoleRef = obj.role_ref.unwrap_or_default();
                let role_resource = match role_ref.kind.as_str() {
                    "ClusterRole" => "clusterroles",
                    "Role" => "roles",
                    _ => "",
                };
                if !role_resource.is_empty()
                    && self
                        .authorized(user, "bind", role_resource, namespace, &role_ref.name)
                        .await
                {
                    return Ok(());
                }
                let rules = match self.rbac.role_ref_rules(&role_ref, namespace).await {
                    Ok(rules) => rules,
                    Err(_) if !role_resource.is_empty() => {
                        return Err(errors::new_not_found(
                            &GroupResource::new(GROUP, role_resource),
                            &role_ref.name,
                        ));
                    }
                    Err(e) => return Err(forbidden(&e)),
                };
                match self.missing(user, namespace, &rules).await {
                    Some(why) => Err(forbidden(&why)),
                    None => Ok(()),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
