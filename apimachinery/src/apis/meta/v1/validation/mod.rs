//! Validation of `meta/v1` values with Go's rules and messages: object metadata (Go's
//! `k8s.io/apimachinery/pkg/api/validation` `ValidateObjectMeta`, kept here because
//! `ObjectMeta` lives in this layer and `api` sits below it), labels, annotations and
//! label selectors (Go's `apis/meta/v1/validation`).
//!
//! ```
//! use apimachinery::apis::meta::v1::{validation, ObjectMeta};
//! use apimachinery::util::validation::field::Path;
//!
//! let meta = ObjectMeta { name: "Web".into(), ..Default::default() };
//! let errs = validation::validate_object_meta(
//!     &meta, true, validation::name_is_dns_subdomain, &Path::new("metadata"));
//! assert_eq!(errs.len(), 2); // a bad name, and no namespace
//! ```

use crate::util::go_strings::to_lower;
use std::collections::BTreeMap;

mod object_meta;

pub use object_meta::*;

use super::{
    LabelSelector, LabelSelectorRequirement, ManagedFieldsEntry, Status, StatusCause, StatusDetails,
};
use crate::schema::GroupKind;
use crate::util::validation::field::{
    BadValue, Error, ErrorList, Path, go_is_print, go_unicode_verb,
};
use crate::util::validation::{is_qualified_name, is_valid_label_value};

/// The most bytes all annotation keys and values of one object may hold together.
pub const TOTAL_ANNOTATION_SIZE_LIMIT_B: i64 = 256 * 1024;

/// Go's `IsNegativeErrorMsg`.
pub const IS_NEGATIVE_ERROR_MSG: &str = "must be greater than or equal to 0";

/// Go's `ValidateLabelName`: a label key is a qualified name.
pub fn validate_label_name(name: &str, fld_path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    for msg in is_qualified_name(name) {
        errs.push(Error::invalid(fld_path, name, msg));
    }
    errs
}

/// Go's `ValidateLabels`: keys are qualified names, values label values; errors name the
/// map's path, as Go's do.
pub fn validate_labels(labels: &BTreeMap<String, String>, fld_path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    for (k, v) in labels {
        errs.extend(validate_label_name(k, fld_path));
        for msg in is_valid_label_value(v) {
            errs.push(Error::invalid(fld_path, v, msg));
        }
    }
    errs
}

/// Go's `ValidateAnnotations`: keys are qualified names (compared lower-cased) and all
/// keys and values together hold at most 256 KiB.
pub fn validate_annotations(annotations: &BTreeMap<String, String>, fld_path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    let mut total: i64 = 0;
    for (k, v) in annotations {
        for msg in is_qualified_name(&to_lower(k)) {
            errs.push(Error::invalid(fld_path, k, msg));
        }
        total = total.saturating_add(i64::try_from(k.len() + v.len()).unwrap_or(i64::MAX));
    }
    if total > TOTAL_ANNOTATION_SIZE_LIMIT_B {
        errs.push(Error::too_long(fld_path, TOTAL_ANNOTATION_SIZE_LIMIT_B));
    }
    errs
}

/// Go's `ValidateLabelSelector` (with invalid label values in selectors refused).
pub fn validate_label_selector(selector: &LabelSelector, fld_path: &Path) -> ErrorList {
    let mut errs = validate_labels(&selector.match_labels, &fld_path.child("matchLabels"));
    let exprs = fld_path.child("matchExpressions");
    for (i, expr) in selector.match_expressions.iter().enumerate() {
        errs.extend(validate_label_selector_requirement(expr, &exprs.index(i)));
    }
    errs
}

