//! The autoscaling group's validation (Go's `pkg/apis/autoscaling/validation` and the
//! `horizontalpodautoscaler` strategy): HorizontalPodAutoscaler, validated in its
//! internal form, which `autoscaling/v2` holds field for field.
//!
//! The strategy's options, at 1.36's feature gates (`HPAScaleToZero` off): at least one
//! replica unless the old object already had 0; the scale target's `apiVersion` names a
//! group (but a ReplicationController's), unless an update keeps the target's version
//! and kind; an object metric's `apiVersion` may have no group, and may even be invalid
//! when the old object had an invalid one.

use crate::validation::{validate_object_meta, validate_object_meta_update};
use apimachinery::apis::meta::v1::validation::{IS_NEGATIVE_ERROR_MSG, validate_path_segment_name};
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use apimachinery::util::validation::{is_dns1123_label, is_qualified_name};

use super::resource_names::{is_extended_resource_name, is_standard_resource_name};
use super::{invalid_each, json_value};
use crate::autoscaling::v2::{
    ContainerResourceMetricSource, CrossVersionObjectReference, ExternalMetricSource,
    HPAScalingPolicy, HPAScalingRules, HorizontalPodAutoscaler, HorizontalPodAutoscalerSpec,
    MetricIdentifier, MetricSpec, MetricTarget, ObjectMetricSource, PodsMetricSource,
    ResourceMetricSource,
};

const MAX_PERIOD_SECONDS: i32 = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS: i32 = 3600;
const SELECT_POLICIES: [&str; 3] = ["Disabled", "Max", "Min"];
const POLICY_TYPES: [&str; 2] = ["Percent", "Pods"];
const METRIC_SOURCE_TYPES: [&str; 5] = [
    "ContainerResource",
    "External",
    "Object",
    "Pods",
    "Resource",
];

/// Go's `CrossVersionObjectReferenceValidationOptions`.
#[derive(Clone, Copy, Debug, Default)]
struct RefOptions {
    allow_empty_api_group: bool,
    allow_invalid_api_version: bool,
}

/// Go's `HorizontalPodAutoscalerSpecValidationOptions`.
#[derive(Clone, Copy, Debug)]
struct Options {
    min_replicas_lower_bound: i32,
    scale_target_ref: RefOptions,
    object_metrics: RefOptions,
}

/// Go's `validationOptionsForHorizontalPodAutoscaler`.
fn options(new: &HorizontalPodAutoscaler, old: Option<&HorizontalPodAutoscaler>) -> Options {
    let mut opts = Options {
        min_replicas_lower_bound: 1,
        scale_target_ref: RefOptions::default(),
        object_metrics: RefOptions {
            allow_empty_api_group: true,
            allow_invalid_api_version: false,
        },
    };
    // The `HPAScaleToZero` gate is beta, on by default, from Kubernetes 1.37.
    if cfg!(feature = "v1_37") || old.is_some_and(|o| o.spec.min_replicas == Some(0)) {
        opts.min_replicas_lower_bound = 0;
    }
    let (target, old_target) = (
        &new.spec.scale_target_ref,
        old.map(|o| &o.spec.scale_target_ref),
    );
    if old_target.is_some_and(|o| o.api_version == target.api_version && o.kind == target.kind) {
        opts.scale_target_ref.allow_invalid_api_version = true;
    } else if target.kind == "ReplicationController" {
        opts.scale_target_ref.allow_empty_api_group = true;
    }
    if let Some(old) = old {
        let invalid_object_metric = old.spec.metrics.iter().any(|m| {
            m.r#type == "Object"
                && m.object.as_ref().is_some_and(|o| {
                    api_version_error(&o.described_object, opts.object_metrics).is_some()
                })
        });
        if invalid_object_metric {
            opts.object_metrics.allow_invalid_api_version = true;
        }
    }
    opts
}

