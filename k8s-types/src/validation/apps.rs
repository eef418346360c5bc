//! The apps group's validation (Go's `pkg/apis/apps/validation`): Deployment,
//! ReplicaSet, DaemonSet and StatefulSet.

use apimachinery::apis::meta::v1::LabelSelector;
use apimachinery::apis::meta::v1::validation::{
    FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain, validate_label_selector,
    validate_object_meta, validate_object_meta_update,
};
use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::{
    int_or_percent, int_or_percent_up_to, int_or_string_value, json_value, non_negative,
    validate_pod_template_spec,
};
use crate::apps::v1::{DaemonSet, Deployment, ReplicaSet, StatefulSet};
use crate::core::v1::PodTemplateSpec;
use crate::value::IntOrString;

/// Go's selector checks of the workload kinds: required, valid, not empty (`what`
/// names the kind in Go's message), matching the template's labels.
fn selector_and_template(
    selector: Option<&LabelSelector>,
    template: &PodTemplateSpec,
    what: &str,
    fld: &Path,
    errs: &mut ErrorList,
) {
    let sel_path = fld.child("selector");
    match selector {
        None => errs.push(Error::required(&sel_path, "")),
        Some(sel) => {
            errs.extend(validate_label_selector(sel, &sel_path));
            if sel.match_labels.is_empty() && sel.match_expressions.is_empty() {
                errs.push(Error::invalid(
                    &sel_path,
                    json_value(sel),
                    format!("empty selector is invalid for {what}"),
                ));
            } else if !sel.matches(&template.metadata.labels) {
                errs.push(Error::invalid(
                    &fld.child("template").child("metadata").child("labels"),
                    json_value(&template.metadata.labels),
                    "`selector` does not match template `labels`",
                ));
            }
        }
    }
}

/// Go's `ValidatePodTemplateSpecForReplicaSet` and its kin: the pod template valid,
/// restarted `Always`, without `activeDeadlineSeconds`.
fn workload_template(template: &PodTemplateSpec, kind: &str, fld: &Path, errs: &mut ErrorList) {
    let tp = fld.child("template");
    errs.extend(validate_pod_template_spec(template, &tp));
    let restart = &template.spec.restart_policy;
    if restart != "Always" {
        errs.push(Error::not_supported(
            &tp.child("spec").child("restartPolicy"),
            restart.as_str(),
            &["Always"],
        ));
    }
    if template.spec.active_deadline_seconds.is_some() {
        errs.push(Error::forbidden(
            &tp.child("spec").child("activeDeadlineSeconds"),
            format!("activeDeadlineSeconds in {kind} is not Supported"),
        ));
    }
}

fn metadata(meta: &apimachinery::apis::meta::v1::ObjectMeta) -> ErrorList {
    validate_object_meta(meta, true, name_is_dns_subdomain, &Path::new("metadata"))
}

/// Both rolling-update numbers zero is Go's `may not be 0 when maxSurge is 0`.
fn rolling_numbers(
    max_unavailable: Option<&IntOrString>,
    max_surge: Option<&IntOrString>,
    path: &Path,
    errs: &mut ErrorList,
) {
    if let Some(u) = max_unavailable {
        int_or_percent(u, &path.child("maxUnavailable"), errs);
    }
    if let Some(s) = max_surge {
        int_or_percent_up_to(s, &path.child("maxSurge"), errs, false);
    }
    let zero = |v: Option<&IntOrString>| match v {
        None => true,
        Some(IntOrString::Int(i)) => *i == 0,
        Some(IntOrString::String(s)) => s.trim_end_matches('%').parse::<i64>() == Ok(0),
    };
    if zero(max_unavailable) && zero(max_surge) {
        errs.push(Error::invalid(
            &path.child("maxUnavailable"),
            max_unavailable.map_or(0.into(), int_or_string_value),
            "may not be 0 when `maxSurge` is 0",
        ));
    }
}

