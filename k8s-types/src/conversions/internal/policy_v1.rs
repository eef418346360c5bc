//! Go's `pkg/apis/policy/v1/conversion.go`, as the internal form of the `policy/v1`
//! PodDisruptionBudget.

use apimachinery::apis::meta::v1::{LabelSelector, LabelSelectorRequirement};
use apimachinery::conversion::ConversionError;

use crate::policy::v1::PodDisruptionBudget;

/// The label `policy/v1beta1` selectors use to mean "match all" and "match none" in
/// `policy/v1`.
pub const PDB_V1BETA1_LABEL: &str = "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match";

/// `policy/v1beta1`'s empty selector as `policy/v1` writes it (it matches nothing).
fn match_none() -> LabelSelector {
    LabelSelector {
        match_expressions: vec![LabelSelectorRequirement {
            key: PDB_V1BETA1_LABEL.to_owned(),
            operator: "Exists".to_owned(),
            values: Vec::new(),
        }],
        ..LabelSelector::default()
    }
}

/// The label is stripped from a selector a user wrote, so that it is never combined with
/// a user's own requirements; the two selectors that are exactly `policy/v1beta1`'s
/// meanings are kept.
pub fn pod_disruption_budget_internalize(
    pdb: &mut PodDisruptionBudget,
) -> Result<(), ConversionError> {
    if let Some(selector) = &mut pdb.spec.selector {
        if *selector != match_none() && *selector != LabelSelector::default() {
            selector
                .match_expressions
                .retain(|e| e.key != PDB_V1BETA1_LABEL);
        }
    }
    Ok(())
}

/// Nothing: Go's conversion back is generated.
pub fn pod_disruption_budget_externalize(_: &mut PodDisruptionBudget) {}
