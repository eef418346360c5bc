//! [`LabelSelector`]: a query over labels.

use std::collections::BTreeMap;

/// A label query: every `match_labels` pair and every expression must hold (Go's
/// `metav1.LabelSelector`). An empty selector matches everything.
#[derive(crate::ApiType, Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelSelector {
    /// Labels that must be present with these values.
    #[api(skip_serializing_if = "BTreeMap::is_empty")]
    pub match_labels: BTreeMap<String, String>,
    /// Set-based requirements.
    #[api(skip_serializing_if = "Vec::is_empty")]
    pub match_expressions: Vec<LabelSelectorRequirement>,
}

/// One set-based requirement: `key In (a, b)`, `key NotIn (...)`, `key Exists`,
/// `key DoesNotExist`.
#[derive(crate::ApiType, Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelSelectorRequirement {
    /// The label key.
    pub key: String,
    /// `In`, `NotIn`, `Exists` or `DoesNotExist`.
    pub operator: String,
    /// The values for `In` and `NotIn`.
    #[api(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

impl LabelSelector {
    /// True when `labels` satisfy the selector. Unknown operators match nothing, as an
    /// invalid selector selects nothing in Go.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        let pairs = self
            .match_labels
            .iter()
            .all(|(k, v)| labels.get(k) == Some(v));
        pairs
            && self.match_expressions.iter().all(|req| {
                let value = labels.get(&req.key);
                match req.operator.as_str() {
                    "In" => value.is_some_and(|v| req.values.contains(v)),
                    "NotIn" => value.is_none_or(|v| !req.values.contains(v)),
                    "Exists" => value.is_some(),
                    "DoesNotExist" => value.is_none(),
                    _ => false,
                }
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_gos() {
        assert_eq!(
            serde_json::to_string(&LabelSelector::default()).unwrap(),
            "{}"
        );
        assert_eq!(
            serde_json::to_string(&LabelSelectorRequirement::default()).unwrap(),
            r#"{"key":"","operator":""}"#
        );
        // `null` reads as the zero value, as Go's decoder leaves the field untouched.
        let sel: LabelSelector = serde_json::from_str(
            r#"{"matchLabels":null,"matchExpressions":[{"key":"k","operator":null,"values":null}]}"#,
        )
        .unwrap();
        assert_eq!(sel.match_expressions[0].key, "k");
        assert!(sel.match_labels.is_empty() && sel.match_expressions[0].values.is_empty());
    }

    #[test]
    fn matches_pairs_and_expressions() {
        let labels: BTreeMap<String, String> = [
            ("app".to_string(), "web".to_string()),
            ("tier".to_string(), "fe".to_string()),
        ]
        .into_iter()
        .collect();
        let mut sel = LabelSelector::default();
        assert!(sel.matches(&labels));
        sel.match_labels.insert("app".into(), "web".into());
        assert!(sel.matches(&labels));
        sel.match_expressions.push(LabelSelectorRequirement {
            key: "tier".into(),
            operator: "NotIn".into(),
            values: vec!["fe".into()],
        });
        assert!(!sel.matches(&labels));
        sel.match_expressions[0].operator = "In".into();
        assert!(sel.matches(&labels));
        sel.match_expressions[0].operator = "Bogus".into();
        assert!(!sel.matches(&labels));
    }
}
