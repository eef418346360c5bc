//! The RBAC group's validation (Go's `pkg/apis/rbac/validation`): Role, ClusterRole,
//! RoleBinding and ClusterRoleBinding, whose names need only be path segments.

use apimachinery::apis::meta::v1::validation::{name_is_dns_subdomain, validate_path_segment_name};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use super::go_value::go_json;
use super::label_selector::{
    as_selector, has_invalid_label_selector, validate_label_selector_with,
};
use super::{invalid_each, json_value};
use crate::rbac::v1::{
    ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject,
};
use crate::validation::semantic::semantic_eq;
use crate::validation::{validate_object_meta, validate_object_meta_update};

const GROUP: &str = "rbac.authorization.k8s.io";

/// Go's `ValidateRBACName`, the names of roles and bindings: a path segment name, and
/// the same for a generated name's prefix (Go ignores `prefix`, so a `generateName` of
/// `.` or `..` is refused too: seed 1107 of the oracle's run from 500).
pub fn validate_rbac_name(name: &str, _prefix: bool) -> Vec<String> {
    validate_path_segment_name(name, false)
}

/// Go's `ValidatePolicyRule`: verbs; non-resource URLs only in cluster roles and not
/// with resources; resource rules with groups and resources.
pub fn validate_policy_rule(rule: &PolicyRule, namespaced: bool, path: &Path) -> ErrorList {
    policy_rule(rule, namespaced, path, true)
}

/// [`validate_policy_rule`]; `checked`: whether Kubernetes 1.37's declarative rule
/// for the verbs ran (not on an update that kept the rules), whose error, when it did,
/// stands in for the hand-written one.
fn policy_rule(rule: &PolicyRule, namespaced: bool, path: &Path, checked: bool) -> ErrorList {
    let mut errs = ErrorList::default();
    if rule.verbs.as_deref().unwrap_or_default().is_empty() {
        errs.push(Error::required(
            &path.child("verbs"),
            crate::validation::declarative::required_detail(
                "verbs must contain at least one value",
                checked,
            ),
        ));
    }
    if !rule.non_resource_urls.is_empty() {
        let p = path.child("nonResourceURLs");
        if namespaced {
            errs.push(Error::invalid(
                &p,
                json_value(&rule.non_resource_urls),
                "namespaced rules cannot apply to non-resource URLs",
            ));
        }
        if !rule.api_groups.is_empty()
            || !rule.resources.is_empty()
            || !rule.resource_names.is_empty()
        {
            errs.push(Error::invalid(
                &p,
                json_value(&rule.non_resource_urls),
                "rules cannot apply to both regular resources and non-resource URLs",
            ));
        }
        return errs;
    }
    if rule.api_groups.is_empty() {
        errs.push(Error::required(
            &path.child("apiGroups"),
            "resource rules must supply at least one api group",
        ));
    }
    if rule.resources.is_empty() {
        errs.push(Error::required(
            &path.child("resources"),
            "resource rules must supply at least one resource",
        ));
    }
    errs
}

/// Each rule's checks; `old`: the old object's rules on update.
fn rules(
    rules: Option<&Vec<PolicyRule>>,
    old: Option<Option<&Vec<PolicyRule>>>,
    namespaced: bool,
    errs: &mut ErrorList,
) {
    // Go's generated rule skips a list left as it was by `Semantic.DeepEqual`, for
    // which a nil list (of rules, of a rule's verbs) equals an empty one.
    let empty = Vec::new();
    let checked =
        old.is_none_or(|old| !semantic_eq(old.unwrap_or(&empty), rules.unwrap_or(&empty)));
    for (i, r) in rules
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        errs.extend(policy_rule(
            r,
            namespaced,
            &Path::new("rules").index(i),
            checked,
        ));
    }
}

/// Go's `ValidateRole`.
pub fn validate_role(role: &Role) -> ErrorList {
    let mut errs = validate_object_meta(
        &role.metadata,
        true,
        validate_rbac_name,
        &Path::new("metadata"),
    );
    rules(role.rules.as_ref(), None, true, &mut errs);
    errs
}

/// Go's `ValidateRoleUpdate`: the new role's checks and the metadata's update rules.
pub fn validate_role_update(new: &Role, old: &Role) -> ErrorList {
    let mut errs = validate_object_meta(
        &new.metadata,
        true,
        validate_rbac_name,
        &Path::new("metadata"),
    );
    rules(
        new.rules.as_ref(),
        Some(old.rules.as_ref()),
        true,
        &mut errs,
    );
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        &Path::new("metadata"),
    ));
    errs
}

/// Go's `ValidateClusterRole`: rules and the aggregation rule's selectors.
pub fn validate_cluster_role(role: &ClusterRole) -> ErrorList {
    validate_cluster_role_with(role, None, false)
}

/// Go's `ValidateClusterRoleUpdate` as the strategy calls it: the selectors' invalid
/// label values are tolerated when the old role's selectors had any problem.
pub fn validate_cluster_role_update(new: &ClusterRole, old: &ClusterRole) -> ErrorList {
    let allow = old.aggregation_rule.as_ref().is_some_and(|a| {
        a.cluster_role_selectors
            .iter()
            .any(has_invalid_label_selector)
    });
    let mut errs = validate_cluster_role_with(new, Some(old), allow);
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        &Path::new("metadata"),
    ));
    errs
}

