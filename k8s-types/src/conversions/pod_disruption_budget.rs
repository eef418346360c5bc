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
        if let Some(selector) = out.spec.as_mut().and_then(|s| s.selector.as_mut()) {
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
        if let Some(selector) = out.spec.as_mut().and_then(|s| s.selector.as_mut()) {
            if *selector == non_v1beta1_match_none_selector() {
                *selector = LabelSelector::default();
            } else if *selector == LabelSelector::default() {
                *selector = v1beta1_match_all_selector();
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy;
    use apimachinery::conversion::Convert;

    fn with_selector(selector: Option<LabelSelector>) -> policy::v1beta1::PodDisruptionBudget {
        let mut p = policy::v1beta1::PodDisruptionBudget::default();
        let spec = p.spec.get_or_insert_default();
        spec.selector = selector;
        spec.min_available = Some(crate::value::IntOrString::Int(1));
        p
    }

    #[test]
    fn empty_selectors_keep_their_meaning_both_ways() {
        let s = Scope::new();
        let none = with_selector(Some(LabelSelector::default()));
        let hub: policy::v1::PodDisruptionBudget = none.convert_ref(&s).unwrap();
        assert_eq!(
            hub.spec.as_ref().unwrap().selector,
            Some(non_v1beta1_match_none_selector())
        );
        let back: policy::v1beta1::PodDisruptionBudget = hub.convert(&s).unwrap();
        assert_eq!(back, none);

        let all = with_selector(Some(v1beta1_match_all_selector()));
        let hub: policy::v1::PodDisruptionBudget = all.convert_ref(&s).unwrap();
        assert_eq!(
            hub.spec.as_ref().unwrap().selector,
            Some(LabelSelector::default())
        );
        let back: policy::v1beta1::PodDisruptionBudget = hub.convert(&s).unwrap();
        assert_eq!(back, all);
    }

    #[test]
    fn ordinary_selectors_pass_and_lose_the_reserved_label() {
        let s = Scope::new();
        let mut sel = LabelSelector::default();
        sel.match_labels.insert("app".into(), "web".into());
        let p = with_selector(Some(sel.clone()));
        let hub: policy::v1::PodDisruptionBudget = p.convert_ref(&s).unwrap();
        assert_eq!(hub.spec.as_ref().unwrap().selector, Some(sel.clone()));
        assert_eq!(
            hub.spec.as_ref().unwrap().min_available,
            Some(crate::value::IntOrString::Int(1))
        );
        let back: policy::v1beta1::PodDisruptionBudget = hub.convert(&s).unwrap();
        assert_eq!(back, p);

        let mut tainted = sel.clone();
        tainted
            .match_expressions
            .extend(v1beta1_match_all_selector().match_expressions);
        let hub: policy::v1::PodDisruptionBudget =
            with_selector(Some(tainted)).convert_ref(&s).unwrap();
        assert_eq!(hub.spec.as_ref().unwrap().selector, Some(sel));
    }
}
