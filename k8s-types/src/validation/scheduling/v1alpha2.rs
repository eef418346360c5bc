//! Workload and PodGroup on Kubernetes 1.36 (`scheduling.k8s.io/v1alpha2`): Go's
//! hand-written rules check only the metadata; the strategies enforce the declarative
//! rules of the spec (and a PodGroup's status). The feature gates they ask about
//! (`TopologyAwareWorkloadScheduling`, `WorkloadAwarePreemption`) are off by default,
//! so the fields they guard are forbidden.

use apimachinery::apis::meta::v1::validation::name_is_dns_subdomain;
use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::declared::{
    Old, each_changed, forbidden, immutable_on_update, long_name, max_items, minimum,
    path_segment_name, required, short_name, union, unique_by,
};
use super::pod_group_status::pod_group_status_update;
use crate::scheduling::v1alpha2::{
    PodGroup, PodGroupResourceClaim, PodGroupSchedulingPolicy, PodGroupSpec, PodGroupStatus,
    PodGroupTemplate, PodGroupTemplateReference, TypedLocalObjectReference, Workload, WorkloadSpec,
};
use crate::validation::{json_value, validate_object_meta, validate_object_meta_update};

/// Go's `ValidateWorkload` (`old` none) or `ValidateWorkloadUpdate`, then the
/// declarative rules of the spec.
pub fn validate_workload(w: &Workload, old: Option<&Workload>) -> ErrorList {
    let mut errs = metadata(&w.metadata, old.map(|o| &o.metadata));
    let spec = Old {
        update: old.is_some(),
        old: old.map(|o| &o.spec),
    };
    if !spec.unchanged(&w.spec) {
        workload_spec(&w.spec, spec, &Path::new("spec"), &mut errs);
    }
    errs
}

/// Go's `ValidatePodGroup` (`old` none) or `ValidatePodGroupUpdate`, then the
/// declarative rules of the spec and the status.
pub fn validate_pod_group(g: &PodGroup, old: Option<&PodGroup>) -> ErrorList {
    let mut errs = metadata(&g.metadata, old.map(|o| &o.metadata));
    let update = old.is_some();
    let spec = Old {
        update,
        old: old.map(|o| &o.spec),
    };
    if !spec.unchanged(&g.spec) {
        pod_group_spec(&g.spec, spec, &Path::new("spec"), &mut errs);
    }
    let status = Old {
        update,
        old: old.map(|o| &o.status),
    };
    if !status.unchanged(&g.status) {
        pod_group_status(&g.status, status, &Path::new("status"), &mut errs);
    }
    errs
}

pod_group_status_update!(PodGroup, pod_group_status);

/// The hand-written part: the metadata, a namespaced object's named as a DNS
/// subdomain.
fn metadata(
    new: &apimachinery::apis::meta::v1::ObjectMeta,
    old: Option<&apimachinery::apis::meta::v1::ObjectMeta>,
) -> ErrorList {
    let mp = Path::new("metadata");
    match old {
        None => validate_object_meta(new, true, name_is_dns_subdomain, &mp),
        Some(old) => validate_object_meta_update(new, old, &mp),
    }
}

/// `Validate_WorkloadSpec`: the controller reference immutable, 1 to 8 pod group
/// templates, immutable, names unique, each template's rules.
fn workload_spec(s: &WorkloadSpec, old: Old<'_, WorkloadSpec>, path: &Path, errs: &mut ErrorList) {
    let reference = old.field(|o| &o.controller_ref);
    if !reference.unchanged(&s.controller_ref) {
        let rp = path.child("controllerRef");
        if !immutable_on_update(&reference, &rp, errs)
            && let Some(r) = &s.controller_ref
        {
            controller_ref(r, &rp, errs);
        }
    }
    let templates = s.pod_group_templates.as_deref().unwrap_or_default();
    let old_templates = old
        .old
        .map(|o| o.pod_group_templates.as_deref().unwrap_or_default());
    if old.update && old_templates == Some(templates) {
        return;
    }
    let tp = path.child("podGroupTemplates");
    let changed = immutable_on_update(&old, &tp, errs);
    let fits = max_items(templates.len(), 8, &tp, errs);
    if templates.is_empty() {
        errs.push(Error::required(&tp, ""));
    }
    if changed || !fits || templates.is_empty() {
        return;
    }
    unique_by(templates, |t| t.name.clone(), json_value, &tp, errs);
    each_changed(
        templates,
        old_templates,
        |t: &PodGroupTemplate| t.name.clone(),
        |i, t, o| {
            pod_group_template(
                t,
                Old {
                    update: old.update,
                    old: o,
                },
                &tp.index(i),
                errs,
            )
        },
    );
}

