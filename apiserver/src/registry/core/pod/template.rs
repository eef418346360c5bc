//! What Go's `pkg/api/pod` (`pkg/api/pod/util.go`) drops from every Pod and pod template
//! the server writes (`DropDisabledPodFields`, `DropDisabledTemplateFields`, which each
//! strategy with a Pod or a `PodTemplateSpec` calls in `PrepareForCreate` and
//! `PrepareForUpdate`): the fields of feature gates off by default ([`disabled`]) and, on
//! 1.37, the legacy init-container annotations (Kubernetes 1.37 moved that drop here from
//! the core/v1 conversions; on 1.36 the conversions of `k8s-types` do it). And
//! [`PodTemplateStrategy`], the strategy of the kinds that have nothing but their
//! template of their own.
//!
//! [`disabled`]: super::disabled

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

use super::disabled::{self, SPEC_FIELDS, STATUS_FIELDS};
use super::workload_warnings::Workload;
use crate::registry::strategy::{GenericStrategy, Strategy, Subresource, prepare_for_update};
use crate::registry::validation::NameValidation;
use crate::registry::{ResourceInfo, to_json};

/// The alpha and beta annotations that held init containers before `spec.initContainers`
/// (and their statuses), which Go removes so that no legacy kubelet acts on them (Go's
/// `initContainerAnnotations`).
pub const INIT_CONTAINER_ANNOTATIONS: [&str; 4] = [
    "pod.beta.kubernetes.io/init-containers",
    "pod.alpha.kubernetes.io/init-containers",
    "pod.beta.kubernetes.io/init-container-statuses",
    "pod.alpha.kubernetes.io/init-container-statuses",
];

/// Removes the [`INIT_CONTAINER_ANNOTATIONS`] from the object metadata at the JSON
/// pointer `metadata` of `obj` (`/metadata` of a Pod, `/spec/template/metadata` of a
/// Deployment), and the annotations when none is left (Go's empty map is not written);
/// whether it removed any.
pub fn drop_init_container_annotations(obj: &mut Value, metadata: &str) -> bool {
    let Some(meta) = obj.pointer_mut(metadata).and_then(Value::as_object_mut) else {
        return false;
    };
    let Some(annotations) = meta.get_mut("annotations").and_then(Value::as_object_mut) else {
        return false;
    };
    let before = annotations.len();
    annotations.retain(|k, _| !INIT_CONTAINER_ANNOTATIONS.contains(&k.as_str()));
    let dropped = annotations.len() != before;
    if dropped && annotations.is_empty() {
        meta.remove("annotations");
    }
    dropped
}

/// The pointer of the pod spec beside the pod metadata at `metadata` (`/spec` beside a
/// Pod's `/metadata`, `/spec/template/spec` beside `/spec/template/metadata`).
fn spec_beside(metadata: &str) -> String {
    let template = metadata.strip_suffix("/metadata").unwrap_or(metadata);
    format!("{template}/spec")
}

/// Go's `DropDisabledTemplateFields` on the JSON form `obj` of an object whose pod
/// template's metadata is at the pointer `metadata` (the spec beside it): the
/// init-container annotations (1.37) and the spec's fields of gates off by default that
/// `old` (the object replaced; `None` on create) does not use. Whether it dropped any.
pub fn drop_disabled_template_fields_in(
    obj: &mut Value,
    old: Option<&Value>,
    metadata: &str,
) -> bool {
    let mut dropped = cfg!(feature = "v1_37") && drop_init_container_annotations(obj, metadata);
    let spec = spec_beside(metadata);
    if let Some(new_spec) = obj.pointer_mut(&spec) {
        let old_spec = old.and_then(|old| old.pointer(&spec));
        dropped |= disabled::drop_disabled(SPEC_FIELDS, new_spec, old_spec);
    }
    dropped
}

/// Go's `DropDisabledPodFields` on the JSON form of a Pod: its template fields (as
/// [`drop_disabled_template_fields_in`]) and its status's fields of gates off by default
/// that `old`'s status does not use.
pub fn drop_disabled_pod_fields_in(pod: &mut Value, old: Option<&Value>) -> bool {
    let mut dropped = drop_disabled_template_fields_in(pod, old, "/metadata");
    if let Some(status) = pod.get_mut("status") {
        dropped |=
            disabled::drop_disabled(STATUS_FIELDS, status, old.and_then(|o| o.get("status")));
    }
    dropped
}

