//! A PodGroup (`scheduling.k8s.io/v1beta1`, Kubernetes 1.37): Go's hand-written
//! `ValidatePodGroup` (a workload reference wherever a parent composite pod group is
//! named) and the declarative rules of its spec and status.

use apimachinery::apis::meta::v1::validation::name_is_dns_subdomain;
use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::declared::{Old, immutable_on_update};
use super::declared::{
    each_changed, forbidden, long_name, max_items, required, short_name, unique_by,
};
use super::pod_group_status::pod_group_status_update;
use super::template::{
    disruption_mode, resource_claims, scheduling_policy, spec_priority_fields, with_generic_meta,
};
use crate::scheduling::v1beta1::{PodGroup, PodGroupSpec, PodGroupStatus, WorkloadReference};
use crate::validation::{json_value, validate_object_meta, validate_object_meta_update};

/// Go's `ValidatePodGroup` (`old` none) or `ValidatePodGroupUpdate`, with the
/// declarative rules of the spec and the status.
pub fn validate_pod_group(g: &PodGroup, old: Option<&PodGroup>) -> ErrorList {
    let mp = Path::new("metadata");
    let mut errs = match old {
        None => validate_object_meta(&g.metadata, true, name_is_dns_subdomain, &mp),
        Some(old) => validate_object_meta_update(&g.metadata, &old.metadata, &mp),
    };
    if old.is_none()
        && g.spec.parent_composite_pod_group_name.is_some()
        && g.spec.workload_ref.is_none()
    {
        errs.push(Error::required(
            &Path::new("spec").child("workloadRef"),
            "must be set when parentCompositePodGroupName is set",
        ));
    }
    let mut errs = with_generic_meta(errs, &g.metadata);
    let update = old.is_some();
    let spec = Old {
        update,
        old: old.map(|o| &o.spec),
    };
    if !spec.unchanged(&g.spec) {
        declared_spec(&g.spec, spec, &Path::new("spec"), &mut errs);
    }
    let status = Old {
        update,
        old: old.map(|o| &o.status),
    };
    if !status.unchanged(&g.status) {
        declared_status(&g.status, status, &Path::new("status"), &mut errs);
    }
    errs
}

pod_group_status_update!(PodGroup, declared_status);

/// `Validate_PodGroupSpec`.
fn declared_spec(s: &PodGroupSpec, old: Old<'_, PodGroupSpec>, path: &Path, errs: &mut ErrorList) {
    let parent = old.field(|o| &o.parent_composite_pod_group_name);
    if !parent.unchanged(&s.parent_composite_pod_group_name) {
        let pp = path.child("parentCompositePodGroupName");
        if s.parent_composite_pod_group_name.is_some() {
            forbidden(&pp, errs);
        }
        immutable_on_update(&parent, &pp, errs);
    }
    let reference = old.field(|o| &o.workload_ref);
    if !reference.unchanged(&s.workload_ref) {
        let rp = path.child("workloadRef");
        if !immutable_on_update(&reference, &rp, errs)
            && let Some(r) = &s.workload_ref
        {
            workload_reference(r, &rp, errs);
        }
    }
    scheduling_policy(
        &s.scheduling_policy,
        old.field(|o| &o.scheduling_policy),
        &path.child("schedulingPolicy"),
        errs,
    );
    let constraints = old.field(|o| &o.scheduling_constraints);
    if !constraints.unchanged(&s.scheduling_constraints) && s.scheduling_constraints.is_some() {
        forbidden(&path.child("schedulingConstraints"), errs);
    }
    resource_claims(
        &s.resource_claims,
        old.field(|o| &o.resource_claims),
        &path.child("resourceClaims"),
        errs,
    );
    let mode = old.field(|o| &o.disruption_mode);
    if !mode.unchanged(&s.disruption_mode) {
        let mp = path.child("disruptionMode");
        let changed = immutable_on_update(&mode, &mp, errs);
        match &s.disruption_mode {
            None => errs.push(Error::required(&mp, "")),
            Some(m) if !changed => disruption_mode(m, mode.inner(), &mp, errs),
            Some(_) => {}
        }
    }
    spec_priority_fields(s, old, path, errs);
}

/// `Validate_WorkloadReference`: the workload's name (a DNS subdomain) and the
/// template's (a DNS label), both required. A CompositePodGroup's reference is the same
/// type, with the same rules.
pub(super) fn workload_reference(r: &WorkloadReference, path: &Path, errs: &mut ErrorList) {
    let wp = path.child("workloadName");
    if required(&r.workload_name, &wp, errs) {
        long_name(&r.workload_name, &wp, errs);
    }
    let tp = path.child("templateName");
    if required(&r.template_name, &tp, errs) {
        short_name(&r.template_name, &tp, errs);
    }
}

/// `Validate_PodGroupStatus`: at most 4 resource claim statuses, names unique, each
/// claim name a DNS subdomain. (The conditions' rules are alpha: not enforced.)
fn declared_status(
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
            let name = Old {
                update: old.update,
                old: o.map(|o| &o.resource_claim_name),
            };
            if let (false, Some(n)) = (
                name.unchanged(&c.resource_claim_name),
                &c.resource_claim_name,
            ) {
                long_name(n, &sp.index(i).child("resourceClaimName"), errs);
            }
        },
    );
}
