//! StorageVersionMigrations (`storagemigration.k8s.io`: `v1`, served by default, from
//! Kubernetes 1.37, and `v1beta1`, which is not; Go's
//! `pkg/registry/storagemigration/storagemigration/strategy.go`): the generic strategy
//! (an update names the version it replaces), and the table `kubectl get storageversionmigrations` prints (Go's
//! `printStorageVersionMigration`: no age, and a name column without the `name` format).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, Column, PLAIN_NAME, Printer, Row, string_column};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

/// Go's `storageVersionMigrationColumnDefinitions`.
pub const COLUMNS: [Column; 3] = [
    PLAIN_NAME,
    string_column("Resource", "GroupResource to migrate", 0),
    string_column("Status", "Status of the migration", 0),
];

/// The StorageVersionMigrations' table convertor.
pub static STORAGE_VERSION_MIGRATION_TABLE: Printer = Printer {
    #[cfg(feature = "v1_37")]
    api_version: "storagemigration.k8s.io/v1",
    #[cfg(not(feature = "v1_37"))]
    api_version: "storagemigration.k8s.io/v1beta1",
    kind: "StorageVersionMigration",
    columns: &COLUMNS,
    print: print_storage_version_migration,
};

/// Go's `printStorageVersionMigration`: name, the resource (`<resource>.<group>`, the
/// resource alone for the core group), and the type of the last true `Running`,
/// `Succeeded` or `Failed` condition (`Unknown` for none).
pub fn print_storage_version_migration(obj: &Value) -> Row {
    let resource = printers::text(obj, "/spec/resource/resource");
    let group = printers::text(obj, "/spec/resource/group");
    let migrating = if group.is_empty() {
        resource.to_owned()
    } else {
        format!("{resource}.{group}")
    };
    let status = printers::items(obj, "/status/conditions")
        .iter()
        .rev()
        .filter(|c| printers::text(c, "/status") == "True")
        .map(|c| printers::text(c, "/type"))
        .find(|t| matches!(*t, "Running" | "Succeeded" | "Failed"))
        .unwrap_or("Unknown");
    Row::from(vec![
        Value::from(printers::text(obj, "/metadata/name")),
        Value::from(migrating),
        Value::from(status),
    ])
}

/// The StorageVersionMigrations' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        GenericStrategy::default()
            .without_generation()
            .requiring_resource_version(),
        Arc::new(STORAGE_VERSION_MIGRATION_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_row_has_the_resource_and_the_last_true_state() {
        // Modelled on Go's TestPrintStorageVersionMigration.
        let mut migration = json!({"metadata": {"name": "m"},
            "spec": {"resource": {"group": "apps", "resource": "deployments"}}});
        assert_eq!(
            print_storage_version_migration(&migration).cells,
            ["m", "deployments.apps", "Unknown"]
        );
        migration["spec"]["resource"] = json!({"group": "", "resource": "secrets"});
        migration["status"] = json!({"conditions": [
            {"type": "Running", "status": "True"},
            {"type": "Succeeded", "status": "True"},
            {"type": "Failed", "status": "False"}]});
        assert_eq!(
            print_storage_version_migration(&migration).cells,
            ["m", "secrets", "Succeeded"]
        );
    }
}
