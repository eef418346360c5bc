//! The text Go's validation writes of its internal structs (`k8s.io/kubernetes/pkg/apis`):
//! `diff.Diff` of two values appended to a message, `json.Marshal` of a bad value. Each
//! expected text is what kube-apiserver's strategy (the oracle's `validate`, releases
//! 1.37.2 and 1.36.3) answered for the same old and new objects.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;

use super::validation::update_errors;

/// Whether `errs` has Go's error `field: message`.
fn has(errs: &[String], field: &str, message: &str) -> bool {
    let want = format!("{field}: {message}");
    errs.contains(&want)
}

/// A claim's spec changed: Go's `ValidatePersistentVolumeClaimUpdate` appends `diff.Diff` of the internal specs.
#[test]
fn a_claim_spec_change_ends_in_gos_diff() {
    let errs = update_errors::<k8s_types::core::v1::PersistentVolumeClaim>(
        json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "c", "uid": "u", "resourceVersion": "1", "creationTimestamp": "2024-01-01T00:00:00Z", "namespace": "default"}, "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}),
        json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "c", "uid": "u", "resourceVersion": "1", "creationTimestamp": "2024-01-01T00:00:00Z", "namespace": "default"}, "spec": {"accessModes": ["ReadWriteMany"], "resources": {"requests": {"storage": "1Gi"}}}}),
    );
    let go = "Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n@@ -1,6 +1,6 @@\n {\n  \"AccessModes\": [\n-  \"ReadWriteOnce\"\n+  \"ReadWriteMany\"\n  ],\n  \"Selector\": null,\n  \"Resources\": {\n";
    assert!(has(&errs, "spec", go), "{errs:#?}");
}

/// A volume's source changed: Go's `ValidatePersistentVolumeUpdate` appends `diff.Diff` of the internal sources (every source, nil ones as `null`).
#[test]
fn a_volume_source_change_ends_in_gos_diff() {
    let errs = update_errors::<k8s_types::core::v1::PersistentVolume>(
        json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "v", "uid": "u", "resourceVersion": "1", "creationTimestamp": "2024-01-01T00:00:00Z"}, "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "nfs": {"server": "a", "path": "/p"}}}),
        json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "v", "uid": "u", "resourceVersion": "1", "creationTimestamp": "2024-01-01T00:00:00Z"}, "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "nfs": {"server": "b", "path": "/p"}}}),
    );
    let go = "Forbidden: spec.persistentvolumesource is immutable after creation\n@@ -4,7 +4,7 @@\n  \"HostPath\": null,\n  \"Glusterfs\": null,\n  \"NFS\": {\n-  \"Server\": \"a\",\n+  \"Server\": \"b\",\n   \"Path\": \"/p\",\n   \"ReadOnly\": false\n  },\n";
    assert!(has(&errs, "spec.persistentvolumesource", go), "{errs:#?}");
}

/// A pod's host network changed: Go's `ValidatePodUpdate` appends `diff.Diff` of the internal specs; 1.36's internal spec keeps the host namespaces in its security context, always set (`Convert_v1_PodSpec_To_core_PodSpec`), 1.37's is v1's.
#[test]
fn a_pod_spec_change_ends_in_gos_diff_of_the_releases_internal_spec() {
    let errs = update_errors::<k8s_types::core::v1::Pod>(
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "uid": "u", "resourceVersion": "1", "creationTimestamp": "2024-01-01T00:00:00Z", "namespace": "default"}, "spec": {"hostNetwork": false, "containers": [{"name": "c", "image": "i"}]}}),
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "uid": "u", "resourceVersion": "1", "creationTimestamp": "2024-01-01T00:00:00Z", "namespace": "default"}, "spec": {"hostNetwork": true, "containers": [{"name": "c", "image": "i"}]}}),
    );
    #[cfg(feature = "v1_37")]
    let go = "Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n@@ -44,7 +44,7 @@\n  \"DeprecatedServiceAccount\": \"\",\n  \"AutomountServiceAccountToken\": null,\n  \"NodeName\": \"\",\n- \"HostNetwork\": false,\n+ \"HostNetwork\": true,\n  \"HostPID\": false,\n  \"HostIPC\": false,\n  \"ShareProcessNamespace\": null,\n";
    #[cfg(not(feature = "v1_37"))]
    let go = "Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n@@ -44,7 +44,7 @@\n  \"AutomountServiceAccountToken\": null,\n  \"NodeName\": \"\",\n  \"SecurityContext\": {\n-  \"HostNetwork\": false,\n+  \"HostNetwork\": true,\n   \"HostPID\": false,\n   \"HostIPC\": false,\n   \"ShareProcessNamespace\": null,\n";
    assert!(has(&errs, "spec", go), "{errs:#?}");
}

