//! `policy/v1beta1` PodDisruptionBudget ⇄ the `policy/v1` hub.
//!
//! The two versions read an empty selector differently: in `v1beta1` it selects no pod,
//! in `v1` every pod of the namespace. Kubernetes keeps the meaning across versions by
//! swapping sentinel selectors, and so does this:
//!
//! - `v1beta1` empty selector (`{}`) ⇄ `v1` "match none": one `Exists` requirement on
//!   the label `pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match`, which no pod
//!   has;
//! - `v1beta1` "match all" (a `DoesNotExist` requirement on that label) ⇄ `v1` empty
//!   selector;
//! - any other selector going to `v1` loses requirements on that label, which is
//!   reserved for these sentinels.

use apimachinery::apis::meta::v1::{LabelSelector, LabelSelectorRequirement};
use apimachinery::conversion::{AutoConvert, ConversionError, Scope};

/// The label the sentinel selectors are written on.
pub const PDB_V1BETA1_LABEL: &str = "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match";

fn requirement(operator: &str) -> LabelSelector {
    LabelSelector {
        match_labels: Default::default(),
        match_expressions: vec![LabelSelectorRequirement {
            key: PDB_V1BETA1_LABEL.to_owned(),
            operator: operator.to_owned(),
            values: Vec::new(),
        }],
    }
}

/// `v1`'s selector that matches no pod (`v1beta1`'s empty selector).
pub fn non_v1beta1_match_none_selector() -> LabelSelector {
    requirement("Exists")
}

/// `v1beta1`'s selector that matches every pod (`v1`'s empty selector).
pub fn v1beta1_match_all_selector() -> LabelSelector {
    requirement("DoesNotExist")
}

/// `policy/v1beta1` PodDisruptionBudget ⇄ `policy/v1`.
pub mod policy_v1beta1 {
    use super::*;
    use crate::policy::v1 as hub;
    use crate::policy::v1beta1 as old;

    /// To `policy/v1`: the generated conversion, then the selector's meaning kept.
    pub fn to_hub(
        p: &old::PodDisruptionBudget,
        scope: &Scope<'_>,
    ) -> Result<hub::PodDisruptionBudget, ConversionError> {
        let mut out: hub::PodDisruptionBudget = p.auto_convert_ref(scope)?;
        if let Some(selector) = out.spec.selector.as_mut() {
            if *selector == LabelSelector::default() {
                *selector = non_v1beta1_match_none_selector();
            } else if *selector == v1beta1_match_all_selector() {
                *selector = LabelSelector::default();
            } else {
                selector
                    .match_expressions
                    .retain(|r| r.key != PDB_V1BETA1_LABEL);
                selector.match_labels.remove(PDB_V1BETA1_LABEL);
            }
        }
        Ok(out)
    }

    /// From `policy/v1`: the generated conversion, then the sentinels swapped back.
    pub fn from_hub(
        p: &hub::PodDisruptionBudget,
        scope: &Scope<'_>,
    ) -> Result<old::PodDisruptionBudget, ConversionError> {
        let mut out: old::PodDisruptionBudget = p.auto_convert_ref(scope)?;
        if let Some(selector) = out.spec.selector.as_mut() {
            if *selector == non_v1beta1_match_none_selector() {
                *selector = LabelSelector::default();
            } else if *selector == LabelSelector::default() {
                *selector = v1beta1_match_all_selector();
            }
        }
        Ok(out)
    }
}
