//! Object metadata on create and update, as Go's
//! `k8s.io/apimachinery/pkg/api/validation` (`objectmeta.go`, `generic.go`) checks it:
//! names by the kind's rule, namespace by scope, generation, labels, annotations, owner
//! references, finalizers and managed fields; on update, the fields no update may
//! change and those it may only move one way.

use std::borrow::Cow;
use std::collections::BTreeSet;

use super::{
    IS_NEGATIVE_ERROR_MSG, validate_annotations, validate_labels, validate_managed_fields,
};
use crate::apis::meta::v1::{ObjectMeta, ObjectMetaAccessor, OwnerReference};
use crate::util::validation::field::{BadValue, Error, ErrorList, Path};
use crate::util::validation::{
    is_dns1035_label, is_dns1123_label, is_dns1123_subdomain, is_qualified_name,
};

/// Go's `FieldImmutableErrorMsg`.
pub const FIELD_IMMUTABLE_ERROR_MSG: &str = "field is immutable";

/// Go's `metav1.FinalizerOrphanDependents`.
pub const FINALIZER_ORPHAN_DEPENDENTS: &str = "orphan";

/// Go's `metav1.FinalizerDeleteDependents`.
pub const FINALIZER_DELETE_DEPENDENTS: &str = "foregroundDeletion";

/// A kind's rule for names: the messages for `name`, where `prefix` says the value is a
/// `generateName` (a trailing `-` is then allowed).
pub type ValidateNameFunc = fn(name: &str, prefix: bool) -> Vec<String>;

/// Go's `maskTrailingDash`, bug for bug: a name longer than one byte that ends in `-`
/// loses its last *two* bytes and gains an `a` (`web-` is checked as `wea`). Byte
/// slicing may cut a character in two in Go; the cut bytes are non-ASCII, which no
/// name rule accepts, so each is kept as a `_` (refused likewise, same length) and the
/// messages come out as Go's.
fn mask_trailing_dash(name: &str) -> Cow<'_, str> {
    let bytes = name.as_bytes();
    if bytes.len() > 1 && bytes.ends_with(b"-") {
        let kept = &bytes[..bytes.len() - 2];
        let mut out = String::with_capacity(kept.len() + 1);
        for chunk in kept.utf8_chunks() {
            out.push_str(chunk.valid());
            out.extend(chunk.invalid().iter().map(|_| '_'));
        }
        out.push('a');
        Cow::Owned(out)
    } else {
        Cow::Borrowed(name)
    }
}

/// Names that are DNS-1123 subdomains (most kinds): Go's `NameIsDNSSubdomain`.
pub fn name_is_dns_subdomain(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        is_dns1123_subdomain(&mask_trailing_dash(name))
    } else {
        is_dns1123_subdomain(name)
    }
}

/// Names that are DNS-1123 labels (namespaces...): Go's `NameIsDNSLabel`.
pub fn name_is_dns_label(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        is_dns1123_label(&mask_trailing_dash(name))
    } else {
        is_dns1123_label(name)
    }
}

/// Names that are DNS-1035 labels (services): Go's `NameIsDNS1035Label`.
pub fn name_is_dns1035_label(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        is_dns1035_label(&mask_trailing_dash(name))
    } else {
        is_dns1035_label(name)
    }
}

/// Names that need only be a path segment (RBAC roles, and every kind in
/// kube-apiserver's generic check): not `.` or `..`, no `/` or `%` (Go's
/// `path.ValidatePathSegmentName`).
pub fn validate_path_segment_name(name: &str, prefix: bool) -> Vec<String> {
    if !prefix {
        for bad in [".", ".."] {
            if name == bad {
                return vec![format!("may not be '{bad}'")];
            }
        }
    }
    let mut errs = Vec::new();
    for bad in ["/", "%"] {
        if name.contains(bad) {
            errs.push(format!("may not contain '{bad}'"));
        }
    }
    errs
}

