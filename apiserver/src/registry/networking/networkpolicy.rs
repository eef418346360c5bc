//! NetworkPolicies (Go's `pkg/registry/networking/networkpolicy`): the table
//! `kubectl get networkpolicies` prints (Go's `printNetworkPolicy`).

use serde_json::Value;

use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column, text};

/// Go's `networkPolicyColumnDefinitioins`.
pub const COLUMNS: [Column; 3] = [
    NAME,
    string_column(
        "Pod-Selector",
        "podSelector selects the pods to which this NetworkPolicy object applies. The array of rules is applied to any pods selected by this field. An empty selector matches all pods in the policy's namespace. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is optional. If it is not specified, it defaults to an empty selector.",
        0,
    ),
    AGE,
];

/// The NetworkPolicies' table convertor.
pub static NETWORK_POLICY_TABLE: Printer = Printer {
    api_version: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    columns: &COLUMNS,
    print: print_network_policy,
};

/// Go's `printNetworkPolicy`: the pod selector (`<none>` for the empty one, which Go's
/// non-pointer field always gives, selecting every pod).
pub fn print_network_policy(obj: &Value) -> Row {
    let selector = obj
        .pointer("/spec/podSelector")
        .filter(|s| !s.is_null())
        .cloned()
        .unwrap_or_else(|| Value::Object(Default::default()));
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(printers::format_label_selector(Some(&selector))),
        printers::age(obj),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn network_policies_print_as_kubectl_shows_them() {
        let policy = json!({"metadata": {"name": "deny"},
            "spec": {"podSelector": {"matchLabels": {"app": "web"}}}});
        assert_eq!(print_network_policy(&policy).cells[1], json!("app=web"));
        let all = json!({"metadata": {"name": "all"}, "spec": {}});
        assert_eq!(print_network_policy(&all).cells[1], json!("<none>"));
    }
}
