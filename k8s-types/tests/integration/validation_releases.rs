//! The rules that differ between the Kubernetes releases built (`v1_36`, `v1_37`):
//! each test states both releases' answers, and checks the one built. The texts are
//! Go's (k8s.io/apimachinery v0.36.3 / v0.37.2, k8s.io/kubernetes v1.36.3 / v1.37.2).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use k8s_types::{autoscaling, core, flowcontrol, node, rbac, resource, storage};
use serde_json::{Value, json};

use crate::validation::{errors, update_errors};

/// `v136` on Kubernetes 1.36, `v137` on 1.37.
fn per_release<T>(v136: T, v137: T) -> T {
    if cfg!(feature = "v1_37") { v137 } else { v136 }
}

fn meta() -> Value {
    json!({"name": "x", "namespace": "default"})
}

#[test]
fn object_meta_update_checks_generation_and_names_owner_references_by_index() {
    let old = json!({"metadata": {"name": "x", "namespace": "default", "generation": 2}});
    let new = json!({"metadata": {"name": "x", "namespace": "default", "generation": -1,
        "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "p"}]}});
    // ServiceAccount's update checks the metadata as on create, then as an update: on
    // 1.36 the owner reference is reported by both, on 1.37 once (the declarative
    // merge keeps one error of each text).
    let mut errs = update_errors::<core::v1::ServiceAccount>(old, new);
    errs.sort();
    let negative = "metadata.generation: Invalid value: -1: must be greater than or equal to 0";
    let decremented = "metadata.generation: Invalid value: -1: must not be decremented";
    let mut want = per_release(
        vec![
            negative,
            decremented,
            "metadata.ownerReferences.uid: Invalid value: \"\": must not be empty",
            "metadata.ownerReferences.uid: Invalid value: \"\": must not be empty",
        ],
        vec![
            negative,
            decremented,
            "metadata.ownerReferences[0].uid: Required value: must not be empty",
        ],
    );
    want.sort_unstable();
    assert_eq!(errs, want);
}

#[test]
fn owner_reference_api_versions_as_go_parses_them() {
    let errs = errors::<core::v1::ServiceAccount>(json!({"metadata": {"name": "x",
        "namespace": "default", "ownerReferences": [
            {"apiVersion": "a/b/c", "kind": "Pod", "name": "p", "uid": "u"},
            {"kind": "Pod", "name": "p", "uid": "u"}]}}));
    assert_eq!(
        errs,
        per_release(
            vec![
                "metadata.ownerReferences.apiVersion: Invalid value: \"a/b/c\": version must not be empty",
                "metadata.ownerReferences.apiVersion: Invalid value: \"\": version must not be empty",
            ],
            vec![
                "metadata.ownerReferences[0].apiVersion: Invalid value: \"a/b/c\": must be <group>/<version> or <version>",
                "metadata.ownerReferences[1].apiVersion: Required value: must not be empty",
            ],
        )
    );
}

#[test]
fn managed_fields_operation_required_or_supported() {
    let errs = errors::<core::v1::ConfigMap>(json!({"metadata": {"name": "x",
        "namespace": "default", "managedFields": [
            {"manager": "m", "operation": ""}, {"manager": "m", "operation": "Patch"}]}}));
    assert_eq!(
        errs,
        per_release(
            vec![
                "metadata.managedFields[0].operation: Invalid value: \"\": must be `Apply` or `Update`",
                "metadata.managedFields[1].operation: Invalid value: \"Patch\": must be `Apply` or `Update`",
            ],
            vec![
                "metadata.managedFields[0].operation: Required value: must not be empty",
                "metadata.managedFields[1].operation: Unsupported value: \"Patch\": supported values: \"Apply\", \"Update\"",
            ],
        )
    );
}

#[test]
fn declarative_merge_keeps_one_error_of_each_text() {
    // ConfigMap's update checks the metadata both as an update and as on create: 1.37
    // reports the negative generation twice before the merge, once after.
    let old = json!({"metadata": {"name": "x", "namespace": "default", "generation": -1}});
    let new = old.clone();
    let errs = update_errors::<core::v1::ConfigMap>(old, new);
    let negative = "metadata.generation: Invalid value: -1: must be greater than or equal to 0";
    assert_eq!(errs, per_release(vec![negative], vec![negative]));
}

#[test]
fn immutable_fields_under_beta_declarative_rules_name_no_value() {
    let old = json!({"metadata": {"name": "x"}, "handler": "a"});
    let new = json!({"metadata": {"name": "x"}, "handler": "b"});
    assert_eq!(
        update_errors::<node::v1::RuntimeClass>(old, new),
        vec![per_release(
            "handler: Invalid value: \"b\": field is immutable",
            "handler: Invalid value: null: field is immutable",
        )]
    );
    let old = json!({"metadata": {"name": "x"}, "provisioner": "a.example.com"});
    let new = json!({"metadata": {"name": "x"}, "provisioner": "b.example.com"});
    assert_eq!(
        update_errors::<storage::v1::StorageClass>(old, new),
        vec![per_release(
            "provisioner: Invalid value: \"b.example.com\": field is immutable",
            "provisioner: Invalid value: null: field is immutable",
        )]
    );
}

#[test]
fn role_binding_role_ref_is_an_immutable_field() {
    let binding = |name: &str| {
        json!({"metadata": meta(), "subjects": [{"kind": "User", "name": "u"}],
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": name}})
    };
    let errs = update_errors::<rbac::v1::RoleBinding>(binding("a"), binding("b"));
    let value = "{\"APIGroup\":\"rbac.authorization.k8s.io\",\"Kind\":\"Role\",\"Name\":\"b\"}";
    assert_eq!(
        errs,
        vec![format!(
            "roleRef: Invalid value: {value}: {}",
            per_release("cannot change roleRef", "field is immutable")
        )]
    );
}

#[test]
fn policy_rule_verbs_required_as_the_declarative_rule_words_it() {
    let role = |verbs: Value| {
        json!({"metadata": meta(), "rules": [{"apiGroups": [""],
        "resources": ["pods"], "verbs": verbs}]})
    };
    let detailed = "rules[0].verbs: Required value: verbs must contain at least one value";
    assert_eq!(
        errors::<rbac::v1::Role>(role(json!([]))),
        vec![per_release(detailed, "rules[0].verbs: Required value")]
    );
    // An update that keeps the rules is not checked again by the declarative rule: the
    // hand-written error is the one left.
    assert_eq!(
        update_errors::<rbac::v1::Role>(role(json!([])), role(json!([]))),
        vec![detailed]
    );
}

#[test]
fn node_provider_id_and_pod_preemption_policy() {
    let node =
        |provider: &str| json!({"metadata": {"name": "n"}, "spec": {"providerID": provider}});
    assert_eq!(
        update_errors::<core::v1::Node>(node("aws://a"), node("aws://b")),
        vec![per_release(
            "spec.providerID: Forbidden: node updates may not change providerID except from \"\" to valid",
            "spec.providerID: Invalid value: null: field cannot be modified once set",
        )]
    );
    assert_eq!(
        update_errors::<core::v1::Node>(node("aws://a"), node("")),
        vec![per_release(
            "spec.providerID: Forbidden: node updates may not change providerID except from \"\" to valid",
            "spec.providerID: Invalid value: null: field cannot be cleared once set",
        )]
    );
    #[cfg(feature = "v1_37")]
    {
        let with_policy = json!({"metadata": {"name": "n"},
            "spec": {"podPreemptionPolicy": {"disableResizePreemption": ["a"]}}});
        assert_eq!(
            errors::<core::v1::Node>(with_policy.clone()),
            vec!["spec.podPreemptionPolicy: Forbidden"]
        );
        // Kept on update: not checked again.
        assert_eq!(
            update_errors::<core::v1::Node>(with_policy.clone(), with_policy),
            Vec::<String>::new()
        );
    }
}

#[test]
fn priority_level_members_of_another_type_are_forbidden() {
    let plc = json!({"metadata": {"name": "x"}, "spec": {"type": "Limited",
        "exempt": {},
        "limited": {"nominalConcurrencyShares": 1,
            "limitResponse": {"type": "Reject", "queuing": {"queues": 1, "handSize": 1, "queueLengthLimit": 1}}}}});
    let errs = errors::<flowcontrol::v1::PriorityLevelConfiguration>(plc);
    assert_eq!(
        errs,
        per_release(
            vec![
                "spec.exempt: Forbidden: must be nil if the type is Limited",
                "spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited",
            ],
            vec![
                "spec.exempt: Forbidden",
                "spec.limited.limitResponse.queuing: Forbidden",
            ],
        )
    );
}

#[test]
fn event_namespace_is_checked_by_the_metadata_only_from_1_37() {
    let event = json!({"metadata": {"name": "e", "namespace": "Bad_NS"},
        "involvedObject": {"namespace": "Bad_NS"}});
    let errs = errors::<core::v1::Event>(event);
    let own = errs.iter().any(|e| e.starts_with("namespace: "));
    assert_eq!(own, cfg!(not(feature = "v1_37")), "{errs:?}");
}

#[test]
fn attacher_format_in_the_declarative_rule_words_on_create() {
    let va = json!({"metadata": {"name": "va"}, "spec": {"attacher": "bad_driver",
        "nodeName": "n", "source": {"persistentVolumeName": "pv"}}});
    let errs = errors::<storage::v1::VolumeAttachment>(va);
    let first = per_release(
        "spec.attacher: Invalid value: \"bad_driver\": a lowercase RFC 1123 subdomain",
        "spec.attacher: Invalid value: \"bad_driver\": an RFC 1123 subdomain must consist of alphanumeric characters",
    );
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].starts_with(first), "{errs:?}");
}

#[test]
fn hpa_scales_to_zero_from_1_37() {
    let hpa = json!({"metadata": meta(), "spec": {"minReplicas": 0, "maxReplicas": 3,
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
        "metrics": [{"type": "Object", "object": {
            "describedObject": {"apiVersion": "v1", "kind": "Service", "name": "s"},
            "metric": {"name": "m"}, "target": {"type": "Value", "value": "1"}}}]}});
    let errs = errors::<autoscaling::v2::HorizontalPodAutoscaler>(hpa);
    assert_eq!(
        errs,
        per_release(
            vec!["spec.minReplicas: Invalid value: 0: must be greater than or equal to 1"],
            vec![],
        )
    );
}

#[test]
fn extended_resource_names_in_the_declarative_rule_words() {
    let class = json!({"metadata": {"name": "c"}, "spec": {"extendedResourceName": "gpu"}});
    let errs = errors::<resource::v1::DeviceClass>(class);
    assert_eq!(
        errs,
        per_release(
            vec![
                "spec.extendedResourceName: Invalid value: \"gpu\": must be a valid extended resource name"
            ],
            vec![
                "spec.extendedResourceName: Invalid value: \"gpu\": a name must be a domain-prefixed path, such as 'example.com/my-prop'"
            ],
        )
    );
}
