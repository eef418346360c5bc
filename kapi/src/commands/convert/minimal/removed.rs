//! Conversions of versions Kubernetes 1.36 no longer defines, which the Scheme cannot
//! read, done on the manifest's JSON as Go's conversions did them when they existed:
//! `autoscaling/v2beta2` and `autoscaling/v2beta1` HorizontalPodAutoscalers to
//! `autoscaling/v2` (`pkg/apis/autoscaling/v2beta1/conversion.go` of Kubernetes 1.25;
//! `v2beta2` has `v2`'s fields exactly).
//!
//! Only what a manifest holds is converted: `spec`. A `status` with metrics, and the
//! `autoscaling.alpha.kubernetes.io/behavior` annotation (Go's internal JSON of the
//! behaviour, field names and all), are left for a person.

use super::tree::Tree;

/// `obj` (of `api_version`, `kind`) in the version that replaced it; `Ok(None)` when
/// kapi knows no conversion of it, `Err` with the reason when it cannot convert this
/// object.
pub fn convert(api_version: &str, kind: &str, obj: &Tree) -> Result<Option<Tree>, String> {
    if kind != "HorizontalPodAutoscaler" {
        return Ok(None);
    }
    match api_version {
        "autoscaling/v2beta2" => Ok(Some(with_api_version(obj, "autoscaling/v2"))),
        "autoscaling/v2beta1" => hpa_v2beta1(obj).map(Some),
        _ => Ok(None),
    }
}

fn with_api_version(obj: &Tree, api_version: &str) -> Tree {
    let mut out = obj.clone();
    out.set_key("apiVersion", Tree::String(api_version.to_owned()), None);
    out
}

/// The annotation v2beta1 objects carried `v2`'s `spec.behavior` in.
const BEHAVIOR_ANNOTATION: &str = "autoscaling.alpha.kubernetes.io/behavior";

fn hpa_v2beta1(obj: &Tree) -> Result<Tree, String> {
    let annotations = obj.get("metadata").and_then(|m| m.get("annotations"));
    if annotations
        .and_then(|a| a.get(BEHAVIOR_ANNOTATION))
        .is_some()
    {
        return Err(format!(
            "metadata.annotations[{BEHAVIOR_ANNOTATION}] holds the behaviour in Go's internal form; write it as spec.behavior by hand"
        ));
    }
    if obj
        .get("status")
        .and_then(|s| s.get("currentMetrics"))
        .is_some()
    {
        return Err(
            "status.currentMetrics is in v2beta1's form; remove the status (the server sets it)"
                .to_owned(),
        );
    }
    let mut out = with_api_version(obj, "autoscaling/v2");
    let metrics = out
        .at_mut(&[
            super::tree::Seg::Key("spec".into()),
            super::tree::Seg::Key("metrics".into()),
        ])
        .and_then(|m| match m {
            Tree::Array(items) => Some(items),
            _ => None,
        });
    if let Some(items) = metrics {
        for (i, metric) in items.iter_mut().enumerate() {
            metric_v2beta1(metric).map_err(|e| format!("spec.metrics[{i}]: {e}"))?;
        }
    }
    Ok(out)
}

/// One `MetricSpec`, in place.
fn metric_v2beta1(metric: &mut Tree) -> Result<(), String> {
    let Tree::Object(entries) = metric else {
        return Err("not an object".to_owned());
    };
    for (key, source) in entries.iter_mut() {
        let Tree::Object(_) = source else {
            continue;
        };
        let converted = match key.as_str() {
            "resource" | "containerResource" => resource_source(source),
            "pods" => pods_source(source),
            "object" => object_source(source),
            "external" => external_source(source),
            _ => continue,
        };
        *source = converted;
    }
    Ok(())
}

/// The v2 `target` of a v2beta1 source: its type, then the values given.
fn target(kind: &str, values: &[(&str, Option<&Tree>)]) -> Tree {
    let mut entries = vec![("type".to_owned(), Tree::String(kind.to_owned()))];
    for (name, value) in values {
        if let Some(v) = value {
            entries.push(((*name).to_owned(), (*v).clone()));
        }
    }
    Tree::Object(entries)
}

/// `metricName` and its selector as v2's `metric` identifier.
fn metric_identifier(source: &Tree, selector_key: &str) -> Tree {
    let mut entries = vec![(
        "name".to_owned(),
        source
            .get("metricName")
            .cloned()
            .unwrap_or(Tree::String(String::new())),
    )];
    if let Some(selector) = source.get(selector_key) {
        entries.push(("selector".to_owned(), selector.clone()));
    }
    Tree::Object(entries)
}

/// Copies `source`'s entries but `replaced`, putting `additions` where the first
/// replaced key was (at the end if none was there).
fn rebuild(source: &Tree, replaced: &[&str], additions: Vec<(String, Tree)>) -> Tree {
    let Tree::Object(entries) = source else {
        return source.clone();
    };
    let mut out = Vec::new();
    let mut additions = Some(additions);
    for (k, v) in entries {
        if replaced.contains(&k.as_str()) {
            if let Some(add) = additions.take() {
                out.extend(add);
            }
        } else {
            out.push((k.clone(), v.clone()));
        }
    }
    out.extend(additions.into_iter().flatten());
    Tree::Object(out)
}