/// Go's `ValidateHorizontalPodAutoscaler`: metadata (a DNS subdomain name, namespaced)
/// and the spec.
pub fn validate_horizontal_pod_autoscaler(hpa: &HorizontalPodAutoscaler) -> ErrorList {
    let mut errs = validate_object_meta(
        &hpa.metadata,
        true,
        apimachinery::apis::meta::v1::validation::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    spec(&hpa.spec, options(hpa, None), &mut errs);
    errs
}

/// Go's `ValidateHorizontalPodAutoscalerUpdate`: the metadata's identity kept and the
/// spec valid under the options the old object allows.
pub fn validate_horizontal_pod_autoscaler_update(
    new: &HorizontalPodAutoscaler,
    old: &HorizontalPodAutoscaler,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    spec(&new.spec, options(new, Some(old)), &mut errs);
    errs
}

/// Go's `ValidateHorizontalPodAutoscalerStatusUpdate`, the `/status` strategy's check:
/// the metadata's identity kept, the current and desired replica counts not negative,
/// and from Kubernetes 1.37 (whose conditions carry an `observedGeneration`) no
/// condition's generation negative either.
pub fn validate_horizontal_pod_autoscaler_status_update(
    new: &HorizontalPodAutoscaler,
    old: &HorizontalPodAutoscaler,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let status = &new.status;
    let sp = Path::new("status");
    #[cfg(feature = "v1_37")]
    for (i, condition) in status.conditions.iter().enumerate() {
        if let Some(generation) = condition.observed_generation {
            let cp = sp.child("conditions");
            let ip = cp.index(i);
            super::non_negative(generation, &ip.child("observedGeneration"), &mut errs);
        }
    }
    super::non_negative(
        i64::from(status.current_replicas),
        &sp.child("currentReplicas"),
        &mut errs,
    );
    super::non_negative(
        i64::from(status.desired_replicas),
        &sp.child("desiredReplicas"),
        &mut errs,
    );
    errs
}

/// Go's `validateHorizontalPodAutoscalerSpec`.
fn spec(spec: &HorizontalPodAutoscalerSpec, opts: Options, errs: &mut ErrorList) {
    let fld = Path::new("spec");
    if let Some(min) = spec.min_replicas {
        if min < opts.min_replicas_lower_bound {
            errs.push(Error::invalid(
                &fld.child("minReplicas"),
                min,
                format!(
                    "must be greater than or equal to {}",
                    opts.min_replicas_lower_bound
                ),
            ));
        }
    }
    let max_path = fld.child("maxReplicas");
    match spec.max_replicas {
        0 => errs.push(Error::required(&max_path, "must be set and greater than 0")),
        m if m < 0 => errs.push(Error::invalid(
            &max_path,
            m,
            "must be greater than or equal to 1",
        )),
        _ => {}
    }
    if spec.min_replicas.is_some_and(|min| spec.max_replicas < min) {
        errs.push(Error::invalid(
            &max_path,
            spec.max_replicas,
            "must be greater than or equal to `minReplicas`",
        ));
    }
    cross_version_reference(
        &spec.scale_target_ref,
        &fld.child("scaleTargetRef"),
        opts.scale_target_ref,
        errs,
    );
    metrics(spec, &fld.child("metrics"), opts.object_metrics, errs);
    if let Some(behavior) = &spec.behavior {
        let bp = fld.child("behavior");
        if let Some(rules) = &behavior.scale_up {
            scaling_rules(rules, &bp.child("scaleUp"), errs);
        }
        if let Some(rules) = &behavior.scale_down {
            scaling_rules(rules, &bp.child("scaleDown"), errs);
        }
    }
}

/// Go's `ValidateCrossVersionObjectReference`.
fn cross_version_reference(
    r: &CrossVersionObjectReference,
    path: &Path,
    opts: RefOptions,
    errs: &mut ErrorList,
) {
    for (name, value) in [("kind", &r.kind), ("name", &r.name)] {
        let p = path.child(name);
        if value.is_empty() {
            errs.push(Error::required(&p, ""));
        } else {
            invalid_each(errs, &p, value, validate_path_segment_name(value, false));
        }
    }
    if let Some(e) = api_version_error(r, opts) {
        errs.push(Error::invalid(&path.child("apiVersion"), &r.api_version, e));
    }
}

/// Go's `ValidateAPIVersion`: a group/version Go's `ParseGroupVersion` reads, with a
/// group unless allowed without.
fn api_version_error(r: &CrossVersionObjectReference, opts: RefOptions) -> Option<String> {
    if opts.allow_invalid_api_version {
        return None;
    }
    let gv = r.api_version.as_str();
    let group = match gv.matches('/').count() {
        _ if gv.is_empty() || gv == "/" => "",
        0 => "",
        1 => gv.split_once('/').map_or("", |(g, _)| g),
        _ => return Some(format!("unexpected GroupVersion string: {gv}")),
    };
    (!opts.allow_empty_api_group && group.is_empty())
        .then(|| "apiVersion must specify API group".to_owned())
}

/// Go's `validateMetrics`.
fn metrics(
    spec: &HorizontalPodAutoscalerSpec,
    path: &Path,
    opts: RefOptions,
    errs: &mut ErrorList,
) {
    let mut object_or_external = false;
    for (i, m) in spec.metrics.iter().enumerate() {
        metric_spec(m, &path.index(i), opts, errs);
        object_or_external |= m.r#type == "Object" || m.r#type == "External";
    }
    if spec.min_replicas == Some(0) && !object_or_external {
        errs.push(Error::forbidden(
            path,
            "must specify at least one Object or External metric to support scaling to zero replicas",
        ));
    }
}

/// Go's `validateMetricSpec`: a known type, its source present, and no other.
fn metric_spec(m: &MetricSpec, path: &Path, opts: RefOptions, errs: &mut ErrorList) {
    let type_path = path.child("type");
    if m.r#type.is_empty() {
        errs.push(Error::required(
            &type_path,
            "must specify a metric source type",
        ));
    }
    let known = METRIC_SOURCE_TYPES.contains(&m.r#type.as_str());
    if !known {
        errs.push(Error::not_supported(
            &type_path,
            json_value(&m.r#type),
            &METRIC_SOURCE_TYPES,
        ));
    }
    // The sources present, in Go's order; only the first is validated.
    let mut present: Vec<&str> = Vec::new();
    if let Some(src) = &m.object {
        present.push("object");
        object_source(src, &path.child("object"), opts, errs);
    }
    if let Some(src) = &m.external {
        present.push("external");
        if present.len() == 1 {
            external_source(src, &path.child("external"), errs);
        }
    }
    if let Some(src) = &m.pods {
        present.push("pods");
        if present.len() == 1 {
            pods_source(src, &path.child("pods"), errs);
        }
    }
    if let Some(src) = &m.resource {
        present.push("resource");
        if present.len() == 1 {
            resource_source(src, &path.child("resource"), errs);
        }
    }
    if let Some(src) = &m.container_resource {
        present.push("containerResource");
        if present.len() == 1 {
            container_resource_source(src, &path.child("containerResource"), errs);
        }
    }
    let expected = match m.r#type.as_str() {
        "Object" => Some(("object", m.object.is_some())),
        "Pods" => Some(("pods", m.pods.is_some())),
        "Resource" => Some(("resource", m.resource.is_some())),
        "External" => Some(("external", m.external.is_some())),
        "ContainerResource" => Some(("containerResource", m.container_resource.is_some())),
        _ => None,
    };
    match expected {
        Some((field, false)) => errs.push(Error::required(
            &path.child(field),
            "must populate information for the given metric source",
        )),
        Some(_) => {}
        // Go reports an unknown type a second time here.
        None => errs.push(Error::not_supported(
            &type_path,
            json_value(&m.r#type),
            &METRIC_SOURCE_TYPES,
        )),
    }
    if present.len() != 1 {
        let expected = expected.map(|(f, _)| f);
        for field in present.into_iter().filter(|f| Some(*f) != expected) {
            errs.push(Error::forbidden(
                &path.child(field),
                "must populate the given metric source only",
            ));
        }
    }
}

fn object_source(src: &ObjectMetricSource, path: &Path, opts: RefOptions, errs: &mut ErrorList) {
    cross_version_reference(
        &src.described_object,
        &path.child("describedObject"),
        opts,
        errs,
    );
    metric_identifier(&src.metric, &path.child("metric"), errs);
    let tp = path.child("target");
    metric_target(&src.target, &tp, errs);
    if src.target.value.is_none() && src.target.average_value.is_none() {
        errs.push(Error::required(
            &tp.child("averageValue"),
            "must set either a target value or averageValue",
        ));
    }
}

fn external_source(src: &ExternalMetricSource, path: &Path, errs: &mut ErrorList) {
    metric_identifier(&src.metric, &path.child("metric"), errs);
    let tp = path.child("target");
    metric_target(&src.target, &tp, errs);
    match (&src.target.value, &src.target.average_value) {
        (None, None) => errs.push(Error::required(
            &tp.child("averageValue"),
            "must set either a target value for metric or a per-pod target",
        )),
        (Some(_), Some(_)) => errs.push(Error::forbidden(
            &tp.child("value"),
            "may not set both a target value for metric and a per-pod target",
        )),
        _ => {}
    }
}

fn pods_source(src: &PodsMetricSource, path: &Path, errs: &mut ErrorList) {
    metric_identifier(&src.metric, &path.child("metric"), errs);
    let tp = path.child("target");
    metric_target(&src.target, &tp, errs);
    if src.target.average_value.is_none() {
        errs.push(Error::required(
            &tp.child("averageValue"),
            "must specify a positive target averageValue",
        ));
    }
}

/// The target of a resource metric: a raw value or a utilization, not both.
fn utilization_or_value(target: &MetricTarget, tp: &Path, errs: &mut ErrorList) {
    metric_target(target, tp, errs);
    match (&target.average_utilization, &target.average_value) {
        (None, None) => errs.push(Error::required(
            &tp.child("averageUtilization"),
            "must set either a target raw value or a target utilization",
        )),
        (Some(_), Some(_)) => errs.push(Error::forbidden(
            &tp.child("averageValue"),
            "may not set both a target raw value and a target utilization",
        )),
        _ => {}
    }
}

fn container_resource_source(
    src: &ContainerResourceMetricSource,
    path: &Path,
    errs: &mut ErrorList,
) {
    let np = path.child("name");
    if src.name.is_empty() {
        errs.push(Error::required(&np, "must specify a resource name"));
    } else {
        container_resource_name(&src.name, &np, errs);
    }
    let cp = path.child("container");
    if src.container.is_empty() {
        errs.push(Error::required(&cp, "must specify a container"));
    } else {
        invalid_each(errs, &cp, &src.container, is_dns1123_label(&src.container));
    }
    utilization_or_value(&src.target, &path.child("target"), errs);
}

fn resource_source(src: &ResourceMetricSource, path: &Path, errs: &mut ErrorList) {
    if src.name.is_empty() {
        errs.push(Error::required(
            &path.child("name"),
            "must specify a resource name",
        ));
    }
    utilization_or_value(&src.target, &path.child("target"), errs);
}

/// Go's `validateMetricTarget`.
fn metric_target(t: &MetricTarget, path: &Path, errs: &mut ErrorList) {
    let type_path = path.child("type");
    if t.r#type.is_empty() {
        errs.push(Error::required(
            &type_path,
            "must specify a metric target type",
        ));
    }
    if !matches!(t.r#type.as_str(), "Utilization" | "Value" | "AverageValue") {
        errs.push(Error::invalid(
            &type_path,
            json_value(&t.r#type),
            "must be either Utilization, Value, or AverageValue",
        ));
    }
    for (name, q) in [("value", &t.value), ("averageValue", &t.average_value)] {
        if let Some(q) = q.as_ref().filter(|q| q.sign() != 1) {
            errs.push(Error::invalid(
                &path.child(name),
                json_value(q),
                "must be positive",
            ));
        }
    }
    if let Some(u) = t.average_utilization.filter(|u| *u < 1) {
        errs.push(Error::invalid(
            &path.child("averageUtilization"),
            u,
            "must be greater than 0",
        ));
    }
}

/// Go's `validateMetricIdentifier`: a name that is a path segment.
fn metric_identifier(id: &MetricIdentifier, path: &Path, errs: &mut ErrorList) {
    let np = path.child("name");
    if id.name.is_empty() {
        errs.push(Error::required(&np, "must specify a metric name"));
    } else {
        invalid_each(
            errs,
            &np,
            &id.name,
            validate_path_segment_name(&id.name, false),
        );
    }
}

/// Go's `validateScalingRules`.
fn scaling_rules(rules: &HPAScalingRules, path: &Path, errs: &mut ErrorList) {
    if let Some(w) = rules.stabilization_window_seconds {
        let wp = path.child("stabilizationWindowSeconds");
        if w < 0 {
            errs.push(Error::invalid(
                &wp,
                w,
                "must be greater than or equal to zero",
            ));
        }
        if w > MAX_STABILIZATION_WINDOW_SECONDS {
            errs.push(Error::invalid(
                &wp,
                w,
                format!("must be less than or equal to {MAX_STABILIZATION_WINDOW_SECONDS}"),
            ));
        }
    }
    if let Some(p) = &rules.select_policy {
        if !SELECT_POLICIES.contains(&p.as_str()) {
            errs.push(Error::not_supported(
                &path.child("selectPolicy"),
                json_value(p),
                &SELECT_POLICIES,
            ));
        }
    }
    let pp = path.child("policies");
    if rules.policies.is_empty() {
        errs.push(Error::required(&pp, "must specify at least one Policy"));
    }
    for (i, policy) in rules.policies.iter().enumerate() {
        scaling_policy(policy, &pp.index(i), errs);
    }
    if let Some(t) = &rules.tolerance {
        if t.sign() < 0 {
            errs.push(Error::invalid(
                &path.child("tolerance"),
                t.to_string(),
                IS_NEGATIVE_ERROR_MSG,
            ));
        }
    }
}

/// Go's `validateScalingPolicy`.
fn scaling_policy(policy: &HPAScalingPolicy, path: &Path, errs: &mut ErrorList) {
    if !POLICY_TYPES.contains(&policy.r#type.as_str()) {
        errs.push(Error::not_supported(
            &path.child("type"),
            json_value(&policy.r#type),
            &POLICY_TYPES,
        ));
    }
    if policy.value <= 0 {
        errs.push(Error::invalid(
            &path.child("value"),
            policy.value,
            "must be greater than zero",
        ));
    }
    let pp = path.child("periodSeconds");
    if policy.period_seconds <= 0 {
        errs.push(Error::invalid(
            &pp,
            policy.period_seconds,
            "must be greater than zero",
        ));
    }
    if policy.period_seconds > MAX_PERIOD_SECONDS {
        errs.push(Error::invalid(
            &pp,
            policy.period_seconds,
            format!("must be less than or equal to {MAX_PERIOD_SECONDS}"),
        ));
    }
}

/// Go's `ValidateContainerResourceName` (`core/v1/validation`): a qualified name that is
/// a standard resource of containers (or hugepages) when unprefixed, else a native or
/// extended resource.
fn container_resource_name(name: &str, path: &Path, errs: &mut ErrorList) {
    let msgs = is_qualified_name(name);
    if !msgs.is_empty() {
        invalid_each(errs, path, name, msgs);
    } else if !name.contains('/') && !is_standard_resource_name(name) {
        errs.push(Error::invalid(
            path,
            json_value(name),
            "must be a standard resource type or fully qualified",
        ));
    }
    if !name.contains('/') {
        if !matches!(name, "cpu" | "memory" | "ephemeral-storage")
            && !name.starts_with("hugepages-")
        {
            errs.push(Error::invalid(
                path,
                json_value(name),
                "must be a standard resource for containers",
            ));
        }
    } else if !name.contains("kubernetes.io/") && !is_extended_resource_name(name) {
        errs.push(Error::invalid(
            path,
            json_value(name),
            "doesn't follow extended resource name standard",
        ));
    }
}
