//! Pods (Go's `pkg/registry/core/pod`): created `Pending` with their QoS class (and
//! `PodScheduled=False` while scheduling gates hold them), selectable by node, phase and
//! more, deleted gracefully, and a deleted Pod answers with itself.
//!
//! A Pod's grace period is the request's `gracePeriodSeconds`, else its
//! `spec.terminationGracePeriodSeconds` (0 when unset, which the defaulter sets to 30);
//! a Pod that is not scheduled (`spec.nodeName` empty) or has finished (phase
//! `Succeeded` or `Failed`) gets 0. There is no kubelet here: a Pod marked with a grace
//! period stays until it is deleted again with a shorter one (`gracePeriodSeconds=0`
//! deletes it), or its finalizers are gone after that (the simulated kubelet of the
//! `controller-manager` crate does that deletion).
//!
//! `pods/binding` places a Pod on a Node, as a scheduler does ([`binding`]).

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::apis::meta::v1::Time;
use apimachinery::runtime::{Object, Scheme};
use serde_json::{Value, json};

use super::{PROXY_VERBS, sub};
use crate::registry::dependencies::Dependencies;
use crate::registry::rest::{Creater, RestStorage, TableConvertor};
use crate::registry::strategy::{SelectableField, Strategy, Subresource, prepare_for_update};
use crate::registry::{ResourceInfo, Store, SubresourceInfo, from_value, to_json};

mod binding;
pub mod disabled;
pub mod level_resources;
mod qos;
mod table;
pub mod template;
pub use binding::BindingRest;
pub use qos::compute_pod_qos;
pub use table::{POD_TABLE, print_pod};

/// Go's pod strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct PodStrategy;

impl Strategy for PodStrategy {
    /// Go's `PrepareForCreate`: generation 1, the fields `DropDisabledPodFields` drops
    /// gone, on 1.37 the pod-level resources completed from the containers'
    /// ([`level_resources`]), and a status of the server's own: phase `Pending` and the
    /// QoS class (a class the client set is kept, as Go's `GetPodQOS`
    /// reads it before the status is replaced), with `PodScheduled=False` while
    /// scheduling gates hold the Pod.
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let mut pod = to_json(&*obj)?;
        template::drop_disabled_pod_fields_in(&mut pod, None);
        #[cfg(feature = "v1_37")]
        level_resources::default_pod_level_resources(&mut pod);
        let qos = match pod.pointer("/status/qosClass").and_then(Value::as_str) {
            Some(class) if !class.is_empty() => class.to_owned(),
            _ => compute_pod_qos(&pod).to_owned(),
        };
        let gated = pod
            .pointer("/spec/schedulingGates")
            .and_then(Value::as_array)
            .is_some_and(|g| !g.is_empty());
        let mut status = json!({"phase": "Pending", "qosClass": qos});
        if gated {
            status["conditions"] = json!([{
                "type": "PodScheduled",
                "status": "False",
                "lastProbeTime": null,
                "lastTransitionTime": Time::now().truncate_to_seconds().to_rfc3339(),
                "reason": "SchedulingGated",
                "message": "Scheduling is blocked due to non-empty scheduling gates",
            }]);
        }
        if let Some(map) = pod.as_object_mut() {
            map.insert("status".into(), status);
        }
        if let Some(meta) = pod.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.insert("generation".into(), Value::from(1));
        }
        from_value(scheme, &info.storage_gvk, pod)
    }

    /// Go's `PrepareForUpdate` of the Pod and of its `/status` (both drop what
    /// `DropDisabledPodFields` drops: fields of gates off by default that the old Pod
    /// does not use, and the init-container annotations, on 1.37).
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        // Dropped before the generation is counted: a write adding only dropped fields
        // changes nothing (Go drops before `updatePodGeneration`).
        let new = template::drop_disabled_pod_fields(scheme, info, Some(old), new)?;
        prepare_for_update(
            scheme,
            info,
            old,
            new,
            subresource,
            crate::registry::strategy::spec_changed,
        )
    }

    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[
            ("spec.nodeName", "/spec/nodeName"),
            ("spec.restartPolicy", "/spec/restartPolicy"),
            ("spec.schedulerName", "/spec/schedulerName"),
            ("spec.serviceAccountName", "/spec/serviceAccountName"),
            ("spec.hostNetwork", "/spec/hostNetwork"),
            ("status.phase", "/status/phase"),
            ("status.podIP", "/status/podIP"),
            ("status.nominatedNodeName", "/status/nominatedNodeName"),
        ]
    }

    /// Go's `CheckGracefulDelete` of Pods.
    fn check_graceful_delete(
        &self,
        obj: &dyn Object,
        requested: Option<i64>,
    ) -> Result<Option<i64>, StatusError> {
        let pod = to_json(obj)?;
        let spec = pod.get("spec");
        let mut period = requested.unwrap_or_else(|| {
            spec.and_then(|s| s.get("terminationGracePeriodSeconds"))
                .and_then(Value::as_i64)
                .unwrap_or(0)
        });
        let node = spec
            .and_then(|s| s.get("nodeName"))
            .and_then(Value::as_str)
            .unwrap_or("");
        if node.is_empty() {
            period = 0;
        }
        let phase = pod.pointer("/status/phase").and_then(Value::as_str);
        if matches!(phase, Some("Succeeded" | "Failed")) {
            period = 0;
        }
        Ok(Some(if period < 0 { 1 } else { period }))
    }

    fn returns_deleted_object(&self) -> bool {
        true
    }
}

/// The REST storage of Pods: the store, the `kubectl get` table and `pods/binding`.
#[derive(Debug)]
pub struct PodStorage {
    store: Arc<Store>,
    binding: BindingRest,
}

/// The Pods' REST storage over `info`.
/// The subresources of a Pod besides `status`, as kube-apiserver 1.36 lists them
/// (`core/rest/storage_core.go`). kapi serves `binding`; `attach`, `exec`, `log`,
/// `portforward` and `proxy` reach a kubelet, which kapi has none of, and `eviction`,
/// `ephemeralcontainers` and `resize` are not served yet (404): listed all the same,
/// so that clients see kube-apiserver's API.
const SUBRESOURCES: &[SubresourceInfo] = &[
    sub("attach", "PodAttachOptions", &["create", "get"]),
    sub("binding", "Binding", &["create"]),
    sub("ephemeralcontainers", "Pod", &["get", "patch", "update"]),
    SubresourceInfo {
        group: "policy",
        version: "v1",
        ..sub("eviction", "Eviction", &["create"])
    },
    sub("exec", "PodExecOptions", &["create", "get"]),
    sub("log", "Pod", &["get"]),
    sub("portforward", "PodPortForwardOptions", &["create", "get"]),
    sub("proxy", "PodProxyOptions", PROXY_VERBS),
    sub("resize", "Pod", &["get", "patch", "update"]),
];

pub(super) fn storage(mut info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    info.subresources = SUBRESOURCES.to_vec();
    let store = deps.store(info, PodStrategy);
    Arc::new(PodStorage {
        binding: BindingRest {
            store: Arc::clone(&store),
        },
        store,
    })
}

impl RestStorage for PodStorage {
    fn store(&self) -> &Arc<Store> {
        &self.store
    }

    fn subresource(&self, name: &str) -> Option<&dyn Creater> {
        (name == "binding").then_some(&self.binding as &dyn Creater)
    }

    fn table_convertor(&self) -> Option<&dyn TableConvertor> {
        Some(&POD_TABLE)
    }
}

#[cfg(test)]
mod tests;
