//! The pieces of `rbac.authorization.k8s.io/v1` the authorizer reads (rules, subjects,
//! role references) and Go's rules for matching a request against a rule
//! (`pkg/apis/rbac/v1/evaluation_helpers.go`) and one set of rules against another
//! (`component-helpers/auth/rbac/validation`'s `Covers`, the escalation check).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::authorization::Attributes;

/// `*` in verbs, API groups, resources and non-resource URLs.
pub const ALL: &str = "*";

/// The API group of RBAC's kinds.
pub const GROUP: &str = "rbac.authorization.k8s.io";

/// One rule of a Role or ClusterRole (Go's `rbacv1.PolicyRule`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyRule {
    /// The verbs, or `*`.
    #[serde(default)]
    pub verbs: Vec<String>,
    /// The API groups (`""` is the core group), or `*`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub api_groups: Vec<String>,
    /// The resources: `pods`, `pods/log`, `*/scale`, or `*`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
    /// The only object names allowed; empty allows every name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_names: Vec<String>,
    /// Paths such as `/healthz` or `/apis/*` (a trailing `*` is a prefix match).
    #[serde(
        default,
        rename = "nonResourceURLs",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub non_resource_urls: Vec<String>,
}

impl PolicyRule {
    /// A rule of `verbs` (on nothing until [`groups`](PolicyRule::groups) and
    /// [`resources`](PolicyRule::resources) or [`urls`](PolicyRule::urls) say what).
    pub fn new(verbs: &[&str]) -> PolicyRule {
        PolicyRule {
            verbs: strings(verbs),
            ..PolicyRule::default()
        }
    }

    /// The rule with these API groups.
    pub fn groups(mut self, groups: &[&str]) -> PolicyRule {
        self.api_groups = strings(groups);
        self
    }

    /// The rule with these resources.
    pub fn resources(mut self, resources: &[&str]) -> PolicyRule {
        self.resources = strings(resources);
        self
    }

    /// The rule with these object names.
    pub fn names(mut self, names: &[&str]) -> PolicyRule {
        self.resource_names = strings(names);
        self
    }

    /// The rule with these non-resource URLs.
    pub fn urls(mut self, urls: &[&str]) -> PolicyRule {
        self.non_resource_urls = strings(urls);
        self
    }

    /// Whether the rule allows the request (Go's `RuleAllows`).
    pub fn allows(&self, attributes: &Attributes) -> bool {
        if !self.verb_matches(&attributes.verb) {
            return false;
        }
        if !attributes.resource_request {
            return self.non_resource_url_matches(&attributes.path);
        }
        let combined = if attributes.subresource.is_empty() {
            std::borrow::Cow::Borrowed(attributes.resource.as_str())
        } else {
            std::borrow::Cow::Owned(format!(
                "{}/{}",
                attributes.resource, attributes.subresource
            ))
        };
        self.api_group_matches(&attributes.api_group)
            && self.resource_matches(&combined, &attributes.subresource)
            && self.resource_name_matches(&attributes.name)
    }

    fn verb_matches(&self, verb: &str) -> bool {
        self.verbs.iter().any(|v| v == ALL || v == verb)
    }

    fn api_group_matches(&self, group: &str) -> bool {
        self.api_groups.iter().any(|g| g == ALL || g == group)
    }

    fn resource_matches(&self, combined: &str, subresource: &str) -> bool {
        self.resources.iter().any(|r| {
            r == ALL
                || r == combined
                || (!subresource.is_empty()
                    && r.strip_prefix("*/").is_some_and(|sub| sub == subresource))
        })
    }

    fn resource_name_matches(&self, name: &str) -> bool {
        self.resource_names.is_empty() || self.resource_names.iter().any(|n| n == name)
    }

    fn non_resource_url_matches(&self, path: &str) -> bool {
        self.non_resource_urls
            .iter()
            .any(|url| non_resource_url_covers(url, path))
    }

    /// Go's `CompactString`, how an escalation refusal lists the rules missing:
    /// `{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`.
    pub fn compact_string(&self) -> String {
        let mut parts = Vec::new();
        let fields: [(&str, &Vec<String>); 5] = [
            ("APIGroups", &self.api_groups),
            ("Resources", &self.resources),
            ("NonResourceURLs", &self.non_resource_urls),
            ("ResourceNames", &self.resource_names),
            ("Verbs", &self.verbs),
        ];
        for (name, values) in fields {
            if !values.is_empty() {
                parts.push(format!("{name}:{}", go_quoted_list(values)));
            }
        }
        format!("{{{}}}", parts.join(", "))
    }
}