/// The group, version and kind an owner reference names, as Go's
/// `schema.FromAPIVersionAndKind` reads them (`ParseGroupVersion`: `v1`, `group/v1`;
/// more than one `/` reads as nothing; an empty apiVersion is the empty version).
#[cfg(not(feature = "v1_37"))]
fn owner_gvk(r: &OwnerReference) -> (&str, &str) {
    let v = r.api_version.as_str();
    match v.split_once('/') {
        None => ("", v),
        Some((_, rest)) if rest.contains('/') => ("", ""),
        Some((group, version)) => (group, version),
    }
}

#[cfg(not(feature = "v1_37"))]
fn validate_owner_reference(r: &OwnerReference, fld_path: &Path, errs: &mut ErrorList) {
    let (group, version) = owner_gvk(r);
    if version.is_empty() {
        errs.push(Error::invalid(
            &fld_path.child("apiVersion"),
            &r.api_version,
            "version must not be empty",
        ));
    }
    for (field, value) in [("kind", &r.kind), ("name", &r.name), ("uid", &r.uid)] {
        if value.is_empty() {
            errs.push(Error::invalid(
                &fld_path.child(field),
                value,
                "must not be empty",
            ));
        }
    }
    banned_owner(r, group, version, fld_path, errs);
}

/// Kubernetes 1.37's `validateOwnerReference` (each reference at its index): a missing
/// apiVersion, kind, name or uid is `Required`; an apiVersion Go's `ParseGroupVersion`
/// rejects (more than one `/`) or without a version is invalid.
#[cfg(feature = "v1_37")]
fn validate_owner_reference(r: &OwnerReference, fld_path: &Path, errs: &mut ErrorList) {
    let v = r.api_version.as_str();
    // `ParseGroupVersion`: "" and "v1" are the legacy group; `a/b` is group a; more
    // slashes are an error, which leaves the empty group and version.
    let (group, version, parsed) = match v.split_once('/') {
        None => ("", v, true),
        Some((_, rest)) if rest.contains('/') => ("", "", false),
        Some((group, version)) => (group, version, true),
    };
    if v.is_empty() {
        errs.push(Error::required(
            &fld_path.child("apiVersion"),
            "must not be empty",
        ));
    } else if !parsed || version.is_empty() {
        errs.push(Error::invalid(
            &fld_path.child("apiVersion"),
            &r.api_version,
            "must be <group>/<version> or <version>",
        ));
    }
    for (field, value) in [("kind", &r.kind), ("name", &r.name), ("uid", &r.uid)] {
        if value.is_empty() {
            errs.push(Error::required(&fld_path.child(field), "must not be empty"));
        }
    }
    banned_owner(r, group, version, fld_path, errs);
}

/// Go's `BannedOwners`: a core v1 Event owns nothing.
fn banned_owner(
    r: &OwnerReference,
    group: &str,
    version: &str,
    fld_path: &Path,
    errs: &mut ErrorList,
) {
    if group.is_empty() && version == "v1" && r.kind == "Event" {
        errs.push(Error::invalid(
            fld_path,
            crate::util::validation::field::json_of(r),
            "/v1, Kind=Event is disallowed from being an owner",
        ));
    }
}

/// Go's `ValidateOwnerReferences`: each reference complete, not an Event, and at most
/// one controller (errors name the list's path, as Go's do).
pub fn validate_owner_references(refs: &[OwnerReference], fld_path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    let mut first_controller: Option<String> = None;
    for (i, r) in refs.iter().enumerate() {
        // Kubernetes 1.37 names each reference by its index; 1.36 named the list.
        let at = if cfg!(feature = "v1_37") {
            fld_path.index(i)
        } else {
            *fld_path
        };
        validate_owner_reference(r, &at, &mut errs);
        if r.controller == Some(true) {
            let current = format!("{}/{}", r.kind, r.name);
            match &first_controller {
                Some(first) => errs.push(Error::invalid(
                    fld_path,
                    crate::util::validation::field::json_of(&refs.to_vec()),
                    format!(
                        "Only one reference can have Controller set to true. Found \"true\" in references for {first} and {current}"
                    ),
                )),
                None => first_controller = Some(current),
            }
        }
    }
    errs
}

