//! The declarative rules (`+k8s:` tags) Go's generated validation runs for the
//! scheduling group's Workload and PodGroup (`zz_generated.validations.go` of
//! `pkg/apis/scheduling/<version>`): the checks of `k8s.io/apimachinery/pkg/api/validate`
//! they call, with Go's texts. An update checks again only what it changed (Go's
//! ratcheting): the callers skip a field equal to its old value.

use apimachinery::apis::meta::v1::validation::validate_path_segment_name;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{is_dns1123_label, is_dns1123_subdomain};

use crate::validation::invalid_each;

/// `validate.Union` of members `names`, each set or not (`set`): exactly one must be.
/// An update that keeps which members are set (`old`) is not checked again.
pub(crate) fn union(
    path: &Path,
    names: &[&str],
    set: &[bool],
    old: Option<&[bool]>,
    errs: &mut ErrorList,
) {
    if old.is_some_and(|old| old == set) {
        return;
    }
    let all: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    let all = all.join(", ");
    let given: Vec<&str> = names
        .iter()
        .zip(set)
        .filter(|(_, s)| **s)
        .map(|(n, _)| *n)
        .collect();
    if given.len() > 1 {
        errs.push(Error::invalid(
            path,
            format!("{{{}}}", given.join(", ")),
            format!("must specify exactly one of: {all}"),
        ));
    } else if given.is_empty() {
        errs.push(Error::invalid(
            path,
            "",
            format!("must specify one of: {all}"),
        ));
    }
}

/// `validate.RequiredValue` of a string: false (and `Required`) when it is empty.
pub(crate) fn required(value: &str, path: &Path, errs: &mut ErrorList) -> bool {
    if value.is_empty() {
        errs.push(Error::required(path, ""));
        return false;
    }
    true
}

/// `validate.ShortName` (`+k8s:format=k8s-short-name`): a DNS label.
pub(crate) fn short_name(value: &str, path: &Path, errs: &mut ErrorList) {
    invalid_each(errs, path, value, is_dns1123_label(value));
}

/// `validate.LongName` (`+k8s:format=k8s-long-name`): a DNS subdomain.
pub(crate) fn long_name(value: &str, path: &Path, errs: &mut ErrorList) {
    invalid_each(errs, path, value, is_dns1123_subdomain(value));
}

/// `validate.PathSegmentName` (`+k8s:format=k8s-path-segment-name`).
pub(crate) fn path_segment_name(value: &str, path: &Path, errs: &mut ErrorList) {
    invalid_each(errs, path, value, validate_path_segment_name(value, false));
}

/// `validate.Immutable`, called once a change is seen: `field is immutable`, no value.
pub(crate) fn immutable(path: &Path, errs: &mut ErrorList) {
    errs.push(Error::invalid(path, BadValue::null(), "field is immutable"));
}

/// `validate.ForbiddenPointer`/`ForbiddenSlice`: a field its feature gate (off by
/// default) keeps out.
pub(crate) fn forbidden(path: &Path, errs: &mut ErrorList) {
    errs.push(Error::forbidden(path, ""));
}

/// `validate.MaxItems`: false (and `TooMany`) when the list is longer than `max`.
pub(crate) fn max_items(len: usize, max: usize, path: &Path, errs: &mut ErrorList) -> bool {
    if len > max {
        errs.push(Error::too_many(path, len as i64, max as i64));
        return false;
    }
    true
}

/// `validate.Minimum`.
pub(crate) fn minimum(value: i32, min: i32, path: &Path, errs: &mut ErrorList) {
    if value < min {
        errs.push(Error::invalid(
            path,
            value,
            format!("must be greater than or equal to {min}"),
        ));
    }
}

/// `validate.Maximum` (a rule of 1.37's templates only).
#[cfg_attr(not(feature = "v1_37"), allow(dead_code))]
pub(crate) fn maximum(value: i32, max: i32, path: &Path, errs: &mut ErrorList) {
    if value > max {
        errs.push(Error::invalid(
            path,
            value,
            format!("must be less than or equal to {max}"),
        ));
    }
}

/// `validate.ValSliceUnique` by a key: a `Duplicate` for each later item whose key an
/// earlier one has, with the whole item (Go's `json.Marshal` of it) as the value.
pub(crate) fn unique_by<T, K: PartialEq>(
    items: &[T],
    key: impl Fn(&T) -> K,
    value: impl Fn(&T) -> BadValue,
    path: &Path,
    errs: &mut ErrorList,
) {
    for (j, item) in items.iter().enumerate() {
        if items[..j].iter().any(|earlier| key(earlier) == key(item)) {
            errs.push(Error::duplicate(&path.index(j), value(item)));
        }
    }
}

/// `validate.ValSliceUpdate` with `NoAddItem` and `NoRemoveItem`, items matched by key:
/// an update may neither add nor remove items (a rule of 1.37's template lists only).
#[cfg_attr(not(feature = "v1_37"), allow(dead_code))]
pub(crate) fn no_add_or_remove<T, K: PartialEq>(
    new: &[T],
    old: &[T],
    key: impl Fn(&T) -> K,
    path: &Path,
    errs: &mut ErrorList,
) {
    for (i, item) in new.iter().enumerate() {
        if !old.iter().any(|o| key(o) == key(item)) {
            errs.push(Error::forbidden(&path.index(i), "item may not be added"));
        }
    }
    for item in old {
        if !new.iter().any(|n| key(n) == key(item)) {
            errs.push(Error::forbidden(path, "item may not be removed"));
        }
    }
}

/// `validate.EachValSliceVal` with items matched by key and compared whole: each new
/// item checked against its old match, an unchanged one not again.
pub(crate) fn each_changed<'a, T: PartialEq, K: PartialEq>(
    new: &'a [T],
    old: Option<&'a [T]>,
    key: impl Fn(&T) -> K,
    mut check: impl FnMut(usize, &'a T, Option<&'a T>),
) {
    for (i, item) in new.iter().enumerate() {
        let matched = old.and_then(|old| old.iter().find(|o| key(o) == key(item)));
        if old.is_some() && matched == Some(item) {
            continue;
        }
        check(i, item, matched);
    }
}

/// Where an update stands for one value: `update` is the operation, `old` the value
/// matched to it in the old object (none on create, or when nothing matched).
#[derive(Clone, Copy)]
pub(crate) struct Old<'a, T> {
    pub(crate) update: bool,
    pub(crate) old: Option<&'a T>,
}

impl<'a, T: PartialEq> Old<'a, T> {
    /// Go's ratcheting: an update that kept a value it could match is not checked again.
    pub(crate) fn unchanged(&self, new: &T) -> bool {
        self.update && self.old == Some(new)
    }

    /// The old value of a field of this one.
    pub(crate) fn field<U>(&self, get: impl FnOnce(&'a T) -> &'a U) -> Old<'a, U> {
        Old {
            update: self.update,
            old: self.old.map(get),
        }
    }
}

impl<'a, T> Old<'a, Option<T>> {
    /// An optional field's old value, itself.
    pub(crate) fn inner(&self) -> Old<'a, T> {
        Old {
            update: self.update,
            old: self.old.and_then(Option::as_ref),
        }
    }
}

/// A field `+k8s:immutable`: on an update (that changed it, see [`Old::unchanged`]).
pub(crate) fn immutable_on_update<T>(old: &Old<'_, T>, path: &Path, errs: &mut ErrorList) -> bool {
    if old.update {
        immutable(path, errs);
    }
    old.update
}