/// Go's `%q` of a `[]string`: `["a" "b"]`.
pub(crate) fn go_quoted_list(values: &[String]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
    format!("[{}]", quoted.join(" "))
}

fn strings(values: &[&str]) -> Vec<String> {
    values.iter().map(|v| (*v).to_owned()).collect()
}

/// A path pattern covers a path when equal to it, or when it ends in `*` and the path
/// starts with what comes before.
fn non_resource_url_covers(pattern: &str, path: &str) -> bool {
    pattern == ALL
        || pattern == path
        || pattern
            .strip_suffix('*')
            .is_some_and(|prefix| path.starts_with(prefix.trim_end_matches('*')))
}

/// Who a binding grants its role to (Go's `rbacv1.Subject`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subject {
    /// `User`, `Group` or `ServiceAccount`.
    #[serde(default)]
    pub kind: String,
    /// The API group (`rbac.authorization.k8s.io` for users and groups, `""` for
    /// service accounts).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_group: String,
    /// The user, group or service account name.
    #[serde(default)]
    pub name: String,
    /// The service account's namespace (a RoleBinding's own when empty).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
}

impl Subject {
    /// A user subject.
    pub fn user(name: &str) -> Subject {
        Subject {
            kind: "User".into(),
            api_group: GROUP.into(),
            name: name.into(),
            namespace: String::new(),
        }
    }

    /// A group subject.
    pub fn group(name: &str) -> Subject {
        Subject {
            kind: "Group".into(),
            api_group: GROUP.into(),
            name: name.into(),
            namespace: String::new(),
        }
    }

    /// Go's `describeSubject`: `User "alice"`, `ServiceAccount "builder/ci"`.
    pub fn describe(&self, binding_namespace: &str) -> String {
        if self.kind == "ServiceAccount" {
            let ns = if self.namespace.is_empty() {
                binding_namespace
            } else {
                &self.namespace
            };
            return format!("{} {:?}", self.kind, format!("{}/{ns}", self.name));
        }
        format!("{} {:?}", self.kind, self.name)
    }

    /// The user name or group this subject stands for in `binding_namespace`: a service
    /// account is the user `system:serviceaccount:NS:NAME`; `None` for a subject that
    /// can match nobody (an unknown kind, a service account without a namespace).
    pub fn principal(&self, binding_namespace: &str) -> Option<Principal> {
        match self.kind.as_str() {
            "User" => Some(Principal::User(self.name.clone())),
            "Group" => Some(Principal::Group(self.name.clone())),
            "ServiceAccount" => {
                let ns = if self.namespace.is_empty() {
                    binding_namespace
                } else {
                    &self.namespace
                };
                if ns.is_empty() || self.name.is_empty() {
                    return None;
                }
                Some(Principal::User(service_account_username(ns, &self.name)))
            }
            _ => None,
        }
    }
}

/// A user name or a group: what a binding's subjects are indexed by.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Principal {
    /// A user name.
    User(String),
    /// A group.
    Group(String),
}

/// The user name of a service account's tokens (Go's `serviceaccount.MakeUsername`).
pub fn service_account_username(namespace: &str, name: &str) -> String {
    format!("system:serviceaccount:{namespace}:{name}")
}

/// What a binding grants (Go's `rbacv1.RoleRef`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoleRef {
    /// `rbac.authorization.k8s.io`.
    #[serde(default)]
    pub api_group: String,
    /// `Role` or `ClusterRole`.
    #[serde(default)]
    pub kind: String,
    /// The role's name.
    #[serde(default)]
    pub name: String,
}

/// How a ClusterRole gathers the rules of others (Go's `rbacv1.AggregationRule`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AggregationRule {
    /// The ClusterRoles whose rules are this one's: those any selector matches.
    #[serde(default)]
    pub cluster_role_selectors: Vec<apimachinery::apis::meta::v1::LabelSelector>,
}

/// The fields of a Role, ClusterRole, RoleBinding or ClusterRoleBinding the authorizer
/// reads, from the object's JSON.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RbacObject {
    /// The object's metadata (name, namespace, labels).
    #[serde(default)]
    pub metadata: Metadata,
    /// A role's rules.
    #[serde(default)]
    pub rules: Option<Vec<PolicyRule>>,
    /// A ClusterRole's aggregation rule.
    #[serde(default)]
    pub aggregation_rule: Option<AggregationRule>,
    /// A binding's subjects.
    #[serde(default)]
    pub subjects: Option<Vec<Subject>>,
    /// A binding's role.
    #[serde(default)]
    pub role_ref: Option<RoleRef>,
}

