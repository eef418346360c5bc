//! The rules that differ between the Kubernetes releases built (`v1_36`, `v1_37`):
//! each test states both releases' answers, and checks the one built. The texts are
//! Go's (k8s.io/apimachinery v0.36.3 / v0.37.2, k8s.io/kubernetes v1.36.3 / v1.37.2).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use k8s_types::{autoscaling, core, flowcontrol, networking, node, rbac, resource, storage};
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
fn volume_error_message_limit_is_its_own_from_1_37() {
    let va = json!({"metadata": {"name": "va"}, "spec": {"attacher": "csi.example.com",
        "nodeName": "n", "source": {"persistentVolumeName": "pv"}},
        "status": {"attached": false, "detachError": {"message": "x".repeat(1025)}}});
    let errs = errors::<storage::v1::VolumeAttachment>(va);
    let limit = per_release(262_144, 1024);
    assert_eq!(
        errs,
        vec![format!(
            "status.detachError.message: Too long: may not be more than {limit} bytes"
        )]
    );
}

#[test]
fn network_policy_end_port_below_port_names_the_end_port_from_1_37() {
    let np = json!({"metadata": meta(), "spec": {"podSelector": {},
        "ingress": [{"ports": [{"protocol": "TCP", "port": 8080, "endPort": 80}]}]}});
    let errs = errors::<networking::v1::NetworkPolicy>(np);
    let value = per_release(8080, 80);
    assert_eq!(
        errs,
        vec![format!(
            "spec.ingress[0].ports[0].endPort: Invalid value: {value}: must be greater than or equal to `port`"
        )]
    );
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

// Kubernetes 1.37's pod spec rules (issue 45). The fields 1.37 added are unknown to
// 1.36's types, which drop them on reading: there they bring no error.

/// A pod spec patched with `patch`, its errors sorted.
fn sorted_pod_spec_errors(patch: Value) -> Vec<String> {
    let mut errs = crate::validation::pod_spec_errors(patch);
    errs.sort();
    errs
}

#[test]
fn selinux_change_policy_mount_option_is_allowed_from_1_37() {
    let errs =
        sorted_pod_spec_errors(json!({"securityContext": {"seLinuxChangePolicy": "MountOption"}}));
    let refused = vec![
        "spec.securityContext.seLinuxChangePolicy: Unsupported value: \"MountOption\": supported values: \"Recursive\"",
    ];
    assert_eq!(errs, per_release(refused, vec![]));
}

#[test]
fn http_probe_protocol_is_http1_or_clear_text_http2_without_host() {
    let probe = |protocol: &str, scheme: &str, host: &str| {
        json!({"httpGet": {"path": "/", "port": 80, "scheme": scheme, "host": host,
            "protocol": protocol}})
    };
    let errs = sorted_pod_spec_errors(json!({"containers": [{"name": "web", "image": "nginx",
        "livenessProbe": probe("HTTP3", "HTTP", ""),
        "readinessProbe": probe("HTTP2", "HTTPS", ""),
        "startupProbe": probe("HTTP2", "HTTP", "example.com")}]}));
    let c = "spec.containers[0]";
    assert_eq!(
        errs,
        per_release(
            vec![],
            vec![
                format!(
                    "{c}.livenessProbe.httpGet.protocol: Unsupported value: \"HTTP3\": supported values: \"HTTP1\", \"HTTP2\""
                ),
                format!(
                    "{c}.readinessProbe.httpGet.protocol: Invalid value: \"HTTP2\": is only supported with HTTP (H2C)"
                ),
                format!(
                    "{c}.startupProbe.httpGet.host: Invalid value: \"example.com\": must be empty when `protocol` is \"HTTP2\""
                ),
            ]
        )
    );
}

#[test]
fn grpc_probe_mode_is_plaintext_or_tls() {
    let errs = sorted_pod_spec_errors(json!({"containers": [{"name": "web", "image": "nginx",
        "livenessProbe": {"grpc": {"port": 9000, "mode": "mTLS"}}}]}));
    let want = "spec.containers[0].livenessProbe.grpc.mode: Unsupported value: \"mTLS\": supported values: \"Plaintext\", \"TLS\"";
    assert_eq!(errs, per_release(vec![], vec![want]));
}

#[test]
fn bind_mount_options_are_known_unique_and_not_on_image_volumes() {
    let errs = sorted_pod_spec_errors(json!({
        "volumes": [{"name": "data", "emptyDir": {}},
                    {"name": "tools", "image": {"reference": "tools:1", "pullPolicy": "IfNotPresent"}}],
        "containers": [{"name": "web", "image": "nginx", "volumeMounts": [
            {"name": "data", "mountPath": "/data", "bindMountOptions": ["noexec", "ro", "noexec"]},
            {"name": "tools", "mountPath": "/tools", "bindMountOptions": ["nodev"]}]}]}));
    let m = "spec.containers[0].volumeMounts";
    assert_eq!(
        errs,
        per_release(
            vec![],
            vec![
                format!(
                    "{m}[0].bindMountOptions[1]: Unsupported value: \"ro\": supported values: \"nodev\", \"noexec\", \"nosuid\""
                ),
                format!("{m}[0].bindMountOptions[2]: Duplicate value: \"noexec\""),
                format!(
                    "{m}[1].bindMountOptions: Invalid value: [\"nodev\"]: bindMountOptions may not be used with image volumes"
                ),
            ]
        )
    );
}

#[test]
fn file_owners_and_empty_dir_modes_are_checked_from_1_37() {
    let errs = sorted_pod_spec_errors(json!({"serviceAccountName": "sa", "volumes": [
        {"name": "a", "secret": {"secretName": "s", "defaultUser": -1,
            "items": [{"key": "k", "path": "p", "user": 2_147_483_648_i64}]}},
        {"name": "b", "emptyDir": {"mode": 0o2000}},
        {"name": "c", "projected": {"defaultUser": -2, "sources": [
            {"serviceAccountToken": {"path": "token", "user": -3}}]}}]}));
    let range = "must be between 0 and 2147483647, inclusive";
    assert_eq!(
        errs,
        per_release(
            vec![],
            vec![
                format!("spec.volumes[0].secret.defaultUser: Invalid value: -1: {range}"),
                format!("spec.volumes[0].secret.items[0].user: Invalid value: 2147483648: {range}"),
                "spec.volumes[1].emptyDir.mode: Invalid value: 1024: must be a number between 0 and 01777 (octal), both inclusive".to_owned(),
                format!("spec.volumes[2].projected.defaultUser: Invalid value: -2: {range}"),
                format!("spec.volumes[2].projected.sources[0].serviceAccountToken.user: Invalid value: -3: {range}"),
            ]
        )
    );
}

#[test]
fn share_process_namespace_with_host_pid_is_reported_on_the_spec_from_1_37() {
    let errs = sorted_pod_spec_errors(json!({"hostPID": true, "shareProcessNamespace": true}));
    let at = per_release(
        "spec.securityContext.shareProcessNamespace",
        "spec.shareProcessNamespace",
    );
    assert_eq!(
        errs,
        vec![format!(
            "{at}: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled"
        )]
    );
}

#[test]
fn eviction_responders_follow_the_declarative_rules() {
    let errs = sorted_pod_spec_errors(json!({
        "schedulingGroup": {"podGroupName": "g"},
        "evictionResponders": [
            {"name": "example.com/drain", "priority": 10000},
            {"name": "drain"},
            {"name": "x.k8s.io/drain", "priority": 500},
            {"name": "example.com/drain", "priority": 200_000}]}));
    let r = "spec.evictionResponders";
    let mut want = vec![
        format!(
            "{r}[1].name: Invalid value: \"drain\": must include a prefix (e.g. 'example.com/key')"
        ),
        format!("{r}[1].priority: Required value"),
        format!(
            "{r}[2].name: Invalid value: \"x.k8s.io/drain\": domain names *.k8s.io, *.kubernetes.io are reserved"
        ),
        format!(
            "{r}[2].priority: Invalid value: 500: priorities 0-999 are reserved for responders with *.k8s.io suffix"
        ),
        format!("{r}[3]: Duplicate value: {{\"name\":\"example.com/drain\",\"priority\":200000}}"),
        format!("{r}[3].priority: Invalid value: 200000: must be less than or equal to 100000"),
        "spec.schedulingGroup: Forbidden: may not be set when evictionResponders is set".to_owned(),
    ];
    want.sort();
    assert_eq!(errs, per_release(vec![], want));
}

#[test]
fn eviction_responders_kept_by_an_update_are_not_checked_again() {
    let template = |responders: Value| {
        json!({"metadata": {"name": "t", "namespace": "default"}, "template": {
            "spec": with_spec(json!({"evictionResponders": responders}))}})
    };
    let old = template(json!([{"name": "drain"}]));
    let kept = update_errors::<core::v1::PodTemplate>(old.clone(), old.clone());
    assert_eq!(kept, Vec::<String>::new());
    let changed = update_errors::<core::v1::PodTemplate>(
        old,
        template(json!([{"name": "drain", "priority": 5000}])),
    );
    // The responder matched by name keeps its name: only its new priority is checked.
    assert_eq!(changed, Vec::<String>::new());
}

fn with_spec(patch: Value) -> Value {
    let mut spec = json!({"containers": [{"name": "web", "image": "nginx"}]});
    if let (Some(s), Value::Object(p)) = (spec.as_object_mut(), patch) {
        s.extend(p);
    }
    spec
}

#[test]
fn sys_admin_without_privilege_escalation_is_kept_by_an_update_from_1_37() {
    let template = |image: &str| {
        json!({"metadata": {"name": "t", "namespace": "default"}, "template": {
            "metadata": {"labels": {"app": "web"}},
            "spec": {"containers": [{"name": "web", "image": image,
                "securityContext": {"allowPrivilegeEscalation": false,
                    "capabilities": {"add": ["CAP_SYS_ADMIN"]}}}]}}})
    };
    let sys_admin = |errs: Vec<String>| {
        errs.into_iter()
            .filter(|e| e.contains("CAP_SYS_ADMIN"))
            .count()
    };
    assert_eq!(
        sys_admin(errors::<core::v1::PodTemplate>(template("nginx"))),
        1
    );
    // Go's AllowSysAdminWhenPrivilegeEscalationFalse: the old template had it.
    let kept = update_errors::<core::v1::PodTemplate>(template("nginx"), template("nginx:2"));
    assert_eq!(sys_admin(kept), per_release(1, 0));
}

#[test]
fn windows_pods_report_host_namespaces_after_the_security_context_from_1_37() {
    let errs = crate::validation::pod_spec_errors(json!({"os": {"name": "windows"},
        "hostPID": true, "shareProcessNamespace": false,
        "securityContext": {"runAsUser": 1}}));
    let windows: Vec<&str> = errs
        .iter()
        .map(String::as_str)
        .filter(|e| e.ends_with("cannot be set for a windows pod"))
        .collect();
    let host_pid = "spec.hostPID: Forbidden: cannot be set for a windows pod";
    let share = "spec.shareProcessNamespace: Forbidden: cannot be set for a windows pod";
    let run_as_user = "spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod";
    assert_eq!(
        windows,
        per_release(
            vec![host_pid, share, run_as_user],
            vec![run_as_user, host_pid, share]
        )
    );
}

fn job(scheduling: Value, parallelism: i32) -> Value {
    json!({"metadata": {"name": "j", "namespace": "default", "uid": "u"},
        "spec": {"parallelism": parallelism, "manualSelector": true,
            "selector": {"matchLabels": {"app": "j"}}, "scheduling": scheduling,
            "template": {"metadata": {"labels": {"app": "j"}},
                "spec": with_spec(json!({"restartPolicy": "Never"}))}}})
}

#[test]
fn job_scheduling_is_forbidden_while_its_gate_is_off_and_checked_against_parallelism() {
    let mut errs = errors::<k8s_types::batch::v1::Job>(job(
        json!({"schedulingPolicy": {"gang": {"minCount": 3}}, "disruptionMode": {"all": {}}}),
        2,
    ));
    errs.sort();
    let want = vec![
        "spec.scheduling.schedulingPolicy.gang.minCount: Invalid value: 3: must not be greater than parallelism (2)",
        "spec.scheduling: Forbidden",
    ];
    assert_eq!(errs, per_release(vec![], want));
    let errs = errors::<k8s_types::batch::v1::Job>(job(json!({"disruptionMode": {"all": {}}}), 1));
    let basic_all = "spec.scheduling.disruptionMode: Invalid value: \"\": the disruptionMode `all` is not supported with the Basic scheduling policy";
    let mut want = vec!["spec.scheduling: Forbidden", basic_all];
    want.sort_unstable();
    let mut errs = errs;
    errs.sort();
    assert_eq!(errs, per_release(vec![], want));
}

#[test]
fn job_update_checks_scheduling_changes_and_not_the_names_again() {
    let gang = json!({"schedulingPolicy": {"gang": {}}});
    let basic = json!({"schedulingPolicy": {"basic": {}}});
    let mut old = job(gang, 1);
    // A name 1.36 refuses on update too; 1.37's update leaves the names to create.
    old["metadata"]["name"] = json!("J");
    let mut new = job(basic, 1);
    new["metadata"]["name"] = json!("J");
    let mut errs = update_errors::<k8s_types::batch::v1::Job>(old, new);
    errs.sort();
    errs.retain(|e| e.starts_with("spec.scheduling") || e.starts_with("metadata.name"));
    assert_eq!(
        errs,
        per_release(
            vec![
                "metadata.name: Invalid value: \"J\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".to_owned(),
            ],
            vec![
                "spec.scheduling.schedulingPolicy: Invalid value: null: the basic/gang policy variant is immutable after creation; only schedulingPolicy.gang.minCount may be updated".to_owned(),
                "spec.scheduling: Forbidden".to_owned(),
            ]
        )
    );
    let cleared =
        update_errors::<k8s_types::batch::v1::Job>(job(json!({}), 1), job(Value::Null, 1));
    let want = "spec.scheduling: Invalid value: null: field cannot be cleared once set";
    assert_eq!(
        cleared
            .iter()
            .filter(|e| e.starts_with("spec.scheduling"))
            .collect::<Vec<_>>(),
        per_release(vec![], vec![want])
    );
}

#[test]
fn stateful_set_update_names_each_immutable_field_from_1_37() {
    let set = |service: &str, policy: &str| {
        json!({"metadata": {"name": "s", "namespace": "default"},
            "spec": {"serviceName": service, "podManagementPolicy": policy,
                "selector": {"matchLabels": {"app": "s"}},
                "template": {"metadata": {"labels": {"app": "s"}}, "spec": with_spec(json!({}))}}})
    };
    let mut errs = update_errors::<k8s_types::apps::v1::StatefulSet>(
        set("a", "OrderedReady"),
        set("b", "Parallel"),
    );
    errs.sort();
    let v136 = vec![
        "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ];
    let v137 = vec![
        "spec.podManagementPolicy: Invalid value: \"Parallel\": field is immutable",
        "spec.serviceName: Invalid value: \"b\": field is immutable",
    ];
    assert_eq!(errs, per_release(v136, v137));
}

#[test]
fn image_volume_reference_is_required_of_templates_too_from_1_37() {
    let template = |reference: &str| {
        json!({"metadata": {"name": "t", "namespace": "default"}, "template": {
            "spec": with_spec(json!({"volumes": [{"name": "tools",
                "image": {"reference": reference, "pullPolicy": "IfNotPresent"}}]}))}})
    };
    let errs = errors::<core::v1::PodTemplate>(template(""));
    let want = "template.spec.volumes[0].image.reference: Required value";
    assert_eq!(errs, per_release(vec![], vec![want]));
    // An update may keep a reference the old template already went without.
    assert_eq!(
        update_errors::<core::v1::PodTemplate>(template(""), template("")),
        Vec::<String>::new()
    );
}

#[test]
fn an_ephemeral_container_may_not_take_an_init_containers_empty_name() {
    let errs = sorted_pod_spec_errors(json!({
        "initContainers": [{"name": "", "image": "busybox"}],
        "ephemeralContainers": [{"name": "", "image": "busybox"}]}));
    assert!(
        errs.contains(&"spec.ephemeralContainers[0].name: Duplicate value: \"\"".to_owned()),
        "{errs:#?}"
    );
}

// Kubernetes 1.37's resource.k8s.io rules (issue 45). As for the pod spec, the fields
// 1.37 added are unknown to 1.36's types, which drop them on reading.

fn slice(spec: Value) -> Value {
    let mut spec = spec;
    spec["driver"] = json!("gpu.example.com");
    spec["pool"] = json!({"name": "node1", "generation": 1, "resourceSliceCount": 1});
    spec["nodeName"] = json!("node1");
    json!({"metadata": {"name": "s"}, "spec": spec})
}

#[test]
fn slice_partition_type_attribute_is_forbidden_and_needs_counters_from_1_37() {
    let errs = errors::<resource::v1::ResourceSlice>(slice(json!({
        "partitionTypeAttribute": "gpu.example.com/type", "devices": [{"name": "d"}]})));
    let want: Vec<&str> = per_release(
        vec![],
        vec![
            "spec.partitionTypeAttribute: Forbidden",
            "spec.partitionTypeAttribute: Invalid value: \"gpu.example.com/type\": may only be set on a slice which declares devices that consume counters",
        ],
    );
    assert_eq!(errs, want);
}

#[test]
fn slice_skip_node_operations_are_a_set_of_known_values_from_1_37() {
    let errs = errors::<resource::v1::ResourceSlice>(slice(json!({
        "skipNodeOperations": ["NodePrepareResources", "Bogus", "NodePrepareResources"]})));
    let want: Vec<&str> = per_release(
        vec![],
        vec![
            "spec.skipNodeOperations: Invalid value: [\"NodePrepareResources\",\"Bogus\",\"NodePrepareResources\"]: NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped",
            "spec.skipNodeOperations[1]: Unsupported value: \"Bogus\": supported values: \"*\", \"NodePrepareResources\", \"NodeUnprepareResources\"",
            "spec.skipNodeOperations[2]: Duplicate value: \"NodePrepareResources\"",
        ],
    );
    let mut errs = errs;
    errs.sort();
    assert_eq!(errs, want);
}

#[test]
fn attribute_union_names_the_kinds_of_value_set_from_1_37() {
    let errs = errors::<resource::v1::ResourceSlice>(slice(json!({
        "devices": [{"name": "d", "attributes": {"a": {"int": 1, "bool": true}}}]})));
    assert_eq!(errs.len(), 1, "{errs:?}");
    let want = per_release(
        "spec.devices[0].attributes[a]: Invalid value: {\"IntValue\":1,\"BoolValue\":true,",
        "spec.devices[0].attributes[a]: Invalid value: \"{int, bool}\": must specify exactly one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`",
    );
    assert!(errs[0].starts_with(want), "{errs:?}");
}

fn claim(devices: Value, status: Value) -> Value {
    json!({"metadata": meta(), "spec": {"devices": devices}, "status": status})
}

fn gpu_request(name: &str) -> Value {
    json!({"name": name, "exactly": {"deviceClassName": "gpu"}})
}

#[test]
fn duplicate_request_is_reported_with_the_request_from_1_37() {
    let errs = errors::<resource::v1::ResourceClaim>(claim(
        json!({"requests": [gpu_request("gpu"), gpu_request("gpu")]}),
        json!({}),
    ));
    let want = per_release(
        "spec.devices.requests[1]: Duplicate value: \"gpu\"",
        "spec.devices.requests[1]: Duplicate value: {\"name\":\"gpu\",\"exactly\":{\"deviceClassName\":\"gpu\",\"allocationMode\":\"ExactCount\",\"count\":1}}",
    );
    assert_eq!(errs, vec![want.to_owned()]);
}

// On 1.36 a constraint's attribute is not judged in this form (the oracle agrees).
#[cfg(feature = "v1_37")]
#[test]
fn constraint_attributes_in_the_declarative_rule_words_from_1_37() {
    let errs = errors::<resource::v1::ResourceClaim>(claim(
        json!({"requests": [gpu_request("gpu")],
            "constraints": [{"distinctAttribute": "Bad.Domain/x"}]}),
        json!({}),
    ));
    let want = per_release(
        "spec.devices.constraints[0].distinctAttribute: Invalid value: \"Bad.Domain/x\": a lowercase RFC 1123 subdomain",
        "spec.devices.constraints[0].distinctAttribute: Invalid value: \"Bad.Domain\": prefix: a lowercase RFC 1123 subdomain",
    );
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].starts_with(want), "{errs:?}");
}

