//! Secrets (Go's `pkg/registry/core/secret`): selectable by their `type`, and the table
//! `kubectl get secrets` prints (Go's `printSecret`).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column, text};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{SelectableField, Strategy};

/// Go's secret strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct SecretStrategy;

impl Strategy for SecretStrategy {
    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("type", "/type")]
    }
}

/// Go's `secretColumnDefinitions`.
pub const COLUMNS: [Column; 4] = [
    NAME,
    string_column(
        "Type",
        "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types",
        0,
    ),
    string_column(
        "Data",
        "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
        0,
    ),
    AGE,
];

/// The Secrets' table convertor.
pub static SECRET_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "Secret",
    columns: &COLUMNS,
    print: print_secret,
};

/// Go's `printSecret`: name, type, how many keys `data` has (an integer), age.
pub fn print_secret(obj: &Value) -> Row {
    let keys = obj
        .get("data")
        .and_then(Value::as_object)
        .map_or(0, |m| m.len());
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(text(obj, "/type")),
        Value::from(i64::try_from(keys).unwrap_or(i64::MAX)),
        printers::age(obj),
    ])
}

/// The Secrets' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(info, SecretStrategy, Arc::new(SECRET_TABLE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintSecret` cases: the keys of `data` counted, none as 0.
    #[test]
    fn secrets_print_their_type_and_number_of_keys() {
        let with_data = json!({"metadata": {"name": "secret1"},
            "type": "kubernetes.io/service-account-token", "data": {"token": "c2VjcmV0"}});
        assert_eq!(
            Value::from(print_secret(&with_data).cells),
            json!([
                "secret1",
                "kubernetes.io/service-account-token",
                1,
                "<unknown>"
            ])
        );
        let without = json!({"metadata": {"name": "secret1"},
            "type": "kubernetes.io/service-account-token"});
        assert_eq!(
            Value::from(print_secret(&without).cells),
            json!([
                "secret1",
                "kubernetes.io/service-account-token",
                0,
                "<unknown>"
            ])
        );
    }
}
