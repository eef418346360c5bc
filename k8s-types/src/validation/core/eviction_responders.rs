//! A pod's `evictionResponders` (Kubernetes 1.37): the declarative rules of
//! `corev1.PodSpec.EvictionResponders` and `corev1.EvictionResponder` (Go's generated
//! `Validate_PodSpec` and `Validate_EvictionResponder`, with the custom name and
//! priority checks of `pkg/apis/core/v1/validation.go`). Declarative, they run on
//! every pod template, even one whose hand-written checks are skipped.

use apimachinery::util::go_strings::to_lower;
use std::collections::BTreeSet;

use apimachinery::util::validation::field::{Error, ErrorList, Path, json_of};
use apimachinery::util::validation::is_qualified_name;

use crate::core::v1::{EvictionResponder, PodSpec};
use crate::validation::invalid_each;

/// Go's `MaxPodEvictionResponders`.
const MAX_RESPONDERS: usize = 10;
/// The domains a responder's name may not use (Go's `ValidateCustom_EvictionResponder_Name`).
const RESERVED_SUFFIXES: &[&str] = &[".k8s.io", ".kubernetes.io"];
/// The priorities kept for Kubernetes' own responders.
const RESERVED_PRIORITIES: std::ops::Range<i32> = 0..1000;
const MAX_PRIORITY: i32 = 100_000;

/// The spec's `evictionResponders` under `path` (the spec's), judged as an update of
/// `old` when there is one: like every declarative rule, an unchanged list, an
/// unchanged responder (matched by name) and an unchanged field are not checked again.
pub(crate) fn validate_eviction_responders(
    spec: &PodSpec,
    old: Option<&PodSpec>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let list = &spec.eviction_responders;
    let old_list = old.map(|o| o.eviction_responders.as_slice());
    if old_list == Some(list.as_slice()) {
        return;
    }
    let p = path.child("evictionResponders");
    if list.len() > MAX_RESPONDERS {
        errs.push(Error::too_many(
            &p,
            i64::try_from(list.len()).unwrap_or(i64::MAX),
            MAX_RESPONDERS as i64,
        ));
        return;
    }
    // A name repeated is reported on each later responder, as `ValSliceUnique` does.
    let mut names = BTreeSet::new();
    for (i, r) in list.iter().enumerate() {
        if !names.insert(r.name.as_str()) {
            errs.push(Error::duplicate(&p.index(i), json_of(r)));
        }
    }
    for (i, r) in list.iter().enumerate() {
        let old = old_list.and_then(|o| o.iter().find(|o| o.name == r.name));
        if old == Some(r) {
            continue;
        }
        responder(r, old, &p.index(i), errs);
    }
}

/// Removes the errors of these declarative rules from a pod template's owner's list:
/// what a request in a version Go generates no declarative validation for
/// (`extensions/v1beta1`'s Deployment, DaemonSet and ReplicaSet) gets, since
/// kube-apiserver runs them on the object in the request's version. Every error under an
/// `evictionResponders` field is theirs: the hand-written check reports on
/// `schedulingGroup`.
#[cfg(all(feature = "extensions", feature = "scheme"))]
pub(crate) fn drop_eviction_responder_errors(errs: &mut ErrorList) {
    let theirs = |field: &str| {
        field
            .split('.')
            .any(|seg| seg.split('[').next() == Some("evictionResponders"))
    };
    errs.0.retain(|e| !theirs(&e.field));
}

/// Go's `Validate_EvictionResponder`; `old` is the responder of the same name an
/// update replaces (its name, being the same, is not checked again).
fn responder(
    r: &EvictionResponder,
    old: Option<&EvictionResponder>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let np = path.child("name");
    if old.is_none() {
        if r.name.is_empty() {
            errs.push(Error::required(&np, ""));
        } else {
            reserved_domain(&r.name, &np, errs);
            invalid_each(errs, &np, &r.name, prefixed_label_key(&r.name));
        }
    }
    if old.is_some_and(|o| o.priority == r.priority) {
        return;
    }
    let pp = path.child("priority");
    let Some(priority) = r.priority else {
        errs.push(Error::required(&pp, ""));
        return;
    };
    if RESERVED_PRIORITIES.contains(&priority) {
        errs.push(Error::invalid(
            &pp,
            priority,
            "priorities 0-999 are reserved for responders with *.k8s.io suffix",
        ));
    }
    if priority > MAX_PRIORITY {
        errs.push(Error::invalid(
            &pp,
            priority,
            format!("must be less than or equal to {MAX_PRIORITY}"),
        ));
    }
    if priority < 0 {
        errs.push(Error::invalid(
            &pp,
            priority,
            "must be greater than or equal to 0",
        ));
    }
}

/// Go's `ValidateForbiddenReservedDomainSuffixes`: the domain before the first `/`,
/// lowercased and trimmed, may not be nor end in a reserved domain.
fn reserved_domain(name: &str, path: &Path, errs: &mut ErrorList) {
    let domain = name.split('/').next().unwrap_or_default();
    let domain = to_lower(domain.trim());
    let domain = domain.trim_end_matches('.');
    let reserved = RESERVED_SUFFIXES
        .iter()
        .any(|s| domain.ends_with(s) || domain == s.trim_matches('.'));
    if reserved {
        let listed: Vec<String> = RESERVED_SUFFIXES.iter().map(|s| format!("*{s}")).collect();
        errs.push(Error::invalid(
            path,
            name,
            format!("domain names {} are reserved", listed.join(", ")),
        ));
    }
}

/// Go's `content.IsPrefixedLabelKey`: a label key that has its domain prefix.
fn prefixed_label_key(value: &str) -> Vec<String> {
    let errs = is_qualified_name(value);
    if !errs.is_empty() || value.contains('/') {
        return errs;
    }
    vec!["must include a prefix (e.g. 'example.com/key')".to_owned()]
}
