//! ValidatingWebhookConfigurations (Go's
//! `pkg/registry/admissionregistration/validatingwebhookconfiguration`): the generic
//! strategy, and the table `kubectl get validatingwebhookconfigurations` prints (Go's
//! `printValidatingWebhook`: how many webhooks), whose columns and row
//! MutatingWebhookConfigurations print too.

use serde_json::Value;

use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, items, string_column, text,
};

/// Go's `validatingWebhookColumnDefinitions` (and `mutatingWebhookColumnDefinitions`).
pub const COLUMNS: [Column; 3] = [
    NAME,
    Column {
        type_: "integer",
        ..string_column(
            "Webhooks",
            "Webhooks indicates the number of webhooks registered in this configuration",
            0,
        )
    },
    AGE,
];

/// The ValidatingWebhookConfigurations' table convertor.
pub static TABLE: Printer = Printer {
    api_version: "admissionregistration.k8s.io/v1",
    kind: "ValidatingWebhookConfiguration",
    columns: &COLUMNS,
    print: print_webhook_configuration,
};

/// Go's `printValidatingWebhook` and `printMutatingWebhook`: name, the number of
/// webhooks, age.
pub fn print_webhook_configuration(obj: &Value) -> Row {
    let webhooks = i64::try_from(items(obj, "/webhooks").len()).unwrap_or(i64::MAX);
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(webhooks),
        printers::age(obj),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn configurations_print_how_many_webhooks_they_have() {
        let config = json!({"metadata": {"name": "w"}, "webhooks": [{"name": "a.example.com"},
            {"name": "b.example.com"}]});
        assert_eq!(
            print_webhook_configuration(&config).cells[..2],
            [json!("w"), json!(2)]
        );
        let none = json!({"metadata": {"name": "w"}});
        assert_eq!(print_webhook_configuration(&none).cells[1], json!(0));
    }
}
