//! Authorizers asked in order until one allows or denies (Go's
//! `k8s.io/apiserver/pkg/authorization/union`), each under the name kube-apiserver gives
//! it: 1.37's union names the authorizer a no-opinion reason came from.

use std::sync::Arc;

use super::{Attributes, Authorizer, Decision, RulesInfo, rbac};
use crate::authentication::user::Info;

/// One authorizer of a [`Union`] and its name, unique in the union (Go's
/// `union.NamedAuthorizer`). kube-apiserver names the `system:masters` authorizer
/// [`Named::PRIVILEGED_GROUPS`] and each `--authorization-mode` its mode in lower case
/// (`rbac`, `alwaysallow`).
#[derive(Clone, Debug)]
pub struct Named {
    /// The authorizer's name.
    pub name: String,
    /// The authorizer.
    pub authorizer: Arc<dyn Authorizer>,
}

impl Named {
    /// The name kube-apiserver gives the authorizer of `system:masters`, first in its chain.
    pub const PRIVILEGED_GROUPS: &'static str = "kubernetes.io/system-privileged-group";

    /// `authorizer` under `name`.
    pub fn new(name: impl Into<String>, authorizer: Arc<dyn Authorizer>) -> Named {
        Named {
            name: name.into(),
            authorizer,
        }
    }
}

/// Authorizers asked in order until one allows or denies (Go's `union.New`).
#[derive(Clone, Debug, Default)]
pub struct Union(Vec<Named>);

impl Union {
    /// The union of `chain`, refused as Go refuses it when a name is empty or repeated.
    pub fn new(chain: Vec<Named>) -> Result<Union, String> {
        for (i, named) in chain.iter().enumerate() {
            if named.name.is_empty() {
                return Err("empty AuthorizerName in union.New is invalid".to_owned());
            }
            if chain[..i].iter().any(|n| n.name == named.name) {
                return Err(format!(
                    "duplicate AuthorizerName {:?} in union.New",
                    named.name
                ));
            }
        }
        Ok(Union(chain))
    }
}

/// A no-opinion reason as the union reports it: 1.37 prefixes it with the name of the
/// authorizer that gave it (so that a reader of several knows whose it is); 1.36 gives
/// it alone.
fn reason_of(name: &str, reason: String) -> String {
    if cfg!(feature = "v1_37") {
        format!("{name}: {reason}")
    } else {
        let _ = name;
        reason
    }
}

#[async_trait::async_trait]
impl Authorizer for Union {
    async fn authorize(&self, attributes: &Attributes) -> (Decision, String) {
        let mut reasons = Vec::new();
        for named in &self.0 {
            let (decision, reason) = named.authorizer.authorize(attributes).await;
            match decision {
                // The deciding authorizer's reason is its own, unprefixed.
                Decision::Allow | Decision::Deny => return (decision, reason),
                Decision::NoOpinion if !reason.is_empty() => {
                    reasons.push(reason_of(&named.name, reason));
                }
                Decision::NoOpinion => {}
            }
        }
        (Decision::NoOpinion, reasons.join("\n"))
    }

    /// Every authorizer's rules together (Go's `union.NewRuleResolvers`, which names
    /// no authorizer in its errors).
    async fn rules_for(&self, user: &Info, namespace: &str) -> RulesInfo {
        let mut all = RulesInfo::default();
        let mut errors = Vec::new();
        for named in &self.0 {
            let info = named.authorizer.rules_for(user, namespace).await;
            all.resource_rules.extend(info.resource_rules);
            all.non_resource_rules.extend(info.non_resource_rules);
            all.incomplete |= info.incomplete;
            if !info.evaluation_error.is_empty() {
                errors.push(info.evaluation_error);
            }
        }
        if !errors.is_empty() {
            all.evaluation_error = rbac::aggregate_errors(&errors);
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::authentication::user;
    use crate::authorization::{AlwaysDeny, PrivilegedGroups};

    fn attributes(user: Info) -> Attributes {
        Attributes {
            user,
            verb: "get".into(),
            resource_request: true,
            namespace: "a".into(),
            api_version: "v1".into(),
            resource: "secrets".into(),
            name: "token".into(),
            ..Attributes::default()
        }
    }

    fn chain() -> Union {
        Union::new(vec![
            Named::new(Named::PRIVILEGED_GROUPS, Arc::new(PrivilegedGroups)),
            Named::new("alwaysdeny", Arc::new(AlwaysDeny)),
        ])
        .unwrap()
    }

    #[tokio::test]
    async fn a_union_stops_at_the_first_decision_and_keeps_the_reasons_before_it() {
        let masters = Info {
            name: "admin".into(),
            groups: vec![user::SYSTEM_PRIVILEGED_GROUP.into()],
            ..Info::default()
        };
        assert_eq!(
            chain().authorize(&attributes(masters)).await.0,
            Decision::Allow
        );
        let (decision, reason) = chain().authorize(&attributes(Info::anonymous())).await;
        assert_eq!(decision, Decision::NoOpinion);
        let expected = if cfg!(feature = "v1_37") {
            "alwaysdeny: Everything is forbidden."
        } else {
            "Everything is forbidden."
        };
        assert_eq!(reason, expected);
    }

    #[test]
    fn names_must_be_given_and_unique() {
        let deny = || Arc::new(AlwaysDeny) as Arc<dyn Authorizer>;
        assert_eq!(
            Union::new(vec![Named::new("", deny())]).unwrap_err(),
            "empty AuthorizerName in union.New is invalid"
        );
        assert_eq!(
            Union::new(vec![Named::new("a", deny()), Named::new("a", deny())]).unwrap_err(),
            r#"duplicate AuthorizerName "a" in union.New"#
        );
    }
}
