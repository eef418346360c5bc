//! StatefulSet (Go's `ValidateStatefulSet`, `ValidateStatefulSetUpdate` and the
//! `statefulset` strategy).

use crate::validation::validate_object_meta_update;
use apimachinery::apis::meta::v1::validation::{
    name_is_dns_label, validate_annotations, validate_labels,
};
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use apimachinery::util::validation::is_dns1123_label;

use super::{
    int_or_percent_value, int_or_string_value, json_string, metadata, not_more_than_100_percent,
    positive_int_or_percent, restarted_always, selector_required, template_matches,
};
use crate::apps::v1::{
    RollingUpdateStatefulSetStrategy, StatefulSet, StatefulSetPersistentVolumeClaimRetentionPolicy,
    StatefulSetSpec, StatefulSetUpdateStrategy,
};
use crate::core::v1::{PersistentVolumeClaimVolumeSource, PodTemplateSpec, Volume};
use crate::validation::go_internal::{GoStruct, or_null};
use crate::validation::label_selector::as_selector;
use crate::validation::semantic::semantic_eq;
use crate::validation::{
    PersistentVolumeClaimSpecOptions, invalid_each, json_value, non_negative,
    validate_persistent_volume_claim_spec, validate_pod_template_spec,
    validate_pod_template_spec_update,
};

/// What Go's `StatefulSetValidationOptions` relax.
#[derive(Clone, Copy, Default)]
struct Options<'a> {
    /// An update's old template, from which Go computes the pod validation options.
    old_template: Option<&'a PodTemplateSpec>,
    /// An update keeps the service name it had (immutable), valid or not.
    allow_invalid_service_name: bool,
    /// An update does not validate a pod template whose old spec had errors.
    skip_pod_template: bool,
    /// An update does not validate the claim templates (immutable, kept as they are).
    skip_volume_claim_templates: bool,
    /// The `Recreate` update strategy is allowed: on 1.37 when the old object had it
    /// (the StatefulSetRecreateStrategy gate is off by default).
    allow_recreate: bool,
}

/// Go's `ValidateStatefulSet`: metadata (a DNS label name: its pods are named after
/// it), the spec.
pub fn validate_stateful_set(ss: &StatefulSet) -> ErrorList {
    let mut errs = metadata(&ss.metadata, None, name_is_dns_label);
    spec(&ss.spec, &Path::new("spec"), Options::default(), &mut errs);
    errs
}

#[cfg(not(feature = "v1_37"))]
const UPDATE_MESSAGE: &str = "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

/// Go's `ValidateStatefulSetUpdate`: the metadata's identity kept (the name is not
/// checked again: older servers allowed subdomains), the spec valid (its pod template
/// only if the old one's spec was), and only replicas, ordinals, template, update
/// strategy, revision history limit, claim retention policy and minReadySeconds
/// changed.
pub fn validate_stateful_set_update(new: &StatefulSet, old: &StatefulSet) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let mut opts = Options {
        old_template: Some(&old.spec.template),
        allow_invalid_service_name: true,
        skip_pod_template: false,
        skip_volume_claim_templates: true,
        allow_recreate: cfg!(feature = "v1_37") && old.spec.update_strategy.r#type == "Recreate",
    };
    let mut old_errs = ErrorList::default();
    spec(&old.spec, &Path::root(), opts, &mut old_errs);
    opts.skip_pod_template = !old_errs.is_empty();
    spec(&new.spec, &Path::new("spec"), opts, &mut errs);
    let (n, o) = (&new.spec, &old.spec);
    #[cfg(feature = "v1_37")]
    immutable_fields(n, o, &mut errs);
    #[cfg(not(feature = "v1_37"))]
    if n.selector != o.selector
        || n.service_name != o.service_name
        || !semantic_eq(&n.volume_claim_templates, &o.volume_claim_templates)
        || n.pod_management_policy != o.pod_management_policy
    {
        errs.push(Error::forbidden(&Path::new("spec"), UPDATE_MESSAGE));
    }
    errs
}

