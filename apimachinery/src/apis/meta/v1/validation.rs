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

use std::collections::{BTreeMap, HashSet};

use super::{
    LabelSelector, LabelSelectorRequirement, ObjectMeta, OwnerReference, Status, StatusCause,
    StatusDetails,
};
use crate::schema::GroupKind;
use crate::util::validation::field::{Error, ErrorList, Path};
use crate::util::validation::{
    is_dns1035_label, is_dns1123_label, is_dns1123_subdomain, is_qualified_name,
    is_valid_label_value,
};

/// The most bytes all annotation keys and values of one object may hold together.
pub const TOTAL_ANNOTATION_SIZE_LIMIT_B: i64 = 256 * 1024;

/// Go's `FieldImmutableErrorMsg`.
pub const FIELD_IMMUTABLE_ERROR_MSG: &str = "field is immutable";

/// Go's `IsNegativeErrorMsg`.
pub const IS_NEGATIVE_ERROR_MSG: &str = "must be greater than or equal to 0";

/// A kind's rule for names: the messages for `name`, where `prefix` says the value is a
/// `generateName` (a trailing `-` is then allowed).
pub type ValidateNameFunc = fn(name: &str, prefix: bool) -> Vec<String>;

fn mask_trailing_dash(name: &str) -> String {
    match name.strip_suffix('-') {
        Some(rest) if !rest.is_empty() => format!("{rest}a"),
        _ => name.to_owned(),
    }
}

/// Names that are DNS-1123 subdomains (most kinds).
pub fn name_is_dns_subdomain(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        is_dns1123_subdomain(&mask_trailing_dash(name))
    } else {
        is_dns1123_subdomain(name)
    }
}

/// Names that are DNS-1123 labels (namespaces, services' ports...).
pub fn name_is_dns_label(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        is_dns1123_label(&mask_trailing_dash(name))
    } else {
        is_dns1123_label(name)
    }
}

/// Names that are DNS-1035 labels (services).
pub fn name_is_dns1035_label(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        is_dns1035_label(&mask_trailing_dash(name))
    } else {
        is_dns1035_label(name)
    }
}