fn validate_cluster_role_with(
    role: &ClusterRole,
    old: Option<&ClusterRole>,
    allow_invalid_values: bool,
) -> ErrorList {
    let mut errs = validate_object_meta(
        &role.metadata,
        false,
        validate_rbac_name,
        &Path::new("metadata"),
    );
    let old_rules = old.map(|o| o.rules.as_ref());
    rules(role.rules.as_ref(), old_rules, false, &mut errs);
    if let Some(agg) = &role.aggregation_rule {
        let ap = Path::new("aggregationRule");
        let p = ap.child("clusterRoleSelectors");
        if agg.cluster_role_selectors.is_empty() {
            errs.push(Error::required(
                &p,
                "at least one clusterRoleSelector required if aggregationRule is non-nil",
            ));
        }
        for (i, s) in agg.cluster_role_selectors.iter().enumerate() {
            let sp = p.index(i);
            errs.extend(validate_label_selector_with(
                Some(s),
                allow_invalid_values,
                &sp,
            ));
            if as_selector(Some(s)).is_none() {
                // Go prints the nil selector LabelSelectorAsSelector returns.
                errs.push(Error::invalid(
                    &sp,
                    BadValue::Json("null".into()),
                    "invalid label selector.",
                ));
            }
        }
    }
    errs
}

fn role_ref(r: &RoleRef, kinds: &[&str], errs: &mut ErrorList) {
    let p = Path::new("roleRef");
    if r.api_group != GROUP {
        errs.push(Error::not_supported(
            &p.child("apiGroup"),
            &r.api_group,
            &[GROUP],
        ));
    }
    if !kinds.contains(&r.kind.as_str()) {
        errs.push(Error::not_supported(&p.child("kind"), &r.kind, kinds));
    }
    if r.name.is_empty() {
        errs.push(Error::required(&p.child("name"), ""));
    } else {
        invalid_each(
            errs,
            &p.child("name"),
            &r.name,
            validate_path_segment_name(&r.name, false),
        );
    }
}

/// Go's `ValidateRoleBindingSubject`.
pub fn validate_role_binding_subject(s: &Subject, namespaced: bool, path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    if s.name.is_empty() {
        errs.push(Error::required(&path.child("name"), ""));
    }
    match s.kind.as_str() {
        "ServiceAccount" => {
            if !s.name.is_empty() {
                invalid_each(
                    &mut errs,
                    &path.child("name"),
                    &s.name,
                    name_is_dns_subdomain(&s.name, false),
                );
            }
            if !s.api_group.is_empty() {
                errs.push(Error::not_supported(
                    &path.child("apiGroup"),
                    &s.api_group,
                    &[""],
                ));
            }
            if !namespaced && s.namespace.is_empty() {
                errs.push(Error::required(&path.child("namespace"), ""));
            }
        }
        "User" | "Group" => {
            if s.api_group != GROUP {
                errs.push(Error::not_supported(
                    &path.child("apiGroup"),
                    &s.api_group,
                    &[GROUP],
                ));
            }
        }
        other => errs.push(Error::not_supported(
            &path.child("kind"),
            other,
            &["ServiceAccount", "User", "Group"],
        )),
    }
    errs
}

/// Go's `ValidateRoleBinding`: a Role or ClusterRole of the RBAC group, and subjects.
pub fn validate_role_binding(b: &RoleBinding) -> ErrorList {
    let mut errs = validate_object_meta(
        &b.metadata,
        true,
        validate_rbac_name,
        &Path::new("metadata"),
    );
    role_ref(&b.role_ref, &["Role", "ClusterRole"], &mut errs);
    for (i, s) in b.subjects.iter().enumerate() {
        errs.extend(validate_role_binding_subject(
            s,
            true,
            &Path::new("subjects").index(i),
        ));
    }
    errs
}

/// Go's internal `rbac.RoleRef`, as an error prints it.
#[derive(serde::Serialize)]
#[serde(rename_all = "PascalCase")]
struct GoRoleRef<'a> {
    #[serde(rename = "APIGroup")]
    api_group: &'a str,
    kind: &'a str,
    name: &'a str,
}

/// What a changed roleRef is told: Kubernetes 1.37 checks it as any immutable field.
#[cfg(not(feature = "v1_37"))]
const ROLE_REF_CHANGED: &str = "cannot change roleRef";
#[cfg(feature = "v1_37")]
const ROLE_REF_CHANGED: &str = apimachinery::apis::meta::v1::validation::FIELD_IMMUTABLE_ERROR_MSG;

fn role_ref_kept(new: &RoleRef, old: &RoleRef, errs: &mut ErrorList) {
    if new != old {
        let value = GoRoleRef {
            api_group: &new.api_group,
            kind: &new.kind,
            name: &new.name,
        };
        errs.push(Error::invalid(
            &Path::new("roleRef"),
            go_json(&value),
            ROLE_REF_CHANGED,
        ));
    }
}

/// Go's `ValidateRoleBindingUpdate`: `roleRef` kept.
pub fn validate_role_binding_update(new: &RoleBinding, old: &RoleBinding) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(validate_role_binding(new));
    role_ref_kept(&new.role_ref, &old.role_ref, &mut errs);
    errs
}

/// Go's `ValidateClusterRoleBinding`: a ClusterRole, and subjects with namespaces.
pub fn validate_cluster_role_binding(b: &ClusterRoleBinding) -> ErrorList {
    let mut errs = validate_object_meta(
        &b.metadata,
        false,
        validate_rbac_name,
        &Path::new("metadata"),
    );
    role_ref(&b.role_ref, &["ClusterRole"], &mut errs);
    for (i, s) in b.subjects.iter().enumerate() {
        errs.extend(validate_role_binding_subject(
            s,
            false,
            &Path::new("subjects").index(i),
        ));
    }
    errs
}

/// Go's `ValidateClusterRoleBindingUpdate`: `roleRef` kept.
pub fn validate_cluster_role_binding_update(
    new: &ClusterRoleBinding,
    old: &ClusterRoleBinding,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(validate_cluster_role_binding(new));
    role_ref_kept(&new.role_ref, &old.role_ref, &mut errs);
    errs
}
