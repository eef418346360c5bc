//! The built-in validators, through the Scheme as the server and `kapi validate` run
//! them: objects read from JSON, defaulted, validated, and the errors compared with
//! the text Go's validators produce (`pkg/apis/<group>/validation`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::OnceLock;

use apimachinery::runtime::{Object, Scheme};
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

fn decode<T: Object + DeserializeOwned>(json: &Value) -> T {
    let mut obj: T = serde_json::from_value(json.clone()).unwrap();
    scheme().default(&mut obj);
    obj
}

/// The errors of `json` read as a `T` and defaulted, one string each.
pub(crate) fn errors<T: Object + DeserializeOwned>(json: Value) -> Vec<String> {
    let obj: T = decode(&json);
    let errs = scheme().validate(&obj, None).expect("a validator");
    errs.iter().map(ToString::to_string).collect()
}

/// The errors of updating `old` to `new`; both carry a resourceVersion, as an update
/// read from the server does, unless they give their own.
pub(crate) fn update_errors<T: Object + DeserializeOwned>(
    mut old: Value,
    mut new: Value,
) -> Vec<String> {
    for obj in [&mut old, &mut new] {
        if obj["metadata"]["resourceVersion"].is_null() {
            obj["metadata"]["resourceVersion"] = json!("1");
        }
    }
    let old: T = decode(&old);
    let new: T = decode(&new);
    let errs = scheme().validate(&new, Some(&old)).expect("a validator");
    errs.iter().map(ToString::to_string).collect()
}

/// The errors of a `/status` write replacing `old` with `new` (the kind's `/status`
/// validator, `Scheme::validate_status`); `None` when the kind has none.
pub(crate) fn status_errors<T: Object + DeserializeOwned>(
    old: Value,
    new: Value,
) -> Option<Vec<String>> {
    let old: T = decode(&old);
    let new: T = decode(&new);
    let errs = scheme().validate_status(&new, &old)?;
    Some(errs.iter().map(ToString::to_string).collect())
}

/// `base` with the JSON merge patch `patch` applied.
fn with(base: &Value, patch: Value) -> Value {
    fn merge(a: &mut Value, b: Value) {
        match (a, b) {
            (Value::Object(a), Value::Object(b)) => {
                for (k, v) in b {
                    if v.is_null() {
                        a.remove(&k);
                    } else {
                        merge(a.entry(k).or_insert(Value::Null), v);
                    }
                }
            }
            (a, b) => *a = b,
        }
    }
    let mut out = base.clone();
    merge(&mut out, patch);
    out
}

fn pod_spec() -> Value {
    json!({"containers": [{"name": "web", "image": "nginx:1.27",
        "ports": [{"name": "http", "containerPort": 80}]}]})
}

pub(crate) fn pod() -> Value {
    json!({"metadata": {"name": "web", "namespace": "default"}, "spec": pod_spec()})
}

fn deployment() -> Value {
    json!({"metadata": {"name": "web", "namespace": "default"},
        "spec": {"selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": pod_spec()}}})
}

type Pod = k8s_types::core::v1::Pod;
type Deployment = k8s_types::apps::v1::Deployment;

