//! Go's `TestWarnings` cases (`pkg/api/pod/warnings_test.go`), on Pods and on templates.

use serde_json::{Value, json};

use super::*;

/// The warnings for a Pod with `spec` and `metadata`, sorted (Go's test compares sets,
/// its map iteration being random).
fn pod(spec: Value, metadata: Value) -> Vec<String> {
    let mut w = warnings_for_pod(&json!({"metadata": metadata, "spec": spec}));
    w.sort();
    w
}

fn sorted(expected: &[&str]) -> Vec<String> {
    let mut e: Vec<String> = expected.iter().map(|s| (*s).to_owned()).collect();
    e.sort();
    e
}

fn ports(p: Value) -> Vec<String> {
    pod(
        json!({"containers": [{"name": "c", "ports": p}]}),
        json!({}),
    )
}

#[test]
fn a_plain_pod_has_no_warnings() {
    assert!(
        pod(
            json!({"containers": [{"name": "c", "image": "i"}]}),
            json!({})
        )
        .is_empty()
    );
    assert!(warnings_for_pod(&json!({})).is_empty());
}

#[test]
fn deprecated_volume_plugins() {
    for (field, name, msg) in [
        (
            "photonPersistentDisk",
            "photonPersistentDisk",
            "deprecated in v1.11, non-functional in v1.16+",
        ),
        (
            "gitRepo",
            "gitRepo",
            "deprecated in v1.11, and disabled by default in v1.33+",
        ),
        (
            "scaleIO",
            "scaleIO",
            "deprecated in v1.16, non-functional in v1.22+",
        ),
        (
            "flocker",
            "flocker",
            "deprecated in v1.22, non-functional in v1.25+",
        ),
        (
            "storageos",
            "storageOS",
            "deprecated in v1.22, non-functional in v1.25+",
        ),
        (
            "quobyte",
            "quobyte",
            "deprecated in v1.22, non-functional in v1.25+",
        ),
        (
            "glusterfs",
            "glusterfs",
            "deprecated in v1.25, non-functional in v1.26+",
        ),
        (
            "cephfs",
            "cephfs",
            "deprecated in v1.28, non-functional in v1.31+",
        ),
        (
            "rbd",
            "rbd",
            "deprecated in v1.28, non-functional in v1.31+",
        ),
    ] {
        assert_eq!(
            pod(json!({"volumes": [{"name": "v", field: {}}]}), json!({})),
            [format!("spec.volumes[0].{name}: {msg}")]
        );
    }
}

