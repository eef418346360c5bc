//! The RBAC objects the authorizer decides on, indexed by who they grant to: a request
//! looks up the bindings naming its user and its groups (in its namespace and cluster
//! wide) instead of reading every binding, the cost Go's listers pay on each request.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use super::policy::{AggregationRule, PolicyRule, Principal, RbacObject, RoleRef, Subject};
use crate::authentication::user::Info;

/// The four kinds the index holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `roles`.
    Role,
    /// `clusterroles`.
    ClusterRole,
    /// `rolebindings`.
    RoleBinding,
    /// `clusterrolebindings`.
    ClusterRoleBinding,
}

/// A ClusterRole as the index keeps it.
#[derive(Clone, Debug, Default)]
pub struct ClusterRole {
    /// Its labels (what aggregation selects on).
    pub labels: BTreeMap<String, String>,
    /// Its aggregation rule, if it is an aggregated role.
    pub aggregation: Option<AggregationRule>,
    /// Its rules as stored.
    pub stored: Arc<Vec<PolicyRule>>,
}

/// A RoleBinding or ClusterRoleBinding as the index keeps it.
#[derive(Clone, Debug)]
pub struct Binding {
    /// Its name.
    pub name: String,
    /// Its namespace, empty for a ClusterRoleBinding.
    pub namespace: String,
    /// Who it grants to.
    pub subjects: Vec<Subject>,
    /// What it grants.
    pub role_ref: RoleRef,
}

impl Binding {
    /// Go's describers of a rule's source: `ClusterRoleBinding "x" of ClusterRole "y" to
    /// Group "z"`, `RoleBinding "x/ns" of Role "y" to User "z"`.
    fn describe(&self, subject: &Subject) -> String {
        if self.namespace.is_empty() {
            format!(
                "ClusterRoleBinding {:?} of {} {:?} to {}",
                self.name,
                self.role_ref.kind,
                self.role_ref.name,
                subject.describe("")
            )
        } else {
            format!(
                "RoleBinding {:?} of {} {:?} to {}",
                format!("{}/{}", self.name, self.namespace),
                self.role_ref.kind,
                self.role_ref.name,
                subject.describe(&self.namespace)
            )
        }
    }

    /// The first subject that is `user` (Go's `appliesTo`).
    fn subject_for(&self, user: &Info) -> Option<&Subject> {
        self.subjects
            .iter()
            .find(|s| match s.principal(&self.namespace) {
                Some(Principal::User(name)) => name == user.name,
                Some(Principal::Group(group)) => user.in_group(&group),
                None => false,
            })
    }
}

/// Bindings by the users and groups they name.
#[derive(Debug, Default)]
struct BySubject {
    users: HashMap<String, BTreeSet<String>>,
    groups: HashMap<String, BTreeSet<String>>,
}

impl BySubject {
    fn insert(&mut self, principal: Principal, binding: &str) {
        let (map, key) = match principal {
            Principal::User(u) => (&mut self.users, u),
            Principal::Group(g) => (&mut self.groups, g),
        };
        map.entry(key).or_default().insert(binding.to_owned());
    }

    fn remove(&mut self, principal: Principal, binding: &str) {
        let (map, key) = match principal {
            Principal::User(u) => (&mut self.users, u),
            Principal::Group(g) => (&mut self.groups, g),
        };
        if let Some(set) = map.get_mut(&key) {
            set.remove(binding);
            if set.is_empty() {
                map.remove(&key);
            }
        }
    }

    /// The names of the bindings naming `user` or one of its groups, in name order.
    fn names_for(&self, user: &Info) -> BTreeSet<&str> {
        let mut out: BTreeSet<&str> = BTreeSet::new();
        if let Some(set) = self.users.get(&user.name) {
            out.extend(set.iter().map(String::as_str));
        }
        for group in &user.groups {
            if let Some(set) = self.groups.get(group) {
                out.extend(set.iter().map(String::as_str));
            }
        }
        out
    }

    fn is_empty(&self) -> bool {
        self.users.is_empty() && self.groups.is_empty()
    }
}

/// What a visit of a user's rules sees (Go's `VisitRulesFor` visitor arguments).
#[derive(Debug)]
pub enum Visit<'a> {
    /// A rule, granted by `binding` to `subject`.
    Rule {
        /// The rule.
        rule: &'a PolicyRule,
        /// The binding granting it.
        binding: &'a Binding,
        /// The subject of the binding that is the user.
        subject: &'a Subject,
    },
    /// A binding whose role cannot be resolved.
    Error(String),
}

impl Visit<'_> {
    /// Go's description of where a rule comes from.
    pub fn source(&self) -> String {
        match self {
            Visit::Rule {
                binding, subject, ..
            } => binding.describe(subject),
            Visit::Error(_) => String::new(),
        }
    }
}