#[test]
fn valid_objects_of_every_validated_kind_pass() {
    use k8s_types::{apps, batch, coordination, core, networking, policy, rbac, scheduling};
    let ns = json!({"name": "x", "namespace": "default"});
    assert_eq!(errors::<Pod>(pod()), Vec::<String>::new());
    assert_eq!(errors::<Deployment>(deployment()), Vec::<String>::new());
    let workload = json!({"metadata": ns, "spec": {"selector": {"matchLabels": {"app": "web"}},
        "template": {"metadata": {"labels": {"app": "web"}}, "spec": pod_spec()}}});
    assert_eq!(
        errors::<apps::v1::ReplicaSet>(workload.clone()),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<apps::v1::DaemonSet>(workload.clone()),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<apps::v1::StatefulSet>(workload),
        Vec::<String>::new()
    );
    let job_spec =
        json!({"template": {"spec": with(&pod_spec(), json!({"restartPolicy": "Never"}))}});
    // A Job judged as given carries the selector Go's strategy would have generated.
    let job = with(
        &job_spec,
        json!({"manualSelector": true, "selector": {"matchLabels": {"app": "j"}},
            "template": {"metadata": {"labels": {"app": "j"}}}}),
    );
    assert_eq!(
        errors::<batch::v1::Job>(json!({"metadata": ns, "spec": job})),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<batch::v1::CronJob>(
            json!({"metadata": ns, "spec": {"schedule": "*/5 1-3 * jan,MAR mon-fri",
            "jobTemplate": {"spec": job_spec}}})
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<core::v1::Service>(json!({"metadata": ns, "spec": {"selector": {"app": "web"},
            "ports": [{"port": 80, "targetPort": "http"}]}})),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<core::v1::ConfigMap>(json!({"metadata": ns, "data": {"a.conf": "x"}})),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<core::v1::Secret>(json!({"metadata": ns, "type": "kubernetes.io/tls",
            "data": {"tls.crt": "eA==", "tls.key": "eA=="}})),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<core::v1::Namespace>(json!({"metadata": {"name": "team-a"}})),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<core::v1::ServiceAccount>(json!({"metadata": ns})),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<rbac::v1::Role>(
            json!({"metadata": ns, "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]})
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<rbac::v1::ClusterRoleBinding>(json!({"metadata": {"name": "system:x"},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"},
            "subjects": [{"kind": "ServiceAccount", "name": "default", "namespace": "default"}]})),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<networking::v1::Ingress>(
            json!({"metadata": ns, "spec": {"rules": [{"host": "*.example.com",
            "http": {"paths": [{"path": "/", "pathType": "Prefix",
                "backend": {"service": {"name": "web", "port": {"number": 80}}}}]}}]}})
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<networking::v1::NetworkPolicy>(json!({"metadata": ns, "spec": {"podSelector": {},
            "ingress": [{"from": [{"ipBlock": {"cidr": "10.0.0.0/8", "except": ["10.1.0.0/16"]}}],
                "ports": [{"port": 80, "endPort": 90}]}]}})),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<policy::v1::PodDisruptionBudget>(
            json!({"metadata": ns, "spec": {"minAvailable": "50%"}})
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<coordination::v1::Lease>(
            json!({"metadata": ns, "spec": {"leaseDurationSeconds": 15}})
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<scheduling::v1::PriorityClass>(
            json!({"metadata": {"name": "high"}, "value": 1000})
        ),
        Vec::<String>::new()
    );
}

#[test]
fn object_meta_names_per_kind() {
    use k8s_types::{core, rbac};
    // Services' names are DNS-1123 labels in 1.36 (`RelaxedServiceNameValidation`): a
    // leading digit is fine, a dot is not.
    let svc = |name: &str| {
        json!({"metadata": {"name": name, "namespace": "default"},
            "spec": {"ports": [{"port": 80}]}})
    };
    assert_eq!(
        errors::<core::v1::Service>(svc("1web")),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<core::v1::Service>(svc("a.b")),
        ["metadata.name: Invalid value: \"a.b\": must not contain dots"]
    );
    // Namespaces' names are DNS-1123 labels: no dot.
    assert_eq!(
        errors::<core::v1::Namespace>(json!({"metadata": {"name": "a.b"}})),
        ["metadata.name: Invalid value: \"a.b\": must not contain dots"]
    );
    // RBAC names are path segments: `system:aggregate-to-view` is fine, `a/b` is not.
    assert_eq!(
        errors::<rbac::v1::ClusterRole>(json!({"metadata": {"name": "a/b"}})),
        ["metadata.name: Invalid value: \"a/b\": may not contain '/'"]
    );
    let mut p = pod();
    p["metadata"] = json!({"generateName": "Web-", "namespace": "default",
        "labels": {"bad key!": "v"}, "finalizers": ["noslash", "example.com/a", "example.com/a"]});
    assert_eq!(
        errors::<Pod>(p),
        [
            "metadata.generateName: Invalid value: \"Web-\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            // The name is generated before validation: a generateName is not enough.
            "metadata.name: Required value: name or generateName is required",
            "metadata.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            // Repeated finalizers are allowed; one without a domain must be standard.
            "metadata.finalizers[0]: Invalid value: \"noslash\": name is neither a standard finalizer name nor is it fully qualified",
        ]
    );
}

#[test]
fn pod_spec_containers_follow_go() {
    let mut p = pod();
    p["spec"] = json!({
    "restartPolicy": "Sometimes",
    "dnsPolicy": "Google",
    "hostname": "Host",
    "activeDeadlineSeconds": 0,
    "volumes": [{"name": "data"}, {"name": "data", "emptyDir": {}, "hostPath": {"path": "/x"}}],
    "containers": [
        {"name": "web", "image": " nginx", "imagePullPolicy": "Sometimes",
         "ports": [{"containerPort": 70000, "protocol": "HTTP"}, {"name": "http", "containerPort": 80},
                   {"name": "http", "containerPort": 81}],
         "env": [{"name": "A=B"}, {"name": "C", "value": "x", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
         "volumeMounts": [{"name": "nope", "mountPath": "/a"}, {"name": "data", "mountPath": "/a"}],
         "resources": {"requests": {"cpu": "2", "memory": "-1"}, "limits": {"cpu": "1", "gpu": "1"}},
         "livenessProbe": {"periodSeconds": 5, "successThreshold": 2}},
        {"name": "web", "image": ""}
    ]});
    assert_eq!(
        errors::<Pod>(p),
        [
            "spec.volumes[1].name: Duplicate value: \"data\"",
            "spec.volumes[1].hostPath: Forbidden: may not specify more than 1 volume type",
            "spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
            "spec.containers[0].ports[0].protocol: Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
            "spec.containers[0].ports[2].name: Duplicate value: \"http\"",
            "spec.containers[0].env[0].name: Invalid value: \"A=B\": a valid environment variable name must consist only of printable ASCII characters other than '='",
            "spec.containers[0].env[1].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty",
            "spec.containers[0].volumeMounts[0].name: Not found: \"nope\"",
            "spec.containers[0].volumeMounts[1].mountPath: Invalid value: \"/a\": must be unique",
            "spec.containers[0].imagePullPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"IfNotPresent\", \"Never\"",
            "spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": must be a standard resource type or fully qualified",
            "spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": must be a standard resource for containers",
            "spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1",
            // Defaulting copied the limit into the requests.
            "spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard resource type or fully qualified",
            "spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard resource for containers",
            "spec.containers[0].resources.requests[memory]: Invalid value: \"-1\": must be greater than or equal to 0",
            "spec.containers[0].livenessProbe: Required value: must specify a handler type",
            "spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1",
            "spec.containers[1].image: Required value",
            "spec.containers[1].name: Duplicate value: \"web\"",
            "spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"",
            "spec.dnsPolicy: Unsupported value: \"Google\": supported values: \"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", \"None\"",
            "spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive",
            "spec.hostname: Invalid value: \"Host\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
            "spec.containers[0].image: Invalid value: \" nginx\": must not have leading or trailing whitespace",
        ]
    );
}

#[test]
fn pod_spec_init_containers_probes_tolerations_affinity_and_security() {
    let mut p = pod();
    p["spec"] = with(
        &pod_spec(),
        json!({
            "initContainers": [{"name": "init", "image": "busybox", "readinessProbe": {"exec": {"command": ["true"]}}}],
            "tolerations": [{"operator": "Equal", "value": "x"}, {"key": "k", "operator": "Exists", "value": "v"},
                            {"key": "k", "effect": "NoSchedule", "tolerationSeconds": 5}],
            "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "zone", "operator": "In"}]}]},
                "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 0, "preference": {}}]}},
            "securityContext": {"runAsUser": -1},
        }),
    );
    p["spec"]["containers"][0]["readinessProbe"] =
        json!({"httpGet": {"port": 0}, "tcpSocket": {"port": "http"}});
    p["spec"]["containers"][0]["securityContext"] =
        json!({"privileged": true, "allowPrivilegeEscalation": false});
    assert_eq!(
        errors::<Pod>(p),
        [
            // Go's order: regular containers, then init containers, ..., affinity
            // before tolerations.
            // kube-apiserver's `--allow-privileged` is false unless set.
            "spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy",
            "spec.containers[0].securityContext: Invalid value: {\"Capabilities\":null,\"Privileged\":true,\"SELinuxOptions\":null,\"WindowsOptions\":null,\"RunAsUser\":null,\"RunAsGroup\":null,\"RunAsNonRoot\":null,\"ReadOnlyRootFilesystem\":null,\"AllowPrivilegeEscalation\":false,\"ProcMount\":null,\"SeccompProfile\":null,\"AppArmorProfile\":null}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
            "spec.containers[0].readinessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive",
            "spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type",
            "spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always",
            "spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive",
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
            "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100",
            "spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            "spec.tolerations[1].operator: Invalid value: \"v\": value must be empty when `operator` is 'Exists'",
            "spec.tolerations[2].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
        ]
    );
}

#[test]
fn volumes_need_one_source_when_not_defaulted() {
    // Defaulting gives a volume without source an emptyDir, as Go's does; undefaulted:
    let mut p: Pod = serde_json::from_value(pod()).unwrap();
    p.spec.volumes = vec![k8s_types::core::v1::Volume {
        name: "v".into(),
        ..Default::default()
    }];
    let errs = k8s_types::validation::validate_pod(&p);
    assert!(
        errs.iter().any(|e| e.to_string() == "spec.volumes[0]: Required value: must specify a volume type"),
        "{errs}"
    );
}

#[test]
fn pod_updates_may_change_images_only() {
    let old = pod();
    let mut new = pod();
    new["spec"]["containers"][0]["image"] = json!("nginx:1.28");
    assert_eq!(
        update_errors::<Pod>(old.clone(), new.clone()),
        Vec::<String>::new()
    );
    new["spec"]["containers"][0]["ports"][0]["containerPort"] = json!(8080);
    // Go appends `diff.Diff` of the old and the munged internal spec: its JSON with Go's
    // field names, every field, one a line.
    assert_eq!(
        update_errors::<Pod>(old, new),
        [
            "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n@@ -12,7 +12,7 @@\n     {\n      \"Name\": \"http\",\n      \"HostPort\": 0,\n-     \"ContainerPort\": 80,\n+     \"ContainerPort\": 8080,\n      \"Protocol\": \"TCP\",\n      \"HostIP\": \"\"\n     }\n"
        ]
    );
}

#[test]
fn deployment_rules_and_immutable_selector() {
    let d = with(
        &deployment(),
        json!({"spec": {"replicas": -1,
        "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": "0%"}},
        "progressDeadlineSeconds": 0,
        "template": {"metadata": {"labels": {"app": "api"}}, "spec": {"restartPolicy": "Never"}}}}),
    );
    assert_eq!(
        errors::<Deployment>(d),
        [
            "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
            "spec.template.metadata.labels: Invalid value: {\"app\":\"api\"}: `selector` does not match template `labels`",
            "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
            "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0",
            "spec.progressDeadlineSeconds: Invalid value: 0: must be greater than minReadySeconds",
        ]
    );
    // A surge may exceed 100%; unavailability may not.
    let surge = with(
        &deployment(),
        json!({"spec": {"strategy": {"rollingUpdate": {"maxSurge": "200%", "maxUnavailable": "101%"}}}}),
    );
    assert_eq!(
        errors::<Deployment>(surge),
        [
            "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"101%\": must not be greater than 100%"
        ]
    );
    let moved = with(
        &deployment(),
        json!({"spec": {"selector": {"matchLabels": {"app": "x"}},
        "template": {"metadata": {"labels": {"app": "x"}}}}}),
    );
    assert_eq!(
        update_errors::<Deployment>(deployment(), moved),
        ["spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"x\"}}: field is immutable"]
    );
}

#[test]
fn replica_set_daemon_set_and_stateful_set() {
    use k8s_types::apps::v1::{DaemonSet, ReplicaSet, StatefulSet};
    let empty = json!({"metadata": {"name": "x", "namespace": "default"},
        "spec": {"selector": {}, "template": {"spec": pod_spec()}}});
    assert_eq!(
        errors::<ReplicaSet>(empty.clone()),
        ["spec.selector: Invalid value: {}: empty selector is invalid for deployment"]
    );
    assert_eq!(
        errors::<DaemonSet>(empty.clone()),
        ["spec.selector: Invalid value: {}: empty selector is invalid for daemonset"]
    );
    assert_eq!(
        errors::<StatefulSet>(with(
            &empty,
            json!({"spec": {"podManagementPolicy": "Random"}})
        )),
        [
            "spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'",
            "spec.selector: Invalid value: {}: empty selector is invalid for statefulset",
        ]
    );
    let ss = json!({"metadata": {"name": "db", "namespace": "default"},
        "spec": {"serviceName": "db", "selector": {"matchLabels": {"app": "db"}},
            "template": {"metadata": {"labels": {"app": "db"}}, "spec": pod_spec()}}});
    assert_eq!(
        update_errors::<StatefulSet>(ss.clone(), with(&ss, json!({"spec": {"replicas": 5}}))),
        Vec::<String>::new()
    );
    assert_eq!(
        update_errors::<StatefulSet>(
            ss.clone(),
            with(&ss, json!({"spec": {"serviceName": "other"}}))
        ),
        // 1.37 names each immutable field changed.
        [if cfg!(feature = "v1_37") {
            "spec.serviceName: Invalid value: \"other\": field is immutable"
        } else {
            "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"
        }]
    );
}

#[test]
fn jobs_and_cron_schedules() {
    use k8s_types::batch::v1::{CronJob, Job};
    let job = json!({"metadata": {"name": "j", "namespace": "default"},
        "spec": {"backoffLimit": -1, "parallelism": 2, "completionMode": "Indexed", "template": {"spec": pod_spec()}}});
    assert_eq!(
        errors::<Job>(job),
        [
            "spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0",
            "spec.completions: Required value: when completion mode is Indexed",
            // Defaulted to Always, which Go reports as missing.
            "spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\"",
            // Go's strategy generates the selector before it validates; an object
            // judged as given has none.
            "spec.selector: Required value",
            "spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`",
        ]
    );
    let ok_job = json!({"metadata": {"name": "j", "namespace": "default"},
        "spec": {"manualSelector": true, "selector": {"matchLabels": {"app": "j"}},
            "template": {"metadata": {"labels": {"app": "j"}},
                "spec": with(&pod_spec(), json!({"restartPolicy": "Never"}))}}});
    let mut changed = ok_job.clone();
    changed["spec"]["template"]["spec"]["containers"][0]["image"] = json!("nginx:2");
    let errs = update_errors::<Job>(ok_job, changed);
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0].starts_with("spec.template: Invalid value: {")
            && errs[0].ends_with("}: field is immutable"),
        "{errs:?}"
    );

    let cron = |name: &str, schedule: &str| {
        json!({"metadata": {"name": name, "namespace": "default"},
            "spec": {"schedule": schedule, "jobTemplate": {"spec": {"template": {"spec":
                with(&pod_spec(), json!({"restartPolicy": "OnFailure"}))}}}}})
    };
    for (schedule, want) in [
        ("* * * *", "expected exactly 5 fields, found 4: [* * * *]"),
        ("61 * * * *", "end of range (61) above maximum (59): 61"),
        ("* * 0 * *", "beginning of range (0) below minimum (1): 0"),
        (
            "5-1 * * * *",
            "beginning of range (5) beyond end of range (1): 5-1",
        ),
        (
            "*/0 * * * *",
            "step of range should be a positive number: */0",
        ),
        (
            "x * * * *",
            "failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax",
        ),
        ("1-2-3 * * * *", "too many hyphens: 1-2-3"),
        ("@fortnightly", "unrecognized descriptor: @fortnightly"),
    ] {
        assert_eq!(
            errors::<CronJob>(cron("c", schedule)),
            [format!(
                "spec.schedule: Invalid value: {schedule:?}: {want}"
            )],
            "{schedule}"
        );
    }
    assert_eq!(
        errors::<CronJob>(cron("c", "@hourly")),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<CronJob>(cron("c", "@every 1h30m")),
        Vec::<String>::new()
    );
    assert_eq!(
        errors::<CronJob>(cron("c", "TZ=UTC 0 * * * *")),
        [
            "spec.schedule: Invalid value: \"TZ=UTC 0 * * * *\": cannot use TZ or CRON_TZ in schedule, use timeZone field instead"
        ]
    );
    let long = "a".repeat(53);
    assert_eq!(
        errors::<CronJob>(cron(&long, "0 * * * *")),
        [format!(
            "metadata.name: Invalid value: \"{long}\": must be no more than 52 characters"
        )]
    );
}

#[test]
fn services_ports_types_and_cluster_ip() {
    use k8s_types::core::v1::Service;
    let svc = json!({"metadata": {"name": "web", "namespace": "default"},
        "spec": {"type": "Internal", "ports": [{"port": 80, "nodePort": 30000}, {"port": 0, "protocol": "ICMP", "targetPort": "no_underscores"}]}});
    // Go checks the type after the ports, selector, affinity and addresses.
    assert_eq!(
        errors::<Service>(svc),
        [
            "spec.ports[0].name: Required value",
            "spec.ports[1].name: Required value",
            "spec.ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive",
            "spec.ports[1].protocol: Unsupported value: \"ICMP\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
            "spec.ports[1].targetPort: Invalid value: \"no_underscores\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
            "spec.type: Unsupported value: \"Internal\": supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\"",
        ]
    );
    assert_eq!(
        errors::<Service>(json!({"metadata": {"name": "web", "namespace": "default"},
            "spec": {"ports": [{"port": 80, "nodePort": 30000}]}})),
        ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]
    );
    let old = json!({"metadata": {"name": "web", "namespace": "default"},
        "spec": {"clusterIP": "10.0.0.10", "clusterIPs": ["10.0.0.10"], "ports": [{"port": 80}]}});
    assert_eq!(
        update_errors::<Service>(
            old.clone(),
            with(
                &old,
                json!({"spec": {"clusterIP": "10.0.0.11", "clusterIPs": ["10.0.0.11"]}})
            )
        ),
        ["spec.clusterIPs[0]: Invalid value: [\"10.0.0.11\"]: may not change once set"]
    );
    // `clusterIP` alone: kube-apiserver's storage fills `clusterIPs` before it validates,
    // a check of the manifest as given does not.
    assert_eq!(
        errors::<Service>(json!({"metadata": {"name": "web", "namespace": "default"},
            "spec": {"clusterIP": "10.0.0.10", "ports": [{"port": 80}]}})),
        ["spec.clusterIPs: Required value"]
    );
}

#[test]
fn services_dual_stack_and_load_balancers() {
    use k8s_types::core::v1::Service;
    let meta = json!({"name": "web", "namespace": "default"});
    assert_eq!(
        errors::<Service>(json!({"metadata": meta, "spec": {"ports": [{"port": 80}],
            "clusterIP": "10.0.0.10", "clusterIPs": ["10.0.0.10", "10.0.0.11"],
            "ipFamilies": ["IPv4", "IPv4"], "ipFamilyPolicy": "DualStack"}})),
        [
            "spec.ipFamilies[1]: Duplicate value: \"IPv4\"",
            "spec.ipFamilyPolicy: Unsupported value: \"DualStack\": supported values: \"PreferDualStack\", \"RequireDualStack\", \"SingleStack\"",
            "spec.clusterIPs: Invalid value: [\"10.0.0.10\",\"10.0.0.11\"]: may specify no more than one IP for each IP family",
        ]
    );
    assert_eq!(
        errors::<Service>(json!({"metadata": meta, "spec": {"ports": [{"port": 80}],
            "type": "LoadBalancer", "externalTrafficPolicy": "Local",
            "externalIPs": ["127.0.0.1"], "loadBalancerSourceRanges": ["10.0.0.0/33"],
            "loadBalancerClass": "a b"}})),
        [
            "spec.externalIPs[0]: Invalid value: \"127.0.0.1\": may not be in the loopback range (127.0.0.0/8, ::1/128)",
            "spec.LoadBalancerSourceRanges[0]: Invalid value: \"10.0.0.0/33\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
            "spec.loadBalancerClass: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            "spec.healthCheckNodePort: Required value",
        ]
    );
}

#[test]
fn config_maps_and_secrets() {
    use k8s_types::core::v1::{ConfigMap, Secret};
    let cm = json!({"metadata": {"name": "c", "namespace": "default"}, "data": {"a b": "x", "k": "1"},
        "binaryData": {"k": "eA=="}});
    assert_eq!(
        errors::<ConfigMap>(cm),
        [
            "data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
            "data[k]: Invalid value: \"k\": duplicate of key present in binaryData",
        ]
    );
    let frozen = json!({"metadata": {"name": "c", "namespace": "default"}, "immutable": true, "data": {"k": "1"}});
    assert_eq!(
        update_errors::<ConfigMap>(
            frozen.clone(),
            with(&frozen, json!({"immutable": false, "data": {"k": "2"}}))
        ),
        [
            "immutable: Forbidden: field is immutable when `immutable` is set",
            "data: Forbidden: field is immutable when `immutable` is set",
        ]
    );
    assert_eq!(
        errors::<Secret>(
            json!({"metadata": {"name": "s", "namespace": "default"}, "type": "kubernetes.io/tls", "data": {}})
        ),
        [
            "data[tls.crt]: Required value",
            "data[tls.key]: Required value"
        ]
    );
    // Go's own JSON syntax error, the contents redacted.
    assert_eq!(
        errors::<Secret>(json!({"metadata": {"name": "s", "namespace": "default"},
            "type": "kubernetes.io/dockerconfigjson", "data": {".dockerconfigjson": "bm90IGpzb24="}})),
        [
            "data[.dockerconfigjson]: Invalid value: \"<secret contents redacted>\": invalid character 'o' in literal null (expecting 'u')"
        ]
    );
    assert_eq!(
        errors::<Secret>(
            json!({"metadata": {"name": "s", "namespace": "default"}, "type": "kubernetes.io/service-account-token"})
        ),
        ["metadata.annotations[kubernetes.io/service-account.name]: Required value"]
    );
    let s = json!({"metadata": {"name": "s", "namespace": "default"}, "type": "Opaque"});
    assert_eq!(
        update_errors::<Secret>(
            s.clone(),
            with(
                &s,
                json!({"type": "kubernetes.io/basic-auth", "data": {"username": "dQ=="}})
            )
        ),
        ["type: Invalid value: \"kubernetes.io/basic-auth\": field is immutable"]
    );
}

#[test]
fn rbac_rules_refs_and_subjects() {
    use k8s_types::rbac::v1::{ClusterRole, Role, RoleBinding};
    assert_eq!(
        errors::<Role>(json!({"metadata": {"name": "r", "namespace": "default"},
            "rules": [{"verbs": []}, {"verbs": ["get"], "nonResourceURLs": ["/healthz"]}]})),
        [
            // Kubernetes 1.37's declarative rule (its error has no detail) stands in for
            // the hand-written one (validation_releases.rs).
            if cfg!(feature = "v1_37") {
                "rules[0].verbs: Required value"
            } else {
                "rules[0].verbs: Required value: verbs must contain at least one value"
            },
            "rules[0].apiGroups: Required value: resource rules must supply at least one api group",
            "rules[0].resources: Required value: resource rules must supply at least one resource",
            "rules[1].nonResourceURLs: Invalid value: [\"/healthz\"]: namespaced rules cannot apply to non-resource URLs",
        ]
    );
    assert_eq!(
        errors::<ClusterRole>(json!({"metadata": {"name": "r"}, "aggregationRule": {}})),
        [
            "aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil"
        ]
    );
    let rb = json!({"metadata": {"name": "rb", "namespace": "default"},
        "roleRef": {"apiGroup": "rbac", "kind": "Thing", "name": ""},
        "subjects": [{"kind": "Robot", "name": "r"}, {"kind": "User", "name": "u", "apiGroup": "users"}]});
    assert_eq!(
        errors::<RoleBinding>(rb),
        [
            "roleRef.apiGroup: Unsupported value: \"rbac\": supported values: \"rbac.authorization.k8s.io\"",
            "roleRef.kind: Unsupported value: \"Thing\": supported values: \"Role\", \"ClusterRole\"",
            "roleRef.name: Required value",
            "subjects[0].kind: Unsupported value: \"Robot\": supported values: \"ServiceAccount\", \"User\", \"Group\"",
            "subjects[1].apiGroup: Unsupported value: \"users\": supported values: \"rbac.authorization.k8s.io\"",
        ]
    );
    let ok = json!({"metadata": {"name": "rb", "namespace": "default"},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "a"}});
    assert_eq!(
        update_errors::<RoleBinding>(ok.clone(), with(&ok, json!({"roleRef": {"name": "b"}}))),
        [if cfg!(feature = "v1_37") {
            "roleRef: Invalid value: {\"APIGroup\":\"rbac.authorization.k8s.io\",\"Kind\":\"Role\",\"Name\":\"b\"}: field is immutable"
        } else {
            "roleRef: Invalid value: {\"APIGroup\":\"rbac.authorization.k8s.io\",\"Kind\":\"Role\",\"Name\":\"b\"}: cannot change roleRef"
        }]
    );
}

#[test]
fn ingress_and_network_policy() {
    use k8s_types::networking::v1::{Ingress, NetworkPolicy};
    let ing = json!({"metadata": {"name": "i", "namespace": "default"}, "spec": {"rules": [
        {"host": "10.0.0.1", "http": {"paths": [
            {"path": "api", "pathType": "Prefix", "backend": {}},
            {"path": "/", "pathType": "Regex", "backend": {"service": {"name": "web", "port": {"name": "http", "number": 80}}}},
            {"path": "/x", "backend": {"service": {"name": "web"}}}]}}]}});
    let errs = errors::<Ingress>(ing);
    assert_eq!(
        errs,
        [
            "spec.rules[0].host: Invalid value: \"10.0.0.1\": must be a DNS name, not an IP address",
            "spec.rules[0].http.paths[0].path: Invalid value: \"api\": must be an absolute path",
            "spec.rules[0].http.paths[0].backend: Invalid value: \"\": resource or service backend is required",
            "spec.rules[0].http.paths[1].pathType: Unsupported value: \"Regex\": supported values: \"Exact\", \"ImplementationSpecific\", \"Prefix\"",
            "spec.rules[0].http.paths[1].backend: Invalid value: \"\": cannot set both port name & port number",
            "spec.rules[0].http.paths[2].pathType: Required value: pathType must be specified",
        ]
    );
    assert_eq!(
        errors::<Ingress>(json!({"metadata": {"name": "i", "namespace": "default"}, "spec": {}})),
        ["spec: Invalid value: null: either `defaultBackend` or `rules` must be specified"]
    );
    let np = json!({"metadata": {"name": "n", "namespace": "default"}, "spec": {"podSelector": {},
        "ingress": [{"ports": [{"protocol": "ICMP", "port": "http", "endPort": 90}],
            "from": [{}, {"ipBlock": {"cidr": "10.0.0.0/16", "except": ["10.1.0.0/24"]}, "podSelector": {}}]}],
        "policyTypes": ["Inbound"]}});
    assert_eq!(
        errors::<NetworkPolicy>(np),
        [
            "spec.ingress[0].ports[0].protocol: Unsupported value: \"ICMP\": supported values: \"TCP\", \"UDP\", \"SCTP\"",
            "spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric",
            "spec.ingress[0].from[0]: Required value: must specify a peer",
            "spec.ingress[0].from[1].ipBlock.except[0]: Invalid value: \"10.1.0.0/24\": must be a strict subset of `cidr`",
            "spec.ingress[0].from[1]: Forbidden: may not specify both ipBlock and another peer",
            "spec.policyTypes[0]: Unsupported value: \"Inbound\": supported values: \"Ingress\", \"Egress\"",
        ]
    );
}

#[test]
fn pdb_lease_and_priority_class() {
    use k8s_types::coordination::v1::Lease;
    use k8s_types::policy::v1::PodDisruptionBudget;
    use k8s_types::scheduling::v1::PriorityClass;
    assert_eq!(
        errors::<PodDisruptionBudget>(json!({"metadata": {"name": "p", "namespace": "default"},
            "spec": {"minAvailable": "150%", "maxUnavailable": "x", "unhealthyPodEvictionPolicy": "Never"}})),
        [
            "spec: Invalid value: {\"MinAvailable\":\"150%\",\"Selector\":null,\"MaxUnavailable\":\"x\",\"UnhealthyPodEvictionPolicy\":\"Never\"}: minAvailable and maxUnavailable cannot be both set",
            "spec.minAvailable: Invalid value: \"150%\": must not be greater than 100%",
            "spec.maxUnavailable: Invalid value: \"x\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
            "spec.unhealthyPodEvictionPolicy: Unsupported value: \"Never\": supported values: \"AlwaysAllow\", \"IfHealthyBudget\"",
        ]
    );
    assert_eq!(
        errors::<Lease>(json!({"metadata": {"name": "l", "namespace": "default"},
            "spec": {"leaseDurationSeconds": 0, "leaseTransitions": -1, "preferredHolder": "a"}})),
        [
            "spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0",
            "spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0",
            "spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined",
        ]
    );
    assert_eq!(
        errors::<PriorityClass>(json!({"metadata": {"name": "huge"}, "value": 1_000_000_001})),
        ["value: Forbidden: maximum allowed value of a user defined priority is 1000000000"]
    );
    assert_eq!(
        errors::<PriorityClass>(json!({"metadata": {"name": "system-mine"}, "value": 1})),
        [
            "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class"
        ]
    );
    let pc = json!({"metadata": {"name": "high"}, "value": 10});
    assert_eq!(
        update_errors::<PriorityClass>(pc.clone(), with(&pc, json!({"value": 11}))),
        ["value: Forbidden: may not be changed in an update."]
    );
}

/// Random values in the leaves of valid objects (strings of odd characters, extreme
/// numbers, long label sets, malformed quantities): validation reports, never panics,
/// and every error names a field.
#[test]
fn random_objects_never_panic() {
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
            &items[(self.next() % items.len() as u64) as usize]
        }
    }
    fn mutate(v: &mut Value, rng: &mut Rng) {
        const STRINGS: &[&str] = &[
            "",
            "-",
            "a..b",
            "*",
            "Ünïcode",
            "x/y/z",
            "%2f",
            "1e3",
            "-5%",
            "999999%",
            "a\u{0}b",
            "10.0.0.0/33",
            "::1",
            "@every",
            "*/0 * * * *",
        ];
        const NUMBERS: &[i64] = &[0, -1, 1, 65536, 2147483647, -2147483648];
        match v {
            Value::String(s) => {
                *s = if rng.next() % 3 == 0 {
                    "x".repeat((rng.next() % 300) as usize)
                } else {
                    (*rng.pick(STRINGS)).to_owned()
                }
            }
            Value::Number(_) => *v = json!(*rng.pick(NUMBERS)),
            Value::Array(items) => {
                for item in items.iter_mut() {
                    if rng.next() % 2 == 0 {
                        mutate(item, rng);
                    }
                }
                if rng.next() % 4 == 0 {
                    if let Some(first) = items.first().cloned() {
                        items.push(first);
                    }
                }
            }
            Value::Object(map) => {
                for (_, item) in map.iter_mut() {
                    if rng.next() % 2 == 0 {
                        mutate(item, rng);
                    }
                }
            }
            _ => {}
        }
    }
    fn run<T: Object + DeserializeOwned>(base: &Value, rng: &mut Rng) {
        for _ in 0..300 {
            let mut v = base.clone();
            mutate(&mut v, rng);
            if rng.next() % 5 == 0 {
                let labels: serde_json::Map<String, Value> = (0..200)
                    .map(|i| (format!("k{i}.example.com/n{i}"), json!("v")))
                    .collect();
                v["metadata"]["labels"] = Value::Object(labels);
            }
            let Ok(mut obj) = serde_json::from_value::<T>(v) else {
                continue;
            };
            scheme().default(&mut obj);
            let errs = scheme().validate(&obj, None).expect("a validator");
            assert!(errs.iter().all(|e| !e.to_string().is_empty()));
            let old = obj.deep_copy_object();
            let _ = scheme().validate(&obj, Some(&*old));
        }
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let full_pod = with(
        &pod(),
        json!({"spec": {
        "volumes": [{"name": "v", "configMap": {"name": "c", "defaultMode": 420}}],
        "tolerations": [{"key": "k", "operator": "Equal", "value": "v", "effect": "NoExecute", "tolerationSeconds": 5}],
        "containers": [{"name": "web", "image": "nginx", "ports": [{"containerPort": 80, "hostPort": 8080}],
            "env": [{"name": "A", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}}],
            "resources": {"requests": {"cpu": "100m"}, "limits": {"cpu": "1", "example.com/gpu": "1"}},
            "volumeMounts": [{"name": "v", "mountPath": "/v"}],
            "livenessProbe": {"httpGet": {"path": "/", "port": 80}, "periodSeconds": 3}}]}}),
    );
    run::<Pod>(&full_pod, &mut rng);
    run::<Deployment>(&deployment(), &mut rng);
    run::<k8s_types::core::v1::Service>(
        &json!({"metadata": {"name": "s", "namespace": "d"}, "spec": {"type": "NodePort", "clusterIP": "10.0.0.1",
            "ports": [{"name": "a", "port": 80, "targetPort": 8080, "nodePort": 30001}]}}),
        &mut rng,
    );
    run::<k8s_types::batch::v1::CronJob>(
        &json!({"metadata": {"name": "c", "namespace": "d"}, "spec": {"schedule": "0 1 * * 1-5",
            "jobTemplate": {"spec": {"completions": 3, "template": {"spec": pod_spec()}}}}}),
        &mut rng,
    );
    run::<k8s_types::networking::v1::NetworkPolicy>(
        &json!({"metadata": {"name": "n", "namespace": "d"}, "spec": {"podSelector": {"matchLabels": {"a": "b"}},
            "egress": [{"to": [{"ipBlock": {"cidr": "fd00::/8", "except": ["fd00::/16"]}}], "ports": [{"port": 1, "endPort": 2}]}]}}),
        &mut rng,
    );
    run::<k8s_types::policy::v1::PodDisruptionBudget>(
        &json!({"metadata": {"name": "p", "namespace": "d"}, "spec": {"maxUnavailable": "10%", "selector": {"matchLabels": {"a": "b"}}}}),
        &mut rng,
    );
}

#[test]
fn huge_label_sets_and_annotations_are_errors_with_paths() {
    let mut p = pod();
    let big = "v".repeat(300 * 1024);
    p["metadata"]["annotations"] = json!({"a": big});
    p["metadata"]["labels"] = json!({"k": "x".repeat(64)});
    let errs = errors::<Pod>(p);
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert!(
        errs[0].starts_with("metadata.labels: Invalid value: \"xxxx"),
        "{}",
        errs[0]
    );
    assert!(
        errs[0].ends_with("must be no more than 63 bytes"),
        "{}",
        errs[0]
    );
    assert_eq!(
        errs[1],
        "metadata.annotations: Too long: may not be more than 262144 bytes"
    );
}

#[test]
fn kinds_without_validator_answer_none() {
    // kube-apiserver only reads ComponentStatuses: no strategy validates one.
    let cs = k8s_types::core::v1::ComponentStatus::default();
    assert!(scheme().validate(&cs, None).is_none());
}

/// The pod spec's `spec` after `patch`, defaulted and validated.
pub(crate) fn pod_spec_errors(patch: Value) -> Vec<String> {
    let mut p = pod();
    p["spec"] = with(&pod_spec(), patch);
    errors::<Pod>(p)
}

#[test]
fn pod_affinity_terms_and_node_selector_rules_follow_go() {
    let errs = pod_spec_errors(json!({"affinity": {
        "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{
            "matchExpressions": [{"key": "zone", "operator": "In", "values": ["-a"]},
                                 {"key": "size", "operator": "Gt", "values": ["1", "2"]},
                                 {"key": "x", "operator": "Near"}],
            "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["A_B"]},
                            {"key": "spec.nodeName", "operator": "Exists"}]}]},
            // Preferred terms may name values no node carries.
            "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 101, "preference": {
                "matchExpressions": [{"key": "zone", "operator": "In", "values": ["-a"]}]}}]},
        "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
            "labelSelector": {"matchLabels": {"app": "web"}}, "namespaces": ["Bad_NS"],
            "matchLabelKeys": ["pod-template-hash"], "mismatchLabelKeys": ["/x"]}]},
        "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 0,
            "podAffinityTerm": {"topologyKey": "kubernetes.io/hostname",
                "namespaceSelector": {"matchExpressions": [{"key": "team", "operator": "Exists", "values": ["a"]}]}}}]}
    }}));
    let na = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]";
    let label_value = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    let subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    let label = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    let name_part = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    let pa = "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]";
    let anti = "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]";
    assert_eq!(
        errs,
        [
            format!("{na}.matchExpressions[0].values[0]: Invalid value: \"-a\": {label_value}"),
            format!("{na}.matchExpressions[1].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"),
            format!("{na}.matchExpressions[2].operator: Invalid value: \"Near\": not a valid selector operator"),
            format!("{na}.matchFields[0].values[0]: Invalid value: \"A_B\": {subdomain}"),
            format!("{na}.matchFields[1].operator: Invalid value: \"Exists\": not a valid selector operator"),
            format!("{na}.matchFields[1].key: Invalid value: \"spec.nodeName\": not a valid field selector key"),
            "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100".to_string(),
            format!("{pa}.namespace: Invalid value: \"Bad_NS\": {label}"),
            format!("{pa}.mismatchLabelKeys[0]: Invalid value: \"/x\": prefix part must be non-empty"),
            format!("{pa}.topologyKey: Required value: can not be empty"),
            format!("{pa}.topologyKey: Invalid value: \"\": name part must be non-empty"),
            format!("{pa}.topologyKey: Invalid value: \"\": {name_part}"),
            format!("{anti}.weight: Invalid value: 0: must be in the range 1-100"),
            format!("{anti}.podAffinityTerm.namespaceSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        ]
    );
    let errs = pod_spec_errors(json!({"affinity": {"nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}}}}));
    assert_eq!(
        errs,
        [
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term"
        ]
    );
    // Label keys need a selector, and may not repeat what the selector or the other
    // list already says (the first error names the term's index, as Go's does).
    let errs = pod_spec_errors(json!({"affinity": {"podAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [
            {"topologyKey": "zone", "matchLabelKeys": ["app"]},
            {"topologyKey": "zone", "matchLabelKeys": ["tier", "app"], "mismatchLabelKeys": ["app"],
             "labelSelector": {"matchLabels": {"app": "web"},
                "matchExpressions": [{"key": "app", "operator": "In", "values": ["web"]}]}}]}}}));
    assert_eq!(
        errs,
        [
            format!("{pa}.matchLabelKeys: Forbidden: must not be specified when labelSelector is not set"),
            "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1][1]: Invalid value: \"app\": exists in both matchLabelKeys and labelSelector".to_string(),
            "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].matchLabelKeys[1]: Invalid value: \"app\": exists in both matchLabelKeys and mismatchLabelKeys".to_string(),
        ]
    );
}

#[test]
fn topology_spread_constraints_follow_go() {
    let errs = pod_spec_errors(json!({"topologySpreadConstraints": [
        {"maxSkew": 0, "topologyKey": "", "whenUnsatisfiable": "Sometimes"},
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway", "minDomains": 0,
         "nodeAffinityPolicy": "Maybe", "matchLabelKeys": ["a/b/c"]},
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway",
         "labelSelector": {"matchExpressions": [{"key": "app", "operator": "In"}]}},
        {"maxSkew": 2, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule", "minDomains": 3,
         "nodeTaintsPolicy": "Honor"}
    ]}));
    let t = "spec.topologySpreadConstraints";
    assert_eq!(
        errs,
        [
            format!("{t}[0].maxSkew: Invalid value: 0: must be greater than zero"),
            format!("{t}[0].topologyKey: Required value: can not be empty"),
            format!(
                "{t}[0].whenUnsatisfiable: Unsupported value: \"Sometimes\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\""
            ),
            format!(
                "{t}[1].{{topologyKey, whenUnsatisfiable}}: Duplicate value: \"{{zone, ScheduleAnyway}}\""
            ),
            format!("{t}[1].minDomains: Invalid value: 0: must be greater than zero"),
            format!(
                "{t}[1].minDomains: Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway"
            ),
            format!(
                "{t}[1].nodeAffinityPolicy: Unsupported value: \"Maybe\": supported values: \"Honor\", \"Ignore\""
            ),
            format!(
                "{t}[1].matchLabelKeys[0]: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
            ),
            format!(
                "{t}[2].labelSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"
            ),
        ]
    );
}

#[test]
fn dns_config_and_host_aliases_follow_go() {
    let errs = pod_spec_errors(json!({"dnsPolicy": "None"}));
    assert_eq!(
        errs,
        ["spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None"]
    );
    let errs = pod_spec_errors(json!({"dnsPolicy": "None", "dnsConfig": {"searches": ["a.b"]}}));
    assert_eq!(
        errs,
        [
            "spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None"
        ]
    );
    let errs = pod_spec_errors(json!({
        "dnsConfig": {"nameservers": ["1.1.1.1", "8.8.8.8", "9.9.9.9", "10.0.0.300"],
            "searches": [".", "_sip._tcp.example.com.", "Bad.example", "x".repeat(2100)],
            "options": [{"name": "ndots", "value": "2"}, {"value": "1"}]},
        "hostAliases": [{"ip": "10.0.0.1", "hostnames": ["foo.local", "Foo"]}, {"ip": "nope"}],
    }));
    let d = "spec.dnsConfig";
    let under = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')";
    let long = "x".repeat(2100);
    assert_eq!(
        errs,
        [
            format!("{d}.nameservers: Invalid value: [\"1.1.1.1\",\"8.8.8.8\",\"9.9.9.9\",\"10.0.0.300\"]: must not have more than 3 nameservers"),
            format!("{d}.nameservers[3]: Invalid value: \"10.0.0.300\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"),
            format!("{d}.searches: Invalid value: [\".\",\"_sip._tcp.example.com.\",\"Bad.example\",\"{long}\"]: must not have more than 2048 characters (including spaces) in the search list"),
            format!("{d}.searches[2]: Invalid value: \"Bad.example\": {under}"),
            format!("{d}.searches[3]: Invalid value: \"{long}\": must be no more than 253 characters"),
            format!("{d}.options[1]: Required value: must not be empty"),
            "spec.hostAliases[0].hostnames[1]: Invalid value: \"Foo\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".to_string(),
            "spec.hostAliases[1].ip: Invalid value: \"nope\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)".to_string(),
        ]
    );
    let searches: Vec<String> = (0..33).map(|i| format!("s{i}.local")).collect();
    let errs = pod_spec_errors(json!({"dnsConfig": {"searches": searches}}));
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0].starts_with("spec.dnsConfig.searches: Invalid value: [\"s0.local\""),
        "{errs:?}"
    );
    assert!(errs[0].ends_with("]: must not have more than 32 search paths"));
}

