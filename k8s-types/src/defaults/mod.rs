//! The built-in defaulting of the Kubernetes release built (1.36 or 1.37): Go's
//! `SetDefaults_*` functions of every group version
//! (`k8s.io/kubernetes/pkg/apis/<group>/<version>/defaults.go`) and the
//! API types' `+default=` markers, applied to each kind as Go's generated
//! `SetObjectDefaults_*` applies them, nested types included (a Deployment's pod
//! template gets the pod spec, container, volume, probe and port defaults). Registered
//! at link time per Rust type, i.e. per group version, as Go's `RegisterDefaults`;
//! applied by [`Scheme::default`](apimachinery::runtime::Scheme::default), which the
//! API server calls on every decoded write and `kapi convert` on every object before
//! converting it (as `kubectl convert` defaults in the source version).
//!
//! ```
//! use apimachinery::runtime::Scheme;
//! use apimachinery::util::intstr::IntOrString;
//! use k8s_types::apps::v1::Deployment;
//!
//! let scheme = Scheme::from_registry()?;
//! let mut d: Deployment = serde_json::from_str(
//!     r#"{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx"}]}}}}"#,
//! )?;
//! scheme.default(&mut d);
//! assert_eq!(d.spec.replicas, Some(1));
//! assert_eq!(d.spec.revision_history_limit, Some(10));
//! let rolling = d.spec.strategy.rolling_update.as_ref().ok_or("no rolling update")?;
//! assert_eq!(rolling.max_surge, Some(IntOrString::String("25%".into())));
//! let pod = &d.spec.template.spec;
//! assert_eq!(pod.restart_policy, "Always");
//! let containers = pod.containers.as_deref().unwrap_or_default();
//! assert_eq!(containers[0].image_pull_policy, "Always"); // no tag: `latest`
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What is defaulted
//!
//! | group | versions | kinds |
//! | --- | --- | --- |
//! | core | v1 | Pod, PodTemplate, ReplicationController, Service, PersistentVolume, PersistentVolumeClaim, Namespace, Secret, Node, Endpoints, LimitRange |
//! | apps | v1, v1beta2, v1beta1 | Deployment, DaemonSet, ReplicaSet, StatefulSet (v1beta1: Deployment, StatefulSet) |
//! | extensions | v1beta1 | Deployment, DaemonSet, ReplicaSet, NetworkPolicy, Ingress |
//! | batch | v1, v1beta1 | Job, CronJob (v1beta1: CronJob) |
//! | networking.k8s.io | v1, v1beta1 | NetworkPolicy, IngressClass, Ingress (v1beta1) |
//! | autoscaling | v1, v2 | HorizontalPodAutoscaler |
//! | rbac.authorization.k8s.io | v1, v1beta1, v1alpha1 | RoleBinding, ClusterRoleBinding |
//! | storage.k8s.io | v1, v1beta1, v1alpha1 | StorageClass, CSIDriver, VolumeAttachment |
//! | scheduling.k8s.io | v1, v1beta1, v1alpha2 (1.36), v1alpha3 (1.37) | PriorityClass, PodGroup (1.36: v1alpha2; 1.37: v1beta1, v1alpha3), CompositePodGroup (1.37) |
//! | admissionregistration.k8s.io | v1, v1beta1, v1alpha1 | webhook configurations, (Validating/Mutating)AdmissionPolicy(Binding) |
//! | apiextensions.k8s.io | v1, v1beta1 | CustomResourceDefinition |
//! | discovery.k8s.io | v1, v1beta1 | EndpointSlice |
//! | resource.k8s.io | v1, v1beta2, v1beta1, v1alpha3 | ResourceClaim, ResourceClaimTemplate, ResourcePoolStatusRequest |
//! | certificates.k8s.io | v1beta1, v1 (1.37) | PodCertificateRequest |
//! | apiregistration.k8s.io | v1, v1beta1 | APIService (its service's port) |
//! | flowcontrol.apiserver.k8s.io | v1, v1beta3 | FlowSchema, PriorityLevelConfiguration |
//!
//! Groups without defaulters in Go have none here (coordination, events, node,
//! policy, certificates/v1 in 1.36, storagemigration, ...). Feature-gated
//! defaults follow the release's default gates: ImageVolume, MaxUnavailableStatefulSet,
//! StatefulSetAutoDeletePVC, JobPodReplacementPolicy, SELinuxMountReadWriteOncePod on;
//! in 1.37 also VolumeLimitScaling (a CSIDriver's `preventPodSchedulingIfMissing`),
//! while H2CContainerProbe (a probe's HTTP `protocol`) and PodGroupPreemptionPolicy are
//! alpha and off, so not applied.
//!
//! Kubernetes 1.37 moved what its `core/v1` conversions did for pods here: a pod
//! spec's `serviceAccount` follows `serviceAccountName`, a Pod's `podIP` and `podIPs`
//! are kept in step, and a Pod's negative grace period becomes 1 second.
//!
//! # Go defaults not applied
//!
//! - Rounding resource quantities up to milli units (`SetDefaults_ResourceList`): a
//!   quantity finer than `1m` keeps its precision.
//! - Pod-level resources (feature PodLevelResources): pod requests and limits derived
//!   from the containers' when `spec.resources` is set. (In 1.37, with
//!   PodLevelResourcesFixDefaulting on by default, Go no longer does it in defaulting
//!   either: the pod strategy's `PrepareForCreate` does.)
//! - `PodStatus`/`ContainerStatus` resource lists and `PodLogOptions` (not kinds a
//!   client writes).
//! - A ConfigMap's empty `data` map (Go's JSON leaves an empty map out anyway).
//! - `certificates/v1beta1` CertificateSigningRequest usages and signer name (derived
//!   from the PEM request).
//! - `apiextensions/v1beta1` `preserveUnknownFields: true` (see
//!   `apiextensions`' module).
//! - What kube-apiserver sets outside defaulters: a Service's allocated `clusterIP`,
//!   `clusterIPs`, `ipFamilies` and `ipFamilyPolicy`, node ports, a Job's generated
//!   selector and labels, `metadata.uid`/`creationTimestamp`/`generation`.

