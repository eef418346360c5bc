//! A Workload (`scheduling.k8s.io/v1beta1`, Kubernetes 1.37): Go's hand-written
//! `ValidateWorkloadSpec` (template names unique across the whole tree, a composite
//! hierarchy at most 4 deep, one priority for every template, no composite template
//! without children) and the declarative rules of its spec.

use std::collections::BTreeSet;

use apimachinery::apis::meta::v1::validation::name_is_dns_subdomain;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use super::declared::{Old, immutable_on_update};
use super::declared::{
    each_changed, forbidden, long_name, max_items, no_add_or_remove, path_segment_name, required,
    union, unique_by,
};
use super::template::{pod_group_template, with_generic_meta};
use crate::scheduling::v1beta1::{
    CompositePodGroupTemplate, PodGroupTemplate, TypedLocalObjectReference, Workload, WorkloadSpec,
};
use crate::validation::go_internal::{GoStruct, list, or_null};
use crate::validation::{json_value, validate_object_meta, validate_object_meta_update};

/// Go's `WorkloadMaxTemplateDepth`.
const MAX_TEMPLATE_DEPTH: usize = 4;

/// Go's `ValidateWorkload` (`old` none) or `ValidateWorkloadUpdate`, with the
/// declarative rules of the spec.
pub fn validate_workload(w: &Workload, old: Option<&Workload>) -> ErrorList {
    let mp = Path::new("metadata");
    let mut errs = match old {
        None => validate_object_meta(&w.metadata, true, name_is_dns_subdomain, &mp),
        Some(old) => validate_object_meta_update(&w.metadata, &old.metadata, &mp),
    };
    let sp = Path::new("spec");
    validate_workload_spec(&w.spec, &sp, &mut errs);
    let mut errs = with_generic_meta(errs, &w.metadata);
    let old = Old {
        update: old.is_some(),
        old: old.map(|o| &o.spec),
    };
    if !old.unchanged(&w.spec) {
        declared_spec(&w.spec, old, &sp, &mut errs);
    }
    errs
}

/// Go's `ValidateWorkloadSpec`.
fn validate_workload_spec(spec: &WorkloadSpec, path: &Path, errs: &mut ErrorList) {
    let templates = spec.pod_group_templates.as_deref().unwrap_or_default();
    let mut names: BTreeSet<&str> = templates.iter().map(|t| t.name.as_str()).collect();
    composite_list_names(&spec.composite_pod_group_templates, path, &mut names, errs);
    let cp = path.child("compositePodGroupTemplates");
    for (i, c) in spec.composite_pod_group_templates.iter().enumerate() {
        if !within_depth(c, 1) {
            errs.push(Error::invalid(
                &cp.index(i),
                BadValue::Json(list(&c.composite_pod_group_templates, internal_composite)),
                format!("maximum template hierarchy depth is {MAX_TEMPLATE_DEPTH}"),
            ));
        }
    }
    if let Some(detail) = mixed_priorities(spec) {
        errs.push(Error::invalid(path, BadValue::null(), detail));
    }
    for (i, c) in spec.composite_pod_group_templates.iter().enumerate() {
        has_a_child(c, &cp.index(i), errs);
    }
}

/// Go's `validateCompositePodGroupTemplateListNames`: the composite templates of a
/// list (under `path`) and then, depth first, of each one's children, each name new to
/// the tree (`names`, the names seen so far).
fn composite_list_names<'a>(
    list: &'a [CompositePodGroupTemplate],
    path: &Path,
    names: &mut BTreeSet<&'a str>,
    errs: &mut ErrorList,
) {
    let lp = path.child("compositePodGroupTemplates");
    let mut here = Vec::new();
    for (i, c) in list.iter().enumerate() {
        if names.contains(c.name.as_str()) {
            errs.push(Error::duplicate(
                &lp.index(i).child("name"),
                c.name.as_str(),
            ));
        }
        here.push(c.name.as_str());
    }
    names.extend(here);
    for (i, c) in list.iter().enumerate() {
        let cp = lp.index(i);
        let pp = cp.child("podGroupTemplates");
        let mut here = Vec::new();
        for (j, t) in c.pod_group_templates.iter().enumerate() {
            if names.contains(t.name.as_str()) {
                errs.push(Error::duplicate(
                    &pp.index(j).child("name"),
                    t.name.as_str(),
                ));
            }
            here.push(t.name.as_str());
        }
        names.extend(here);
        composite_list_names(&c.composite_pod_group_templates, &cp, names, errs);
    }
}

