//! Go's `TestValidatePodResize`, case by case.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Value, json};

use k8s_types::core::v1::Pod;
use k8s_types::validation::validate_pod_resize;

fn pod(resources: Value, extra: Value) -> Pod {
    let mut p = json!({
        "metadata": {"name": "p", "namespace": "ns", "resourceVersion": "1"},
        "spec": {"containers": [{"name": "c", "image": "i", "imagePullPolicy": "Always",
            "terminationMessagePolicy": "File", "resources": resources}],
            "restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "terminationGracePeriodSeconds": 30},
        "status": {"qosClass": "Burstable"},
    });
    if let (Some(p), Some(extra)) = (p.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            p.insert(k.clone(), v.clone());
        }
    }
    serde_json::from_value(p).unwrap()
}

fn errors(old: &Pod, new: &Pod) -> Vec<String> {
    validate_pod_resize(new, old)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn cpu_and_memory_may_change() {
    let old = pod(json!({"requests": {"cpu": "100m"}}), json!({}));
    let new = pod(
        json!({"requests": {"cpu": "200m", "memory": "1Gi"}}),
        json!({}),
    );
    let errs = errors(&old, &new);
    assert!(errs.is_empty(), "{errs:?}");
}

#[test]
fn requests_are_not_removed_nor_other_resources_changed() {
    let x = |n: &str| json!({"requests": {"cpu": "100m", "example.com/x": n}, "limits": {"example.com/x": n}});
    let old = pod(x("1"), json!({}));
    let new = pod(x("2"), json!({}));
    assert_eq!(
        errors(&old, &new),
        ["spec: Forbidden: only cpu and memory resources are mutable"]
    );
    let new = pod(
        json!({"requests": {"memory": "1Gi", "example.com/x": "1"}, "limits": {"example.com/x": "1"}}),
        json!({}),
    );
    assert_eq!(
        errors(&old, &new),
        ["spec.containers[0].resources.requests: Forbidden: resource requests cannot be removed"]
    );
}

#[test]
fn the_qos_class_is_kept() {
    let both = json!({"cpu": "1", "memory": "1Gi"});
    let old = pod(
        json!({"requests": both, "limits": both}),
        json!({"status": {"qosClass": "Guaranteed"}}),
    );
    let new = pod(
        json!({"requests": {"cpu": "500m", "memory": "1Gi"}, "limits": both}),
        json!({"status": {"qosClass": "Guaranteed"}}),
    );
    assert_eq!(
        errors(&old, &new),
        [
            "spec: Invalid value: \"Guaranteed\": Pod QOS Class may not change as a result of resizing"
        ]
    );
}

#[test]
fn static_and_windows_pods_are_not_resized() {
    let mut old = pod(json!({}), json!({}));
    old.metadata
        .annotations
        .insert("kubernetes.io/config.mirror".into(), "x".into());
    let new = old.clone();
    assert_eq!(
        errors(&old, &new),
        ["[]: Forbidden: static pods cannot be resized"]
    );
    let old = pod(json!({}), json!({}));
    let mut old_w = old.clone();
    old_w.spec.os = Some(serde_json::from_value(json!({"name": "windows"})).unwrap());
    assert_eq!(
        errors(&old_w, &old),
        ["[]: Forbidden: windows pods cannot be resized"]
    );
}

#[test]
fn containers_keep_their_order() {
    let old = pod(json!({}), json!({}));
    let mut new = old.clone();
    new.spec.containers.as_mut().unwrap()[0].name = "d".into();
    let errs = errors(&old, &new);
    assert_eq!(
        errs.last().unwrap(),
        "spec.containers[0].name: Forbidden: containers may not be renamed or reordered on resize"
    );
}

#[test]
fn nothing_else_changes() {
    let old = pod(json!({}), json!({"status": {"qosClass": "BestEffort"}}));
    let mut new = old.clone();
    new.spec.containers.as_mut().unwrap()[0].image = "other".into();
    assert_eq!(
        errors(&old, &new),
        ["spec: Forbidden: only cpu and memory resources are mutable"]
    );
}

#[test]
fn a_running_container_without_resources_means_no_support() {
    let status = json!({"status": {"qosClass": "BestEffort", "containerStatuses": [{"name": "c",
        "ready": true, "restartCount": 0, "image": "i", "imageID": "",
        "state": {"running": {}}}]}});
    let old = pod(json!({}), status.clone());
    let new = pod(json!({}), status);
    assert_eq!(
        errors(&old, &new),
        ["spec: Forbidden: Pod running on node without support for resize"]
    );
}

#[test]
fn pod_level_resources_are_not_removed() {
    let old = pod(
        json!({}),
        json!({"spec": {"resources": {"requests": {"cpu": "1"}},
        "containers": [{"name": "c", "image": "i", "imagePullPolicy": "Always",
            "terminationMessagePolicy": "File"}], "restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "terminationGracePeriodSeconds": 30}}),
    );
    let mut new = old.clone();
    new.spec.resources =
        Some(serde_json::from_value(json!({"requests": {"memory": "1Gi"}})).unwrap());
    let errs = errors(&old, &new);
    assert!(
        errs.contains(
            &"spec.resources.requests: Forbidden: pod-level resource requests cannot be removed"
                .to_owned()
        ),
        "{errs:?}"
    );
}