#[test]
fn gates_claims_and_pod_level_names_follow_go() {
    let errs = pod_spec_errors(json!({
        "schedulingGates": [{"name": "example.com/wait"}, {"name": "-x"}, {"name": "example.com/wait"}],
        "readinessGates": [{"conditionType": "example.com/ready"}, {"conditionType": "a/b/c"}],
        "resourceClaims": [{"name": "gpu", "resourceClaimName": "gpu-claim"}, {"name": "gpu", "resourceClaimTemplateName": "t"},
                           {"name": "Bad"}, {"name": "", "resourceClaimName": "a", "resourceClaimTemplateName": "Bad_Name"}],
        "runtimeClassName": "Kata",
        "preemptionPolicy": "Always",
    }));
    let name_part = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    let subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    let label = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    assert_eq!(
        errs,
        [
            "spec.resourceClaims[1].name: Duplicate value: \"gpu\"".to_string(),
            format!("spec.resourceClaims[2].name: Invalid value: \"Bad\": {label}"),
            "spec.resourceClaims[2]: Invalid value: {\"Name\":\"Bad\",\"ResourceClaimName\":null,\"ResourceClaimTemplateName\":null}: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`".to_string(),
            "spec.resourceClaims[3].name: Required value".to_string(),
            "spec.resourceClaims[3]: Invalid value: {\"Name\":\"\",\"ResourceClaimName\":\"a\",\"ResourceClaimTemplateName\":\"Bad_Name\"}: at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified".to_string(),
            format!("spec.resourceClaims[3].resourceClaimTemplateName: Invalid value: \"Bad_Name\": {subdomain}"),
            "spec.readinessGates[1].conditionType: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')".to_string(),
            format!("spec.schedulingGates[1]: Invalid value: \"-x\": {name_part}"),
            "spec.schedulingGates[2]: Duplicate value: \"example.com/wait\"".to_string(),
            format!("spec.runtimeClassName: Invalid value: \"Kata\": {subdomain}"),
            "spec.preemptionPolicy: Unsupported value: \"Always\": supported values: \"PreemptLowerPriority\", \"Never\"".to_string(),
        ]
    );
}

