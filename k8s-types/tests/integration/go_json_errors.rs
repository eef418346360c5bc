//! Go's JSON decoder's words for a value of the wrong type
//! (`k8s_types::go_json_errors`, with the `go-json-errors` feature).

use serde_json::{Value, json};

fn message(group: &str, kind: &str, path: &str, doc: Value) -> Option<String> {
    k8s_types::go_json_errors::type_mismatch(group, "v1", kind, path, &doc)
}

#[test]
fn a_field_names_its_struct_path_and_go_type() {
    assert_eq!(
        message("", "ConfigMap", "data", json!({"data": [1, 2]})).as_deref(),
        Some(
            "json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string"
        )
    );
    assert_eq!(
        message("", "ConfigMap", "data.a", json!({"data": {"a": 1}})).as_deref(),
        Some("json: cannot unmarshal number into Go struct field ConfigMap.data of type string")
    );
    assert_eq!(
        message(
            "",
            "ConfigMap",
            "metadata.labels",
            json!({"metadata": {"labels": "x"}})
        )
        .as_deref(),
        Some(
            "json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string"
        )
    );
}

#[test]
fn nested_fields_name_the_innermost_struct_without_indices() {
    let pod = json!({"spec": {"containers": [{"name": "a", "ports": [{"containerPort": "80"}]}]}});
    assert_eq!(
        message("", "Pod", "spec.containers[0].ports[0].containerPort", pod).as_deref(),
        Some(
            "json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32"
        )
    );
    let pod = json!({"spec": {"containers": {"name": "a"}}});
    assert_eq!(
        message("", "Pod", "spec.containers", pod).as_deref(),
        Some(
            "json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container"
        )
    );
    let pod = json!({"spec": {"containers": ["a"]}});
    assert_eq!(
        message("", "Pod", "spec.containers[0]", pod).as_deref(),
        Some(
            "json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type v1.Container"
        )
    );
    let deployment = json!({"spec": {"replicas": 1.5}});
    assert_eq!(
        message("apps", "Deployment", "spec.replicas", deployment).as_deref(),
        Some(
            "json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32"
        )
    );
}

#[test]
fn values_that_fit_or_decode_themselves_are_no_mismatch() {
    assert_eq!(message("", "ConfigMap", "data", json!({"data": {}})), None);
    let pod = json!({"spec": {"containers": [{"resources": {"limits": {"cpu": []}}}]}});
    assert_eq!(
        message("", "Pod", "spec.containers[0].resources.limits.cpu", pod),
        None
    );
    assert_eq!(message("", "NoSuchKind", "data", json!({"data": 1})), None);
    assert_eq!(
        message("", "ConfigMap", "nofield", json!({"nofield": 1})),
        None
    );
}

#[test]
fn map_keys_may_hold_dots() {
    assert_eq!(
        message("", "ConfigMap", "data.a.b", json!({"data": {"a.b": true}})).as_deref(),
        Some("json: cannot unmarshal bool into Go struct field ConfigMap.data of type string")
    );
}