/// A job's template changed: Go writes the bad value with `json.Marshal` of its internal `PodTemplateSpec` (the metadata's tagged fields inlined, the spec's Go names, every field).
#[test]
fn a_job_template_change_shows_gos_internal_template() {
    let errs = update_errors::<k8s_types::batch::v1::Job>(
        json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j", "uid": "u", "resourceVersion": "1", "creationTimestamp": "2024-01-01T00:00:00Z", "namespace": "default"}, "spec": {"manualSelector": true, "selector": {"matchLabels": {"app": "j"}}, "template": {"metadata": {"labels": {"app": "j"}}, "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "a"}]}}}}),
        json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j", "uid": "u", "resourceVersion": "1", "creationTimestamp": "2024-01-01T00:00:00Z", "namespace": "default"}, "spec": {"manualSelector": true, "selector": {"matchLabels": {"app": "j"}}, "template": {"metadata": {"labels": {"app": "j"}}, "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "b"}]}}}}),
    );
    #[cfg(feature = "v1_37")]
    let go = "Invalid value: {\"labels\":{\"app\":\"j\"},\"Spec\":{\"Volumes\":null,\"InitContainers\":null,\"Containers\":[{\"Name\":\"c\",\"Image\":\"b\",\"Command\":null,\"Args\":null,\"WorkingDir\":\"\",\"Ports\":null,\"EnvFrom\":null,\"Env\":null,\"Resources\":{\"Limits\":null,\"Requests\":null,\"Claims\":null},\"ResizePolicy\":null,\"RestartPolicy\":null,\"RestartPolicyRules\":null,\"VolumeMounts\":null,\"VolumeDevices\":null,\"LivenessProbe\":null,\"ReadinessProbe\":null,\"StartupProbe\":null,\"Lifecycle\":null,\"TerminationMessagePath\":\"/dev/termination-log\",\"TerminationMessagePolicy\":\"File\",\"ImagePullPolicy\":\"Always\",\"SecurityContext\":null,\"Stdin\":false,\"StdinOnce\":false,\"TTY\":false}],\"EphemeralContainers\":null,\"RestartPolicy\":\"Never\",\"TerminationGracePeriodSeconds\":30,\"ActiveDeadlineSeconds\":null,\"DNSPolicy\":\"ClusterFirst\",\"NodeSelector\":null,\"ServiceAccountName\":\"\",\"DeprecatedServiceAccount\":\"\",\"AutomountServiceAccountToken\":null,\"NodeName\":\"\",\"HostNetwork\":false,\"HostPID\":false,\"HostIPC\":false,\"ShareProcessNamespace\":null,\"SecurityContext\":{\"SELinuxOptions\":null,\"WindowsOptions\":null,\"RunAsUser\":null,\"RunAsGroup\":null,\"RunAsNonRoot\":null,\"SupplementalGroups\":null,\"SupplementalGroupsPolicy\":null,\"FSGroup\":null,\"Sysctls\":null,\"FSGroupChangePolicy\":null,\"SeccompProfile\":null,\"AppArmorProfile\":null,\"SELinuxChangePolicy\":null},\"ImagePullSecrets\":null,\"Hostname\":\"\",\"Subdomain\":\"\",\"Affinity\":null,\"SchedulerName\":\"default-scheduler\",\"Tolerations\":null,\"HostAliases\":null,\"PriorityClassName\":\"\",\"Priority\":null,\"DNSConfig\":null,\"ReadinessGates\":null,\"RuntimeClassName\":null,\"EnableServiceLinks\":null,\"PreemptionPolicy\":null,\"Overhead\":null,\"TopologySpreadConstraints\":null,\"SetHostnameAsFQDN\":null,\"OS\":null,\"HostUsers\":null,\"SchedulingGates\":null,\"ResourceClaims\":null,\"Resources\":null,\"HostnameOverride\":null,\"SchedulingGroup\":null,\"EvictionResponders\":null}}: field is immutable";
    #[cfg(not(feature = "v1_37"))]
    let go = "Invalid value: {\"labels\":{\"app\":\"j\"},\"Spec\":{\"Volumes\":null,\"InitContainers\":null,\"Containers\":[{\"Name\":\"c\",\"Image\":\"b\",\"Command\":null,\"Args\":null,\"WorkingDir\":\"\",\"Ports\":null,\"EnvFrom\":null,\"Env\":null,\"Resources\":{\"Limits\":null,\"Requests\":null,\"Claims\":null},\"ResizePolicy\":null,\"RestartPolicy\":null,\"RestartPolicyRules\":null,\"VolumeMounts\":null,\"VolumeDevices\":null,\"LivenessProbe\":null,\"ReadinessProbe\":null,\"StartupProbe\":null,\"Lifecycle\":null,\"TerminationMessagePath\":\"/dev/termination-log\",\"TerminationMessagePolicy\":\"File\",\"ImagePullPolicy\":\"Always\",\"SecurityContext\":null,\"Stdin\":false,\"StdinOnce\":false,\"TTY\":false}],\"EphemeralContainers\":null,\"RestartPolicy\":\"Never\",\"TerminationGracePeriodSeconds\":30,\"ActiveDeadlineSeconds\":null,\"DNSPolicy\":\"ClusterFirst\",\"NodeSelector\":null,\"ServiceAccountName\":\"\",\"AutomountServiceAccountToken\":null,\"NodeName\":\"\",\"SecurityContext\":{\"HostNetwork\":false,\"HostPID\":false,\"HostIPC\":false,\"ShareProcessNamespace\":null,\"HostUsers\":null,\"SELinuxOptions\":null,\"WindowsOptions\":null,\"RunAsUser\":null,\"RunAsGroup\":null,\"RunAsNonRoot\":null,\"SupplementalGroups\":null,\"SupplementalGroupsPolicy\":null,\"FSGroup\":null,\"FSGroupChangePolicy\":null,\"Sysctls\":null,\"SeccompProfile\":null,\"AppArmorProfile\":null,\"SELinuxChangePolicy\":null},\"ImagePullSecrets\":null,\"Hostname\":\"\",\"Subdomain\":\"\",\"SetHostnameAsFQDN\":null,\"Affinity\":null,\"SchedulerName\":\"default-scheduler\",\"Tolerations\":null,\"HostAliases\":null,\"PriorityClassName\":\"\",\"Priority\":null,\"PreemptionPolicy\":null,\"DNSConfig\":null,\"ReadinessGates\":null,\"RuntimeClassName\":null,\"Overhead\":null,\"EnableServiceLinks\":null,\"TopologySpreadConstraints\":null,\"OS\":null,\"SchedulingGates\":null,\"ResourceClaims\":null,\"Resources\":null,\"HostnameOverride\":null,\"SchedulingGroup\":null}}: field is immutable";
    assert!(has(&errs, "spec.template", go), "{errs:#?}");
}

