//! The parts a Workload's pod group templates and a PodGroup share, with Go's
//! declarative rules for them (Kubernetes 1.37's `scheduling.k8s.io/v1beta1`):
//! scheduling policy, resource claims, disruption mode, and the template itself. The
//! feature gates these rules ask about (`TopologyAwareWorkloadScheduling`,
//! `PodGroupPreemptionPolicy`, `CompositePodGroup`) are off by default, so the fields
//! they guard are forbidden.

use apimachinery::util::validation::field::{BadValue, ErrorList, Path};

use super::declared::{Old, immutable_on_update};
use super::declared::{
    each_changed, forbidden, immutable, long_name, max_items, maximum, minimum, required,
    short_name, union, unique_by,
};
use crate::scheduling::v1beta1::{
    DisruptionMode, PodGroupResourceClaim, PodGroupSchedulingPolicy, PodGroupTemplate,
};
use crate::validation::json_value;

/// Go's `HighestUserDefinablePriority`, the largest priority a template may ask for.
const MAX_PRIORITY: i32 = 1_000_000_000;

/// What kube-apiserver adds to a strategy's hand-written errors before the declarative
/// ones: when there are none, the generic metadata checks every object gets (names as
/// path segments, the namespace a DNS label), so a declarative error does not hide them.
pub(crate) fn with_generic_meta(
    handwritten: ErrorList,
    meta: &apimachinery::apis::meta::v1::ObjectMeta,
) -> ErrorList {
    if handwritten.is_empty() {
        apimachinery::apis::meta::v1::validation::validate_generic_object_meta(meta, true)
    } else {
        handwritten
    }
}

/// `Validate_PodGroupTemplate`.
pub(crate) fn pod_group_template(
    t: &PodGroupTemplate,
    old: Old<'_, PodGroupTemplate>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let name = old.field(|o| &o.name);
    if !name.unchanged(&t.name) && required(&t.name, &path.child("name"), errs) {
        short_name(&t.name, &path.child("name"), errs);
    }
    scheduling_policy(
        &t.scheduling_policy,
        old.field(|o| &o.scheduling_policy),
        &path.child("schedulingPolicy"),
        errs,
    );
    let constraints = old.field(|o| &o.scheduling_constraints);
    if !constraints.unchanged(&t.scheduling_constraints) {
        let cp = path.child("schedulingConstraints");
        if t.scheduling_constraints.is_some() {
            forbidden(&cp, errs);
        }
        immutable_on_update(&constraints, &cp, errs);
    }
    resource_claims(
        &t.resource_claims,
        old.field(|o| &o.resource_claims),
        &path.child("resourceClaims"),
        errs,
    );
    let mode = old.field(|o| &o.disruption_mode);
    if !mode.unchanged(&t.disruption_mode) {
        let mp = path.child("disruptionMode");
        if !immutable_on_update(&mode, &mp, errs)
            && let Some(m) = &t.disruption_mode
        {
            disruption_mode(m, mode.inner(), &mp, errs);
        }
    }
    spec_priority_fields(t, old, path, errs);
}

/// A priority class name, priority and preemption policy.
pub(crate) type Priority<'a> = (&'a String, Option<i32>, Option<&'a String>);

/// What has the three priority fields: a Workload's pod group template, a PodGroup's and
/// a CompositePodGroup's spec, whose fields have the same names and rules.
pub(crate) trait PriorityFields {
    /// The three fields.
    fn priority(&self) -> Priority<'_>;
}

/// `PriorityFields` for types with the fields `priority_class_name`, `priority` and
/// `preemption_policy`.
macro_rules! priority_fields_of {
    ($($ty:ty),*) => {$(
        impl PriorityFields for $ty {
            fn priority(&self) -> Priority<'_> {
                (
                    &self.priority_class_name,
                    self.priority,
                    self.preemption_policy.as_ref(),
                )
            }
        }
    )*};
}

priority_fields_of!(
    PodGroupTemplate,
    crate::scheduling::v1beta1::PodGroupSpec,
    crate::scheduling::v1alpha3::CompositePodGroupSpec
);

/// [`priority_fields`] of `new` against `old` (on an update, its old value).
pub(crate) fn spec_priority_fields<T: PriorityFields>(
    new: &T,
    old: Old<'_, T>,
    path: &Path,
    errs: &mut ErrorList,
) {
    priority_fields(
        new.priority(),
        old.update,
        old.old.map(PriorityFields::priority),
        path,
        errs,
    );
}

/// The priority class name (a DNS subdomain), priority (at most Go's
/// `HighestUserDefinablePriority`) and preemption policy (its gate is off) of a template
/// or a pod group, each immutable; `old`, the old object's three.
fn priority_fields(
    new: Priority<'_>,
    update: bool,
    old: Option<Priority<'_>>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let (class, priority, preemption) = new;
    let changed = |same: bool| !(update && old.is_some() && same);
    let cp = path.child("priorityClassName");
    if changed(old.is_some_and(|o| o.0 == class)) {
        if update {
            immutable(&cp, errs);
        } else if !class.is_empty() {
            long_name(class, &cp, errs);
        }
    }
    let pp = path.child("priority");
    if changed(old.is_some_and(|o| o.1 == priority)) {
        if update {
            immutable(&pp, errs);
        } else if let Some(p) = priority {
            maximum(p, MAX_PRIORITY, &pp, errs);
        }
    }
    let ep = path.child("preemptionPolicy");
    if changed(old.is_some_and(|o| o.2 == preemption)) {
        if preemption.is_some() {
            forbidden(&ep, errs);
        }
        if update {
            immutable(&ep, errs);
        }
    }
}