/// Go's `ValidateFinalizerName`: a qualified name.
pub fn validate_finalizer_name(name: &str, fld_path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    for msg in is_qualified_name(name) {
        errs.push(Error::invalid(fld_path, name, msg));
    }
    errs
}

/// Go's `ValidateFinalizers`: qualified names, and not both `orphan` and
/// `foregroundDeletion` (duplicates are allowed).
pub fn validate_finalizers(finalizers: &[String], fld_path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    let (mut orphan, mut foreground) = (false, false);
    for f in finalizers {
        errs.extend(validate_finalizer_name(f, fld_path));
        orphan |= f == FINALIZER_ORPHAN_DEPENDENTS;
        foreground |= f == FINALIZER_DELETE_DEPENDENTS;
    }
    if orphan && foreground {
        errs.push(Error::invalid(
            fld_path,
            BadValue::json_strings(finalizers),
            format!(
                "finalizer {FINALIZER_ORPHAN_DEPENDENTS} and {FINALIZER_DELETE_DEPENDENTS} cannot be both set"
            ),
        ));
    }
    errs
}

/// Go's `ValidateNoNewFinalizers`: an object being deleted takes no new finalizer.
pub fn validate_no_new_finalizers(new: &[String], old: &[String], fld_path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    let old: BTreeSet<&str> = old.iter().map(String::as_str).collect();
    let extra: BTreeSet<&str> = new
        .iter()
        .map(String::as_str)
        .filter(|f| !old.contains(f))
        .collect();
    if !extra.is_empty() {
        // Go's `%#v` of a `[]string`.
        let list: Vec<String> = extra
            .iter()
            .map(|f| crate::util::validation::field::go_quote(f))
            .collect();
        errs.push(Error::forbidden(
            fld_path,
            format!(
                "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
                list.join(", ")
            ),
        ));
    }
    errs
}

/// The metadata of `meta` as an [`ObjectMeta`]: borrowed when it is one (a typed
/// object), built from the accessor otherwise (an unstructured one).
fn object_meta_of(meta: &dyn ObjectMetaAccessor) -> Cow<'_, ObjectMeta> {
    match meta.as_object_meta() {
        Some(m) => Cow::Borrowed(m),
        None => Cow::Owned(ObjectMeta {
            name: meta.name().to_owned(),
            generate_name: meta.generate_name().to_owned(),
            namespace: meta.namespace().to_owned(),
            uid: meta.uid().to_owned(),
            resource_version: meta.resource_version().to_owned(),
            generation: meta.generation(),
            creation_timestamp: meta.creation_timestamp(),
            deletion_timestamp: meta.deletion_timestamp(),
            deletion_grace_period_seconds: meta.deletion_grace_period_seconds(),
            labels: meta.labels(),
            annotations: meta.annotations(),
            owner_references: meta.owner_references(),
            finalizers: meta.finalizers(),
            managed_fields: meta.managed_fields(),
            ..ObjectMeta::default()
        }),
    }
}

/// Go's `ValidateObjectMeta` (`ValidateObjectMetaAccessor`): generateName and name by
/// the kind's `name_fn` (the name is required: it is generated before validation),
/// namespace present exactly when the kind is namespaced, generation not negative,
/// labels, annotations, owner references, finalizers and managed fields.
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
        errs.push(Error::required(
            &fld_path.child("name"),
            "name or generateName is required",
        ));
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
            for msg in name_is_dns_label(&meta.namespace, false) {
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
    errs.extend(validate_managed_fields(
        &meta.managed_fields,
        &fld_path.child("managedFields"),
    ));
    errs
}

