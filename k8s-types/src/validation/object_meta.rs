//! Object metadata as `k8s.io/kubernetes/pkg/apis/core/validation` checks it
//! (`ValidateObjectMeta`, `ValidateObjectMetaUpdate`): apimachinery's generic checks
//! ([`apimachinery::apis::meta::v1::validation`]) plus Kubernetes' rule for finalizer
//! names. Most built-in kinds' validation calls these; some call apimachinery's
//! directly (Go's `genericvalidation`), and so do their ports.

use apimachinery::apis::meta::v1::ObjectMeta;
use apimachinery::apis::meta::v1::validation::{self as generic, ValidateNameFunc};
use apimachinery::util::validation::field::{Error, ErrorList, Path, go_quote};

/// Go's `FinalizerKubernetes` and metav1's `orphan` and `foregroundDeletion`: the
/// finalizer names that need no domain.
const STANDARD_FINALIZERS: [&str; 3] = ["kubernetes", "orphan", "foregroundDeletion"];

/// Go's `validateKubeFinalizerName`: a finalizer without a `/` must be a standard one.
pub fn validate_kube_finalizer_name(name: &str, path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    if !name.contains('/') && !STANDARD_FINALIZERS.contains(&name) {
        errs.push(Error::invalid(
            path,
            name,
            "name is neither a standard finalizer name nor is it fully qualified",
        ));
    }
    errs
}

/// Go's core `validateFinalizerName`: a qualified name, and a standard one when it has
/// no domain.
pub fn validate_finalizer_name(name: &str, path: &Path) -> ErrorList {
    let mut errs = generic::validate_finalizer_name(name, path);
    errs.extend(validate_kube_finalizer_name(name, path));
    errs
}

fn kube_finalizer_names(meta: &ObjectMeta, path: &Path, errs: &mut ErrorList) {
    let list = path.child("finalizers");
    for (i, f) in meta.finalizers.iter().enumerate() {
        errs.extend(validate_kube_finalizer_name(f, &list.index(i)));
    }
}

/// Go's core `ValidateObjectMeta`: apimachinery's
/// [`validate_object_meta`](generic::validate_object_meta), then each finalizer without
/// a domain checked against the standard names.
pub fn validate_object_meta(
    meta: &ObjectMeta,
    requires_namespace: bool,
    name_fn: ValidateNameFunc,
    path: &Path,
) -> ErrorList {
    let mut errs = generic::validate_object_meta(meta, requires_namespace, name_fn, path);
    kube_finalizer_names(meta, path, &mut errs);
    errs
}

/// Go's core `ValidateObjectMetaWithOpts`, which validates the name a `generateName`
/// became rather than the prefix: `generateName` is not checked itself, a name is
/// required even with one (with Go's internal error saying none was generated), then
/// the rest as [`validate_object_meta`].
pub fn validate_object_meta_with_opts(
    meta: &ObjectMeta,
    requires_namespace: bool,
    name_fn: ValidateNameFunc,
    path: &Path,
) -> ErrorList {
    let mut errs = ErrorList::default();
    if meta.name.is_empty() && !meta.generate_name.is_empty() {
        let why = std::io::Error::other(format!(
            "generateName was specified ({}), but no name was generated",
            go_quote(&meta.generate_name)
        ));
        errs.push(Error::internal_error(&path.child("name"), &why));
    }
    let generate_name = path.child("generateName").render();
    let all = validate_object_meta(meta, requires_namespace, name_fn, path);
    for e in all.iter().filter(|e| e.field != generate_name) {
        errs.push(e.clone());
    }
    errs
}

/// Go's core `ValidateObjectMetaUpdate`: apimachinery's
/// [`validate_object_meta_update`](generic::validate_object_meta_update), then the new
/// finalizers' names as on create.
pub fn validate_object_meta_update(new: &ObjectMeta, old: &ObjectMeta, path: &Path) -> ErrorList {
    let mut errs = generic::validate_object_meta_update(new, old, path);
    kube_finalizer_names(new, path, &mut errs);
    errs
}
