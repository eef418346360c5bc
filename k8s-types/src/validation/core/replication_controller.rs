//! ReplicationController (Go's `ValidateReplicationController`,
//! `ValidateReplicationControllerUpdate` and its status update): counts, a selector
//! that selects its template, and the template as a ReplicaSet's.

use apimachinery::apis::meta::v1::validation::name_is_dns_subdomain;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use super::pod::pod_template_spec;
use crate::core::v1::{
    PodSpec, ReplicationController, ReplicationControllerSpec, ReplicationControllerStatus,
};
use crate::validation::{
    json_value, non_negative, validate_object_meta_update, validate_object_meta_with_opts,
};

/// Go's `ValidateReplicationController`: metadata as core's `ValidateObjectMetaWithOpts`
/// (a DNS-subdomain name), then the spec.
pub fn validate_replication_controller(rc: &ReplicationController) -> ErrorList {
    let mut errs = validate_object_meta_with_opts(
        &rc.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    validate_spec(&rc.spec, None, &Path::new("spec"), &mut errs);
    errs
}

/// Go's `ValidateReplicationControllerUpdate`: the metadata kept and the new spec valid.
pub fn validate_replication_controller_update(
    new: &ReplicationController,
    old: &ReplicationController,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let old_spec = old.spec.template.as_ref().map(|t| &t.spec);
    validate_spec(&new.spec, old_spec, &Path::new("spec"), &mut errs);
    errs
}

/// Go's `ValidateReplicationControllerStatusUpdate`: the metadata kept, the counts not
/// negative and none above the replicas (available ones not above ready ones).
pub fn validate_replication_controller_status_update(
    new: &ReplicationController,
    old: &ReplicationController,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    validate_status(&new.status, &Path::new("status"), &mut errs);
    errs
}

fn validate_status(s: &ReplicationControllerStatus, path: &Path, errs: &mut ErrorList) {
    for (field, value) in [
        ("replicas", s.replicas),
        ("fullyLabeledReplicas", s.fully_labeled_replicas),
        ("readyReplicas", s.ready_replicas),
        ("availableReplicas", s.available_replicas),
    ] {
        non_negative(i64::from(value), &path.child(field), errs);
    }
    non_negative(
        s.observed_generation,
        &path.child("observedGeneration"),
        errs,
    );
    let msg = "cannot be greater than status.replicas";
    for (field, value) in [
        ("fullyLabeledReplicas", s.fully_labeled_replicas),
        ("readyReplicas", s.ready_replicas),
        ("availableReplicas", s.available_replicas),
    ] {
        if value > s.replicas {
            errs.push(Error::invalid(&path.child(field), value, msg));
        }
    }
    if s.available_replicas > s.ready_replicas {
        errs.push(Error::invalid(
            &path.child("availableReplicas"),
            s.available_replicas,
            "cannot be greater than readyReplicas",
        ));
    }
}

/// Go's `ValidateReplicationControllerSpec`: `minReadySeconds` and `replicas` not
/// negative (replicas required), a selector with at least one label, and the template
/// (`ValidatePodTemplateSpecForRC`).
fn validate_spec(
    spec: &ReplicationControllerSpec,
    old: Option<&PodSpec>,
    path: &Path,
    errs: &mut ErrorList,
) {
    non_negative(
        i64::from(spec.min_ready_seconds),
        &path.child("minReadySeconds"),
        errs,
    );
    if spec.selector.is_empty() {
        errs.push(Error::required(&path.child("selector"), ""));
    }
    match spec.replicas {
        None => errs.push(Error::required(&path.child("replicas"), "")),
        Some(r) => non_negative(i64::from(r), &path.child("replicas"), errs),
    }
    let tp = path.child("template");
    let Some(template) = &spec.template else {
        errs.push(Error::required(&tp, ""));
        return;
    };
    let labels = &template.metadata.labels;
    let selected = spec
        .selector
        .iter()
        .all(|(k, v)| labels.get(k).is_some_and(|l| l == v));
    if !spec.selector.is_empty() && !selected {
        errs.push(Error::invalid(
            &tp.child("metadata").child("labels"),
            // No labels: Go's nil map, which json.Marshal writes as null.
            if labels.is_empty() {
                BadValue::null()
            } else {
                json_value(labels)
            },
            "`selector` does not match template `labels`",
        ));
    }
    errs.extend(pod_template_spec(template, old, &tp));
    let sp = tp.child("spec");
    if template.spec.restart_policy != "Always" {
        errs.push(Error::not_supported(
            &sp.child("restartPolicy"),
            BadValue::json_string(&template.spec.restart_policy),
            &["Always"],
        ));
    }
    if template.spec.active_deadline_seconds.is_some() {
        errs.push(Error::forbidden(
            &sp.child("activeDeadlineSeconds"),
            "activeDeadlineSeconds in ReplicationController is not Supported",
        ));
    }
}
