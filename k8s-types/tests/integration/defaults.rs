//! The built-in defaulters, a test per API group: an object read from JSON, defaulted
//! through the Scheme (as the server and `kapi convert` default it), and the fields
//! Go's defaulters set compared with what they set.
#![allow(clippy::unwrap_used)]

use std::sync::OnceLock;

use apimachinery::runtime::{Object, Scheme};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

fn scheme() -> &'static Scheme {
    static SCHEME: OnceLock<Scheme> = OnceLock::new();
    SCHEME.get_or_init(|| {
        let mut s = Scheme::new();
        k8s_types::register(&mut s).unwrap();
        s
    })
}

/// `json` read as a `T`, defaulted, and written back as JSON.
fn defaulted<T: Object + DeserializeOwned + Serialize>(json: Value) -> Value {
    let mut obj: T = serde_json::from_value(json).unwrap();
    scheme().default(&mut obj);
    serde_json::to_value(&obj).unwrap()
}

/// The value at each JSON pointer of `expected`.
#[track_caller]
fn assert_at(v: &Value, expected: &[(&str, Value)]) {
    for (pointer, want) in expected {
        assert_eq!(v.pointer(pointer), Some(want), "at {pointer} in {v:#}");
    }
}

#[track_caller]
fn assert_absent(v: &Value, pointers: &[&str]) {
    for pointer in pointers {
        assert_eq!(v.pointer(pointer), None, "{pointer} set in {v:#}");
    }
}

