//! A pod's update (Go's `ValidatePodUpdate`): the new pod judged as on create, then
//! what may change of a running pod's spec — container images, a shorter
//! `activeDeadlineSeconds`, added tolerations, removed scheduling gates, a negative
//! grace period set to 1 — and nothing else.

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::inclusive_range_error;

use crate::core::v1::{
    Affinity, Container, NodeAffinity, NodeSelectorRequirement, NodeSelectorTerm, Pod,
    PodSchedulingGate, PodSpec, Toleration,
};
use crate::go_internal_json::with_internal_diff;
use crate::validation::go_value::{go_json, go_list};
use crate::validation::semantic::semantic_eq;
use crate::validation::validate_object_meta_update;

use super::pod::{validate_pod_metadata_and_spec, validate_tolerations};
use super::pod_annotations::validate_pod_annotation_updates;

/// The start of Go's message for a spec changed elsewhere than where it may, to which Go
/// appends a newline and `diff.Diff` of the old and the munged internal spec.
const POD_UPDATE_MESSAGE: &str = "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/// Go's `ValidatePodUpdate`, in Go's order (it stops early where Go does).
pub fn validate_pod_update(new: &Pod, old: &Pod) -> ErrorList {
    let meta = Path::new("metadata");
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, &meta);
    errs.extend(validate_pod_metadata_and_spec(new, Some(old)));
    validate_pod_annotation_updates(new, old, &meta.child("annotations"), &mut errs);
    let spec = Path::new("spec");
    let no_containers = Vec::new();
    let (new_c, old_c) = (
        new.spec.containers.as_ref().unwrap_or(&no_containers),
        old.spec.containers.as_ref().unwrap_or(&no_containers),
    );
    if !container_updates(new_c, old_c, &spec.child("containers"), &mut errs)
        || !container_updates(
            &new.spec.init_containers,
            &old.spec.init_containers,
            &spec.child("initContainers"),
            &mut errs,
        )
    {
        return errs;
    }
    let ads = spec.child("activeDeadlineSeconds");
    match (
        new.spec.active_deadline_seconds,
        old.spec.active_deadline_seconds,
    ) {
        (Some(n), _) if !(0..=i64::from(i32::MAX)).contains(&n) => {
            errs.push(Error::invalid(
                &ads,
                n,
                inclusive_range_error(0, i64::from(i32::MAX)),
            ));
            return errs;
        }
        (Some(n), Some(o)) if o < n => {
            errs.push(Error::invalid(
                &ads,
                n,
                "must be less than or equal to previous value",
            ));
            return errs;
        }
        (None, Some(_)) => errs.push(Error::invalid(
            &ads,
            BadValue::null(),
            "must not update from a positive integer to nil value",
        )),
        _ => {}
    }
    only_added_tolerations(
        &new.spec.tolerations,
        &old.spec.tolerations,
        &spec.child("tolerations"),
        &mut errs,
    );
    only_deleted_scheduling_gates(
        &new.spec.scheduling_gates,
        &old.spec.scheduling_gates,
        &spec.child("schedulingGates"),
        &mut errs,
    );
    if new.spec == old.spec {
        return errs;
    }
    let mut munged = munge(&new.spec, &old.spec);
    if !old.spec.scheduling_gates.is_empty() {
        gated_placement(&mut munged, &old.spec, &spec, &mut errs);
    }
    if munged != old.spec {
        // Go's munged spec has its containers appended one by one to a nil slice: no
        // containers are nil there, whatever the new pod had (its comparison holds nil
        // and empty alike; its diff does not).
        if munged.containers.as_ref().is_some_and(Vec::is_empty) {
            munged.containers = None;
        }
        errs.push(Error::forbidden(
            &spec,
            with_internal_diff(POD_UPDATE_MESSAGE, "core.PodSpec", &old.spec, &munged),
        ));
    }
    errs
}

