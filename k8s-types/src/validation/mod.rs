//! Kubernetes' built-in validation (Go's `k8s.io/kubernetes/pkg/apis/<group>/validation`)
//! for the kinds of this crate, with Go's rules and messages (`field.ErrorList`):
//! hand-written functions over the concrete types, one per kind, so that no per-type
//! code is generated. They validate the storage version of each kind (`apps/v1`,
//! `batch/v1`, ...), which kube-apiserver's rules are written for, after defaulting:
//! a field Go's defaulters fill (`imagePullPolicy`, `restartPolicy`, a port's
//! `protocol`) is `Required` when empty, as in Go.
//!
//! With the `scheme` feature, each validator is registered with the Scheme for its type
//! ([`ValidatorRegistration`](apimachinery::runtime::ValidatorRegistration)):
//! [`Scheme::validate`](apimachinery::runtime::Scheme::validate) runs it, as the API
//! server does on create and update (`old` given) and `kapi validate` on every built-in
//! object (converted to its group's preferred version first).
//!
//! # What is validated
//!
//! | kind | create | update |
//! | --- | --- | --- |
//! | every kind below | `ObjectMeta`: name/generateName by the kind's rule (DNS-1123 subdomain; DNS-1123 label for Namespace and Service; path segment for RBAC), namespace, labels, annotations (256 KiB), owner references, finalizers | name, namespace, uid, creationTimestamp kept |
//! | `v1` Pod | PodSpec, in Go's order: terminationGracePeriodSeconds required, volumes (names, one source and its rules: hostPath, secret and configMap items, downward API files, projected sources but their signer names, ephemeral claim templates and claim names, image volumes, iSCSI name formats, ...), resourceClaims (names, one of claim or template), containers, initContainers, ephemeralContainers (names unique across all three, images, termination-message and pull policies, ports, env/envFrom, volume mounts (unique paths, sub-paths relative without `..`, mount propagation, `Bidirectional` only when privileged), volume devices (PVC or ephemeral volumes, unique names and paths, no overlap with mounts), resources with requests ≤ limits, resize policies, security context, then probes with one handler and readiness probes without a grace period, lifecycle handlers, HTTP header names, `sleep` within the grace period; host ports unique (init containers each alone); ephemeral: a known target, no ports/resources/resize policy/restart policy/probes/lifecycle/sub-paths), `hostPort` equal to `containerPort` with `hostNetwork` (a template may leave it 0), restartPolicy, dnsPolicy, nodeSelector, pod security context (IDs, `shareProcessNamespace` with `hostPID`, sysctl names, duplicates and host namespaces, fsGroup change, supplemental groups and SELinux change policies, seccomp and AppArmor profiles, Windows options), container security contexts (IDs, `procMount` and `Unmasked` against `hostUsers`, seccomp/AppArmor profiles, privilege escalation with `privileged`/`CAP_SYS_ADMIN`, Windows options), affinity (node selector terms, operators and values, field selectors on `metadata.name`, preferred weights; pod (anti-)affinity terms: selectors, namespaces, match/mismatch label keys, topologyKey), dnsConfig (`None` policy, nameservers, search domains and their limits, options), readinessGates, schedulingGates, topologySpreadConstraints (maxSkew, topologyKey, whenUnsatisfiable, repeats, minDomains, node inclusion policies, label selector and keys), `hostUsers: false` without host namespaces, serviceAccountName, nodeName, activeDeadlineSeconds, hostname/subdomain, tolerations, hostAliases, priorityClassName, runtimeClassName, preemptionPolicy, overhead, `os.name` and the fields Linux or Windows pods may not set | spec immutable but for images, `activeDeadlineSeconds`, added tolerations (Go's message, without its diff) |
//! | `v1` Service | type, ports (names, numbers, protocols, targetPort, appProtocol, nodePorts, duplicates), selector, sessionAffinity and its config, clusterIP/clusterIPs/ipFamilies/ipFamilyPolicy (dual stack), externalIPs, loadBalancerSourceRanges (or their annotation), allocateLoadBalancerNodePorts, loadBalancerClass, external/internal traffic policies, healthCheckNodePort, trafficDistribution, topology annotations, externalName; status: load-balancer ingress | clusterIPs and ipFamilies changed only by a dual-stack upgrade or downgrade, `loadBalancerClass`, `healthCheckNodePort` kept |
//! | `v1` PodTemplate, ReplicationController | the template as a Pod's spec (labels and annotations at Go's `template.labels` paths, no ephemeral containers); RC replicas, minReadySeconds, a non-empty selector matching the template, `Always` restart, no `activeDeadlineSeconds` | metadata; RC status counts |
//! | `v1` ConfigMap, Secret | keys, 1 MiB, `data`/`binaryData` overlap; Secret types' required keys | `immutable`; Secret `type` |
//! | `v1` Namespace, ServiceAccount | metadata; Namespace finalizers | metadata |
//! | `v1` Node | taints (spec and the taints annotation: keys, values, effects, unique by key and effect), capacity and allocatable quantities, swap capacity, declared features (names, sorted, unique), pod CIDRs (valid, one per IP family) | pod CIDRs and provider ID set once, `externalID` kept, unique addresses, config source and its status |
//! | `v1` PersistentVolume | access modes, capacity (`storage` only, positive), reclaim policy, node affinity, exactly one source and its own rules (host path, local, NFS, iSCSI, FC, CSI and its secrets, Azure, GCE/AWS disks, Flex options, ...), a local volume's node affinity, storage and volume attributes class, volume mode, mount options for the sources that take them | source kept (a CSI controller-expand secret may be added), volume mode and node affinity kept (but beta-to-GA label keys), attributes class not removed |
//! | `v1` PersistentVolumeClaim | access modes, selector, a positive storage request, storage and attributes class names, volume mode, data source and data source reference | spec kept but for a first volume name, a storage class moved from the beta annotation or set from none, a bound claim's request and attributes class; the annotation kept; the request not below the status capacity; volume mode kept; an applied attributes class not removed |
//! | `v1` Endpoints, `discovery.k8s.io/v1` EndpointSlice | addresses (IPs out of reserved ranges, of the slice's address type, FQDNs), hostnames, node names, ports (names, numbers, protocols, appProtocol), topology labels, hints, list limits | unchanged endpoints not judged again; EndpointSlice `addressType` kept |
//! | `v1` Event, `events.k8s.io/v1` Event | namespaces of the event and its object, a namespace that is a DNS subdomain; with an `eventTime`, the reporting controller, instance, action, reason and their lengths; `events.k8s.io/v1` only: metadata, `eventTime`, type, series, the deprecated fields unset | `events.k8s.io/v1`: every field but the series kept |
//! | `v1` LimitRange, ResourceQuota | limit types and resource names, min ≤ default request ≤ default ≤ max, limit/request ratios, non-overcommit defaults; quota resource names and values, scopes and scope selectors | ResourceQuota scopes kept |
//! | `admissionregistration.k8s.io/v1` ValidatingWebhookConfiguration, MutatingWebhookConfiguration | webhook names (unique, fully qualified), rules and their wildcards, failure/match/reinvocation policies, side effects, timeouts, selectors, client config (a URL as Go's `net/url` parses it, or a service and its path and port), admission review versions, match conditions' names (their CEL is not compiled: only an empty expression is refused) | side effects, review versions, unique names and valid selectors required as far as the old object had them; unchanged match conditions not judged again |
//! | `admissionregistration.k8s.io/v1` ValidatingAdmissionPolicyBinding, MutatingAdmissionPolicyBinding | policy name, parameter reference (name or selector, missing-parameter action), matched resources (policy, selectors, named rules), validation actions; the operations a mutation can match | as on create |
//! | `admissionregistration.k8s.io/v1` ValidatingAdmissionPolicy, MutatingAdmissionPolicy | failure policy, parameter kind (group version and kind), matched resources (at least one rule; a mutation's operations), match conditions' names, variables' names (CEL identifiers), validations' messages and reasons, audit annotations' keys (qualified with the policy's name, unique, at most 20) and value length, mutations' patch types; every CEL expression only as far as it must be given (ours compiles none) | as on create; unchanged match conditions (and parameter kind) not judged again |
//! | `flowcontrol.apiserver.k8s.io/v1` FlowSchema, PriorityLevelConfiguration | matching precedence, distinguisher method, priority level reference, subjects, resource and non-resource rules; priority level type, limited/exempt settings, queuing and its shuffle-sharding entropy; conditions; the mandatory `exempt` and `catch-all` objects' fixed specs | as on create |
//! | `apps/v1` Deployment, ReplicaSet, DaemonSet, StatefulSet | replicas, selector (required, not empty, matching the template), pod template (Always restart), strategies and their rolling-update numbers, history limits, StatefulSet pod management policy | selector kept; StatefulSet fields other than Go's list forbidden |
//! | `batch/v1` Job, CronJob | counts, restart policy (OnFailure/Never), completion mode; schedule syntax (5 fields, ranges, steps, names, `@` descriptors, no `TZ=`), concurrency policy, name length (52) | Job selector, template and completions kept |
//! | `rbac.authorization.k8s.io/v1` Role, ClusterRole, RoleBinding, ClusterRoleBinding | rules (verbs, groups, resources, non-resource URLs), aggregation rule; roleRef, subjects | `roleRef` kept |
//! | `networking.k8s.io/v1` Ingress, NetworkPolicy | rules, hosts, paths and path types, backends, TLS hosts; pod selector, ports, peers, IP blocks, policy types | |
//! | `policy/v1` PodDisruptionBudget | minAvailable/maxUnavailable (one, integer or percent), selector, eviction policy | |
//! | `certificates.k8s.io/v1` CertificateSigningRequest | a PEM PKCS#10 request whose signature verifies, usages (known, unique), signer name (not the legacy one), expiration, conditions (status values, Approved xor Denied, unique types), PEM certificates in the status | Approved/Denied conditions neither added, changed nor removed, the certificate not set (the `/status` and `/approval` rules: `validate_certificate_signing_request_{status,approval}_update`); faults the old object had tolerated |
//! | `certificates.k8s.io/v1beta1` (`v1` from 1.37) ClusterTrustBundle, PodCertificateRequest | a name carrying the signer, distinct CA certificates in PEM; pod, service account and node names and UIDs, maximum expiration, a stub PKCS#10 request or a PKIX key with its proof of possession | signer name kept, the bundle parsed again only when changed; the request's spec kept |
//! | `coordination.k8s.io/v1` Lease | durations and transitions | |
//! | `apiextensions.k8s.io/v1` CustomResourceDefinition | name `<plural>.<group>`, group, scope, versions (names, one storage version, unique, deprecation warnings, a schema each), names and accepted names, subresources, printer columns, selectable fields, conversion and its webhook, stored versions, API approval of protected groups, `preserveUnknownFields`; the schema: keywords a CRD may not use, `nullable` and status-subresource rules at the root, defaults in metadata, `x-kubernetes-*` extensions, rules' static parts and field paths, the first reason it is not structural | group and plural kept; scope and kind kept once established; schema rules relaxed where the old CRD already broke them |
//! | `scheduling.k8s.io/v1` PriorityClass | user value range, `system-` prefix | value and preemption policy kept |
//! | `scheduling.k8s.io/v1beta1` Workload (1.37) | template names unique across the tree, composite depth ≤ 4, one priority, composite templates with children; declarative: one of the template lists, controller reference, ≤ 8 templates with unique names, each template's policy (one of basic/gang, `minCount` ≥ 1), resource claims (≤ 4, unique, one source), disruption mode, priority ≤ 1e9; gated fields forbidden | templates neither added nor removed, their fields immutable |
//! | `scheduling.k8s.io/v1alpha2` Workload and PodGroup (1.36) | metadata; declarative: controller and template references, 1–8 templates with unique names, policy (one of basic/gang, `minCount` ≥ 1), resource claims (≤ 4, unique, one source), resource claim statuses; gated fields forbidden | templates, references, claims, a pod group's policy immutable |
//! | `scheduling.k8s.io/v1beta1` PodGroup (1.37) | a workload reference with a parent; declarative: workload reference names, policy, resource claims, disruption mode required, priority; gated fields forbidden; resource claim statuses | workload reference, claims, disruption mode, priority fields immutable; gang neither set nor cleared |
//! | `scheduling.k8s.io/v1alpha3` CompositePodGroup (1.37) | metadata; declarative: parent name, workload reference (required) names, policy (one of basic/gang, `minGroupCount` ≥ 1), at most one topology constraint with a label key, disruption mode required (one of single/all), priority class name and priority ≤ 1e9; preemption policy forbidden (its gate is off); status: conditions | every spec field immutable |
//!
//! # Not validated
//!
//! Every other kind and version (the server then checks metadata names and labels
//! only): admission policies (their CEL is not
//! compiled). A CustomResourceDefinition's schema is checked but for the structural
//! schema's own rules, defaults against their schema and CEL (the API server checks
//! structural schemas itself). Within the kinds above, Go rules left out: the Pod update diff text;
//! Windows `hostProcess` pods (`validateWindowsHostProcessPod`);
//! `privileged` against the cluster's `--allow-privileged`; sysctls an update may keep
//! (Go lets a pod keep host-namespace sysctls it already had); `recursiveReadOnly`
//! mounts and sub-paths of image volumes; the seccomp/AppArmor annotations against
//! the fields; ephemeral containers on create; an image's whitespace only on Pods
//! (Go does not check templates) and after the spec's other errors; image pull
//! secrets' extra fields; per-volume-source details beyond those named; a Job's
//! generated selector (kube-apiserver generates it; this server does not, so a Job
//! without one is accepted); success/pod-failure policies; a
//! CronJob's `timeZone` against the tz database; an Ingress's annotations-based class;
//! a Node's `preferAvoidPods` annotation, and the JSON error text for an unreadable
//! taints annotation; the diff Go appends to a PersistentVolume's or claim's
//! "immutable after creation" message. The `/status` checks of Pod, Service,
//! ReplicationController, Node, PersistentVolume, PersistentVolumeClaim, ResourceQuota,
//! Namespace, Deployment, ReplicaSet, StatefulSet, DaemonSet, HorizontalPodAutoscaler, Ingress,
//! PodDisruptionBudget, FlowSchema, PriorityLevelConfiguration, StorageVersion,
//! CertificateSigningRequest, Job, StorageVersionMigration, ServiceCIDR, DeviceTaintRule,
//! ResourceClaim (not its strategy's authorization checks, which need the request's user),
//! ResourcePoolStatusRequest, PodGroup, ValidatingAdmissionPolicy (its type checker's
//! warnings: a text, and a field reference client-go's JSONPath parser reads, as
//! [`apimachinery::util::jsonpath::parse`] does; and its conditions) and (from 1.37)
//! CSINode and CompositePodGroup (`validate_*_status_update`) are registered as the
//! kinds' `/status` validators
//! ([`Scheme::validate_status`](apimachinery::runtime::Scheme::validate_status)), which
//! the API server runs on a write of the subresource. A MutatingAdmissionPolicy has no
//! `/status` in Go (1.36 and 1.37).
//!
//! ```
//! use k8s_types::apps::v1::Deployment;
//! use apimachinery::runtime::Scheme;
//!
//! let scheme = Scheme::from_registry()?;
//! let mut d: Deployment = serde_json::from_str(r#"{
//!   "metadata": {"name": "web", "namespace": "default"},
//!   "spec": {"selector": {"matchLabels": {"app": "web"}},
//!            "template": {"metadata": {"labels": {"app": "api"}},
//!                         "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}}"#)?;
//! scheme.default(&mut d);
//! let errs = scheme.validate(&d, None).ok_or("no validator")?;
//! assert_eq!(
//!     errs.to_string(),
//!     "spec.template.metadata.labels: Invalid value: {\"app\":\"api\"}: `selector` does not match template `labels`"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "admissionregistration")]
mod admissionregistration;
#[cfg(feature = "apiextensions")]
mod apiextensions;
#[cfg(feature = "apiregistration")]
mod apiregistration;
#[cfg(feature = "apiserverinternal")]
mod apiserverinternal;
#[cfg(feature = "apps")]
mod apps;
#[cfg(feature = "autoscaling")]
mod autoscaling;
#[cfg(feature = "batch")]
mod batch;
#[cfg(feature = "certificates")]
mod certificates;
#[cfg(any(
    feature = "admissionregistration",
    feature = "policy",
    feature = "resource",
    feature = "scheduling",
    feature = "storagemigration"
))]
mod conditions;
#[cfg(feature = "coordination")]
mod coordination;
#[cfg(feature = "core")]
mod core;
#[allow(dead_code)]
mod declarative;
#[cfg(feature = "discovery")]
mod discovery;
#[cfg(feature = "events")]
mod events;
#[cfg(feature = "flowcontrol")]
mod flowcontrol;
#[cfg(feature = "flowcontrol")]
mod flowcontrol_status;
#[cfg(any(
    feature = "apps",
    feature = "batch",
    feature = "core",
    feature = "flowcontrol",
    feature = "policy",
    feature = "rbac",
    feature = "resource",
    feature = "scheduling"
))]
// RBAC alone needs only its `json_text` (semantic equality of rule lists).
#[cfg_attr(
    not(any(
        feature = "apps",
        feature = "batch",
        feature = "core",
        feature = "flowcontrol",
        feature = "policy",
        feature = "resource"
    )),
    allow(dead_code)
)]
mod go_internal;
#[cfg(any(feature = "admissionregistration", feature = "apiextensions"))]
mod go_url;
#[allow(dead_code)]
mod go_value;
#[cfg(any(feature = "apps", feature = "policy"))]
mod int_or_percent;
#[cfg(any(
    feature = "admissionregistration",
    feature = "apps",
    feature = "batch",
    feature = "core",
    feature = "policy",
    feature = "networking",
    feature = "rbac",
    feature = "storage"
))]
// Each group asks for part of it; a build with only some of these groups leaves the rest unused.
#[allow(dead_code)]
mod label_selector;
// Some groups' checks use it; a build without them leaves it unused.
#[allow(dead_code)]
mod name_index;
#[allow(dead_code)]
mod name_rule;
#[cfg(feature = "networking")]
mod networking;
#[cfg(feature = "node")]
mod node;
mod object_meta;
#[cfg(feature = "core")]
mod pod_capabilities;
#[cfg(feature = "core")]
mod pod_dns;
#[cfg(feature = "core")]
mod pod_host_process;
#[cfg(feature = "core")]
mod pod_placement;
#[cfg(feature = "core")]
mod pod_security;
#[cfg(feature = "core")]
mod pod_security_value;
#[cfg(feature = "core")]
pub use pod_capabilities::{allow_privileged, set_allow_privileged};
#[cfg(feature = "policy")]
mod policy;
#[cfg(feature = "rbac")]
mod rbac;
#[cfg(feature = "resource")]
mod resource;
#[cfg(any(feature = "core", feature = "autoscaling"))]
mod resource_names;
#[cfg(feature = "scheduling")]
mod scheduling;
#[cfg(any(feature = "core", feature = "batch", feature = "rbac"))]
mod semantic;
#[cfg(feature = "coordination")]
mod semver;
#[cfg(any(feature = "core", feature = "certificates"))]
mod signer_names;
#[cfg(feature = "storage")]
mod storage;
#[cfg(feature = "storagemigration")]
mod storagemigration;

