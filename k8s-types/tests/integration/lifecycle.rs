//! The lifecycle table against what Kubernetes' release notes say each release removed
//! and deprecated: read from Go's methods, it must give the same answers.

use k8s_types::lifecycle::{self, ApiLifecycle, Release};

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn entry(api_version: &str, kind: &str) -> Result<&'static ApiLifecycle, String> {
    lifecycle::find_api_version(api_version, kind)
        .ok_or_else(|| format!("no lifecycle entry for {api_version} {kind}"))
}

fn release(s: &str) -> Result<Release, k8s_types::lifecycle::ParseReleaseError> {
    s.parse()
}

/// The removals of the releases upgrades stumble on, as the Kubernetes deprecation
/// guide lists them.
#[test]
fn removals_are_those_of_the_deprecation_guide() -> TestResult {
    let removed = [
        ("1.16", "extensions/v1beta1", "Deployment", "apps/v1"),
        ("1.16", "extensions/v1beta1", "DaemonSet", "apps/v1"),
        (
            "1.16",
            "extensions/v1beta1",
            "NetworkPolicy",
            "networking.k8s.io/v1",
        ),
        ("1.16", "apps/v1beta1", "StatefulSet", "apps/v1"),
        ("1.16", "apps/v1beta2", "ReplicaSet", "apps/v1"),
        (
            "1.22",
            "extensions/v1beta1",
            "Ingress",
            "networking.k8s.io/v1",
        ),
        (
            "1.22",
            "networking.k8s.io/v1beta1",
            "Ingress",
            "networking.k8s.io/v1",
        ),
        (
            "1.22",
            "apiextensions.k8s.io/v1beta1",
            "CustomResourceDefinition",
            "apiextensions.k8s.io/v1",
        ),
        (
            "1.22",
            "apiregistration.k8s.io/v1beta1",
            "APIService",
            "apiregistration.k8s.io/v1",
        ),
        (
            "1.22",
            "admissionregistration.k8s.io/v1beta1",
            "ValidatingWebhookConfiguration",
            "admissionregistration.k8s.io/v1",
        ),
        (
            "1.22",
            "rbac.authorization.k8s.io/v1beta1",
            "ClusterRole",
            "rbac.authorization.k8s.io/v1",
        ),
        (
            "1.22",
            "scheduling.k8s.io/v1beta1",
            "PriorityClass",
            "scheduling.k8s.io/v1",
        ),
        (
            "1.22",
            "storage.k8s.io/v1beta1",
            "StorageClass",
            "storage.k8s.io/v1",
        ),
        (
            "1.22",
            "coordination.k8s.io/v1beta1",
            "Lease",
            "coordination.k8s.io/v1",
        ),
        ("1.25", "batch/v1beta1", "CronJob", "batch/v1"),
        ("1.25", "policy/v1beta1", "PodDisruptionBudget", "policy/v1"),
        (
            "1.25",
            "discovery.k8s.io/v1beta1",
            "EndpointSlice",
            "discovery.k8s.io/v1",
        ),
        (
            "1.25",
            "autoscaling/v2beta1",
            "HorizontalPodAutoscaler",
            "autoscaling/v2",
        ),
        (
            "1.26",
            "autoscaling/v2beta2",
            "HorizontalPodAutoscaler",
            "autoscaling/v2",
        ),
        (
            "1.26",
            "flowcontrol.apiserver.k8s.io/v1beta1",
            "FlowSchema",
            "flowcontrol.apiserver.k8s.io/v1beta3",
        ),
        (
            "1.27",
            "storage.k8s.io/v1beta1",
            "CSIStorageCapacity",
            "storage.k8s.io/v1",
        ),
        (
            "1.29",
            "flowcontrol.apiserver.k8s.io/v1beta2",
            "PriorityLevelConfiguration",
            "flowcontrol.apiserver.k8s.io/v1beta3",
        ),
        (
            "1.32",
            "flowcontrol.apiserver.k8s.io/v1beta3",
            "FlowSchema",
            "flowcontrol.apiserver.k8s.io/v1",
        ),
    ];
    for (at, api_version, kind, replacement) in removed {
        let e = entry(api_version, kind)?;
        assert_eq!(e.removed, Some(release(at)?), "{api_version} {kind}");
        assert!(e.is_removed_in(release(at)?) && !e.is_removed_in(release("1.15")?));
        let r = e.replacement.map(|r| (r.api_version(), r.kind));
        assert_eq!(
            r,
            Some((replacement.to_owned(), kind)),
            "{api_version} {kind}"
        );
    }
    // Removed without a replacement named by Go.
    for (at, api_version, kind) in [
        ("1.25", "policy/v1beta1", "PodSecurityPolicy"),
        ("1.25", "events.k8s.io/v1beta1", "Event"),
        ("1.25", "node.k8s.io/v1beta1", "RuntimeClass"),
    ] {
        let e = entry(api_version, kind)?;
        assert_eq!(
            (e.removed, e.replacement),
            (Some(release(at)?), None),
            "{api_version} {kind}"
        );
    }
    Ok(())
}