/// `Validate_TypedLocalObjectReference`: an optional API group (a DNS subdomain), a
/// kind and a name (path segments).
fn controller_ref(r: &TypedLocalObjectReference, path: &Path, errs: &mut ErrorList) {
    if !r.api_group.is_empty() {
        long_name(&r.api_group, &path.child("apiGroup"), errs);
    }
    for (field, value) in [("kind", &r.kind), ("name", &r.name)] {
        let fp = path.child(field);
        if required(value, &fp, errs) {
            path_segment_name(value, &fp, errs);
        }
    }
}

/// `Validate_PodGroupTemplate`: a name (a DNS label), the scheduling policy, resource
/// claims; the gated fields forbidden.
fn pod_group_template(
    t: &PodGroupTemplate,
    old: Old<'_, PodGroupTemplate>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let name = old.field(|o| &o.name);
    if !name.unchanged(&t.name) && required(&t.name, &path.child("name"), errs) {
        short_name(&t.name, &path.child("name"), errs);
    }
    let policy = old.field(|o| &o.scheduling_policy);
    if !policy.unchanged(&t.scheduling_policy) {
        scheduling_policy(
            &t.scheduling_policy,
            policy,
            &path.child("schedulingPolicy"),
            errs,
        );
    }
    resource_claims(
        &t.resource_claims,
        old.field(|o| &o.resource_claims),
        &path.child("resourceClaims"),
        errs,
    );
    gated(
        (
            t.scheduling_constraints.is_some(),
            &t.disruption_mode,
            &t.priority_class_name,
            t.priority,
        ),
        old.old.map(|o| {
            (
                o.scheduling_constraints.is_some()
                    && o.scheduling_constraints == t.scheduling_constraints,
                &o.disruption_mode,
                &o.priority_class_name,
                o.priority,
            )
        }),
        old.update,
        path,
        errs,
    );
}

/// The fields whose feature gates are off by default: scheduling constraints,
/// disruption mode, priority class name, priority, each forbidden when set (and not
/// kept by an update: `old` holds whether the constraints are unchanged, and the old
/// other three).
fn gated(
    new: (bool, &Option<String>, &String, Option<i32>),
    old: Option<(bool, &Option<String>, &String, Option<i32>)>,
    update: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    let kept = |same: bool| update && old.is_some() && same;
    let (constraints, mode, class, priority) = new;
    if constraints && !kept(old.is_some_and(|o| o.0)) {
        forbidden(&path.child("schedulingConstraints"), errs);
    }
    if mode.is_some() && !kept(old.is_some_and(|o| o.1 == mode)) {
        forbidden(&path.child("disruptionMode"), errs);
    }
    if !class.is_empty() && !kept(old.is_some_and(|o| o.2 == class)) {
        forbidden(&path.child("priorityClassName"), errs);
    }
    if priority.is_some() && !kept(old.is_some_and(|o| o.3 == priority)) {
        forbidden(&path.child("priority"), errs);
    }
}

/// `Validate_PodGroupSchedulingPolicy`: one of `basic` and `gang`, `gang.minCount` at
/// least 1.
fn scheduling_policy(
    p: &PodGroupSchedulingPolicy,
    old: Old<'_, PodGroupSchedulingPolicy>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let set = |p: &PodGroupSchedulingPolicy| [p.basic.is_some(), p.gang.is_some()];
    let old_set = old.old.map(set);
    union(
        path,
        &["basic", "gang"],
        &set(p),
        old_set.as_ref().map(|s| &s[..]),
        errs,
    );
    let gang = old.field(|o| &o.gang);
    if let (false, Some(g)) = (gang.unchanged(&p.gang), &p.gang) {
        let count = gang.inner().field(|o| &o.min_count);
        if !count.unchanged(&g.min_count) {
            let gp = path.child("gang");
            let cp = gp.child("minCount");
            if g.min_count == 0 {
                errs.push(Error::required(&cp, ""));
            } else {
                minimum(g.min_count, 1, &cp, errs);
            }
        }
    }
}

