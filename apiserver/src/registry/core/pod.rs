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
//! `pods/binding` places a Pod on a Node, as a scheduler does ([`binding`]);
//! `pods/resize` changes its containers' resources in place ([`resize`]);
//! `pods/eviction` deletes it as its PodDisruptionBudget allows, as `kubectl drain`
//! asks ([`eviction`]). An update leaves a Pod being deleted gracefully in place even
//! when it has no finalizers (Go's `ShouldDeleteDuringUpdate`: its kubelet still
//! reports on it until the grace period is over).

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::apis::meta::v1::Time;
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::GroupVersionKind;
use apimachinery::util::validation::field::Path;
use apimachinery::util::validation::ip::get_warnings_for_ip;
use serde_json::{Value, json};

use super::{PROXY_VERBS, sub};
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{int, items, text};
use crate::registry::resource_info::key_prefix;
use crate::registry::rest::{Connecter, Creater, RestStorage, TableConvertor};
use crate::registry::strategy::{
    SelectableField, Strategy, Subresource, prepare_for_update_adjusted, spec_changed,
};
use crate::registry::{ResourceInfo, Store, SubresourceInfo, from_value, to_json};

mod binding;
pub mod connect;
pub mod disabled;
mod ephemeral;
mod eviction;
pub mod level_resources;
mod qos;
mod resize;
mod table;
pub mod template;
pub mod warnings;
pub mod workload_warnings;
pub use binding::{BindingRest, LegacyBindingRest};
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
        apply_apparmor_version_skew(&mut pod);
        #[cfg(feature = "v1_37")]
        level_resources::default_pod_level_resources(&mut pod);
        let qos = match pod.pointer("/status/qosClass").and_then(Value::as_str) {
            // 1.36 only: 1.37's `PrepareForCreate` replaces the status before it computes
            // the class, so there a client's class counts for nothing.
            Some(class) if !class.is_empty() && cfg!(not(feature = "v1_37")) => class.to_owned(),
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

    /// Go's `PrepareForUpdate` of the Pod, of its `/status` and of its `/resize` ([`resize`])
    /// (all drop what `DropDisabledPodFields` drops: fields of gates off by default that
    /// the old Pod does not use, and the init-container annotations, on 1.37).
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        // Go's pod status strategy, unlike most, keeps the finalizers a `/status` write
        // sends (it resets only the spec, the deletion timestamp and the owner
        // references): taken before the write's metadata gives way to the stored.
        let written_finalizers = match subresource {
            Subresource::Status => Some(to_json(&*new)?.pointer("/metadata/finalizers").cloned()),
            _ => None,
        };
        // Dropped before the generation is counted: a write adding only dropped fields
        // changes nothing (Go drops before `updatePodGeneration`).
        let new = template::drop_disabled_pod_fields(scheme, info, Some(old), new)?;
        prepare_for_update_adjusted(
            scheme,
            info,
            old,
            new,
            subresource,
            spec_changed,
            |old, new, subresource| match subresource {
                Subresource::Status => {
                    keep_status_fields(old, new);
                    if let (Some(finalizers), Some(meta)) = (
                        written_finalizers,
                        new.get_mut("metadata").and_then(Value::as_object_mut),
                    ) {
                        match finalizers {
                            Some(f) => meta.insert("finalizers".into(), f),
                            None => meta.remove("finalizers"),
                        };
                    }
                }
                Subresource::Resize => resize::drop_non_resize_updates(old, new),
                Subresource::EphemeralContainers => {
                    ephemeral::drop_non_ephemeral_container_updates(old, new);
                }
                Subresource::Approval => {}
                // Go 1.37 (PodLevelResourcesFixDefaulting, beta and on): pod-level
                // resources a write leaves out, as a client that does not know them
                // does, are kept.
                Subresource::Main | Subresource::Finalize => {
                    if cfg!(feature = "v1_37") {
                        keep_absent(old, new, "spec", "resources");
                    }
                }
            },
        )
    }

    /// Go's `podStatusStrategy.WarningsOnUpdate`: addresses in `status.podIPs` and
    /// `status.hostIPs` not in the form Go writes (kept from before, or non-canonical
    /// IPv6).
    fn warnings_on_status_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        let Ok(pod) = to_json(obj) else {
            return Vec::new();
        };
        let status = Path::new("status");
        let mut warnings = Vec::new();
        for list in ["podIPs", "hostIPs"] {
            let lp = status.child(list);
            for (i, ip) in items(&pod, &format!("/status/{list}")).iter().enumerate() {
                let ip_path = lp.index(i);
                let p = ip_path.child("ip");
                warnings.extend(get_warnings_for_ip(&p, text(ip, "/ip")));
            }
        }
        warnings
    }

    /// Go's `GetResetFields` of the Pod and of its status strategy: a write of the Pod
    /// owns no status; one of `/status` no spec, deletion timestamp or owner references
    /// (which its `PrepareForUpdate` resets).
    fn reset_fields(
        &self,
        _info: &ResourceInfo,
        subresource: Subresource,
    ) -> &'static [&'static str] {
        match subresource {
            Subresource::Status => &[
                "spec",
                "metadata.deletionTimestamp",
                "metadata.ownerReferences",
            ],
            Subresource::Main
            | Subresource::Finalize
            | Subresource::Resize
            | Subresource::EphemeralContainers
            | Subresource::Approval => &["status"],
        }
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

    /// Go's warnings on a new Pod: the AppArmor annotations its `PrepareForCreate`
    /// warns about (`applyAppArmorVersionSkew`), a name that is not a DNS label (it is
    /// the Pod's hostname), and the Pod's warnings ([`warnings`]). None on update (Go
    /// spares that frequent path).
    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        let Ok(pod) = to_json(obj) else {
            return Vec::new();
        };
        let mut out = apparmor_version_skew_warnings(&pod);
        out.extend(workload_warnings::name_warning(&pod, "the Pod's hostname"));
        out.extend(warnings::warnings_for_pod(&pod));
        out
    }
}