/// Kubernetes 1.37's update rule: each immutable field changed is named, with its new
/// value (Go's `ValidateImmutableField` on selector, claim templates, service name and
/// pod management policy; the declarative `+k8s:immutable` rules they are covered by
/// report the same).
#[cfg(feature = "v1_37")]
fn immutable_fields(n: &StatefulSetSpec, o: &StatefulSetSpec, errs: &mut ErrorList) {
    use crate::go_internal_json::internal_list_value;
    const IMMUTABLE: &str = "field is immutable";
    let fld = Path::new("spec");
    if n.selector != o.selector {
        errs.push(Error::invalid(
            &fld.child("selector"),
            json_value(&n.selector),
            IMMUTABLE,
        ));
    }
    if !semantic_eq(&n.volume_claim_templates, &o.volume_claim_templates) {
        // Go writes its internal claims; an empty list is nil.
        errs.push(Error::invalid(
            &fld.child("volumeClaimTemplates"),
            internal_list_value("core.PersistentVolumeClaim", &n.volume_claim_templates),
            IMMUTABLE,
        ));
    }
    if n.service_name != o.service_name {
        errs.push(Error::invalid(
            &fld.child("serviceName"),
            n.service_name.as_str(),
            IMMUTABLE,
        ));
    }
    if n.pod_management_policy != o.pod_management_policy {
        errs.push(Error::invalid(
            &fld.child("podManagementPolicy"),
            json_string(&n.pod_management_policy),
            IMMUTABLE,
        ));
    }
}

/// Go's `ValidateStatefulSetSpec` (claim templates are validated on create only).
fn spec(spec: &StatefulSetSpec, fld: &Path, opts: Options, errs: &mut ErrorList) {
    let pmp = fld.child("podManagementPolicy");
    match spec.pod_management_policy.as_str() {
        "" => errs.push(Error::required(&pmp, "")),
        "OrderedReady" | "Parallel" => {}
        other => errs.push(Error::invalid(
            &pmp,
            json_string(other),
            "must be 'OrderedReady' or 'Parallel'",
        )),
    }
    update_strategy(
        &spec.update_strategy,
        opts.allow_recreate,
        &fld.child("updateStrategy"),
        errs,
    );
    if let Some(policy) = &spec.persistent_volume_claim_retention_policy {
        retention_policy(
            policy,
            &fld.child("persistentVolumeClaimRetentionPolicy"),
            errs,
        );
    }
    if !opts.skip_volume_claim_templates {
        // Go's `validateVolumeClaimTemplates`: each template's spec as a claim's, with
        // the options of a claim's creation.
        let vp = fld.child("volumeClaimTemplates");
        for (i, claim) in spec.volume_claim_templates.iter().enumerate() {
            errs.extend(validate_persistent_volume_claim_spec(
                &claim.spec,
                &vp.index(i).child("spec"),
                PersistentVolumeClaimSpecOptions::default(),
            ));
        }
    }
    non_negative(
        i64::from(spec.replicas.unwrap_or(0)),
        &fld.child("replicas"),
        errs,
    );
    non_negative(
        i64::from(spec.min_ready_seconds),
        &fld.child("minReadySeconds"),
        errs,
    );
    if let Some(ordinals) = &spec.ordinals {
        non_negative(
            i64::from(ordinals.start),
            &fld.child("ordinals.start"),
            errs,
        );
    }
    if !opts.allow_invalid_service_name && !spec.service_name.is_empty() {
        invalid_each(
            errs,
            &fld.child("serviceName"),
            &spec.service_name,
            is_dns1123_label(&spec.service_name),
        );
    }
    selector_required(spec.selector.as_ref(), "statefulset", fld, errs);
    let tp = fld.child("template");
    match as_selector(spec.selector.as_ref()) {
        None => errs.push(Error::invalid(
            &fld.child("selector"),
            json_value(&spec.selector),
            "",
        )),
        Some(selected) => {
            let template = template_to_validate(spec);
            template_matches(selected, &template, &tp, errs);
            if !opts.skip_pod_template {
                errs.extend(match opts.old_template {
                    Some(old) => validate_pod_template_spec_update(&template, old, &tp),
                    None => validate_pod_template_spec(&template, &tp),
                });
            } else {
                // The declarative rules run whatever the hand-written ones skip.
                #[cfg(feature = "v1_37")]
                crate::validation::core::validate_eviction_responders(
                    &spec.template.spec,
                    opts.old_template.map(|t| &t.spec),
                    &tp.child("spec"),
                    errs,
                );
            }
            errs.extend(validate_labels(
                &template.metadata.labels,
                &tp.child("labels"),
            ));
            errs.extend(validate_annotations(
                &template.metadata.annotations,
                &tp.child("annotations"),
            ));
        }
    }
    restarted_always(&spec.template, "StatefulSet", &tp, errs);
}