/// Whether the hierarchy under `c`, at `depth`, stays above Go's maximum depth.
fn within_depth(c: &CompositePodGroupTemplate, depth: usize) -> bool {
    depth != MAX_TEMPLATE_DEPTH
        && c.composite_pod_group_templates
            .iter()
            .all(|child| within_depth(child, depth + 1))
}

/// Go's `validateWorkloadPriority`: the first template's priority class name and
/// priority, and every other template's the same; the detail of Go's error if not.
fn mixed_priorities(spec: &WorkloadSpec) -> Option<&'static str> {
    let mut first: Option<(String, Option<i32>)> = None;
    let mut same = |class: &str, priority: Option<i32>| match &first {
        None => {
            first = Some((class.to_owned(), priority));
            true
        }
        Some((c, p)) => c == class && *p == priority,
    };
    let templates = spec.pod_group_templates.as_deref().unwrap_or_default();
    if !templates
        .iter()
        .all(|t| same(&t.priority_class_name, t.priority))
    {
        return Some("detected multiple priority configurations");
    }
    fn walk(
        c: &CompositePodGroupTemplate,
        same: &mut impl FnMut(&str, Option<i32>) -> bool,
    ) -> bool {
        same(&c.priority_class_name, c.priority)
            && c.composite_pod_group_templates
                .iter()
                .all(|k| walk(k, same))
            && c.pod_group_templates
                .iter()
                .all(|t| same(&t.priority_class_name, t.priority))
    }
    if !spec
        .composite_pod_group_templates
        .iter()
        .all(|c| walk(c, &mut same))
    {
        return Some(
            "all priority and priorityClassName values must be identical, detected multiple values",
        );
    }
    None
}

/// Go's `validateCompositePodGroupTemplateHasAtLeastOneChild`.
fn has_a_child(c: &CompositePodGroupTemplate, path: &Path, errs: &mut ErrorList) {
    if c.pod_group_templates.is_empty() && c.composite_pod_group_templates.is_empty() {
        errs.push(Error::invalid(
            path,
            c.name.as_str(),
            "must have at least one child PodGroupTemplate or CompositePodGroupTemplate",
        ));
    }
    let cp = path.child("compositePodGroupTemplates");
    for (i, k) in c.composite_pod_group_templates.iter().enumerate() {
        has_a_child(k, &cp.index(i), errs);
    }
}