/// [`validate_object_meta`] through an accessor, typed or unstructured (Go's
/// `ValidateObjectMetaAccessor`).
pub fn validate_object_meta_accessor(
    meta: &dyn ObjectMetaAccessor,
    requires_namespace: bool,
    name_fn: ValidateNameFunc,
    fld_path: &Path,
) -> ErrorList {
    validate_object_meta(&object_meta_of(meta), requires_namespace, name_fn, fld_path)
}

/// What kube-apiserver checks of every object's metadata after its kind's own
/// validation passed (`rest.BeforeCreate`): Go's `ValidateObjectMetaAccessor` with
/// names as path segments.
pub fn validate_generic_object_meta(
    meta: &dyn ObjectMetaAccessor,
    namespace_scoped: bool,
) -> ErrorList {
    validate_object_meta_accessor(
        meta,
        namespace_scoped,
        validate_path_segment_name,
        &Path::new("metadata"),
    )
}

/// Go's `ValidateImmutableField` for one metadata field.
fn immutable<T: PartialEq>(
    new: &T,
    old: &T,
    value: impl FnOnce() -> BadValue,
    path: &Path,
    errs: &mut ErrorList,
) {
    if new != old {
        errs.push(Error::invalid(path, value(), FIELD_IMMUTABLE_ERROR_MSG));
    }
}

/// Go's `ValidateObjectMetaUpdate`: no new finalizer once deleting, a resourceVersion
/// given, generation not decremented; name, namespace, uid, creationTimestamp,
/// deletionTimestamp and deletionGracePeriodSeconds unchanged; and the new labels,
/// annotations, owner references and managed fields valid on their own terms.
pub fn validate_object_meta_update(
    new: &ObjectMeta,
    old: &ObjectMeta,
    fld_path: &Path,
) -> ErrorList {
    use crate::util::validation::field::json_of;
    let mut errs = ErrorList::default();
    if old.deletion_timestamp.is_some() {
        errs.extend(validate_no_new_finalizers(
            &new.finalizers,
            &old.finalizers,
            &fld_path.child("finalizers"),
        ));
    }
    if new.resource_version.is_empty() {
        errs.push(Error::invalid(
            &fld_path.child("resourceVersion"),
            &new.resource_version,
            "must be specified for an update",
        ));
    }
    // Kubernetes 1.37 also checks the new generation as on create.
    #[cfg(feature = "v1_37")]
    if new.generation < 0 {
        errs.push(Error::invalid(
            &fld_path.child("generation"),
            new.generation,
            IS_NEGATIVE_ERROR_MSG,
        ));
    }
    if new.generation < old.generation {
        errs.push(Error::invalid(
            &fld_path.child("generation"),
            new.generation,
            "must not be decremented",
        ));
    }
    immutable(
        &new.name,
        &old.name,
        || BadValue::from(&new.name),
        &fld_path.child("name"),
        &mut errs,
    );
    immutable(
        &new.namespace,
        &old.namespace,
        || BadValue::from(&new.namespace),
        &fld_path.child("namespace"),
        &mut errs,
    );
    // A UID is a named string type: Go prints it through json.Marshal.
    immutable(
        &new.uid,
        &old.uid,
        || BadValue::json_string(&new.uid),
        &fld_path.child("uid"),
        &mut errs,
    );
    immutable(
        &new.creation_timestamp,
        &old.creation_timestamp,
        || json_of(&new.creation_timestamp),
        &fld_path.child("creationTimestamp"),
        &mut errs,
    );
    immutable(
        &new.deletion_timestamp,
        &old.deletion_timestamp,
        || json_of(&new.deletion_timestamp),
        &fld_path.child("deletionTimestamp"),
        &mut errs,
    );
    immutable(
        &new.deletion_grace_period_seconds,
        &old.deletion_grace_period_seconds,
        || BadValue::from(new.deletion_grace_period_seconds),
        &fld_path.child("deletionGracePeriodSeconds"),
        &mut errs,
    );
    errs.extend(validate_labels(&new.labels, &fld_path.child("labels")));
    errs.extend(validate_annotations(
        &new.annotations,
        &fld_path.child("annotations"),
    ));
    errs.extend(validate_owner_references(
        &new.owner_references,
        &fld_path.child("ownerReferences"),
    ));
    errs.extend(validate_managed_fields(
        &new.managed_fields,
        &fld_path.child("managedFields"),
    ));
    errs
}

