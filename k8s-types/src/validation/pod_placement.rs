//! Where a pod may run (Go's `validateAffinity`, `validateTopologySpreadConstraints`,
//! `validateSchedulingGates` in `pkg/apis/core/validation`): node affinity (selector
//! terms, operators, field selectors), pod affinity and anti-affinity terms, topology
//! spread constraints and scheduling gates, with Go's paths and messages. Tolerations
//! are in the core module.

use std::collections::BTreeSet;

use apimachinery::apis::meta::v1::validation::{
    name_is_dns_label, name_is_dns_subdomain, validate_label_name, validate_label_selector,
};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{is_qualified_name, is_valid_label_value};

use super::invalid_each;
use crate::core::v1::{
    Affinity, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm,
    PodAffinityTerm, PodSchedulingGate, TopologySpreadConstraint, WeightedPodAffinityTerm,
};

/// Go's `isNotPositiveErrorMsg`.
const IS_NOT_POSITIVE_ERROR_MSG: &str = "must be greater than zero";
const WEIGHT_RANGE_MSG: &str = "must be in the range 1-100";

/// Go's `validateAffinity`: node affinity, pod affinity and pod anti-affinity.
pub fn validate_affinity(affinity: &Affinity, path: &Path<'_>, errs: &mut ErrorList) {
    if let Some(na) = &affinity.node_affinity {
        validate_node_affinity(na, &path.child("nodeAffinity"), errs);
    }
    for (field, terms) in [
        (
            "podAffinity",
            affinity.pod_affinity.as_ref().map(|a| {
                (
                    &a.required_during_scheduling_ignored_during_execution,
                    &a.preferred_during_scheduling_ignored_during_execution,
                )
            }),
        ),
        (
            "podAntiAffinity",
            affinity.pod_anti_affinity.as_ref().map(|a| {
                (
                    &a.required_during_scheduling_ignored_during_execution,
                    &a.preferred_during_scheduling_ignored_during_execution,
                )
            }),
        ),
    ] {
        let Some((required, preferred)) = terms else {
            continue;
        };
        let p = path.child(field);
        let rp = p.child("requiredDuringSchedulingIgnoredDuringExecution");
        for (i, term) in required.iter().enumerate() {
            validate_pod_affinity_term(term, &rp.index(i), errs);
        }
        let pp = p.child("preferredDuringSchedulingIgnoredDuringExecution");
        for (i, term) in preferred.iter().enumerate() {
            validate_weighted_pod_affinity_term(term, &pp.index(i), errs);
        }
    }
}

fn validate_node_affinity(na: &NodeAffinity, path: &Path<'_>, errs: &mut ErrorList) {
    if let Some(required) = &na.required_during_scheduling_ignored_during_execution {
        validate_node_selector(
            required,
            &path.child("requiredDuringSchedulingIgnoredDuringExecution"),
            errs,
        );
    }
    let pp = path.child("preferredDuringSchedulingIgnoredDuringExecution");
    for (i, t) in na
        .preferred_during_scheduling_ignored_during_execution
        .iter()
        .enumerate()
    {
        let ip = pp.index(i);
        if !(1..=100).contains(&t.weight) {
            errs.push(Error::invalid(
                &ip.child("weight"),
                t.weight,
                WEIGHT_RANGE_MSG,
            ));
        }
        // Go lets preferred terms name label values that no node can carry: a
        // one-node cluster still schedules the pod.
        validate_node_selector_term(&t.preference, true, &ip.child("preference"), errs);
    }
}

/// Go's `ValidateNodeSelector`: at least one term, each valid.
pub(crate) fn validate_node_selector(
    selector: &NodeSelector,
    path: &Path<'_>,
    errs: &mut ErrorList,
) {
    validate_node_selector_allowing(selector, false, path, errs);
}

/// [`validate_node_selector`], the requirements' values not checked when
/// `allow_invalid_values` (an update keeping the invalid values an old object had).
pub(crate) fn validate_node_selector_allowing(
    selector: &NodeSelector,
    allow_invalid_values: bool,
    path: &Path<'_>,
    errs: &mut ErrorList,
) {
    let tp = path.child("nodeSelectorTerms");
    let terms = selector.node_selector_terms.as_deref().unwrap_or_default();
    if terms.is_empty() {
        errs.push(Error::required(
            &tp,
            "must have at least one node selector term",
        ));
        return;
    }
    for (i, t) in terms.iter().enumerate() {
        validate_node_selector_term(t, allow_invalid_values, &tp.index(i), errs);
    }
}

/// Go's `ValidateNodeSelectorTerm`: label requirements and field requirements.
fn validate_node_selector_term(
    term: &NodeSelectorTerm,
    allow_invalid_values: bool,
    path: &Path<'_>,
    errs: &mut ErrorList,
) {
    let exprs = path.child("matchExpressions");
    for (i, r) in term.match_expressions.iter().enumerate() {
        validate_node_selector_requirement(r, allow_invalid_values, &exprs.index(i), errs);
    }
    let fields = path.child("matchFields");
    for (i, r) in term.match_fields.iter().enumerate() {
        validate_node_field_selector_requirement(r, &fields.index(i), errs);
    }
}