/// The metadata the authorizer reads.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Metadata {
    /// The name.
    #[serde(default)]
    pub name: String,
    /// The namespace, empty for cluster-scoped kinds.
    #[serde(default)]
    pub namespace: String,
    /// The labels (what aggregation selects on).
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
}

/// Whether `owner` covers every rule of `servant`, and the rules it does not, each one
/// verb on one resource (and name) or one URL (Go's `validation.Covers`).
pub fn covers(owner: &[PolicyRule], servant: &[PolicyRule]) -> (bool, Vec<PolicyRule>) {
    let missing: Vec<PolicyRule> = servant
        .iter()
        .flat_map(breakdown)
        .filter(|sub| !owner.iter().any(|o| rule_covers(o, sub)))
        .collect();
    (missing.is_empty(), missing)
}

/// A rule as rules of at most one verb, resource and name each (Go's `BreakdownRule`).
fn breakdown(rule: &PolicyRule) -> Vec<PolicyRule> {
    let mut out = Vec::new();
    for group in &rule.api_groups {
        for resource in &rule.resources {
            for verb in &rule.verbs {
                let base = PolicyRule {
                    verbs: vec![verb.clone()],
                    api_groups: vec![group.clone()],
                    resources: vec![resource.clone()],
                    ..PolicyRule::default()
                };
                if rule.resource_names.is_empty() {
                    out.push(base);
                } else {
                    for name in &rule.resource_names {
                        out.push(PolicyRule {
                            resource_names: vec![name.clone()],
                            ..base.clone()
                        });
                    }
                }
            }
        }
    }
    for url in &rule.non_resource_urls {
        for verb in &rule.verbs {
            out.push(PolicyRule {
                verbs: vec![verb.clone()],
                non_resource_urls: vec![url.clone()],
                ..PolicyRule::default()
            });
        }
    }
    out
}

fn has_all(set: &[String], wanted: &[String]) -> bool {
    wanted.iter().all(|w| set.contains(w))
}

fn has(set: &[String], wanted: &str) -> bool {
    set.iter().any(|s| s == wanted)
}

/// Whether `owner` covers `sub`, a rule of one verb, resource and name (Go's
/// `ruleCovers`).
fn rule_covers(owner: &PolicyRule, sub: &PolicyRule) -> bool {
    let verbs = has(&owner.verbs, ALL) || has_all(&owner.verbs, &sub.verbs);
    let groups = has(&owner.api_groups, ALL) || has_all(&owner.api_groups, &sub.api_groups);
    let resources = has(&owner.resources, ALL)
        || has_all(&owner.resources, &sub.resources)
        || sub.resources.iter().all(|path| {
            has(&owner.resources, path)
                || path.split_once('/').is_some_and(|(_, subresource)| {
                    has(&owner.resources, &format!("*/{subresource}"))
                })
        });
    let urls = sub.non_resource_urls.iter().all(|path| {
        owner
            .non_resource_urls
            .iter()
            .any(|pattern| non_resource_url_covers(pattern, path))
    });
    let names = if sub.resource_names.is_empty() {
        owner.resource_names.is_empty()
    } else {
        owner.resource_names.is_empty() || has_all(&owner.resource_names, &sub.resource_names)
    };
    verbs && groups && resources && names && urls
}

/// Go's `CompactRules`: rules of one group and one resource, differing only in verbs,
/// become one rule with all their verbs.
pub fn compact(rules: Vec<PolicyRule>) -> Vec<PolicyRule> {
    let mut out = Vec::new();
    let mut simple: Vec<PolicyRule> = Vec::new();
    for rule in rules {
        let is_simple = rule.resource_names.is_empty()
            && rule.non_resource_urls.is_empty()
            && rule.api_groups.len() == 1
            && rule.resources.len() == 1;
        if !is_simple {
            out.push(rule);
            continue;
        }
        match simple
            .iter_mut()
            .find(|s| s.api_groups == rule.api_groups && s.resources == rule.resources)
        {
            Some(existing) => existing.verbs.extend(rule.verbs),
            None => simple.push(rule),
        }
    }
    out.extend(simple);
    out
}

#[cfg(test)]
mod tests;