/// `obj` (of the resource `info`, at its storage version) after `drop` of its JSON
/// form and of `old`'s (`None` on create), read back only when it dropped something.
/// `gated` says whether the JSON form has any gated field: only then is the old object
/// (what decides whether those stay) read, most writes having none.
fn dropping(
    scheme: &Scheme,
    info: &ResourceInfo,
    old: Option<&dyn Object>,
    obj: Box<dyn Object>,
    gated: impl FnOnce(&Value) -> bool,
    drop: impl FnOnce(&mut Value, Option<&Value>) -> bool,
) -> Result<Box<dyn Object>, StatusError> {
    let mut value = to_json(&*obj)?;
    let old = match old {
        Some(old) if gated(&value) => Some(to_json(old)?),
        // Without gated fields nothing depends on the old object: `None` drops what is
        // dropped regardless (the init-container annotations).
        _ => None,
    };
    if drop(&mut value, old.as_ref()) {
        return crate::registry::from_value(scheme, &info.storage_gvk, value);
    }
    Ok(obj)
}

/// Whether the pod spec at `spec` of `obj` has a field of a gate off by default.
fn has_gated_spec_fields(obj: &Value, spec: &str) -> bool {
    obj.pointer(spec)
        .is_some_and(|spec| disabled::any_in_use(SPEC_FIELDS, spec))
}

/// Go's `DropDisabledTemplateFields` on `obj` (of the resource `info`, at its storage
/// version), whose template's metadata is at `metadata`, replacing `old` (`None` on
/// create).
pub fn drop_disabled_template_fields(
    scheme: &Scheme,
    info: &ResourceInfo,
    old: Option<&dyn Object>,
    obj: Box<dyn Object>,
    metadata: &str,
) -> Result<Box<dyn Object>, StatusError> {
    dropping(
        scheme,
        info,
        old,
        obj,
        |new| has_gated_spec_fields(new, &spec_beside(metadata)),
        |new, old| drop_disabled_template_fields_in(new, old, metadata),
    )
}

/// Go's `DropDisabledPodFields` on the Pod `obj` (of the resource `info`, at its storage
/// version), replacing `old` (`None` on create).
pub fn drop_disabled_pod_fields(
    scheme: &Scheme,
    info: &ResourceInfo,
    old: Option<&dyn Object>,
    obj: Box<dyn Object>,
) -> Result<Box<dyn Object>, StatusError> {
    let gated = |pod: &Value| {
        has_gated_spec_fields(pod, "/spec")
            || pod
                .get("status")
                .is_some_and(|status| disabled::any_in_use(STATUS_FIELDS, status))
    };
    dropping(scheme, info, old, obj, gated, drop_disabled_pod_fields_in)
}

/// The strategy of a kind whose own part in a write is its pod template's (Go's
/// strategies of Deployments, StatefulSets, DaemonSets and CronJobs, as
/// far as kapi serve has them): the generic strategy's, with the template's
/// disabled fields dropped on create and on an update of the object (not of its
/// `/status`, which Go's status strategies leave to their own `PrepareForUpdate`), and
/// the kind's warnings ([`Workload`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PodTemplateStrategy {
    /// The JSON pointer of the template's metadata (`/spec/template/metadata`).
    pub template_metadata: &'static str,
    /// The rest: names, whether a delete answers with the deleted object.
    pub base: GenericStrategy,
    /// Whose warnings a write gets.
    pub warnings: Workload,
}

impl PodTemplateStrategy {
    /// The strategy of a kind whose pod template's metadata is at `template_metadata`.
    pub fn new(template_metadata: &'static str) -> Self {
        PodTemplateStrategy {
            template_metadata,
            base: GenericStrategy::default(),
            warnings: Workload::None,
        }
    }

    /// This strategy warning as Go's strategy of `kind` does.
    pub fn warning_as(self, kind: Workload) -> Self {
        PodTemplateStrategy {
            warnings: kind,
            ..self
        }
    }
}

impl Strategy for PodTemplateStrategy {
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        drop_disabled_template_fields(scheme, info, None, obj, self.template_metadata)
    }

    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let new = prepare_template_for_update(
            scheme,
            info,
            old,
            new,
            subresource,
            self.template_metadata,
        )?;
        // Go's Deployment strategy also counts a change of the annotations (they are
        // copied to the Deployment's ReplicaSets).
        let changed = if self.warnings == Workload::Deployment {
            spec_or_annotations_changed
        } else {
            crate::registry::strategy::spec_changed
        };
        prepare_for_update(scheme, info, old, new, subresource, changed)
    }

    fn names(&self) -> NameValidation {
        self.base.names()
    }

    fn returns_deleted_object(&self) -> bool {
        self.base.returns_deleted_object()
    }

    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        workload_warnings_on_create(self.warnings, obj)
    }

    fn warnings_on_update(&self, obj: &dyn Object, old: &dyn Object) -> Vec<String> {
        workload_warnings_on_update(self.warnings, obj, old)
    }
}

