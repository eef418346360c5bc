//! Go's `TestValidatePodStatusUpdate` and its neighbours (`TestPodIPsValidation`,
//! `TestHostIPsValidation`, `TestValidateContainerStatusUsers`,
//! `TestValidateContainerStatusAllocatedResourcesStatus`), case by case.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Value, json};

use k8s_types::core::v1::Pod;
use k8s_types::validation::validate_pod_status_update;

fn pod(spec: Value, status: Value) -> Pod {
    serde_json::from_value(json!({
        "metadata": {"name": "p", "namespace": "ns", "resourceVersion": "1"},
        "spec": spec,
        "status": status,
    }))
    .unwrap()
}

fn spec() -> Value {
    json!({"containers": [{"name": "c", "image": "i",
        "resources": {"requests": {"cpu": "1", "example.com/gpu": "1"},
                      "claims": [{"name": "claim", "request": "req"}]}}],
        "restartPolicy": "Never", "nodeName": "node"})
}

/// The errors of a write of `status` over `old_status`, both on [`spec`].
fn errors(old_status: Value, status: Value) -> Vec<String> {
    let old = pod(spec(), old_status);
    let new = pod(spec(), status);
    validate_pod_status_update(&new, &old)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn an_unchanged_status_is_valid() {
    let status = json!({"phase": "Running", "podIP": "10.0.0.1", "podIPs": [{"ip": "10.0.0.1"}],
        "hostIP": "1.1.1.1", "hostIPs": [{"ip": "1.1.1.1"}, {"ip": "::1"}]});
    assert!(errors(status.clone(), status).is_empty());
}

#[test]
fn conditions_generations_and_qos() {
    let errs = errors(
        json!({"qosClass": "BestEffort"}),
        json!({"qosClass": "Burstable", "observedGeneration": -1, "conditions": [
            {"type": "Ready", "status": "True", "observedGeneration": -2},
            {"type": "bad type!", "status": "True"}]}),
    );
    assert_eq!(
        errs,
        [
            "status.conditions[0].observedGeneration: Invalid value: -2: must be a non-negative integer",
            "status.conditions[1].Type: Invalid value: \"bad type!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            "status.observedGeneration: Invalid value: -1: must be a non-negative integer",
            "status.qosClass: Invalid value: \"Burstable\": field is immutable",
        ]
    );
}

#[test]
fn a_bound_pod_gets_no_nominated_node() {
    let errs = errors(json!({}), json!({"nominatedNodeName": "Bad_Node"}));
    assert_eq!(errs.len(), 2);
    assert!(errs[0].starts_with(
        "status.nominatedNodeName: Invalid value: \"Bad_Node\": a lowercase RFC 1123 subdomain"
    ));
    assert_eq!(
        errs[1],
        "status.nominatedNodeName: Forbidden: may not be set on pods that are already bound to a node"
    );
    // Kept as it was: nothing to say.
    let same = json!({"nominatedNodeName": "n"});
    assert!(errors(same.clone(), same).is_empty());
}

#[test]
fn terminated_containers_stay_terminated_unless_restarted() {
    let terminated = |code: i32| {
        json!({"containerStatuses": [{"name": "c", "ready": false,
        "restartCount": 0, "image": "i", "imageID": "",
        "state": {"terminated": {"exitCode": code}}}]})
    };
    let running = json!({"containerStatuses": [{"name": "c", "ready": true, "restartCount": 1,
        "image": "i", "imageID": "", "state": {"running": {}}}]});
    assert_eq!(
        errors(terminated(1), running.clone()),
        [
            "status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state"
        ]
    );
    // A restart rule matching the exit code lets it restart.
    let mut s = spec();
    s["containers"][0]["restartPolicy"] = json!("Never");
    s["containers"][0]["restartPolicyRules"] =
        json!([{"action": "Restart", "exitCodes": {"operator": "In", "values": [42]}}]);
    let old = pod(s.clone(), terminated(42));
    let new = pod(s.clone(), running.clone());
    assert!(validate_pod_status_update(&new, &old).is_empty());
    let old = pod(s, terminated(1));
    assert_eq!(validate_pod_status_update(&new, &old).len(), 1);
}

#[test]
fn ephemeral_containers_never_restart() {
    let status = |state: Value| {
        json!({"ephemeralContainerStatuses": [{"name": "e",
        "ready": false, "restartCount": 0, "image": "i", "imageID": "", "state": state}]})
    };
    assert_eq!(
        errors(
            status(json!({"terminated": {"exitCode": 0}})),
            status(json!({"running": {}}))
        ),
        [
            "status.ephemeralContainerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state"
        ]
    );
}

#[test]
fn pod_ips_are_valid_and_one_per_family() {
    let errs = errors(
        json!({}),
        json!({"podIP": "1.1.1.1", "podIPs": [
        {"ip": "1.1.1.1"}, {"ip": "2.2.2.2"}]}),
    );
    assert_eq!(
        errs,
        [
            "status.podIPs: Invalid value: [{\"IP\":\"1.1.1.1\"},{\"IP\":\"2.2.2.2\"}]: may specify no more than one IP for each IP family"
        ]
    );
    let errs = errors(
        json!({}),
        json!({"podIP": "001.1.1.1", "podIPs": [{"ip": "001.1.1.1"}]}),
    );
    assert_eq!(
        errs,
        ["status.podIPs[0]: Invalid value: \"001.1.1.1\": must not have leading 0s"]
    );
    // An address the pod had may stay.
    let kept = json!({"podIP": "001.1.1.1", "podIPs": [{"ip": "001.1.1.1"}]});
    assert!(errors(kept.clone(), kept).is_empty());
}

#[cfg(feature = "v1_37")]
#[test]
fn pod_ip_matches_pod_ips_from_1_37() {
    assert_eq!(
        errors(json!({}), json!({"podIP": "1.1.1.1"})),
        [
            "status.podIPs: Invalid value: null: podIP and podIPs must either both be set or both be unset"
        ]
    );
    assert_eq!(
        errors(json!({}), json!({"podIPs": [{"ip": "1.1.1.1"}]})),
        [
            "status.podIPs: Invalid value: [{\"IP\":\"1.1.1.1\"}]: podIP and podIPs must either both be set or both be unset"
        ]
    );
    assert_eq!(
        errors(
            json!({}),
            json!({"podIP": "1.1.1.1", "podIPs": [{"ip": "::1"}, {"ip": "1.1.1.1"}]})
        ),
        ["status.podIPs[0].ip: Invalid value: \"::1\": must be equal to `podIP`"]
    );
}

#[cfg(not(feature = "v1_37"))]
#[test]
fn pod_ip_need_not_match_pod_ips_on_1_36() {
    assert!(errors(json!({}), json!({"podIP": "1.1.1.1"})).is_empty());
}

#[test]
fn host_ips_start_with_host_ip() {
    let errs = errors(
        json!({}),
        json!({"hostIP": "1.1.1.1", "hostIPs": [
        {"ip": "2.2.2.2"}, {"ip": "bad"}]}),
    );
    assert_eq!(
        errs,
        [
            "status.hostIPs[0].ip: Invalid value: \"2.2.2.2\": must be equal to `hostIP`",
            "status.hostIPs[1]: Invalid value: \"bad\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
            "status.hostIPs: Internal error: failed to check for dual stack with error:invalid IP[1]: bad",
            "status.hostIPs: Invalid value: [{\"IP\":\"2.2.2.2\"},{\"IP\":\"bad\"}]: may specify no more than one IP for each IP family",
        ]
    );
}

#[test]
fn container_users_in_range() {
    let user = |uid: i64| {
        json!({"containerStatuses": [{"name": "c", "ready": false,
        "restartCount": 0, "image": "i", "imageID": "", "state": {},
        "user": {"linux": {"uid": uid, "gid": -1, "supplementalGroups": [1, -2]}}}]})
    };
    let errs = errors(json!({}), user(-1));
    #[cfg(feature = "v1_37")]
    let uid = "status.containerStatuses[0].user.linux.uid: Invalid value: -1: must be between 0 and 4294967295, inclusive";
    #[cfg(not(feature = "v1_37"))]
    let uid = "status.containerStatuses[0].user.linux.uid: Invalid value: -1: must be between 0 and 2147483647, inclusive";
    assert_eq!(
        errs,
        [
            uid,
            "status.containerStatuses[0].user.linux.gid: Invalid value: -1: must be between 0 and 2147483647, inclusive",
            "status.containerStatuses[0].user.linux.supplementalGroups[1]: Invalid value: -2: must be between 0 and 2147483647, inclusive",
        ]
    );
    // 1.37: a runtime may report any uid_t.
    let big = errors(json!({}), user(3_000_000_000));
    assert_eq!(big.len(), if cfg!(feature = "v1_37") { 2 } else { 3 });
    // A Windows pod's statuses have no Linux user.
    let mut s = spec();
    s["os"] = json!({"name": "windows"});
    let old = pod(s.clone(), json!({}));
    let new = pod(s, user(0));
    let errs: Vec<String> = validate_pod_status_update(&new, &old)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errs,
        ["status.containerStatuses[0].user.linux: Forbidden: cannot be set for a windows pod"]
    );
}