// A ResourceClaimTemplate's claim and a pod's ephemeral volume claim template.
#[cfg(any(feature = "core", feature = "resource"))]
mod template_meta;
#[cfg(any(feature = "admissionregistration", feature = "apiextensions"))]
mod webhook_client;

#[cfg(feature = "resource")]
mod cel;

#[cfg(feature = "admissionregistration")]
pub use admissionregistration::*;
#[cfg(feature = "apiextensions")]
pub use apiextensions::*;
#[cfg(feature = "apiregistration")]
pub use apiregistration::*;
#[cfg(feature = "apiserverinternal")]
pub use apiserverinternal::*;
#[cfg(feature = "apps")]
pub use apps::*;
#[cfg(feature = "autoscaling")]
pub use autoscaling::*;
#[cfg(feature = "batch")]
pub use batch::*;
#[cfg(feature = "certificates")]
pub use certificates::*;
#[cfg(feature = "coordination")]
pub use coordination::*;
#[cfg(feature = "core")]
pub use core::*;
#[cfg(feature = "discovery")]
pub use discovery::*;
#[cfg(feature = "events")]
pub use events::*;
#[cfg(feature = "flowcontrol")]
pub use flowcontrol::*;
#[cfg(feature = "flowcontrol")]
pub use flowcontrol_status::*;
#[cfg(feature = "networking")]
pub use networking::*;
#[cfg(feature = "node")]
pub use node::*;
pub use object_meta::*;
#[cfg(feature = "core")]
pub use pod_dns::*;
#[cfg(feature = "core")]
pub use pod_placement::*;
#[cfg(feature = "policy")]
pub use policy::*;
#[cfg(feature = "rbac")]
pub use rbac::*;
#[cfg(feature = "resource")]
pub use resource::*;
#[cfg(feature = "scheduling")]
pub use scheduling::*;
#[cfg(feature = "storage")]
pub use storage::*;
#[cfg(feature = "storagemigration")]
pub use storagemigration::*;

