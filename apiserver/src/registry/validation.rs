//! The checks every write goes through: the kind's validator registered with the
//! Scheme (Go's strategy `Validate`/`ValidateUpdate`, see
//! [`Scheme::validate`](apimachinery::runtime::Scheme::validate)) when it has one,
//! else Go's `ValidateObjectMeta` essentials: names follow the resource's rule
//! ([`NameValidation`], which its strategy names), and labels are valid label keys and
//! values.
//!
//! On 1.36 an update (of the object or its `/status`) first gets the metadata checks
//! kube-apiserver 1.36's `rest.BeforeUpdate` runs for every kind (its
//! `validateCommonFields`, see [`common_fields`]), and their causes come before the
//! kind's, repeats included (a bad label is reported by both, as Go's `NewInvalid`
//! keeps every cause). 1.37 sends the same errors through the declarative-validation
//! merge, which keeps one of each: there the kind's validator alone answers.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::validation::validate_labels;
#[cfg(feature = "v1_36")]
use apimachinery::apis::meta::v1::validation::{
    validate_generic_object_meta, validate_object_meta_accessor_update,
};
use apimachinery::runtime::{Object, Scheme};
use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::resource_info::ResourceInfo;

const SUBDOMAIN_MESSAGE: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MESSAGE: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/// Whether `s` is a DNS-1123 label (at most 63 characters).
pub fn is_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    !b.is_empty()
        && b.len() <= 63
        && b.first().is_some_and(alnum)
        && b.last().is_some_and(alnum)
        && b.iter().all(|c| alnum(c) || *c == b'-')
}

/// Whether `s` is a DNS-1123 subdomain (at most 253 characters).
pub fn is_dns1123_subdomain(s: &str) -> bool {
    s.len() <= 253 && s.split('.').all(is_dns1123_label)
}

/// Why `name` is not a valid path segment (Go's `path.IsValidPathSegmentName`).
pub fn path_segment_name_errors(name: &str) -> Vec<&'static str> {
    let mut errors = Vec::new();
    match name {
        "." => errors.push("may not be '.'"),
        ".." => errors.push("may not be '..'"),
        _ => {}
    }
    if name.contains('/') {
        errors.push("may not contain '/'");
    }
    if name.contains('%') {
        errors.push("may not contain '%'");
    }
    errors
}

/// What a resource's names must be (Go's `ValidateNameFunc` of its strategy).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NameValidation {
    /// A DNS-1123 subdomain (most kinds).
    #[default]
    Subdomain,
    /// A DNS-1123 label (Go's `ValidateNamespaceName`, `ValidateServiceName`).
    Label,
    /// Any path segment (Go's `ValidateRBACName`: the bootstrap roles are `system:...`).
    PathSegment,
}

/// Validates `obj` (the storage version) of resource `info` on create, or on update
/// when `old` is given (on 1.36 the common metadata checks first, see
/// [`common_fields`]): with the kind's validator when the Scheme has one, else its
/// metadata only, its name by `names`. 422 `Invalid` with every cause, in Go's words
/// (`Deployment.apps "web" is invalid: [...]`).
pub fn validate(
    scheme: &Scheme,
    info: &ResourceInfo,
    names: NameValidation,
    obj: &dyn Object,
    old: Option<&dyn Object>,
) -> Result<(), StatusError> {
    #[cfg(feature = "v1_36")]
    if let Some(old) = old {
        let mut errs = common_fields(info, obj, old);
        let kind = scheme.validate_strategy(obj, Some(old));
        errs.extend(kind.unwrap_or_else(|| object_meta_errors(names, obj)));
        return refuse_unless_empty(info, obj, &errs);
    }
    let Some(errs) = scheme.validate(obj, old) else {
        return validate_object_meta(info, names, obj);
    };
    refuse_unless_empty(info, obj, &errs)
}

/// [`validate`] of a create of `obj`, with the causes `extra` of the resource's strategy
/// after the kind's (Go's strategies whose `Validate` adds checks of their own to their
/// kind's validation).
pub fn validate_create_with(
    scheme: &Scheme,
    info: &ResourceInfo,
    names: NameValidation,
    obj: &dyn Object,
    extra: ErrorList,
) -> Result<(), StatusError> {
    let mut errs = scheme
        .validate(obj, None)
        .unwrap_or_else(|| object_meta_errors(names, obj));
    errs.extend(extra);
    refuse_unless_empty(info, obj, &errs)
}