/// Names that need only be a path segment (RBAC roles and the like): not `.` or `..`,
/// no `/` or `%`.
pub fn validate_path_segment_name(name: &str, prefix: bool) -> Vec<String> {
    let mut errs = Vec::new();
    if !prefix {
        for bad in [".", ".."] {
            if name == bad {
                errs.push(format!("may not be '{bad}'"));
            }
        }
    }
    for bad in ["/", "%"] {
        if name.contains(bad) {
            errs.push(format!("may not contain '{bad}'"));
        }
    }
    errs
}

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
        for msg in is_qualified_name(&k.to_lowercase()) {
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
            op,
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

fn validate_owner_reference(r: &OwnerReference, fld_path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    // Go reads the version with ParseGroupVersion: `v1`, `group/v1`; more slashes or
    // none at all leave it empty.
    let version = match r.api_version.split('/').collect::<Vec<_>>().as_slice() {
        [v] => *v,
        [_, v] => *v,
        _ => "",
    };
    if version.is_empty() {
        errs.push(Error::invalid(
            &fld_path.child("apiVersion"),
            &r.api_version,
            "version must not be empty",
        ));
    }
    if r.kind.is_empty() {
        errs.push(Error::invalid(
            &fld_path.child("kind"),
            &r.kind,
            "must not be empty",
        ));
    }
    if r.name.is_empty() {
        errs.push(Error::invalid(
            &fld_path.child("name"),
            &r.name,
            "must not be empty",
        ));
    }
    if r.uid.is_empty() {
        errs.push(Error::invalid(
            &fld_path.child("uid"),
            &r.uid,
            "must not be empty",
        ));
    }
    errs
}

/// Go's `ValidateOwnerReferences`: each reference complete (errors name the list's
/// path, as Go's do).
pub fn validate_owner_references(refs: &[OwnerReference], fld_path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    for r in refs {
        errs.extend(validate_owner_reference(r, fld_path));
    }
    errs
}

/// Go's `ValidateFinalizers`: qualified names, no duplicates.
pub fn validate_finalizers(finalizers: &[String], fld_path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    let mut seen = HashSet::new();
    for f in finalizers {
        for msg in is_qualified_name(f) {
            errs.push(Error::invalid(fld_path, f, msg));
        }
        if !seen.insert(f.as_str()) {
            errs.push(Error::duplicate(fld_path, f));
        }
    }
    errs
}

/// Go's `ValidateObjectMeta`: name or generateName by the kind's `name_fn`, namespace
/// present exactly when the kind is namespaced, generation not negative, labels,
/// annotations, owner references and finalizers.
pub fn validate_object_meta(
    meta: &ObjectMeta,
    requires_namespace: bool,
    name_fn: ValidateNameFunc,
    fld_path: &Path,
) -> ErrorList {
    let mut errs = ErrorList::default();
    if !meta.generate_name.is_empty() {
        for msg in name_fn(&meta.generate_name, true) {
            errs.push(Error::invalid(
                &fld_path.child("generateName"),
                &meta.generate_name,
                msg,
            ));
        }
    }
    if meta.name.is_empty() {
        if meta.generate_name.is_empty() {
            errs.push(Error::required(
                &fld_path.child("name"),
                "name or generateName is required",
            ));
        }
    } else {
        for msg in name_fn(&meta.name, false) {
            errs.push(Error::invalid(&fld_path.child("name"), &meta.name, msg));
        }
    }
    let ns = fld_path.child("namespace");
    if requires_namespace {
        if meta.namespace.is_empty() {
            errs.push(Error::required(&ns, ""));
        } else {
            for msg in is_dns1123_label(&meta.namespace) {
                errs.push(Error::invalid(&ns, &meta.namespace, msg));
            }
        }
    } else if !meta.namespace.is_empty() {
        errs.push(Error::forbidden(&ns, "not allowed on this type"));
    }
    if meta.generation < 0 {
        errs.push(Error::invalid(
            &fld_path.child("generation"),
            meta.generation,
            IS_NEGATIVE_ERROR_MSG,
        ));
    }
    errs.extend(validate_labels(&meta.labels, &fld_path.child("labels")));
    errs.extend(validate_annotations(
        &meta.annotations,
        &fld_path.child("annotations"),
    ));
    errs.extend(validate_owner_references(
        &meta.owner_references,
        &fld_path.child("ownerReferences"),
    ));
    errs.extend(validate_finalizers(
        &meta.finalizers,
        &fld_path.child("finalizers"),
    ));
    errs
}

/// Go's `ValidateObjectMetaUpdate`: the new metadata valid on its own terms (labels,
/// annotations, owner references, finalizers, generation), and name, namespace and uid
/// unchanged.
pub fn validate_object_meta_update(
    new: &ObjectMeta,
    old: &ObjectMeta,
    fld_path: &Path,
) -> ErrorList {
    let mut errs = ErrorList::default();
    for (field, n, o) in [
        ("name", &new.name, &old.name),
        ("namespace", &new.namespace, &old.namespace),
        ("uid", &new.uid, &old.uid),
    ] {
        if n != o {
            errs.push(Error::invalid(
                &fld_path.child(field),
                n,
                FIELD_IMMUTABLE_ERROR_MSG,
            ));
        }
    }
    if new.generation < 0 {
        errs.push(Error::invalid(
            &fld_path.child("generation"),
            new.generation,
            IS_NEGATIVE_ERROR_MSG,
        ));
    }
    errs.extend(validate_labels(&new.labels, &fld_path.child("labels")));
    errs.extend(validate_annotations(
        &new.annotations,
        &fld_path.child("annotations"),
    ));
    errs.extend(validate_owner_references(
        &new.owner_references,
        &fld_path.child("ownerReferences"),
    ));
    errs.extend(validate_finalizers(
        &new.finalizers,
        &fld_path.child("finalizers"),
    ));
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
        let mut m = meta("", "default");
        m.generate_name = "web-".into();
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
        m.finalizers = vec!["example.com/f".into(), "example.com/f".into()];
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
        assert!(
            text.contains(&"metadata.finalizers: Duplicate value: \"example.com/f\"".to_string())
        );
        assert!(text.contains(&"metadata.ownerReferences.apiVersion: Invalid value: \"\": version must not be empty".to_string()));
        assert!(text.contains(
            &"metadata.ownerReferences.uid: Invalid value: \"\": must not be empty".to_string()
        ));
    }

    #[test]
    fn update_keeps_identity() {
        let p = Path::new("metadata");
        let mut old = meta("a", "ns");
        old.uid = "u1".into();
        let mut new = old.clone();
        assert!(validate_object_meta_update(&new, &old, &p).is_empty());
        new.name = "b".into();
        new.uid = "u2".into();
        assert_eq!(
            validate_object_meta_update(&new, &old, &p).to_string(),
            "[metadata.name: Invalid value: \"b\": field is immutable, metadata.uid: Invalid value: \"u2\": field is immutable]"
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
