//! `autoscaling/v1` HorizontalPodAutoscaler ⇄ the `autoscaling/v2` hub.
//!
//! `autoscaling/v1` knows one metric, a CPU utilization target
//! (`spec.targetCPUUtilizationPercentage`, `status.currentCPUUtilizationPercentage`);
//! `v2` has a list of metrics of five kinds, conditions and scaling behavior. Kubernetes
//! (`pkg/apis/autoscaling/v1/conversion.go`) carries what `v1` cannot hold in annotations
//! of the `v1` object, as JSON, and reads them back going the other way:
//!
//! - [`METRIC_SPECS`]: every metric but the CPU utilization target, as `v1`'s
//!   `MetricSpec`s (the `v2beta1` shapes: `targetAverageValue`, `metricName`, ...);
//! - [`METRIC_STATUSES`]: every current metric, CPU included (its raw value too);
//! - [`CONDITIONS`]: the status conditions;
//! - [`BEHAVIOR`]: `spec.behavior`, written as Go marshals its *internal* type: keys are
//!   Go's field names (`ScaleUp`, `StabilizationWindowSeconds`, ...), nil pointers `null`.
//!
//! A `v1` object without any metric gets the CPU target `v1` always implied: 80 %
//! utilization. Annotations are only written when there is something to carry; the
//! round-trip annotations a `v1` object already has are dropped first, and `v2` never
//! keeps any (Kubernetes drops them converting to `v2`). Invalid JSON in one of them is a
//! conversion error, as in Go.

use std::collections::BTreeMap;

use apimachinery::conversion::{AutoConvert, ConversionError, Scope};
use serde::{Deserialize, Serialize};

use crate::value::Quantity;

/// The annotation of an `autoscaling/v1` HPA holding its other metric targets.
pub const METRIC_SPECS: &str = "autoscaling.alpha.kubernetes.io/metrics";
/// The annotation of an `autoscaling/v1` HPA holding its current metric values.
pub const METRIC_STATUSES: &str = "autoscaling.alpha.kubernetes.io/current-metrics";
/// The annotation of an `autoscaling/v1` HPA holding its status conditions.
pub const CONDITIONS: &str = "autoscaling.alpha.kubernetes.io/conditions";
/// The annotation of an `autoscaling/v1` HPA holding its scaling behavior.
pub const BEHAVIOR: &str = "autoscaling.alpha.kubernetes.io/behavior";
/// The annotation `autoscaling/v2beta2` keeps the scale-down tolerance in.
pub const SCALE_DOWN_TOLERANCE: &str = "autoscaling.alpha.kubernetes.io/scale-down-tolerance";
/// The annotation `autoscaling/v2beta2` keeps the scale-up tolerance in.
pub const SCALE_UP_TOLERANCE: &str = "autoscaling.alpha.kubernetes.io/scale-up-tolerance";
/// The CPU utilization target (percent) `autoscaling/v1` implies when it has none.
pub const DEFAULT_CPU_UTILIZATION: i32 = 80;

/// Every annotation Kubernetes uses to carry HPA fields between versions.
const ROUND_TRIP: [&str; 6] = [
    METRIC_SPECS,
    BEHAVIOR,
    SCALE_DOWN_TOLERANCE,
    SCALE_UP_TOLERANCE,
    METRIC_STATUSES,
    CONDITIONS,
];

const CPU: &str = "cpu";

/// `autoscaling/v1` HorizontalPodAutoscaler ⇄ `autoscaling/v2`.
pub mod autoscaling_v1 {
    use super::*;
    use crate::autoscaling::v1 as old;
    use crate::autoscaling::v2 as hub;