/// Validates a write of `obj`'s `/status` replacing `old`: with the kind's `/status`
/// validator when the Scheme has one (Go's status strategy's `ValidateUpdate`, e.g.
/// `ValidatePodStatusUpdate`) after the metadata checks, else its metadata only; on
/// 1.36 after the common metadata checks (Go's status strategies go through
/// `rest.BeforeUpdate` too). 422 `Invalid` with every cause.
pub fn validate_status(
    scheme: &Scheme,
    info: &ResourceInfo,
    names: NameValidation,
    obj: &dyn Object,
    old: Option<&dyn Object>,
) -> Result<(), StatusError> {
    let kind = old.and_then(|old| scheme.validate_status(obj, old));
    #[cfg(feature = "v1_36")]
    if let Some(old) = old {
        // A kind without a `/status` validator here is one whose status strategy
        // checks its status only (PodDisruptionBudget's): its metadata is checked by
        // the common checks alone.
        let mut errs = common_fields(info, obj, old);
        errs.extend(kind.unwrap_or_default());
        return refuse_unless_empty(info, obj, &errs);
    }
    match kind {
        // The common metadata checks and the kind's, one of each (1.37's merge): a
        // status validator checking the status alone (a PodDisruptionBudget's) still
        // has the labels checked.
        Some(errs) => {
            let mut all = object_meta_errors(names, obj);
            for e in errs.iter() {
                let text = e.to_string();
                if !all.iter().any(|seen| seen.to_string() == text) {
                    all.push(e.clone());
                }
            }
            refuse_unless_empty(info, obj, &all)
        }
        None => validate_object_meta(info, names, obj),
    }
}

/// Validates a write of `obj` through its subresource `name` (other than `status`)
/// replacing `old`, with the kind's validator for it (Go's subresource strategy's
/// `ValidateUpdate`: a Pod's `resize`, `ValidatePodResize`); on 1.36 after the common
/// metadata checks. A kind without one has nothing checked beyond them. 422 `Invalid`
/// with every cause.
pub fn validate_subresource(
    scheme: &Scheme,
    info: &ResourceInfo,
    name: &str,
    obj: &dyn Object,
    old: Option<&dyn Object>,
) -> Result<(), StatusError> {
    let Some(old) = old else {
        return Ok(());
    };
    #[allow(unused_mut)]
    let mut errs = ErrorList::default();
    #[cfg(feature = "v1_36")]
    errs.extend(common_fields(info, obj, old));
    errs.extend(
        scheme
            .validate_subresource(name, obj, old)
            .unwrap_or_default(),
    );
    refuse_unless_empty(info, obj, &errs)
}

/// What kube-apiserver 1.36 checks of every object's metadata on an update before its
/// kind's own validation (Go's `validateCommonFields` in `rest.BeforeUpdate`): the new
/// metadata on its own (names as path segments, the namespace by the resource's
/// scope), then against the old (`ValidateObjectMetaAccessorUpdate`: uid, name,
/// creationTimestamp... unchanged, a resourceVersion given, and the labels again).
#[cfg(feature = "v1_36")]
pub fn common_fields(info: &ResourceInfo, obj: &dyn Object, old: &dyn Object) -> ErrorList {
    let (Some(meta), Some(old_meta)) = (obj.meta(), old.meta()) else {
        return ErrorList::default();
    };
    let mut errs = validate_generic_object_meta(meta, info.namespaced);
    errs.extend(validate_object_meta_accessor_update(
        meta,
        old_meta,
        &Path::new("metadata"),
    ));
    errs
}

/// Nothing when `errs` is empty, else 422 `Invalid` for `obj` with every cause.
fn refuse_unless_empty(
    info: &ResourceInfo,
    obj: &dyn Object,
    errs: &ErrorList,
) -> Result<(), StatusError> {
    if errs.is_empty() {
        return Ok(());
    }
    let name = obj.meta().map(|m| m.name().to_owned()).unwrap_or_default();
    Err(errors::new_invalid(&info.qualified_kind(), &name, errs))
}

/// Checks the metadata of `obj` for resource `info`, its name by `names`: 422 Invalid
/// with every cause.
pub fn validate_object_meta(
    info: &ResourceInfo,
    names: NameValidation,
    obj: &dyn Object,
) -> Result<(), StatusError> {
    refuse_unless_empty(info, obj, &object_meta_errors(names, obj))
}