#[cfg(feature = "scheme")]
use apimachinery::runtime::{ValidatorRegistration, Validators};
#[allow(unused_imports)]
use apimachinery::util::validation::field::{BadValue, ErrorList};

/// A value as its JSON text, as Go prints a composite bad value (`json.Marshal`: Go's
/// escapes and floats, through the one JSON write every type is compiled for,
/// `WriteJson`).
#[allow(dead_code)]
fn json_value<T: apimachinery::util::json::WriteJson + ?Sized>(v: &T) -> BadValue {
    apimachinery::util::validation::field::json_of(v)
}

/// One `Invalid` error per message of a name or format check.
#[allow(dead_code)]
fn invalid_each(
    errs: &mut ErrorList,
    path: &apimachinery::util::validation::field::Path,
    value: &str,
    msgs: Vec<String>,
) {
    for msg in msgs {
        errs.push(apimachinery::util::validation::field::Error::invalid(
            path, value, msg,
        ));
    }
}

/// Go's `ValidateNonnegativeField`.
#[allow(dead_code)]
fn non_negative(
    value: i64,
    path: &apimachinery::util::validation::field::Path,
    errs: &mut ErrorList,
) {
    if value < 0 {
        errs.push(apimachinery::util::validation::field::Error::invalid(
            path,
            value,
            apimachinery::apis::meta::v1::validation::IS_NEGATIVE_ERROR_MSG,
        ));
    }
}

