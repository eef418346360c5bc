//! The webhooks of `admissionregistration.k8s.io/v1` `MutatingWebhookConfiguration` and
//! `ValidatingWebhookConfiguration` objects, read from their JSON with v1's defaults.

use apimachinery::apis::meta::v1::LabelSelector;
use serde::{Deserialize, Deserializer};

/// `null` reads as the zero value, as Go's decoder leaves such a field untouched.
fn null_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// One configuration object: its webhooks, in order.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WebhookConfiguration {
    /// The webhooks.
    #[serde(deserialize_with = "null_default")]
    pub webhooks: Vec<Webhook>,
}

/// One webhook (Go's `MutatingWebhook` and `ValidatingWebhook`; `reinvocation_policy`
/// only in the former).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Webhook {
    /// The webhook's name, unique in its configuration; refusals name it.
    #[serde(deserialize_with = "null_default")]
    pub name: String,
    /// Where it is called.
    #[serde(deserialize_with = "null_default")]
    pub client_config: ClientConfig,
    /// Which requests it is called for.
    #[serde(deserialize_with = "null_default")]
    pub rules: Vec<RuleWithOperations>,
    /// `Fail` (the default) or `Ignore`: what a failed call means.
    pub failure_policy: Option<String>,
    /// `Equivalent` (the default) or `Exact`.
    pub match_policy: Option<String>,
    /// Which namespaces' objects it is called for (all when absent).
    pub namespace_selector: Option<LabelSelector>,
    /// Which objects, by their labels, it is called for (all when absent).
    pub object_selector: Option<LabelSelector>,
    /// `None` or `NoneOnDryRun` allow dry-run requests; anything else refuses them.
    pub side_effects: Option<String>,
    /// How long a call may take, 10 seconds when absent.
    pub timeout_seconds: Option<i32>,
    /// The `AdmissionReview` versions it understands; only `v1` is spoken here.
    #[serde(deserialize_with = "null_default")]
    pub admission_review_versions: Vec<String>,
    /// `Never` (the default) or `IfNeeded`.
    pub reinvocation_policy: Option<String>,
    /// CEL conditions (not evaluated by this server: see the module docs).
    #[serde(deserialize_with = "null_default")]
    pub match_conditions: Vec<serde_json::Value>,
}

/// How the server reaches a webhook.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClientConfig {
    /// `https://host:port/path`.
    pub url: Option<String>,
    /// A Service of the cluster.
    pub service: Option<ServiceReference>,
    /// The PEM certificates the webhook's serving certificate must chain to, base64
    /// in JSON.
    pub ca_bundle: Option<String>,
}

/// A webhook Service (Go's `ServiceReference`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ServiceReference {
    /// The Service's namespace.
    #[serde(deserialize_with = "null_default")]
    pub namespace: String,
    /// The Service's name.
    #[serde(deserialize_with = "null_default")]
    pub name: String,
    /// The URL path, `/` when absent.
    pub path: Option<String>,
    /// The port, 443 when absent.
    pub port: Option<i32>,
}

/// A rule: operations and resources (Go's `RuleWithOperations`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RuleWithOperations {
    /// `CREATE`, `UPDATE`, `DELETE`, `CONNECT` or `*`.
    #[serde(deserialize_with = "null_default")]
    pub operations: Vec<String>,
    /// API groups, `*` for all.
    #[serde(deserialize_with = "null_default")]
    pub api_groups: Vec<String>,
    /// API versions, `*` for all.
    #[serde(deserialize_with = "null_default")]
    pub api_versions: Vec<String>,
    /// Resources: `pods`, `pods/status`, `pods/*`, `*`, `*/scale`, `*/*`.
    #[serde(deserialize_with = "null_default")]
    pub resources: Vec<String>,
    /// `Cluster`, `Namespaced` or `*` (the default).
    pub scope: Option<String>,
}

impl Webhook {
    /// Whether a failed call is ignored (`failurePolicy: Ignore`).
    pub fn ignores_failures(&self) -> bool {
        self.failure_policy.as_deref() == Some("Ignore")
    }

    /// The call's time limit.
    pub fn timeout(&self) -> std::time::Duration {
        let seconds = self.timeout_seconds.unwrap_or(10).clamp(1, 30);
        std::time::Duration::from_secs(u64::try_from(seconds).unwrap_or(10))
    }

    /// Whether it may be called for a dry-run request (Go: side effects `None` or
    /// `NoneOnDryRun`).
    pub fn allows_dry_run(&self) -> bool {
        matches!(
            self.side_effects.as_deref(),
            Some("None") | Some("NoneOnDryRun")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_go_json_with_nulls_and_defaults() {
        let c: WebhookConfiguration = serde_json::from_value(serde_json::json!({
            "webhooks": [{
                "name": "a.example.com",
                "clientConfig": {"url": "https://127.0.0.1:9443/mutate", "caBundle": "Zm9v"},
                "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"],
                           "resources": ["pods"], "scope": null}],
                "matchConditions": null,
                "sideEffects": "None",
                "admissionReviewVersions": ["v1"],
            }]
        }))
        .unwrap();
        let w = &c.webhooks[0];
        assert_eq!(w.name, "a.example.com");
        assert_eq!(w.rules[0].resources, ["pods"]);
        assert!(!w.ignores_failures());
        assert_eq!(w.timeout().as_secs(), 10);
        assert!(w.allows_dry_run());
        assert!(w.match_conditions.is_empty());
    }
}