/// Go's `ValidateDeployment`: metadata (a DNS subdomain name, namespaced), replicas,
/// selector (required, valid, not empty, matching the template's labels), the pod
/// template (restarted `Always`), the strategy and the non-negative counters.
pub fn validate_deployment(d: &Deployment) -> ErrorList {
    let mut errs = metadata(&d.metadata);
    let spec = &d.spec;
    let fld = Path::new("spec");
    if let Some(r) = spec.replicas {
        non_negative(i64::from(r), &fld.child("replicas"), &mut errs);
    }
    selector_and_template(
        spec.selector.as_ref(),
        &spec.template,
        "deployment",
        &fld,
        &mut errs,
    );
    workload_template(&spec.template, "ReplicaSet", &fld, &mut errs);
    let sp = fld.child("strategy");
    match spec.strategy.r#type.as_str() {
        "Recreate" => {
            if spec.strategy.rolling_update.is_some() {
                errs.push(Error::forbidden(
                    &sp.child("rollingUpdate"),
                    "may not be specified when strategy `type` is 'Recreate'",
                ));
            }
        }
        "RollingUpdate" => match &spec.strategy.rolling_update {
            None => errs.push(Error::required(
                &sp.child("rollingUpdate"),
                "this should be defaulted and never be nil",
            )),
            Some(ru) => rolling_numbers(
                ru.max_unavailable.as_ref(),
                ru.max_surge.as_ref(),
                &sp.child("rollingUpdate"),
                &mut errs,
            ),
        },
        other => errs.push(Error::not_supported(
            &sp.child("type"),
            other,
            &["Recreate", "RollingUpdate"],
        )),
    }
    non_negative(
        i64::from(spec.min_ready_seconds),
        &fld.child("minReadySeconds"),
        &mut errs,
    );
    if let Some(limit) = spec.revision_history_limit {
        non_negative(
            i64::from(limit),
            &fld.child("revisionHistoryLimit"),
            &mut errs,
        );
    }
    if let Some(pds) = spec.progress_deadline_seconds {
        let path = fld.child("progressDeadlineSeconds");
        non_negative(i64::from(pds), &path, &mut errs);
        if pds <= spec.min_ready_seconds {
            errs.push(Error::invalid(
                &path,
                pds,
                "must be greater than minReadySeconds",
            ));
        }
    }
    errs
}

fn selector_kept(new: Option<&LabelSelector>, old: Option<&LabelSelector>, errs: &mut ErrorList) {
    if new != old {
        errs.push(Error::invalid(
            &Path::new("spec").child("selector"),
            json_value(&new),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
}

/// Go's `ValidateDeploymentUpdate`: the new object valid, its metadata's identity kept,
/// and the selector unchanged (immutable in `apps/v1`).
pub fn validate_deployment_update(new: &Deployment, old: &Deployment) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(validate_deployment(new));
    selector_kept(
        new.spec.selector.as_ref(),
        old.spec.selector.as_ref(),
        &mut errs,
    );
    errs
}

/// Go's `ValidateReplicaSet` (whose empty-selector message says "deployment", as Go's).
pub fn validate_replica_set(rs: &ReplicaSet) -> ErrorList {
    let mut errs = metadata(&rs.metadata);
    let spec = &rs.spec;
    let fld = Path::new("spec");
    if let Some(r) = spec.replicas {
        non_negative(i64::from(r), &fld.child("replicas"), &mut errs);
    }
    non_negative(
        i64::from(spec.min_ready_seconds),
        &fld.child("minReadySeconds"),
        &mut errs,
    );
    selector_and_template(
        spec.selector.as_ref(),
        &spec.template,
        "deployment",
        &fld,
        &mut errs,
    );
    workload_template(&spec.template, "ReplicaSet", &fld, &mut errs);
    errs
}

/// Go's `ValidateReplicaSetUpdate`: the selector kept.
pub fn validate_replica_set_update(new: &ReplicaSet, old: &ReplicaSet) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(validate_replica_set(new));
    selector_kept(
        new.spec.selector.as_ref(),
        old.spec.selector.as_ref(),
        &mut errs,
    );
    errs
}

/// Go's `ValidateDaemonSet`: selector and template, update strategy, counters.
pub fn validate_daemon_set(ds: &DaemonSet) -> ErrorList {
    let mut errs = metadata(&ds.metadata);
    let spec = &ds.spec;
    let fld = Path::new("spec");
    selector_and_template(
        spec.selector.as_ref(),
        &spec.template,
        "daemonset",
        &fld,
        &mut errs,
    );
    workload_template(&spec.template, "DaemonSet", &fld, &mut errs);
    non_negative(
        i64::from(spec.min_ready_seconds),
        &fld.child("minReadySeconds"),
        &mut errs,
    );
    if let Some(limit) = spec.revision_history_limit {
        non_negative(
            i64::from(limit),
            &fld.child("revisionHistoryLimit"),
            &mut errs,
        );
    }
    let up = fld.child("updateStrategy");
    match spec.update_strategy.r#type.as_str() {
        "OnDelete" => {}
        "RollingUpdate" => match &spec.update_strategy.rolling_update {
            None => errs.push(Error::required(&up.child("rollingUpdate"), "")),
            Some(ru) => rolling_numbers(
                ru.max_unavailable.as_ref(),
                ru.max_surge.as_ref(),
                &up.child("rollingUpdate"),
                &mut errs,
            ),
        },
        other => errs.push(Error::not_supported(
            &up.child("type"),
            other,
            &["OnDelete", "RollingUpdate"],
        )),
    }
    errs
}

