//! The validation of access reviews (Go's `pkg/apis/authorization/validation`): exactly
//! one attribute set, a subject, well-formed field and label selectors, and no metadata.
//! Every error of a review is reported together, in Go's order.

use apimachinery::apis::meta::v1::ObjectMeta;
use apimachinery::apis::meta::v1::validation::validate_label_name;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path, json_of};
use apimachinery::util::validation::is_valid_label_value;
use serde_json::{Map, Value};

use super::{non_resource_value, strings};
use crate::authentication::user::Info;

/// Go's error for a review that gives both attribute sets or neither (the
/// `exactly one of` union). Its value is the non-resource attributes as Go prints its
/// internal struct (`null` when there are none); Kubernetes 1.37 reports either case on
/// `spec` in the words of the union (the declarative `+k8s:unionMember` rules, alpha,
/// leave it to this check), 1.36 on the field to drop or to give.
pub(super) fn validate_union(spec: &Value) -> ErrorList {
    let present = |field: &str| spec.get(field).is_some_and(|v| !v.is_null());
    let both = match (
        present("resourceAttributes"),
        present("nonResourceAttributes"),
    ) {
        (true, true) => true,
        (false, false) => false,
        _ => return ErrorList::default(),
    };
    let value = if both {
        non_resource_value(&spec["nonResourceAttributes"])
    } else {
        BadValue::null()
    };
    const ONE_OF: &str =
        "exactly one of nonResourceAttributes or resourceAttributes must be specified";
    let (field, detail) = if cfg!(feature = "v1_37") {
        ("spec", ONE_OF)
    } else if both {
        (
            "spec.nonResourceAttributes",
            "cannot be specified in combination with resourceAttributes",
        )
    } else {
        ("spec.resourceAttributes", ONE_OF)
    };
    ErrorList(vec![Error::invalid(&Path::new(field), value, detail)])
}

/// A (Local)SubjectAccessReview must name a user or a group.
pub(super) fn validate_subject(subject: &Info) -> ErrorList {
    if subject.name.is_empty() && subject.groups.is_empty() {
        return ErrorList(vec![Error::invalid(
            &Path::new("spec.user"),
            String::new(),
            "at least one of user or group must be specified",
        )]);
    }
    ErrorList::default()
}

/// A review's metadata must be empty (Go's `ValidateSubjectAccessReview`): nothing but
/// the `managedFields` the field manager has just recorded, and for a local review
/// (`local`) its namespace. The error's value is the whole metadata, as Go prints it.
pub(super) fn validate_metadata(review: &Value, local: bool) -> ErrorList {
    let Some(meta) = review.get("metadata").filter(|m| !m.is_null()) else {
        return ErrorList::default();
    };
    // The body was decoded as the review's kind before, so its metadata reads as one;
    // were it not to, the review would have been refused by then.
    let Ok(meta) = serde_json::from_value::<ObjectMeta>(meta.clone()) else {
        return ErrorList::default();
    };
    let mut rest = ObjectMeta {
        managed_fields: Vec::new(),
        ..meta.clone()
    };
    if local {
        rest.namespace = String::new();
    }
    // Go compares semantically: an empty map or list is no map or list, as here.
    if rest == ObjectMeta::default() {
        return ErrorList::default();
    }
    let detail = if local {
        "must be empty except for namespace"
    } else {
        "must be empty"
    };
    ErrorList(vec![Error::invalid(
        &Path::new("metadata"),
        json_of(&meta),
        detail,
    )])
}

/// Go's `validateResourceAttributes`: the field and label selectors of the resource
/// attributes, when given, are well formed. Operators this server does not know are
/// let through (a newer client's review is answered, as Go's
/// `AllowUnknownOperatorInRequirement`).
pub(super) fn validate_resource_attributes(spec: &Value) -> ErrorList {
    let mut errs = ErrorList::default();
    let Some(attributes) = spec.get("resourceAttributes").and_then(Value::as_object) else {
        return errs;
    };
    let path = Path::new("spec.resourceAttributes");
    if let Some(selector) = present_object(attributes, "fieldSelector") {
        errs.extend(validate_selector(
            selector,
            &path.child("fieldSelector"),
            field_requirement,
        ));
    }
    if let Some(selector) = present_object(attributes, "labelSelector") {
        errs.extend(validate_selector(
            selector,
            &path.child("labelSelector"),
            label_requirement,
        ));
    }
    errs
}

/// `field` of `object` when it is given (not absent, not `null`).
fn present_object<'a>(object: &'a Map<String, Value>, field: &str) -> Option<&'a Value> {
    object.get(field).filter(|v| !v.is_null())
}

/// One requirement of a selector: its key, operator and values.
struct Requirement {
    key: String,
    operator: String,
    values: Vec<String>,
}

