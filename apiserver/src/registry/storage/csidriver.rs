//! CSIDrivers (Go's `pkg/registry/storage/csidriver`): a delete answers with the deleted
//! driver, a driver asking for service account tokens without saying where they go is
//! warned about, and the table `kubectl get csidrivers` prints (Go's `printCSIDriver`).

use std::sync::Arc;

use apimachinery::runtime::Object;
use serde_json::Value;

use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, items, string_column, text,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::Strategy;
use crate::registry::{ResourceInfo, to_json};

/// A boolean column of `kubectl get`'s.
const fn boolean_column(name: &'static str, description: &'static str) -> Column {
    Column {
        type_: "boolean",
        ..string_column(name, description, 0)
    }
}

/// Go's `csiDriverColumnDefinitions`.
pub const COLUMNS: [Column; 8] = [
    NAME,
    boolean_column(
        "AttachRequired",
        "attachRequired indicates this CSI volume driver requires an attach operation (because it implements the CSI ControllerPublishVolume() method), and that the Kubernetes attach detach controller should call the attach volume interface which checks the volumeattachment status and waits until the volume is attached before proceeding to mounting. The CSI external-attacher coordinates with CSI volume driver and updates the volumeattachment status when the attach operation is complete. If the value is specified to false, the attach operation will be skipped. Otherwise the attach operation will be called.\n\nThis field is immutable.",
    ),
    boolean_column(
        "PodInfoOnMount",
        "podInfoOnMount indicates this CSI volume driver requires additional pod information (like podName, podUID, etc.) during mount operations, if set to true. If set to false, pod information will not be passed on mount. Default is false.\n\nThe CSI driver specifies podInfoOnMount as part of driver deployment. If true, Kubelet will pass pod information as VolumeContext in the CSI NodePublishVolume() calls. The CSI driver is responsible for parsing and validating the information passed in as VolumeContext.\n\nThe following VolumeContext will be passed if podInfoOnMount is set to true. This list might grow, but the prefix will be used. \"csi.storage.k8s.io/pod.name\": pod.Name \"csi.storage.k8s.io/pod.namespace\": pod.Namespace \"csi.storage.k8s.io/pod.uid\": string(pod.UID) \"csi.storage.k8s.io/ephemeral\": \"true\" if the volume is an ephemeral inline volume\n                                defined by a CSIVolumeSource, otherwise \"false\"\n\n\"csi.storage.k8s.io/ephemeral\" is a new feature in Kubernetes 1.16. It is only required for drivers which support both the \"Persistent\" and \"Ephemeral\" VolumeLifecycleMode. Other drivers can leave pod info disabled and/or ignore this field. As Kubernetes 1.15 doesn't support this field, drivers can only support one mode when deployed on such a cluster and the deployment determines which mode that is, for example via a command line parameter of the driver.\n\nThis field was immutable in Kubernetes < 1.29 and now is mutable.",
    ),
    boolean_column(
        "StorageCapacity",
        "storageCapacity indicates that the CSI volume driver wants pod scheduling to consider the storage capacity that the driver deployment will report by creating CSIStorageCapacity objects with capacity information, if set to true.\n\nThe check can be enabled immediately when deploying a driver. In that case, provisioning new volumes with late binding will pause until the driver deployment has published some suitable CSIStorageCapacity object.\n\nAlternatively, the driver can be deployed with the field unset or false and it can be flipped later when storage capacity information has been published.\n\nThis field was immutable in Kubernetes <= 1.22 and now is mutable.",
    ),
    string_column(
        "TokenRequests",
        "tokenRequests indicates the CSI driver needs pods' service account tokens it is mounting volume for to do necessary authentication. Kubelet will pass the tokens in VolumeContext in the CSI NodePublishVolume calls. The CSI driver should parse and validate the following VolumeContext: \"csi.storage.k8s.io/serviceAccount.tokens\": {\n  \"<audience>\": {\n    \"token\": <token>,\n    \"expirationTimestamp\": <expiration timestamp in RFC3339>,\n  },\n  ...\n}\n\nNote: Audience in each TokenRequest should be different and at most one token is empty string. To receive a new token after expiry, RequiresRepublish can be used to trigger NodePublishVolume periodically.",
        0,
    ),
    boolean_column(
        "RequiresRepublish",
        "requiresRepublish indicates the CSI driver wants `NodePublishVolume` being periodically called to reflect any possible change in the mounted volume. This field defaults to false.\n\nNote: After a successful initial NodePublishVolume call, subsequent calls to NodePublishVolume should only update the contents of the volume. New mount points will not be seen by a running container.",
    ),
    string_column(
        "Modes",
        "volumeLifecycleModes defines what kind of volumes this CSI volume driver supports. The default if the list is empty is \"Persistent\", which is the usage defined by the CSI specification and implemented in Kubernetes via the usual PV/PVC mechanism.\n\nThe other mode is \"Ephemeral\". In this mode, volumes are defined inline inside the pod spec with CSIVolumeSource and their lifecycle is tied to the lifecycle of that pod. A driver has to be aware of this because it is only going to get a NodePublishVolume call for such a volume.\n\nFor more information about implementing this mode, see https://kubernetes-csi.github.io/docs/ephemeral-local-volumes.html A driver can support one or more of these modes and more modes may be added in the future.\n\nThis field is beta. This field is immutable.",
        0,
    ),
    AGE,
];

/// The CSIDrivers' table convertor.
pub static CSI_DRIVER_TABLE: Printer = Printer {
    api_version: "storage.k8s.io/v1",
    kind: "CSIDriver",
    columns: &COLUMNS,
    print: print_csi_driver,
};