#[test]
fn allocated_resources_status_names_what_was_asked() {
    let status = |name: &str, resources: Value| {
        json!({"containerStatuses": [{"name": "c",
        "ready": false, "restartCount": 0, "image": "i", "imageID": "", "state": {},
        "allocatedResourcesStatus": [{"name": name, "resources": resources}]}],
        "ephemeralContainerStatuses": [{"name": "e", "ready": false, "restartCount": 0,
        "image": "i", "imageID": "", "state": {},
        "allocatedResourcesStatus": [{"name": "cpu"}]}]})
    };
    let errs = errors(
        json!({}),
        status(
            "memory",
            json!([{"resourceID": "a", "health": "Sick", "message": ""},
            {"resourceID": "a", "health": "Healthy"}]),
        ),
    );
    assert_eq!(
        errs,
        [
            "status.containerStatuses[0].allocatedResourcesStatus[0].name: Invalid value: \"memory\": must match one of the container's resource requests",
            "status.containerStatuses[0].allocatedResourcesStatus[0].resources[0].health: Unsupported value: \"Sick\": supported values: \"Healthy\", \"Unhealthy\", \"Unknown\"",
            "status.containerStatuses[0].allocatedResourcesStatus[0].resources[0].message: Required value: must be non-empty if specified",
            "status.containerStatuses[0].allocatedResourcesStatus[0].resources[1].resourceID: Duplicate value: \"a\"",
            "status.ephemeralContainerStatuses[0].allocatedResourcesStatus: Forbidden: must not be specified in container status",
        ]
    );
    let ok = errors(
        json!({}),
        status(
            "claim:claim/req",
            json!([{"resourceID": "a", "health": "Healthy"}]),
        ),
    );
    assert_eq!(ok.len(), 1, "{ok:?}");
    let bad = errors(json!({}), status("claim:claim", json!([])));
    assert!(
        bad[0].contains("must match one of the container's resource claims"),
        "{bad:?}"
    );
}

