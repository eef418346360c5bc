//! PodDisruptionBudgets (Go's `pkg/registry/policy/poddisruptionbudget`): on Kubernetes
//! 1.37 the strategy keeps the label policy/v1beta1's empty selectors were translated
//! with out of every other selector (Go's `dropDisabledFields`, which 1.36 did in the
//! policy/v1 conversion, as `k8s-types`' 1.36 conversions still do); and the table
//! `kubectl get poddisruptionbudgets` prints (Go's `printPodDisruptionBudget`).

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{Strategy, Subresource, prepare_for_update, spec_changed};
use crate::registry::{ResourceInfo, from_value, to_json};

/// Go's `podDisruptionBudgetColumnDefinitions`.
pub const COLUMNS: [Column; 5] = [
    NAME,
    string_column(
        "Min Available",
        "The minimum number of pods that must be available.",
        0,
    ),
    string_column(
        "Max Unavailable",
        "The maximum number of pods that may be unavailable.",
        0,
    ),
    Column {
        type_: "integer",
        ..string_column(
            "Allowed Disruptions",
            "Calculated number of pods that may be disrupted at this time.",
            0,
        )
    },
    AGE,
];

/// The PodDisruptionBudgets' table convertor.
pub static POD_DISRUPTION_BUDGET_TABLE: Printer = Printer {
    api_version: "policy/v1",
    kind: "PodDisruptionBudget",
    columns: &COLUMNS,
    print: print_pod_disruption_budget,
};

/// Go's `printPodDisruptionBudget`: name, `minAvailable` and `maxUnavailable` (a number
/// or a percentage, `N/A` unset), the disruptions allowed now, age.
pub fn print_pod_disruption_budget(obj: &Value) -> Row {
    let int_or_string = |pointer: &str| match obj.pointer(pointer) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => "N/A".to_owned(),
    };
    Row::from(vec![
        Value::from(printers::text(obj, "/metadata/name")),
        Value::from(int_or_string("/spec/minAvailable")),
        Value::from(int_or_string("/spec/maxUnavailable")),
        Value::from(printers::int(obj, "/status/disruptionsAllowed")),
        printers::age(obj),
    ])
}

/// The PodDisruptionBudgets' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        PodDisruptionBudgetStrategy,
        Arc::new(POD_DISRUPTION_BUDGET_TABLE),
    )
}

/// The label key of the selectors that stand for policy/v1beta1's empty selector (which
/// selects nothing there) and its match-all one (Go's `policy.PDBV1beta1Label`).
pub const PDB_V1BETA1_LABEL: &str = "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match";

/// Go's pod disruption budget strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct PodDisruptionBudgetStrategy;

impl Strategy for PodDisruptionBudgetStrategy {
    /// Go's `AllowUnconditionalUpdate` is false: an update names the version it replaces.
    fn allow_unconditional_update(&self) -> bool {
        false
    }

    /// Go's `PrepareForCreate`: generation 1 (the store's), and the selector without
    /// the v1beta1 label (1.37).
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        strip_selector_label(scheme, info, obj, None)
    }

    /// Go's `PrepareForUpdate`: on a write of the object whose selector changed, the
    /// selector without the v1beta1 label (1.37); `/status` writes keep the spec.
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let new = prepare_for_update(scheme, info, old, new, subresource, spec_changed)?;
        match subresource {
            Subresource::Main => strip_selector_label(scheme, info, new, Some(old)),
            Subresource::Status
            | Subresource::Finalize
            | Subresource::Resize
            | Subresource::EphemeralContainers
            | Subresource::Approval => Ok(new),
        }
    }
}