#[test]
fn duplicate_host_aliases_and_pull_secrets() {
    assert_eq!(
        pod(
            json!({"hostAliases": [{"ip": "1.1.1.1"}, {"ip": "1.1.1.1"}, {"ip": "1.1.1.1"}]}),
            json!({})
        ),
        sorted(&[
            r#"spec.hostAliases[1].ip: duplicate ip "1.1.1.1""#,
            r#"spec.hostAliases[2].ip: duplicate ip "1.1.1.1""#,
        ])
    );
    assert_eq!(
        pod(
            json!({"imagePullSecrets": [{"name": "a"}, {"name": "a"}, {"name": "a"}]}),
            json!({})
        ),
        sorted(&[
            r#"spec.imagePullSecrets[1].name: duplicate name "a""#,
            r#"spec.imagePullSecrets[2].name: duplicate name "a""#,
        ])
    );
    assert_eq!(
        pod(json!({"imagePullSecrets": [{"name": ""}]}), json!({})),
        [r#"spec.imagePullSecrets[0].name: invalid empty name """#]
    );
}

#[test]
fn duplicate_env() {
    let env = json!([
        {"name": "a", "value": "a"},
        {"name": "a", "value": "other"},
        {"name": "a", "value": "$(a)"},
        {"name": "a", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
        {"name": "a", "value": "$(a) $(a)"},
    ]);
    assert_eq!(
        pod(
            json!({"initContainers": [{"name": "foo", "env": env}]}),
            json!({})
        ),
        sorted(&[
            r#"spec.initContainers[0].env[1]: hides previous definition of "a", which may be dropped when using apply"#,
            r#"spec.initContainers[0].env[2]: hides previous definition of "a", which may be dropped when using apply"#,
            r#"spec.initContainers[0].env[3]: hides previous definition of "a", which may be dropped when using apply"#,
        ])
    );
}

#[test]
fn fractional_resources() {
    let resources = json!({
        "requests": {"memory": "4m", "ephemeral-storage": "4m"},
        "limits": {"memory": "4", "ephemeral-storage": "4m"},
    });
    assert_eq!(
        pod(
            json!({"initContainers": [{"name": "foo", "resources": resources}]}),
            json!({})
        ),
        sorted(&[
            r#"spec.initContainers[0].resources.requests[ephemeral-storage]: fractional byte value "4m" is invalid, must be an integer"#,
            r#"spec.initContainers[0].resources.requests[memory]: fractional byte value "4m" is invalid, must be an integer"#,
            r#"spec.initContainers[0].resources.limits[ephemeral-storage]: fractional byte value "4m" is invalid, must be an integer"#,
        ])
    );
    assert_eq!(
        pod(json!({"overhead": {"memory": "1.5"}}), json!({})),
        [r#"spec.overhead[memory]: fractional byte value "1500m" is invalid, must be an integer"#]
    );
    assert_eq!(
        pod(
            json!({"volumes": [{"name": "e", "ephemeral": {"volumeClaimTemplate": {"spec": {
                "resources": {"requests": {"storage": "200m"}}}}}}]}),
            json!({})
        ),
        [
            r#"spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources.requests[storage]: fractional byte value "200m" is invalid, must be an integer"#
        ]
    );
}

#[test]
fn deprecated_node_labels_come_in_key_order() {
    assert_eq!(
        warnings_for_pod(&json!({"spec": {"nodeSelector": {
            "beta.kubernetes.io/os": "linux", "beta.kubernetes.io/arch": "amd64",
            "beta.kubernetes.io/instance-type": "x", "foo": "bar"}}})),
        [
            r#"spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead"#,
            r#"spec.nodeSelector[beta.kubernetes.io/instance-type]: deprecated since v1.17; use "node.kubernetes.io/instance-type" instead"#,
            r#"spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead"#,
        ]
    );
    let expressions = json!({"matchExpressions": [
        {"key": "foo"}, {"key": "beta.kubernetes.io/arch"}]});
    assert_eq!(
        pod(
            json!({"affinity": {"nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [expressions]},
                "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference": expressions}],
            }}}),
            json!({})
        ),
        sorted(&[
            r#"spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].key: beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead"#,
            r#"spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[1].key: beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead"#,
        ])
    );
    assert_eq!(
        pod(
            json!({"topologySpreadConstraints": [
                {"topologyKey": "foo", "labelSelector": {}},
                {"topologyKey": "beta.kubernetes.io/arch"},
            ]}),
            json!({})
        ),
        sorted(&[
            r#"spec.topologySpreadConstraints[1].topologyKey: beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead"#,
            "spec.topologySpreadConstraints[1].labelSelector: a null labelSelector results in matching no pod",
        ])
    );
}