#[test]
fn resource_claim_statuses_name_the_specs_claims() {
    let errs = errors(
        json!({}),
        json!({"resourceClaimStatuses": [
        {"name": "x", "resourceClaimName": "Bad_Name"}, {"name": "x"}]}),
    );
    assert_eq!(errs.len(), 4, "{errs:?}");
    assert_eq!(
        errs[0],
        "status.resourceClaimStatuses[0].name: Invalid value: \"x\": must match the name of an entry in `spec.resourceClaims`"
    );
    assert_eq!(
        errs[3],
        "status.resourceClaimStatuses[1].name: Duplicate value: \"x\""
    );
}

#[test]
fn an_extended_resource_claim_status_maps_requests() {
    let errs = errors(
        json!({}),
        json!({"extendedResourceClaimStatus": {
        "requestMappings": [
            {"containerName": "c", "resourceName": "example.com/gpu", "requestName": "r"},
            {"containerName": "c", "resourceName": "example.com/gpu", "requestName": "r"},
            {"containerName": "nope", "resourceName": "x", "requestName": "R"}],
        "resourceClaimName": ""}}),
    );
    assert_eq!(
        errs,
        [
            "status.extendedResourceClaimStatus.requestMappings[1].containerName: Duplicate value: \"c\"",
            "status.extendedResourceClaimStatus.requestMappings[1].resourceName: Duplicate value: \"example.com/gpu\"",
            "status.extendedResourceClaimStatus.requestMappings[1].requestName: Duplicate value: \"r\"",
            "status.extendedResourceClaimStatus.requestMappings[2].containerName: Invalid value: \"nope\": must match the name of an entry in spec.initContainers.name or spec.containers.name",
            "status.extendedResourceClaimStatus.requestName: Invalid value: \"R\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
            "status.extendedResourceClaimStatus.resourceClaimName: Required value",
        ]
    );
}

