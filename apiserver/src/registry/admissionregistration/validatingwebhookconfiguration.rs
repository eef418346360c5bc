//! ValidatingWebhookConfigurations (Go's
//! `pkg/registry/admissionregistration/validatingwebhookconfiguration/strategy.go`): a
//! strategy keeping a generation of the webhooks, refusing or warning about reserved
//! names ([`super::reserved_names`]) and warning about rules naming resources webhooks
//! never see, and the table `kubectl get validatingwebhookconfigurations` prints (Go's
//! `printValidatingWebhook`: how many webhooks); MutatingWebhookConfigurations have the
//! same strategy, columns and row.

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

use super::reserved_names;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, items, string_column, text,
};
use crate::registry::strategy::{Strategy, Subresource, prepare_for_update};
use crate::registry::{ResourceInfo, to_json};

/// Go's strategies of webhook configurations: `metadata.generation` is 1 on create and
/// grows with each update changing the webhooks (the kinds have no spec); reserved names
/// refused on create (1.37) or warned about; and, on Kubernetes 1.37 (its
/// ExcludeAdmissionWebhookVirtualResources feature, beta and on), warnings about rules
/// naming a resource admission webhooks are never called for.
#[derive(Clone, Copy, Debug, Default)]
pub struct WebhookConfigurationStrategy;

/// The resources no admission webhook is called for, as `(group, resource)` (Go's
/// `exclusion.Excluded()`, `pkg/kubeapiserver/admission/exclusion`): the reviews, which
/// are never stored.
pub const EXCLUDED_RESOURCES: [(&str, &str); 6] = [
    ("authentication.k8s.io", "selfsubjectreviews"),
    ("authentication.k8s.io", "tokenreviews"),
    ("authorization.k8s.io", "localsubjectaccessreviews"),
    ("authorization.k8s.io", "selfsubjectaccessreviews"),
    ("authorization.k8s.io", "selfsubjectrulesreviews"),
    ("authorization.k8s.io", "subjectaccessreviews"),
];

/// Go's `WarningsForValidatingWebhookRules` and `WarningsForMutatingWebhookRules`: one
/// warning per excluded resource each rule names explicitly (by its group and resource,
/// in the rule's order, once each; a rule with a `*` group or resource names none), for
/// `config`, a webhook configuration's JSON. None on 1.36.
pub fn excluded_rule_warnings(config: &Value) -> Vec<String> {
    let mut warnings = Vec::new();
    if !cfg!(feature = "v1_37") {
        return warnings;
    }
    let strings = |v: &Value, key: &str| -> Vec<String> {
        items(v, key)
            .iter()
            .filter_map(|s| s.as_str().map(str::to_owned))
            .collect()
    };
    for (i, webhook) in items(config, "/webhooks").iter().enumerate() {
        for (j, rule) in items(webhook, "/rules").iter().enumerate() {
            let (groups, resources) = (strings(rule, "/apiGroups"), strings(rule, "/resources"));
            if groups.iter().chain(&resources).any(|s| s == "*") {
                continue;
            }
            let mut named: Vec<(&str, &str)> = Vec::new();
            for group in &groups {
                for resource in &resources {
                    let excluded = EXCLUDED_RESOURCES
                        .iter()
                        .find(|(g, r)| g == group && r == resource);
                    if let Some(&gr) = excluded {
                        if !named.contains(&gr) {
                            named.push(gr);
                        }
                    }
                }
            }
            for (group, resource) in named {
                warnings.push(format!(
                    "webhooks[{i}].rules[{j}]: {resource}.{group} is excluded from admission webhooks; this rule will have no effect"
                ));
            }
        }
    }
    warnings
}

/// [`excluded_rule_warnings`] of `obj`.
fn rule_warnings(obj: &dyn Object) -> Vec<String> {
    to_json(obj)
        .map(|v| excluded_rule_warnings(&v))
        .unwrap_or_default()
}

impl Strategy for WebhookConfigurationStrategy {
    /// Go's webhook configuration strategies update only at the `resourceVersion`
    /// an update names.
    fn allow_unconditional_update(&self) -> bool {
        false
    }

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

    fn validate(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: &dyn Object,
        old: Option<&dyn Object>,
        subresource: Subresource,
    ) -> Result<(), StatusError> {
        reserved_names::validate(self, scheme, info, obj, old, subresource)
    }

    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        let mut warnings = reserved_names::warnings_on_create(obj);
        warnings.extend(rule_warnings(obj));
        warnings
    }

    fn warnings_on_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        let mut warnings = reserved_names::warnings(obj);
        warnings.extend(rule_warnings(obj));
        warnings
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

    /// Go's `WarningsForValidatingWebhookRules` (1.37): explicit names only, once each,
    /// in the rule's order; wildcards and other resources are not warned about.
    #[test]
    fn rules_naming_excluded_resources_are_warned_about() {
        let config = json!({"webhooks": [
            {"rules": [{"apiGroups": ["apps"], "resources": ["deployments"]}]},
            {"rules": [
                {"apiGroups": ["*"], "resources": ["tokenreviews"]},
                {"apiGroups": ["authorization.k8s.io", "authentication.k8s.io"],
                    "resources": ["subjectaccessreviews", "tokenreviews", "subjectaccessreviews"]},
                {"apiGroups": ["authentication.k8s.io"], "resources": ["*"]}]}]});
        let want: Vec<String> = if cfg!(feature = "v1_37") {
            vec![
                "webhooks[1].rules[1]: subjectaccessreviews.authorization.k8s.io is excluded from admission webhooks; this rule will have no effect".into(),
                "webhooks[1].rules[1]: tokenreviews.authentication.k8s.io is excluded from admission webhooks; this rule will have no effect".into(),
            ]
        } else {
            Vec::new()
        };
        assert_eq!(excluded_rule_warnings(&config), want);
        assert!(excluded_rule_warnings(&json!({"webhooks": [{}]})).is_empty());
    }

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