#[test]
fn deprecated_annotations() {
    assert_eq!(
        pod(
            json!({"containers": [{"name": "foo"}]}),
            json!({"annotations": {
                "scheduler.alpha.kubernetes.io/critical-pod": "true",
                "seccomp.security.alpha.kubernetes.io/pod": "default",
                "container.seccomp.security.alpha.kubernetes.io/foo": "default",
                "container.apparmor.security.beta.kubernetes.io/foo": "unconfined",
            }})
        ),
        sorted(&[
            r#"metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead"#,
            r#"metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead"#,
            r#"metadata.annotations[container.seccomp.security.alpha.kubernetes.io/foo]: non-functional in v1.27+; use the "seccompProfile" field instead"#,
        ])
    );
    // With the fields set, the annotations say nothing.
    assert!(
        pod(
            json!({"securityContext": {"seccompProfile": {"type": "RuntimeDefault"}},
                "containers": [{"name": "foo", "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}}}]}),
            json!({"annotations": {
                "seccomp.security.alpha.kubernetes.io/pod": "default",
                "container.seccomp.security.alpha.kubernetes.io/foo": "default",
            }})
        )
        .is_empty()
    );
}

/// Go's `TestTemplateOnlyWarnings`: the AppArmor annotation is warned about on a template
/// unless the pod profile is the same.
#[test]
fn apparmor_annotations_on_templates() {
    let template = |security: Value| {
        warnings_for_pod_template(
            "spec.template",
            &json!({"metadata": {"annotations": {
                "container.apparmor.security.beta.kubernetes.io/foo": "localhost/p"}},
                "spec": {"securityContext": security, "containers": [{"name": "foo"}]}}),
        )
    };
    let warning = r#"spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/foo]: deprecated since v1.30; use the "appArmorProfile" field instead"#;
    assert_eq!(template(json!({})), [warning]);
    assert_eq!(
        template(json!({"appArmorProfile": {"type": "RuntimeDefault"}})),
        [warning]
    );
    assert!(
        template(json!({"appArmorProfile": {"type": "Localhost", "localhostProfile": "p"}}))
            .is_empty()
    );
}

#[test]
fn grace_period_affinity_and_ips() {
    assert_eq!(
        pod(json!({"terminationGracePeriodSeconds": -1}), json!({})),
        [
            "spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"
        ]
    );
    let terms = json!({
        "requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": {}}, {}],
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"podAffinityTerm": {"labelSelector": {}}}, {"podAffinityTerm": {}}],
    });
    assert_eq!(
        pod(
            json!({"affinity": {"podAffinity": terms, "podAntiAffinity": terms}}),
            json!({})
        ),
        sorted(&[
            "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].labelSelector: a null labelSelector results in matching no pod",
            "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod",
            "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].labelSelector: a null labelSelector results in matching no pod",
            "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod",
        ])
    );
    let w = pod(
        json!({"dnsConfig": {"nameservers": ["1.2.3.4", "01.2.3.4"]},
            "hostAliases": [{"ip": "::ffff:1.2.3.4"}]}),
        json!({}),
    );
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].starts_with("spec.dnsConfig.nameservers[1]: "), "{w:?}");
    assert!(w[1].starts_with("spec.hostAliases[0].ip: "), "{w:?}");
}

#[test]
fn port_definitions() {
    assert_eq!(
        ports(
            json!([{"containerPort": 80, "protocol": "TCP"}, {"containerPort": 80, "protocol": "TCP"}])
        ),
        ["spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]"]
    );
    assert_eq!(
        ports(json!([{"containerPort": 80, "protocol": "UDP", "hostIP": "10.0.0.1"}])),
        [
            "spec.containers[0].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}"
        ]
    );
    assert_eq!(
        ports(
            json!([{"containerPort": 80, "protocol": "UDP", "hostPort": 80},
            {"containerPort": 80, "protocol": "UDP", "hostIP": "10.0.0.1"}])
        ),
        sorted(&[
            "spec.containers[0].ports[1]: overlapping port definition with spec.containers[0].ports[0]",
            "spec.containers[0].ports[1]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}",
        ])
    );
    assert_eq!(
        ports(
            json!([{"containerPort": 80, "protocol": "UDP", "hostPort": 80},
            {"containerPort": 80, "protocol": "UDP", "hostPort": 80, "hostIP": "10.0.0.1"}])
        ),
        [
            "spec.containers[0].ports[1]: dangerously ambiguous port definition with spec.containers[0].ports[0]"
        ]
    );
    assert!(ports(json!([{"containerPort": 80, "protocol": "UDP"}, {"containerPort": 80, "protocol": "TCP"}])).is_empty());
    assert_eq!(
        pod(
            json!({"containers": [
                {"name": "a", "ports": [{"name": "web", "containerPort": 80, "protocol": "TCP"}]},
                {"name": "b", "ports": [{"name": "web", "containerPort": 81, "protocol": "TCP"}]},
            ]}),
            json!({})
        ),
        [
            r#"spec.containers[1].ports[0]: duplicate port name "web" with spec.containers[0].ports[0], services and probes that select ports by name will use spec.containers[0].ports[0]"#
        ]
    );
}

#[test]
fn template_paths_have_the_prefix() {
    assert_eq!(
        warnings_for_pod_template(
            "spec.jobTemplate.spec.template",
            &json!({"metadata": {"annotations": {"seccomp.security.alpha.kubernetes.io/pod": "x"}},
                "spec": {"nodeSelector": {"beta.kubernetes.io/os": "linux"},
                    "containers": [{"name": "c", "env": [{"name": "X"}, {"name": "X"}]}]}})
        ),
        [
            r#"spec.jobTemplate.spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead"#,
            r#"spec.jobTemplate.spec.template.metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead"#,
            r#"spec.jobTemplate.spec.template.spec.containers[0].env[1]: hides previous definition of "X", which may be dropped when using apply"#,
        ]
    );
}
