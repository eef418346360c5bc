//! ValidatingWebhookConfigurations (Go's
//! `pkg/registry/admissionregistration/validatingwebhookconfiguration`): a strategy
//! keeping a generation of the webhooks, and the table `kubectl get
//! validatingwebhookconfigurations` prints (Go's `printValidatingWebhook`: how many
//! webhooks); MutatingWebhookConfigurations have the same strategy, columns and row.

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, items, string_column, text,
};
use crate::registry::strategy::{Strategy, Subresource, prepare_for_update};
use crate::registry::{ResourceInfo, to_json};

/// Go's strategies of webhook configurations: `metadata.generation` is 1 on create and
/// grows with each update changing the webhooks (the kinds have no spec).
#[derive(Clone, Copy, Debug, Default)]
pub struct WebhookConfigurationStrategy;

impl Strategy for WebhookConfigurationStrategy {
    fn prepare_for_create(
        &self,
        _scheme: &Scheme,
        _info: &ResourceInfo,
        mut obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        if let Some(meta) = obj.meta_mut() {
            meta.set_generation(1);
        }
        Ok(obj)
    }

    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let changed = to_json(old)?.get("webhooks") != to_json(&*new)?.get("webhooks");
        let mut new = prepare_for_update(scheme, info, old, new, subresource, |_, _, _| false)?;
        if changed && let (Some(old), Some(meta)) = (old.meta(), new.meta_mut()) {
            meta.set_generation(old.generation() + 1);
        }
        Ok(new)
    }
}

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