#[test]
fn derived_attributes_must_be_used_by_a_constraint_from_1_37() {
    let request = json!({"name": "gpu", "exactly": {"deviceClassName": "gpu",
        "derivedAttributes": [{"name": "gpu.example.com/x", "expression": "1"}]}});
    let errs =
        errors::<resource::v1::ResourceClaim>(claim(json!({"requests": [request]}), json!({})));
    let want: Vec<&str> = per_release(
        vec![],
        vec![
            "spec.devices.requests[0].exactly.derivedAttributes[0].name: Invalid value: \"gpu.example.com/x\": must be referenced by at least one matchAttribute or distinctAttribute constraint targeting this request",
        ],
    );
    assert_eq!(errs, want);
}

#[test]
fn claim_status_is_checked_by_the_declarative_rules_from_1_37() {
    let status = json!({"allocation": {"devices": {"results": [{"request": "gpu",
        "driver": "gpu.example.com", "pool": "node1", "device": "d", "shareID": "x"}],
        "config": [{"source": "FromNowhere", "requests": ["gpu"]}]}}});
    let errs = errors::<resource::v1::ResourceClaim>(claim(
        json!({"requests": [gpu_request("gpu")]}),
        status,
    ));
    let want: Vec<&str> = per_release(
        vec![],
        vec![
            "status.allocation.devices.config[0].source: Unsupported value: \"FromNowhere\": supported values: \"FromClaim\", \"FromClass\"",
            "status.allocation.devices.results[0].shareID: Invalid value: \"x\": must be a lowercase UUID in 8-4-4-4-12 format",
        ],
    );
    let mut errs = errs;
    errs.sort();
    assert_eq!(errs, want);
}

