//! The checks every write goes through: the kind's validator registered with the
//! Scheme (Go's strategy `Validate`/`ValidateUpdate`, see
//! [`Scheme::validate`](apimachinery::runtime::Scheme::validate)) when it has one,
//! else Go's `ValidateObjectMeta` essentials: names follow the resource's rule
//! ([`NameValidation`], which its strategy names), and labels are valid label keys and
//! values.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::validation::validate_labels;
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
/// when `old` is given: with the kind's validator when the Scheme has one, else its
/// metadata only, its name by `names`. 422 `Invalid` with every cause, in Go's words
/// (`Deployment.apps "web" is invalid: [...]`).
pub fn validate(
    scheme: &Scheme,
    info: &ResourceInfo,
    names: NameValidation,
    obj: &dyn Object,
    old: Option<&dyn Object>,
) -> Result<(), StatusError> {
    let Some(errs) = scheme.validate(obj, old) else {
        return validate_object_meta(info, names, obj);
    };
    refuse_unless_empty(info, obj, &errs)
}

/// Validates a write of `obj`'s `/status` replacing `old`: with the kind's `/status`
/// validator when the Scheme has one (Go's status strategy's `ValidateUpdate`, e.g.
/// `ValidatePodStatusUpdate`), else its metadata only. 422 `Invalid` with every cause.
pub fn validate_status(
    scheme: &Scheme,
    info: &ResourceInfo,
    names: NameValidation,
    obj: &dyn Object,
    old: Option<&dyn Object>,
) -> Result<(), StatusError> {
    let Some(errs) = old.and_then(|old| scheme.validate_status(obj, old)) else {
        return validate_object_meta(info, names, obj);
    };
    refuse_unless_empty(info, obj, &errs)
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
    let Some(meta) = obj.meta() else {
        return Ok(());
    };
    let name = meta.name();
    let metadata = Path::new("metadata");
    let name_path = metadata.child("name");
    let mut errs = ErrorList::default();
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
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errors::new_invalid(&info.qualified_kind(), name, &errs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