#[cfg(feature = "v1_37")]
#[test]
fn node_allocatable_claim_statuses_from_1_37() {
    let errs = errors(
        json!({}),
        json!({"nodeAllocatableResourceClaimStatuses": [
        {"resourceClaimName": ""},
        {"resourceClaimName": "c", "mapping": [{"name": "gpu", "quantity": "-1"}],
         "overhead": [{"name": "memory"}, {"name": "cpu", "perPod": "-2"}]}]}),
    );
    assert_eq!(
        errs,
        [
            "status.nodeAllocatableResourceClaimStatuses[1].resourceClaimName: Invalid value: \"c\": no mapping found in pod reference",
            "status.nodeAllocatableResourceClaimStatuses[1].mapping[0].name: Invalid value: \"gpu\": must be a node allocatable resource name",
            "status.nodeAllocatableResourceClaimStatuses[1].mapping[0].quantity: Invalid value: \"-1\": must be non-negative",
            "status.nodeAllocatableResourceClaimStatuses[1].overhead[0]: Invalid value: \"\": at least one of perPod or perContainer must be set",
            "status.nodeAllocatableResourceClaimStatuses[1].overhead[1].perPod: Invalid value: \"-2\": must be non-negative",
        ]
    );
}

#[cfg(feature = "v1_37")]
#[test]
fn volume_health_names_the_specs_volumes_from_1_37() {
    let errs = errors(
        json!({}),
        json!({"volumeHealth": [{"name": "v",
        "healthConditions": [{"status": "Degraded", "reason": "bad reason"}]}]}),
    );
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert_eq!(errs[0], "status.volumeHealth[0].name: Not found: \"v\"");
    assert!(errs[1].starts_with(
        "status.volumeHealth[0].healthConditions[0].reason: Invalid value: \"bad reason\""
    ));
}

#[test]
fn the_node_name_is_not_changed_here() {
    let old = pod(spec(), json!({}));
    let mut new = old.clone();
    new.spec.node_name = "other".into();
    let errs: Vec<String> = validate_pod_status_update(&new, &old)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errs,
        ["status.nodeName: Forbidden: may not be changed directly"]
    );
}

#[cfg(not(feature = "v1_37"))]
#[test]
fn node_allocatable_claim_statuses_on_1_36() {
    let errs = errors(
        json!({}),
        json!({"nodeAllocatableResourceClaimStatuses": [
        {"resourceClaimName": "", "resources": {"example.com/x": "-1"}}]}),
    );
    assert_eq!(
        errs,
        [
            "status.nodeAllocatableResourceClaimStatuses[0].resourceClaimName: Required value: must not be empty",
            "status.nodeAllocatableResourceClaimStatuses[0].resourceClaimName: Invalid value: \"\": no mapping found in pod reference",
            "status.nodeAllocatableResourceClaimStatuses[0].containers: Required value: must not be empty",
            "status.nodeAllocatableResourceClaimStatuses[0].resources[example.com/x]: Invalid value: \"example.com/x\": must be a node allocatable resource name",
            "status.nodeAllocatableResourceClaimStatuses[0].resources[example.com/x]: Invalid value: \"-1\": must be non-negative",
        ]
    );
}

/// The Scheme runs it on a write of a Pod's `/status` (Go's pod status strategy), with
/// the object converted as Go converts it: a `podIP` alone gives `podIPs` its address.
#[test]
fn the_scheme_runs_it_for_pods_status() {
    let old = json!({"metadata": {"name": "p", "namespace": "ns", "resourceVersion": "1"},
        "spec": spec()});
    let mut new = old.clone();
    new["status"] = json!({"podIPs": [{"ip": "1.1.1.1"}, {"ip": "2.2.2.2"}], "podIP": "1.1.1.1"});
    let errs = crate::validation::status_errors::<Pod>(old.clone(), new).unwrap();
    assert_eq!(
        errs,
        [
            "status.podIPs: Invalid value: [{\"IP\":\"1.1.1.1\"},{\"IP\":\"2.2.2.2\"}]: may specify no more than one IP for each IP family"
        ]
    );
    let mut alone = old.clone();
    alone["status"] = json!({"podIP": "1.1.1.1"});
    assert_eq!(
        crate::validation::status_errors::<Pod>(old, alone).unwrap(),
        Vec::<String>::new()
    );
}
