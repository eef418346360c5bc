//! Secrets (Go's `pkg/registry/core/secret`): selectable by their `type`, warned of when
//! a TLS Secret's certificate and key do not form a pair, and the table `kubectl get
//! secrets` prints (Go's `printSecret`).

mod key_pair;

use std::sync::Arc;

use apimachinery::runtime::Object;
use base64::Engine;
use serde_json::Value;

use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column, text};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{SelectableField, Strategy};
use crate::registry::{ResourceInfo, to_json};

/// Go's secret strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct SecretStrategy;

impl Strategy for SecretStrategy {
    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("type", "/type")]
    }

    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        to_json(obj)
            .map(|s| secret_warnings(&s))
            .unwrap_or_default()
    }

    fn warnings_on_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        self.warnings_on_create(obj)
    }
}

/// Go's `warningsForSecret`: a `kubernetes.io/tls` Secret whose `tls.crt` and `tls.key`
/// are not a key pair is warned of with `crypto/tls`'s reason (a key missing is an empty
/// one, as Go's map lookup gives it).
pub fn secret_warnings(secret: &Value) -> Vec<String> {
    if secret.get("type").and_then(Value::as_str) != Some("kubernetes.io/tls") {
        return Vec::new();
    }
    let data = |key: &str| -> Vec<u8> {
        secret
            .get("data")
            .and_then(|d| d.get(key))
            .and_then(Value::as_str)
            .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
            .unwrap_or_default()
    };
    key_pair::x509_key_pair_error(&data("tls.crt"), &data("tls.key"))
        .into_iter()
        .collect()
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
