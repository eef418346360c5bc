//! ClusterTrustBundles (Go's `pkg/registry/certificates/clustertrustbundle`): the
//! generic strategy, and the table `kubectl get clustertrustbundles` prints (Go's
//! `printClusterTrustBundle`: name and signer, no age).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{Column, NAME, Printer, Row, string_column, text};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

/// Go's `clusterTrustBundleColumnDefinitions`.
pub const COLUMNS: [Column; 2] = [
    NAME,
    string_column(
        "SignerName",
        "signerName indicates the associated signer, if any.\n\nIn order to create or update a ClusterTrustBundle that sets signerName, you must have the following cluster-scoped permission: group=certificates.k8s.io resource=signers resourceName=<the signer name> verb=attest.\n\nIf signerName is not empty, then the ClusterTrustBundle object must be named with the signer name as a prefix (translating slashes to colons). For example, for the signer name `example.com/foo`, valid ClusterTrustBundle object names include `example.com:foo:abc` and `example.com:foo:v1`.\n\nIf signerName is empty, then the ClusterTrustBundle object's name must not have such a prefix.\n\nList/watch requests for ClusterTrustBundles can filter on this field using a `spec.signerName=NAME` field selector.",
        0,
    ),
];

/// The ClusterTrustBundles' table convertor.
pub static CLUSTER_TRUST_BUNDLE_TABLE: Printer = Printer {
    #[cfg(feature = "v1_37")]
    api_version: "certificates.k8s.io/v1",
    #[cfg(not(feature = "v1_37"))]
    api_version: "certificates.k8s.io/v1beta1",
    kind: "ClusterTrustBundle",
    columns: &COLUMNS,
    print: print_cluster_trust_bundle,
};

/// Go's `printClusterTrustBundle`: name, signer (`<none>` unset).
pub fn print_cluster_trust_bundle(obj: &Value) -> Row {
    let signer = match text(obj, "/spec/signerName") {
        "" => "<none>",
        name => name,
    };
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(signer),
    ])
}

/// The ClusterTrustBundles' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        // Go's strategy sets no generation and updates only at a named resourceVersion.
        GenericStrategy::default()
            .without_generation()
            .requiring_resource_version(),
        Arc::new(CLUSTER_TRUST_BUNDLE_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintClusterTrustBundle` cases.
    #[test]
    fn bundles_print_their_signer() {
        let signed = json!({"metadata": {"name": "example.com:foo:abc"},
            "spec": {"signerName": "example.com/foo", "trustBundle": "..."}});
        assert_eq!(
            print_cluster_trust_bundle(&signed).cells,
            [json!("example.com:foo:abc"), json!("example.com/foo")]
        );
        let unsigned = json!({"metadata": {"name": "ctb1"}, "spec": {"trustBundle": "..."}});
        assert_eq!(
            print_cluster_trust_bundle(&unsigned).cells,
            [json!("ctb1"), json!("<none>")]
        );
    }
}
