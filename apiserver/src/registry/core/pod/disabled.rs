//! The Pod fields behind a feature gate that is off by default in the served release,
//! which Go's `pkg/api/pod/util.go` (`dropDisabledFields`, `dropDisabledPodStatusFields`)
//! removes from every Pod and pod template written unless the object it replaces already
//! uses them (so that turning a gate off never loses what was stored). kapi serve has
//! kube-apiserver's default gates, so a field is listed here exactly when its gate is off
//! by default: gates on by default drop nothing.
//!
//! Each field lists the JSON pointers (relative to the pod spec, or to the pod status)
//! of the values it would remove; a field is in use when it lists any.

use serde_json::Value;

/// A field (or family of fields) that Go drops while its feature gate is off.
#[derive(Clone, Copy, Debug)]
pub struct GatedField {
    /// Go's feature gate, off by default in the served release.
    pub gate: &'static str,
    /// Adds the pointers of the values the gate covers to the list.
    find: fn(&Value, &mut Vec<String>),
}

/// The spec fields Go's `dropDisabledFields` drops with kube-apiserver's default gates.
pub static SPEC_FIELDS: &[GatedField] = &[
    // Alpha since 1.33 (`dropContainerStopSignals`).
    GatedField {
        gate: "ContainerStopSignals",
        find: stop_signals,
    },
    // Alpha since 1.35, beta and still off in 1.37 (`dropDisabledSchedulingGroup`).
    GatedField {
        gate: "GenericWorkload",
        find: |spec, out| present_at(spec, "", "/schedulingGroup", out),
    },
    // The rest are alpha in 1.37, the release that added their fields.
    #[cfg(feature = "v1_37")]
    GatedField {
        gate: "AtomicWriteVolumeUserFields",
        find: atomic_write_user_fields,
    },
    #[cfg(feature = "v1_37")]
    GatedField {
        gate: "GRPCContainerProbeTLS",
        find: grpc_probe_modes,
    },
    #[cfg(feature = "v1_37")]
    GatedField {
        gate: "EvictionRequestAPI",
        find: |spec, out| non_empty_at(spec, "", "/evictionResponders", out),
    },
    #[cfg(feature = "v1_37")]
    GatedField {
        gate: "EmptyDirVolumeMode",
        find: empty_dir_modes,
    },
    #[cfg(feature = "v1_37")]
    GatedField {
        gate: "VolumeBindMountOptions",
        find: bind_mount_options,
    },
    #[cfg(feature = "v1_37")]
    GatedField {
        gate: "H2CContainerProbe",
        find: http_get_protocols,
    },
];

/// The status fields Go's `dropDisabledPodStatusFields` drops with kube-apiserver's
/// default gates.
pub static STATUS_FIELDS: &[GatedField] = &[
    // Alpha since 1.36 (`dropPodNodeAllocatableResourceStatus`).
    GatedField {
        gate: "DRANodeAllocatableResources",
        find: |status, out| non_empty_at(status, "", "/nodeAllocatableResourceClaimStatuses", out),
    },
    // Alpha since 1.35 (`dropImageVolumeWithDigest`).
    GatedField {
        gate: "ImageVolumeWithDigest",
        find: image_volume_statuses,
    },
    // Alpha since 1.21; the field is new in 1.37.
    #[cfg(feature = "v1_37")]
    GatedField {
        gate: "CSIVolumeHealth",
        find: |status, out| non_empty_at(status, "", "/volumeHealth", out),
    },
];

/// Removes from `new` (a pod spec, or status) the `fields` that `old` (what it replaces;
/// `None` on create) does not use; whether it removed any.
pub fn drop_disabled(fields: &[GatedField], new: &mut Value, old: Option<&Value>) -> bool {
    let mut found = Vec::new();
    let mut changed = false;
    for field in fields {
        found.clear();
        (field.find)(new, &mut found);
        if found.is_empty() || old.is_some_and(|old| in_use(field, old)) {
            continue;
        }
        for pointer in &found {
            changed |= remove(new, pointer);
        }
    }
    changed
}

/// Whether `value` (a pod spec, or status) uses any of `fields`.
pub fn any_in_use(fields: &[GatedField], value: &Value) -> bool {
    fields.iter().any(|field| in_use(field, value))
}

/// Whether `value` uses `field` (Go's `…InUse`).
fn in_use(field: &GatedField, value: &Value) -> bool {
    let mut found = Vec::new();
    (field.find)(value, &mut found);
    !found.is_empty()
}

