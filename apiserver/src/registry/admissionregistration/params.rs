//! What Go's printers of validating and mutating admission policies and of their bindings
//! share: a policy's row (its rules counted, its `ParamKind`) and a binding's `ParamRef`.

use serde_json::Value;

use crate::registry::printers::{self, Column, Row, items, string_column, text};

/// The `ParamKind` column of the policies.
pub const PARAM_KIND: Column = string_column(
    "ParamKind",
    "ParamKind specifies the kind of resources used to parameterize this policy",
    0,
);

/// Go's `printValidatingAdmissionPolicy` and `printMutatingAdmissionPolicy`: name, the
/// number of rules (the validations or mutations at `rules`), the parameters' kind, age.
pub fn policy_row(policy: &Value, rules: &str) -> Row {
    let count = i64::try_from(items(policy, rules).len()).unwrap_or(i64::MAX);
    Row::from(vec![
        Value::from(text(policy, "/metadata/name")),
        Value::from(count),
        Value::from(param_kind(policy)),
        printers::age(policy),
    ])
}

/// A policy's `ParamKind` cell: `<apiVersion>/<kind>`, `<unset>` without one.
fn param_kind(policy: &Value) -> String {
    match policy.pointer("/spec/paramKind").filter(|p| !p.is_null()) {
        Some(kind) => format!("{}/{}", text(kind, "/apiVersion"), text(kind, "/kind")),
        None => "<unset>".to_owned(),
    }
}

/// A binding's `ParamRef` cell: `<namespace>/<name>` (`*/<name>` without a namespace,
/// as the parameter's scope is not known there), else the selector as Go's
/// `LabelSelector.String()` writes it, else `<unset>`.
pub fn param_ref(binding: &Value) -> String {
    let Some(param) = binding.pointer("/spec/paramRef").filter(|p| !p.is_null()) else {
        return "<unset>".to_owned();
    };
    match (text(param, "/name"), text(param, "/namespace")) {
        ("", _) => match param.get("selector").filter(|s| !s.is_null()) {
            Some(selector) => go_label_selector_string(selector),
            None => "<unset>".to_owned(),
        },
        (name, "") => format!("*/{name}"),
        (name, namespace) => format!("{namespace}/{name}"),
    }
}

/// Go's generated `(*LabelSelector).String()` (gogo-protobuf's debugging form):
/// `&LabelSelector{MatchLabels:map[string]string{k: v,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[a b],},},}`,
/// labels by key.
fn go_label_selector_string(selector: &Value) -> String {
    let mut labels: Vec<(&String, &str)> = selector
        .get("matchLabels")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k, v.as_str().unwrap_or("")))
                .collect()
        })
        .unwrap_or_default();
    labels.sort();
    let labels: String = labels.iter().map(|(k, v)| format!("{k}: {v},")).collect();
    let expressions: String = selector
        .get("matchExpressions")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|e| {
            let values: Vec<&str> = e
                .get("values")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .filter_map(Value::as_str)
                .collect();
            format!(
                "LabelSelectorRequirement{{Key:{},Operator:{},Values:[{}],}},",
                text(e, "/key"),
                text(e, "/operator"),
                values.join(" ")
            )
        })
        .collect();
    format!(
        "&LabelSelector{{MatchLabels:map[string]string{{{labels}}},MatchExpressions:[]LabelSelectorRequirement{{{expressions}}},}}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintValidatingAdmissionPolicy` and `...Binding` cases.
    #[test]
    fn params_print_as_gos_printers_print_them() {
        assert_eq!(param_kind(&json!({"spec": {}})), "<unset>");
        let policy = json!({"spec": {"paramKind": {"apiVersion": "v1", "kind": "ConfigMap"}}});
        assert_eq!(param_kind(&policy), "v1/ConfigMap");
        let binding = |param: Value| json!({"spec": {"policyName": "p", "paramRef": param}});
        assert_eq!(param_ref(&json!({"spec": {}})), "<unset>");
        assert_eq!(
            param_ref(&binding(json!({"name": "cm", "namespace": "ns"}))),
            "ns/cm"
        );
        assert_eq!(param_ref(&binding(json!({"name": "cm"}))), "*/cm");
        assert_eq!(param_ref(&binding(json!({}))), "<unset>");
        let selector = json!({"selector": {"matchLabels": {"b": "2", "a": "1"},
            "matchExpressions": [{"key": "k", "operator": "In", "values": ["x", "y"]},
                {"key": "e", "operator": "Exists"}]}});
        assert_eq!(
            param_ref(&binding(selector)),
            "&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[x y],},LabelSelectorRequirement{Key:e,Operator:Exists,Values:[],},},}"
        );
        assert_eq!(
            param_ref(&binding(json!({"selector": {}}))),
            "&LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{},}"
        );
    }
}