/// The template as Go validates it: without the hostname and subdomain the controller
/// sets on each pod, and with a PVC volume for each claim template (in the templates'
/// order; Go walks a map, so its order among them is not fixed), replacing the
/// template's volume of that name.
fn template_to_validate(spec: &StatefulSetSpec) -> std::borrow::Cow<'_, PodTemplateSpec> {
    let t = &spec.template;
    if t.spec.subdomain.is_empty()
        && t.spec.hostname.is_empty()
        && spec.volume_claim_templates.is_empty()
    {
        return std::borrow::Cow::Borrowed(t);
    }
    let mut t = t.clone();
    t.spec.subdomain.clear();
    t.spec.hostname.clear();
    if !spec.volume_claim_templates.is_empty() {
        let mut volumes: Vec<Volume> = Vec::new();
        for claim in &spec.volume_claim_templates {
            let name = &claim.metadata.name;
            if volumes.iter().any(|v| &v.name == name) {
                continue;
            }
            volumes.push(Volume {
                name: name.clone(),
                persistent_volume_claim: Some(PersistentVolumeClaimVolumeSource {
                    claim_name: name.clone(),
                    ..Default::default()
                }),
                ..Default::default()
            });
        }
        let claimed: Vec<String> = volumes.iter().map(|v| v.name.clone()).collect();
        volumes.extend(
            t.spec
                .volumes
                .drain(..)
                .filter(|v| !claimed.contains(&v.name)),
        );
        t.spec.volumes = volumes;
    }
    std::borrow::Cow::Owned(t)
}

/// Go's update strategy rules of a StatefulSet.
fn update_strategy(
    s: &StatefulSetUpdateStrategy,
    allow_recreate: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    let rp = path.child("rollingUpdate");
    match s.r#type.as_str() {
        "" => errs.push(Error::required(path, "")),
        "OnDelete" => {
            if let Some(ru) = &s.rolling_update {
                errs.push(Error::invalid(
                    &rp,
                    internal_rolling_update(ru).value(),
                    "only allowed for updateStrategy 'RollingUpdate'",
                ));
            }
        }
        "RollingUpdate" => {
            if let Some(ru) = &s.rolling_update {
                rolling_update(ru, &rp, errs);
            }
        }
        "Recreate" if allow_recreate => {
            if let Some(ru) = &s.rolling_update {
                errs.push(Error::invalid(
                    &rp,
                    internal_rolling_update(ru).value(),
                    "only allowed for updateStrategy 'RollingUpdate'",
                ));
            }
        }
        _ => {
            let value = GoStruct::new().field("Type", &s.r#type).raw(
                "RollingUpdate",
                or_null(s.rolling_update.as_ref(), |ru| {
                    internal_rolling_update(ru).text()
                }),
            );
            errs.push(Error::invalid(
                path,
                value.value(),
                if allow_recreate {
                    "must be 'RollingUpdate', 'OnDelete', or 'Recreate'"
                } else {
                    "must be 'RollingUpdate' or 'OnDelete'"
                },
            ));
        }
    }
}

/// The internal `RollingUpdateStatefulSetStrategy` (its partition is not a pointer).
fn internal_rolling_update(ru: &RollingUpdateStatefulSetStrategy) -> GoStruct {
    GoStruct::new()
        .field("Partition", &ru.partition.unwrap_or(0))
        .field("MaxUnavailable", &ru.max_unavailable)
}

/// Go's `validateRollingUpdateStatefulSet`.
fn rolling_update(ru: &RollingUpdateStatefulSetStrategy, path: &Path, errs: &mut ErrorList) {
    non_negative(
        i64::from(ru.partition.unwrap_or(0)),
        &path.child("partition"),
        errs,
    );
    if let Some(mu) = &ru.max_unavailable {
        let mp = path.child("maxUnavailable");
        positive_int_or_percent(mu, &mp, errs);
        if int_or_percent_value(mu) == 0 {
            errs.push(Error::invalid(&mp, int_or_string_value(mu), "cannot be 0"));
        }
        not_more_than_100_percent(mu, &mp, errs);
    }
}

/// Go's `ValidatePersistentVolumeClaimRetentionPolicy`.
fn retention_policy(
    policy: &StatefulSetPersistentVolumeClaimRetentionPolicy,
    path: &Path,
    errs: &mut ErrorList,
) {
    for (name, value) in [
        ("whenDeleted", &policy.when_deleted),
        ("whenScaled", &policy.when_scaled),
    ] {
        if value != "Retain" && value != "Delete" {
            errs.push(Error::not_supported(
                &path.child(name),
                json_string(value),
                &["Retain", "Delete"],
            ));
        }
    }
}
