//! Label selectors as the controllers' validation reads them: Go's
//! `metav1.LabelSelectorAsSelector` (a missing selector selects nothing, an empty one
//! everything, and one Go's `labels.NewRequirement` refuses is an error) and
//! `ValidateLabelSelector` with its option to tolerate the invalid label values an old
//! object already stored, and whether an old object's selector is valid at all (which
//! decides how strictly an update of it is judged).

use apimachinery::apis::meta::v1::validation::{validate_label_name, validate_labels};
use apimachinery::apis::meta::v1::{LabelSelector, LabelSelectorRequirement};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{is_qualified_name, is_valid_label_value};
use std::collections::BTreeMap;

/// What Go's `LabelSelectorAsSelector` makes of a selector it accepts (the workload
/// controllers match with it; rbac only asks whether there is one).
#[cfg_attr(not(any(feature = "apps", feature = "batch")), allow(dead_code))]
#[derive(Clone, Copy, Debug)]
pub(crate) enum Selected<'a> {
    /// No selector: selects nothing (Go's `labels.Nothing()`, which is not "empty").
    Nothing,
    /// A selector without requirements: selects everything (Go's `Empty()` is true).
    Everything,
    /// Its requirements, all of which Go's parser accepted.
    Requirements(&'a LabelSelector),
}

#[cfg_attr(not(any(feature = "apps", feature = "batch")), allow(dead_code))]
impl Selected<'_> {
    /// Go's `Selector.Empty()`.
    pub(crate) fn is_empty(self) -> bool {
        matches!(self, Selected::Everything)
    }

    /// Go's `Selector.Matches`.
    pub(crate) fn matches(self, labels: &BTreeMap<String, String>) -> bool {
        match self {
            Selected::Nothing => false,
            Selected::Everything => true,
            Selected::Requirements(sel) => sel.matches(labels),
        }
    }
}

/// Go's `metav1.LabelSelectorAsSelector`: `None` where Go returns an error (a key that
/// is not a qualified name, a value that is not a label value, an unknown operator, or
/// values where the operator wants none or none where it wants some).
pub(crate) fn as_selector(selector: Option<&LabelSelector>) -> Option<Selected<'_>> {
    let Some(sel) = selector else {
        return Some(Selected::Nothing);
    };
    if sel.match_labels.is_empty() && sel.match_expressions.is_empty() {
        return Some(Selected::Everything);
    }
    let pairs_ok = sel
        .match_labels
        .iter()
        .all(|(k, v)| is_qualified_name(k).is_empty() && is_valid_label_value(v).is_empty());
    let requirement_ok = |req: &LabelSelectorRequirement| {
        let count_ok = match req.operator.as_str() {
            "In" | "NotIn" => !req.values.is_empty(),
            "Exists" | "DoesNotExist" => req.values.is_empty(),
            _ => return false,
        };
        count_ok
            && is_qualified_name(&req.key).is_empty()
            && req
                .values
                .iter()
                .all(|v| is_valid_label_value(v).is_empty())
    };
    (pairs_ok && sel.match_expressions.iter().all(requirement_ok))
        .then_some(Selected::Requirements(sel))
}

/// Go's `ValidateLabelSelector` with `AllowInvalidLabelValueInSelector` as given: the
/// values of `In`/`NotIn` requirements are not checked when an update has to keep the
/// invalid ones an old object holds.
pub(crate) fn validate_label_selector_with(
    selector: Option<&LabelSelector>,
    allow_invalid_label_value: bool,
    path: &Path,
) -> ErrorList {
    let Some(sel) = selector else {
        return ErrorList::default();
    };
    if !allow_invalid_label_value {
        return apimachinery::apis::meta::v1::validation::validate_label_selector(sel, path);
    }
    let mut errs = validate_labels(&sel.match_labels, &path.child("matchLabels"));
    let exprs = path.child("matchExpressions");
    for (i, req) in sel.match_expressions.iter().enumerate() {
        let rp = exprs.index(i);
        match req.operator.as_str() {
            "In" | "NotIn" if req.values.is_empty() => errs.push(Error::required(
                &rp.child("values"),
                "must be specified when `operator` is 'In' or 'NotIn'",
            )),
            "Exists" | "DoesNotExist" if !req.values.is_empty() => {
                errs.push(Error::forbidden(
                    &rp.child("values"),
                    "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                ));
            }
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            op => errs.push(Error::invalid(
                &rp.child("operator"),
                // A LabelSelectorOperator: a named string type, printed by json.Marshal.
                BadValue::json_string(op),
                "not a valid selector operator",
            )),
        }
        errs.extend(validate_label_name(&req.key, &rp.child("key")));
    }
    errs
}

/// Go's `LabelSelectorHasInvalidLabelValue`: a requirement's value is not a label value.
pub(crate) fn has_invalid_label_value(selector: Option<&LabelSelector>) -> bool {
    selector.is_some_and(|sel| {
        sel.match_expressions
            .iter()
            .flat_map(|req| &req.values)
            .any(|v| !is_valid_label_value(v).is_empty())
    })
}

/// Go's `hasInvalidLabelValueInAffinitySelector` (`pkg/api/pod`): a pod (anti-)affinity
/// term of the old pod spec whose label or namespace selector fails validation, which
/// lets an update keep the invalid label values of its controller's selector too.
#[cfg(feature = "core")]
pub(crate) fn affinity_selector_invalid(spec: &crate::core::v1::PodSpec) -> bool {
    let Some(affinity) = &spec.affinity else {
        return false;
    };
    let invalid = |term: &crate::core::v1::PodAffinityTerm| {
        let root = Path::root();
        [&term.label_selector, &term.namespace_selector]
            .into_iter()
            .flatten()
            .any(|sel| {
                !apimachinery::apis::meta::v1::validation::validate_label_selector(sel, &root)
                    .is_empty()
            })
    };
    let terms = |required: &[crate::core::v1::PodAffinityTerm],
                 preferred: &[crate::core::v1::WeightedPodAffinityTerm]| {
        required.iter().any(invalid) || preferred.iter().any(|w| invalid(&w.pod_affinity_term))
    };
    affinity.pod_affinity.as_ref().is_some_and(|a| {
        terms(
            &a.required_during_scheduling_ignored_during_execution,
            &a.preferred_during_scheduling_ignored_during_execution,
        )
    }) || affinity.pod_anti_affinity.as_ref().is_some_and(|a| {
        terms(
            &a.required_during_scheduling_ignored_during_execution,
            &a.preferred_during_scheduling_ignored_during_execution,
        )
    })
}

/// A map of labels as Go prints it: `null` for the nil map an absent one decodes to.
pub(crate) fn labels_value(labels: &BTreeMap<String, String>) -> BadValue {
    if labels.is_empty() {
        BadValue::Json("null".to_owned())
    } else {
        super::json_value(labels)
    }
}

/// Go's "`selector` does not match template `labels`", at a template's labels.
pub(crate) fn mismatch(labels: &BTreeMap<String, String>, template_path: &Path) -> Error {
    Error::invalid(
        &template_path.child("metadata").child("labels"),
        labels_value(labels),
        "`selector` does not match template `labels`",
    )
}

/// Whether `validate_label_selector` finds anything in `selector` (Go's check of an
/// old object's selector before it relaxes the rules for the new one).
pub(crate) fn has_invalid_label_selector(selector: &LabelSelector) -> bool {
    !apimachinery::apis::meta::v1::validation::validate_label_selector(selector, &Path::root())
        .is_empty()
}