/// Go's `ValidatePositiveIntOrPercent` and `IsNotMoreThan100Percent`: a non-negative
/// integer or a percentage of at most 100%.
#[allow(dead_code)]
fn int_or_percent(
    v: &crate::value::IntOrString,
    path: &apimachinery::util::validation::field::Path,
    errs: &mut ErrorList,
) {
    int_or_percent_up_to(v, path, errs, true);
}

/// [`int_or_percent`], the 100% cap only when `capped` (a surge may exceed 100%).
#[allow(dead_code)]
fn int_or_percent_up_to(
    v: &crate::value::IntOrString,
    path: &apimachinery::util::validation::field::Path,
    errs: &mut ErrorList,
    capped: bool,
) {
    use apimachinery::util::validation::field::Error;
    match v {
        crate::value::IntOrString::Int(i) => non_negative(i64::from(*i), path, errs),
        crate::value::IntOrString::String(s) => {
            let msgs = apimachinery::util::validation::is_valid_percent(s);
            if !msgs.is_empty() {
                for msg in msgs {
                    errs.push(Error::invalid(path, int_or_string_value(v), msg));
                }
                return;
            }
            let n: i64 = s.trim_end_matches('%').parse().unwrap_or(i64::MAX);
            if capped && n > 100 {
                errs.push(Error::invalid(
                    path,
                    int_or_string_value(v),
                    "must not be greater than 100%",
                ));
            }
        }
    }
}

