//! `autoscaling/v1` and `autoscaling/v2` (Go's `pkg/apis/autoscaling/<version>/defaults.go`):
//! at least one replica; a `v2` autoscaler without metrics targets 80% CPU, and one
//! with a `behavior` gets Go's scale-up rules (the larger of 4 pods or 100% per 15 s, no
//! stabilization) and scale-down rules (100% per 15 s) for what it leaves out.

use apimachinery::conversion::Defaulters;

use crate::autoscaling::v2::{HPAScalingPolicy, HPAScalingRules, HorizontalPodAutoscaler};

/// The CPU utilization a `v2` autoscaler without metrics targets.
pub const DEFAULT_CPU_UTILIZATION: i32 = 80;

fn policy(kind: &str, value: i32) -> HPAScalingPolicy {
    HPAScalingPolicy {
        r#type: kind.to_owned(),
        value,
        period_seconds: 15,
    }
}

/// Go's default rules, with what `given` sets taking their place field by field.
fn rules(given: Option<HPAScalingRules>, up: bool) -> HPAScalingRules {
    let mut out = HPAScalingRules {
        stabilization_window_seconds: up.then_some(0),
        select_policy: Some("Max".to_owned()),
        policies: if up {
            vec![policy("Pods", 4), policy("Percent", 100)]
        } else {
            vec![policy("Percent", 100)]
        },
        tolerance: None,
    };
    if let Some(g) = given {
        if g.select_policy.is_some() {
            out.select_policy = g.select_policy;
        }
        if g.stabilization_window_seconds.is_some() {
            out.stabilization_window_seconds = g.stabilization_window_seconds;
        }
        // Go tests the slice against nil; a decoded empty list is nil too.
        if !g.policies.is_empty() {
            out.policies = g.policies;
        }
        if g.tolerance.is_some() {
            out.tolerance = g.tolerance;
        }
    }
    out
}

fn v2(obj: &mut HorizontalPodAutoscaler) {
    use crate::autoscaling::v2::{MetricSpec, MetricTarget, ResourceMetricSource};
    let spec = &mut obj.spec;
    spec.min_replicas.get_or_insert(1);
    if spec.metrics.is_empty() {
        spec.metrics.push(MetricSpec {
            r#type: "Resource".to_owned(),
            resource: Some(ResourceMetricSource {
                name: "cpu".to_owned(),
                target: MetricTarget {
                    r#type: "Utilization".to_owned(),
                    average_utilization: Some(DEFAULT_CPU_UTILIZATION),
                    ..MetricTarget::default()
                },
            }),
            ..MetricSpec::default()
        });
    }
    if let Some(b) = spec.behavior.as_mut() {
        b.scale_up = Some(rules(b.scale_up.take(), true));
        b.scale_down = Some(rules(b.scale_down.take(), false));
    }
}

pub(super) fn register(d: &mut Defaulters) {
    d.add(
        |obj: &mut crate::autoscaling::v1::HorizontalPodAutoscaler| {
            obj.spec.min_replicas.get_or_insert(1);
        },
    );
    d.add(v2);
}
