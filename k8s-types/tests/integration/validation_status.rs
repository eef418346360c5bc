//! The `/status` validators the Scheme registers (Go's status strategies'
//! `ValidateUpdate`), as the server runs them on a write of the subresource: one test
//! per kind, with Go's text.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use k8s_types::core::v1::{
    ConfigMap, Node, PersistentVolume, PersistentVolumeClaim, ReplicationController, Service,
};
use serde_json::{Value, json};

use crate::validation::status_errors;

fn meta(name: &str, namespaced: bool) -> Value {
    let mut m = json!({"name": name, "resourceVersion": "1", "uid": "u-1"});
    if namespaced {
        m["namespace"] = json!("default");
    }
    m
}

#[test]
fn service_status_ingress_needs_a_load_balancer() {
    let old = json!({"metadata": meta("svc", true), "spec": {"ports": [{"port": 80}]}});
    let mut new = old.clone();
    new["status"] = json!({"loadBalancer": {"ingress": [{"ip": "10.0.0.1"}]}});
    assert_eq!(
        status_errors::<Service>(old.clone(), new).unwrap(),
        [
            "status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'"
        ]
    );
    let mut lb = old.clone();
    lb["spec"]["type"] = json!("LoadBalancer");
    let mut new = lb.clone();
    new["status"] =
        json!({"loadBalancer": {"ingress": [{"ip": "10.0.0.1", "hostname": "10.0.0.2"}]}});
    assert_eq!(
        status_errors::<Service>(lb, new).unwrap(),
        [
            "status.loadBalancer.ingress[0].hostname: Invalid value: \"10.0.0.2\": must be a DNS name, not an IP address"
        ]
    );
}

