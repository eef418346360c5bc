//! Deprecated node labels (Go's `pkg/api/node/util.go`): the warnings for pod node
//! selectors, node-affinity terms and topology keys that name a label the kubelet no
//! longer sets, and for a RuntimeClass whose scheduling selector names one.

use apimachinery::util::validation::is_valid_label_value;
use serde_json::Value;

/// Go's `deprecatedNodeLabels`: each deprecated label and what to use instead.
const DEPRECATED_NODE_LABELS: [(&str, &str); 8] = [
    (
        "beta.kubernetes.io/arch",
        r#"deprecated since v1.14; use "kubernetes.io/arch" instead"#,
    ),
    (
        "beta.kubernetes.io/os",
        r#"deprecated since v1.14; use "kubernetes.io/os" instead"#,
    ),
    (
        "failure-domain.beta.kubernetes.io/region",
        r#"deprecated since v1.17; use "topology.kubernetes.io/region" instead"#,
    ),
    (
        "failure-domain.beta.kubernetes.io/zone",
        r#"deprecated since v1.17; use "topology.kubernetes.io/zone" instead"#,
    ),
    (
        "beta.kubernetes.io/instance-type",
        r#"deprecated since v1.17; use "node.kubernetes.io/instance-type" instead"#,
    ),
    ("app.kubernetes.io/created-by", "deprecated since v1.9"),
    (
        "scheduler.alpha.kubernetes.io/preferAvoidPods",
        "deprecated since v1.22; use Taints and Tolerations instead",
    ),
    (
        "node-role.kubernetes.io/master",
        r#"use "node-role.kubernetes.io/control-plane" instead"#,
    ),
];

/// Go's `GetNodeLabelDeprecatedMessage`: the message for a deprecated node label.
pub fn deprecated_message(key: &str) -> Option<&'static str> {
    DEPRECATED_NODE_LABELS
        .iter()
        .find(|(label, _)| *label == key)
        .map(|(_, msg)| *msg)
}

/// The keys of the JSON object `map` (absent or not an object: none), sorted: Go ranges
/// over such maps in random order, the warnings here come in key order.
pub fn sorted_keys(map: Option<&Value>) -> Vec<&str> {
    let mut keys: Vec<&str> = map
        .and_then(Value::as_object)
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    keys.sort_unstable();
    keys
}

/// Go's `GetWarningsForNodeSelectorTerm`: the expressions of the node selector term
/// `term` (at `path`) naming deprecated labels and, when `check_values` (preferred
/// terms), values that are not valid label values.
pub fn warnings_for_node_selector_term(
    term: &Value,
    check_values: bool,
    path: &str,
) -> Vec<String> {
    let mut warnings = Vec::new();
    let expressions = term.get("matchExpressions").and_then(Value::as_array);
    for (i, expression) in expressions.into_iter().flatten().enumerate() {
        let key = expression.get("key").and_then(Value::as_str).unwrap_or("");
        if let Some(msg) = deprecated_message(key) {
            warnings.push(format!("{path}.matchExpressions[{i}].key: {key} is {msg}"));
        }
        if !check_values {
            continue;
        }
        let values = expression.get("values").and_then(Value::as_array);
        for (j, value) in values.into_iter().flatten().enumerate() {
            let value = value.as_str().unwrap_or("");
            for msg in is_valid_label_value(value) {
                warnings.push(format!(
                    "{path}.matchExpressions[{i}].values[{j}]: {value} is invalid, {msg}"
                ));
            }
        }
    }
    warnings
}

/// Go's `GetWarningsForNodeSelector`: the expressions and labels of the label selector
/// `selector` (at `path`) that name deprecated node labels (a CSIStorageCapacity's
/// `nodeTopology`).
pub fn warnings_for_node_selector(selector: &Value, path: &str) -> Vec<String> {
    let mut warnings = Vec::new();
    let expressions = selector.get("matchExpressions").and_then(Value::as_array);
    for (i, expression) in expressions.into_iter().flatten().enumerate() {
        let key = expression.get("key").and_then(Value::as_str).unwrap_or("");
        if let Some(msg) = deprecated_message(key) {
            warnings.push(format!("{path}.matchExpressions[{i}].key: {key} is {msg}"));
        }
    }
    for label in sorted_keys(selector.get("matchLabels")) {
        if let Some(msg) = deprecated_message(label) {
            warnings.push(format!("{path}.matchLabels.{label}: {msg}"));
        }
    }
    warnings
}

