//! A CompositePodGroup (`scheduling.k8s.io/v1alpha3`, Kubernetes 1.37): Go's hand-written
//! checks are the metadata's only (its name a DNS subdomain), and on a `/status` write the
//! status's conditions (`ValidateConditions`); the spec is judged by the declarative rules
//! kube-apiserver runs after them. Those of the metadata and of the status's conditions
//! are alpha (not enforced), so only the spec's apply: on create, and on an update that
//! changed the spec. Go runs them on a `/status` write too, whose spec the server has
//! copied from the stored object, so there they find nothing.

use apimachinery::apis::meta::v1::validation::name_is_dns_subdomain;
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use apimachinery::util::validation::is_qualified_name;

use super::declared::{Old, immutable_on_update};
use super::declared::{long_name, max_items, minimum, required, union};
use super::pod_group::workload_reference;
use super::template::{spec_priority_fields, with_generic_meta};
use crate::scheduling::v1alpha3::{
    CompositeDisruptionMode, CompositePodGroup, CompositePodGroupSchedulingConstraints,
    CompositePodGroupSchedulingPolicy, CompositePodGroupSpec,
};
use crate::validation::conditions::validate_conditions;
use crate::validation::{invalid_each, validate_object_meta, validate_object_meta_update};

/// Go's `ValidateCompositePodGroup`, with the declarative rules of the spec: the
/// metadata (a namespaced object whose name is a DNS subdomain, Go's
/// `validateCompositePodGroupName`) and the spec as created.
pub fn validate_composite_pod_group(g: &CompositePodGroup) -> ErrorList {
    let errs = validate_object_meta(
        &g.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    judged_with_spec(errs, g, None)
}

/// Go's `ValidateCompositePodGroupUpdate`, with the declarative rules of the spec: the
/// metadata kept, and a changed spec judged against the old one (its fields are
/// immutable).
pub fn validate_composite_pod_group_update(
    new: &CompositePodGroup,
    old: &CompositePodGroup,
) -> ErrorList {
    let errs = validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    judged_with_spec(errs, new, Some(old))
}

/// Go's `ValidateCompositePodGroupStatusUpdate`, the `/status` validator: the metadata
/// update and the status's conditions, then the declarative rules as on an update
/// (which find nothing in a spec the server copied from `old`).
pub fn validate_composite_pod_group_status_update(
    new: &CompositePodGroup,
    old: &CompositePodGroup,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(validate_conditions(
        &new.status.conditions,
        &Path::new("status").child("conditions"),
    ));
    declared(new, Some(old), &mut errs);
    errs
}

/// The strategy's hand-written errors (`handwritten`), the generic metadata checks
/// kube-apiserver adds when there are none, then the declarative rules.
fn judged_with_spec(
    handwritten: ErrorList,
    g: &CompositePodGroup,
    old: Option<&CompositePodGroup>,
) -> ErrorList {
    let mut errs = with_generic_meta(handwritten, &g.metadata);
    declared(g, old, &mut errs);
    errs
}

/// `Validate_CompositePodGroup`'s enforced part: the spec's rules, not run again on an
/// update that kept the spec. (Its metadata and status rules are all alpha.)
fn declared(g: &CompositePodGroup, old: Option<&CompositePodGroup>, errs: &mut ErrorList) {
    let spec = Old {
        update: old.is_some(),
        old: old.map(|o| &o.spec),
    };
    if !spec.unchanged(&g.spec) {
        declared_spec(&g.spec, spec, &Path::new("spec"), errs);
    }
}

/// `Validate_CompositePodGroupSpec`: every field immutable; the parent's name a DNS
/// subdomain; a workload reference and a disruption mode required; the scheduling policy,
/// constraints and disruption mode by their own rules; the priority fields as a pod
/// group's (their preemption policy forbidden: `PodGroupPreemptionPolicy` is off by
/// default). An immutable field an update changed is reported as such and not checked
/// further, so the nested rules only ever judge a value being created.
fn declared_spec(
    s: &CompositePodGroupSpec,
    old: Old<'_, CompositePodGroupSpec>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let parent = old.field(|o| &o.parent_composite_pod_group_name);
    if !parent.unchanged(&s.parent_composite_pod_group_name) {
        let pp = path.child("parentCompositePodGroupName");
        if !immutable_on_update(&parent, &pp, errs)
            && let Some(name) = &s.parent_composite_pod_group_name
        {
            long_name(name, &pp, errs);
        }
    }
    let reference = old.field(|o| &o.workload_ref);
    if !reference.unchanged(&s.workload_ref) {
        let rp = path.child("workloadRef");
        // Go reports both a change and a removal: its required check is not skipped by
        // the immutability error before it.
        let changed = immutable_on_update(&reference, &rp, errs);
        match &s.workload_ref {
            None => errs.push(Error::required(&rp, "")),
            Some(r) if !changed => workload_reference(r, &rp, errs),
            Some(_) => {}
        }
    }
    let policy = old.field(|o| &o.scheduling_policy);
    if !policy.unchanged(&s.scheduling_policy) {
        let pp = path.child("schedulingPolicy");
        if !immutable_on_update(&policy, &pp, errs) {
            scheduling_policy(&s.scheduling_policy, &pp, errs);
        }
    }
    let constraints = old.field(|o| &o.scheduling_constraints);
    if !constraints.unchanged(&s.scheduling_constraints) {
        let cp = path.child("schedulingConstraints");
        if !immutable_on_update(&constraints, &cp, errs)
            && let Some(c) = &s.scheduling_constraints
        {
            scheduling_constraints(c, &cp, errs);
        }
    }
    let mode = old.field(|o| &o.disruption_mode);
    if !mode.unchanged(&s.disruption_mode) {
        let mp = path.child("disruptionMode");
        // As the workload reference: a removal is both a change and a missing value.
        let changed = immutable_on_update(&mode, &mp, errs);
        match &s.disruption_mode {
            None => errs.push(Error::required(&mp, "")),
            Some(m) if !changed => disruption_mode(m, &mp, errs),
            Some(_) => {}
        }
    }
    spec_priority_fields(s, old, path, errs);
}

/// `Validate_CompositePodGroupSchedulingPolicy` on create (an update that changes the
/// policy stops at its immutability): one of `basic` and `gang`, a gang's
/// `minGroupCount` given and at least 1.
fn scheduling_policy(p: &CompositePodGroupSchedulingPolicy, path: &Path, errs: &mut ErrorList) {
    union(
        path,
        &["basic", "gang"],
        &[p.basic.is_some(), p.gang.is_some()],
        None,
        errs,
    );
    if let Some(g) = &p.gang {
        let gp = path.child("gang");
        let cp = gp.child("minGroupCount");
        // `validate.RequiredValue` of a number: its zero value is "not given".
        if g.min_group_count == 0 {
            errs.push(Error::required(&cp, ""));
        } else {
            minimum(g.min_group_count, 1, &cp, errs);
        }
    }
}

/// `Validate_CompositePodGroupSchedulingConstraints` on create: at most one topology
/// constraint, each with a key that is a label key (Go's `validate.LabelKey`, the same
/// check and words as a qualified name's).
fn scheduling_constraints(
    c: &CompositePodGroupSchedulingConstraints,
    path: &Path,
    errs: &mut ErrorList,
) {
    let tp = path.child("topology");
    if !max_items(c.topology.len(), 1, &tp, errs) {
        return;
    }
    for (i, t) in c.topology.iter().enumerate() {
        let ip = tp.index(i);
        let kp = ip.child("key");
        if required(&t.key, &kp, errs) {
            invalid_each(errs, &kp, &t.key, is_qualified_name(&t.key));
        }
    }
}

/// `Validate_CompositeDisruptionMode` on create: one of `single` and `all`.
fn disruption_mode(m: &CompositeDisruptionMode, path: &Path, errs: &mut ErrorList) {
    union(
        path,
        &["single", "all"],
        &[m.single.is_some(), m.all.is_some()],
        None,
        errs,
    );
}