/// Go's `printCSIDriver`: name, whether attaching is required (true unset), whether
/// pods' information is passed on mount, whether storage capacity is tracked, the token
/// requests' audiences (`<unset>` for none), whether volumes are republished (false
/// unset), the lifecycle modes (`<none>` for none), age.
pub fn print_csi_driver(obj: &Value) -> Row {
    let flag = |field: &str, unset: bool| {
        obj.pointer(&format!("/spec/{field}"))
            .and_then(Value::as_bool)
            .unwrap_or(unset)
    };
    let tokens = match obj.pointer("/spec/tokenRequests").and_then(Value::as_array) {
        Some(requests) => requests
            .iter()
            .map(|r| text(r, "/audience"))
            .collect::<Vec<_>>()
            .join(","),
        None => "<unset>".to_owned(),
    };
    let modes = items(obj, "/spec/volumeLifecycleModes")
        .iter()
        .filter_map(Value::as_str)
        .collect::<Vec<_>>()
        .join(",");
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(flag("attachRequired", true)),
        Value::from(flag("podInfoOnMount", false)),
        Value::from(flag("storageCapacity", false)),
        Value::from(tokens),
        Value::from(flag("requiresRepublish", false)),
        Value::from(if modes.is_empty() {
            "<none>".to_owned()
        } else {
            modes
        }),
        printers::age(obj),
    ])
}

/// Go's warning for a driver with token requests and no `serviceAccountTokenInSecrets`.
const TOKENS_IN_SECRETS_RECOMMENDED: &str = "spec.serviceAccountTokenInSecrets is unset; if supported by this CSI driver, set to true to prevent possible logging of tokens in volume attributes";

/// Go's CSI driver strategy: a delete answers with the deleted driver, no generation is
/// kept, and a driver given token requests without `serviceAccountTokenInSecrets` is
/// warned about.
#[derive(Clone, Copy, Debug)]
pub struct CsiDriverStrategy;

/// Whether `new` asks for tokens, `old`'s requests (if any) changed, and it does not say
/// where they go.
fn tokens_unplaced(new: &Value, old: Option<&Value>) -> bool {
    let requests = new.pointer("/spec/tokenRequests");
    requests
        .and_then(Value::as_array)
        .is_some_and(|r| !r.is_empty())
        && old.is_none_or(|old| old.pointer("/spec/tokenRequests") != requests)
        && new
            .pointer("/spec/serviceAccountTokenInSecrets")
            .is_none_or(Value::is_null)
}

impl Strategy for CsiDriverStrategy {
    /// Go's `AllowUnconditionalUpdate` is false: an update names the version it replaces.
    fn allow_unconditional_update(&self) -> bool {
        false
    }

    fn returns_deleted_object(&self) -> bool {
        true
    }

    fn tracks_generation(&self) -> bool {
        false
    }

    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        match to_json(obj) {
            Ok(new) if tokens_unplaced(&new, None) => vec![TOKENS_IN_SECRETS_RECOMMENDED.into()],
            _ => Vec::new(),
        }
    }

    fn warnings_on_update(&self, obj: &dyn Object, old: &dyn Object) -> Vec<String> {
        match (to_json(obj), to_json(old)) {
            (Ok(new), Ok(old)) if tokens_unplaced(&new, Some(&old)) => {
                vec![TOKENS_IN_SECRETS_RECOMMENDED.into()]
            }
            _ => Vec::new(),
        }
    }
}

/// The CSIDrivers' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(info, CsiDriverStrategy, Arc::new(CSI_DRIVER_TABLE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn token_requests_without_a_place_for_the_tokens_are_warned_about() {
        let driver = |spec: Value| json!({"spec": spec});
        let tokens = json!({"tokenRequests": [{"audience": "a"}]});
        assert!(tokens_unplaced(&driver(tokens.clone()), None));
        assert!(!tokens_unplaced(
            &driver(tokens.clone()),
            Some(&driver(tokens.clone()))
        ));
        assert!(tokens_unplaced(&driver(tokens), Some(&driver(json!({})))));
        let placed =
            json!({"tokenRequests": [{"audience": "a"}], "serviceAccountTokenInSecrets": false});
        assert!(!tokens_unplaced(&driver(placed), None));
        assert!(!tokens_unplaced(
            &driver(json!({"tokenRequests": []})),
            None
        ));
    }

    /// Go's `TestPrintCSIDriver` cases.
    #[test]
    fn drivers_print_their_flags_tokens_and_modes() {
        let bare = json!({"metadata": {"name": "driver1"}, "spec": {}});
        assert_eq!(
            print_csi_driver(&bare).cells[..7],
            [
                json!("driver1"),
                json!(true),
                json!(false),
                json!(false),
                json!("<unset>"),
                json!(false),
                json!("<none>")
            ]
        );
        let full = json!({"metadata": {"name": "driver2"}, "spec": {"attachRequired": false,
            "podInfoOnMount": true, "storageCapacity": true, "requiresRepublish": true,
            "tokenRequests": [{"audience": "a"}, {"audience": "b", "expirationSeconds": 600}],
            "volumeLifecycleModes": ["Persistent", "Ephemeral"]}});
        assert_eq!(
            print_csi_driver(&full).cells[1..7],
            [
                json!(false),
                json!(true),
                json!(true),
                json!("a,b"),
                json!(true),
                json!("Persistent,Ephemeral")
            ]
        );
        let empty_tokens = json!({"metadata": {"name": "d"}, "spec": {"tokenRequests": []}});
        assert_eq!(print_csi_driver(&empty_tokens).cells[4], json!(""));
    }
}