/// Go's `validateFieldSelectorAttributes` / `validateLabelSelectorAttributes`: a raw
/// selector or requirements, not both, not neither; each requirement checked by
/// `requirement`.
fn validate_selector(
    selector: &Value,
    path: &Path<'_>,
    requirement: fn(&Requirement, &Path<'_>) -> ErrorList,
) -> ErrorList {
    let mut errs = ErrorList::default();
    let raw = selector
        .get("rawSelector")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let requirements: Vec<Requirement> = selector
        .get("requirements")
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .map(|item| Requirement {
                    key: text(item, "key"),
                    operator: text(item, "operator"),
                    values: strings(item.get("values")),
                })
                .collect()
        })
        .unwrap_or_default();
    if !raw.is_empty() && !requirements.is_empty() {
        errs.push(Error::invalid(
            &path.child("rawSelector"),
            raw,
            "may not specified at the same time as requirements",
        ));
    }
    if raw.is_empty() && requirements.is_empty() {
        errs.push(Error::required(
            &path.child("requirements"),
            format!(
                "when {} is specified, requirements or rawSelector is required",
                path.render()
            ),
        ));
    }
    let items = path.child("requirements");
    for (i, r) in requirements.iter().enumerate() {
        errs.extend(requirement(r, &items.index(i)));
    }
    errs
}

fn text(value: &Value, field: &str) -> String {
    value
        .get(field)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// Go's rule on an operator's values, shared by field and label requirements: `In` and
/// `NotIn` need values, `Exists` and `DoesNotExist` take none, others are let through.
fn operator_values(r: &Requirement, path: &Path<'_>) -> ErrorList {
    let mut errs = ErrorList::default();
    let values = path.child("values");
    match r.operator.as_str() {
        "In" | "NotIn" if r.values.is_empty() => errs.push(Error::required(
            &values,
            "must be specified when `operator` is 'In' or 'NotIn'",
        )),
        "Exists" | "DoesNotExist" if !r.values.is_empty() => errs.push(Error::forbidden(
            &values,
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        )),
        _ => {}
    }
    errs
}

/// Go's `ValidateFieldSelectorRequirement`: a key, then the operator's values.
fn field_requirement(r: &Requirement, path: &Path<'_>) -> ErrorList {
    let mut errs = ErrorList::default();
    if r.key.is_empty() {
        errs.push(Error::required(&path.child("key"), "must be specified"));
    }
    errs.extend(operator_values(r, path));
    errs
}

/// Go's `ValidateLabelSelectorRequirement`: the operator's values, then the key as a
/// label name and each value as a label value.
fn label_requirement(r: &Requirement, path: &Path<'_>) -> ErrorList {
    let mut errs = operator_values(r, path);
    errs.extend(validate_label_name(&r.key, &path.child("key")));
    let values = path.child("values");
    for (i, v) in r.values.iter().enumerate() {
        for msg in is_valid_label_value(v) {
            errs.push(Error::invalid(&values.index(i), v.as_str(), msg));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn messages(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn selectors_are_validated_as_go_validates_them() {
        let spec = json!({"resourceAttributes": {
            "verb": "list",
            "fieldSelector": {"rawSelector": "a=b", "requirements": [{"key": "a", "operator": "In"}]},
            "labelSelector": {"requirements": [{"key": "", "operator": "Bogus"}]},
        }});
        assert_eq!(
            messages(&validate_resource_attributes(&spec)),
            [
                r#"spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: "a=b": may not specified at the same time as requirements"#,
                "spec.resourceAttributes.fieldSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
                r#"spec.resourceAttributes.labelSelector.requirements[0].key: Invalid value: "": name part must be non-empty"#,
                r#"spec.resourceAttributes.labelSelector.requirements[0].key: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"#,
            ]
        );
    }

    #[test]
    fn an_empty_selector_needs_requirements_or_a_raw_selector() {
        let spec = json!({"resourceAttributes": {"fieldSelector": {}, "labelSelector": {
            "requirements": [{"key": "app", "operator": "Exists", "values": ["x"]}]}}});
        assert_eq!(
            messages(&validate_resource_attributes(&spec)),
            [
                "spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required",
                "spec.resourceAttributes.labelSelector.requirements[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ]
        );
        let good = json!({"resourceAttributes": {
            "fieldSelector": {"requirements": [{"key": "spec.nodeName", "operator": "In", "values": ["n"]}]},
            "labelSelector": {"rawSelector": "app"}}});
        assert!(validate_resource_attributes(&good).is_empty());
    }

    #[test]
    fn metadata_must_be_empty_but_for_managed_fields_and_a_local_namespace() {
        let managed =
            json!({"metadata": {"managedFields": [{"manager": "m", "operation": "Update"}]}});
        assert!(validate_metadata(&managed, false).is_empty());
        assert!(validate_metadata(&json!({"metadata": {"labels": {}}}), false).is_empty());
        let local = json!({"metadata": {"namespace": "a"}});
        assert!(validate_metadata(&local, true).is_empty());
        assert_eq!(
            messages(&validate_metadata(&local, false)),
            [r#"metadata: Invalid value: {"namespace":"a"}: must be empty"#]
        );
        let named = json!({"metadata": {"name": "x", "namespace": "a",
            "managedFields": [{"manager": "m", "operation": "Update"}]}});
        assert_eq!(
            messages(&validate_metadata(&named, true)),
            [
                r#"metadata: Invalid value: {"name":"x","namespace":"a","managedFields":[{"manager":"m","operation":"Update"}]}: must be empty except for namespace"#
            ]
        );
    }

    #[test]
    fn a_review_gives_exactly_one_attribute_set_and_a_subject() {
        assert!(validate_union(&json!({"resourceAttributes": {}})).is_empty());
        assert_eq!(validate_union(&json!({})).len(), 1);
        assert_eq!(
            validate_union(&json!({"resourceAttributes": {}, "nonResourceAttributes": {}})).len(),
            1
        );
        assert_eq!(validate_subject(&Info::default()).len(), 1);
    }
}