/// An approval condition modified: Go's `validateConditions` appends `diff.Diff` of the
/// internal condition lists (a `metav1.Time` as its own JSON, a zero one `null`, the
/// message's `<&>` escaped as Go's encoder escapes them).
#[test]
fn a_modified_approval_condition_ends_in_gos_diff() {
    let csr = |reason: &str| {
        json!({"apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest",
            "metadata": {"name": "x", "uid": "u", "resourceVersion": "1",
                "creationTimestamp": "2024-01-01T00:00:00Z"},
            "spec": {"request": "", "signerName": "example.com/s", "usages": ["digital signature"]},
            "status": {"conditions": [{"type": "Approved", "status": "True", "reason": reason,
                "message": "m<&>", "lastUpdateTime": "2024-01-01T00:00:00Z"}]}})
    };
    let errs =
        update_errors::<k8s_types::certificates::v1::CertificateSigningRequest>(csr("A"), csr("B"));
    let go = "Forbidden: updates may not modify a condition of type \"Approved\"\n@@ -2,7 +2,7 @@\n  {\n   \"Type\": \"Approved\",\n   \"Status\": \"True\",\n-  \"Reason\": \"A\",\n+  \"Reason\": \"B\",\n   \"Message\": \"m\\u003c\\u0026\\u003e\",\n   \"LastUpdateTime\": \"2024-01-01T00:00:00Z\",\n   \"LastTransitionTime\": null\n";
    assert!(has(&errs, "status.conditions", go), "{errs:#?}");
}

/// A gated pod's required node affinity terms, nil before and empty after: no change to
/// Go's `Semantic.DeepEqual`, so the munged spec keeps the new terms and the diff shows
/// them (seed 261 of the oracle's run from 200).
#[test]
fn gated_pod_terms_nil_then_empty_stay_in_the_diff() {
    let pod = |terms: serde_json::Value, restart: &str| {
        json!({"metadata": {"name": "web", "namespace": "default"},
            "spec": {"schedulingGates": [{"name": "example.com/wait"}], "restartPolicy": restart,
                "containers": [{"name": "web", "image": "nginx"}],
                "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
                    {"nodeSelectorTerms": terms}}}}})
    };
    let errs = update_errors::<k8s_types::core::v1::Pod>(
        pod(json!(null), "Always"),
        pod(json!([]), "Never"),
    );
    let forbidden = errs
        .iter()
        .find(|e| e.starts_with("spec: Forbidden: pod updates may not change"))
        .expect("the spec's diff");
    assert!(
        forbidden.contains("-    \"NodeSelectorTerms\": null\n+    \"NodeSelectorTerms\": []\n"),
        "{forbidden}"
    );
}