/// The RBAC objects of a server, indexed.
#[derive(Debug, Default)]
pub struct Index {
    roles: HashMap<String, HashMap<String, Arc<Vec<PolicyRule>>>>,
    cluster_roles: BTreeMap<String, ClusterRole>,
    /// Each ClusterRole's rules with aggregation applied: what bindings to it grant.
    effective: HashMap<String, Arc<Vec<PolicyRule>>>,
    cluster_role_bindings: HashMap<String, Binding>,
    role_bindings: HashMap<String, HashMap<String, Binding>>,
    cluster_subjects: BySubject,
    namespace_subjects: HashMap<String, BySubject>,
}

impl Index {
    /// Puts (creates or replaces) an object of `kind`.
    pub fn put(&mut self, kind: Kind, obj: RbacObject) {
        let cluster_role = kind == Kind::ClusterRole;
        self.load(kind, obj);
        if cluster_role {
            self.aggregate();
        }
    }

    /// Puts an object without recomputing aggregation: for filling an index from a
    /// list, followed by one [`aggregate`](Index::aggregate).
    pub fn load(&mut self, kind: Kind, obj: RbacObject) {
        let name = obj.metadata.name;
        let namespace = obj.metadata.namespace;
        match kind {
            Kind::Role => {
                let rules = Arc::new(obj.rules.unwrap_or_default());
                self.roles.entry(namespace).or_default().insert(name, rules);
            }
            Kind::ClusterRole => {
                self.cluster_roles.insert(
                    name,
                    ClusterRole {
                        labels: obj.metadata.labels,
                        aggregation: obj.aggregation_rule,
                        stored: Arc::new(obj.rules.unwrap_or_default()),
                    },
                );
            }
            Kind::RoleBinding | Kind::ClusterRoleBinding => {
                let namespace = if kind == Kind::ClusterRoleBinding {
                    String::new()
                } else {
                    namespace
                };
                self.remove_binding(&namespace, &name);
                let binding = Binding {
                    name: name.clone(),
                    namespace: namespace.clone(),
                    subjects: obj.subjects.unwrap_or_default(),
                    role_ref: obj.role_ref.unwrap_or_default(),
                };
                let by_subject = if namespace.is_empty() {
                    &mut self.cluster_subjects
                } else {
                    self.namespace_subjects
                        .entry(namespace.clone())
                        .or_default()
                };
                for subject in &binding.subjects {
                    if let Some(p) = subject.principal(&namespace) {
                        by_subject.insert(p, &name);
                    }
                }
                if namespace.is_empty() {
                    self.cluster_role_bindings.insert(name, binding);
                } else {
                    self.role_bindings
                        .entry(namespace)
                        .or_default()
                        .insert(name, binding);
                }
            }
        }
    }

    /// Removes an object of `kind`.
    pub fn delete(&mut self, kind: Kind, namespace: &str, name: &str) {
        match kind {
            Kind::Role => {
                if let Some(roles) = self.roles.get_mut(namespace) {
                    roles.remove(name);
                    if roles.is_empty() {
                        self.roles.remove(namespace);
                    }
                }
            }
            Kind::ClusterRole => {
                self.cluster_roles.remove(name);
                self.aggregate();
            }
            Kind::RoleBinding => self.remove_binding(namespace, name),
            Kind::ClusterRoleBinding => self.remove_binding("", name),
        }
    }

    fn remove_binding(&mut self, namespace: &str, name: &str) {
        let old = if namespace.is_empty() {
            self.cluster_role_bindings.remove(name)
        } else {
            let old = self
                .role_bindings
                .get_mut(namespace)
                .and_then(|b| b.remove(name));
            if self
                .role_bindings
                .get(namespace)
                .is_some_and(HashMap::is_empty)
            {
                self.role_bindings.remove(namespace);
            }
            old
        };
        let Some(old) = old else { return };
        let by_subject = if namespace.is_empty() {
            &mut self.cluster_subjects
        } else {
            match self.namespace_subjects.get_mut(namespace) {
                Some(b) => b,
                None => return,
            }
        };
        for subject in &old.subjects {
            if let Some(p) = subject.principal(namespace) {
                by_subject.remove(p, name);
            }
        }
        if !namespace.is_empty() && by_subject.is_empty() {
            self.namespace_subjects.remove(namespace);
        }
    }

    /// Recomputes every ClusterRole's effective rules: an aggregated role's are the
    /// rules of the ClusterRoles its selectors match, in name order, without
    /// duplicates (Go's clusterrole-aggregation controller, whose writes converge to
    /// the same rules; a role aggregating an aggregated one gets that one's aggregated
    /// rules at once instead of one controller pass later).
    pub fn aggregate(&mut self) {
        let mut effective: HashMap<String, Arc<Vec<PolicyRule>>> = HashMap::new();
        let names: Vec<String> = self.cluster_roles.keys().cloned().collect();
        for name in names {
            let mut visiting = BTreeSet::new();
            let rules = self.resolve(&name, &mut visiting, &mut effective);
            effective.insert(name, rules);
        }
        self.effective = effective;
    }