/// An `IntOrString` as Go prints a `fmt.Stringer` bad value: bare, unquoted.
#[allow(dead_code)]
fn int_or_string_value(v: &crate::value::IntOrString) -> BadValue {
    match v {
        crate::value::IntOrString::Int(i) => BadValue::Int(i64::from(*i)),
        crate::value::IntOrString::String(s) => BadValue::Json(s.clone()),
    }
}

/// A create-or-update validator from Go's pair of functions: the update function gets
/// the old object and checks the new one too.
#[cfg(feature = "scheme")]
#[allow(unused_macros)]
macro_rules! pair {
    ($create:path, $update:path) => {
        |new, old| {
            $crate::validation::declarative::merged(match old {
                Some(old) => $update(new, old),
                None => $create(new),
            })
        }
    };
}

/// A `/status` validator as kube-apiserver runs it: its status strategy embeds the
/// kind's strategy, so on 1.37 its errors go through the same declarative-validation
/// merge (one of each text) as the kind's own ([`declarative::merged`]).
#[cfg(feature = "scheme")]
#[allow(unused_macros)]
macro_rules! status {
    ($update:path) => {
        |new, old| $crate::validation::declarative::merged($update(new, old))
    };
}

/// A validator with no update rules beyond the metadata's.
#[cfg(feature = "scheme")]
#[allow(unused_macros)]
macro_rules! create_only {
    ($create:path) => {
        |new, old| {
            let mut errs = $create(new);
            if let Some(old) = old {
                errs.extend($crate::validation::validate_object_meta_update(
                    &new.metadata,
                    &old.metadata,
                    &apimachinery::util::validation::field::Path::new("metadata"),
                ));
            }
            $crate::validation::declarative::merged(errs)
        }
    };
}

