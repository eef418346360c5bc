//! DaemonSet (Go's `ValidateDaemonSet`, `ValidateDaemonSetUpdate` and the `daemonset`
//! strategy). Its `spec.templateGeneration` lives in the internal form's annotation.

use crate::validation::validate_object_meta_update;
use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::{
    int_or_percent_value, int_or_string_value, int_or_zero, non_negative_opt,
    not_more_than_100_percent, pod_template, positive_int_or_percent, restarted_always,
    selector_unchanged, subdomain_metadata,
};
use crate::apps::v1::{DaemonSet, DaemonSetUpdateStrategy, RollingUpdateDaemonSet};
use crate::core::v1::PodTemplateSpec;
use crate::deprecated_fields::DEPRECATED_TEMPLATE_GENERATION;
use crate::validation::go_internal::{GoStruct, or_null};
use crate::validation::label_selector::{
    affinity_selector_invalid, as_selector, has_invalid_label_value, mismatch,
    validate_label_selector_with,
};
use crate::validation::semantic::semantic_eq;
use crate::validation::{json_value, non_negative};

/// Go's `ValidateDaemonSet`: metadata (a DNS subdomain name, namespaced) and the spec.
pub fn validate_daemon_set(ds: &DaemonSet) -> ErrorList {
    let mut errs = subdomain_metadata(&ds.metadata, Some(DEPRECATED_TEMPLATE_GENERATION));
    spec(ds, None, false, &mut errs);
    errs
}

/// Go's `ValidateDaemonSetUpdate`: the metadata's identity kept; the template
/// generation not decremented, and incremented exactly when the template changes; the
/// selector unchanged; the spec valid (invalid label values tolerated in the selector
/// when the old object had some).
pub fn validate_daemon_set_update(new: &DaemonSet, old: &DaemonSet) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let fld = Path::new("spec");
    let gp = fld.child("templateGeneration");
    let (generation, old_generation) = (template_generation(new), template_generation(old));
    if generation < old_generation {
        errs.push(Error::invalid(&gp, generation, "must not be decremented"));
    }
    let template_updated = !semantic_eq(&new.spec.template, &old.spec.template);
    if generation == old_generation && template_updated {
        errs.push(Error::invalid(
            &gp,
            generation,
            "must be incremented upon template update",
        ));
    } else if generation > old_generation && !template_updated {
        errs.push(Error::invalid(
            &gp,
            generation,
            "must not be incremented without template update",
        ));
    }
    selector_unchanged(&new.spec.selector, &old.spec.selector, &mut errs);
    let tolerate = affinity_selector_invalid(&old.spec.template.spec)
        || has_invalid_label_value(old.spec.selector.as_ref());
    spec(new, Some(&old.spec.template), tolerate, &mut errs);
    errs
}

/// The internal `spec.templateGeneration`: the annotation's int64 (as its conversion
/// checked), 0 without one.
fn template_generation(ds: &DaemonSet) -> i64 {
    ds.metadata
        .annotations
        .get(DEPRECATED_TEMPLATE_GENERATION)
        .and_then(|g| g.parse().ok())
        .unwrap_or(0)
}

/// Go's `ValidateDaemonSetSpec`.
fn spec(
    ds: &DaemonSet,
    old: Option<&PodTemplateSpec>,
    allow_invalid_label_value: bool,
    errs: &mut ErrorList,
) {
    let spec = &ds.spec;
    let fld = Path::new("spec");
    let sel_path = fld.child("selector");
    errs.extend(validate_label_selector_with(
        spec.selector.as_ref(),
        allow_invalid_label_value,
        &sel_path,
    ));
    let tp = fld.child("template");
    if as_selector(spec.selector.as_ref())
        .is_some_and(|selected| !selected.matches(&spec.template.metadata.labels))
    {
        errs.push(mismatch(&spec.template.metadata.labels, &tp));
    }
    if let Some(sel) = &spec.selector {
        if sel.match_labels.is_empty() && sel.match_expressions.is_empty() {
            errs.push(Error::invalid(
                &sel_path,
                json_value(sel),
                "empty selector is invalid for daemonset",
            ));
        }
    }
    errs.extend(pod_template(&spec.template, old, &tp));
    restarted_always(&spec.template, "DaemonSet", &tp, errs);
    non_negative(
        i64::from(spec.min_ready_seconds),
        &fld.child("minReadySeconds"),
        errs,
    );
    non_negative(
        template_generation(ds),
        &fld.child("templateGeneration"),
        errs,
    );
    update_strategy(&spec.update_strategy, &fld.child("updateStrategy"), errs);
    non_negative_opt(
        spec.revision_history_limit,
        &fld.child("revisionHistoryLimit"),
        errs,
    );
}

/// Go's `ValidateDaemonSetUpdateStrategy`.
fn update_strategy(s: &DaemonSetUpdateStrategy, path: &Path, errs: &mut ErrorList) {
    match s.r#type.as_str() {
        "OnDelete" => {}
        "RollingUpdate" => match &s.rolling_update {
            None => errs.push(Error::required(&path.child("rollingUpdate"), "")),
            Some(ru) => rolling_update(ru, &path.child("rollingUpdate"), errs),
        },
        _ => errs.push(Error::not_supported(
            path,
            internal_strategy(s).value(),
            &["RollingUpdate", "OnDelete"],
        )),
    }
}

/// Go's `ValidateRollingUpdateDaemonSet`: both numbers valid and at most 100%, exactly
/// one of them not 0.
fn rolling_update(ru: &RollingUpdateDaemonSet, path: &Path, errs: &mut ErrorList) {
    let unavailable = int_or_zero(ru.max_unavailable.as_ref());
    let surge = int_or_zero(ru.max_surge.as_ref());
    let (up, sp) = (path.child("maxUnavailable"), path.child("maxSurge"));
    positive_int_or_percent(&unavailable, &up, errs);
    positive_int_or_percent(&surge, &sp, errs);
    not_more_than_100_percent(&unavailable, &up, errs);
    not_more_than_100_percent(&surge, &sp, errs);
    let has_unavailable = int_or_percent_value(&unavailable) != 0;
    let has_surge = int_or_percent_value(&surge) != 0;
    if has_unavailable && has_surge {
        errs.push(Error::invalid(
            &sp,
            int_or_string_value(&surge),
            "may not be set when maxUnavailable is non-zero",
        ));
    } else if !has_unavailable && !has_surge {
        errs.push(Error::required(&up, "cannot be 0 when maxSurge is 0"));
    }
}

/// The internal `DaemonSetUpdateStrategy` Go prints when its type is unknown.
fn internal_strategy(s: &DaemonSetUpdateStrategy) -> GoStruct {
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