/// Go's `ValidateContainerUpdates`: as many containers as before (false, and Go stops,
/// when not), each with an image without surrounding whitespace.
fn container_updates(
    new: &[Container],
    old: &[Container],
    path: &Path,
    errs: &mut ErrorList,
) -> bool {
    if new.len() != old.len() {
        errs.push(Error::forbidden(
            path,
            "pod updates may not add or remove containers",
        ));
        return false;
    }
    for (i, c) in new.iter().enumerate() {
        let ip = path.index(i);
        if c.image.is_empty() {
            errs.push(Error::required(&ip.child("image"), ""));
        }
        if c.image.trim() != c.image {
            errs.push(Error::invalid(
                &ip.child("image"),
                &c.image,
                "must not have leading or trailing whitespace",
            ));
        }
    }
    true
}

/// Go's `validateOnlyAddedTolerations`: every old toleration kept (its
/// `tolerationSeconds` may change), then the new list's own rules.
fn only_added_tolerations(
    new: &[Toleration],
    old: &[Toleration],
    path: &Path,
    errs: &mut ErrorList,
) {
    let kept = |o: &Toleration| {
        new.iter().any(|n| {
            let mut o = o.clone();
            o.toleration_seconds = n.toleration_seconds;
            o == *n
        })
    };
    if !old.iter().all(kept) {
        errs.push(Error::forbidden(
            path,
            "existing toleration can not be modified except its tolerationSeconds",
        ));
        return;
    }
    errs.extend(validate_tolerations(new, path));
}

/// Go's `validateOnlyDeletedSchedulingGates`: no gate the old pod did not have (Go
/// keys them by name, so a name repeated reports its last place).
fn only_deleted_scheduling_gates(
    new: &[PodSchedulingGate],
    old: &[PodSchedulingGate],
    path: &Path,
    errs: &mut ErrorList,
) {
    let mut added = crate::validation::name_index::NameIndex::new();
    for (i, g) in new.iter().enumerate() {
        added.insert(&g.name, i);
    }
    for g in old {
        added.remove(g.name.as_str());
    }
    for (name, i) in added.into_entries() {
        errs.push(Error::forbidden(
            &path.index(i).child("name"),
            format!("only deletion is allowed, but found new scheduling gate '{name}'"),
        ));
    }
}

/// The new spec with what may change put back as it was, for the final comparison.
fn munge(new: &PodSpec, old: &PodSpec) -> PodSpec {
    let mut munged = new.clone();
    if let (Some(n), Some(o)) = (munged.containers.as_mut(), old.containers.as_ref()) {
        for (n, o) in n.iter_mut().zip(o) {
            n.image.clone_from(&o.image);
        }
    }
    for (n, o) in munged.init_containers.iter_mut().zip(&old.init_containers) {
        n.image.clone_from(&o.image);
    }
    munged.active_deadline_seconds = old.active_deadline_seconds;
    munged.scheduling_gates.clone_from(&old.scheduling_gates);
    munged.tolerations.clone_from(&old.tolerations);
    if old.termination_grace_period_seconds.is_some_and(|g| g < 0)
        && munged.termination_grace_period_seconds == Some(1)
    {
        munged.termination_grace_period_seconds = old.termination_grace_period_seconds;
    }
    munged
}

/// What Go lets change of a pod still held by scheduling gates: additions to its node
/// selector and to its required node affinity's terms. Errors for anything else there,
/// then `munged` given the old selector and node affinity back.
fn gated_placement(munged: &mut PodSpec, old: &PodSpec, spec: &Path, errs: &mut ErrorList) {
    if munged.node_selector != old.node_selector {
        let changed = old
            .node_selector
            .iter()
            .any(|(k, v)| munged.node_selector.get(k) != Some(v));
        if changed {
            let value = if munged.node_selector.is_empty() {
                BadValue::null()
            } else {
                go_json(&munged.node_selector)
            };
            errs.push(Error::invalid(
                &spec.child("nodeSelector"),
                value,
                "only additions to spec.nodeSelector are allowed (no mutations or deletions)",
            ));
        }
        munged.node_selector.clone_from(&old.node_selector);
    }
    let old_na = old.affinity.as_ref().and_then(|a| a.node_affinity.as_ref());
    let new_na = munged
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref());
    // Go compares with `Semantic.DeepEqual`: required terms that are nil in one and
    // empty in the other are no change, and the munged spec keeps the new ones (its
    // diff then shows them).
    let same = match (old_na, new_na) {
        (Some(old), Some(new)) => semantic_eq(old, new),
        (old, new) => old == new,
    };
    if same {
        return;
    }
    let na_path = spec.child("affinity");
    node_affinity_mutation(new_na, old_na, &na_path.child("nodeAffinity"), errs);
    let old_na = old_na.cloned();
    match &mut munged.affinity {
        None => {
            if old_na.is_some() {
                munged.affinity = Some(Affinity {
                    node_affinity: old_na,
                    ..Affinity::default()
                });
            }
        }
        Some(a)
            if old.affinity.is_none()
                && a.pod_affinity.is_none()
                && a.pod_anti_affinity.is_none() =>
        {
            munged.affinity = None;
        }
        Some(a) => a.node_affinity = old_na,
    }
}

