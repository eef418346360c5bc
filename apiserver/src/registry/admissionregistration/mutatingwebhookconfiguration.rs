//! MutatingWebhookConfigurations (Go's
//! `pkg/registry/admissionregistration/mutatingwebhookconfiguration/strategy.go`): the
//! strategy of validating configurations
//! ([`WebhookConfigurationStrategy`](super::validatingwebhookconfiguration::WebhookConfigurationStrategy)),
//! and the table `kubectl get mutatingwebhookconfigurations` prints (Go's
//! `printMutatingWebhook`, a validating configuration's row).

use crate::registry::printers::Printer;

use super::validatingwebhookconfiguration::{COLUMNS, print_webhook_configuration};

/// The MutatingWebhookConfigurations' table convertor.
pub static TABLE: Printer = Printer {
    api_version: "admissionregistration.k8s.io/v1",
    kind: "MutatingWebhookConfiguration",
    columns: &COLUMNS,
    print: print_webhook_configuration,
};
