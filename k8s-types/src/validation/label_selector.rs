//! Label selectors as the kinds of this module check them beyond
//! [`validate_label_selector`]: Go's `LabelSelectorValidationOptions`, which updates
//! use to keep accepting the invalid label values an object already had, and whether
//! Go's `metav1.LabelSelectorAsSelector` can turn a selector into one.

use apimachinery::apis::meta::v1::LabelSelector;
use apimachinery::apis::meta::v1::validation::validate_label_selector;
use apimachinery::util::validation::field::{ErrorList, ErrorType, Path};
use apimachinery::util::validation::{is_qualified_name, is_valid_label_value};

/// Go's `ValidateLabelSelector` with `AllowInvalidLabelValueInSelector` set as
/// `allow_invalid_values` says: when set, the values of `matchExpressions` are not
/// checked (the operator, key and value count still are).
pub(crate) fn validate_label_selector_allowing(
    selector: &LabelSelector,
    allow_invalid_values: bool,
    path: &Path,
) -> ErrorList {
    let errs = validate_label_selector(selector, path);
    if !allow_invalid_values {
        return errs;
    }
    // The only errors on an expression's `values[i]` are the label-value checks Go
    // skips under this option.
    let exprs = path.child("matchExpressions").render();
    ErrorList(
        errs.0
            .into_iter()
            .filter(|e| {
                !(e.error_type == ErrorType::Invalid
                    && e.field
                        .strip_prefix(exprs.as_str())
                        .is_some_and(|rest| rest.contains("].values[")))
            })
            .collect(),
    )
}

/// Whether [`validate_label_selector`] finds anything in `selector` (Go's check of an
/// old object's selector before it relaxes the rules for the new one).
pub(crate) fn has_invalid_label_selector(selector: &LabelSelector) -> bool {
    !validate_label_selector(selector, &Path::root()).is_empty()
}

/// Whether Go's `metav1.LabelSelectorAsSelector` accepts `selector`: every key a
/// qualified name, every value a label value, known operators with values only for
/// `In` and `NotIn` (and some for them).
pub(crate) fn label_selector_parses(selector: &LabelSelector) -> bool {
    let labels_ok = selector
        .match_labels
        .iter()
        .all(|(k, v)| is_qualified_name(k).is_empty() && is_valid_label_value(v).is_empty());
    labels_ok
        && selector.match_expressions.iter().all(|e| {
            let count_ok = match e.operator.as_str() {
                "In" | "NotIn" => !e.values.is_empty(),
                "Exists" | "DoesNotExist" => e.values.is_empty(),
                _ => false,
            };
            count_ok
                && is_qualified_name(&e.key).is_empty()
                && e.values.iter().all(|v| is_valid_label_value(v).is_empty())
        })
}