#[test]
fn replication_controller_status_counts() {
    let old = json!({"metadata": meta("rc", true),
        "spec": {"selector": {"app": "rc"},
            "template": {"metadata": {"labels": {"app": "rc"}},
                "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}});
    let mut new = old.clone();
    new["status"] = json!({"replicas": 1, "readyReplicas": 2, "observedGeneration": -1});
    assert_eq!(
        status_errors::<ReplicationController>(old.clone(), new).unwrap(),
        [
            "status.observedGeneration: Invalid value: -1: must be greater than or equal to 0",
            "status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas",
        ]
    );
    let mut new = old.clone();
    new["status"] = json!({"replicas": 1, "readyReplicas": 1});
    assert_eq!(
        status_errors::<ReplicationController>(old, new).unwrap(),
        Vec::<String>::new()
    );
}

#[test]
fn node_status_keeps_the_pod_cidrs_and_metadata() {
    let old = json!({"metadata": meta("n", false), "spec": {"podCIDRs": ["10.0.0.0/24"]}});
    let mut new = old.clone();
    new["spec"]["podCIDRs"] = json!(["10.1.0.0/24"]);
    new["metadata"]["uid"] = json!("u-2");
    let errs = status_errors::<Node>(old, new).unwrap();
    assert_eq!(
        errs,
        [
            "metadata.uid: Invalid value: \"u-2\": field is immutable",
            "spec.podCIDRs: Forbidden: node updates may not change podCIDR except from \"\" to valid",
        ]
    );
}

#[test]
fn persistent_volume_and_claim_status_keep_the_metadata() {
    let pv = json!({"metadata": meta("pv", false),
        "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
            "hostPath": {"path": "/data"}}});
    let mut new = pv.clone();
    new["metadata"]["name"] = json!("other");
    assert_eq!(
        status_errors::<PersistentVolume>(pv, new).unwrap(),
        ["metadata.name: Invalid value: \"other\": field is immutable"]
    );
    let pvc = json!({"metadata": meta("claim", true),
        "spec": {"accessModes": ["ReadWriteOnce"],
            "resources": {"requests": {"storage": "1Gi"}}}});
    let mut new = pvc.clone();
    new["status"] = json!({"capacity": {"storage": "-1Gi"}});
    let errs = status_errors::<PersistentVolumeClaim>(pvc, new).unwrap();
    assert_eq!(
        errs,
        ["status.capacity[storage]: Invalid value: -1073741824: must be a valid resource quantity"]
    );
}

#[test]
fn kinds_without_status_rules_have_no_status_validator() {
    let cm = json!({"metadata": meta("cm", true)});
    assert_eq!(status_errors::<ConfigMap>(cm.clone(), cm), None);
}

#[test]
fn horizontal_pod_autoscaler_status_counts_and_condition_generations_not_negative() {
    use k8s_types::autoscaling::v2::HorizontalPodAutoscaler;
    let old = json!({"metadata": meta("hpa", true), "spec": {"maxReplicas": 3,
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}}});
    let mut new = old.clone();
    new["status"] = json!({"currentReplicas": -1, "desiredReplicas": -2, "conditions": [
        {"type": "AbleToScale", "status": "True", "observedGeneration": -3}]});
    let mut want = vec![
        "status.currentReplicas: Invalid value: -1: must be greater than or equal to 0",
        "status.desiredReplicas: Invalid value: -2: must be greater than or equal to 0",
    ];
    // Conditions carry an observedGeneration from 1.37 (1.36 reads none).
    if cfg!(feature = "v1_37") {
        want.insert(
            0,
            "status.conditions[0].observedGeneration: Invalid value: -3: must be greater than or equal to 0",
        );
    }
    assert_eq!(
        status_errors::<HorizontalPodAutoscaler>(old, new).unwrap(),
        want
    );
}

#[cfg(feature = "v1_37")]
#[test]
fn csi_node_storage_health_is_checked_from_1_37() {
    use k8s_types::storage::v1::CSINode;
    let old = json!({"metadata": meta("node-1", false), "spec": {"drivers": []}});
    let mut new = old.clone();
    new["status"] = json!({"storageHealth": [
        {"name": "csi.example.com", "healthConditions": [
            {"status": "Fine", "reason": "", "accessMode": "WriteMany", "volumeMode": "Raw"}]},
        {"name": "csi.example.com"}]});
    assert_eq!(
        status_errors::<CSINode>(old, new).unwrap(),
        [
            "status.storageHealth[0].healthConditions[0].status: Unsupported value: \"Fine\": supported values: \"StorageDegraded\", \"StorageUnreachable\"",
            "status.storageHealth[0].healthConditions[0].reason: Required value",
            "status.storageHealth[0].healthConditions[0].accessMode: Unsupported value: \"WriteMany\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"",
            "status.storageHealth[0].healthConditions[0].volumeMode: Unsupported value: \"Raw\": supported values: \"Filesystem\", \"Block\"",
            "status.storageHealth[1]: Duplicate value: \"csi.example.com\"",
        ]
    );
}

#[test]
fn pod_disruption_budget_status_counts_and_conditions() {
    use k8s_types::policy::v1::PodDisruptionBudget;
    let old = json!({"metadata": meta("pdb", true),
        "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "db"}}}});
    let mut new = old.clone();
    new["status"] = json!({"disruptionsAllowed": -1, "currentHealthy": 1, "desiredHealthy": -2,
        "expectedPods": 1, "conditions": [
            {"type": "DisruptionAllowed", "status": "Maybe", "reason": "9Lives",
             "lastTransitionTime": "2026-01-01T00:00:00Z", "observedGeneration": -1},
            {"type": "DisruptionAllowed", "status": "True", "reason": "SufficientPods",
             "lastTransitionTime": "2026-01-01T00:00:00Z"},
            {"type": "", "status": "", "reason": ""}]});
    let errors = status_errors::<PodDisruptionBudget>(old.clone(), new).unwrap();
    let reason = "status.conditions[0].reason: Invalid value: \"9Lives\": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')";
    let (repeated, no_type, no_status) = if cfg!(feature = "v1_37") {
        (
            "status.conditions[1]: Duplicate value: \"DisruptionAllowed\"",
            "status.conditions[2].type: Required value: is required".to_owned(),
            "status.conditions[2].status: Required value",
        )
    } else {
        (
            "status.conditions[1].type: Duplicate value: \"DisruptionAllowed\"",
            "status.conditions[2].type: Invalid value: \"\": name part must be non-empty"
                .to_owned(),
            "status.conditions[2].status: Unsupported value: \"\": supported values: \"False\", \"True\", \"Unknown\"",
        )
    };
    let mut expected = vec![
        "status.conditions[0].status: Unsupported value: \"Maybe\": supported values: \"False\", \"True\", \"Unknown\"".to_owned(),
        "status.conditions[0].observedGeneration: Invalid value: -1: must be greater than or equal to zero".to_owned(),
        reason.to_owned(),
        repeated.to_owned(),
        no_type,
    ];
    if cfg!(not(feature = "v1_37")) {
        // 1.36 reports a missing type as a qualified name twice over: empty, and not
        // matching the name part's pattern.
        expected.push(
            "status.conditions[2].type: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
                .to_owned(),
        );
    }
    expected.extend([
        no_status.to_owned(),
        "status.conditions[2].lastTransitionTime: Required value".to_owned(),
        "status.conditions[2].reason: Required value".to_owned(),
        "status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0"
            .to_owned(),
        "status.desiredHealthy: Invalid value: -2: must be greater than or equal to 0".to_owned(),
    ]);
    assert_eq!(errors, expected);
}

/// The apps workloads' status strategies, in Go's words (kube-apiserver's answers in
/// the differential areas `deployments` and `daemonsets`).
#[test]
fn workload_status_counts_and_collision_counts() {
    use k8s_types::apps::v1::{DaemonSet, Deployment, ReplicaSet, StatefulSet};
    let template = json!({"metadata": {"labels": {"app": "w"}},
        "spec": {"containers": [{"name": "c", "image": "nginx"}]}});
    let spec =
        json!({"replicas": 1, "selector": {"matchLabels": {"app": "w"}}, "template": template});
    let workload =
        |status: Value| json!({"metadata": meta("w", true), "spec": spec, "status": status});
    let deployment = status_errors::<Deployment>(
        workload(json!({"replicas": 3, "collisionCount": 2})),
        workload(
            json!({"replicas": 1, "updatedReplicas": 2, "readyReplicas": 2,
            "availableReplicas": 3, "terminatingReplicas": -1, "collisionCount": 1}),
        ),
    )
    .unwrap();
    assert_eq!(
        deployment,
        [
            "status.terminatingReplicas: Invalid value: -1: must be greater than or equal to 0",
            "status.updatedReplicas: Invalid value: 2: cannot be greater than status.replicas",
            "status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas",
            "status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas",
            "status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas",
            "status.collisionCount: Invalid value: 1: cannot be decremented",
        ]
    );
    let replica_set = status_errors::<ReplicaSet>(
        workload(json!({})),
        workload(
            json!({"replicas": 1, "fullyLabeledReplicas": 2, "readyReplicas": 1,
            "availableReplicas": 2, "observedGeneration": -1}),
        ),
    )
    .unwrap();
    assert_eq!(
        replica_set,
        [
            "status.observedGeneration: Invalid value: -1: must be greater than or equal to 0",
            "status.fullyLabeledReplicas: Invalid value: 2: cannot be greater than status.replicas",
            "status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas",
            "status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas",
        ]
    );
    let stateful_set = status_errors::<StatefulSet>(
        workload(json!({"collisionCount": 3})),
        workload(json!({"replicas": 1, "readyReplicas": 2, "availableReplicas": 3})),
    )
    .unwrap();
    assert_eq!(
        stateful_set,
        [
            "status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas",
            "status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas",
            "status.availableReplicas: Invalid value: 3: cannot be greater than status.readyReplicas",
            "status.collisionCount: Invalid value: 0: cannot be decremented",
        ]
    );
    let daemon_set = status_errors::<DaemonSet>(
        workload(json!({"collisionCount": 1})),
        workload(json!({"numberReady": -1, "numberUnavailable": -2})),
    )
    .unwrap();
    assert_eq!(
        daemon_set,
        [
            "status.numberReady: Invalid value: -1: must be greater than or equal to 0",
            "status.numberUnavailable: Invalid value: -2: must be greater than or equal to 0",
            "status.collisionCount: Invalid value: 0: cannot be decremented",
        ]
    );
}

#[test]
fn ingress_status_points_are_ips_and_dns_names() {
    use k8s_types::networking::v1::Ingress;
    let spec = json!({"defaultBackend": {"service": {"name": "web", "port": {"number": 80}}}});
    let ingress = |points: Value| {
        json!({"metadata": meta("ing", true), "spec": spec,
        "status": {"loadBalancer": {"ingress": points}}})
    };
    let errors = status_errors::<Ingress>(
        ingress(json!([{"ip": "010.0.0.9"}])),
        ingress(json!([{"ip": "010.0.0.9"}, {"ip": "010.0.0.1"}, {"hostname": "10.0.0.2"}])),
    )
    .unwrap();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors[0].starts_with("status.loadBalancer.ingress[1].ip: Invalid value: \"010.0.0.1\""),
        "{errors:?}"
    );
    assert_eq!(
        errors[1],
        "status.loadBalancer.ingress[2].hostname: Invalid value: \"10.0.0.2\": must be a DNS name, not an IP address"
    );
}

#[test]
fn resource_quota_status_names_and_values() {
    use k8s_types::core::v1::ResourceQuota;
    let quota = |status: Value| json!({"metadata": meta("q", true), "spec": {"hard": {"cpu": "2"}}, "status": status});
    let errors = status_errors::<ResourceQuota>(
        quota(json!({})),
        quota(json!({"hard": {"bad name!": "1"}, "used": {"cpu": "-500m", "memory": "1Gi"}})),
    )
    .unwrap();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(
        errors[0].starts_with(
            "status.hard[bad name!]: Invalid value: \"bad name!\": name part must consist of"
        ),
        "{errors:?}"
    );
    assert_eq!(
        errors[1..],
        [
            "status.hard[bad name!]: Invalid value: \"bad name!\": must be a standard resource for quota",
            "status.used[cpu]: Invalid value: \"-500m\": must be greater than or equal to 0",
        ]
    );
}

#[test]
fn priority_and_fairness_condition_types() {
    use k8s_types::flowcontrol::v1::{FlowSchema, PriorityLevelConfiguration};
    let conditions = json!([{"type": "Dangling", "status": "True"},
        {"type": "Dangling", "status": "False"}, {"status": "True"}]);
    let expected = [
        "status.conditions[1].type: Duplicate value: \"Dangling\"",
        "status.conditions[2].type: Required value",
    ];
    let flow_schema = |status: Value| {
        json!({"metadata": meta("fs", false),
        "spec": {"priorityLevelConfiguration": {"name": "pl"}}, "status": status})
    };
    let errors = status_errors::<FlowSchema>(
        flow_schema(json!({})),
        flow_schema(json!({"conditions": conditions})),
    )
    .unwrap();
    assert_eq!(errors, expected);
    let level = |status: Value| {
        json!({"metadata": meta("pl", false),
        "spec": {"type": "Limited", "limited": {"limitResponse": {"type": "Reject"}}}, "status": status})
    };
    let errors = status_errors::<PriorityLevelConfiguration>(
        level(json!({})),
        level(json!({"conditions": conditions})),
    )
    .unwrap();
    assert_eq!(errors, expected);
}

#[test]
fn storage_version_status_as_on_create() {
    use k8s_types::apiserverinternal::v1alpha1::StorageVersion;
    let sv = |status: Value| json!({"metadata": meta("apps.deployments", false), "spec": {}, "status": status});
    let errors = status_errors::<StorageVersion>(
        sv(json!({})),
        sv(
            json!({"commonEncodingVersion": "apps/v1", "storageVersions": [{"apiServerID": "a",
            "encodingVersion": "apps/v1", "decodableVersions": ["apps/v1"],
            "servedVersions": ["apps/v2"]}]}),
        ),
    )
    .unwrap();
    assert_eq!(
        errors,
        [
            "status.storageVersions[0].servedVersions[0]: Invalid value: \"apps/v2\": individual served version : apps/v2 must be included in decodableVersions : [apps/v1]"
        ]
    );
}

#[test]
fn job_status_transitions_are_checked_where_they_changed() {
    let spec = json!({
        "completionMode": "Indexed", "completions": 4, "parallelism": 2,
        "backoffLimitPerIndex": 1,
        "selector": {"matchLabels": {"job": "w"}},
        "template": {"metadata": {"labels": {"job": "w"}},
                     "spec": {"restartPolicy": "Never",
                              "containers": [{"name": "w", "image": "busybox"}]}}});
    let old = json!({"metadata": meta("w", true), "spec": spec, "status": {
        "startTime": "2026-01-01T00:00:00Z", "active": 2, "succeeded": 2, "failed": 1,
        "completedIndexes": "0,2"}});
    // Finished with Pods still active, counters going down, indexes that overlap.
    let mut new = old.clone();
    new["status"] = json!({
        "startTime": "2026-01-01T00:00:00Z", "active": 1, "succeeded": 1, "failed": 0,
        "completedIndexes": "0,2", "failedIndexes": "2",
        "conditions": [{"type": "FailureTarget", "status": "True"},
                       {"type": "Failed", "status": "True"}]});
    assert_eq!(
        status_errors::<k8s_types::batch::v1::Job>(old.clone(), new).unwrap(),
        [
            "status.active: Invalid value: 1: active>0 is invalid for finished job",
            "status.failedIndexes: Invalid value: \"2\": failedIndexes and completedIndexes overlap at index: 2",
            "status.failed: Invalid value: 0: cannot decrease the failed counter",
            "status.succeeded: Invalid value: 1: cannot decrease the succeeded counter",
        ]
    );
    // A status that was already wrong and did not change is let through.
    let mut wrong = old.clone();
    wrong["status"]["ready"] = json!(5);
    let mut unrelated = wrong.clone();
    unrelated["status"]["succeeded"] = json!(3);
    assert_eq!(
        status_errors::<k8s_types::batch::v1::Job>(wrong, unrelated).unwrap(),
        Vec::<String>::new()
    );
}

#[test]
fn namespace_status_phase_follows_the_deletion_timestamp() {
    use k8s_types::core::v1::Namespace;
    let old = json!({"metadata": meta("team", false), "status": {"phase": "Active"}});
    let mut terminating = old.clone();
    terminating["status"]["phase"] = json!("Terminating");
    assert_eq!(
        status_errors::<Namespace>(old.clone(), terminating.clone()).unwrap(),
        [
            "status.Phase: Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty"
        ]
    );
    let mut deleted = terminating;
    deleted["metadata"]["deletionTimestamp"] = json!("2026-01-01T00:00:00Z");
    assert_eq!(
        status_errors::<Namespace>(deleted.clone(), deleted.clone()).unwrap(),
        Vec::<String>::new()
    );
    let mut active = deleted.clone();
    active["status"]["phase"] = json!("Active");
    assert_eq!(
        status_errors::<Namespace>(deleted, active).unwrap(),
        [
            "status.Phase: Invalid value: \"Active\": may only be 'Terminating' if `deletionTimestamp` is not empty"
        ]
    );
}

#[test]
fn storage_version_migration_status_is_set_once_and_never_taken_back() {
    #[cfg(feature = "v1_37")]
    use k8s_types::storagemigration::v1::StorageVersionMigration;
    #[cfg(not(feature = "v1_37"))]
    use k8s_types::storagemigration::v1beta1::StorageVersionMigration;
    let condition = |t: &str, s: &str| {
        json!({"type": t, "status": s, "reason": "Done", "message": "m",
               "lastTransitionTime": "2026-01-01T00:00:00Z"})
    };
    let old = json!({"metadata": meta("m", false),
                     "spec": {"resource": {"group": "apps", "resource": "deployments"}},
                     "status": {"resourceVersion": "1200",
                                "conditions": [condition("Succeeded", "True")]}});
    let mut new = old.clone();
    new["status"] = json!({"resourceVersion": "012",
                           "conditions": [condition("Succeeded", "False")]});
    let errs = status_errors::<StorageVersionMigration>(old, new).unwrap();
    assert_eq!(errs.len(), 3, "{errs:?}");
    assert_eq!(
        errs[0],
        "status.resourceVersion: Invalid value: \"012\": resource version is not well formed: 012"
    );
    assert_eq!(
        errs[1],
        "status.resourceVersion: Invalid value: \"012\": field is immutable"
    );
    assert!(
        errs[2].ends_with(": Success condition cannot be set to false once it is true"),
        "{}",
        errs[2]
    );
}

#[test]
fn device_taint_rule_status_has_at_most_eight_valid_conditions() {
    #[cfg(feature = "v1_37")]
    use k8s_types::resource::v1::DeviceTaintRule;
    #[cfg(not(feature = "v1_37"))]
    use k8s_types::resource::v1beta2::DeviceTaintRule;
    let condition = |t: String| {
        json!({"type": t, "status": "True", "reason": "Applied", "message": "m",
               "lastTransitionTime": "2026-01-01T00:00:00Z"})
    };
    let old = json!({"metadata": meta("rule", false),
                     "spec": {"deviceSelector": {"driver": "gpu.example.com"},
                              "taint": {"key": "example.com/broken", "effect": "NoSchedule"}}});
    let mut new = old.clone();
    new["status"]["conditions"] = (0..9).map(|i| condition(format!("Type{i}"))).collect();
    assert_eq!(
        status_errors::<DeviceTaintRule>(old, new).unwrap(),
        ["status.conditions: Too many: 9: must have at most 8 items"]
    );
}

#[test]
fn pod_group_claim_statuses_name_the_spec_s_claims() {
    #[cfg(not(feature = "v1_37"))]
    use k8s_types::scheduling::v1alpha2::PodGroup;
    #[cfg(feature = "v1_37")]
    use k8s_types::scheduling::v1beta1::PodGroup;
    let mut spec = json!({"schedulingPolicy": {"basic": {}},
                          "resourceClaims": [{"name": "gpu", "resourceClaimName": "gpus"}]});
    if cfg!(feature = "v1_37") {
        spec["disruptionMode"] = json!({"all": {}});
    }
    let old = json!({"metadata": meta("group", true), "spec": spec});
    let mut new = old.clone();
    new["status"]["resourceClaimStatuses"] =
        json!([{"name": "gpu", "resourceClaimName": "gpus"}, {"name": "tpu"}]);
    assert_eq!(
        status_errors::<PodGroup>(old, new).unwrap(),
        [
            "status.resourceClaimStatuses[1].name: Invalid value: \"tpu\": must match the name of an entry in `spec.resourceClaims`"
        ]
    );
}

#[test]
fn a_resource_pool_status_request_s_answer_never_changes() {
    use k8s_types::resource::v1alpha3::ResourcePoolStatusRequest;
    let old = json!({"metadata": meta("req", false), "spec": {"driver": "gpu.example.com"},
                     "status": {"poolCount": 0}});
    let mut new = old.clone();
    new["status"]["poolCount"] = json!(1);
    // Go prints its internal struct, which has no JSON tags.
    assert_eq!(
        status_errors::<ResourcePoolStatusRequest>(old, new).unwrap(),
        [
            "status: Invalid value: {\"PoolCount\":1,\"Pools\":null,\"Conditions\":null}: field is immutable"
        ]
    );
}

#[test]
fn resource_claim_status_needs_an_allocation_and_keeps_it() {
    use k8s_types::resource::v1::ResourceClaim;
    let spec = json!({"devices": {"requests": [
        {"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}}]}});
    let pending = json!({"metadata": meta("claim", true), "spec": spec});
    // Consumers need an allocation, and a device's status one of its devices.
    let mut new = pending.clone();
    new["status"] = json!({
        "reservedFor": [{"resource": "pods", "name": "web-0", "uid": "u-1"}],
        "devices": [{"driver": "gpu.example.com", "pool": "pool", "device": "gpu-0"}]});
    assert_eq!(
        status_errors::<ResourceClaim>(pending.clone(), new).unwrap(),
        [
            "status.devices[0]: Invalid value: {\"Driver\":\"gpu.example.com\",\"Pool\":\"pool\",\"Device\":\"gpu-0\",\"ShareID\":\"\"}: must be an allocated device in the claim",
            "status.reservedFor: Forbidden: may not be specified when `allocated` is not set",
        ]
    );
    // A first allocation's results name the spec's requests.
    let mut allocated = pending.clone();
    allocated["status"] = json!({"allocation": {"devices": {"results": [
        {"request": "gpu", "driver": "gpu.example.com", "pool": "pool", "device": "gpu-0"}]}}});
    let mut wrong = pending.clone();
    wrong["status"] = allocated["status"].clone();
    wrong["status"]["allocation"]["devices"]["results"][0]["request"] = json!("tpu");
    assert_eq!(
        status_errors::<ResourceClaim>(pending.clone(), wrong).unwrap(),
        [
            "status.allocation.devices.results[0].request: Invalid value: \"tpu\": must be the name of a request in the claim or the name of a request and a subrequest separated by '/'"
        ]
    );
    assert_eq!(
        status_errors::<ResourceClaim>(pending, allocated.clone()).unwrap(),
        Vec::<String>::new()
    );
    // Once set, the allocation stays: 1.36 prints the new one as Go's internal struct,
    // 1.37's declarative rule reports it alone.
    let mut moved = allocated.clone();
    moved["status"]["allocation"]["devices"]["results"][0]["device"] = json!("gpu-1");
    let expected = if cfg!(feature = "v1_37") {
        "status.allocation: Invalid value: null: field cannot be modified once set"
    } else {
        "status.allocation: Invalid value: {\"Devices\":{\"Results\":[{\"Request\":\"gpu\",\"Driver\":\"gpu.example.com\",\"Pool\":\"pool\",\"Device\":\"gpu-1\",\"AdminAccess\":null,\"Tolerations\":null,\"BindingConditions\":null,\"BindingFailureConditions\":null,\"ShareID\":null,\"ConsumedCapacity\":null}],\"Config\":null},\"NodeSelector\":null,\"AllocationTimestamp\":null}: field is immutable"
    };
    assert_eq!(
        status_errors::<ResourceClaim>(allocated, moved).unwrap(),
        [expected]
    );
}

#[test]
fn resource_claim_device_status_share_ids_and_addresses() {
    use k8s_types::resource::v1::ResourceClaim;
    let spec = json!({"devices": {"requests": [
        {"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}}]}});
    let mut old = json!({"metadata": meta("claim", true), "spec": spec});
    old["status"] = json!({"allocation": {"devices": {"results": [
        {"request": "gpu", "driver": "gpu.example.com", "pool": "pool", "device": "gpu-0"}]}}});
    let mut new = old.clone();
    new["status"]["devices"] = json!([
        {"driver": "gpu.example.com", "pool": "pool", "device": "gpu-0",
         "networkData": {"ips": ["10.9.8.7/24", "10.9.8.7", "2001:DB8::1/64", "::ffff:10.0.0.1/120"]}},
        {"driver": "gpu.example.com", "pool": "pool", "device": "gpu-0", "shareID": "x"}]);
    let share = if cfg!(feature = "v1_37") {
        // The declarative format rule stands in for Go's hand-written uuid check.
        "status.devices[1].shareID: Invalid value: \"x\": must be a lowercase UUID in 8-4-4-4-12 format"
    } else {
        "status.devices[1].shareID: Invalid value: \"x\": error validating uid: invalid UUID length: 1"
    };
    let not_allocated = "status.devices[1]: Invalid value: {\"Driver\":\"gpu.example.com\",\"Pool\":\"pool\",\"Device\":\"gpu-0\",\"ShareID\":\"x\"}: must be an allocated device in the claim";
    let addresses = [
        "status.devices[0].networkData.ips[1]: Invalid value: \"10.9.8.7\": must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)",
        "status.devices[0].networkData.ips[2]: Invalid value: \"2001:DB8::1/64\": must be in canonical form (\"2001:db8::1/64\")",
        "status.devices[0].networkData.ips[3]: Invalid value: \"::ffff:10.0.0.1/120\": must be in canonical form (\"10.0.0.1/24\")",
    ];
    let mut expected: Vec<&str> = addresses.to_vec();
    if cfg!(feature = "v1_37") {
        expected.extend([not_allocated, share]);
    } else {
        expected.extend([share, not_allocated]);
    }
    assert_eq!(status_errors::<ResourceClaim>(old, new).unwrap(), expected);
}