    /// To `autoscaling/v2`: the generated conversion, the CPU fields as metrics, then
    /// the annotations into the fields they carry.
    pub fn to_hub(
        h: &old::HorizontalPodAutoscaler,
        scope: &Scope<'_>,
    ) -> Result<hub::HorizontalPodAutoscaler, ConversionError> {
        let mut out: hub::HorizontalPodAutoscaler = h.auto_convert_ref(scope)?;
        let annotations = &mut out.metadata.annotations;
        if let Some(target) = h.spec.target_cpu_utilization_percentage {
            out.spec.metrics = vec![cpu_target(target)];
        }
        if let Some(current) = h.status.current_cpu_utilization_percentage {
            out.status.current_metrics = Some(vec![cpu_current(current)]);
        }
        if let Some(others) = take_json::<Vec<old::MetricSpec>>(annotations, METRIC_SPECS)? {
            // The CPU target, if any, comes after the others.
            let mut metrics: Vec<hub::MetricSpec> = others.into_iter().map(metric_to_hub).collect();
            metrics.append(&mut out.spec.metrics);
            out.spec.metrics = metrics;
        }
        if let Some(current) = take_json::<Vec<old::MetricStatus>>(annotations, METRIC_STATUSES)? {
            // These have more than `currentCPUUtilizationPercentage`: they replace it.
            out.status.current_metrics = Some(current.into_iter().map(status_to_hub).collect());
        }
        if out.spec.metrics.is_empty() {
            out.spec.metrics = vec![cpu_target(DEFAULT_CPU_UTILIZATION)];
        }
        if let Some(conditions) =
            take_json::<Vec<hub::HorizontalPodAutoscalerCondition>>(annotations, CONDITIONS)?
        {
            out.status.conditions = conditions;
        }
        if let Some(behavior) = take_json::<GoBehavior>(annotations, BEHAVIOR)? {
            out.spec.behavior = Some(behavior.into_hub());
        }
        for key in ROUND_TRIP {
            annotations.remove(key);
        }
        Ok(out)
    }

    /// From `autoscaling/v2`: the generated conversion, the CPU metrics into the CPU
    /// fields, and what `v1` has no field for into the annotations.
    pub fn from_hub(
        h: &hub::HorizontalPodAutoscaler,
        scope: &Scope<'_>,
    ) -> Result<old::HorizontalPodAutoscaler, ConversionError> {
        let mut out: old::HorizontalPodAutoscaler = h.auto_convert_ref(scope)?;
        let annotations = &mut out.metadata.annotations;
        for key in ROUND_TRIP {
            annotations.remove(key);
        }
        // The first CPU resource metric decides, whether or not it targets utilization.
        if let Some(cpu) = h.spec.metrics.iter().find_map(cpu_resource) {
            out.spec.target_cpu_utilization_percentage = cpu.target.average_utilization;
        }
        let others: Vec<old::MetricSpec> = h
            .spec
            .metrics
            .iter()
            .filter(|m| cpu_resource(m).is_none_or(|r| r.target.average_utilization.is_none()))
            .map(metric_from_hub)
            .collect();
        if !others.is_empty() {
            annotations.insert(METRIC_SPECS.to_owned(), to_go_json(&others)?);
        }
        let current_metrics = h.status.current_metrics.as_deref().unwrap_or_default();
        // The last CPU utilization wins, as in Go.
        for m in current_metrics {
            if let Some(u) = cpu_current_utilization(m) {
                out.status.current_cpu_utilization_percentage = Some(u);
            }
        }
        if !current_metrics.is_empty() {
            let current: Vec<old::MetricStatus> =
                current_metrics.iter().map(status_from_hub).collect();
            annotations.insert(METRIC_STATUSES.to_owned(), to_go_json(&current)?);
        }
        if !h.status.conditions.is_empty() {
            annotations.insert(CONDITIONS.to_owned(), to_go_json(&h.status.conditions)?);
        }
        if let Some(behavior) = &h.spec.behavior {
            annotations.insert(
                BEHAVIOR.to_owned(),
                to_go_json(&GoBehavior::from_hub(behavior))?,
            );
        }
        Ok(out)
    }

    fn cpu_target(utilization: i32) -> hub::MetricSpec {
        hub::MetricSpec {
            r#type: "Resource".to_owned(),
            resource: Some(hub::ResourceMetricSource {
                name: CPU.to_owned(),
                target: hub::MetricTarget {
                    r#type: "Utilization".to_owned(),
                    average_utilization: Some(utilization),
                    ..Default::default()
                },
            }),
            ..Default::default()
        }
    }

    fn cpu_current(utilization: i32) -> hub::MetricStatus {
        hub::MetricStatus {
            r#type: "Resource".to_owned(),
            resource: Some(hub::ResourceMetricStatus {
                name: CPU.to_owned(),
                current: hub::MetricValueStatus {
                    average_utilization: Some(utilization),
                    ..Default::default()
                },
            }),
            ..Default::default()
        }
    }