/// `Validate_WorkloadSpec`: one of the two template lists; the controller reference
/// immutable; pod group templates at most 8, neither added nor removed by an update,
/// names unique, each template's rules; composite templates forbidden (their gate,
/// `CompositePodGroup`, is off by default).
fn declared_spec(
    spec: &WorkloadSpec,
    old: Old<'_, WorkloadSpec>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let set = |s: &WorkloadSpec| {
        [
            !s.pod_group_templates
                .as_deref()
                .unwrap_or_default()
                .is_empty(),
            !s.composite_pod_group_templates.is_empty(),
        ]
    };
    let old_set = old.old.map(set);
    union(
        path,
        &["podGroupTemplates", "compositePodGroupTemplates"],
        &set(spec),
        old_set.as_ref().map(|s| &s[..]),
        errs,
    );
    let reference = old.field(|o| &o.controller_ref);
    if !reference.unchanged(&spec.controller_ref) {
        let rp = path.child("controllerRef");
        if !immutable_on_update(&reference, &rp, errs)
            && let Some(r) = &spec.controller_ref
        {
            controller_ref(r, &rp, errs);
        }
    }
    let templates = spec.pod_group_templates.as_deref().unwrap_or_default();
    let old_templates = old
        .old
        .map(|o| o.pod_group_templates.as_deref().unwrap_or_default());
    if !(old.update && old_templates == Some(templates)) {
        let tp = path.child("podGroupTemplates");
        let fits = max_items(templates.len(), 8, &tp, errs);
        let before = errs.len();
        if let (true, Some(old_templates)) = (old.update, old_templates) {
            no_add_or_remove(templates, old_templates, |t| t.name.clone(), &tp, errs);
        }
        if fits && !templates.is_empty() && errs.len() == before {
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
    }
    let composites = &spec.composite_pod_group_templates;
    let old_composites = old.field(|o| &o.composite_pod_group_templates);
    if !old_composites.unchanged(composites) {
        let cp = path.child("compositePodGroupTemplates");
        if !composites.is_empty() {
            forbidden(&cp, errs);
        }
        max_items(composites.len(), 8, &cp, errs);
        if let (true, Some(o)) = (old.update, old_composites.old) {
            no_add_or_remove(composites, o, |c| c.name.clone(), &cp, errs);
        }
    }
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

/// A composite template as Go's `json.Marshal` writes the internal struct (Go's field
/// names, every field).
fn internal_composite(c: &CompositePodGroupTemplate) -> String {
    let policy = GoStruct::new()
        .raw(
            "Basic",
            or_null(c.scheduling_policy.basic.as_ref(), |_| "{}".to_owned()),
        )
        .raw(
            "Gang",
            or_null(c.scheduling_policy.gang.as_ref(), |g| {
                GoStruct::new()
                    .field("MinGroupCount", &g.min_group_count)
                    .text()
            }),
        )
        .text();
    GoStruct::new()
        .field("Name", &c.name)
        .raw("SchedulingPolicy", policy)
        .raw(
            "SchedulingConstraints",
            or_null(c.scheduling_constraints.as_ref(), |s| topology(&s.topology)),
        )
        .raw(
            "DisruptionMode",
            or_null(c.disruption_mode.as_ref(), |m| {
                disruption(m.single.is_some(), m.all.is_some())
            }),
        )
        .field("PriorityClassName", &c.priority_class_name)
        .field("Priority", &c.priority)
        .field("PreemptionPolicy", &c.preemption_policy)
        .raw(
            "PodGroupTemplates",
            list(&c.pod_group_templates, internal_template),
        )
        .raw(
            "CompositePodGroupTemplates",
            list(&c.composite_pod_group_templates, internal_composite),
        )
        .text()
}

/// A pod group template as Go's `json.Marshal` writes the internal struct.
fn internal_template(t: &PodGroupTemplate) -> String {
    let policy = GoStruct::new()
        .raw(
            "Basic",
            or_null(t.scheduling_policy.basic.as_ref(), |_| "{}".to_owned()),
        )
        .raw(
            "Gang",
            or_null(t.scheduling_policy.gang.as_ref(), |g| {
                GoStruct::new().field("MinCount", &g.min_count).text()
            }),
        )
        .text();
    GoStruct::new()
        .field("Name", &t.name)
        .raw("SchedulingPolicy", policy)
        .raw(
            "SchedulingConstraints",
            or_null(t.scheduling_constraints.as_ref(), |s| topology(&s.topology)),
        )
        .raw(
            "ResourceClaims",
            list(&t.resource_claims, |c| {
                GoStruct::new()
                    .field("Name", &c.name)
                    .field("ResourceClaimName", &c.resource_claim_name)
                    .field("ResourceClaimTemplateName", &c.resource_claim_template_name)
                    .text()
            }),
        )
        .raw(
            "DisruptionMode",
            or_null(t.disruption_mode.as_ref(), |m| {
                disruption(m.single.is_some(), m.all.is_some())
            }),
        )
        .field("PriorityClassName", &t.priority_class_name)
        .field("Priority", &t.priority)
        .field("PreemptionPolicy", &t.preemption_policy)
        .text()
}

/// Scheduling constraints' internal struct.
fn topology(keys: &[crate::scheduling::v1beta1::TopologyConstraint]) -> String {
    GoStruct::new()
        .raw(
            "Topology",
            list(keys, |k| GoStruct::new().field("Key", &k.key).text()),
        )
        .text()
}

/// A disruption mode's internal struct.
fn disruption(single: bool, all: bool) -> String {
    let empty = |set: bool| if set { "{}" } else { "null" };
    GoStruct::new()
        .raw("Single", empty(single))
        .raw("All", empty(all))
        .text()
}
