//! The apps group's validation (Go's `pkg/apis/apps/validation` and the strategies of
//! `pkg/registry/apps`): Deployment, ReplicaSet, DaemonSet, StatefulSet and
//! ControllerRevision, one file each, with what they share here: the selector rules,
//! the pod template as a ReplicaSet's, and the integer-or-percent numbers of the
//! rolling updates.
//!
//! Each validates the kind's internal form (the `apps/v1` type as Go's internal object
//! holds it): a Deployment's `spec.rollbackTo` and a DaemonSet's `spec.templateGeneration`,
//! which `apps/v1` has no field for, are read from the annotations the internal form
//! keeps them in, and those annotations are not part of the metadata Go validates.

mod controller_revision;
mod daemon_set;
mod deployment;
mod replica_set;
mod stateful_set;
mod status;

use std::borrow::Cow;

use crate::validation::validate_object_meta;
use apimachinery::apis::meta::v1::validation::name_is_dns_subdomain;
use apimachinery::apis::meta::v1::{LabelSelector, ObjectMeta};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

pub use controller_revision::{validate_controller_revision, validate_controller_revision_update};
pub use daemon_set::{validate_daemon_set, validate_daemon_set_update};
pub use deployment::{validate_deployment, validate_deployment_update};
pub use replica_set::{validate_replica_set, validate_replica_set_update};
pub use stateful_set::{validate_stateful_set, validate_stateful_set_update};
pub use status::{
    validate_daemon_set_status_update, validate_deployment_status_update,
    validate_replica_set_status_update, validate_stateful_set_status_update,
};

use super::go_internal::json_text;
use super::int_or_percent::{
    int_or_percent_value, int_or_string_value, int_or_zero, not_more_than_100_percent,
    positive_int_or_percent,
};
use super::label_selector::{Selected, mismatch};
use super::{
    json_value, non_negative, validate_pod_template_spec, validate_pod_template_spec_update,
};
use crate::core::v1::PodTemplateSpec;

/// Go's `ValidateImmutableField` for a workload's `spec.selector`: an update may not
/// change it.
fn selector_unchanged(
    new: &Option<LabelSelector>,
    old: &Option<LabelSelector>,
    errs: &mut ErrorList,
) {
    if new != old {
        errs.push(Error::invalid(
            &Path::new("spec").child("selector"),
            json_value(new),
            apimachinery::apis::meta::v1::validation::FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
}

/// Go's `ValidateObjectMeta` for the apps kinds: namespaced, `name_fn` for the name,
/// without the annotation `hidden` (the internal form's home of a field Go's internal
/// object holds elsewhere).
fn metadata(
    meta: &ObjectMeta,
    hidden: Option<&str>,
    name_fn: fn(&str, bool) -> Vec<String>,
) -> ErrorList {
    validate_object_meta(
        &without_annotation(meta, hidden),
        true,
        name_fn,
        &Path::new("metadata"),
    )
}

/// `meta` without the annotation `key`, copied only when it has it.
fn without_annotation<'a>(meta: &'a ObjectMeta, key: Option<&str>) -> Cow<'a, ObjectMeta> {
    match key {
        Some(key) if meta.annotations.contains_key(key) => {
            let mut meta = meta.clone();
            meta.annotations.remove(key);
            Cow::Owned(meta)
        }
        _ => Cow::Borrowed(meta),
    }
}

/// The DNS-subdomain names of Deployments, ReplicaSets, DaemonSets and
/// ControllerRevisions.
fn subdomain_metadata(meta: &ObjectMeta, hidden: Option<&str>) -> ErrorList {
    metadata(meta, hidden, name_is_dns_subdomain)
}

/// Go's required, strictly valid, non-empty selector of Deployments, ReplicaSets and
/// StatefulSets (`what` names the kind in Go's message).
fn selector_required(
    selector: Option<&LabelSelector>,
    what: &str,
    fld: &Path,
    errs: &mut ErrorList,
) {
    let path = fld.child("selector");
    match selector {
        None => errs.push(Error::required(&path, "")),
        Some(sel) => {
            errs.extend(
                apimachinery::apis::meta::v1::validation::validate_label_selector(sel, &path),
            );
            if sel.match_labels.is_empty() && sel.match_expressions.is_empty() {
                errs.push(Error::invalid(
                    &path,
                    json_value(sel),
                    format!("empty selector is invalid for {what}"),
                ));
            }
        }
    }
}

/// The template's labels must satisfy a selector that selects something.
fn template_matches(
    selected: Selected<'_>,
    template: &PodTemplateSpec,
    tp: &Path,
    errs: &mut ErrorList,
) {
    if !selected.is_empty() && !selected.matches(&template.metadata.labels) {
        errs.push(mismatch(&template.metadata.labels, tp));
    }
}

/// Go's `ValidatePodTemplateSpecForReplicaSet`, also a Deployment's: the template's
/// labels selected, the pod template valid, restarted `Always`, without
/// `activeDeadlineSeconds` (Go's message says "ReplicaSet" for both).
fn template_for_replica_set(
    template: &PodTemplateSpec,
    old: Option<&PodTemplateSpec>,
    selected: Selected<'_>,
    tp: &Path,
    errs: &mut ErrorList,
) {
    template_matches(selected, template, tp, errs);
    errs.extend(pod_template(template, old, tp));
    restarted_always(template, "ReplicaSet", tp, errs);
}

/// The pod template, valid as created or as an update of `old` (whose use of pod
/// features Go keeps allowed).
fn pod_template(template: &PodTemplateSpec, old: Option<&PodTemplateSpec>, tp: &Path) -> ErrorList {
    match old {
        Some(old) => validate_pod_template_spec_update(template, old, tp),
        None => validate_pod_template_spec(template, tp),
    }
}

/// The restart policy and deadline every long-running workload's pods must have.
fn restarted_always(template: &PodTemplateSpec, kind: &str, tp: &Path, errs: &mut ErrorList) {
    let sp = tp.child("spec");
    let restart = &template.spec.restart_policy;
    if restart != "Always" {
        errs.push(Error::not_supported(
            &sp.child("restartPolicy"),
            json_string(restart),
            &["Always"],
        ));
    }
    if template.spec.active_deadline_seconds.is_some() {
        errs.push(Error::forbidden(
            &sp.child("activeDeadlineSeconds"),
            format!("activeDeadlineSeconds in {kind} is not Supported"),
        ));
    }
}

/// A value of one of Go's named string types (`RestartPolicy`, `PodManagementPolicyType`),
/// which Go prints through `json.Marshal`, not `%q`.
fn json_string(s: &str) -> BadValue {
    BadValue::Json(json_text(s))
}

/// An optional counter that must not be negative when set.
fn non_negative_opt(v: Option<i32>, path: &Path, errs: &mut ErrorList) {
    if let Some(v) = v {
        non_negative(i64::from(v), path, errs);
    }
}