#[test]
fn ephemeral_containers_and_probe_rules_follow_go() {
    let mut p = pod();
    p["spec"]["ephemeralContainers"] = json!([
        {"name": "debug", "image": "busybox", "targetContainerName": "nope",
         "resources": {"limits": {"cpu": "1"}},
         "volumeMounts": [{"name": "data", "mountPath": "/d", "subPath": "x"}]},
        {"name": "web", "image": "busybox", "targetContainerName": "web"}
    ]);
    p["spec"]["volumes"] = json!([{"name": "data", "emptyDir": {}}]);
    p["spec"]["containers"][0]["readinessProbe"] =
        json!({"exec": {"command": ["true"]}, "terminationGracePeriodSeconds": 10});
    let e = "spec.ephemeralContainers";
    assert_eq!(
        errors::<Pod>(p),
        [
            "spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes".to_string(),
            format!("{e}[0].targetContainerName: Not found: \"nope\""),
            format!("{e}[0].resources: Forbidden: cannot be set for an Ephemeral Container"),
            format!("{e}[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container"),
            format!("{e}[1].name: Duplicate value: \"web\""),
            // Only the ephemeralcontainers subresource may add them.
            format!("{e}: Forbidden: cannot be set on create"),
        ]
    );
}

#[test]
fn termination_grace_period_is_required_when_not_defaulted() {
    use apimachinery::util::validation::field::Path;
    let spec: k8s_types::core::v1::PodSpec = serde_json::from_value(json!({
        "containers": [{"name": "web", "image": "nginx", "imagePullPolicy": "Always",
            "terminationMessagePolicy": "File"}],
        "restartPolicy": "Always", "dnsPolicy": "ClusterFirst"}))
    .unwrap();
    let errs = k8s_types::validation::validate_pod_spec(&spec, &Path::new("spec"));
    assert_eq!(
        errs.to_string(),
        "spec.terminationGracePeriodSeconds: Required value"
    );
}