/// `pdb` with the [`PDB_V1BETA1_LABEL`] requirements removed from its selector (on
/// Kubernetes 1.37; on 1.36 the conversion did it), unless the selector is unchanged
/// from `old`'s or is exactly the match-none (`<label> Exists`) or match-all (empty)
/// selector, which are kept as they are.
fn strip_selector_label(
    scheme: &Scheme,
    info: &ResourceInfo,
    pdb: Box<dyn Object>,
    old: Option<&dyn Object>,
) -> Result<Box<dyn Object>, StatusError> {
    if !cfg!(feature = "v1_37") {
        return Ok(pdb);
    }
    let mut value = to_json(&*pdb)?;
    if let Some(old) = old {
        let old = to_json(old)?;
        if semantic_selector(old.pointer("/spec/selector"))
            == semantic_selector(value.pointer("/spec/selector"))
        {
            return Ok(pdb);
        }
    }
    if strip_v1beta1_label(value.pointer_mut("/spec/selector")) {
        return from_value(scheme, &info.storage_gvk, value);
    }
    Ok(pdb)
}

/// The selector as Go's semantic equality compares it: absent and null alike, and
/// within it empty and missing lists and maps alike.
fn semantic_selector(selector: Option<&Value>) -> Option<(Value, Vec<Value>)> {
    let selector = selector.filter(|s| !s.is_null())?;
    let labels = selector
        .get("matchLabels")
        .filter(|l| l.as_object().is_some_and(|m| !m.is_empty()))
        .cloned()
        .unwrap_or(Value::Null);
    let expressions = selector
        .get("matchExpressions")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .map(|e| {
                    let values = e
                        .get("values")
                        .filter(|v| v.as_array().is_some_and(|a| !a.is_empty()))
                        .cloned()
                        .unwrap_or(Value::Null);
                    Value::from(vec![
                        e.get("key").cloned().unwrap_or(Value::from("")),
                        e.get("operator").cloned().unwrap_or(Value::from("")),
                        values,
                    ])
                })
                .collect()
        })
        .unwrap_or_default();
    Some((labels, expressions))
}