/// Go's `ValidateDaemonSetUpdate`: the selector kept.
pub fn validate_daemon_set_update(new: &DaemonSet, old: &DaemonSet) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(validate_daemon_set(new));
    selector_kept(
        new.spec.selector.as_ref(),
        old.spec.selector.as_ref(),
        &mut errs,
    );
    errs
}

/// Go's `ValidateStatefulSet`: pod management policy, update strategy, selector and
/// template, counters.
pub fn validate_stateful_set(ss: &StatefulSet) -> ErrorList {
    let mut errs = metadata(&ss.metadata);
    let spec = &ss.spec;
    let fld = Path::new("spec");
    let pmp = fld.child("podManagementPolicy");
    match spec.pod_management_policy.as_str() {
        "" => errs.push(Error::required(&pmp, "")),
        "OrderedReady" | "Parallel" => {}
        other => errs.push(Error::invalid(
            &pmp,
            other,
            "must be 'OrderedReady' or 'Parallel'",
        )),
    }
    let up = fld.child("updateStrategy");
    match spec.update_strategy.r#type.as_str() {
        "" => errs.push(Error::required(&up, "")),
        "OnDelete" => {
            if spec.update_strategy.rolling_update.is_some() {
                errs.push(Error::invalid(
                    &up.child("rollingUpdate"),
                    json_value(&spec.update_strategy.rolling_update),
                    "only allowed for updateStrategy 'RollingUpdate'",
                ));
            }
        }
        "RollingUpdate" => {
            if let Some(ru) = &spec.update_strategy.rolling_update {
                let rp = up.child("rollingUpdate");
                if let Some(p) = ru.partition {
                    non_negative(i64::from(p), &rp.child("partition"), &mut errs);
                }
                if let Some(mu) = &ru.max_unavailable {
                    int_or_percent(mu, &rp.child("maxUnavailable"), &mut errs);
                    if matches!(mu, IntOrString::Int(0))
                        || matches!(mu, IntOrString::String(s) if s == "0%")
                    {
                        errs.push(Error::invalid(
                            &rp.child("maxUnavailable"),
                            int_or_string_value(mu),
                            "must be greater than 0",
                        ));
                    }
                }
            }
        }
        other => errs.push(Error::invalid(
            &up.child("type"),
            other,
            "must be 'RollingUpdate' or 'OnDelete'",
        )),
    }
    if let Some(limit) = spec.revision_history_limit {
        non_negative(
            i64::from(limit),
            &fld.child("revisionHistoryLimit"),
            &mut errs,
        );
    }
    if let Some(r) = spec.replicas {
        non_negative(i64::from(r), &fld.child("replicas"), &mut errs);
    }
    non_negative(
        i64::from(spec.min_ready_seconds),
        &fld.child("minReadySeconds"),
        &mut errs,
    );
    selector_and_template(
        spec.selector.as_ref(),
        &spec.template,
        "statefulset",
        &fld,
        &mut errs,
    );
    workload_template(&spec.template, "StatefulSet", &fld, &mut errs);
    errs
}

const STATEFUL_SET_UPDATE_MESSAGE: &str = "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

/// Go's `ValidateStatefulSetUpdate`: only replicas, ordinals, template, update strategy,
/// revision history limit, PVC retention policy and minReadySeconds may change.
pub fn validate_stateful_set_update(new: &StatefulSet, old: &StatefulSet) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(validate_stateful_set(new));
    let mut restored = new.spec.clone();
    restored.replicas = old.spec.replicas;
    restored.ordinals.clone_from(&old.spec.ordinals);
    restored.template.clone_from(&old.spec.template);
    restored
        .update_strategy
        .clone_from(&old.spec.update_strategy);
    restored.revision_history_limit = old.spec.revision_history_limit;
    restored
        .persistent_volume_claim_retention_policy
        .clone_from(&old.spec.persistent_volume_claim_retention_policy);
    restored.min_ready_seconds = old.spec.min_ready_seconds;
    if restored != old.spec {
        errs.push(Error::forbidden(
            &Path::new("spec"),
            STATEFUL_SET_UPDATE_MESSAGE,
        ));
    }
    errs
}