/// The profile (JSON) Go's `applyAppArmorVersionSkew` derives from a container's
/// deprecated annotation: `ApparmorFieldForAnnotation`, kept only when Go's validation
/// takes it (a local profile's name unpadded and at most 4095 bytes).
fn apparmor_profile_of(annotation: &str) -> Option<Value> {
    warnings::apparmor_field_for_annotation(annotation).filter(|f| {
        f.get("localhostProfile")
            .and_then(Value::as_str)
            .is_none_or(|p| p.trim() == p && p.len() <= 4095)
    })
}

/// A Pod's own AppArmor profile (JSON), and the deprecated container annotations it
/// has (key, value), in container order.
type AppArmorAnnotated = (Option<Value>, Vec<(String, String)>);

/// The containers of `pod` (init, regular, ephemeral) with the deprecated AppArmor
/// annotation each has, and the Pod's own profile; `None` for a Windows Pod, which
/// Go's `applyAppArmorVersionSkew` leaves alone.
fn apparmor_annotated(pod: &Value) -> Option<AppArmorAnnotated> {
    if pod.pointer("/spec/os/name").and_then(Value::as_str) == Some("windows") {
        return None;
    }
    let annotations = pod.pointer("/metadata/annotations")?;
    let pod_profile = pod
        .pointer("/spec/securityContext/appArmorProfile")
        .filter(|p| !p.is_null())
        .cloned();
    let annotated = ["initContainers", "containers", "ephemeralContainers"]
        .into_iter()
        .flat_map(|kind| items(pod, &format!("/spec/{kind}")))
        .filter_map(|c| {
            let key = format!(
                "{}{}",
                warnings::APPARMOR_ANNOTATION_PREFIX,
                text(c, "/name")
            );
            let annotation = annotations.get(&key)?.as_str().unwrap_or("");
            Some((key, annotation.to_owned()))
        })
        .collect();
    Some((pod_profile, annotated))
}

/// Go's `applyAppArmorVersionSkew` (in `PrepareForCreate`): a container without an
/// AppArmor profile field, whose deprecated annotation names a valid profile other than
/// the Pod's, gets that profile in its field.
fn apply_apparmor_version_skew(pod: &mut Value) {
    let Some((pod_profile, annotated)) = apparmor_annotated(pod) else {
        return;
    };
    for kind in ["initContainers", "containers", "ephemeralContainers"] {
        let Some(list) = pod
            .pointer_mut(&format!("/spec/{kind}"))
            .and_then(Value::as_array_mut)
        else {
            continue;
        };
        for c in list {
            let key = format!(
                "{}{}",
                warnings::APPARMOR_ANNOTATION_PREFIX,
                text(c, "/name")
            );
            let Some((_, annotation)) = annotated.iter().find(|(k, _)| *k == key) else {
                continue;
            };
            let has_field = c
                .pointer("/securityContext/appArmorProfile")
                .is_some_and(|p| !p.is_null());
            let field = apparmor_profile_of(annotation)
                .filter(|f| !has_field && Some(f) != pod_profile.as_ref());
            let (Some(field), Some(map)) = (field, c.as_object_mut()) else {
                continue;
            };
            let security = map.entry("securityContext").or_insert_with(|| json!({}));
            if !security.is_object() {
                *security = json!({});
            }
            security["appArmorProfile"] = field;
        }
    }
}