/// [`validate_object_meta_update`] through accessors (Go's
/// `ValidateObjectMetaAccessorUpdate`).
pub fn validate_object_meta_accessor_update(
    new: &dyn ObjectMetaAccessor,
    old: &dyn ObjectMetaAccessor,
    fld_path: &Path,
) -> ErrorList {
    validate_object_meta_update(&object_meta_of(new), &object_meta_of(old), fld_path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_dash_masked_as_go_masks_it() {
        assert_eq!(mask_trailing_dash("web-"), "wea");
        assert_eq!(mask_trailing_dash("-"), "-");
        assert_eq!(mask_trailing_dash("ab"), "ab");
        assert_eq!(mask_trailing_dash("é-"), "_a");
        assert!(name_is_dns_subdomain("web-", true).is_empty());
        // `a.-` is checked as `aa` (accepted), `a.b-` as `a.a` (refused).
        assert!(name_is_dns_label("a.-", true).is_empty());
        assert!(!name_is_dns_label("a.b-", true).is_empty());
    }

    #[test]
    fn owner_references_as_go() {
        let p = Path::new("metadata");
        let refs = vec![
            OwnerReference {
                api_version: "v1".into(),
                kind: "Event".into(),
                name: "e".into(),
                uid: "u".into(),
                controller: Some(true),
                ..Default::default()
            },
            OwnerReference {
                api_version: "a/b/c".into(),
                kind: "K".into(),
                name: "n".into(),
                uid: "u".into(),
                controller: Some(true),
                ..Default::default()
            },
        ];
        let text: Vec<String> = validate_owner_references(&refs, &p)
            .iter()
            .map(ToString::to_string)
            .collect();
        // apimachinery v0.37 reports each reference at its index, and a bad apiVersion
        // in its own words.
        #[cfg(feature = "v1_37")]
        let (owner, api_version) = (
            "metadata[0]: Invalid value: {\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"u\",\"controller\":true}: /v1, Kind=Event is disallowed from being an owner",
            "metadata[1].apiVersion: Invalid value: \"a/b/c\": must be <group>/<version> or <version>",
        );
        #[cfg(not(feature = "v1_37"))]
        let (owner, api_version) = (
            "metadata: Invalid value: {\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"u\",\"controller\":true}: /v1, Kind=Event is disallowed from being an owner",
            "metadata.apiVersion: Invalid value: \"a/b/c\": version must not be empty",
        );
        assert_eq!(
            text,
            [
                owner,
                api_version,
                "metadata: Invalid value: [{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"u\",\"controller\":true},{\"apiVersion\":\"a/b/c\",\"kind\":\"K\",\"name\":\"n\",\"uid\":\"u\",\"controller\":true}]: Only one reference can have Controller set to true. Found \"true\" in references for Event/e and K/n",
            ]
        );
    }

    #[test]
    fn finalizers_as_go() {
        let p = Path::new("f");
        let f = vec!["orphan".to_owned(), "foregroundDeletion".to_owned()];
        assert_eq!(
            validate_finalizers(&f, &p).to_string(),
            "f: Invalid value: [\"orphan\",\"foregroundDeletion\"]: finalizer orphan and foregroundDeletion cannot be both set"
        );
        assert_eq!(
            validate_no_new_finalizers(&["b".into(), "a".into()], &[], &p).to_string(),
            "f: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"a\", \"b\"}"
        );
    }
}