/// Whether a write of the object (not of `/status`) changed its spec or annotations
/// (an absent map the same as an empty one): what makes a Deployment's new generation.
fn spec_or_annotations_changed(old: &Value, new: &Value, subresource: Subresource) -> bool {
    let annotations = |v: &Value| {
        v.pointer("/metadata/annotations")
            .and_then(Value::as_object)
            .filter(|a| !a.is_empty())
            .cloned()
    };
    crate::registry::strategy::spec_changed(old, new, subresource)
        || (subresource == Subresource::Main && annotations(old) != annotations(new))
}

/// `kind`'s warnings on creating `obj` (none when it cannot be read as JSON, or for
/// [`Workload::None`], which reads nothing).
pub fn workload_warnings_on_create(kind: Workload, obj: &dyn Object) -> Vec<String> {
    if kind == Workload::None {
        return Vec::new();
    }
    to_json(obj)
        .map(|obj| kind.on_create(&obj))
        .unwrap_or_default()
}

/// `kind`'s warnings on replacing `old` with `obj`.
pub fn workload_warnings_on_update(
    kind: Workload,
    obj: &dyn Object,
    old: &dyn Object,
) -> Vec<String> {
    if kind == Workload::None {
        return Vec::new();
    }
    match (to_json(obj), to_json(old)) {
        (Ok(new), Ok(old)) => kind.on_update(&new, &old),
        _ => Vec::new(),
    }
}