/// The warnings of Go's `applyAppArmorVersionSkew`, found on the Pod as created (the
/// store has prepared it): a container's annotation Go warned about before copying it
/// is one whose profile is invalid (nothing copied), or now in the container's field
/// and not the Pod's. (A client that sets the same profile in the field and the
/// annotation, which Go does not warn about, cannot be told apart from a copy here.)
fn apparmor_version_skew_warnings(pod: &Value) -> Vec<String> {
    let Some((pod_profile, annotated)) = apparmor_annotated(pod) else {
        return Vec::new();
    };
    let field_of = |key: &str| {
        ["initContainers", "containers", "ephemeralContainers"]
            .into_iter()
            .flat_map(|kind| items(pod, &format!("/spec/{kind}")))
            .find(|c| {
                format!(
                    "{}{}",
                    warnings::APPARMOR_ANNOTATION_PREFIX,
                    text(c, "/name")
                ) == key
            })
            .and_then(|c| c.pointer("/securityContext/appArmorProfile"))
            .filter(|p| !p.is_null())
    };
    annotated
        .iter()
        .filter(|(key, annotation)| {
            let derived = apparmor_profile_of(annotation);
            match field_of(key) {
                None => derived.is_none() || derived != pod_profile,
                Some(field) => derived.as_ref() == Some(field) && derived != pod_profile,
            }
        })
        .map(|(key, _)| {
            format!(r#"metadata.annotations[{key}]: deprecated since v1.30; use the "appArmorProfile" field instead"#)
        })
        .collect()
}

/// What Go's Pod status strategy keeps from the stored Pod where a write of `/status`
/// leaves it out (old kubelets and other clients that do not know a field drop it):
/// `status.qosClass` (set once, on create), `status.observedGeneration` and each
/// condition's (matched by type, in order, as Go's `preserveOldObservedGeneration`
/// does), and, on 1.37, the DRA fields `resourceClaimStatuses`,
/// `extendedResourceClaimStatus` and `nodeAllocatableResourceClaimStatuses`. (Go
/// clears a list field written as `[]`; kapi's objects hold no difference between an
/// empty list and none, so such a write keeps the stored list.)
fn keep_status_fields(old: &Value, new: &mut Value) {
    keep_absent(old, new, "status", "qosClass");
    keep_absent(old, new, "status", "observedGeneration");
    if cfg!(feature = "v1_37") {
        for field in [
            "resourceClaimStatuses",
            "extendedResourceClaimStatus",
            "nodeAllocatableResourceClaimStatuses",
        ] {
            keep_absent(old, new, "status", field);
        }
    }
    let mut old_generations: Vec<(&str, i64)> = items(old, "/status/conditions")
        .iter()
        .map(|c| (text(c, "/type"), int(c, "/observedGeneration")))
        .collect();
    let Some(conditions) = new
        .pointer_mut("/status/conditions")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    for condition in conditions.iter_mut().filter_map(Value::as_object_mut) {
        let kind = condition
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        // Each stored condition of a type lends its generation to one new condition.
        let stored = old_generations
            .iter()
            .position(|(t, _)| *t == kind)
            .map(|i| old_generations.remove(i).1);
        let unset = condition
            .get("observedGeneration")
            .and_then(Value::as_i64)
            .is_none_or(|g| g == 0);
        if let (true, Some(generation)) = (unset, stored.filter(|g| *g != 0)) {
            condition.insert("observedGeneration".into(), Value::from(generation));
        }
    }
}

/// Copies `field` of the top-level object `part` (`spec`, `status`) of `old` into `new`
/// where `new` has it unset (absent, null, or an empty string or zero, which kapi's
/// objects do not write).
fn keep_absent(old: &Value, new: &mut Value, part: &str, field: &str) {
    let unset = |v: Option<&Value>| {
        v.is_none_or(|v| v.is_null() || v.as_str() == Some("") || v.as_i64() == Some(0))
    };
    let Some(stored) = old.get(part).and_then(|p| p.get(field)) else {
        return;
    };
    if unset(Some(stored)) || !unset(new.get(part).and_then(|p| p.get(field))) {
        return;
    }
    let Some(map) = new.as_object_mut() else {
        return;
    };
    if let Some(target) = map
        .entry(part)
        .or_insert_with(|| Value::Object(Default::default()))
        .as_object_mut()
    {
        target.insert(field.into(), stored.clone());
    }
}

/// Go's `UpdatePodCondition`: `condition` (its `lastTransitionTime` now) replaces the
/// Pod's condition of its type, or is added; one whose status does not change keeps its
/// transition time.
fn update_pod_condition(pod: &mut Value, mut condition: Value) {
    if !pod["status"].is_object() {
        pod["status"] = json!({});
    }
    let status = &mut pod["status"];
    if !status["conditions"].is_array() {
        status["conditions"] = json!([]);
    }
    let Some(conditions) = status["conditions"].as_array_mut() else {
        return;
    };
    match conditions
        .iter_mut()
        .find(|c| c["type"] == condition["type"])
    {
        Some(old) => {
            if old["status"] == condition["status"] {
                condition["lastTransitionTime"] = old["lastTransitionTime"].clone();
            }
            *old = condition;
        }
        None => conditions.push(condition),
    }
}

/// The REST storage of Pods: the store, the `kubectl get` table, `pods/binding`,
/// `/eviction`, `/resize`, `/ephemeralcontainers` and the subresources that reach a
/// kubelet ([`connect`]).
#[derive(Debug)]
pub struct PodStorage {
    store: Arc<Store>,
    binding: BindingRest,
    eviction: eviction::EvictionRest,
    connections: [(&'static str, connect::PodConnection); 4],
}

/// The Pods' REST storage over `info`.
/// The subresources of a Pod besides `status`, as kube-apiserver 1.36 lists them
/// (`core/rest/storage_core.go`). kapi serves `binding`, `resize` ([`resize`]) and
/// `ephemeralcontainers` ([`ephemeral`]); `attach`, `exec`, `log` and `portforward`
/// reach a kubelet, which kapi has none of: they answer what kube-apiserver answers
/// before connecting ([`connect`]); `eviction` is [`eviction`]'s; `proxy` is not served
/// yet (404): listed all the same, so that clients see kube-apiserver's API.
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
    let budgets = eviction::budgets_store(&info, deps);
    let store = deps.store(info, PodStrategy);
    let connection = |c| connect::PodConnection::new(c, Arc::clone(&store), deps.storage.clone());
    let connections = [
        ("log", connection(connect::Connection::Log)),
        ("exec", connection(connect::Connection::Exec)),
        ("attach", connection(connect::Connection::Attach)),
        ("portforward", connection(connect::Connection::PortForward)),
    ];
    Arc::new(PodStorage {
        binding: BindingRest {
            store: Arc::clone(&store),
        },
        eviction: eviction::EvictionRest {
            pods: Arc::clone(&store),
            budgets,
        },
        store,
        connections,
    })
}

/// The REST storage of `bindings` (Go's `podStorage.LegacyBinding`), over `info`: a
/// Pods' store of its own (the same keys as the Pods' storage) that its creates bind.
pub(super) fn legacy_binding_storage(
    info: ResourceInfo,
    deps: &Dependencies,
) -> Arc<dyn RestStorage> {
    let pods = ResourceInfo {
        resource: "pods".to_owned(),
        singular: "pod".to_owned(),
        kind: "Pod".to_owned(),
        list_kind: "PodList".to_owned(),
        storage_gvk: GroupVersionKind::new("", "v1", "Pod"),
        key_prefix: key_prefix("", "pods"),
        has_spec: true,
        has_status: true,
        subresources: SUBRESOURCES.to_vec(),
        ..info.clone()
    };
    let store = deps.store(pods, PodStrategy);
    deps.answering(
        info,
        Arc::new(LegacyBindingRest {
            binding: BindingRest { store },
        }),
    )
}

impl RestStorage for PodStorage {
    fn store(&self) -> &Arc<Store> {
        &self.store
    }

    fn subresource(&self, name: &str) -> Option<&dyn Creater> {
        match name {
            "binding" => Some(&self.binding),
            "eviction" => Some(&self.eviction),
            _ => None,
        }
    }

    fn connecter(&self, name: &str) -> Option<&dyn Connecter> {
        self.connections
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, c)| c as &dyn Connecter)
    }

    fn resizes(&self) -> bool {
        true
    }

    fn has_ephemeral_containers(&self) -> bool {
        true
    }

    fn table_convertor(&self) -> Option<&dyn TableConvertor> {
        Some(&POD_TABLE)
    }
}

#[cfg(test)]
mod tests;