#[test]
fn seccomp_apparmor_proc_mount_and_privilege_escalation_follow_go() {
    let mut p = pod();
    p["spec"]["securityContext"] = json!({
        "seccompProfile": {"type": "Localhost"},
        "appArmorProfile": {"type": "Unconfined", "localhostProfile": "x"},
        "fsGroup": -1, "runAsGroup": 2147483648i64, "supplementalGroups": [1, -2],
        "fsGroupChangePolicy": "Sometimes", "supplementalGroupsPolicy": "Union",
        "seLinuxChangePolicy": "Never"});
    p["spec"]["containers"][0]["securityContext"] = json!({
        "procMount": "Unmasked", "runAsUser": -5,
        "seccompProfile": {"type": "RuntimeDefault", "localhostProfile": "p.json"},
        "appArmorProfile": {"type": "Localhost", "localhostProfile": " k8s "},
        "allowPrivilegeEscalation": false, "capabilities": {"add": ["CAP_SYS_ADMIN"]}});
    p["spec"]["initContainers"] = json!([{"name": "init", "image": "busybox", "securityContext": {
        "procMount": "Masked", "seccompProfile": {"type": "Localhost", "localhostProfile": "/abs/../p.json"},
        "appArmorProfile": {"type": "Complain"}}}]);
    p["spec"]["ephemeralContainers"] = json!([{"name": "debug", "image": "busybox", "securityContext": {
        "seccompProfile": {}, "appArmorProfile": {"type": ""}}}]);
    // Go prints its internal type: Go's field names, every field.
    let sc = r#"{"Capabilities":{"Add":["CAP_SYS_ADMIN"],"Drop":null},"Privileged":null,"SELinuxOptions":null,"WindowsOptions":null,"RunAsUser":-5,"RunAsGroup":null,"RunAsNonRoot":null,"ReadOnlyRootFilesystem":null,"AllowPrivilegeEscalation":false,"ProcMount":"Unmasked","SeccompProfile":{"Type":"RuntimeDefault","LocalhostProfile":"p.json"},"AppArmorProfile":{"Type":"Localhost","LocalhostProfile":" k8s "}}"#;
    let c = "spec.containers[0].securityContext";
    let i = "spec.initContainers[0].securityContext";
    let e = "spec.ephemeralContainers[0].securityContext";
    let s = "spec.securityContext";
    assert_eq!(
        errors::<Pod>(p),
        [
            format!(
                "{c}.runAsUser: Invalid value: -5: must be between 0 and 2147483647, inclusive"
            ),
            format!(
                "{c}.procMount: Invalid value: \"Unmasked\": `hostUsers` must be false to use `Unmasked`"
            ),
            format!(
                "{c}.seccompProfile.localhostProfile: Invalid value: {{\"Type\":\"RuntimeDefault\",\"LocalhostProfile\":\"p.json\"}}: can only be set when seccomp type is Localhost"
            ),
            format!(
                "{c}: Invalid value: {sc}: cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"
            ),
            format!(
                "{c}.appArmorProfile.localhostProfile: Invalid value: \" k8s \": must not be padded with whitespace"
            ),
            format!(
                "{i}.procMount: Unsupported value: \"Masked\": supported values: \"Default\", \"Unmasked\""
            ),
            format!(
                "{i}.seccompProfile.localhostProfile: Invalid value: \"/abs/../p.json\": must be a relative path"
            ),
            format!(
                "{i}.seccompProfile.localhostProfile: Invalid value: \"/abs/../p.json\": must not contain '..'"
            ),
            format!(
                "{i}.appArmorProfile.type: Unsupported value: \"Complain\": supported values: \"Localhost\", \"RuntimeDefault\", \"Unconfined\""
            ),
            format!(
                "{e}.seccompProfile.type: Required value: type is required when seccompProfile is set"
            ),
            format!(
                "{e}.appArmorProfile.type: Required value: type is required when appArmorProfile is set"
            ),
            format!("{s}.fsGroup: Invalid value: -1: must be between 0 and 2147483647, inclusive"),
            format!(
                "{s}.runAsGroup: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive"
            ),
            format!(
                "{s}.supplementalGroups[1]: Invalid value: -2: must be between 0 and 2147483647, inclusive"
            ),
            format!(
                "{s}.fsGroupChangePolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnRootMismatch\""
            ),
            format!(
                "{s}.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost"
            ),
            format!(
                "{s}.appArmorProfile.localhostProfile: Invalid value: \"x\": can only be set when AppArmor type is Localhost"
            ),
            format!(
                "{s}.supplementalGroupsPolicy: Unsupported value: \"Union\": supported values: \"Merge\", \"Strict\""
            ),
            // SELinuxMount is on from 1.37: every policy is allowed.
            format!(
                "{s}.seLinuxChangePolicy: Unsupported value: \"Never\": supported values: {}",
                if cfg!(feature = "v1_37") {
                    "\"MountOption\", \"Recursive\""
                } else {
                    "\"Recursive\""
                }
            ),
            "spec.ephemeralContainers: Forbidden: cannot be set on create".to_string(),
        ]
    );
    // In its own user namespace, a container may unmask /proc.
    let mut p = pod();
    p["spec"]["hostUsers"] = json!(false);
    p["spec"]["containers"][0]["securityContext"] = json!({"procMount": "Unmasked"});
    assert_eq!(errors::<Pod>(p), Vec::<String>::new());
}