/// The first step of a template kind's `PrepareForUpdate`: on a write of the object (not
/// of `/status`), `new` without its template's disabled fields that `old` does not use.
/// It comes before the generation is counted (as in Go), so that a write adding nothing
/// but dropped fields changes nothing.
pub fn prepare_template_for_update(
    scheme: &Scheme,
    info: &ResourceInfo,
    old: &dyn Object,
    new: Box<dyn Object>,
    subresource: Subresource,
    template_metadata: &str,
) -> Result<Box<dyn Object>, StatusError> {
    match subresource {
        Subresource::Main => {
            drop_disabled_template_fields(scheme, info, Some(old), new, template_metadata)
        }
        Subresource::Status
        | Subresource::Finalize
        | Subresource::Resize
        | Subresource::EphemeralContainers
        | Subresource::Approval => Ok(new),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
pub(crate) mod tests {
    use std::sync::Arc;

    use k8s_types as _;
    use serde_json::json;

    use super::*;
    use crate::registry::core::pod::PodStrategy;
    use crate::registry::{from_value, resources_from_scheme};

    /// A scheme with every built-in kind (for the strategies' tests).
    pub(crate) fn scheme() -> Arc<Scheme> {
        let mut scheme = Scheme::with_name("pod-template-tests");
        scheme.add_registry().unwrap();
        Arc::new(scheme)
    }

    /// The resource `group`/`resource` of `scheme`.
    pub(crate) fn info(scheme: &Scheme, group: &str, resource: &str) -> ResourceInfo {
        resources_from_scheme(scheme)
            .into_values()
            .find(|r| r.group == group && r.resource == resource)
            .unwrap()
    }

    /// Annotations with every legacy init-container key and one other.
    pub(crate) fn annotated() -> Value {
        let mut a = json!({"keep": "me"});
        for k in INIT_CONTAINER_ANNOTATIONS {
            a[k] = json!("[]");
        }
        a
    }

    /// Whether the server drops the legacy annotations: Kubernetes 1.37's strategies do;
    /// on 1.36 the conversions did before the strategy saw the object.
    const DROPS: bool = cfg!(feature = "v1_37");

    /// What is left of [`annotated`] after a write.
    pub(crate) fn expected() -> Value {
        if DROPS {
            json!({"keep": "me"})
        } else {
            annotated()
        }
    }

    #[test]
    fn only_the_legacy_keys_are_dropped_and_no_empty_map_is_left() {
        let mut pod = json!({"metadata": {"annotations": annotated()}});
        assert!(drop_init_container_annotations(&mut pod, "/metadata"));
        assert_eq!(pod["metadata"]["annotations"], json!({"keep": "me"}));
        let mut pod = json!({"metadata": {"annotations": {INIT_CONTAINER_ANNOTATIONS[0]: "[]"}}});
        assert!(drop_init_container_annotations(&mut pod, "/metadata"));
        assert_eq!(pod, json!({"metadata": {}}));
        let mut rc = json!({"spec": {}});
        assert!(!drop_init_container_annotations(
            &mut rc,
            "/spec/template/metadata"
        ));
        assert_eq!(rc, json!({"spec": {}}));
    }

    #[test]
    fn a_pod_drops_them_on_create_update_and_status() {
        let s = scheme();
        let info = info(&s, "", "pods");
        let pod = json!({"metadata": {"name": "p", "namespace": "d", "annotations": annotated()},
            "spec": {"containers": [{"name": "c", "image": "i"}]}});
        let obj = from_value(&s, &info.storage_gvk, pod.clone()).unwrap();
        let created = to_json(&*PodStrategy.prepare_for_create(&s, &info, obj).unwrap()).unwrap();
        assert_eq!(created["metadata"]["annotations"], expected());
        for subresource in [Subresource::Main, Subresource::Status] {
            let old = from_value(&s, &info.storage_gvk, created.clone()).unwrap();
            let new = from_value(&s, &info.storage_gvk, pod.clone()).unwrap();
            let updated = PodStrategy
                .prepare_for_update(&s, &info, &*old, new, subresource)
                .unwrap();
            let got = to_json(&*updated).unwrap();
            assert_eq!(
                got["metadata"]["annotations"],
                expected(),
                "{subresource:?}"
            );
        }
    }

    /// A gated field goes on create and on an update over a Pod without it, and stays
    /// on an update over a Pod that has it (stored while its gate was on).
    #[test]
    fn a_gated_field_stays_only_when_the_stored_pod_uses_it() {
        let s = scheme();
        let info = info(&s, "", "pods");
        let pod = json!({"metadata": {"name": "p", "namespace": "d"},
            "spec": {"schedulingGroup": {"podGroupName": "g"},
                "containers": [{"name": "c", "image": "i", "lifecycle": {"stopSignal": "SIGUSR1"}}]}});
        let typed = |v: &Value| from_value(&s, &info.storage_gvk, v.clone()).unwrap();
        let created = PodStrategy
            .prepare_for_create(&s, &info, typed(&pod))
            .unwrap();
        let created = to_json(&*created).unwrap();
        assert!(created["spec"].get("schedulingGroup").is_none());
        assert!(created["spec"]["containers"][0].get("lifecycle").is_none());
        let update = |old: &Value| {
            let new = PodStrategy
                .prepare_for_update(&s, &info, &*typed(old), typed(&pod), Subresource::Main)
                .unwrap();
            to_json(&*new).unwrap()
        };
        assert!(update(&created)["spec"].get("schedulingGroup").is_none());
        let kept = update(&pod);
        assert_eq!(
            kept["spec"]["schedulingGroup"],
            pod["spec"]["schedulingGroup"]
        );
        assert_eq!(
            kept["spec"]["containers"][0]["lifecycle"],
            pod["spec"]["containers"][0]["lifecycle"]
        );
    }

    /// Go's Deployment strategy counts a new generation for new annotations too; the
    /// other template kinds' only for a new spec, and no `/status` write does.
    #[test]
    fn a_deployment_annotation_change_is_a_new_generation() {
        let s = scheme();
        let info = info(&s, "apps", "deployments");
        let deployment = json!({"metadata": {"name": "d", "namespace": "n", "generation": 3},
            "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {
                "metadata": {"labels": {"a": "b"}},
                "spec": {"containers": [{"name": "c", "image": "i"}]}}}});
        let mut annotated = deployment.clone();
        annotated["metadata"]["annotations"] = json!({"k": "v"});
        let typed = |v: &Value| from_value(&s, &info.storage_gvk, v.clone()).unwrap();
        let generation = |strategy: PodTemplateStrategy, subresource| {
            let updated = strategy
                .prepare_for_update(
                    &s,
                    &info,
                    &*typed(&deployment),
                    typed(&annotated),
                    subresource,
                )
                .unwrap();
            to_json(&*updated).unwrap()["metadata"]["generation"].clone()
        };
        let plain = PodTemplateStrategy::new("/spec/template/metadata");
        let deployments = plain.warning_as(Workload::Deployment);
        assert_eq!(generation(deployments, Subresource::Main), 4);
        assert_eq!(generation(deployments, Subresource::Status), 3);
        assert_eq!(generation(plain, Subresource::Main), 3);
    }

    /// A write adding nothing but dropped fields leaves the generation as it was.
    #[test]
    fn a_template_write_adding_only_dropped_fields_keeps_the_generation() {
        let s = scheme();
        let info = info(&s, "apps", "deployments");
        let deployment = json!({"metadata": {"name": "d", "namespace": "n", "generation": 3},
            "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {
                "metadata": {"labels": {"a": "b"}},
                "spec": {"containers": [{"name": "c", "image": "i"}]}}}});
        let mut gated = deployment.clone();
        gated["spec"]["template"]["spec"]["schedulingGroup"] = json!({"podGroupName": "g"});
        let typed = |v: &Value| from_value(&s, &info.storage_gvk, v.clone()).unwrap();
        let strategy = PodTemplateStrategy::new("/spec/template/metadata");
        let updated = strategy
            .prepare_for_update(
                &s,
                &info,
                &*typed(&deployment),
                typed(&gated),
                Subresource::Main,
            )
            .unwrap();
        let updated = to_json(&*updated).unwrap();
        assert_eq!(updated["metadata"]["generation"], 3);
        assert!(
            updated["spec"]["template"]["spec"]
                .get("schedulingGroup")
                .is_none()
        );
    }
}