/// `Validate_PodGroupSchedulingPolicy`: one of `basic` and `gang`; `basic` immutable,
/// `gang` neither set nor cleared by an update, its `minCount` at least 1.
pub(crate) fn scheduling_policy(
    p: &PodGroupSchedulingPolicy,
    old: Old<'_, PodGroupSchedulingPolicy>,
    path: &Path,
    errs: &mut ErrorList,
) {
    if old.unchanged(p) {
        return;
    }
    let set = |p: &PodGroupSchedulingPolicy| [p.basic.is_some(), p.gang.is_some()];
    let old_set = old.old.map(set);
    union(
        path,
        &["basic", "gang"],
        &set(p),
        old_set.as_ref().map(|s| &s[..]),
        errs,
    );
    let basic = old.field(|o| &o.basic);
    if !basic.unchanged(&p.basic) {
        immutable_on_update(&basic, &path.child("basic"), errs);
    }
    let gang = old.field(|o| &o.gang);
    if gang.unchanged(&p.gang) {
        return;
    }
    let gp = path.child("gang");
    let old_gang = gang.inner();
    if gang.update {
        match (&p.gang, old_gang.old) {
            (Some(_), None) => errs.push(apimachinery::util::validation::field::Error::invalid(
                &gp,
                BadValue::null(),
                "field cannot be set once created",
            )),
            (None, Some(_)) => errs.push(apimachinery::util::validation::field::Error::invalid(
                &gp,
                BadValue::null(),
                "field cannot be cleared once set",
            )),
            _ => {}
        }
    }
    let Some(g) = &p.gang else { return };
    if gang.update && old_gang.old.is_none() {
        return;
    }
    let count = old_gang.field(|o| &o.min_count);
    if !count.unchanged(&g.min_count) {
        let cp = gp.child("minCount");
        if g.min_count == 0 {
            errs.push(apimachinery::util::validation::field::Error::required(
                &cp, "",
            ));
        } else {
            minimum(g.min_count, 1, &cp, errs);
        }
    }
}

/// `Validate_DisruptionMode`: one of `single` and `all`.
pub(crate) fn disruption_mode(
    m: &DisruptionMode,
    old: Old<'_, DisruptionMode>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let set = |m: &DisruptionMode| [m.single.is_some(), m.all.is_some()];
    let old_set = old.old.map(set);
    union(
        path,
        &["single", "all"],
        &set(m),
        old_set.as_ref().map(|s| &s[..]),
        errs,
    );
}

/// A template's or a pod group's `resourceClaims`: immutable, at most 4, names unique,
/// each claim's rules.
pub(crate) fn resource_claims(
    claims: &[PodGroupResourceClaim],
    old: Old<'_, Vec<PodGroupResourceClaim>>,
    path: &Path,
    errs: &mut ErrorList,
) {
    if old.update && old.old.is_some_and(|o| o.as_slice() == claims) {
        return;
    }
    let changed = immutable_on_update(&old, path, errs);
    let fits = max_items(claims.len(), 4, path, errs);
    if changed || !fits || claims.is_empty() {
        return;
    }
    unique_by(claims, |c| c.name.clone(), json_value, path, errs);
    each_changed(
        claims,
        old.old.map(Vec::as_slice),
        |c| c.name.clone(),
        |i, c, o| {
            resource_claim(
                c,
                Old {
                    update: old.update,
                    old: o,
                },
                &path.index(i),
                errs,
            )
        },
    );
}

/// `Validate_PodGroupResourceClaim`: a name (a DNS label) and one of a claim's or a
/// claim template's name (DNS subdomains).
fn resource_claim(
    c: &PodGroupResourceClaim,
    old: Old<'_, PodGroupResourceClaim>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let set = |c: &PodGroupResourceClaim| {
        [
            c.resource_claim_name.is_some(),
            c.resource_claim_template_name.is_some(),
        ]
    };
    let old_set = old.old.map(set);
    union(
        path,
        &["resourceClaimName", "resourceClaimTemplateName"],
        &set(c),
        old_set.as_ref().map(|s| &s[..]),
        errs,
    );
    let name = old.field(|o| &o.name);
    if !name.unchanged(&c.name) && required(&c.name, &path.child("name"), errs) {
        short_name(&c.name, &path.child("name"), errs);
    }
    for (field, value, old_value) in [
        (
            "resourceClaimName",
            &c.resource_claim_name,
            old.field(|o| &o.resource_claim_name),
        ),
        (
            "resourceClaimTemplateName",
            &c.resource_claim_template_name,
            old.field(|o| &o.resource_claim_template_name),
        ),
    ] {
        if let (false, Some(v)) = (old_value.unchanged(value), value) {
            long_name(v, &path.child(field), errs);
        }
    }
}