/// The metadata checks of a kind without a validator: its name by `names`, and its
/// labels.
fn object_meta_errors(names: NameValidation, obj: &dyn Object) -> ErrorList {
    let mut errs = ErrorList::default();
    let Some(meta) = obj.meta() else {
        return errs;
    };
    let name = meta.name();
    let metadata = Path::new("metadata");
    let name_path = metadata.child("name");
    match names {
        NameValidation::PathSegment => {
            for why in path_segment_name_errors(name) {
                errs.push(Error::invalid(&name_path, name, why));
            }
        }
        NameValidation::Label if !is_dns1123_label(name) => {
            errs.push(Error::invalid(&name_path, name, LABEL_MESSAGE));
        }
        NameValidation::Subdomain if !is_dns1123_subdomain(name) => {
            errs.push(Error::invalid(&name_path, name, SUBDOMAIN_MESSAGE));
        }
        NameValidation::Label | NameValidation::Subdomain => {}
    }
    errs.extend(validate_labels(&meta.labels(), &metadata.child("labels")));
    errs
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use k8s_types as _;
    use serde_json::{Value, json};

    use super::*;
    use crate::registry::{from_value, resources_from_scheme};

    /// The fields of the causes of an update of `resource` from `old` to `new` (of its
    /// `/status` when `status`), and how many errors the kind's own validator gives.
    fn causes(resource: &str, old: Value, new: Value, status: bool) -> (Vec<String>, usize) {
        let mut scheme = Scheme::with_name("validation-tests");
        scheme.add_registry().unwrap();
        let info = resources_from_scheme(&scheme)
            .into_values()
            .find(|r| r.resource == resource)
            .unwrap();
        let old = from_value(&scheme, &info.storage_gvk, old).unwrap();
        let new = from_value(&scheme, &info.storage_gvk, new).unwrap();
        let kind = match status {
            true => scheme.validate_status(&*new, &*old),
            false => scheme.validate(&*new, Some(&*old)),
        };
        let check = if status { validate_status } else { validate };
        let err = check(
            &scheme,
            &info,
            NameValidation::Subdomain,
            &*new,
            Some(&*old),
        )
        .unwrap_err();
        let details = err.status.details.unwrap();
        let fields = details.causes.into_iter().map(|c| c.field).collect();
        (fields, kind.map_or(0, |errs| errs.len()))
    }

    #[test]
    fn an_update_reports_a_bad_label_as_the_release_does() {
        let meta = |labels: Value| json!({"name": "c", "namespace": "d", "resourceVersion": "1", "labels": labels});
        let old = json!({"metadata": meta(json!({}))});
        let new = json!({"metadata": meta(json!({"bad key": "v"}))});
        let (fields, kind) = causes("configmaps", old, new, false);
        // 1.36: the common checks' causes first (the new metadata on its own, then
        // against the old: both check labels), then the kind's own; 1.37: the kind's.
        assert!(kind > 0);
        let common = if cfg!(feature = "v1_36") { 2 } else { 0 };
        assert_eq!(fields.len(), common + kind, "{fields:?}");
        assert!(fields.iter().all(|f| f == "metadata.labels"), "{fields:?}");
        let spec = json!({"minAvailable": 1, "selector": {"matchLabels": {"app": "web"}}});
        let old = json!({"metadata": meta(json!({})), "spec": spec});
        let new = json!({"metadata": meta(json!({"bad key": "v"})), "spec": spec});
        // PodDisruptionBudget has no `/status` validator here (Go's checks its status
        // only): on 1.36 the common checks' two causes alone, on 1.37 the metadata's.
        let (fields, kind) = causes("poddisruptionbudgets", old, new, true);
        assert_eq!(kind, 0);
        let expected = if cfg!(feature = "v1_36") { 2 } else { 1 };
        assert_eq!(fields.len(), expected, "{fields:?}");
        assert!(fields.iter().all(|f| f == "metadata.labels"), "{fields:?}");
    }

    #[test]
    fn names_follow_rfc_1123() {
        assert!(is_dns1123_subdomain("web-1.example"));
        assert!(!is_dns1123_subdomain("Web"));
        assert!(!is_dns1123_subdomain("a_b"));
        assert!(!is_dns1123_subdomain(""));
        assert!(!is_dns1123_subdomain(&"a".repeat(254)));
        assert!(is_dns1123_label("kube-system"));
        assert!(!is_dns1123_label("a.b"));
        assert!(!is_dns1123_label("-a"));
    }

    #[test]
    fn path_segment_names_refuse_only_dots_slashes_and_percents() {
        assert!(path_segment_name_errors("system:aggregate-to-admin").is_empty());
        assert_eq!(path_segment_name_errors(".."), vec!["may not be '..'"]);
        assert_eq!(
            path_segment_name_errors("a/b%"),
            vec!["may not contain '/'", "may not contain '%'"]
        );
    }
}