#[test]
fn sysctls_host_users_and_share_process_namespace_follow_go() {
    let errs = pod_spec_errors(json!({
        "hostNetwork": true, "hostIPC": true, "hostPID": true, "shareProcessNamespace": true,
        "hostUsers": false,
        "containers": [{"name": "web", "image": "nginx"}],
        "securityContext": {"sysctls": [
            {"name": "net.core.somaxconn", "value": "1024"},
            {"name": "kernel.shm_rmid_forced", "value": "1"},
            {"name": "kernel.pid_max", "value": "1"},
            {"name": "kernel.pid_max", "value": "2"},
            {"name": "Kernel.Bad", "value": "1"},
            {"name": "", "value": "1"},
            {"name": "net/ipv4/conf/eth0.100/rp_filter", "value": "1"}]}}));
    let s = "spec.securityContext";
    assert_eq!(
        errs,
        [
            // 1.37 reports it on the spec's own field.
            format!(
                "{}.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled",
                if cfg!(feature = "v1_37") { "spec" } else { s }
            ),
            format!(
                "{s}.sysctls[0].name: Invalid value: \"net.core.somaxconn\": may not be specified when 'hostNetwork' is true"
            ),
            format!(
                "{s}.sysctls[1].name: Invalid value: \"kernel.shm_rmid_forced\": may not be specified when 'hostIPC' is true"
            ),
            format!("{s}.sysctls[3].name: Duplicate value: \"kernel.pid_max\""),
            format!(
                "{s}.sysctls[4].name: Invalid value: \"Kernel.Bad\": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$"
            ),
            format!("{s}.sysctls[5].name: Required value"),
            format!(
                "{s}.sysctls[6].name: Invalid value: \"net/ipv4/conf/eth0.100/rp_filter\": may not be specified when 'hostNetwork' is true"
            ),
            "spec.hostNetwork: Forbidden: when `hostUsers` is false".to_string(),
            "spec.HostPID: Forbidden: when `hostUsers` is false".to_string(),
            "spec.HostIPC: Forbidden: when `hostUsers` is false".to_string(),
        ]
    );
}