/// Removes the member at `pointer` (whose last token is an object key).
fn remove(value: &mut Value, pointer: &str) -> bool {
    let Some((parent, key)) = pointer.rsplit_once('/') else {
        return false;
    };
    value
        .pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .and_then(|map| map.remove(key))
        .is_some()
}

/// Whether `value` is set: JSON's `null` is Go's nil.
fn set(value: Option<&Value>) -> bool {
    value.is_some_and(|v| !v.is_null())
}

/// Adds `base + pointer` when `value` (which is at `base`) has something at `pointer`.
fn present_at(value: &Value, base: &str, pointer: &str, out: &mut Vec<String>) {
    if set(value.pointer(pointer)) {
        out.push(format!("{base}{pointer}"));
    }
}

/// Adds `base + pointer` when `value` (at `base`) has a non-empty list at `pointer`
/// (Go's `len(…) > 0`).
fn non_empty_at(value: &Value, base: &str, pointer: &str, out: &mut Vec<String>) {
    if value
        .pointer(pointer)
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
    {
        out.push(format!("{base}{pointer}"));
    }
}

/// The lists of Go's `VisitContainers(…, AllContainers, …)`.
const CONTAINER_LISTS: [&str; 3] = ["initContainers", "containers", "ephemeralContainers"];

/// Every container of `spec` with its pointer (`/containers/0`).
fn containers(spec: &Value) -> impl Iterator<Item = (String, &Value)> {
    CONTAINER_LISTS
        .into_iter()
        .flat_map(move |list| elements(spec, "", list))
}