#[cfg(feature = "admissionregistration")]
mod admissionregistration;
#[cfg(feature = "apiextensions")]
pub mod apiextensions;
#[cfg(feature = "apiregistration")]
mod apiregistration;
#[cfg(feature = "apps")]
pub mod apps;
#[cfg(feature = "authentication")]
mod authentication;
#[cfg(feature = "autoscaling")]
pub mod autoscaling;
#[cfg(feature = "batch")]
mod batch;
#[cfg(feature = "certificates")]
mod certificates;
#[cfg(feature = "core")]
pub mod core;
#[cfg(feature = "discovery")]
mod discovery;
#[cfg(feature = "flowcontrol")]
pub mod flowcontrol;
#[cfg(any(feature = "networking", feature = "extensions"))]
pub mod networking;
#[cfg(feature = "rbac")]
pub mod rbac;
#[cfg(feature = "resource")]
mod resource;
#[cfg(feature = "scheduling")]
mod scheduling;
#[cfg(feature = "storage")]
mod storage;

#[cfg(feature = "apiextensions")]
pub use apiextensions::CRD_DEFAULT_SCOPE;
#[cfg(any(feature = "networking", feature = "extensions"))]
pub use networking::DEFAULT_PATH_TYPE;

use apimachinery::conversion::{DefaulterRegistration, Defaulters};

/// Sets an unset optional string to a default, as Go's `if obj.F == nil { obj.F = &v }`.
///
/// `get_or_insert_with(|| "..".to_owned())` compiled `Option::get_or_insert_with` once
/// per closure, i.e. per call site and version its macro is expanded for (~100 IR lines
/// each, issue 44); this is one copy for all of them.
// Used by the defaulters of some groups only: without them, unused rather than a warning.
#[cfg_attr(
    not(any(
        feature = "admissionregistration",
        feature = "batch",
        feature = "discovery",
        feature = "extensions",
        feature = "networking",
        feature = "scheduling",
        feature = "storage"
    )),
    allow(dead_code)
)]
trait GetOrInsertStr {
    /// The string, set to `value` first if it was unset.
    fn get_or_insert_str(&mut self, value: &str) -> &mut String;
}

impl GetOrInsertStr for Option<String> {
    fn get_or_insert_str(&mut self, value: &str) -> &mut String {
        self.get_or_insert_with(|| value.to_owned())
    }
}

fn register(d: &mut Defaulters) {
    // Each group's defaulters exist when its feature is on.
    #[cfg(feature = "core")]
    core::register(d);
    #[cfg(feature = "apps")]
    apps::register(d);
    #[cfg(feature = "extensions")]
    {
        apps::register_extensions(d);
        networking::register_extensions(d);
    }
    #[cfg(feature = "networking")]
    networking::register(d);
    #[cfg(feature = "batch")]
    batch::register(d);
    #[cfg(feature = "autoscaling")]
    autoscaling::register(d);
    #[cfg(feature = "rbac")]
    rbac::register(d);
    #[cfg(feature = "storage")]
    storage::register(d);
    #[cfg(feature = "scheduling")]
    scheduling::register(d);
    #[cfg(feature = "admissionregistration")]
    admissionregistration::register(d);
    #[cfg(feature = "apiextensions")]
    apiextensions::register(d);
    #[cfg(feature = "discovery")]
    discovery::register(d);
    #[cfg(feature = "authentication")]
    authentication::register(d);
    #[cfg(feature = "resource")]
    resource::register(d);
    #[cfg(feature = "certificates")]
    certificates::register(d);
    #[cfg(feature = "apiregistration")]
    apiregistration::register(d);
    #[cfg(feature = "flowcontrol")]
    flowcontrol::register(d);
    let _ = d;
}

inventory::submit! { DefaulterRegistration(register) }
