//! Kubernetes 1.37's validation leftovers: the rules that depend on the version a
//! request came in (declarative rules run only for versions Go generates them for),
//! the versions 1.37 added (`storagemigration.k8s.io/v1`), a claim's `healthStatus`,
//! and what Go's EndpointSlice strategy leaves to kube-apiserver. The texts are Go's
//! (k8s.io/kubernetes v1.37.2 / v1.36.3).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use k8s_types::{apps, core, discovery, extensions};
use serde_json::{Value, json};

use crate::validation::{errors, status_errors, update_errors};

/// `v136` on Kubernetes 1.36, `v137` on 1.37.
fn per_release<T>(v136: T, v137: T) -> T {
    if cfg!(feature = "v1_37") { v137 } else { v136 }
}

fn workload(responders: Value) -> Value {
    json!({"metadata": {"name": "web", "namespace": "default"},
        "spec": {"selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "nginx"}],
                    "evictionResponders": responders}}}})
}

#[test]
fn extensions_v1beta1_requests_skip_the_declarative_eviction_responder_rules() {
    let bad = json!([{"name": "no-prefix", "priority": 5}]);
    let prefix = "spec.template.spec.evictionResponders[0]";
    let apps_v1 = per_release(
        vec![],
        vec![
            format!(
                "{prefix}.name: Invalid value: \"no-prefix\": must include a prefix (e.g. 'example.com/key')"
            ),
            format!(
                "{prefix}.priority: Invalid value: 5: priorities 0-999 are reserved for responders with *.k8s.io suffix"
            ),
        ],
    );
    let mut got = errors::<apps::v1::Deployment>(workload(bad.clone()));
    got.sort();
    assert_eq!(got, apps_v1);
    // The same object in extensions/v1beta1, which has no zz_generated.validations.go:
    // validated as its apps/v1 internal form, less the declarative rules' errors.
    assert_eq!(
        errors::<extensions::v1beta1::Deployment>(workload(bad.clone())),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<extensions::v1beta1::ReplicaSet>(workload(bad.clone())),
        Vec::<String>::new()
    );
    // Hand-written errors stay.
    let mut ds = workload(bad);
    ds["spec"]["template"]["metadata"]["labels"] = json!({"app": "other"});
    assert_eq!(
        errors::<extensions::v1beta1::DaemonSet>(ds),
        vec![
            "spec.template.metadata.labels: Invalid value: {\"app\":\"other\"}: `selector` does not match template `labels`"
        ]
    );
}

#[cfg(feature = "v1_37")]
#[test]
fn storage_version_migration_v1_is_validated() {
    use k8s_types::storagemigration::v1::StorageVersionMigration;
    let svm = |group: &str, resource: &str| {
        json!({"metadata": {"name": "m"},
            "spec": {"resource": {"group": group, "resource": resource}}})
    };
    assert_eq!(
        errors::<StorageVersionMigration>(svm("apps", "")),
        vec!["spec.resource.resource: Required value: resource is required to be set"]
    );
    assert_eq!(
        update_errors::<StorageVersionMigration>(svm("apps", "a"), svm("apps", "b")),
        vec![
            "spec: Invalid value: {\"Resource\":{\"group\":\"apps\",\"resource\":\"b\"}}: field is immutable"
        ]
    );
}

fn claim(conditions: Value) -> Value {
    json!({"metadata": {"name": "c", "namespace": "default"},
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}},
        "status": {"healthStatus": {"healthConditions": conditions}}})
}

#[test]
fn claim_health_conditions_follow_the_declarative_rules() {
    let bad = json!([
        {"status": "Broken", "reason": "Lost"},
        {"status": "Degraded", "reason": ""},
        {"status": "DataLoss", "reason": "Gone"},
        {"status": "DataLoss", "reason": "Gone", "message": "m".repeat(1025)},
    ]);
    let p = "status.healthStatus.healthConditions";
    let mut got = errors::<core::v1::PersistentVolumeClaim>(claim(bad.clone()));
    got.sort();
    let want = per_release(
        vec![],
        vec![
            format!(
                "{p}[0].status: Unsupported value: \"Broken\": supported values: \"DataLoss\", \"Degraded\", \"Inaccessible\""
            ),
            format!("{p}[1].reason: Required value"),
            format!("{p}[3].message: Too long: may not be more than 1024 bytes"),
            format!(
                "{p}[3]: Duplicate value: {{\"status\":\"DataLoss\",\"reason\":\"Gone\",\"message\":\"{}\"}}",
                "m".repeat(1025)
            ),
        ],
    );
    assert_eq!(got, want);
    // An update judges again only the conditions it changed or added.
    let mut more = bad.clone();
    more.as_array_mut()
        .unwrap()
        .push(json!({"status": "Inaccessible", "reason": &"r".repeat(257)}));
    let mut got = update_errors::<core::v1::PersistentVolumeClaim>(claim(bad.clone()), claim(more));
    got.sort();
    let want = per_release(
        vec![],
        vec![
            // The repeated key's old match is the first condition of that key, whose
            // message differs: the long message is judged again.
            format!("{p}[3].message: Too long: may not be more than 1024 bytes"),
            format!(
                "{p}[3]: Duplicate value: {{\"status\":\"DataLoss\",\"reason\":\"Gone\",\"message\":\"{}\"}}",
                "m".repeat(1025)
            ),
            format!("{p}[4].reason: Too long: may not be more than 256 bytes"),
        ],
    );
    assert_eq!(got, want);
}

#[test]
fn claim_status_writes_check_health_reasons() {
    let mut old = claim(json!([]));
    old["metadata"]["resourceVersion"] = json!("1");
    let mut new = claim(json!([{"status": "Degraded", "reason": "9Lives"}]));
    new["metadata"]["resourceVersion"] = json!("1");
    let errs = status_errors::<core::v1::PersistentVolumeClaim>(old, new).unwrap();
    let want = per_release(
        vec![],
        vec!["status.healthStatus.healthConditions[0].reason: Invalid value: \"9Lives\": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')".to_owned()],
    );
    assert_eq!(errs, want);
}

#[test]
fn endpoint_slice_updates_leave_metadata_update_checks_to_the_server() {
    let slice = |generation: i64| {
        json!({"metadata": {"name": "s", "namespace": "default", "generation": generation},
            "addressType": "IPv4", "endpoints": [{"addresses": ["10.0.0.1"]}]})
    };
    assert_eq!(
        update_errors::<discovery::v1::EndpointSlice>(slice(5), slice(1)),
        Vec::<String>::new()
    );
}
