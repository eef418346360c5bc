//! What changed when Kubernetes 1.37 made declarative validation authoritative: a rule
//! tagged `+k8s:beta` is enforced (the `DeclarativeValidationBeta` gate is on by
//! default) and the hand-written error it covers is dropped, where 1.36 only compared
//! the two. The declarative error then stands in for the hand-written one, with its own
//! value: `+k8s:immutable` names none.

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

/// The value of an immutable field's error: `value()` on Kubernetes 1.36 (the
/// hand-written check's), `null` on 1.37, where the field's declarative
/// `+k8s:immutable` (beta) reports the change instead.
#[allow(unused_variables)]
pub(crate) fn immutable_value(value: impl FnOnce() -> BadValue) -> BadValue {
    #[cfg(feature = "v1_37")]
    return BadValue::null();
    #[cfg(not(feature = "v1_37"))]
    value()
}

/// What a strategy's hand-written errors come to once merged with the declarative ones:
/// on Kubernetes 1.37, where every built-in strategy but APIService's (and the CRDs')
/// is a `rest.DeclarativeValidationStrategy`, the merge filters the list through Go's
/// `ToAggregate`, which keeps one error of each text; on 1.36 the list as it is.
pub(crate) fn merged(errs: ErrorList) -> ErrorList {
    #[cfg(feature = "v1_37")]
    return ErrorList(errs.deduplicated().into_iter().cloned().collect());
    #[cfg(not(feature = "v1_37"))]
    errs
}

/// `validate.LongNameCaseless`: a DNS subdomain, either case.
pub(crate) fn long_name_caseless(value: &str, path: &Path, errs: &mut ErrorList) {
    const MSG: &str = "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    let mut msgs = Vec::new();
    if value.len() > 253 {
        msgs.push(apimachinery::util::validation::max_len_error(253));
    }
    // Go matches `(?i)`: a letter that folds to an ASCII letter matches too (the
    // Kelvin sign, the long s).
    let fold = |c: char| match c {
        '\u{212A}' => 'k',
        '\u{17F}' => 's',
        c => c.to_ascii_lowercase(),
    };
    let lowered: String = value.chars().map(fold).collect();
    let valid = lowered.split('.').all(|label| {
        let b = label.as_bytes();
        let edge = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        matches!((b.first(), b.last()), (Some(&f), Some(&l)) if edge(f) && edge(l))
            && b.iter().all(|&c| edge(c) || c == b'-')
    });
    if !valid {
        msgs.push(apimachinery::util::validation::regex_error(
            MSG,
            "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*",
            &["Example.com"],
        ));
    }
    for m in msgs {
        errs.push(Error::invalid(path, value, m));
    }
}

/// Go's `ValidateCSIDriverName` where its caller marks the format covered
/// (`RequiredCovered, FormatCovered, SizeCovered`: a VolumeAttachment's attacher, a
/// DRA opaque configuration's and allocation result's driver). On Kubernetes 1.37 the
/// declarative `+k8s:format=k8s-long-name-caseless` reports the format in its words; on
/// 1.36 `handwritten` does all of it, and so it does on 1.37 for an update that kept the
/// name (`old`), which the declarative rule does not check again.
pub(crate) fn covered_driver_name(
    name: &str,
    old: Option<&str>,
    path: &Path,
    errs: &mut ErrorList,
    handwritten: impl FnOnce(&str, &Path, &mut ErrorList),
) {
    #[cfg(feature = "v1_37")]
    if old != Some(name) {
        if name.is_empty() {
            errs.push(Error::required(path, ""));
            return;
        }
        if name.len() > 63 {
            errs.push(Error::too_long(path, 63));
        }
        long_name_caseless(name, path, errs);
        return;
    }
    #[cfg(not(feature = "v1_37"))]
    let _ = old;
    handwritten(name, path, errs);
}

/// The detail of a hand-written `Required` error that a declarative `+k8s:required`
/// (beta) covers: on Kubernetes 1.37, where the declarative rule `checked` the value
/// (on create, and on update when it changed: Go's rules do not check again what an
/// update kept), its error, which has none, is the one reported; else `detail`.
#[allow(unused_variables)]
pub(crate) fn required_detail(detail: &'static str, checked: bool) -> &'static str {
    if cfg!(feature = "v1_37") && checked {
        ""
    } else {
        detail
    }
}