    fn resolve(
        &self,
        name: &str,
        visiting: &mut BTreeSet<String>,
        done: &mut HashMap<String, Arc<Vec<PolicyRule>>>,
    ) -> Arc<Vec<PolicyRule>> {
        if let Some(rules) = done.get(name) {
            return rules.clone();
        }
        let Some(role) = self.cluster_roles.get(name) else {
            return Arc::new(Vec::new());
        };
        let Some(aggregation) = &role.aggregation else {
            return role.stored.clone();
        };
        // A cycle of aggregated roles contributes what was gathered before it closed.
        if !visiting.insert(name.to_owned()) {
            return role.stored.clone();
        }
        let mut rules: Vec<PolicyRule> = Vec::new();
        for selector in &aggregation.cluster_role_selectors {
            for (other, candidate) in &self.cluster_roles {
                if other == name || !selector.matches(&candidate.labels) {
                    continue;
                }
                for rule in self.resolve(other, visiting, done).iter() {
                    if !rules.contains(rule) {
                        rules.push(rule.clone());
                    }
                }
            }
        }
        visiting.remove(name);
        let rules = Arc::new(rules);
        done.insert(name.to_owned(), rules.clone());
        rules
    }

    /// The aggregated ClusterRoles whose stored rules differ from what aggregation
    /// gives them, with the rules they should have.
    pub fn stale_aggregations(&self) -> Vec<(String, Vec<PolicyRule>)> {
        self.cluster_roles
            .iter()
            .filter(|(_, role)| role.aggregation.is_some())
            .filter_map(|(name, role)| {
                let effective = self.effective.get(name)?;
                (**effective != *role.stored).then(|| (name.clone(), (**effective).clone()))
            })
            .collect()
    }

    /// The rules a binding's role grants, in the binding's namespace (Go's
    /// `GetRoleReferenceRules`), or Go's error when it cannot be resolved.
    pub fn role_ref_rules(
        &self,
        role_ref: &RoleRef,
        namespace: &str,
    ) -> Result<Arc<Vec<PolicyRule>>, String> {
        match role_ref.kind.as_str() {
            "Role" => self
                .roles
                .get(namespace)
                .and_then(|r| r.get(&role_ref.name))
                .cloned()
                .ok_or_else(|| {
                    format!(
                        "role.rbac.authorization.k8s.io {:?} not found",
                        role_ref.name
                    )
                }),
            "ClusterRole" => self.effective.get(&role_ref.name).cloned().ok_or_else(|| {
                format!(
                    "clusterrole.rbac.authorization.k8s.io {:?} not found",
                    role_ref.name
                )
            }),
            other => Err(format!("unsupported role reference kind: {other:?}")),
        }
    }

    /// Whether a ClusterRole exists.
    pub fn has_cluster_role(&self, name: &str) -> bool {
        self.cluster_roles.contains_key(name)
    }

    /// Calls `visitor` with every rule granted to `user` cluster wide and, when
    /// `namespace` is not empty, in it, and with every binding whose role is missing;
    /// stops when `visitor` returns false (Go's `VisitRulesFor`). Only the bindings that
    /// name the user or one of its groups are read.
    pub fn visit(&self, user: &Info, namespace: &str, visitor: &mut dyn FnMut(Visit<'_>) -> bool) {
        for name in self.cluster_subjects.names_for(user) {
            let Some(binding) = self.cluster_role_bindings.get(name) else {
                continue;
            };
            if !visit_binding(self, binding, user, visitor) {
                return;
            }
        }
        if namespace.is_empty() {
            return;
        }
        let (Some(by_subject), Some(bindings)) = (
            self.namespace_subjects.get(namespace),
            self.role_bindings.get(namespace),
        ) else {
            return;
        };
        for name in by_subject.names_for(user) {
            let Some(binding) = bindings.get(name) else {
                continue;
            };
            if !visit_binding(self, binding, user, visitor) {
                return;
            }
        }
    }

    /// How many bindings and roles the index holds.
    pub fn len(&self) -> usize {
        self.roles.values().map(HashMap::len).sum::<usize>()
            + self.cluster_roles.len()
            + self.cluster_role_bindings.len()
            + self.role_bindings.values().map(HashMap::len).sum::<usize>()
    }

    /// Whether the index holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn visit_binding(
    index: &Index,
    binding: &Binding,
    user: &Info,
    visitor: &mut dyn FnMut(Visit<'_>) -> bool,
) -> bool {
    let Some(subject) = binding.subject_for(user) else {
        return true;
    };
    let rules = match index.role_ref_rules(&binding.role_ref, &binding.namespace) {
        Ok(rules) => rules,
        Err(e) => return visitor(Visit::Error(e)),
    };
    for rule in rules.iter() {
        if !visitor(Visit::Rule {
            rule,
            binding,
            subject,
        }) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests;