/// Every element of the list at the key `list` of `value` (which is at `base`), with
/// its pointer.
fn elements<'a>(
    value: &'a Value,
    base: &str,
    list: &str,
) -> impl Iterator<Item = (String, &'a Value)> + use<'a> {
    let at = format!("{base}/{list}");
    value
        .get(list)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .map(move |(i, v)| (format!("{at}/{i}"), v))
}

/// The probes Go checks.
#[cfg(feature = "v1_37")]
const PROBES: [&str; 3] = ["livenessProbe", "readinessProbe", "startupProbe"];

/// `lifecycle.stopSignal` of every container; a lifecycle with nothing else
/// (no `postStart`, no `preStop`) goes as a whole, as Go leaves no empty one.
fn stop_signals(spec: &Value, out: &mut Vec<String>) {
    for (at, c) in containers(spec) {
        let Some(lifecycle) = c.get("lifecycle") else {
            continue;
        };
        if !set(lifecycle.get("stopSignal")) {
            continue;
        }
        if set(lifecycle.get("postStart")) || set(lifecycle.get("preStop")) {
            out.push(format!("{at}/lifecycle/stopSignal"));
        } else {
            out.push(format!("{at}/lifecycle"));
        }
    }
}

/// `volumeStatus` of every container status's volume mounts (an image volume's digest).
fn image_volume_statuses(status: &Value, out: &mut Vec<String>) {
    for list in [
        "containerStatuses",
        "initContainerStatuses",
        "ephemeralContainerStatuses",
    ] {
        for (at, container) in elements(status, "", list) {
            for (at, mount) in elements(container, &at, "volumeMounts") {
                present_at(mount, &at, "/volumeStatus", out);
            }
        }
    }
}

/// `grpc.mode` of the probes (Go's `probeHasGRPCMode`: any mode, plaintext too).
#[cfg(feature = "v1_37")]
fn grpc_probe_modes(spec: &Value, out: &mut Vec<String>) {
    for (at, c) in containers(spec) {
        for probe in PROBES {
            present_at(c, &at, &format!("/{probe}/grpc/mode"), out);
        }
    }
}

/// `httpGet.protocol` of the probes and of the `postStart` and `preStop` handlers.
#[cfg(feature = "v1_37")]
fn http_get_protocols(spec: &Value, out: &mut Vec<String>) {
    for (at, c) in containers(spec) {
        for probe in PROBES {
            present_at(c, &at, &format!("/{probe}/httpGet/protocol"), out);
        }
        for handler in ["postStart", "preStop"] {
            present_at(
                c,
                &at,
                &format!("/lifecycle/{handler}/httpGet/protocol"),
                out,
            );
        }
    }
}

/// `emptyDir.mode` of the volumes.
#[cfg(feature = "v1_37")]
fn empty_dir_modes(spec: &Value, out: &mut Vec<String>) {
    for (at, volume) in elements(spec, "", "volumes") {
        present_at(volume, &at, "/emptyDir/mode", out);
    }
}

/// `bindMountOptions` of every container's volume mounts (when not empty).
#[cfg(feature = "v1_37")]
fn bind_mount_options(spec: &Value, out: &mut Vec<String>) {
    for (at, c) in containers(spec) {
        for (at, mount) in elements(c, &at, "volumeMounts") {
            non_empty_at(mount, &at, "/bindMountOptions", out);
        }
    }
}

/// The owners of the files a volume writes (Go's `atomicWriteVolumeUserFieldsInUse`):
/// `defaultUser` and the items' `user` of the volume's source (the first of `secret`,
/// `configMap`, `downwardAPI` and `projected` it has), and of a projected volume's
/// sources (the first kind each has) the items' `user`, or the `user` of a
/// service-account token, trust bundle or pod certificate.
#[cfg(feature = "v1_37")]
fn atomic_write_user_fields(spec: &Value, out: &mut Vec<String>) {
    const SOURCES: [&str; 4] = ["secret", "configMap", "downwardAPI", "projected"];
    const PROJECTIONS: [&str; 6] = [
        "secret",
        "downwardAPI",
        "configMap",
        "serviceAccountToken",
        "clusterTrustBundle",
        "podCertificate",
    ];
    let items_users = |source: &Value, at: &str, out: &mut Vec<String>| {
        for (at, item) in elements(source, at, "items") {
            present_at(item, &at, "/user", out);
        }
    };
    for (at, volume) in elements(spec, "", "volumes") {
        let Some(kind) = SOURCES.into_iter().find(|k| set(volume.get(*k))) else {
            continue;
        };
        let (source, at) = (&volume[kind], format!("{at}/{kind}"));
        present_at(source, &at, "/defaultUser", out);
        if kind != "projected" {
            items_users(source, &at, out);
            continue;
        }
        for (at, projection) in elements(source, &at, "sources") {
            let Some(kind) = PROJECTIONS.into_iter().find(|k| set(projection.get(*k))) else {
                continue;
            };
            let (projected, at) = (&projection[kind], format!("{at}/{kind}"));
            if matches!(kind, "secret" | "downwardAPI" | "configMap") {
                items_users(projected, &at, out);
            } else {
                present_at(projected, &at, "/user", out);
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A spec with every gated field of both releases set, and `expected` what Go's
    /// default kube-apiserver keeps of it.
    fn spec() -> Value {
        json!({
            "schedulingGroup": {"podGroupName": "g"},
            "containers": [
                {"name": "a", "image": "i", "lifecycle": {"stopSignal": "SIGUSR1"}},
                {"name": "b", "image": "i", "lifecycle": {
                    "stopSignal": "SIGUSR1", "preStop": {"exec": {"command": ["x"]}}}},
            ],
        })
    }

    #[test]
    fn fields_of_gates_off_by_default_are_dropped_on_create() {
        let mut new = spec();
        assert!(drop_disabled(SPEC_FIELDS, &mut new, None));
        assert_eq!(
            new,
            json!({"containers": [
                {"name": "a", "image": "i"},
                {"name": "b", "image": "i", "lifecycle": {"preStop": {"exec": {"command": ["x"]}}}},
            ]})
        );
        // Nothing left to drop.
        assert!(!drop_disabled(SPEC_FIELDS, &mut new, None));
    }

    #[test]
    fn a_field_the_old_object_uses_is_kept_on_update() {
        let old = spec();
        let mut new = spec();
        new["containers"][0]["image"] = json!("j");
        assert!(!drop_disabled(SPEC_FIELDS, &mut new, Some(&old)));
        assert_eq!(new["schedulingGroup"], old["schedulingGroup"]);
        // An old object without them: dropped again.
        let old = json!({"containers": [{"name": "a", "image": "i"}]});
        let mut new = spec();
        assert!(drop_disabled(SPEC_FIELDS, &mut new, Some(&old)));
        assert!(new.get("schedulingGroup").is_none());
    }

    #[test]
    fn status_fields_of_gates_off_by_default_are_dropped_unless_in_use() {
        let status = json!({"phase": "Running",
            "nodeAllocatableResourceClaimStatuses": [{"resourceClaimName": "c"}],
            "initContainerStatuses": [{"name": "i", "volumeMounts": [
                {"name": "v", "mountPath": "/v", "volumeStatus": {"image": {"imageRef": "r"}}}]}]});
        let mut new = status.clone();
        assert!(drop_disabled(STATUS_FIELDS, &mut new, Some(&json!({}))));
        assert_eq!(
            new,
            json!({"phase": "Running",
                "initContainerStatuses": [{"name": "i", "volumeMounts": [{"name": "v", "mountPath": "/v"}]}]})
        );
        let mut new = status.clone();
        assert!(!drop_disabled(STATUS_FIELDS, &mut new, Some(&status)));
    }

    /// 1.37's alpha fields (all gates off by default in 1.37.2).
    #[cfg(feature = "v1_37")]
    #[test]
    fn the_alpha_fields_of_1_37_are_dropped() {
        let mut new = json!({
            "evictionResponders": [{"name": "r"}],
            "volumes": [
                {"name": "e", "emptyDir": {"mode": 448, "medium": "Memory"}},
                {"name": "s", "secret": {"secretName": "s", "defaultUser": 1,
                    "items": [{"key": "k", "path": "p", "user": 2}, {"key": "l", "path": "q"}]}},
                {"name": "d", "downwardAPI": {"defaultUser": 1,
                    "items": [{"path": "p", "user": 3, "fieldRef": {"fieldPath": "metadata.name"}}]}},
                {"name": "p", "projected": {"defaultUser": 4, "sources": [
                    {"configMap": {"name": "c", "items": [{"key": "k", "path": "p", "user": 5}]}},
                    {"serviceAccountToken": {"path": "t", "user": 6}},
                    {"podCertificate": {"signerName": "x/y", "keyType": "ED25519", "user": 7}},
                ]}},
            ],
            "initContainers": [{"name": "i", "image": "i",
                "volumeMounts": [{"name": "e", "mountPath": "/e", "bindMountOptions": ["noexec"]}]}],
            "containers": [{"name": "c", "image": "i",
                "livenessProbe": {"grpc": {"port": 1, "mode": "Plaintext"}},
                "readinessProbe": {"httpGet": {"port": 1, "protocol": "H2C"}},
                "lifecycle": {"postStart": {"httpGet": {"port": 1, "protocol": "H2C"}}}}],
            "ephemeralContainers": [{"name": "x", "image": "i",
                "startupProbe": {"grpc": {"port": 1, "mode": "TLS"}}}],
        });
        assert!(drop_disabled(SPEC_FIELDS, &mut new, None));
        assert_eq!(
            new,
            json!({
                "volumes": [
                    {"name": "e", "emptyDir": {"medium": "Memory"}},
                    {"name": "s", "secret": {"secretName": "s",
                        "items": [{"key": "k", "path": "p"}, {"key": "l", "path": "q"}]}},
                    {"name": "d", "downwardAPI": {
                        "items": [{"path": "p", "fieldRef": {"fieldPath": "metadata.name"}}]}},
                    {"name": "p", "projected": {"sources": [
                        {"configMap": {"name": "c", "items": [{"key": "k", "path": "p"}]}},
                        {"serviceAccountToken": {"path": "t"}},
                        {"podCertificate": {"signerName": "x/y", "keyType": "ED25519"}},
                    ]}},
                ],
                "initContainers": [{"name": "i", "image": "i",
                    "volumeMounts": [{"name": "e", "mountPath": "/e"}]}],
                "containers": [{"name": "c", "image": "i",
                    "livenessProbe": {"grpc": {"port": 1}},
                    "readinessProbe": {"httpGet": {"port": 1}},
                    "lifecycle": {"postStart": {"httpGet": {"port": 1}}}}],
                "ephemeralContainers": [{"name": "x", "image": "i",
                    "startupProbe": {"grpc": {"port": 1}}}],
            })
        );
        let mut status = json!({"volumeHealth": [{"name": "v"}]});
        assert!(drop_disabled(STATUS_FIELDS, &mut status, None));
        assert_eq!(status, json!({}));
    }

    /// Each gate is judged on its own: an old spec using one field keeps only that one.
    #[cfg(feature = "v1_37")]
    #[test]
    fn each_gate_looks_at_its_own_field_in_the_old_object() {
        let old = json!({"volumes": [{"name": "e", "emptyDir": {"mode": 448}}]});
        let mut new = json!({"volumes": [
            {"name": "e", "emptyDir": {"mode": 488}},
            {"name": "s", "secret": {"secretName": "s", "defaultUser": 1}},
        ]});
        assert!(drop_disabled(SPEC_FIELDS, &mut new, Some(&old)));
        assert_eq!(
            new,
            json!({"volumes": [
                {"name": "e", "emptyDir": {"mode": 488}},
                {"name": "s", "secret": {"secretName": "s"}},
            ]})
        );
    }
}
