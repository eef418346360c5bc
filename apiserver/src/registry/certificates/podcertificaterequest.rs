//! PodCertificateRequests (Go's `pkg/registry/certificates/podcertificaterequest`):
//! selectable by `spec.signerName`, `spec.podName` and `spec.nodeName`, which the kubelet
//! lists its own node's requests by; the fields server-side apply leaves to the server
//! (Go's `strategy.go`); and the table `kubectl get podcertificaterequests` prints (Go's
//! `printPodCertificateRequest`).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    Column, NAME, Printer, Row, format_labels, items, string_column, text,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{SelectableField, Strategy, Subresource};

/// Go's `podCertificateRequestColumnDefinitions` (no age).
pub const COLUMNS: [Column; 7] = [
    NAME,
    string_column(
        "PodName",
        "podName is the name of the pod into which the certificate will be mounted.",
        0,
    ),
    string_column(
        "ServiceAccountName",
        "serviceAccountName is the name of the service account the pod is running as.",
        0,
    ),
    string_column(
        "NodeName",
        "nodeName is the name of the node the pod is assigned to.",
        0,
    ),
    string_column(
        "SignerName",
        "signerName indicates the requested signer.\n\nAll signer names beginning with `kubernetes.io` are reserved for use by the Kubernetes project.  There is currently one well-known signer documented by the Kubernetes project, `kubernetes.io/kube-apiserver-client-pod`, which will issue client certificates understood by kube-apiserver.  It is currently unimplemented.",
        0,
    ),
    string_column(
        "State",
        "Is the request Pending, Issued, Denied, or Failed?",
        0,
    ),
    string_column(
        "UnverifiedUserAnnotations",
        "unverifiedUserAnnotations allow pod authors to pass additional information to the signer implementation.  Kubernetes does not restrict or validate this metadata in any way.\n\nEntries are subject to the same validation as object metadata annotations, with the addition that all keys must be domain-prefixed. No restrictions are placed on values, except an overall size limitation on the entire field.\n\nSigners should document the keys and values they support.  Signers should deny requests that contain keys they do not recognize.",
        0,
    ),
];

/// The PodCertificateRequests' table convertor.
pub static POD_CERTIFICATE_REQUEST_TABLE: Printer = Printer {
    #[cfg(feature = "v1_37")]
    api_version: "certificates.k8s.io/v1",
    #[cfg(not(feature = "v1_37"))]
    api_version: "certificates.k8s.io/v1beta1",
    kind: "PodCertificateRequest",
    columns: &COLUMNS,
    print: print_pod_certificate_request,
};

/// Go's `printPodCertificateRequest`: name, pod, service account, node, signer, the
/// state (the last of the `Issued`, `Denied` and `Failed` conditions, else `Pending`),
/// and the unverified user annotations as labels are printed.
pub fn print_pod_certificate_request(obj: &Value) -> Row {
    let state = items(obj, "/status/conditions")
        .iter()
        .rev()
        .find_map(|c| match text(c, "/type") {
            t @ ("Issued" | "Denied" | "Failed") => Some(t),
            _ => None,
        })
        .unwrap_or("Pending");
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(text(obj, "/spec/podName")),
        Value::from(text(obj, "/spec/serviceAccountName")),
        Value::from(text(obj, "/spec/nodeName")),
        Value::from(text(obj, "/spec/signerName")),
        Value::from(state),
        Value::from(format_labels(
            obj.pointer("/spec/unverifiedUserAnnotations"),
        )),
    ])
}

/// Go's pod certificate request strategy, as far as selection goes.
#[derive(Clone, Copy, Debug, Default)]
pub struct PodCertificateRequestStrategy;

impl Strategy for PodCertificateRequestStrategy {
    /// Go's strategy updates only at the `resourceVersion` an update names.
    fn allow_unconditional_update(&self) -> bool {
        false
    }

    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[
            ("spec.signerName", "/spec/signerName"),
            ("spec.podName", "/spec/podName"),
            ("spec.nodeName", "/spec/nodeName"),
        ]
    }

    /// Go's pod certificate request strategy keeps no generation.
    fn tracks_generation(&self) -> bool {
        false
    }

    /// Go's `GetResetFields`. Kubernetes 1.37: the status on the object, and on
    /// `/status` the spec (and the metadata, the store's `/status` rule); 1.36's
    /// strategy has none on the object, and the spec on `/status`.
    fn reset_fields(
        &self,
        _info: &ResourceInfo,
        subresource: Subresource,
    ) -> &'static [&'static str] {
        match (subresource, cfg!(feature = "v1_37")) {
            (Subresource::Status, _) => &["spec"],
            (
                Subresource::Main
                | Subresource::Finalize
                | Subresource::Resize
                | Subresource::EphemeralContainers
                | Subresource::Approval,
                true,
            ) => &["status"],
            (
                Subresource::Main
                | Subresource::Finalize
                | Subresource::Resize
                | Subresource::EphemeralContainers
                | Subresource::Approval,
                false,
            ) => &[],
        }
    }
}

/// The PodCertificateRequests' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        PodCertificateRequestStrategy,
        Arc::new(POD_CERTIFICATE_REQUEST_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::core::pod::template::tests as template_tests;
    use serde_json::json;

    /// An apply to the object owns no status (1.37; 1.36 has no reset fields there), one
    /// to `/status` not the spec (the metadata, 1.37, is the store's rule).
    #[test]
    fn apply_leaves_what_each_write_cannot_change_unowned() {
        let scheme = template_tests::scheme();
        let info = template_tests::info(&scheme, "certificates.k8s.io", "podcertificaterequests");
        let s = PodCertificateRequestStrategy;
        let main: &[&str] = if cfg!(feature = "v1_37") {
            &["status"]
        } else {
            &[]
        };
        assert_eq!(s.reset_fields(&info, Subresource::Main), main);
        assert_eq!(s.reset_fields(&info, Subresource::Status), ["spec"]);
    }

    /// Go's `TestPrintPodCertificateRequest` cases, wide.
    #[test]
    fn requests_print_their_pod_signer_and_state() {
        let mut pcr = json!({"metadata": {"name": "pcr1"}, "spec": {"podName": "foo",
            "serviceAccountName": "default", "nodeName": "node1",
            "signerName": "example.com/signer"}});
        assert_eq!(
            print_pod_certificate_request(&pcr).cells,
            [
                json!("pcr1"),
                json!("foo"),
                json!("default"),
                json!("node1"),
                json!("example.com/signer"),
                json!("Pending"),
                json!("<none>")
            ]
        );
        pcr["status"] = json!({"conditions": [{"type": "Other"}, {"type": "Issued"}]});
        pcr["spec"]["unverifiedUserAnnotations"] =
            json!({"b.example.com/y": "2", "a.example.com/x": "1"});
        let cells = print_pod_certificate_request(&pcr).cells;
        assert_eq!(
            cells[5..],
            [
                json!("Issued"),
                json!("a.example.com/x=1,b.example.com/y=2")
            ]
        );
        pcr["status"] = json!({"conditions": [{"type": "Denied"}]});
        assert_eq!(
            print_pod_certificate_request(&pcr).cells[5],
            json!("Denied")
        );
    }
}
