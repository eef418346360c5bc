//! What kube-apiserver 1.37's PodGroup, CompositePodGroup and Workload strategies do
//! besides validating (Go's `pkg/registry/scheduling/podgroup/strategy.go`,
//! `compositepodgroup/strategy.go` and `workload/strategy.go`): the fields of features
//! whose gates are off (all are by default: TopologyAwareWorkloadScheduling,
//! PodGroupPreemptionPolicy and CompositePodGroup are alpha, DRAWorkloadResourceClaims
//! a beta off by default) are dropped from a write unless the stored object already
//! uses them; a create clears a group's status; a `/status` write keeps the stored
//! spec and labels, annotations, finalizers and owner references; an update names the
//! version it replaces; and none of them keeps a `metadata.generation`.

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

use crate::registry::strategy::{GenericStrategy, Strategy, Subresource};
use crate::registry::validation::NameValidation;
use crate::registry::{ResourceInfo, from_value, to_json};

/// The gated fields of a PodGroup's spec (Go's `dropDisabledPodGroupSpecFields`).
const POD_GROUP_FIELDS: [&str; 4] = [
    "schedulingConstraints",
    "resourceClaims",
    "preemptionPolicy",
    "parentCompositePodGroupName",
];

/// The gated fields of a Workload's PodGroup template.
const POD_GROUP_TEMPLATE_FIELDS: [&str; 3] = [
    "schedulingConstraints",
    "resourceClaims",
    "preemptionPolicy",
];

/// Whether `field` of `obj` is in use: set, and not an empty list.
fn in_use(obj: Option<&Value>, field: &str) -> bool {
    match obj.and_then(|o| o.get(field)) {
        None | Some(Value::Null) => false,
        Some(Value::Array(items)) => !items.is_empty(),
        Some(_) => true,
    }
}

/// `new` without those of `fields` that `old` does not use.
fn drop_unused(new: &mut Value, old: Option<&Value>, fields: &[&str]) {
    if let Some(map) = new.as_object_mut() {
        for field in fields {
            if !in_use(old, field) {
                map.remove(*field);
            }
        }
    }
}

/// A Workload's PodGroup templates, each against the stored one at its index (Go's
/// `dropDisabledPodGroupTemplatesFields`).
fn drop_pod_group_templates(new: Option<&mut Value>, old: Option<&Value>) {
    let Some(Value::Array(templates)) = new else {
        return;
    };
    let old = old.and_then(Value::as_array);
    for (i, template) in templates.iter_mut().enumerate() {
        let stored = old.and_then(|o| o.get(i));
        drop_unused(template, stored, &POD_GROUP_TEMPLATE_FIELDS);
    }
}

/// A Workload's CompositePodGroup templates (those nested in them too), each against
/// the stored one of its name (Go's `dropDisabledCompositePodGroupTemplatesFields`).
fn drop_composite_templates(new: Option<&mut Value>, old: Option<&Value>) {
    let Some(Value::Array(templates)) = new else {
        return;
    };
    let old = old.and_then(Value::as_array);
    for template in templates {
        let name = template.get("name").cloned();
        // Go indexes the stored ones by name: the last of a name counts.
        let stored = old.and_then(|o| o.iter().rev().find(|t| t.get("name") == name.as_ref()));
        drop_unused(
            template,
            stored,
            &["preemptionPolicy", "compositePodGroupTemplates"],
        );
        let nested = |t: Option<&Value>, k: &str| t.and_then(|t| t.get(k)).cloned();
        let old_composites = nested(stored, "compositePodGroupTemplates");
        let old_groups = nested(stored, "podGroupTemplates");
        drop_composite_templates(
            template.get_mut("compositePodGroupTemplates"),
            old_composites.as_ref(),
        );
        drop_pod_group_templates(template.get_mut("podGroupTemplates"), old_groups.as_ref());
    }
}

/// Which of the three kinds a [`GatedFieldsStrategy`] is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gated {
    /// PodGroups (`scheduling.k8s.io/v1beta1`).
    PodGroup,
    /// CompositePodGroups (`scheduling.k8s.io/v1alpha3`).
    CompositePodGroup,
    /// Workloads (`scheduling.k8s.io/v1beta1`): no status.
    Workload,
}

impl Gated {
    /// The spec `new` without the gated fields `old` (the stored spec) does not use.
    fn drop_spec_fields(self, new: &mut Value, old: Option<&Value>) {
        match self {
            Gated::PodGroup => drop_unused(new, old, &POD_GROUP_FIELDS),
            Gated::CompositePodGroup => drop_unused(new, old, &["preemptionPolicy"]),
            Gated::Workload => {
                drop_pod_group_templates(
                    new.get_mut("podGroupTemplates"),
                    old.and_then(|o| o.get("podGroupTemplates")),
                );
                drop_unused(new, old, &["compositePodGroupTemplates"]);
                drop_composite_templates(
                    new.get_mut("compositePodGroupTemplates"),
                    old.and_then(|o| o.get("compositePodGroupTemplates")),
                );
            }
        }
    }

