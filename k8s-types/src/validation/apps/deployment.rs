//! Deployment (Go's `ValidateDeployment`, `ValidateDeploymentUpdate` and the
//! `deployment` strategy).

use crate::validation::validate_object_meta_update;
use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::{
    int_or_percent_value, int_or_string_value, int_or_zero, non_negative_opt,
    not_more_than_100_percent, positive_int_or_percent, selector_required, selector_unchanged,
    subdomain_metadata, template_for_replica_set,
};
use crate::apps::v1::{Deployment, DeploymentSpec, DeploymentStrategy, RollingUpdateDeployment};
use crate::core::v1::PodTemplateSpec;
use crate::deprecated_fields::DEPRECATED_ROLLBACK_TO;
use crate::validation::go_internal::{GoStruct, or_null};
use crate::validation::label_selector::as_selector;
use crate::validation::{json_value, non_negative};

/// Go's `ValidateDeployment`: metadata (a DNS subdomain name, namespaced) and the spec.
pub fn validate_deployment(d: &Deployment) -> ErrorList {
    let mut errs = subdomain_metadata(&d.metadata, Some(DEPRECATED_ROLLBACK_TO));
    spec(d, None, &mut errs);
    errs
}

/// Go's `ValidateDeploymentUpdate`: the metadata's identity kept, the spec valid, the
/// selector unchanged.
pub fn validate_deployment_update(new: &Deployment, old: &Deployment) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    spec(new, Some(&old.spec.template), &mut errs);
    selector_unchanged(&new.spec.selector, &old.spec.selector, &mut errs);
    errs
}

/// Go's `ValidateDeploymentSpec`.
fn spec(d: &Deployment, old: Option<&PodTemplateSpec>, errs: &mut ErrorList) {
    let spec: &DeploymentSpec = &d.spec;
    let fld = Path::new("spec");
    non_negative(
        i64::from(spec.replicas.unwrap_or(0)),
        &fld.child("replicas"),
        errs,
    );
    selector_required(spec.selector.as_ref(), "deployment", &fld, errs);
    match as_selector(spec.selector.as_ref()) {
        None => errs.push(Error::invalid(
            &fld.child("selector"),
            json_value(&spec.selector),
            "invalid label selector",
        )),
        Some(selected) => {
            let tp = fld.child("template");
            template_for_replica_set(&spec.template, old, selected, &tp, errs);
        }
    }
    strategy(&spec.strategy, &fld.child("strategy"), errs);
    non_negative(
        i64::from(spec.min_ready_seconds),
        &fld.child("minReadySeconds"),
        errs,
    );
    non_negative_opt(
        spec.revision_history_limit,
        &fld.child("revisionHistoryLimit"),
        errs,
    );
    // The internal form keeps `spec.rollbackTo.revision` in its annotation (an int64,
    // as its conversion checked).
    if let Some(revision) = d.metadata.annotations.get(DEPRECATED_ROLLBACK_TO) {
        let revision: i64 = revision.parse().unwrap_or(0);
        non_negative(revision, &fld.child("rollback").child("version"), errs);
    }
    if let Some(pds) = spec.progress_deadline_seconds {
        let path = fld.child("progressDeadlineSeconds");
        non_negative(i64::from(pds), &path, errs);
        if pds <= spec.min_ready_seconds {
            errs.push(Error::invalid(
                &path,
                pds,
                "must be greater than minReadySeconds",
            ));
        }
    }
}

/// Go's `ValidateDeploymentStrategy`.
fn strategy(s: &DeploymentStrategy, path: &Path, errs: &mut ErrorList) {
    let ru_path = path.child("rollingUpdate");
    match s.r#type.as_str() {
        "Recreate" => {
            if s.rolling_update.is_some() {
                errs.push(Error::forbidden(
                    &ru_path,
                    "may not be specified when strategy `type` is 'Recreate'",
                ));
            }
        }
        "RollingUpdate" => match &s.rolling_update {
            None => errs.push(Error::required(
                &ru_path,
                "this should be defaulted and never be nil",
            )),
            Some(ru) => rolling_update(ru, &ru_path, errs),
        },
        _ => errs.push(Error::not_supported(
            path,
            internal_strategy(s).value(),
            &["Recreate", "RollingUpdate"],
        )),
    }
}

/// Go's `ValidateRollingUpdateDeployment`: both numbers valid, not both 0, the
/// unavailable ones at most 100%.
fn rolling_update(ru: &RollingUpdateDeployment, path: &Path, errs: &mut ErrorList) {
    let unavailable = int_or_zero(ru.max_unavailable.as_ref());
    let surge = int_or_zero(ru.max_surge.as_ref());
    let up = path.child("maxUnavailable");
    positive_int_or_percent(&unavailable, &up, errs);
    positive_int_or_percent(&surge, &path.child("maxSurge"), errs);
    if int_or_percent_value(&unavailable) == 0 && int_or_percent_value(&surge) == 0 {
        errs.push(Error::invalid(
            &up,
            int_or_string_value(&unavailable),
            "may not be 0 when `maxSurge` is 0",
        ));
    }
    not_more_than_100_percent(&unavailable, &up, errs);
}

/// The internal `DeploymentStrategy` Go prints when its type is unknown.
fn internal_strategy(s: &DeploymentStrategy) -> GoStruct {
    GoStruct::new().field("Type", &s.r#type).raw(
        "RollingUpdate",
        or_null(s.rolling_update.as_ref(), |ru| {
            GoStruct::new()
                .field("MaxUnavailable", &int_or_zero(ru.max_unavailable.as_ref()))
                .field("MaxSurge", &int_or_zero(ru.max_surge.as_ref()))
                .text()
        }),
    )
}