/// Go's `ValidateNodeSelectorRequirement`: the operator's rule on values, the key a
/// label name, the values label values (unless `allow_invalid_values`).
fn validate_node_selector_requirement(
    r: &NodeSelectorRequirement,
    allow_invalid_values: bool,
    path: &Path<'_>,
    errs: &mut ErrorList,
) {
    let values = path.child("values");
    match r.operator.as_str() {
        "In" | "NotIn" => {
            if r.values.is_empty() {
                errs.push(Error::required(
                    &values,
                    "must be specified when `operator` is 'In' or 'NotIn'",
                ));
            }
        }
        "Exists" | "DoesNotExist" => {
            if !r.values.is_empty() {
                errs.push(Error::forbidden(
                    &values,
                    "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                ));
            }
        }
        "Gt" | "Lt" => {
            if r.values.len() != 1 {
                errs.push(Error::required(
                    &values,
                    "must be specified single value when `operator` is 'Lt' or 'Gt'",
                ));
            }
        }
        _ => errs.push(Error::invalid(
            &path.child("operator"),
            // A NodeSelectorOperator: a named string type, printed by json.Marshal.
            BadValue::json_string(&r.operator),
            "not a valid selector operator",
        )),
    }
    errs.extend(validate_label_name(&r.key, &path.child("key")));
    if !allow_invalid_values {
        for (i, v) in r.values.iter().enumerate() {
            invalid_each(errs, &values.index(i), v, is_valid_label_value(v));
        }
    }
}

/// Go's `ValidateNodeFieldSelectorRequirement`: `In`/`NotIn` with one value, on
/// `metadata.name` only, the value a node name.
fn validate_node_field_selector_requirement(
    r: &NodeSelectorRequirement,
    path: &Path<'_>,
    errs: &mut ErrorList,
) {
    let values = path.child("values");
    match r.operator.as_str() {
        "In" | "NotIn" => {
            if r.values.len() != 1 {
                errs.push(Error::required(
                    &values,
                    "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
                ));
            }
        }
        _ => errs.push(Error::invalid(
            &path.child("operator"),
            // A NodeSelectorOperator: a named string type, printed by json.Marshal.
            BadValue::json_string(&r.operator),
            "not a valid selector operator",
        )),
    }
    if r.key != "metadata.name" {
        errs.push(Error::invalid(
            &path.child("key"),
            &r.key,
            "not a valid field selector key",
        ));
    } else {
        for (i, v) in r.values.iter().enumerate() {
            invalid_each(errs, &values.index(i), v, name_is_dns_subdomain(v, false));
        }
    }
}

fn validate_weighted_pod_affinity_term(
    term: &WeightedPodAffinityTerm,
    path: &Path<'_>,
    errs: &mut ErrorList,
) {
    if !(1..=100).contains(&term.weight) {
        errs.push(Error::invalid(
            &path.child("weight"),
            term.weight,
            WEIGHT_RANGE_MSG,
        ));
    }
    validate_pod_affinity_term(
        &term.pod_affinity_term,
        &path.child("podAffinityTerm"),
        errs,
    );
}

/// Go's `validateMatchLabelKeysAndMismatchLabelKeys`: the keys are label names and need
/// a label selector; a `matchLabelKeys` key may not also be in both the selector's
/// labels and its expressions (reported at the term's index, as Go does), nor in
/// `mismatchLabelKeys`.
fn validate_label_keys(term: &PodAffinityTerm, path: &Path<'_>, errs: &mut ErrorList) {
    for (field, keys) in [
        ("matchLabelKeys", &term.match_label_keys),
        ("mismatchLabelKeys", &term.mismatch_label_keys),
    ] {
        if keys.is_empty() {
            continue;
        }
        let kp = path.child(field);
        if term.label_selector.is_none() {
            errs.push(Error::forbidden(
                &kp,
                "must not be specified when labelSelector is not set",
            ));
            continue;
        }
        for (i, key) in keys.iter().enumerate() {
            errs.extend(validate_label_name(key, &kp.index(i)));
        }
    }
    if let Some(sel) = &term.label_selector {
        let mut selector_keys: BTreeSet<&str> =
            sel.match_labels.keys().map(String::as_str).collect();
        for expr in &sel.match_expressions {
            let key = expr.key.as_str();
            let at = term.match_label_keys.iter().rposition(|k| k == key);
            if let Some(i) = at.filter(|_| selector_keys.contains(key)) {
                errs.push(Error::invalid(
                    &path.index(i),
                    key,
                    "exists in both matchLabelKeys and labelSelector",
                ));
            }
            selector_keys.insert(key);
        }
    }
    let mp = path.child("matchLabelKeys");
    for (i, key) in term.match_label_keys.iter().enumerate() {
        if term.mismatch_label_keys.contains(key) {
            errs.push(Error::invalid(
                &mp.index(i),
                key,
                "exists in both matchLabelKeys and mismatchLabelKeys",
            ));
        }
    }
}

/// Go's `validatePodAffinityTerm`: the label and namespace selectors, namespace names
/// (reported under `namespace`, as Go does), `matchLabelKeys`/`mismatchLabelKeys`, and
/// a topology key that is present and a label name.
fn validate_pod_affinity_term(term: &PodAffinityTerm, path: &Path<'_>, errs: &mut ErrorList) {
    if let Some(sel) = &term.label_selector {
        errs.extend(validate_label_selector(sel, &path.child("labelSelector")));
    }
    if let Some(sel) = &term.namespace_selector {
        errs.extend(validate_label_selector(
            sel,
            &path.child("namespaceSelector"),
        ));
    }
    for ns in &term.namespaces {
        invalid_each(
            errs,
            &path.child("namespace"),
            ns,
            name_is_dns_label(ns, false),
        );
    }
    validate_label_keys(term, path, errs);
    let tk = path.child("topologyKey");
    if term.topology_key.is_empty() {
        errs.push(Error::required(&tk, "can not be empty"));
    }
    errs.extend(validate_label_name(&term.topology_key, &tk));
}

/// Go's `validateTopologySpreadConstraints`: `maxSkew` positive, a topology key,
/// `whenUnsatisfiable` from Go's list, no two constraints with the same key and action,
/// `minDomains` positive and only with `DoNotSchedule`, node inclusion policies
/// `Honor`/`Ignore`, the label selector and `matchLabelKeys` label names.
pub fn validate_topology_spread_constraints(
    constraints: &[TopologySpreadConstraint],
    path: &Path<'_>,
    errs: &mut ErrorList,
) {
    for (i, c) in constraints.iter().enumerate() {
        let p = path.index(i);
        if c.max_skew <= 0 {
            errs.push(Error::invalid(
                &p.child("maxSkew"),
                c.max_skew,
                IS_NOT_POSITIVE_ERROR_MSG,
            ));
        }
        if c.topology_key.is_empty() {
            errs.push(Error::required(&p.child("topologyKey"), "can not be empty"));
        }
        if !matches!(
            c.when_unsatisfiable.as_str(),
            "DoNotSchedule" | "ScheduleAnyway"
        ) {
            errs.push(Error::not_supported(
                &p.child("whenUnsatisfiable"),
                BadValue::json_string(&c.when_unsatisfiable),
                &["DoNotSchedule", "ScheduleAnyway"],
            ));
        }
        let repeated = constraints[i + 1..].iter().any(|o| {
            o.topology_key == c.topology_key && o.when_unsatisfiable == c.when_unsatisfiable
        });
        if repeated {
            errs.push(Error::duplicate(
                &p.child("{topologyKey, whenUnsatisfiable}"),
                format!("{{{}, {}}}", c.topology_key, c.when_unsatisfiable),
            ));
        }
        if let Some(min) = c.min_domains {
            let mp = p.child("minDomains");
            if min <= 0 {
                errs.push(Error::invalid(&mp, min, IS_NOT_POSITIVE_ERROR_MSG));
            }
            if c.when_unsatisfiable != "DoNotSchedule" {
                errs.push(Error::invalid(
                    &mp,
                    min,
                    format!(
                        "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {}",
                        c.when_unsatisfiable
                    ),
                ));
            }
        }
        for (field, policy) in [
            ("nodeAffinityPolicy", &c.node_affinity_policy),
            ("nodeTaintsPolicy", &c.node_taints_policy),
        ] {
            if let Some(policy) = policy {
                if policy != "Honor" && policy != "Ignore" {
                    errs.push(Error::not_supported(
                        &p.child(field),
                        // A `*NodeInclusionPolicy`: Go prints a named string type
                        // through `json.Marshal`.
                        BadValue::json_string(policy),
                        &["Honor", "Ignore"],
                    ));
                }
            }
        }
        let kp = p.child("matchLabelKeys");
        for (j, key) in c.match_label_keys.iter().enumerate() {
            errs.extend(validate_label_name(key, &kp.index(j)));
        }
        if let Some(sel) = &c.label_selector {
            errs.extend(validate_label_selector(sel, &p.child("labelSelector")));
        }
    }
}

/// Go's `validateSchedulingGates`: qualified names, no duplicates (both reported at the
/// gate's index).
pub fn validate_scheduling_gates(
    gates: &[PodSchedulingGate],
    path: &Path<'_>,
    errs: &mut ErrorList,
) {
    let mut seen = BTreeSet::new();
    for (i, g) in gates.iter().enumerate() {
        let p = path.index(i);
        invalid_each(errs, &p, &g.name, is_qualified_name(&g.name));
        if !seen.insert(g.name.as_str()) {
            errs.push(Error::duplicate(&p, &g.name));
        }
    }
}