    fn cpu_resource(m: &hub::MetricSpec) -> Option<&hub::ResourceMetricSource> {
        m.resource
            .as_ref()
            .filter(|r| m.r#type == "Resource" && r.name == CPU)
    }

    fn cpu_current_utilization(m: &hub::MetricStatus) -> Option<i32> {
        m.resource
            .as_ref()
            .filter(|r| m.r#type == "Resource" && r.name == CPU)
            .and_then(|r| r.current.average_utilization)
    }

    fn reference_to_hub(r: &old::CrossVersionObjectReference) -> hub::CrossVersionObjectReference {
        hub::CrossVersionObjectReference {
            kind: r.kind.clone(),
            name: r.name.clone(),
            api_version: r.api_version.clone(),
        }
    }

    fn reference_from_hub(
        r: &hub::CrossVersionObjectReference,
    ) -> old::CrossVersionObjectReference {
        old::CrossVersionObjectReference {
            kind: r.kind.clone(),
            name: r.name.clone(),
            api_version: r.api_version.clone(),
        }
    }

    fn identifier(
        name: String,
        selector: Option<apimachinery::apis::meta::v1::LabelSelector>,
    ) -> hub::MetricIdentifier {
        hub::MetricIdentifier { name, selector }
    }

    /// `AverageValue` when there is no `value`, else `Value`; Go's non-pointer quantities
    /// (absent here) are zero.
    fn value_target(value: Option<Quantity>, average: Option<Quantity>) -> hub::MetricTarget {
        hub::MetricTarget {
            r#type: if value.is_some() {
                "Value"
            } else {
                "AverageValue"
            }
            .to_owned(),
            value,
            average_value: average,
            ..Default::default()
        }
    }

    fn utilization_target(
        utilization: Option<i32>,
        average: Option<Quantity>,
    ) -> hub::MetricTarget {
        hub::MetricTarget {
            r#type: if utilization.is_some() {
                "Utilization"
            } else {
                "AverageValue"
            }
            .to_owned(),
            average_value: average,
            average_utilization: utilization,
            ..Default::default()
        }
    }