/// Kinds deleted from `k8s.io/api` since keep the entry of the last release that had them.
#[test]
fn deleted_kinds_come_from_older_releases() -> TestResult {
    let psp = entry("policy/v1beta1", "PodSecurityPolicy")?;
    assert!(psp.module_version < "v0.36", "{psp:?}");
    assert!(!k8s_types::defines_type(
        "policy",
        "v1beta1",
        "PodSecurityPolicy"
    ));
    let hpa = entry("autoscaling/v2beta2", "HorizontalPodAutoscaler")?;
    assert!(!k8s_types::defines_type(
        "autoscaling",
        "v2beta2",
        "HorizontalPodAutoscaler"
    ));
    assert_eq!(hpa.deprecated, Some(release("1.23")?));
    let newest = lifecycle::modules()
        .iter()
        .rfind(|m| m.path == "k8s.io/api");
    assert_eq!(
        newest.map(|m| m.version),
        Some(entry("batch/v1beta1", "CronJob")?.module_version)
    );
    Ok(())
}

/// What Kubernetes 1.37 deprecates, from `k8s.io/api` v0.37.
#[test]
fn kubernetes_1_37_deprecations_are_known() -> TestResult {
    assert_eq!(lifecycle::latest_release(), release("1.37")?);
    let deprecated: Vec<String> = lifecycle::all()
        .iter()
        .filter(|e| e.deprecated == Some(Release::new(1, 37)) && !e.kind.ends_with("List"))
        .map(|e| format!("{} {}", e.api_version(), e.kind))
        .collect();
    for expected in [
        "admissionregistration.k8s.io/v1beta1 MutatingAdmissionPolicy",
        "certificates.k8s.io/v1beta1 ClusterTrustBundle",
        "storagemigration.k8s.io/v1beta1 StorageVersionMigration",
    ] {
        assert!(
            deprecated.iter().any(|d| d == expected),
            "{expected} not in {deprecated:?}"
        );
    }
    Ok(())
}

/// Hand-written methods count as the generated ones do (`core/v1/lifecycle.go`).
#[test]
fn hand_written_go_methods_are_read() -> TestResult {
    let endpoints = entry("v1", "Endpoints")?;
    assert_eq!(
        (endpoints.deprecated, endpoints.removed),
        (Some(release("1.33")?), None)
    );
    assert_eq!(
        endpoints.warning_message(),
        "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"
    );
    assert_eq!(
        entry("v1", "ComponentStatus")?.deprecated,
        Some(release("1.19")?)
    );
    // Go's test: Binding must never be deprecated (the pod binding subresource uses it).
    assert_eq!(entry("v1", "Binding")?.deprecated, None);
    assert_eq!(entry("apps/v1", "Deployment")?.warning_message(), "");
    Ok(())
}

#[test]
fn the_table_is_sorted_for_lookups() -> TestResult {
    let all = lifecycle::all();
    assert!(all.len() > 300, "{}", all.len());
    for pair in all.windows(2) {
        let key = |e: &ApiLifecycle| (e.group, e.version, e.kind);
        assert!(
            key(&pair[0]) < key(&pair[1]),
            "{:?} before {:?}",
            pair[0],
            pair[1]
        );
    }
    for m in lifecycle::modules() {
        assert!(
            m.sum.starts_with("h1:") && m.go_mod_sum.starts_with("h1:"),
            "{m:?}"
        );
    }
    Ok(())
}

#[test]
fn releases_read_as_go_reads_versions() -> TestResult {
    assert_eq!(release("1.37")?, Release::new(1, 37));
    assert_eq!(release("v1.25.3")?, Release::new(1, 25));
    assert_eq!(release("v1.29.0-gke.1200")?, Release::new(1, 29));
    assert_eq!(release("1.9")?.to_string(), "1.9");
    assert!(release("1.9")? < release("1.10")?);
    for bad in ["1", "one.two", "1.x", "1.25x", ""] {
        assert!(bad.parse::<Release>().is_err(), "{bad}");
    }
    Ok(())
}