    /// The status `new` written through `/status` over `old` (both objects): a
    /// PodGroup's claim statuses go unless the stored spec has claims.
    fn drop_status_fields(self, new: &mut Value, old: &Value) {
        if self == Gated::PodGroup && !in_use(old.get("spec"), "resourceClaims") {
            if let Some(status) = new.get_mut("status").and_then(Value::as_object_mut) {
                status.remove("resourceClaimStatuses");
            }
        }
    }
}

/// The strategy of PodGroups, CompositePodGroups and Workloads on 1.37: the generic
/// one's ([`BASE`]), and the gated fields dropped.
#[derive(Clone, Copy, Debug)]
pub struct GatedFieldsStrategy(pub Gated);

/// What the three kinds share with the generic strategy: no generation, updates name
/// their version, the status (of the groups) written through `/status` only.
const BASE: GenericStrategy = GenericStrategy {
    names: NameValidation::Subdomain,
    returns_deleted_object: false,
    no_generation: true,
    requires_resource_version: true,
    status_by_status_writes_only: true,
    creates_on_update: false,
};

impl Strategy for GatedFieldsStrategy {
    fn tracks_generation(&self) -> bool {
        BASE.tracks_generation()
    }

    fn allow_unconditional_update(&self) -> bool {
        BASE.allow_unconditional_update()
    }

    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let obj = BASE.prepare_for_create(scheme, info, obj)?;
        let mut value = to_json(&*obj)?;
        if let Some(spec) = value.get_mut("spec") {
            self.0.drop_spec_fields(spec, None);
        }
        from_value(scheme, &info.storage_gvk, value)
    }

    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let new = BASE.prepare_for_update(scheme, info, old, new, subresource)?;
        let old = to_json(old)?;
        let mut new = to_json(&*new)?;
        match subresource {
            Subresource::Main => {
                if let Some(spec) = new.get_mut("spec") {
                    self.0.drop_spec_fields(spec, old.get("spec"));
                }
            }
            Subresource::Status => self.0.drop_status_fields(&mut new, &old),
            Subresource::Finalize
            | Subresource::Resize
            | Subresource::EphemeralContainers
            | Subresource::Approval => {}
        }
        from_value(scheme, &info.storage_gvk, new)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A PodGroup through the strategy: the create clears the status and the gated
    /// fields, keeps no generation; a `/status` write keeps the spec and drops claim
    /// statuses; an update must name its version.
    #[test]
    fn a_pod_group_written_through_the_strategy() {
        use crate::registry::resources_from_scheme;
        let mut scheme = Scheme::with_name("gated-fields-tests");
        scheme.add_registry().unwrap();
        let info = resources_from_scheme(&scheme)
            .remove(&("scheduling.k8s.io".to_owned(), "podgroups".to_owned()))
            .unwrap();
        let group = |labels: Value, spec: Value, status: Value| {
            let mut v = json!({"apiVersion": info.storage_gvk.group_version().to_string(), "kind": "PodGroup",
                "metadata": {"name": "g", "namespace": "d", "labels": labels, "resourceVersion": "3"},
                "spec": spec, "status": status});
            v["spec"]["schedulingPolicy"] = json!({"basic": {}});
            from_value(&scheme, &info.storage_gvk, v).unwrap()
        };
        let s = GatedFieldsStrategy(Gated::PodGroup);
        assert!(!s.allow_unconditional_update() && !s.tracks_generation());
        let created = s
            .prepare_for_create(&scheme, &info, group(json!({"a": "1"}),
                json!({"preemptionPolicy": "Never"}),
                json!({"conditions": [{"type": "X", "status": "True", "reason": "R", "message": "",
                    "lastTransitionTime": "2026-01-02T03:04:05Z"}]})))
            .unwrap();
        let v = to_json(&*created).unwrap();
        assert!(v["spec"].get("preemptionPolicy").is_none(), "{v}");
        assert!(v["status"].get("conditions").is_none(), "{v}");
        let written = s
            .prepare_for_update(
                &scheme,
                &info,
                &*created,
                group(
                    json!({"b": "2"}),
                    json!({"preemptionPolicy": "Never"}),
                    json!({"resourceClaimStatuses": [{"name": "c", "resourceClaimName": "rc"}]}),
                ),
                Subresource::Status,
            )
            .unwrap();
        let w = to_json(&*written).unwrap();
        // The stored labels come back in the store (`status_metadata`).
        assert!(w["spec"].get("preemptionPolicy").is_none(), "{w}");
        assert!(w["status"].get("resourceClaimStatuses").is_none(), "{w}");
    }

    #[test]
    fn a_pod_group_keeps_only_the_gated_fields_in_use() {
        let spec = || {
            json!({"schedulingPolicy": {"basic": {}}, "schedulingConstraints": {"topology": []},
                "resourceClaims": [{"name": "c"}], "preemptionPolicy": "Never",
                "parentCompositePodGroupName": "p"})
        };
        let mut created = spec();
        Gated::PodGroup.drop_spec_fields(&mut created, None);
        assert_eq!(created, json!({"schedulingPolicy": {"basic": {}}}));
        let stored = json!({"resourceClaims": [{"name": "old"}], "preemptionPolicy": "Never",
            "schedulingConstraints": null});
        let mut updated = spec();
        Gated::PodGroup.drop_spec_fields(&mut updated, Some(&stored));
        assert_eq!(
            updated,
            json!({"schedulingPolicy": {"basic": {}}, "resourceClaims": [{"name": "c"}],
                "preemptionPolicy": "Never"})
        );
        // Claim statuses only where the stored spec has claims.
        let mut status =
            json!({"status": {"conditions": [], "resourceClaimStatuses": [{"name": "c"}]}});
        Gated::PodGroup.drop_status_fields(&mut status, &json!({"spec": {"resourceClaims": []}}));
        assert_eq!(status, json!({"status": {"conditions": []}}));
        let mut status = json!({"status": {"resourceClaimStatuses": [{"name": "c"}]}});
        Gated::PodGroup.drop_status_fields(&mut status, &json!({"spec": stored}));
        assert_eq!(status["status"]["resourceClaimStatuses"][0]["name"], "c");
    }

    #[test]
    fn a_workload_drops_gated_fields_of_its_templates_by_index_and_by_name() {
        let group = |name: &str| {
            json!({"name": name, "schedulingPolicy": {"basic": {}}, "preemptionPolicy": "Never",
                "resourceClaims": [{"name": "c"}]})
        };
        let mut new = json!({"podGroupTemplates": [group("a"), group("b")],
            "compositePodGroupTemplates": [{"name": "x", "preemptionPolicy": "Never",
                "podGroupTemplates": [group("c")]}]});
        Gated::Workload.drop_spec_fields(&mut new, None);
        assert_eq!(
            new,
            json!({"podGroupTemplates": [{"name": "a", "schedulingPolicy": {"basic": {}}},
                {"name": "b", "schedulingPolicy": {"basic": {}}}]})
        );
        // The stored workload uses composite templates: they stay, and each keeps what
        // the stored template of its name uses; PodGroup templates go by index.
        let stored = json!({"podGroupTemplates": [{"name": "z", "preemptionPolicy": "Never"}],
            "compositePodGroupTemplates": [{"name": "y"}, {"name": "x", "preemptionPolicy": "Never",
                "podGroupTemplates": [{"name": "c", "resourceClaims": [{"name": "c"}]}]}]});
        let mut new = json!({"podGroupTemplates": [group("a"), group("b")],
            "compositePodGroupTemplates": [{"name": "x", "preemptionPolicy": "Never",
                "compositePodGroupTemplates": [{"name": "n"}], "podGroupTemplates": [group("c")]},
                {"name": "y", "preemptionPolicy": "Never"}]});
        Gated::Workload.drop_spec_fields(&mut new, Some(&stored));
        assert_eq!(new["podGroupTemplates"][0]["preemptionPolicy"], "Never");
        assert!(new["podGroupTemplates"][0].get("resourceClaims").is_none());
        assert!(
            new["podGroupTemplates"][1]
                .get("preemptionPolicy")
                .is_none()
        );
        let x = &new["compositePodGroupTemplates"][0];
        assert_eq!(x["preemptionPolicy"], "Never");
        assert!(x.get("compositePodGroupTemplates").is_none());
        assert_eq!(x["podGroupTemplates"][0]["resourceClaims"][0]["name"], "c");
        assert!(x["podGroupTemplates"][0].get("preemptionPolicy").is_none());
        assert!(
            new["compositePodGroupTemplates"][1]
                .get("preemptionPolicy")
                .is_none()
        );
    }

    #[test]
    fn a_composite_pod_group_drops_its_preemption_policy_unless_in_use() {
        let mut new = json!({"preemptionPolicy": "Never", "schedulingPolicy": {"basic": {}}});
        Gated::CompositePodGroup.drop_spec_fields(&mut new, Some(&json!({})));
        assert_eq!(new, json!({"schedulingPolicy": {"basic": {}}}));
        let mut new = json!({"preemptionPolicy": "Never"});
        Gated::CompositePodGroup.drop_spec_fields(
            &mut new,
            Some(&json!({"preemptionPolicy": "PreemptLowerPriority"})),
        );
        assert_eq!(new, json!({"preemptionPolicy": "Never"}));
    }
}