    fn metric_to_hub(m: old::MetricSpec) -> hub::MetricSpec {
        hub::MetricSpec {
            r#type: m.r#type,
            object: m.object.map(|o| hub::ObjectMetricSource {
                described_object: reference_to_hub(&o.target),
                // Go's `targetValue` is a plain quantity: always a value.
                target: hub::MetricTarget {
                    r#type: if o.average_value.is_none() {
                        "Value"
                    } else {
                        "AverageValue"
                    }
                    .to_owned(),
                    value: Some(o.target_value),
                    average_value: o.average_value,
                    ..Default::default()
                },
                metric: identifier(o.metric_name, o.selector),
            }),
            pods: m.pods.map(|p| hub::PodsMetricSource {
                metric: identifier(p.metric_name, p.selector),
                target: hub::MetricTarget {
                    r#type: "AverageValue".to_owned(),
                    average_value: Some(p.target_average_value),
                    ..Default::default()
                },
            }),
            resource: m.resource.map(|r| hub::ResourceMetricSource {
                name: r.name,
                target: utilization_target(r.target_average_utilization, r.target_average_value),
            }),
            container_resource: m
                .container_resource
                .map(|r| hub::ContainerResourceMetricSource {
                    name: r.name,
                    target: utilization_target(
                        r.target_average_utilization,
                        r.target_average_value,
                    ),
                    container: r.container,
                }),
            external: m.external.map(|e| hub::ExternalMetricSource {
                metric: identifier(e.metric_name, e.metric_selector),
                target: value_target(e.target_value, e.target_average_value),
            }),
        }
    }

    /// Go's plain (non-pointer) quantities of `v1` are always written, `"0"` when unset.
    fn metric_from_hub(m: &hub::MetricSpec) -> old::MetricSpec {
        old::MetricSpec {
            r#type: m.r#type.clone(),
            object: m.object.as_ref().map(|o| old::ObjectMetricSource {
                target: reference_from_hub(&o.described_object),
                metric_name: o.metric.name.clone(),
                target_value: o.target.value.clone().unwrap_or_default(),
                selector: o.metric.selector.clone(),
                average_value: o.target.average_value.clone(),
            }),
            pods: m.pods.as_ref().map(|p| old::PodsMetricSource {
                metric_name: p.metric.name.clone(),
                target_average_value: p.target.average_value.clone().unwrap_or_default(),
                selector: p.metric.selector.clone(),
            }),
            resource: m.resource.as_ref().map(|r| old::ResourceMetricSource {
                name: r.name.clone(),
                target_average_utilization: r.target.average_utilization,
                target_average_value: r.target.average_value.clone(),
            }),
            container_resource: m.container_resource.as_ref().map(|r| {
                old::ContainerResourceMetricSource {
                    name: r.name.clone(),
                    target_average_utilization: r.target.average_utilization,
                    target_average_value: r.target.average_value.clone(),
                    container: r.container.clone(),
                }
            }),
            external: m.external.as_ref().map(|e| old::ExternalMetricSource {
                metric_name: e.metric.name.clone(),
                metric_selector: e.metric.selector.clone(),
                target_value: e.target.value.clone(),
                target_average_value: e.target.average_value.clone(),
            }),
        }
    }

    fn status_to_hub(m: old::MetricStatus) -> hub::MetricStatus {
        hub::MetricStatus {
            r#type: m.r#type,
            object: m.object.map(|o| hub::ObjectMetricStatus {
                metric: identifier(o.metric_name, o.selector),
                current: hub::MetricValueStatus {
                    value: Some(o.current_value),
                    average_value: o.average_value,
                    ..Default::default()
                },
                described_object: reference_to_hub(&o.target),
            }),
            pods: m.pods.map(|p| hub::PodsMetricStatus {
                metric: identifier(p.metric_name, p.selector),
                current: hub::MetricValueStatus {
                    average_value: Some(p.current_average_value),
                    ..Default::default()
                },
            }),
            resource: m.resource.map(|r| hub::ResourceMetricStatus {
                name: r.name,
                current: hub::MetricValueStatus {
                    average_value: Some(r.current_average_value),
                    average_utilization: r.current_average_utilization,
                    ..Default::default()
                },
            }),
            container_resource: m
                .container_resource
                .map(|r| hub::ContainerResourceMetricStatus {
                    name: r.name,
                    current: hub::MetricValueStatus {
                        average_value: Some(r.current_average_value),
                        average_utilization: r.current_average_utilization,
                        ..Default::default()
                    },
                    container: r.container,
                }),
            external: m.external.map(|e| hub::ExternalMetricStatus {
                metric: identifier(e.metric_name, e.metric_selector),
                current: hub::MetricValueStatus {
                    value: Some(e.current_value),
                    average_value: e.current_average_value,
                    ..Default::default()
                },
            }),
        }
    }

    /// Go's plain (non-pointer) quantities of `v1` are always written, `"0"` when unset.
    fn status_from_hub(m: &hub::MetricStatus) -> old::MetricStatus {
        old::MetricStatus {
            r#type: m.r#type.clone(),
            object: m.object.as_ref().map(|o| old::ObjectMetricStatus {
                target: reference_from_hub(&o.described_object),
                metric_name: o.metric.name.clone(),
                current_value: o.current.value.clone().unwrap_or_default(),
                selector: o.metric.selector.clone(),
                average_value: o.current.average_value.clone(),
            }),
            pods: m.pods.as_ref().map(|p| old::PodsMetricStatus {
                metric_name: p.metric.name.clone(),
                current_average_value: p.current.average_value.clone().unwrap_or_default(),
                selector: p.metric.selector.clone(),
            }),
            resource: m.resource.as_ref().map(|r| old::ResourceMetricStatus {
                name: r.name.clone(),
                current_average_utilization: r.current.average_utilization,
                current_average_value: r.current.average_value.clone().unwrap_or_default(),
            }),
            container_resource: m.container_resource.as_ref().map(|r| {
                old::ContainerResourceMetricStatus {
                    name: r.name.clone(),
                    current_average_utilization: r.current.average_utilization,
                    current_average_value: r.current.average_value.clone().unwrap_or_default(),
                    container: r.container.clone(),
                }
            }),
            external: m.external.as_ref().map(|e| old::ExternalMetricStatus {
                metric_name: e.metric.name.clone(),
                metric_selector: e.metric.selector.clone(),
                current_value: e.current.value.clone().unwrap_or_default(),
                current_average_value: e.current.average_value.clone(),
            }),
        }
    }

    /// Go's internal `HorizontalPodAutoscalerBehavior` as `encoding/json` writes it (no
    /// JSON tags: Go's field names, nil pointers and slices as `null`) and reads it (keys
    /// matched without regard to case; the camel-case names are accepted here).
    #[derive(Debug, Default, Serialize, Deserialize)]
    pub(super) struct GoBehavior {
        #[serde(rename = "ScaleUp", alias = "scaleUp", alias = "scaleup", default)]
        scale_up: Option<GoRules>,
        #[serde(
            rename = "ScaleDown",
            alias = "scaleDown",
            alias = "scaledown",
            default
        )]
        scale_down: Option<GoRules>,
    }

    #[derive(Debug, Default, Serialize, Deserialize)]
    struct GoRules {
        #[serde(
            rename = "StabilizationWindowSeconds",
            alias = "stabilizationWindowSeconds",
            default
        )]
        stabilization_window_seconds: Option<i32>,
        #[serde(rename = "SelectPolicy", alias = "selectPolicy", default)]
        select_policy: Option<String>,
        #[serde(rename = "Policies", alias = "policies", default)]
        policies: Option<Vec<GoPolicy>>,
        #[serde(rename = "Tolerance", alias = "tolerance", default)]
        tolerance: Option<Quantity>,
    }

    #[derive(Debug, Default, Serialize, Deserialize)]
    struct GoPolicy {
        #[serde(rename = "Type", alias = "type", default)]
        r#type: String,
        #[serde(rename = "Value", alias = "value", default)]
        value: i32,
        #[serde(rename = "PeriodSeconds", alias = "periodSeconds", default)]
        period_seconds: i32,
    }

    impl GoBehavior {
        pub(super) fn from_hub(b: &hub::HorizontalPodAutoscalerBehavior) -> Self {
            let rules = |r: &hub::HPAScalingRules| GoRules {
                stabilization_window_seconds: r.stabilization_window_seconds,
                select_policy: r.select_policy.clone(),
                // `v2` omits an empty list, so Go's internal one is nil.
                policies: (!r.policies.is_empty()).then(|| {
                    r.policies
                        .iter()
                        .map(|p| GoPolicy {
                            r#type: p.r#type.clone(),
                            value: p.value,
                            period_seconds: p.period_seconds,
                        })
                        .collect()
                }),
                tolerance: r.tolerance.clone(),
            };
            GoBehavior {
                scale_up: b.scale_up.as_ref().map(rules),
                scale_down: b.scale_down.as_ref().map(rules),
            }
        }

        pub(super) fn into_hub(self) -> hub::HorizontalPodAutoscalerBehavior {
            let rules = |r: GoRules| hub::HPAScalingRules {
                stabilization_window_seconds: r.stabilization_window_seconds,
                select_policy: r.select_policy,
                policies: r
                    .policies
                    .unwrap_or_default()
                    .into_iter()
                    .map(|p| hub::HPAScalingPolicy {
                        r#type: p.r#type,
                        value: p.value,
                        period_seconds: p.period_seconds,
                    })
                    .collect(),
                tolerance: r.tolerance,
            };
            hub::HorizontalPodAutoscalerBehavior {
                scale_up: self.scale_up.map(rules),
                scale_down: self.scale_down.map(rules),
            }
        }
    }

    /// Reads and removes the JSON annotation `key`; invalid JSON is an error naming it.
    fn take_json<T: serde::de::DeserializeOwned>(
        annotations: &mut BTreeMap<String, String>,
        key: &str,
    ) -> Result<Option<T>, ConversionError> {
        let Some(text) = annotations.remove(key) else {
            return Ok(None);
        };
        // `from_slice`, as every other serde_json read of k8s-types: one reader type, one
        // copy of serde_json's parser (the text is a `String`: the same answers).
        serde_json::from_slice(text.as_bytes())
            .map(Some)
            .map_err(|e| {
                ConversionError::unrepresentable::<
                    old::HorizontalPodAutoscaler,
                    hub::HorizontalPodAutoscaler,
                >(format!(
                    "annotation {key} is not valid JSON for its fields: {e}"
                ))
                .at_key(&key)
                .in_field("annotations")
                .in_field("metadata")
            })
    }

    /// `value` as Go's `json.Marshal` writes it (HTML-safe escaping included).
    fn to_go_json<T: Serialize>(value: &T) -> Result<String, ConversionError> {
        let mut out = Vec::new();
        apimachinery::util::json::encode_go_json(
            value,
            &mut out,
            apimachinery::util::json::JsonLayout::Compact,
        )
        .map_err(|e| {
            ConversionError::unrepresentable::<
                hub::HorizontalPodAutoscaler,
                old::HorizontalPodAutoscaler,
            >(format!("writing an annotation: {e}"))
        })?;
        String::from_utf8(out).map_err(|e| {
            ConversionError::unrepresentable::<
                hub::HorizontalPodAutoscaler,
                old::HorizontalPodAutoscaler,
            >(format!("writing an annotation: {e}"))
        })
    }
}
