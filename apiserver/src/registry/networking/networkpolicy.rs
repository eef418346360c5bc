//! NetworkPolicies (Go's `pkg/registry/networking/networkpolicy`): the generic
//! strategy with Go's warnings of ambiguous or non-standard CIDRs, and the table
//! `kubectl get networkpolicies` prints (Go's `printNetworkPolicy`).

use apimachinery::runtime::Object;
use apimachinery::util::validation::field::Path;
use apimachinery::util::validation::ip::get_warnings_for_cidr;
use serde_json::Value;

use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, items, string_column, text,
};
use crate::registry::strategy::Strategy;
use crate::registry::to_json;

/// Go's NetworkPolicy strategy: generic, with warnings.
#[derive(Clone, Copy, Debug, Default)]
pub struct NetworkPolicyStrategy;

impl Strategy for NetworkPolicyStrategy {
    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        to_json(obj)
            .map(|p| network_policy_warnings(&p))
            .unwrap_or_default()
    }

    fn warnings_on_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        self.warnings_on_create(obj)
    }
}

/// Go's `networkPolicyWarnings`: the `ipBlock` CIDRs (and their exceptions) of every
/// ingress and egress peer that are ambiguous or in a non-standard form.
pub fn network_policy_warnings(policy: &Value) -> Vec<String> {
    let mut warnings = Vec::new();
    for (rules, peers) in [("ingress", "from"), ("egress", "to")] {
        let spec = Path::new("spec");
        let rules_path = spec.child(rules);
        for (i, rule) in items(policy, &format!("/spec/{rules}")).iter().enumerate() {
            let rule_path = rules_path.index(i);
            let peers_path = rule_path.child(peers);
            for (j, peer) in items(rule, &format!("/{peers}")).iter().enumerate() {
                let Some(block) = peer.get("ipBlock").filter(|b| !b.is_null()) else {
                    continue;
                };
                let peer_path = peers_path.index(j);
                let path = peer_path.child("ipBlock");
                warnings.extend(get_warnings_for_cidr(
                    &path.child("cidr"),
                    text(block, "/cidr"),
                ));
                let except = path.child("except");
                for (k, cidr) in items(block, "/except").iter().enumerate() {
                    let cidr = cidr.as_str().unwrap_or_default();
                    warnings.extend(get_warnings_for_cidr(&except.index(k), cidr));
                }
            }
        }
    }
    warnings
}

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

    #[test]
    fn ambiguous_cidrs_of_peers_are_warned_about() {
        let policy = serde_json::json!({"spec": {
            "ingress": [{"from": [{"podSelector": {}}, {"ipBlock": {"cidr": "10.0.0.1/8", "except": ["10.1.0.0/16", "10.02.0.0/16"]}}]}],
            "egress": [{"to": [{"ipBlock": {"cidr": "2001:db8:0::/64"}}]}]}});
        assert_eq!(
            network_policy_warnings(&policy),
            [
                "spec.ingress[0].from[1].ipBlock.cidr: CIDR value \"10.0.0.1/8\" is ambiguous in this context (should be \"10.0.0.0/8\" or \"10.0.0.1/32\"?)",
                "spec.ingress[0].from[1].ipBlock.except[1]: non-standard CIDR value \"10.02.0.0/16\" is invalid: use \"10.2.0.0/16\"",
                "spec.egress[0].to[0].ipBlock.cidr: IPv6 CIDR value \"2001:db8:0::/64\" should be in RFC 5952 canonical format (\"2001:db8::/64\")",
            ]
        );
    }
}