/// `resourceClaims`: immutable, at most 4, names unique, each with a name (a DNS label)
/// and one of a claim's or a claim template's name (DNS subdomains).
fn resource_claims(
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
            let cp = path.index(i);
            let set = |c: &PodGroupResourceClaim| {
                [
                    c.resource_claim_name.is_some(),
                    c.resource_claim_template_name.is_some(),
                ]
            };
            let old_set = o.map(set);
            union(
                &cp,
                &["resourceClaimName", "resourceClaimTemplateName"],
                &set(c),
                old_set.as_ref().map(|s| &s[..]),
                errs,
            );
            let kept = |same: bool| old.update && o.is_some() && same;
            if !kept(o.is_some_and(|o| o.name == c.name))
                && required(&c.name, &cp.child("name"), errs)
            {
                short_name(&c.name, &cp.child("name"), errs);
            }
            if let (false, Some(n)) = (
                kept(o.is_some_and(|o| o.resource_claim_name == c.resource_claim_name)),
                &c.resource_claim_name,
            ) {
                long_name(n, &cp.child("resourceClaimName"), errs);
            }
            if let (false, Some(n)) = (
                kept(o.is_some_and(|o| {
                    o.resource_claim_template_name == c.resource_claim_template_name
                })),
                &c.resource_claim_template_name,
            ) {
                long_name(n, &cp.child("resourceClaimTemplateName"), errs);
            }
        },
    );
}

/// `Validate_PodGroupSpec`: the template reference immutable, with one member and
/// its names; the scheduling policy immutable; resource claims; gated fields forbidden.
fn pod_group_spec(s: &PodGroupSpec, old: Old<'_, PodGroupSpec>, path: &Path, errs: &mut ErrorList) {
    let reference = old.field(|o| &o.pod_group_template_ref);
    if !reference.unchanged(&s.pod_group_template_ref) {
        let rp = path.child("podGroupTemplateRef");
        if !immutable_on_update(&reference, &rp, errs)
            && let Some(r) = &s.pod_group_template_ref
        {
            template_reference(r, reference.inner(), &rp, errs);
        }
    }
    let policy = old.field(|o| &o.scheduling_policy);
    if !policy.unchanged(&s.scheduling_policy) {
        let pp = path.child("schedulingPolicy");
        if !immutable_on_update(&policy, &pp, errs) {
            scheduling_policy(&s.scheduling_policy, policy, &pp, errs);
        }
    }
    resource_claims(
        &s.resource_claims,
        old.field(|o| &o.resource_claims),
        &path.child("resourceClaims"),
        errs,
    );
    gated(
        (
            s.scheduling_constraints.is_some(),
            &s.disruption_mode,
            &s.priority_class_name,
            s.priority,
        ),
        old.old.map(|o| {
            (
                o.scheduling_constraints.is_some()
                    && o.scheduling_constraints == s.scheduling_constraints,
                &o.disruption_mode,
                &o.priority_class_name,
                o.priority,
            )
        }),
        old.update,
        path,
        errs,
    );
}

/// `Validate_PodGroupTemplateReference`: its one member, `workload`, with the
/// workload's name (a DNS subdomain) and the template's (a DNS label).
fn template_reference(
    r: &PodGroupTemplateReference,
    old: Old<'_, PodGroupTemplateReference>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let old_set = old.old.map(|o| [o.workload.is_some()]);
    union(
        path,
        &["workload"],
        &[r.workload.is_some()],
        old_set.as_ref().map(|s| &s[..]),
        errs,
    );
    let Some(w) = &r.workload else { return };
    let wp = path.child("workload");
    let nw = wp.child("workloadName");
    if required(&w.workload_name, &nw, errs) {
        long_name(&w.workload_name, &nw, errs);
    }
    let tp = wp.child("podGroupTemplateName");
    if required(&w.pod_group_template_name, &tp, errs) {
        short_name(&w.pod_group_template_name, &tp, errs);
    }
}

/// `Validate_PodGroupStatus`: at most 4 resource claim statuses, names unique, each
/// claim name a DNS subdomain.
fn pod_group_status(
    s: &PodGroupStatus,
    old: Old<'_, PodGroupStatus>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let statuses = &s.resource_claim_statuses;
    let old_statuses = old.field(|o| &o.resource_claim_statuses);
    if old_statuses.unchanged(statuses) {
        return;
    }
    let sp = path.child("resourceClaimStatuses");
    if !max_items(statuses.len(), 4, &sp, errs) || statuses.is_empty() {
        return;
    }
    unique_by(statuses, |c| c.name.clone(), json_value, &sp, errs);
    each_changed(
        statuses,
        old_statuses.old.map(Vec::as_slice),
        |c| c.name.clone(),
        |i, c, o| {
            let kept =
                old.update && o.is_some_and(|o| o.resource_claim_name == c.resource_claim_name);
            if let (false, Some(n)) = (kept, &c.resource_claim_name) {
                long_name(n, &sp.index(i).child("resourceClaimName"), errs);
            }
        },
    );
}
