//! StorageVersions (`internal.apiserver.k8s.io/v1alpha1`, not served by default; Go's
//! `pkg/registry/apiserverinternal/storageversion`): the generic strategy, and the table
//! `kubectl get storageversions` prints (Go's `printStorageVersion`).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

/// Go's `storageVersionColumnDefinitions`.
pub const COLUMNS: [Column; 4] = [
    NAME,
    string_column(
        "CommonEncodingVersion",
        "commonEncodingVersion is set to an encoding storage version if all API server instances share that same version. If they don't share one storage version, this field is left empty. API servers should finish updating its storageVersionStatus entry before serving write operations, so that this field will be in sync with the reality.",
        0,
    ),
    string_column(
        "StorageVersions",
        "storageVersions lists the reported versions per API server instance.",
        0,
    ),
    AGE,
];

/// The StorageVersions' table convertor.
pub static STORAGE_VERSION_TABLE: Printer = Printer {
    api_version: "internal.apiserver.k8s.io/v1alpha1",
    kind: "StorageVersion",
    columns: &COLUMNS,
    print: print_storage_version,
};

/// How many servers' versions the StorageVersions cell names before `+ N more...`.
const SHOWN: usize = 3;

/// Go's `printStorageVersion`: name, the common encoding version (`<unset>` when the
/// servers disagree), each server's `<id>=<encoding version>` (the first three, then how
/// many more; `<unset>` for none), age.
pub fn print_storage_version(obj: &Value) -> Row {
    let common = match obj.pointer("/status/commonEncodingVersion") {
        Some(Value::String(v)) => v.as_str(),
        _ => "<unset>",
    };
    let versions = printers::items(obj, "/status/storageVersions");
    let mut shown = versions
        .iter()
        .take(SHOWN)
        .map(|v| {
            format!(
                "{}={}",
                printers::text(v, "/apiServerID"),
                printers::text(v, "/encodingVersion")
            )
        })
        .collect::<Vec<_>>()
        .join(",");
    if versions.len() > SHOWN {
        shown = format!("{shown} + {} more...", versions.len() - SHOWN);
    } else if shown.is_empty() {
        shown = "<unset>".to_owned();
    }
    Row::from(vec![
        Value::from(printers::text(obj, "/metadata/name")),
        Value::from(common),
        Value::from(shown),
        printers::age(obj),
    ])
}

/// The StorageVersions' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        // Go's strategy sets no generation and updates only at a named resourceVersion.
        GenericStrategy::default()
            .without_generation()
            .requiring_resource_version(),
        Arc::new(STORAGE_VERSION_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cells(status: Value) -> Vec<Value> {
        let mut cells = print_storage_version(&json!({"metadata": {"name": "sv"},
            "status": status}))
        .cells;
        cells.pop();
        cells
    }

    fn server(id: &str, version: &str) -> Value {
        json!({"apiServerID": id, "encodingVersion": version, "decodableVersions": [version]})
    }

    #[test]
    fn the_row_names_the_servers_versions() {
        // Go's TestPrintStorageVersion cases.
        assert_eq!(cells(json!({})), ["sv", "<unset>", "<unset>"]);
        let agree = json!({"commonEncodingVersion": "v1",
            "storageVersions": [server("1", "v1"), server("2", "v1")]});
        assert_eq!(cells(agree), ["sv", "v1", "1=v1,2=v1"]);
        let disagree = json!({"storageVersions":
            [server("1", "v1"), server("2", "v1"), server("3", "v2")]});
        assert_eq!(cells(disagree), ["sv", "<unset>", "1=v1,2=v1,3=v2"]);
        let more = json!({"commonEncodingVersion": "v1", "storageVersions":
            [server("1", "v1"), server("2", "v1"), server("3", "v1"), server("4", "v1")]});
        assert_eq!(cells(more), ["sv", "v1", "1=v1,2=v1,3=v1 + 1 more..."]);
    }
}