/// `Resource`/`ContainerResource`: `targetAverageUtilization` makes a `Utilization`
/// target, else `AverageValue`.
fn resource_source(source: &Tree) -> Tree {
    let utilization = source.get("targetAverageUtilization");
    let average = source.get("targetAverageValue");
    let kind = if utilization.is_some() {
        "Utilization"
    } else {
        "AverageValue"
    };
    let t = target(
        kind,
        &[
            ("averageUtilization", utilization),
            ("averageValue", average),
        ],
    );
    rebuild(
        source,
        &["targetAverageUtilization", "targetAverageValue"],
        vec![("target".to_owned(), t)],
    )
}

/// `Pods`: always an `AverageValue` target.
fn pods_source(source: &Tree) -> Tree {
    let t = target(
        "AverageValue",
        &[("averageValue", source.get("targetAverageValue"))],
    );
    rebuild(
        source,
        &["metricName", "selector", "targetAverageValue"],
        vec![
            ("metric".to_owned(), metric_identifier(source, "selector")),
            ("target".to_owned(), t),
        ],
    )
}

/// `Object`: `target` (the object) becomes `describedObject`; an `averageValue` makes an
/// `AverageValue` target, else `Value`.
fn object_source(source: &Tree) -> Tree {
    let average = source.get("averageValue");
    let kind = if average.is_some() {
        "AverageValue"
    } else {
        "Value"
    };
    let t = target(
        kind,
        &[
            ("value", source.get("targetValue")),
            ("averageValue", average),
        ],
    );
    let described = source
        .get("target")
        .cloned()
        .unwrap_or(Tree::Object(Vec::new()));
    rebuild(
        source,
        &[
            "target",
            "metricName",
            "selector",
            "targetValue",
            "averageValue",
        ],
        vec![
            ("describedObject".to_owned(), described),
            ("metric".to_owned(), metric_identifier(source, "selector")),
            ("target".to_owned(), t),
        ],
    )
}

/// `External`: a `targetValue` makes a `Value` target, else `AverageValue`.
fn external_source(source: &Tree) -> Tree {
    let value = source.get("targetValue");
    let kind = if value.is_some() {
        "Value"
    } else {
        "AverageValue"
    };
    let t = target(
        kind,
        &[
            ("value", value),
            ("averageValue", source.get("targetAverageValue")),
        ],
    );
    rebuild(
        source,
        &[
            "metricName",
            "metricSelector",
            "targetValue",
            "targetAverageValue",
        ],
        vec![
            (
                "metric".to_owned(),
                metric_identifier(source, "metricSelector"),
            ),
            ("target".to_owned(), t),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::super::tree::tests::tree;
    use super::*;

    #[test]
    fn v2beta1_metrics_become_v2_targets() {
        let hpa = tree(
            r#"{"apiVersion":"autoscaling/v2beta1","kind":"HorizontalPodAutoscaler","spec":{"metrics":[
                {"type":"Resource","resource":{"name":"cpu","targetAverageUtilization":70}},
                {"type":"Pods","pods":{"metricName":"rps","targetAverageValue":"100"}},
                {"type":"Object","object":{"target":{"kind":"Ingress","name":"main"},"metricName":"hits","targetValue":"2k"}},
                {"type":"External","external":{"metricName":"queue","metricSelector":{"matchLabels":{"q":"a"}},"targetAverageValue":"30"}}]}}"#,
        );
        let out = convert("autoscaling/v2beta1", "HorizontalPodAutoscaler", &hpa)
            .unwrap()
            .unwrap();
        assert_eq!(out.str_at("apiVersion"), "autoscaling/v2");
        let metrics = out.get("spec").and_then(|s| s.get("metrics")).unwrap();
        assert_eq!(
            metrics.to_string(),
            r#"[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}}},{"type":"Pods","pods":{"metric":{"name":"rps"},"target":{"type":"AverageValue","averageValue":"100"}}},{"type":"Object","object":{"describedObject":{"kind":"Ingress","name":"main"},"metric":{"name":"hits"},"target":{"type":"Value","value":"2k"}}},{"type":"External","external":{"metric":{"name":"queue","selector":{"matchLabels":{"q":"a"}}},"target":{"type":"AverageValue","averageValue":"30"}}}]"#
        );
    }

    #[test]
    fn v2beta2_is_v2_and_other_kinds_are_unknown() {
        let hpa = tree(
            r#"{"apiVersion":"autoscaling/v2beta2","kind":"HorizontalPodAutoscaler","spec":{}}"#,
        );
        let out = convert("autoscaling/v2beta2", "HorizontalPodAutoscaler", &hpa)
            .unwrap()
            .unwrap();
        assert_eq!(
            out.to_string(),
            r#"{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","spec":{}}"#
        );
        assert!(
            convert("policy/v1beta1", "PodSecurityPolicy", &hpa)
                .unwrap()
                .is_none()
        );
        let annotated = tree(
            r#"{"metadata":{"annotations":{"autoscaling.alpha.kubernetes.io/behavior":"{}"}}}"#,
        );
        assert!(convert("autoscaling/v2beta1", "HorizontalPodAutoscaler", &annotated).is_err());
    }
}