/// Go's `ValidateLabelSelectorRequirement`.
pub fn validate_label_selector_requirement(
    req: &LabelSelectorRequirement,
    fld_path: &Path,
) -> ErrorList {
    let mut errs = ErrorList::default();
    let values = fld_path.child("values");
    match req.operator.as_str() {
        "In" | "NotIn" => {
            if req.values.is_empty() {
                errs.push(Error::required(
                    &values,
                    "must be specified when `operator` is 'In' or 'NotIn'",
                ));
            }
        }
        "Exists" | "DoesNotExist" => {
            if !req.values.is_empty() {
                errs.push(Error::forbidden(
                    &values,
                    "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                ));
            }
        }
        op => errs.push(Error::invalid(
            &fld_path.child("operator"),
            // A LabelSelectorOperator: a named string type, printed by json.Marshal.
            BadValue::json_string(op),
            "not a valid selector operator",
        )),
    }
    errs.extend(validate_label_name(&req.key, &fld_path.child("key")));
    for (i, v) in req.values.iter().enumerate() {
        for msg in is_valid_label_value(v) {
            errs.push(Error::invalid(&values.index(i), v, msg));
        }
    }
    errs
}

/// Go's `IsValidConditionReason`: a letter, then letters, digits, `_`, `,` or `:`,
/// ending in a letter, digit or `_` (`[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?`).
///
/// ```
/// use apimachinery::apis::meta::v1::validation::is_valid_condition_reason;
///
/// assert!(is_valid_condition_reason("ReasonA,ReasonB").is_empty());
/// assert_eq!(is_valid_condition_reason("9Lives").len(), 1);
/// ```
pub fn is_valid_condition_reason(value: &str) -> Vec<String> {
    let b = value.as_bytes();
    let inner = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b',' | b':');
    let valid = match (b.first(), b.last()) {
        (Some(f), Some(l)) => {
            f.is_ascii_alphabetic()
                && (b.len() == 1 || l.is_ascii_alphanumeric() || *l == b'_')
                && b.iter().all(inner)
        }
        _ => false,
    };
    if valid {
        return Vec::new();
    }
    vec![crate::util::validation::regex_error(
        "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
        "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?",
        &[
            "my_name",
            "MY_NAME",
            "MyName",
            "ReasonA,ReasonB",
            "ReasonA:ReasonB",
        ],
    )]
}

/// Go's `FieldManagerMaxLength`.
pub const FIELD_MANAGER_MAX_LENGTH: usize = 128;

/// Go's `MaxSubresourceNameLength`.
pub const MAX_SUBRESOURCE_NAME_LENGTH: usize = 256;

/// Go's `ValidateFieldManager`: at most 128 bytes, every character printable.
pub fn validate_field_manager(manager: &str, fld_path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    if manager.len() > FIELD_MANAGER_MAX_LENGTH {
        errs.push(Error::too_long(fld_path, FIELD_MANAGER_MAX_LENGTH as i64));
    }
    for (i, c) in manager.char_indices() {
        if !go_is_print(c) {
            errs.push(Error::invalid(
                fld_path,
                manager,
                format!("invalid character {} (at position {i})", go_unicode_verb(c)),
            ));
        }
    }
    errs
}

/// Go's `ValidateManagedFields`: each entry's operation `Apply` or `Update`, its
/// fieldsType `FieldsV1` when given, its manager and its subresource's length.
pub fn validate_managed_fields(entries: &[ManagedFieldsEntry], fld_path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    for (i, entry) in entries.iter().enumerate() {
        let p = fld_path.index(i);
        #[cfg(not(feature = "v1_37"))]
        if !matches!(entry.operation.as_str(), "Apply" | "Update") {
            errs.push(Error::invalid(
                &p.child("operation"),
                BadValue::json_string(&entry.operation),
                "must be `Apply` or `Update`",
            ));
        }
        // Kubernetes 1.37: an empty operation is missing, another one not supported.
        #[cfg(feature = "v1_37")]
        match entry.operation.as_str() {
            "Apply" | "Update" => {}
            "" => errs.push(Error::required(&p.child("operation"), "must not be empty")),
            // A `ManagedFieldsOperationType`, not a `string`: Go writes it as JSON.
            other => errs.push(Error::not_supported(
                &p.child("operation"),
                BadValue::json_string(other),
                &["Apply", "Update"],
            )),
        }
        if !entry.fields_type.is_empty() && entry.fields_type != "FieldsV1" {
            errs.push(Error::invalid(
                &p.child("fieldsType"),
                &entry.fields_type,
                "must be `FieldsV1`",
            ));
        }
        errs.extend(validate_field_manager(&entry.manager, &p.child("manager")));
        if entry.subresource.len() > MAX_SUBRESOURCE_NAME_LENGTH {
            errs.push(Error::too_long(
                &p.child("subresource"),
                MAX_SUBRESOURCE_NAME_LENGTH as i64,
            ));
        }
    }
    errs
}

/// The 422 `Invalid` Status kube-apiserver answers for an object that fails validation
/// (Go's `errors.NewInvalid`): one cause per error (reason `FieldValueInvalid` and the
/// like, the error's body as message, the field's path), and the message
/// `Deployment.apps "web" is invalid: [e1, e2]`.
pub fn new_invalid(qualified_kind: &GroupKind, name: &str, errs: &ErrorList) -> Status {
    let causes = errs
        .iter()
        .map(|e| StatusCause {
            reason: e.error_type.cause_type().to_owned(),
            message: e.error_body(),
            field: e.field.clone(),
        })
        .collect();
    Status {
        status: "Failure".to_owned(),
        message: errs.invalid_message(&qualified_kind.to_string(), name),
        reason: "Invalid".to_owned(),
        details: Some(StatusDetails {
            name: name.to_owned(),
            group: qualified_kind.group.to_string(),
            kind: qualified_kind.kind.to_string(),
            causes,
            ..Default::default()
        }),
        code: 422,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apis::meta::v1::{ObjectMeta, OwnerReference};

    fn meta(name: &str, ns: &str) -> ObjectMeta {
        ObjectMeta {
            name: name.into(),
            namespace: ns.into(),
            ..Default::default()
        }
    }

    #[test]
    fn object_meta_names_and_namespaces() {
        let p = Path::new("metadata");
        assert!(
            validate_object_meta(&meta("web", "default"), true, name_is_dns_subdomain, &p)
                .is_empty()
        );
        let errs = validate_object_meta(&meta("", ""), true, name_is_dns_subdomain, &p);
        assert_eq!(
            errs.to_string(),
            "[metadata.name: Required value: name or generateName is required, metadata.namespace: Required value]"
        );
        let errs = validate_object_meta(&meta("a", "x"), false, name_is_dns_subdomain, &p);
        assert_eq!(
            errs.to_string(),
            "metadata.namespace: Forbidden: not allowed on this type"
        );
        // The name is generated before validation: a generateName alone is not enough.
        let mut m = meta("", "default");
        m.generate_name = "web-".into();
        assert_eq!(
            validate_object_meta(&m, true, name_is_dns_subdomain, &p).to_string(),
            "metadata.name: Required value: name or generateName is required"
        );
        m.name = "web-x5q7z".into();
        assert!(validate_object_meta(&m, true, name_is_dns_subdomain, &p).is_empty());
        let errs = validate_object_meta(&meta("a.b", "default"), true, name_is_dns_label, &p);
        assert_eq!(
            errs.to_string(),
            "metadata.name: Invalid value: \"a.b\": must not contain dots"
        );
        assert_eq!(
            validate_path_segment_name("a/b", false),
            vec!["may not contain '/'"]
        );
        assert_eq!(
            validate_path_segment_name("..", false),
            vec!["may not be '..'"]
        );
    }

    #[test]
    fn labels_annotations_finalizers_owners() {
        let p = Path::new("metadata");
        let mut m = meta("a", "");
        m.labels.insert("app".into(), "-bad".into());
        m.annotations.insert("x".into(), "y".repeat(300 * 1024));
        m.finalizers = vec!["example.com/f".into(), "example.com/f".into(), "a b".into()];
        m.managed_fields = vec![ManagedFieldsEntry {
            manager: "k\u{1}".into(),
            operation: "Patch".into(),
            fields_type: "FieldsV2".into(),
            ..Default::default()
        }];
        m.owner_references = vec![OwnerReference::default()];
        m.generation = -1;
        let errs = validate_object_meta(&m, false, name_is_dns_subdomain, &p);
        let text: Vec<String> = errs.iter().map(ToString::to_string).collect();
        assert!(
            text.contains(
                &"metadata.generation: Invalid value: -1: must be greater than or equal to 0"
                    .to_string()
            ),
            "{text:?}"
        );
        assert!(text.iter().any(|t| {
            t.starts_with("metadata.labels: Invalid value: \"-bad\": a valid label must be")
        }));
        assert!(text.contains(
            &"metadata.annotations: Too long: may not be more than 262144 bytes".to_string()
        ));
        // Duplicate finalizers are allowed, as in Go.
        assert!(!text.iter().any(|t| t.contains("Duplicate")));
        assert!(text.iter().any(|t| t.starts_with(
            "metadata.finalizers: Invalid value: \"a b\": name part must consist of"
        )));
        // apimachinery v0.37: an operation other than the two is NotSupported.
        let operation = if cfg!(feature = "v1_37") {
            "metadata.managedFields[0].operation: Unsupported value: \"Patch\": supported values: \"Apply\", \"Update\""
        } else {
            "metadata.managedFields[0].operation: Invalid value: \"Patch\": must be `Apply` or `Update`"
        };
        assert!(text.contains(&operation.to_string()), "{text:?}");
        assert!(text.contains(
            &"metadata.managedFields[0].fieldsType: Invalid value: \"FieldsV2\": must be `FieldsV1`".to_string()
        ));
        assert!(text.contains(
            &"metadata.managedFields[0].manager: Invalid value: \"k\\x01\": invalid character U+0001 (at position 1)".to_string()
        ));
        // apimachinery v0.37: an owner reference is reported at its index, each missing
        // field as Required.
        let owner_errors: &[&str] = if cfg!(feature = "v1_37") {
            &[
                "metadata.ownerReferences[0].apiVersion: Required value: must not be empty",
                "metadata.ownerReferences[0].uid: Required value: must not be empty",
            ]
        } else {
            &[
                "metadata.ownerReferences.apiVersion: Invalid value: \"\": version must not be empty",
                "metadata.ownerReferences.uid: Invalid value: \"\": must not be empty",
            ]
        };
        for e in owner_errors {
            assert!(text.contains(&(*e).to_string()), "{e}: {text:#?}");
        }
    }

    #[test]
    fn update_keeps_identity() {
        let p = Path::new("metadata");
        let mut old = meta("a", "ns");
        old.uid = "u1".into();
        old.resource_version = "1".into();
        old.generation = 2;
        old.deletion_grace_period_seconds = Some(30);
        let mut new = old.clone();
        assert!(validate_object_meta_update(&new, &old, &p).is_empty());
        new.name = "b".into();
        new.uid = "u2".into();
        new.generation = 1;
        new.resource_version = String::new();
        new.deletion_grace_period_seconds = None;
        assert_eq!(
            validate_object_meta_update(&new, &old, &p).to_string(),
            "[metadata.resourceVersion: Invalid value: \"\": must be specified for an update, \
             metadata.generation: Invalid value: 1: must not be decremented, \
             metadata.name: Invalid value: \"b\": field is immutable, \
             metadata.uid: Invalid value: \"u2\": field is immutable, \
             metadata.deletionGracePeriodSeconds: Invalid value: null: field is immutable]"
        );
    }

    #[test]
    fn invalid_status_is_gos() {
        let gk: GroupKind = GroupKind {
            group: "apps".into(),
            kind: "Deployment".into(),
        };
        let mut errs = ErrorList::default();
        errs.push(Error::invalid(
            &Path::new("spec").child("replicas"),
            -1,
            IS_NEGATIVE_ERROR_MSG,
        ));
        let st = new_invalid(&gk, "web", &errs);
        assert_eq!(st.code, 422);
        assert_eq!(st.reason, "Invalid");
        assert_eq!(
            st.message,
            "Deployment.apps \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"
        );
        let details = st.details.unwrap_or_default();
        assert_eq!(details.causes.len(), 1);
        assert_eq!(details.causes[0].reason, "FieldValueInvalid");
        assert_eq!(details.causes[0].field, "spec.replicas");
        assert_eq!(
            details.causes[0].message,
            "Invalid value: -1: must be greater than or equal to 0"
        );
    }

    #[test]
    fn selectors() {
        let spec = Path::new("spec");
        let p = spec.child("selector");
        let sel = LabelSelector {
            match_labels: BTreeMap::new(),
            match_expressions: vec![
                LabelSelectorRequirement {
                    key: "a".into(),
                    operator: "In".into(),
                    values: vec![],
                },
                LabelSelectorRequirement {
                    key: "b".into(),
                    operator: "Exists".into(),
                    values: vec!["x".into()],
                },
                LabelSelectorRequirement {
                    key: "c".into(),
                    operator: "Is".into(),
                    values: vec!["-".into()],
                },
            ],
        };
        let text: Vec<String> = validate_label_selector(&sel, &p)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            text[0],
            "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"
        );
        assert_eq!(
            text[1],
            "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
        );
        assert_eq!(
            text[2],
            "spec.selector.matchExpressions[2].operator: Invalid value: \"Is\": not a valid selector operator"
        );
        assert!(text[3].starts_with(
            "spec.selector.matchExpressions[2].values[0]: Invalid value: \"-\": a valid label"
        ));
    }
}