#[test]
fn claim_allocation_cannot_be_modified_once_set_from_1_37() {
    let allocation = |device: &str| {
        json!({"allocation": {"devices": {"results": [{"request": "gpu",
            "driver": "gpu.example.com", "pool": "node1", "device": device}]}}})
    };
    let devices = json!({"requests": [gpu_request("gpu")]});
    let mut old = claim(devices.clone(), allocation("a"));
    let mut new = claim(devices, allocation("b"));
    old["metadata"]["resourceVersion"] = json!("1");
    new["metadata"]["resourceVersion"] = json!("1");
    let errs = update_errors::<resource::v1::ResourceClaim>(old, new);
    let want: Vec<&str> = per_release(
        vec![],
        vec!["status.allocation: Invalid value: null: field cannot be modified once set"],
    );
    assert_eq!(errs, want);
}

#[test]
fn pool_status_request_default_partition_type_attribute_is_forbidden_from_1_37() {
    let request = json!({"metadata": {"name": "r"}, "spec": {"driver": "gpu.example.com",
        "limit": 10, "defaultPartitionTypeAttribute": "gpu.example.com/type"}});
    let errs = errors::<resource::v1alpha3::ResourcePoolStatusRequest>(request);
    let want: Vec<&str> = per_release(
        vec![],
        vec!["spec.defaultPartitionTypeAttribute: Forbidden"],
    );
    assert_eq!(errs, want);
}

#[cfg(feature = "v1_37")]
#[test]
fn device_taint_rule_v1_is_validated_on_1_37() {
    let rule = json!({"metadata": {"name": "r"}, "spec": {"taint": {"key": "k",
        "effect": "Sometimes"}}});
    let errs = errors::<resource::v1::DeviceTaintRule>(rule);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with("spec.taint.effect: Unsupported value: \"Sometimes\""),
        "{errs:?}"
    );
}