#[test]
fn core_pods_get_pod_spec_container_volume_and_probe_defaults() {
    let pod = defaulted::<k8s_types::core::v1::Pod>(json!({"spec": {
        "hostNetwork": true,
        "containers": [
            {"name": "a", "image": "nginx", "ports": [{"containerPort": 80}],
             "resources": {"limits": {"cpu": "1"}},
             "env": [{"name": "N", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                     {"name": "F", "valueFrom": {"fileKeyRef": {"volumeName": "v", "path": "p", "key": "k"}}}],
             "livenessProbe": {"grpc": {"port": 9000}},
             "readinessProbe": {"httpGet": {"port": 80}}},
            {"name": "b", "image": "nginx@sha256:0123", "imagePullPolicy": "Never"},
            {"name": "c", "image": "registry:5000/team/app:v2"},
            {"name": "d", "image": "Nginx"}
        ],
        "ephemeralContainers": [{"name": "debug", "image": "busybox"}],
        "volumes": [
            {"name": "empty"},
            {"name": "dapi", "downwardAPI": {"items": [{"path": "n", "fieldRef": {"fieldPath": "metadata.name"}}]}},
            {"name": "rbd", "rbd": {"monitors": ["m"], "image": "i"}},
            {"name": "az", "azureDisk": {"diskName": "d", "diskURI": "u"}},
            {"name": "img", "image": {"reference": "example.com/data:latest"}},
            {"name": "eph", "ephemeral": {"volumeClaimTemplate": {"spec": {}}}}
        ]
    }}));
    assert_at(
        &pod,
        &[
            ("/spec/dnsPolicy", json!("ClusterFirst")),
            ("/spec/restartPolicy", json!("Always")),
            ("/spec/terminationGracePeriodSeconds", json!(30)),
            ("/spec/schedulerName", json!("default-scheduler")),
            ("/spec/securityContext", json!({})),
            ("/spec/enableServiceLinks", json!(true)),
            ("/spec/containers/0/imagePullPolicy", json!("Always")),
            (
                "/spec/containers/0/terminationMessagePath",
                json!("/dev/termination-log"),
            ),
            ("/spec/containers/0/terminationMessagePolicy", json!("File")),
            ("/spec/containers/0/ports/0/protocol", json!("TCP")),
            // Pods only: host network copies container ports, requests come from limits.
            ("/spec/containers/0/ports/0/hostPort", json!(80)),
            ("/spec/containers/0/resources/requests", json!({"cpu": "1"})),
            (
                "/spec/containers/0/env/0/valueFrom/fieldRef/apiVersion",
                json!("v1"),
            ),
            (
                "/spec/containers/0/env/1/valueFrom/fileKeyRef/optional",
                json!(false),
            ),
            ("/spec/containers/0/livenessProbe/grpc/service", json!("")),
            ("/spec/containers/0/livenessProbe/timeoutSeconds", json!(1)),
            ("/spec/containers/0/livenessProbe/periodSeconds", json!(10)),
            (
                "/spec/containers/0/livenessProbe/successThreshold",
                json!(1),
            ),
            (
                "/spec/containers/0/livenessProbe/failureThreshold",
                json!(3),
            ),
            ("/spec/containers/0/readinessProbe/httpGet/path", json!("/")),
            (
                "/spec/containers/0/readinessProbe/httpGet/scheme",
                json!("HTTP"),
            ),
            ("/spec/containers/1/imagePullPolicy", json!("Never")),
            ("/spec/containers/2/imagePullPolicy", json!("IfNotPresent")),
            // Go's parser rejects upper case, and its error means "not latest".
            ("/spec/containers/3/imagePullPolicy", json!("IfNotPresent")),
            (
                "/spec/ephemeralContainers/0/imagePullPolicy",
                json!("Always"),
            ),
            ("/spec/volumes/0/emptyDir", json!({})),
            ("/spec/volumes/1/downwardAPI/defaultMode", json!(420)),
            (
                "/spec/volumes/1/downwardAPI/items/0/fieldRef/apiVersion",
                json!("v1"),
            ),
            ("/spec/volumes/2/rbd/pool", json!("rbd")),
            ("/spec/volumes/2/rbd/user", json!("admin")),
            ("/spec/volumes/2/rbd/keyring", json!("/etc/ceph/keyring")),
            ("/spec/volumes/3/azureDisk/cachingMode", json!("ReadWrite")),
            ("/spec/volumes/3/azureDisk/fsType", json!("ext4")),
            ("/spec/volumes/3/azureDisk/kind", json!("Shared")),
            ("/spec/volumes/4/image/pullPolicy", json!("Always")),
            (
                "/spec/volumes/5/ephemeral/volumeClaimTemplate/spec/volumeMode",
                json!("Filesystem"),
            ),
        ],
    );
    assert_absent(
        &pod,
        &[
            "/spec/volumes/1/emptyDir",
            "/spec/containers/1/resources/requests",
        ],
    );
}

#[test]
fn core_templates_get_no_pod_only_defaults() {
    let t = defaulted::<k8s_types::core::v1::PodTemplate>(json!({"template": {"spec": {
        "hostNetwork": true,
        "containers": [{"name": "a", "image": "a:1", "ports": [{"containerPort": 80}],
                        "resources": {"limits": {"cpu": "1"}}}]
    }}}));
    assert_at(&t, &[("/template/spec/dnsPolicy", json!("ClusterFirst"))]);
    assert_absent(
        &t,
        &[
            "/template/spec/enableServiceLinks",
            "/template/spec/containers/0/ports/0/hostPort",
            "/template/spec/containers/0/resources/requests",
        ],
    );
}

#[test]
fn core_services_and_other_kinds() {
    use k8s_types::core::v1 as core;
    let svc = defaulted::<core::Service>(json!({
        "spec": {"type": "LoadBalancer", "sessionAffinity": "ClientIP",
                 "ports": [{"port": 80}, {"port": 81, "targetPort": "web"}]},
        "status": {"loadBalancer": {"ingress": [{"ip": "10.0.0.1"}, {"hostname": "lb"}]}}
    }));
    assert_at(
        &svc,
        &[
            (
                "/spec/sessionAffinityConfig/clientIP/timeoutSeconds",
                json!(10800),
            ),
            ("/spec/ports/0/protocol", json!("TCP")),
            ("/spec/ports/0/targetPort", json!(80)),
            ("/spec/ports/1/targetPort", json!("web")),
            ("/spec/externalTrafficPolicy", json!("Cluster")),
            ("/spec/internalTrafficPolicy", json!("Cluster")),
            ("/spec/allocateLoadBalancerNodePorts", json!(true)),
            ("/status/loadBalancer/ingress/0/ipMode", json!("VIP")),
        ],
    );
    assert_absent(
        &svc,
        &["/status/loadBalancer/ingress/1/ipMode", "/spec/clusterIP"],
    );
    let plain =
        defaulted::<core::Service>(json!({"spec": {"sessionAffinityConfig": {"clientIP": {}}}}));
    assert_at(
        &plain,
        &[
            ("/spec/type", json!("ClusterIP")),
            ("/spec/sessionAffinity", json!("None")),
        ],
    );
    assert_absent(
        &plain,
        &["/spec/sessionAffinityConfig", "/spec/externalTrafficPolicy"],
    );

    let ns = defaulted::<core::Namespace>(json!({"metadata": {"name": "team"}}));
    assert_at(
        &ns,
        &[
            (
                "/metadata/labels/kubernetes.io~1metadata.name",
                json!("team"),
            ),
            ("/status/phase", json!("Active")),
        ],
    );
    let unnamed = defaulted::<core::Namespace>(json!({"metadata": {"generateName": "t-"}}));
    assert_absent(&unnamed, &["/metadata/labels"]);
    assert_at(
        &defaulted::<core::Secret>(json!({})),
        &[("/type", json!("Opaque"))],
    );
    let pv = defaulted::<core::PersistentVolume>(json!({"spec": {"hostPath": {"path": "/d"}}}));
    assert_at(
        &pv,
        &[
            ("/status/phase", json!("Pending")),
            ("/spec/persistentVolumeReclaimPolicy", json!("Retain")),
            ("/spec/volumeMode", json!("Filesystem")),
            ("/spec/hostPath/type", json!("")),
        ],
    );
    let pvc = defaulted::<core::PersistentVolumeClaim>(json!({}));
    assert_at(
        &pvc,
        &[
            ("/status/phase", json!("Pending")),
            ("/spec/volumeMode", json!("Filesystem")),
        ],
    );
    let rc = defaulted::<core::ReplicationController>(
        json!({"spec": {"template": {"metadata": {"labels": {"app": "a"}}, "spec": {}}}}),
    );
    assert_at(
        &rc,
        &[
            ("/spec/replicas", json!(1)),
            ("/spec/selector", json!({"app": "a"})),
            ("/metadata/labels", json!({"app": "a"})),
            ("/spec/template/spec/restartPolicy", json!("Always")),
        ],
    );
    let ep = defaulted::<core::Endpoints>(json!({"subsets": [{"ports": [{"port": 1}]}]}));
    assert_at(&ep, &[("/subsets/0/ports/0/protocol", json!("TCP"))]);
    let lr = defaulted::<core::LimitRange>(
        json!({"spec": {"limits": [{"type": "Container", "max": {"cpu": "2"}, "min": {"memory": "1Mi"}}]}}),
    );
    assert_at(
        &lr,
        &[
            ("/spec/limits/0/default", json!({"cpu": "2"})),
            (
                "/spec/limits/0/defaultRequest",
                json!({"cpu": "2", "memory": "1Mi"}),
            ),
        ],
    );
    let node = defaulted::<core::Node>(json!({"status": {"capacity": {"pods": "110"}}}));
    assert_at(&node, &[("/status/allocatable", json!({"pods": "110"}))]);
}

#[test]
fn apps_workloads_per_version() {
    use k8s_types::apps::{v1, v1beta1, v1beta2};
    let template = json!({"metadata": {"labels": {"app": "a"}}, "spec": {"containers": [{"name": "c", "image": "c:1"}]}});
    let d = defaulted::<v1::Deployment>(json!({"spec": {"template": template}}));
    assert_at(
        &d,
        &[
            ("/spec/replicas", json!(1)),
            (
                "/spec/strategy",
                json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}}),
            ),
            ("/spec/revisionHistoryLimit", json!(10)),
            ("/spec/progressDeadlineSeconds", json!(600)),
            (
                "/spec/template/spec/containers/0/imagePullPolicy",
                json!("IfNotPresent"),
            ),
        ],
    );
    // apps/v1 requires the selector: no defaulting from the template.
    assert_at(&d, &[("/spec/selector", Value::Null)]);
    let recreate = defaulted::<v1::Deployment>(
        json!({"spec": {"strategy": {"type": "Recreate"}, "template": template}}),
    );
    assert_at(
        &recreate,
        &[("/spec/strategy", json!({"type": "Recreate"}))],
    );

    let ds = defaulted::<v1::DaemonSet>(json!({"spec": {"template": template}}));
    assert_at(
        &ds,
        &[
            (
                "/spec/updateStrategy",
                json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}}),
            ),
            ("/spec/revisionHistoryLimit", json!(10)),
        ],
    );
    let ss = defaulted::<v1::StatefulSet>(
        json!({"spec": {"template": template, "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {}}]}}),
    );
    assert_at(
        &ss,
        &[
            ("/spec/podManagementPolicy", json!("OrderedReady")),
            (
                "/spec/updateStrategy",
                // `maxUnavailable` only with MaxUnavailableStatefulSet: off in 1.36, on
                // by default from 1.37.
                if cfg!(feature = "v1_37") {
                    json!({"type": "RollingUpdate", "rollingUpdate": {"partition": 0, "maxUnavailable": 1}})
                } else {
                    json!({"type": "RollingUpdate", "rollingUpdate": {"partition": 0}})
                },
            ),
            (
                "/spec/persistentVolumeClaimRetentionPolicy",
                json!({"whenDeleted": "Retain", "whenScaled": "Retain"}),
            ),
            ("/spec/replicas", json!(1)),
            (
                "/spec/volumeClaimTemplates/0/spec/volumeMode",
                json!("Filesystem"),
            ),
            (
                "/spec/volumeClaimTemplates/0/status/phase",
                json!("Pending"),
            ),
        ],
    );
    let rs = defaulted::<v1beta2::ReplicaSet>(json!({"spec": {"template": template}}));
    assert_at(&rs, &[("/spec/replicas", json!(1))]);
    let d2 = defaulted::<v1beta2::Deployment>(json!({"spec": {"template": template}}));
    assert_at(&d2, &[("/spec/revisionHistoryLimit", json!(10))]);
    let d1 = defaulted::<v1beta1::Deployment>(json!({"spec": {"template": template}}));
    assert_at(
        &d1,
        &[
            ("/spec/revisionHistoryLimit", json!(2)),
            ("/spec/selector", json!({"matchLabels": {"app": "a"}})),
            ("/metadata/labels", json!({"app": "a"})),
        ],
    );
    let ss1 = defaulted::<v1beta1::StatefulSet>(json!({"spec": {"template": template}}));
    assert_at(
        &ss1,
        &[
            ("/spec/updateStrategy", json!({"type": "OnDelete"})),
            ("/spec/selector", json!({"matchLabels": {"app": "a"}})),
        ],
    );
}

#[test]
fn extensions_workloads_keep_every_revision() {
    use k8s_types::extensions::v1beta1 as ext;
    let template = json!({"metadata": {"labels": {"app": "a"}}, "spec": {}});
    let d = defaulted::<ext::Deployment>(
        json!({"metadata": {"labels": {"own": "x"}}, "spec": {"template": template}}),
    );
    assert_at(
        &d,
        &[
            ("/spec/revisionHistoryLimit", json!(2147483647)),
            ("/spec/progressDeadlineSeconds", json!(2147483647)),
            (
                "/spec/strategy/rollingUpdate",
                json!({"maxUnavailable": 1, "maxSurge": 1}),
            ),
            ("/spec/selector", json!({"matchLabels": {"app": "a"}})),
            // Labels of its own are kept.
            ("/metadata/labels", json!({"own": "x"})),
        ],
    );
    // extensions/v1beta1 fills rolling update parameters given to any strategy.
    let recreate = defaulted::<ext::Deployment>(
        json!({"spec": {"strategy": {"type": "Recreate", "rollingUpdate": {}}, "template": template}}),
    );
    assert_at(
        &recreate,
        &[(
            "/spec/strategy",
            json!({"type": "Recreate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 1}}),
        )],
    );
    let ds = defaulted::<ext::DaemonSet>(json!({"spec": {"template": template}}));
    assert_at(
        &ds,
        &[("/spec/updateStrategy", json!({"type": "OnDelete"}))],
    );
    let rs = defaulted::<ext::ReplicaSet>(json!({"spec": {"template": template}}));
    assert_at(
        &rs,
        &[
            ("/spec/replicas", json!(1)),
            ("/spec/selector", json!({"matchLabels": {"app": "a"}})),
        ],
    );
    let np =
        defaulted::<ext::NetworkPolicy>(json!({"spec": {"egress": [{"ports": [{"port": 53}]}]}}));
    // Go's `extensions/v1beta1` defaulter sets the ports' protocol on copies of them.
    assert_at(&np, &[("/spec/policyTypes", json!(["Ingress", "Egress"]))]);
    assert_absent(&np, &["/spec/egress/0/ports/0/protocol"]);
    let ing = defaulted::<ext::Ingress>(
        json!({"spec": {"rules": [{"http": {"paths": [{"path": "/"}]}}]}}),
    );
    assert_at(
        &ing,
        &[(
            "/spec/rules/0/http/paths/0/pathType",
            json!("ImplementationSpecific"),
        )],
    );
}

#[test]
fn batch_jobs_and_cron_jobs() {
    use k8s_types::batch::{v1, v1beta1};
    let job = defaulted::<v1::Job>(
        json!({"spec": {"template": {"metadata": {"labels": {"app": "a"}}, "spec": {}}}}),
    );
    assert_at(
        &job,
        &[
            ("/spec/completions", json!(1)),
            ("/spec/parallelism", json!(1)),
            ("/spec/backoffLimit", json!(6)),
            ("/spec/completionMode", json!("NonIndexed")),
            ("/spec/suspend", json!(false)),
            ("/spec/podReplacementPolicy", json!("TerminatingOrFailed")),
            ("/spec/manualSelector", json!(false)),
            ("/metadata/labels", json!({"app": "a"})),
            ("/spec/template/spec/dnsPolicy", json!("ClusterFirst")),
        ],
    );
    // The server makes a Job's selector, not the defaulter.
    assert_absent(&job, &["/spec/selector"]);
    let indexed = defaulted::<v1::Job>(json!({"spec": {
        "parallelism": 3, "backoffLimitPerIndex": 1,
        "podFailurePolicy": {"rules": [{"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}]},
        "template": {"spec": {}}}}));
    assert_at(
        &indexed,
        &[
            ("/spec/backoffLimit", json!(2147483647)),
            ("/spec/podReplacementPolicy", json!("Failed")),
            (
                "/spec/podFailurePolicy/rules/0/onPodConditions/0/status",
                json!("True"),
            ),
        ],
    );
    assert_absent(&indexed, &["/spec/completions"]);
    for cj in [
        defaulted::<v1::CronJob>(
            json!({"spec": {"jobTemplate": {"spec": {"template": {"spec": {}}}}}}),
        ),
        defaulted::<v1beta1::CronJob>(
            json!({"spec": {"jobTemplate": {"spec": {"template": {"spec": {}}}}}}),
        ),
    ] {
        assert_at(
            &cj,
            &[
                ("/spec/concurrencyPolicy", json!("Allow")),
                ("/spec/suspend", json!(false)),
                ("/spec/successfulJobsHistoryLimit", json!(3)),
                ("/spec/failedJobsHistoryLimit", json!(1)),
                (
                    "/spec/jobTemplate/spec/template/spec/restartPolicy",
                    json!("Always"),
                ),
            ],
        );
        // The job template is not a Job: Go defaults the Job when it is created.
        assert_absent(&cj, &["/spec/jobTemplate/spec/backoffLimit"]);
    }
}

#[test]
fn networking_policies_classes_and_old_ingresses() {
    use k8s_types::networking::{v1, v1beta1};
    let np =
        defaulted::<v1::NetworkPolicy>(json!({"spec": {"ingress": [{"ports": [{"port": 80}]}]}}));
    assert_at(
        &np,
        &[
            ("/spec/ingress/0/ports/0/protocol", json!("TCP")),
            ("/spec/policyTypes", json!(["Ingress"])),
        ],
    );
    let ic =
        defaulted::<v1::IngressClass>(json!({"spec": {"parameters": {"kind": "K", "name": "n"}}}));
    assert_at(&ic, &[("/spec/parameters/scope", json!("Cluster"))]);
    let ing = defaulted::<v1beta1::Ingress>(
        json!({"spec": {"rules": [{"http": {"paths": [{"path": "/"}]}}]}}),
    );
    assert_at(
        &ing,
        &[(
            "/spec/rules/0/http/paths/0/pathType",
            json!("ImplementationSpecific"),
        )],
    );
    // networking.k8s.io/v1 requires a path type: none is made up.
    let v1_ing = defaulted::<v1::Ingress>(
        json!({"spec": {"rules": [{"http": {"paths": [{"path": "/"}]}}]}}),
    );
    assert_at(
        &v1_ing,
        &[("/spec/rules/0/http/paths/0/pathType", Value::Null)],
    );
}

#[test]
fn autoscaling_minimum_replicas_metrics_and_behavior() {
    use k8s_types::autoscaling::{v1, v2};
    let h1 = defaulted::<v1::HorizontalPodAutoscaler>(json!({"spec": {"maxReplicas": 3}}));
    assert_at(&h1, &[("/spec/minReplicas", json!(1))]);
    assert_absent(&h1, &["/spec/targetCPUUtilizationPercentage"]);
    let h2 = defaulted::<v2::HorizontalPodAutoscaler>(json!({"spec": {"maxReplicas": 3,
        "behavior": {"scaleDown": {"stabilizationWindowSeconds": 60}}}}));
    assert_at(
        &h2,
        &[
            (
                "/spec/metrics",
                json!([{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}}]),
            ),
            (
                "/spec/behavior/scaleUp",
                json!({"stabilizationWindowSeconds": 0, "selectPolicy": "Max", "policies": [
                {"type": "Pods", "value": 4, "periodSeconds": 15}, {"type": "Percent", "value": 100, "periodSeconds": 15}]}),
            ),
            (
                "/spec/behavior/scaleDown",
                json!({"stabilizationWindowSeconds": 60, "selectPolicy": "Max", "policies": [
                {"type": "Percent", "value": 100, "periodSeconds": 15}]}),
            ),
        ],
    );
    let no_behavior = defaulted::<v2::HorizontalPodAutoscaler>(json!({"spec": {"maxReplicas": 3}}));
    assert_absent(&no_behavior, &["/spec/behavior"]);
}

#[test]
fn rbac_bindings_name_their_api_groups() {
    use k8s_types::rbac::{v1, v1alpha1};
    let b = defaulted::<v1::RoleBinding>(
        json!({"roleRef": {"kind": "Role", "name": "r"}, "subjects": [
        {"kind": "User", "name": "jane"}, {"kind": "Group", "name": "g"},
        {"kind": "ServiceAccount", "name": "sa", "namespace": "ns"}]}),
    );
    assert_at(
        &b,
        &[
            ("/roleRef/apiGroup", json!("rbac.authorization.k8s.io")),
            ("/subjects/0/apiGroup", json!("rbac.authorization.k8s.io")),
            ("/subjects/1/apiGroup", json!("rbac.authorization.k8s.io")),
        ],
    );
    assert_absent(&b, &["/subjects/2/apiGroup"]);
    let a = defaulted::<v1alpha1::ClusterRoleBinding>(
        json!({"roleRef": {"kind": "ClusterRole", "name": "r"}, "subjects": [
        {"kind": "User", "name": "jane"}, {"kind": "ServiceAccount", "name": "sa"}]}),
    );
    assert_at(
        &a,
        &[
            (
                "/subjects/0/apiVersion",
                json!("rbac.authorization.k8s.io/v1alpha1"),
            ),
            ("/subjects/1/apiVersion", json!("v1")),
        ],
    );
}

#[test]
fn storage_classes_drivers_and_attachments() {
    use k8s_types::storage::v1;
    let sc = defaulted::<v1::StorageClass>(json!({"provisioner": "p"}));
    assert_at(
        &sc,
        &[
            ("/reclaimPolicy", json!("Delete")),
            ("/volumeBindingMode", json!("Immediate")),
        ],
    );
    let csi = defaulted::<v1::CSIDriver>(json!({"spec": {}}));
    assert_at(
        &csi,
        &[
            ("/spec/attachRequired", json!(true)),
            ("/spec/podInfoOnMount", json!(false)),
            ("/spec/storageCapacity", json!(false)),
            ("/spec/fsGroupPolicy", json!("ReadWriteOnceWithFSType")),
            ("/spec/volumeLifecycleModes", json!(["Persistent"])),
            ("/spec/requiresRepublish", json!(false)),
            ("/spec/seLinuxMount", json!(false)),
        ],
    );
    let va = defaulted::<v1::VolumeAttachment>(
        json!({"spec": {"source": {"inlineVolumeSpec": {"iscsi": {"targetPortal": "t", "iqn": "i", "lun": 0}}}}}),
    );
    assert_at(
        &va,
        &[(
            "/spec/source/inlineVolumeSpec/iscsi/iscsiInterface",
            json!("default"),
        )],
    );
}

#[test]
fn scheduling_priority_classes_preempt() {
    let pc = defaulted::<k8s_types::scheduling::v1::PriorityClass>(json!({"value": 10}));
    assert_at(&pc, &[("/preemptionPolicy", json!("PreemptLowerPriority"))]);
    #[cfg(not(feature = "v1_37"))]
    {
        let pg = defaulted::<k8s_types::scheduling::v1alpha2::PodGroup>(json!({}));
        assert_at(&pg, &[("/spec/disruptionMode", json!("Pod"))]);
    }
    #[cfg(feature = "v1_37")]
    {
        // Go unmarshals the marker's JSON (`+default={"single": {}}`) into the nil field.
        let pg = defaulted::<k8s_types::scheduling::v1beta1::PodGroup>(json!({}));
        assert_at(&pg, &[("/spec/disruptionMode", json!({"single": {}}))]);
        let pg = defaulted::<k8s_types::scheduling::v1alpha3::PodGroup>(json!({}));
        assert_at(&pg, &[("/spec/disruptionMode", json!({"single": {}}))]);
        let cpg = defaulted::<k8s_types::scheduling::v1alpha3::CompositePodGroup>(json!({}));
        assert_at(&cpg, &[("/spec/disruptionMode", json!({"single": {}}))]);
        // A mode already chosen stays.
        let pg = defaulted::<k8s_types::scheduling::v1beta1::PodGroup>(
            json!({"spec": {"disruptionMode": {"all": {}}}}),
        );
        assert_at(&pg, &[("/spec/disruptionMode", json!({"all": {}}))]);
    }
}

#[test]
fn admissionregistration_webhooks_and_policies_per_version() {
    use k8s_types::admissionregistration::{v1, v1beta1};
    let webhook = json!({"name": "w", "clientConfig": {"service": {"namespace": "n", "name": "s"}},
        "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"]}]});
    let v = defaulted::<v1::MutatingWebhookConfiguration>(json!({"webhooks": [webhook]}));
    assert_at(
        &v,
        &[
            ("/webhooks/0/failurePolicy", json!("Fail")),
            ("/webhooks/0/matchPolicy", json!("Equivalent")),
            ("/webhooks/0/namespaceSelector", json!({})),
            ("/webhooks/0/objectSelector", json!({})),
            ("/webhooks/0/timeoutSeconds", json!(10)),
            ("/webhooks/0/reinvocationPolicy", json!("Never")),
            ("/webhooks/0/rules/0/scope", json!("*")),
            ("/webhooks/0/clientConfig/service/port", json!(443)),
        ],
    );
    let b = defaulted::<v1beta1::ValidatingWebhookConfiguration>(json!({"webhooks": [webhook]}));
    assert_at(
        &b,
        &[
            ("/webhooks/0/failurePolicy", json!("Ignore")),
            ("/webhooks/0/matchPolicy", json!("Exact")),
            ("/webhooks/0/timeoutSeconds", json!(30)),
            ("/webhooks/0/sideEffects", json!("Unknown")),
            ("/webhooks/0/admissionReviewVersions", json!(["v1beta1"])),
        ],
    );
    let p = defaulted::<v1::ValidatingAdmissionPolicy>(
        json!({"spec": {"matchConstraints": {"resourceRules": [{"resources": ["pods"]}]}}}),
    );
    assert_at(
        &p,
        &[
            ("/spec/failurePolicy", json!("Fail")),
            ("/spec/matchConstraints/matchPolicy", json!("Equivalent")),
            ("/spec/matchConstraints/resourceRules/0/scope", json!("*")),
        ],
    );
    // Only v1alpha1 defaults a binding's missing-parameter action (Go's
    // SetDefaults_ParamRef); v1 leaves it for validation to require.
    let pb = defaulted::<v1::ValidatingAdmissionPolicyBinding>(
        json!({"spec": {"paramRef": {"name": "p"}}}),
    );
    assert_absent(&pb, &["/spec/paramRef/parameterNotFoundAction"]);
    let pb = defaulted::<
        k8s_types::admissionregistration::v1alpha1::ValidatingAdmissionPolicyBinding,
    >(json!({"spec": {"paramRef": {"name": "p"}}}));
    assert_at(
        &pb,
        &[("/spec/paramRef/parameterNotFoundAction", json!("Deny"))],
    );
}

#[test]
fn apiextensions_crds_per_version() {
    use k8s_types::apiextensions::{v1, v1beta1};
    let crd = defaulted::<v1::CustomResourceDefinition>(
        json!({"spec": {"group": "g", "scope": "Namespaced",
        "names": {"plural": "dials", "kind": "Dial"},
        "versions": [{"name": "v1alpha1", "served": true, "storage": false}, {"name": "v1", "served": true, "storage": true}]}}),
    );
    assert_at(
        &crd,
        &[
            ("/spec/names/singular", json!("dial")),
            ("/spec/names/listKind", json!("DialList")),
            ("/spec/conversion", json!({"strategy": "None"})),
            ("/status/storedVersions", json!(["v1"])),
        ],
    );
    let old = defaulted::<v1beta1::CustomResourceDefinition>(
        json!({"spec": {"group": "g", "version": "v1",
        "names": {"plural": "dials", "kind": "Dial"},
        "conversion": {"strategy": "Webhook", "webhookClientConfig": {"service": {"namespace": "n", "name": "s"}}}}}),
    );
    assert_at(
        &old,
        &[
            ("/spec/scope", json!("Namespaced")),
            (
                "/spec/versions",
                json!([{"name": "v1", "served": true, "storage": true}]),
            ),
            (
                "/spec/conversion/conversionReviewVersions",
                json!(["v1beta1"]),
            ),
            (
                "/spec/conversion/webhookClientConfig/service/port",
                json!(443),
            ),
            ("/status/storedVersions", json!(["v1"])),
        ],
    );
    assert_absent(&old, &["/spec/preserveUnknownFields"]);
}

#[test]
fn flowcontrol_priority_levels_and_flow_schemas() {
    use k8s_types::flowcontrol::{v1, v1beta3};
    let pl = defaulted::<v1::PriorityLevelConfiguration>(json!({"spec": {"type": "Limited",
        "limited": {"limitResponse": {"type": "Queue", "queuing": {}}}}}));
    assert_at(
        &pl,
        &[
            ("/spec/limited/nominalConcurrencyShares", json!(30)),
            ("/spec/limited/lendablePercent", json!(0)),
            (
                "/spec/limited/limitResponse/queuing",
                json!({"queues": 64, "handSize": 8, "queueLengthLimit": 50}),
            ),
        ],
    );
    let keep = defaulted::<v1beta3::PriorityLevelConfiguration>(json!({
        "metadata": {"annotations": {"flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares": ""}},
        "spec": {"type": "Limited", "limited": {"limitResponse": {"type": "Reject"}}}}));
    assert_at(
        &keep,
        &[("/spec/limited/nominalConcurrencyShares", json!(0))],
    );
    let fs =
        defaulted::<v1::FlowSchema>(json!({"spec": {"priorityLevelConfiguration": {"name": "p"}}}));
    assert_at(&fs, &[("/spec/matchingPrecedence", json!(1000))]);
}

#[test]
fn discovery_resource_and_certificates() {
    let slice = defaulted::<k8s_types::discovery::v1::EndpointSlice>(
        json!({"addressType": "IPv4", "endpoints": [], "ports": [{"port": 80}]}),
    );
    assert_at(
        &slice,
        &[
            ("/ports/0/name", json!("")),
            ("/ports/0/protocol", json!("TCP")),
        ],
    );
    let claim = defaulted::<k8s_types::resource::v1::ResourceClaim>(
        json!({"spec": {"devices": {"requests": [
        {"name": "gpu", "exactly": {"deviceClassName": "gpu", "tolerations": [{"key": "k"}]}},
        {"name": "any", "firstAvailable": [{"name": "a", "deviceClassName": "x", "allocationMode": "All"}]}]}}}),
    );
    assert_at(
        &claim,
        &[
            (
                "/spec/devices/requests/0/exactly/allocationMode",
                json!("ExactCount"),
            ),
            ("/spec/devices/requests/0/exactly/count", json!(1)),
            (
                "/spec/devices/requests/0/exactly/tolerations/0/operator",
                json!("Equal"),
            ),
            (
                "/spec/devices/requests/1/firstAvailable/0/allocationMode",
                json!("All"),
            ),
        ],
    );
    assert_absent(&claim, &["/spec/devices/requests/1/firstAvailable/0/count"]);
    let pcr =
        defaulted::<k8s_types::certificates::v1beta1::PodCertificateRequest>(json!({"spec": {}}));
    assert_at(&pcr, &[("/spec/maxExpirationSeconds", json!(86400))]);
    #[cfg(feature = "v1_37")]
    {
        let pcr =
            defaulted::<k8s_types::certificates::v1::PodCertificateRequest>(json!({"spec": {}}));
        assert_at(&pcr, &[("/spec/maxExpirationSeconds", json!(86400))]);
    }
    // kube-aggregator's SetDefaults_ServiceReference: port 443 unless given.
    let api = defaulted::<k8s_types::apiregistration::v1::APIService>(json!({"spec": {
        "group": "metrics.k8s.io", "version": "v1beta1", "groupPriorityMinimum": 100,
        "versionPriority": 100, "service": {"namespace": "kube-system", "name": "metrics"}}}));
    assert_at(&api, &[("/spec/service/port", json!(443))]);
    let given = defaulted::<k8s_types::apiregistration::v1beta1::APIService>(json!({"spec": {
        "groupPriorityMinimum": 100, "versionPriority": 100,
        "service": {"namespace": "kube-system", "name": "metrics", "port": 8443}}}));
    assert_at(&given, &[("/spec/service/port", json!(8443))]);
}

#[test]
fn defaulting_twice_changes_nothing_more() {
    let path = super::testdata().join("apps.v1.Deployment.json");
    let Ok(bytes) = std::fs::read(&path) else {
        // The release's reference data is written by `cargo xtask refdata` (with Go).
        assert!(
            std::env::var_os("CI").is_none(),
            "{} missing",
            path.display()
        );
        eprintln!("note: {} missing; skipped", path.display());
        return;
    };
    let mut d: k8s_types::apps::v1::Deployment = serde_json::from_slice(&bytes).unwrap();
    scheme().default(&mut d);
    let once = d.clone();
    scheme().default(&mut d);
    assert_eq!(d, once);
}

/// 1.37's `SetDefaults_Pod`: a negative grace period becomes 1 second on a Pod, not on a
/// template; and `SetDefaults_PodSpec` keeps `serviceAccount` equal to
/// `serviceAccountName`, the name winning.
#[cfg(feature = "v1_37")]
#[test]
fn pods_of_1_37_grace_period_and_service_account() {
    let pod = defaulted::<k8s_types::core::v1::Pod>(json!({"spec": {
        "terminationGracePeriodSeconds": -5, "serviceAccount": "old", "containers": []}}));
    assert_at(
        &pod,
        &[
            ("/spec/terminationGracePeriodSeconds", json!(1)),
            ("/spec/serviceAccountName", json!("old")),
            ("/spec/serviceAccount", json!("old")),
        ],
    );
    let pod = defaulted::<k8s_types::core::v1::Pod>(json!({"spec": {
        "serviceAccount": "old", "serviceAccountName": "new", "containers": []}}));
    assert_at(
        &pod,
        &[
            ("/spec/serviceAccountName", json!("new")),
            ("/spec/serviceAccount", json!("new")),
        ],
    );
    let template = defaulted::<k8s_types::core::v1::PodTemplate>(json!({"template": {"spec": {
        "terminationGracePeriodSeconds": -5, "containers": []}}}));
    assert_at(
        &template,
        &[("/template/spec/terminationGracePeriodSeconds", json!(-5))],
    );
}