#[cfg(feature = "scheme")]
fn register(v: &mut Validators) {
    #[cfg(feature = "core")]
    {
        use crate::core::v1 as c;
        v.add::<c::Pod, _>(pair!(validate_pod, validate_pod_update));
        v.add::<c::Service, _>(pair!(validate_service, validate_service_update));
        v.add::<c::ConfigMap, _>(pair!(validate_config_map, validate_config_map_update));
        v.add::<c::Secret, _>(pair!(validate_secret, validate_secret_update));
        v.add::<c::Endpoints, _>(pair!(validate_endpoints, validate_endpoints_update));
        v.add::<c::Event, _>(pair!(validate_event, validate_event_update));
        v.add::<c::LimitRange, _>(pair!(validate_limit_range, validate_limit_range_update));
        v.add::<c::ResourceQuota, _>(pair!(
            validate_resource_quota,
            validate_resource_quota_update
        ));
        v.add::<c::Namespace, _>(create_only!(validate_namespace));
        v.add::<c::ServiceAccount, _>(create_only!(validate_service_account));
        v.add::<c::PodTemplate, _>(pair!(validate_pod_template, validate_pod_template_update));
        v.add::<c::ReplicationController, _>(pair!(
            validate_replication_controller,
            validate_replication_controller_update
        ));
        v.add::<c::Node, _>(pair!(validate_node, validate_node_update));
        v.add::<c::PersistentVolume, _>(pair!(
            validate_persistent_volume,
            validate_persistent_volume_update
        ));
        v.add::<c::PersistentVolumeClaim, _>(pair!(
            validate_persistent_volume_claim,
            validate_persistent_volume_claim_update
        ));
        // The `/status` strategies' checks (Go's `ValidateUpdate` of each kind's
        // status strategy), which the server runs on a write of the subresource.
        v.add_status::<c::Pod, _>(status!(validate_pod_status_update));
        // Go's resize strategy's `ValidateUpdate`, run on a write of `pods/resize`.
        v.add_subresource::<c::Pod, _>("resize", validate_pod_resize);
        // The ephemeral containers strategy's, run on a write of `pods/ephemeralcontainers`.
        v.add_subresource::<c::Pod, _>(
            "ephemeralcontainers",
            validate_pod_ephemeral_containers_update,
        );
        v.add_status::<c::Service, _>(status!(validate_service_status_update));
        v.add_status::<c::ReplicationController, _>(status!(
            validate_replication_controller_status_update
        ));
        v.add_status::<c::Node, _>(status!(validate_node_status_update));
        v.add_status::<c::PersistentVolume, _>(status!(validate_persistent_volume_status_update));
        v.add_status::<c::PersistentVolumeClaim, _>(status!(
            validate_persistent_volume_claim_status_update
        ));
        v.add_status::<c::ResourceQuota, _>(status!(validate_resource_quota_status_update));
        v.add_status::<c::Namespace, _>(status!(validate_namespace_status_update));
    }
    #[cfg(feature = "apps")]
    {
        use crate::apps::v1 as a;
        v.add::<a::Deployment, _>(pair!(validate_deployment, validate_deployment_update));
        v.add::<a::ReplicaSet, _>(pair!(validate_replica_set, validate_replica_set_update));
        v.add::<a::DaemonSet, _>(pair!(validate_daemon_set, validate_daemon_set_update));
        v.add::<a::StatefulSet, _>(pair!(validate_stateful_set, validate_stateful_set_update));
        // Their status strategies' checks, run on a write of `/status`.
        v.add_status::<a::Deployment, _>(status!(validate_deployment_status_update));
        v.add_status::<a::ReplicaSet, _>(status!(validate_replica_set_status_update));
        v.add_status::<a::DaemonSet, _>(status!(validate_daemon_set_status_update));
        v.add_status::<a::StatefulSet, _>(status!(validate_stateful_set_status_update));
        v.add::<a::ControllerRevision, _>(pair!(
            validate_controller_revision,
            validate_controller_revision_update
        ));
    }
    // extensions/v1beta1 has no declarative validation in Go: its pod templates skip the
    // declarative rules of `evictionResponders` (1.37) that apps/v1's run.
    #[cfg(all(feature = "extensions", feature = "v1_37"))]
    {
        use crate::extensions::v1beta1 as x;
        use crate::validation::core::drop_eviction_responder_errors as drop;
        v.add_undeclared_version::<x::Deployment>(drop);
        v.add_undeclared_version::<x::DaemonSet>(drop);
        v.add_undeclared_version::<x::ReplicaSet>(drop);
    }
    #[cfg(feature = "autoscaling")]
    {
        use crate::autoscaling::v2::HorizontalPodAutoscaler;
        v.add::<HorizontalPodAutoscaler, _>(pair!(
            validate_horizontal_pod_autoscaler,
            validate_horizontal_pod_autoscaler_update
        ));
        v.add_status::<HorizontalPodAutoscaler, _>(status!(
            validate_horizontal_pod_autoscaler_status_update
        ));
    }
    #[cfg(feature = "batch")]
    {
        use crate::batch::v1 as b;
        v.add::<b::Job, _>(pair!(validate_job, validate_job_update));
        v.add_status::<b::Job, _>(status!(validate_job_status_update));
        v.add::<b::CronJob, _>(pair!(validate_cron_job, validate_cron_job_update));
    }
    #[cfg(feature = "admissionregistration")]
    {
        use crate::admissionregistration::v1 as a;
        v.add::<a::ValidatingWebhookConfiguration, _>(pair!(
            validate_validating_webhook_configuration,
            validate_validating_webhook_configuration_update
        ));
        v.add::<a::MutatingWebhookConfiguration, _>(pair!(
            validate_mutating_webhook_configuration,
            validate_mutating_webhook_configuration_update
        ));
        v.add::<a::ValidatingAdmissionPolicyBinding, _>(pair!(
            validate_validating_admission_policy_binding,
            validate_validating_admission_policy_binding_update
        ));
        v.add::<a::MutatingAdmissionPolicyBinding, _>(pair!(
            validate_mutating_admission_policy_binding,
            validate_mutating_admission_policy_binding_update
        ));
        v.add::<a::ValidatingAdmissionPolicy, _>(pair!(
            validate_validating_admission_policy,
            validate_validating_admission_policy_update
        ));
        v.add::<a::MutatingAdmissionPolicy, _>(pair!(
            validate_mutating_admission_policy,
            validate_mutating_admission_policy_update
        ));
        // Its status strategy's check, run on a write of `/status` (a
        // MutatingAdmissionPolicy has no `/status`).
        v.add_status::<a::ValidatingAdmissionPolicy, _>(status!(
            validate_validating_admission_policy_status_update
        ));
    }
    #[cfg(feature = "discovery")]
    v.add::<crate::discovery::v1::EndpointSlice, _>(pair!(
        validate_endpoint_slice,
        validate_endpoint_slice_update
    ));
    #[cfg(feature = "events")]
    v.add::<crate::events::v1::Event, _>(pair!(
        validate_events_event,
        validate_events_event_update
    ));
    #[cfg(feature = "flowcontrol")]
    {
        use crate::flowcontrol::v1 as f;
        v.add::<f::FlowSchema, _>(pair!(validate_flow_schema, validate_flow_schema_update));
        v.add::<f::PriorityLevelConfiguration, _>(pair!(
            validate_priority_level_configuration,
            validate_priority_level_configuration_update
        ));
        v.add_status::<f::FlowSchema, _>(status!(validate_flow_schema_status_update));
        v.add_status::<f::PriorityLevelConfiguration, _>(status!(
            validate_priority_level_configuration_status_update
        ));
    }
    #[cfg(feature = "rbac")]
    {
        use crate::rbac::v1 as r;
        v.add::<r::Role, _>(pair!(validate_role, validate_role_update));
        v.add::<r::ClusterRole, _>(pair!(validate_cluster_role, validate_cluster_role_update));
        v.add::<r::RoleBinding, _>(pair!(validate_role_binding, validate_role_binding_update));
        v.add::<r::ClusterRoleBinding, _>(pair!(
            validate_cluster_role_binding,
            validate_cluster_role_binding_update
        ));
    }
    #[cfg(feature = "networking")]
    {
        use crate::networking::v1 as n;
        v.add::<n::Ingress, _>(pair!(validate_ingress, validate_ingress_update));
        v.add_status::<n::Ingress, _>(status!(validate_ingress_status_update));
        v.add::<n::IngressClass, _>(pair!(validate_ingress_class, validate_ingress_class_update));
        v.add::<n::NetworkPolicy, _>(pair!(
            validate_network_policy,
            validate_network_policy_update
        ));
        v.add::<n::IPAddress, _>(pair!(validate_ip_address, validate_ip_address_update));
        v.add::<n::ServiceCIDR, _>(pair!(validate_service_cidr, validate_service_cidr_update));
        v.add_status::<n::ServiceCIDR, _>(status!(validate_service_cidr_status_update));
    }
    #[cfg(feature = "policy")]
    {
        v.add::<crate::policy::v1::PodDisruptionBudget, _>(pair!(
            validate_pod_disruption_budget,
            validate_pod_disruption_budget_update
        ));
        v.add_status::<crate::policy::v1::PodDisruptionBudget, _>(status!(
            validate_pod_disruption_budget_status_update
        ));
    }
    #[cfg(feature = "certificates")]
    {
        #[cfg(feature = "v1_37")]
        use crate::certificates::v1 as served;
        #[cfg(not(feature = "v1_37"))]
        use crate::certificates::v1beta1 as served;
        v.add::<crate::certificates::v1::CertificateSigningRequest, _>(pair!(
            validate_certificate_signing_request,
            validate_certificate_signing_request_update
        ));
        // Its `/status` and `/approval` strategies' (Go's `ValidateUpdate` of each).
        v.add_status::<crate::certificates::v1::CertificateSigningRequest, _>(status!(
            validate_certificate_signing_request_status_update
        ));
        v.add_subresource::<crate::certificates::v1::CertificateSigningRequest, _>(
            "approval",
            validate_certificate_signing_request_approval_update,
        );
        v.add::<served::ClusterTrustBundle, _>(pair!(
            validate_cluster_trust_bundle,
            validate_cluster_trust_bundle_update
        ));
        v.add::<crate::certificates::v1beta1::PodCertificateRequest, _>(pair!(
            validate_v1beta1_pod_certificate_request,
            validate_v1beta1_pod_certificate_request_update
        ));
        #[cfg(feature = "v1_37")]
        v.add::<crate::certificates::v1::PodCertificateRequest, _>(pair!(
            validate_pod_certificate_request,
            validate_pod_certificate_request_update
        ));
    }
    #[cfg(feature = "coordination")]
    {
        v.add::<crate::coordination::v1::Lease, _>(pair!(validate_lease, validate_lease_update));
        v.add::<crate::coordination::v1beta1::LeaseCandidate, _>(pair!(
            validate_lease_candidate,
            validate_lease_candidate_update
        ));
    }
    #[cfg(feature = "node")]
    v.add::<crate::node::v1::RuntimeClass, _>(pair!(
        validate_runtime_class,
        validate_runtime_class_update
    ));
    #[cfg(feature = "apiextensions")]
    // apiextensions-apiserver's strategy has no declarative rules: its list is not merged.
    v.add::<crate::apiextensions::v1::CustomResourceDefinition, _>(|new, old| match old {
        Some(old) => validate_custom_resource_definition_update(new, old),
        None => validate_custom_resource_definition(new),
    });
    #[cfg(feature = "apiregistration")]
    // kube-aggregator's strategy has no declarative rules: its list is not merged.
    v.add::<crate::apiregistration::v1::APIService, _>(|new, old| match old {
        Some(old) => validate_api_service_update(new, old),
        None => validate_api_service(new),
    });
    #[cfg(feature = "apiserverinternal")]
    {
        v.add::<crate::apiserverinternal::v1alpha1::StorageVersion, _>(pair!(
            validate_storage_version,
            validate_storage_version_update
        ));
        v.add_status::<crate::apiserverinternal::v1alpha1::StorageVersion, _>(status!(
            validate_storage_version_status_update
        ));
    }
    #[cfg(feature = "storage")]
    {
        use crate::storage::v1 as s;
        v.add::<s::StorageClass, _>(pair!(validate_storage_class, validate_storage_class_update));
        v.add::<s::VolumeAttributesClass, _>(pair!(
            validate_volume_attributes_class,
            validate_volume_attributes_class_update
        ));
        v.add::<s::CSIDriver, _>(pair!(validate_csi_driver, validate_csi_driver_update));
        v.add::<s::CSINode, _>(pair!(validate_csi_node, validate_csi_node_update));
        #[cfg(feature = "v1_37")]
        v.add_status::<s::CSINode, _>(status!(validate_csi_node_status_update));
        v.add::<s::CSIStorageCapacity, _>(pair!(
            validate_csi_storage_capacity,
            validate_csi_storage_capacity_update
        ));
        v.add::<s::VolumeAttachment, _>(pair!(
            validate_volume_attachment,
            validate_volume_attachment_update
        ));
    }
    #[cfg(all(feature = "storagemigration", feature = "v1_37"))]
    {
        use crate::storagemigration::v1::StorageVersionMigration;
        v.add::<StorageVersionMigration, _>(pair!(
            validate_storage_version_migration,
            validate_storage_version_migration_update
        ));
        v.add_status::<StorageVersionMigration, _>(status!(
            validate_storage_version_migration_status_update
        ));
    }
    #[cfg(all(feature = "storagemigration", not(feature = "v1_37")))]
    {
        use crate::storagemigration::v1beta1::StorageVersionMigration;
        v.add::<StorageVersionMigration, _>(pair!(
            validate_storage_version_migration,
            validate_storage_version_migration_update
        ));
        v.add_status::<StorageVersionMigration, _>(status!(
            validate_storage_version_migration_status_update
        ));
    }
    #[cfg(feature = "scheduling")]
    v.add::<crate::scheduling::v1::PriorityClass, _>(pair!(
        validate_priority_class,
        validate_priority_class_update
    ));
    #[cfg(feature = "scheduling")]
    {
        #[cfg(not(feature = "v1_37"))]
        use crate::scheduling::v1alpha2 as s;
        #[cfg(feature = "v1_37")]
        use crate::scheduling::v1beta1 as s;
        v.add::<s::Workload, _>(|new, old| declarative::merged(validate_workload(new, old)));
        v.add::<s::PodGroup, _>(|new, old| declarative::merged(validate_pod_group(new, old)));
        v.add_status::<s::PodGroup, _>(status!(validate_pod_group_status_update));
        // CompositePodGroup exists in 1.37 only, in `v1alpha3`.
        #[cfg(feature = "v1_37")]
        {
            use crate::scheduling::v1alpha3::CompositePodGroup;
            v.add::<CompositePodGroup, _>(pair!(
                validate_composite_pod_group,
                validate_composite_pod_group_update
            ));
            v.add_status::<CompositePodGroup, _>(status!(
                validate_composite_pod_group_status_update
            ));
        }
    }
    #[cfg(feature = "resource")]
    {
        use crate::resource::v1 as r;
        use crate::resource::v1alpha3;
        #[cfg(not(feature = "v1_37"))]
        use crate::resource::v1beta2;
        v.add::<r::DeviceClass, _>(pair!(validate_device_class, validate_device_class_update));
        v.add::<r::ResourceClaim, _>(pair!(
            validate_resource_claim,
            validate_resource_claim_update
        ));
        v.add_status::<r::ResourceClaim, _>(status!(validate_resource_claim_status_update));
        v.add::<r::ResourceClaimTemplate, _>(pair!(
            validate_resource_claim_template,
            validate_resource_claim_template_update
        ));
        v.add::<r::ResourceSlice, _>(pair!(
            validate_resource_slice,
            validate_resource_slice_update
        ));
        // DeviceTaintRule's hub: `v1beta2` on 1.36, `v1` on 1.37.
        #[cfg(feature = "v1_37")]
        use r::DeviceTaintRule;
        #[cfg(not(feature = "v1_37"))]
        use v1beta2::DeviceTaintRule;
        v.add::<DeviceTaintRule, _>(pair!(
            validate_device_taint_rule,
            validate_device_taint_rule_update
        ));
        v.add_status::<DeviceTaintRule, _>(status!(validate_device_taint_rule_status_update));
        v.add::<v1alpha3::ResourcePoolStatusRequest, _>(pair!(
            validate_resource_pool_status_request,
            validate_resource_pool_status_request_update
        ));
        v.add_status::<v1alpha3::ResourcePoolStatusRequest, _>(status!(
            validate_resource_pool_status_request_status_update
        ));
    }
    let _ = v;
}

#[cfg(feature = "scheme")]
inventory::submit! { ValidatorRegistration(register) }