/// Go's `GetWarningsForStorageClass`: the `allowedTopologies` expressions naming
/// deprecated node labels.
pub fn warnings_for_storage_class(class: &Value) -> Vec<String> {
    let mut warnings = Vec::new();
    let topologies = class.get("allowedTopologies").and_then(Value::as_array);
    for (i, topology) in topologies.into_iter().flatten().enumerate() {
        let expressions = topology
            .get("matchLabelExpressions")
            .and_then(Value::as_array);
        for (j, expression) in expressions.into_iter().flatten().enumerate() {
            let key = expression.get("key").and_then(Value::as_str).unwrap_or("");
            if let Some(msg) = deprecated_message(key) {
                warnings.push(format!(
                    "allowedTopologies[{i}].matchLabelExpressions[{j}].key: {msg}"
                ));
            }
        }
    }
    warnings
}

/// Go's `GetWarningsForRuntimeClass`: one warning per deprecated label in the JSON
/// RuntimeClass's `scheduling.nodeSelector` (Go's path names the selector, not the key).
pub fn warnings_for_runtime_class(class: &Value) -> Vec<String> {
    sorted_keys(class.pointer("/scheduling/nodeSelector"))
        .into_iter()
        .filter_map(deprecated_message)
        .map(|msg| format!("scheduling.nodeSelector: {msg}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn deprecated_labels_have_their_message() {
        assert_eq!(
            deprecated_message("beta.kubernetes.io/os"),
            Some(r#"deprecated since v1.14; use "kubernetes.io/os" instead"#)
        );
        assert_eq!(deprecated_message("kubernetes.io/os"), None);
    }

    /// Go's `TestGetWarningsForRuntimeClass` cases.
    #[test]
    fn runtime_classes_with_deprecated_scheduling_labels_are_warned_about() {
        assert!(warnings_for_runtime_class(&json!({"handler": "h"})).is_empty());
        assert!(
            warnings_for_runtime_class(&json!({"scheduling": {"nodeSelector": {"foo": "bar"}}}))
                .is_empty()
        );
        assert_eq!(
            warnings_for_runtime_class(&json!({"scheduling": {"nodeSelector": {
                "beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux"}}})),
            [
                r#"scheduling.nodeSelector: deprecated since v1.14; use "kubernetes.io/arch" instead"#,
                r#"scheduling.nodeSelector: deprecated since v1.14; use "kubernetes.io/os" instead"#,
            ]
        );
    }

    /// Go's `TestGetWarningsForNodeSelectorTerm`-like cases: keys always, values only
    /// for preferred terms.
    #[test]
    fn node_selector_terms_warn_of_deprecated_keys_and_bad_values() {
        let term = json!({"matchExpressions": [
            {"key": "beta.kubernetes.io/os", "operator": "In", "values": ["linux"]},
            {"key": "foo", "operator": "In", "values": ["-bad"]},
        ]});
        assert_eq!(
            warnings_for_node_selector_term(&term, false, "t"),
            [
                r#"t.matchExpressions[0].key: beta.kubernetes.io/os is deprecated since v1.14; use "kubernetes.io/os" instead"#
            ]
        );
        let both = warnings_for_node_selector_term(&term, true, "t");
        assert_eq!(both.len(), 2);
        assert!(both[1].starts_with(
            "t.matchExpressions[1].values[0]: -bad is invalid, a valid label must be"
        ));
    }

    /// Go's `GetWarningsForStorageClass` and `GetWarningsForCSIStorageCapacity` cases.
    #[test]
    fn storage_topologies_naming_deprecated_labels_are_warned_about() {
        let class = json!({"allowedTopologies": [{"matchLabelExpressions": [
            {"key": "kubernetes.io/hostname", "values": ["a"]},
            {"key": "failure-domain.beta.kubernetes.io/zone", "values": ["z"]}]}]});
        assert_eq!(
            warnings_for_storage_class(&class),
            [
                r#"allowedTopologies[0].matchLabelExpressions[1].key: deprecated since v1.17; use "topology.kubernetes.io/zone" instead"#
            ]
        );
        let selector = json!({"matchLabels": {"beta.kubernetes.io/arch": "amd64"},
            "matchExpressions": [{"key": "beta.kubernetes.io/os", "operator": "In", "values": ["linux"]}]});
        assert_eq!(
            warnings_for_node_selector(&selector, "nodeTopology"),
            [
                r#"nodeTopology.matchExpressions[0].key: beta.kubernetes.io/os is deprecated since v1.14; use "kubernetes.io/os" instead"#,
                r#"nodeTopology.matchLabels.beta.kubernetes.io/arch: deprecated since v1.14; use "kubernetes.io/arch" instead"#,
            ]
        );
    }
}