#[test]
fn os_name_and_the_fields_each_os_forbids_follow_go() {
    assert_eq!(
        pod_spec_errors(json!({"os": {"name": "darwin"}})),
        ["spec.os: Unsupported value: \"darwin\": supported values: \"linux\", \"windows\""]
    );
    assert_eq!(
        pod_spec_errors(json!({"os": {"name": ""}})),
        ["spec.os.name: Required value"]
    );
    let mut p = pod();
    p["spec"]["os"] = json!({"name": "linux"});
    p["spec"]["securityContext"] = json!({"windowsOptions": {"runAsUserName": "CONTOSO\\web"}});
    p["spec"]["containers"][0]["securityContext"] =
        json!({"windowsOptions": {"gmsaCredentialSpecName": "Bad_Name"}});
    assert_eq!(
        errors::<Pod>(p),
        [
            "spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpecName: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            "spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod",
            "spec.containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod",
        ]
    );
    let mut p = pod();
    p["spec"]["os"] = json!({"name": "windows"});
    p["spec"]["hostPID"] = json!(true);
    p["spec"]["shareProcessNamespace"] = json!(false);
    p["spec"]["securityContext"] = json!({"runAsUser": 1000, "sysctls": [{"name": "a.b", "value": "1"}],
        "seLinuxOptions": {"level": "s0"}, "windowsOptions": {"runAsUserName": "a\\b\\c"}});
    p["spec"]["initContainers"] = json!([{"name": "init", "image": "busybox",
        "securityContext": {"privileged": false, "capabilities": {}}}]);
    p["spec"]["containers"][0]["securityContext"] = json!({"readOnlyRootFilesystem": true,
        "windowsOptions": {"runAsUserName": "..", "gmsaCredentialSpec": ""}});
    let s = "spec.securityContext";
    let f = "Forbidden: cannot be set for a windows pod";
    // Go 1.36 checked the host namespaces with the pod's security context (its internal
    // form kept them there); 1.37 checks them after it.
    let host_namespaces_and_context = if cfg!(feature = "v1_37") {
        [
            format!("{s}.sysctls: {f}"),
            format!("{s}.runAsUser: {f}"),
            format!("spec.hostPID: {f}"),
            format!("spec.shareProcessNamespace: {f}"),
        ]
    } else {
        [
            format!("spec.hostPID: {f}"),
            format!("{s}.sysctls: {f}"),
            format!("spec.shareProcessNamespace: {f}"),
            format!("{s}.runAsUser: {f}"),
        ]
    };
    let [n0, n1, n2, n3] = host_namespaces_and_context;
    assert_eq!(
        errors::<Pod>(p),
        [
            "spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: \"\": gmsaCredentialSpec cannot be an empty string".to_string(),
            "spec.containers[0].securityContext.windowsOptions.runAsUserName: Invalid value: \"..\": runAsUserName's User cannot contain only periods or spaces".to_string(),
            format!("{s}.windowsOptions.runAsUserName: Invalid value: \"a\\\\b\\\\c\": runAsUserName cannot contain more than one backslash"),
            format!("{s}.seLinuxOptions: {f}"),
            n0,
            n1,
            n2,
            n3,
            format!("spec.initContainers[0].securityContext.capabilities: {f}"),
            format!("spec.initContainers[0].securityContext.privileged: {f}"),
            format!("spec.containers[0].securityContext.readOnlyRootFilesystem: {f}"),
        ]
    );
}

