//! Go's `DefaultTolerationSeconds` admission plugin
//! (`plugin/pkg/admission/defaulttolerationseconds`): a new Pod that does not tolerate
//! the `node.kubernetes.io/not-ready` and `node.kubernetes.io/unreachable` NoExecute
//! taints gets tolerations of them for 300 seconds, so that it is evicted from a lost
//! node five minutes later rather than at once.

use apimachinery::api::errors::StatusError;
use async_trait::async_trait;
use serde_json::{Value, json};

use super::super::{Attributes, MutationInterface, Operation};
use super::pods::change_created_pod_spec;

/// Go's default `--default-not-ready-toleration-seconds` and
/// `--default-unreachable-toleration-seconds`.
pub const DEFAULT_TOLERATION_SECONDS: i64 = 300;

const TAINTS: [&str; 2] = [
    "node.kubernetes.io/not-ready",
    "node.kubernetes.io/unreachable",
];

/// The plugin.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultTolerationSeconds;

/// Whether `toleration` tolerates the NoExecute taint `key` (an empty key or effect
/// matches any, as Go's check has it).
fn tolerates(toleration: &Value, key: &str) -> bool {
    let field = |f: &str| toleration.get(f).and_then(Value::as_str).unwrap_or("");
    (field("key") == key || field("key").is_empty())
        && (field("effect") == "NoExecute" || field("effect").is_empty())
}

#[async_trait]
impl MutationInterface for DefaultTolerationSeconds {
    fn handles(&self, operation: Operation) -> bool {
        operation == Operation::Create
    }

    async fn admit(&self, attributes: &mut Attributes) -> Result<(), StatusError> {
        change_created_pod_spec(attributes, |spec| {
            let mut tolerations = spec
                .get("tolerations")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let missing: Vec<Value> = TAINTS
                .iter()
                .filter(|key| !tolerations.iter().any(|t| tolerates(t, key)))
                .map(|key| {
                    json!({"key": key, "operator": "Exists", "effect": "NoExecute",
                        "tolerationSeconds": DEFAULT_TOLERATION_SECONDS})
                })
                .collect();
            if missing.is_empty() {
                return false;
            }
            tolerations.extend(missing);
            spec.insert("tolerations".into(), Value::from(tolerations));
            true
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toleration_of_any_key_or_effect_counts() {
        assert!(tolerates(&json!({"operator": "Exists"}), TAINTS[0]));
        assert!(tolerates(
            &json!({"key": TAINTS[1], "effect": "NoExecute"}),
            TAINTS[1]
        ));
        assert!(!tolerates(
            &json!({"key": TAINTS[1], "effect": "NoSchedule"}),
            TAINTS[1]
        ));
        assert!(!tolerates(&json!({"key": "other"}), TAINTS[0]));
    }
}