/// Go's `dropDisabledFields` on a selector: the label's requirements removed, unless the
/// selector is the match-all or match-none one the v1beta1 translation makes; whether
/// it removed any.
fn strip_v1beta1_label(selector: Option<&mut Value>) -> bool {
    let Some(selector) = selector.filter(|s| s.is_object()) else {
        return false;
    };
    if let Some((labels, expressions)) = semantic_selector(Some(selector)) {
        let match_all = labels.is_null() && expressions.is_empty();
        let match_none = labels.is_null()
            && expressions
                == [Value::from(vec![
                    Value::from(PDB_V1BETA1_LABEL),
                    Value::from("Exists"),
                    Value::Null,
                ])];
        if match_all || match_none {
            return false;
        }
    }
    let Some(map) = selector.as_object_mut() else {
        return false;
    };
    let Some(list) = map
        .get_mut("matchExpressions")
        .and_then(Value::as_array_mut)
    else {
        return false;
    };
    let before = list.len();
    list.retain(|e| e.get("key").and_then(Value::as_str) != Some(PDB_V1BETA1_LABEL));
    let stripped = list.len() != before;
    if list.is_empty() {
        map.remove("matchExpressions");
    }
    stripped
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn label(op: &str) -> Value {
        json!({"key": PDB_V1BETA1_LABEL, "operator": op})
    }

    #[test]
    fn the_v1beta1_label_is_stripped_from_other_selectors() {
        let mut s = json!({"matchLabels": {"app": "web"}, "matchExpressions": [label("Exists"), {"key": "tier", "operator": "In", "values": ["a"]}]});
        assert!(strip_v1beta1_label(Some(&mut s)));
        assert_eq!(
            s,
            json!({"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "tier", "operator": "In", "values": ["a"]}]})
        );
        let mut s =
            json!({"matchLabels": {"app": "web"}, "matchExpressions": [label("DoesNotExist")]});
        assert!(strip_v1beta1_label(Some(&mut s)));
        assert_eq!(s, json!({"matchLabels": {"app": "web"}}));
    }

    #[test]
    fn the_row_shows_either_bound_and_the_allowed_disruptions() {
        let pdb = json!({"metadata": {"name": "web"}, "spec": {"minAvailable": "50%"},
            "status": {"disruptionsAllowed": 2}});
        let cells = print_pod_disruption_budget(&pdb).cells;
        assert_eq!(
            cells[..4],
            [json!("web"), json!("50%"), json!("N/A"), json!(2)]
        );
        let pdb = json!({"metadata": {"name": "db"}, "spec": {"maxUnavailable": 1}});
        let cells = print_pod_disruption_budget(&pdb).cells;
        assert_eq!(
            cells[..4],
            [json!("db"), json!("N/A"), json!("1"), json!(0)]
        );
    }

    #[test]
    fn match_none_and_match_all_are_kept() {
        for mut s in [
            json!({"matchExpressions": [label("Exists")]}),
            json!({"matchLabels": {}, "matchExpressions": [{"key": PDB_V1BETA1_LABEL, "operator": "Exists", "values": []}]}),
            json!({}),
            json!({"matchExpressions": []}),
        ] {
            let before = s.clone();
            assert!(!strip_v1beta1_label(Some(&mut s)));
            assert_eq!(s, before);
        }
        assert!(!strip_v1beta1_label(None));
        let mut null = Value::Null;
        assert!(!strip_v1beta1_label(Some(&mut null)));
    }

    #[test]
    fn selectors_compare_as_gos_semantic_equality() {
        let a = json!({"matchLabels": {}, "matchExpressions": [{"key": "k", "operator": "Exists", "values": []}]});
        let b = json!({"matchExpressions": [{"key": "k", "operator": "Exists"}]});
        assert_eq!(semantic_selector(Some(&a)), semantic_selector(Some(&b)));
        assert_ne!(semantic_selector(Some(&a)), semantic_selector(None));
        assert_eq!(
            semantic_selector(Some(&Value::Null)),
            semantic_selector(None)
        );
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod strategy_tests {
    use k8s_types as _;
    use serde_json::json;

    use super::*;
    use crate::registry::resources_from_scheme;

    #[test]
    fn the_strategy_strips_on_create_and_on_a_changed_selector_only() {
        let mut scheme = Scheme::with_name("pdb-tests");
        scheme.add_registry().unwrap();
        let info = resources_from_scheme(&scheme)
            .into_values()
            .find(|r| r.group == "policy" && r.resource == "poddisruptionbudgets")
            .unwrap();
        let with_label = json!({"metadata": {"name": "b", "namespace": "d"}, "spec": {"selector": {
            "matchLabels": {"app": "web"},
            "matchExpressions": [{"key": PDB_V1BETA1_LABEL, "operator": "Exists"}]}}});
        let obj = from_value(&scheme, &info.storage_gvk, with_label.clone()).unwrap();
        let created = to_json(
            &*PodDisruptionBudgetStrategy
                .prepare_for_create(&scheme, &info, obj)
                .unwrap(),
        )
        .unwrap();
        let stripped = json!({"matchLabels": {"app": "web"}});
        if cfg!(feature = "v1_37") {
            assert_eq!(created["spec"]["selector"], stripped);
        } else {
            assert_eq!(created["spec"]["selector"], with_label["spec"]["selector"]);
        }
        // An update that leaves the selector as stored keeps it, label and all (1.37:
        // only a changed selector is stripped).
        let old = from_value(&scheme, &info.storage_gvk, with_label.clone()).unwrap();
        let new = from_value(&scheme, &info.storage_gvk, with_label.clone()).unwrap();
        let kept = PodDisruptionBudgetStrategy
            .prepare_for_update(&scheme, &info, &*old, new, Subresource::Main)
            .unwrap();
        assert_eq!(
            to_json(&*kept).unwrap()["spec"]["selector"],
            with_label["spec"]["selector"]
        );
        let old = from_value(&scheme, &info.storage_gvk, created).unwrap();
        let new = from_value(&scheme, &info.storage_gvk, with_label.clone()).unwrap();
        let changed = PodDisruptionBudgetStrategy
            .prepare_for_update(&scheme, &info, &*old, new, Subresource::Main)
            .unwrap();
        let expected = if cfg!(feature = "v1_37") {
            stripped
        } else {
            with_label["spec"]["selector"].clone()
        };
        assert_eq!(to_json(&*changed).unwrap()["spec"]["selector"], expected);
    }
}