#[test]
fn host_network_ports_and_host_port_uniqueness_follow_go() {
    let spec = json!({"hostNetwork": true, "containers": [
        {"name": "a", "image": "nginx", "ports": [{"containerPort": 80, "hostPort": 8080},
                                                  {"containerPort": 81, "hostPort": 81}]},
        {"name": "b", "image": "nginx", "ports": [{"containerPort": 81, "hostPort": 81},
                                                  {"containerPort": 81, "hostPort": 81, "protocol": "UDP"}]}],
        "initContainers": [{"name": "i", "image": "busybox", "ports": [
            {"containerPort": 81, "hostPort": 81}, {"containerPort": 82, "hostPort": 81}]}]});
    let host_port = "must match `containerPort` when `hostNetwork` is true";
    assert_eq!(
        pod_spec_errors(spec.clone()),
        [
            "spec.containers[1].ports[0].hostPort: Duplicate value: \"TCP//81\"".to_string(),
            "spec.initContainers[0].ports[1].hostPort: Duplicate value: \"TCP//81\"".to_string(),
            format!("spec.containers[0].ports[0].hostPort: Invalid value: 8080: {host_port}"),
        ]
    );
    // A template may leave the host port to the pod's defaulting; a pod may not.
    let mut d = deployment();
    d["spec"]["template"]["spec"] = json!({"hostNetwork": true, "containers": [
        {"name": "a", "image": "nginx", "ports": [{"containerPort": 80}, {"containerPort": 81, "hostPort": 82}]}]});
    assert_eq!(
        errors::<Deployment>(d),
        [format!(
            "spec.template.spec.containers[0].ports[1].hostPort: Invalid value: 82: {host_port}"
        )]
    );
}

#[test]
fn mounts_devices_resize_policies_headers_and_sleep_follow_go() {
    let mut p = pod();
    p["spec"]["terminationGracePeriodSeconds"] = json!(30);
    p["spec"]["volumes"] = json!([{"name": "data", "emptyDir": {}},
        {"name": "disk", "persistentVolumeClaim": {"claimName": "disk"}}]);
    p["spec"]["containers"][0]["volumeMounts"] = json!([
        {"name": "data", "mountPath": "/data", "subPath": "../x", "mountPropagation": "Bidirectional"},
        {"name": "disk", "mountPath": "/dev/xvda", "subPathExpr": "/$(POD)", "mountPropagation": "Shared"}]);
    p["spec"]["containers"][0]["volumeDevices"] = json!([
        {"name": "data", "devicePath": "/dev/a"},
        {"name": "disk", "devicePath": "/dev/xvda"},
        {"name": "disk", "devicePath": "/dev/../b"},
        {"name": "nope", "devicePath": ""}]);
    p["spec"]["containers"][0]["resizePolicy"] = json!([
        {"resourceName": "cpu", "restartPolicy": "NotRequired"},
        {"resourceName": "cpu", "restartPolicy": "Sometimes"},
        {"resourceName": "gpu", "restartPolicy": "RestartContainer"}]);
    p["spec"]["containers"][0]["lifecycle"] = json!({"preStop": {"sleep": {"seconds": 31}},
        "postStart": {"httpGet": {"path": "/", "port": 80, "httpHeaders": [{"name": "X_Bad", "value": "1"}]}}});
    let c = "spec.containers[0]";
    let header = "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')";
    assert_eq!(
        errors::<Pod>(p),
        [
            format!(
                "{c}.volumeMounts[0].name: Invalid value: \"data\": must not already exist in volumeDevices"
            ),
            format!("{c}.volumeMounts.subPath: Invalid value: \"../x\": must not contain '..'"),
            format!(
                "{c}.volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers"
            ),
            format!(
                "{c}.volumeMounts[1].name: Invalid value: \"disk\": must not already exist in volumeDevices"
            ),
            format!(
                "{c}.volumeMounts[1].mountPath: Invalid value: \"/dev/xvda\": must not already exist as a path in volumeDevices"
            ),
            format!(
                "{c}.volumeMounts.subPathExpr: Invalid value: \"/$(POD)\": must be a relative path"
            ),
            format!(
                "{c}.volumeMounts.mountPropagation: Unsupported value: \"Shared\": supported values: \"Bidirectional\", \"HostToContainer\", \"None\""
            ),
            format!(
                "{c}.volumeDevices[0].name: Invalid value: \"data\": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"
            ),
            format!(
                "{c}.volumeDevices[0].name: Invalid value: \"data\": must not already exist in volumeMounts"
            ),
            format!(
                "{c}.volumeDevices[1].name: Invalid value: \"disk\": must not already exist in volumeMounts"
            ),
            format!(
                "{c}.volumeDevices[1].devicePath: Invalid value: \"/dev/xvda\": must not already exist as a path in volumeMounts"
            ),
            format!("{c}.volumeDevices[2].name: Invalid value: \"disk\": must be unique"),
            format!(
                "{c}.volumeDevices[2].devicePath: Invalid value: \"/dev/../b\": can not contain backsteps ('..')"
            ),
            format!(
                "{c}.volumeDevices[2].name: Invalid value: \"disk\": must not already exist in volumeMounts"
            ),
            format!("{c}.volumeDevices[3].name: Not found: \"nope\""),
            format!("{c}.volumeDevices[3].devicePath: Required value"),
            format!("{c}.resizePolicy[1]: Duplicate value: \"cpu\""),
            format!(
                "{c}.resizePolicy: Unsupported value: \"Sometimes\": supported values: \"NotRequired\", \"RestartContainer\""
            ),
            format!(
                "{c}.resizePolicy: Unsupported value: \"gpu\": supported values: \"cpu\", \"memory\""
            ),
            format!(
                "{c}.lifecycle.postStart.httpGet.httpHeaders: Invalid value: \"X_Bad\": {header}"
            ),
            format!(
                "{c}.lifecycle.preStop.sleep: Invalid value: 31: must be non-negative and less than terminationGracePeriodSeconds (30)"
            ),
        ]
    );
    // A pod that never restarts resizes in place only.
    let errs = pod_spec_errors(
        json!({"restartPolicy": "Never", "containers": [{"name": "web", "image": "nginx",
        "resizePolicy": [{"resourceName": "memory", "restartPolicy": "RestartContainer"}]}]}),
    );
    assert_eq!(
        errs,
        [
            "spec.containers[0].resizePolicy: Invalid value: \"RestartContainer\": must be 'NotRequired' when pod `restartPolicy` is 'Never'"
        ]
    );
}

#[test]
fn overhead_follows_the_container_resource_rules() {
    assert_eq!(
        pod_spec_errors(json!({"overhead": {"cpu": "-1", "example.com/gpu": "1", "pods": "1"}})),
        [
            "spec.overhead.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0",
            "spec.overhead.limits[pods]: Invalid value: \"pods\": must be a standard resource for containers",
        ]
    );
}

#[test]
fn odd_security_values_are_errors_not_panics() {
    let long = "u".repeat(200);
    let mut p = pod();
    p["spec"]["os"] = json!({"name": "windows"});
    p["spec"]["securityContext"] = json!({"sysctls": [{"name": "/", "value": ""}, {"name": "é.ü", "value": ""}],
        "windowsOptions": {"runAsUserName": format!("{}\\{long}", "d".repeat(300)), "gmsaCredentialSpec": "x".repeat(70 * 1024)}});
    p["spec"]["containers"][0]["securityContext"] = json!({"windowsOptions": {"runAsUserName": "a\u{7}b"},
        "appArmorProfile": {"type": "Localhost", "localhostProfile": "p".repeat(5000)}});
    let errs = errors::<Pod>(p);
    let w = "spec.securityContext.windowsOptions";
    for want in [
        "spec.containers[0].securityContext.windowsOptions.runAsUserName: Invalid value: \"a\\u0007b\": runAsUserName cannot contain control characters".to_string(),
        "spec.containers[0].securityContext.appArmorProfile.localhostProfile: Too long: may not be more than 4095 bytes".to_string(),
        format!("{w}.gmsaCredentialSpec: Invalid value: \"{}\": gmsaCredentialSpec size must be under 64 KiB", "x".repeat(70 * 1024)),
        "spec.securityContext.sysctls[0].name: Invalid value: \"/\": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$".to_string(),
    ] {
        assert!(errs.contains(&want), "{want}\n{errs:#?}");
    }
    let user_errs: Vec<_> = errs
        .iter()
        .filter(|e| e.starts_with(&format!("{w}.runAsUserName")))
        .collect();
    assert_eq!(user_errs.len(), 3, "{user_errs:#?}");
    assert!(user_errs[0].ends_with("runAsUserName's Domain length must be under 256 characters"));
    assert!(
        user_errs[1]
            .ends_with("runAsUserName's Domain doesn't match the NetBios nor the DNS format")
    );
    assert!(
        user_errs[2]
            .ends_with("runAsUserName's User length must not be longer than 104 characters")
    );
}
