//! CompositePodGroup (`scheduling.k8s.io/v1alpha3`, Kubernetes 1.37): the validators the
//! Scheme registers for it on create, update and `/status`, with Go's text (checked
//! against kube-apiserver's by the oracle's corpus, `invalid/scheduling-v1alpha3-*`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use k8s_types::scheduling::v1alpha3::CompositePodGroup;
use serde_json::{Value, json};

use crate::validation::{errors, status_errors, update_errors};

/// A valid CompositePodGroup named `name`, as the server stores it (with a
/// resourceVersion, which an update and a `/status` write must carry).
fn group(name: &str) -> Value {
    json!({
        "metadata": {"name": name, "namespace": "default", "resourceVersion": "1"},
        "spec": {
            "workloadRef": {"workloadName": "training", "templateName": "workers"},
            "schedulingPolicy": {"gang": {"minGroupCount": 2}},
            "disruptionMode": {"all": {}},
            "priority": 100,
        },
    })
}

#[test]
fn a_valid_group_passes() {
    assert_eq!(
        errors::<CompositePodGroup>(group("g")),
        Vec::<String>::new()
    );
}

#[test]
fn create_checks_the_name_reference_and_ranges() {
    let mut g = group("Group_One");
    g["spec"]["workloadRef"]["templateName"] = json!("workers.team");
    g["spec"]["schedulingPolicy"] = json!({"gang": {"minGroupCount": -2}});
    g["spec"]["priority"] = json!(2_000_000_000);
    g["spec"]["preemptionPolicy"] = json!("Never");
    g["spec"]["schedulingConstraints"] = json!({"topology": [{"key": "a"}, {"key": "b"}]});
    assert_eq!(
        errors::<CompositePodGroup>(g),
        [
            "metadata.name: Invalid value: \"Group_One\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            "spec.workloadRef.templateName: Invalid value: \"workers.team\": must not contain dots",
            "spec.schedulingPolicy.gang.minGroupCount: Invalid value: -2: must be greater than or equal to 1",
            "spec.schedulingConstraints.topology: Too many: 2: must have at most 1 item",
            "spec.priority: Invalid value: 2000000000: must be less than or equal to 1000000000",
            "spec.preemptionPolicy: Forbidden",
        ]
    );
}

#[test]
fn create_requires_a_reference_and_one_policy() {
    let mut g = group("g");
    g["spec"]
        .as_object_mut()
        .unwrap()
        .remove("workloadRef")
        .unwrap();
    g["spec"]["schedulingPolicy"] = json!({"basic": {}, "gang": {"minGroupCount": 0}});
    assert_eq!(
        errors::<CompositePodGroup>(g),
        [
            "spec.workloadRef: Required value",
            "spec.schedulingPolicy: Invalid value: \"{basic, gang}\": must specify exactly one of: `basic`, `gang`",
            "spec.schedulingPolicy.gang.minGroupCount: Required value",
        ]
    );
}

#[test]
fn an_update_may_not_change_the_spec() {
    let old = group("g");
    let mut new = old.clone();
    new["spec"]["workloadRef"] = Value::Null;
    new["spec"]["priority"] = json!(5);
    new["spec"]["disruptionMode"] = json!({"single": {}});
    assert_eq!(
        update_errors::<CompositePodGroup>(old.clone(), new),
        [
            "spec.workloadRef: Invalid value: null: field is immutable",
            "spec.workloadRef: Required value",
            "spec.disruptionMode: Invalid value: null: field is immutable",
            "spec.priority: Invalid value: null: field is immutable",
        ]
    );
    // A change elsewhere does not judge the kept spec again.
    let mut new = old.clone();
    new["metadata"]["labels"] = json!({"team": "ml"});
    assert_eq!(
        update_errors::<CompositePodGroup>(old, new),
        Vec::<String>::new()
    );
}

#[test]
fn status_checks_the_conditions_and_metadata() {
    let old = group("g");
    let mut new = old.clone();
    new["metadata"]["uid"] = json!("u-2");
    new["status"]["conditions"] = json!([
        {"type": "Scheduled", "status": "Maybe", "reason": "Placed", "message": "m",
         "lastTransitionTime": "2026-01-01T00:00:00Z"},
    ]);
    assert_eq!(
        status_errors::<CompositePodGroup>(old, new).unwrap(),
        [
            "metadata.uid: Invalid value: \"u-2\": field is immutable",
            "status.conditions[0].status: Unsupported value: \"Maybe\": supported values: \"False\", \"True\", \"Unknown\"",
        ]
    );
}
