//! What Go's `pkg/api/pod` drops from every Pod and pod template the server writes
//! (`DropDisabledPodFields`, `DropDisabledTemplateFields`, which each strategy with a Pod
//! or a `PodTemplateSpec` calls in `PrepareForCreate` and `PrepareForUpdate`), as far as
//! kapi serve has it: the legacy init-container annotations. Kubernetes 1.37 moved that
//! drop there from the core/v1 conversions (on 1.36 the conversions of `k8s-types` do
//! it, so the strategies here leave objects as they are), and [`PodTemplateStrategy`]
//! is the strategy of the kinds that have nothing but their template of their own.

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

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

/// `obj` (of the resource `info`, at its storage version) without the init-container
/// annotations of the metadata at `metadata`, read back only when there were some. On
/// Kubernetes 1.36 `obj` itself: its conversions dropped them already.
pub fn without_init_container_annotations(
    scheme: &Scheme,
    info: &ResourceInfo,
    mut obj: Box<dyn Object>,
    metadata: &str,
) -> Result<Box<dyn Object>, StatusError> {
    if cfg!(feature = "v1_37") {
        // An object's own metadata is read and written through its accessors, without
        // a JSON round trip (every Pod update comes here).
        if metadata == "/metadata" {
            if let Some(meta) = obj.meta_mut() {
                let mut annotations = meta.annotations();
                let before = annotations.len();
                annotations.retain(|k, _| !INIT_CONTAINER_ANNOTATIONS.contains(&k.as_str()));
                if annotations.len() != before {
                    meta.set_annotations(annotations);
                }
                return Ok(obj);
            }
        }
        let mut value = to_json(&*obj)?;
        if drop_init_container_annotations(&mut value, metadata) {
            return crate::registry::from_value(scheme, &info.storage_gvk, value);
        }
    }
    Ok(obj)
}

/// The strategy of a kind whose own part in a write is its pod template's (Go's
/// strategies of Deployments, StatefulSets, DaemonSets and CronJobs, as
/// far as kapi serve has them): the generic strategy's, with the template's
/// init-container annotations dropped on create and on an update of the object (not of
/// its `/status`, which Go's status strategies leave to their own `PrepareForUpdate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PodTemplateStrategy {
    /// The JSON pointer of the template's metadata (`/spec/template/metadata`).
    pub template_metadata: &'static str,
    /// The rest: names, whether a delete answers with the deleted object.
    pub base: GenericStrategy,
}

impl PodTemplateStrategy {
    /// The strategy of a kind whose pod template's metadata is at `template_metadata`.
    pub fn new(template_metadata: &'static str) -> Self {
        PodTemplateStrategy {
            template_metadata,
            base: GenericStrategy::default(),
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
        without_init_container_annotations(scheme, info, obj, self.template_metadata)
    }

    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let new = prepare_for_update(
            scheme,
            info,
            old,
            new,
            subresource,
            crate::registry::strategy::spec_changed,
        )?;
        prepare_template_for_update(scheme, info, new, subresource, self.template_metadata)
    }

    fn names(&self) -> NameValidation {
        self.base.names()
    }

    fn returns_deleted_object(&self) -> bool {
        self.base.returns_deleted_object()
    }
}

/// The last step of a template kind's `PrepareForUpdate`: on a write of the object (not
/// of `/status`), `new` without its template's init-container annotations.
pub fn prepare_template_for_update(
    scheme: &Scheme,
    info: &ResourceInfo,
    new: Box<dyn Object>,
    subresource: Subresource,
    template_metadata: &str,
) -> Result<Box<dyn Object>, StatusError> {
    match subresource {
        Subresource::Main => {
            without_init_container_annotations(scheme, info, new, template_metadata)
        }
        Subresource::Status | Subresource::Finalize => Ok(new),
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

    /// A scheme with every kind.
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
}