/// Go's `validateNodeAffinityMutation`: with old required terms, as many terms, each
/// keeping its old requirements in front.
fn node_affinity_mutation(
    new: Option<&NodeAffinity>,
    old: Option<&NodeAffinity>,
    path: &Path,
    errs: &mut ErrorList,
) {
    fn terms(a: Option<&NodeAffinity>) -> &[NodeSelectorTerm] {
        a.and_then(|a| {
            a.required_during_scheduling_ignored_during_execution
                .as_ref()
        })
        .and_then(|r| r.node_selector_terms.as_deref())
        .unwrap_or_default()
    }
    let (old_terms, new_terms) = (terms(old), terms(new));
    let rp = path.child("requiredDuringSchedulingIgnoredDuringExecution");
    let tp = rp.child("nodeSelectorTerms");
    if !old_terms.is_empty() && old_terms.len() != new_terms.len() {
        let terms: Vec<GoTerm> = new_terms.iter().map(GoTerm::from).collect();
        errs.push(Error::invalid(
            &tp,
            go_list(&terms),
            "no additions/deletions to non-empty NodeSelectorTerms list are allowed",
        ));
        return;
    }
    for (i, (n, o)) in new_terms.iter().zip(old_terms).enumerate() {
        if !term_only_adds(n, o) {
            errs.push(Error::invalid(
                &tp.index(i),
                go_json(&GoTerm::from(n)),
                "only additions are allowed (no mutations or deletions)",
            ));
        }
    }
}

/// Go's `validateNodeSelectorTermHasOnlyAdditions`.
fn term_only_adds(new: &NodeSelectorTerm, old: &NodeSelectorTerm) -> bool {
    if old.match_expressions.is_empty()
        && old.match_fields.is_empty()
        && (!new.match_expressions.is_empty() || !new.match_fields.is_empty())
    {
        return false;
    }
    let keeps = |n: &[NodeSelectorRequirement], o: &[NodeSelectorRequirement]| {
        n.len() >= o.len() && n[..o.len()] == *o
    };
    keeps(&new.match_expressions, &old.match_expressions)
        && keeps(&new.match_fields, &old.match_fields)
}

/// Go's internal `NodeSelectorTerm` as `json.Marshal` writes it (no JSON tags).
#[derive(serde::Serialize)]
#[serde(rename_all = "PascalCase")]
struct GoTerm<'a> {
    match_expressions: Option<Vec<GoRequirement<'a>>>,
    match_fields: Option<Vec<GoRequirement<'a>>>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "PascalCase")]
struct GoRequirement<'a> {
    key: &'a str,
    operator: &'a str,
    values: Option<&'a [String]>,
}

impl<'a> From<&'a NodeSelectorTerm> for GoTerm<'a> {
    fn from(t: &'a NodeSelectorTerm) -> Self {
        let reqs = |l: &'a [NodeSelectorRequirement]| {
            (!l.is_empty()).then(|| {
                l.iter()
                    .map(|r| GoRequirement {
                        key: &r.key,
                        operator: &r.operator,
                        values: (!r.values.is_empty()).then_some(&r.values[..]),
                    })
                    .collect()
            })
        };
        GoTerm {
            match_expressions: reqs(&t.match_expressions),
            match_fields: reqs(&t.match_fields),
        }
    }
}
