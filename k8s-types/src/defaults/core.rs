//! `core/v1` (Go's `pkg/apis/core/v1/defaults.go` and the walk of its generated
//! `SetObjectDefaults_*`). The walks over nested types ([`pod_spec`],
//! [`pod_template_spec`], [`persistent_volume_claim_spec`], [`persistent_volume_spec`])
//! are shared by every kind of every group that holds one: one function each, not one
//! per kind.

use std::collections::BTreeMap;

use apimachinery::conversion::Defaulters;
use apimachinery::util::intstr::IntOrString;

use crate::core::v1::{
    Container, ContainerPort, DownwardAPIVolumeFile, EnvVar, HTTPGetAction, Lifecycle,
    PersistentVolumeClaim, PersistentVolumeClaimSpec, PersistentVolumeSpec, Pod, PodSpec,
    PodTemplateSpec, Probe, ResourceRequirements, Service, Volume,
};
use crate::generated::default_markers::core_v1 as markers;
use crate::value::Quantity;

/// Go's `DefaultTerminationGracePeriodSeconds`.
pub const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS: i64 = 30;
/// Go's `TerminationMessagePathDefault`.
pub const TERMINATION_MESSAGE_PATH_DEFAULT: &str = "/dev/termination-log";
/// Go's `DefaultSchedulerName`.
pub const DEFAULT_SCHEDULER_NAME: &str = "default-scheduler";
/// Go's `DefaultClientIPServiceAffinitySeconds` (three hours).
pub const DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS: i32 = 10800;
/// The mode of secret, config map, downward API and projected volumes' files (0644).
pub const DEFAULT_VOLUME_MODE: i32 = 0o644;
/// The label every named Namespace carries with its name (Go's `LabelMetadataName`).
pub const LABEL_METADATA_NAME: &str = "kubernetes.io/metadata.name";

fn set<T>(field: &mut Option<T>, value: T) {
    if field.is_none() {
        *field = Some(value);
    }
}

fn set_str(field: &mut String, value: &str) {
    if field.is_empty() {
        value.clone_into(field);
    }
}

/// The tag Go's `parsers.ParseImageName` finds in an image reference: `latest` when
/// there is neither tag nor digest, `""` with a digest only or when the reference does
/// not parse (Go ignores the error there).
fn image_tag(image: &str) -> &str {
    let (name, digest) = match image.split_once('@') {
        Some((name, digest)) => (name, Some(digest)),
        None => (image, None),
    };
    // A reference Go's parser rejects: empty, or upper case in the repository path
    // (the registry host, before the first `/`, may have it).
    let path = match name.split_once('/') {
        Some((host, rest)) if host.contains(['.', ':']) || host == "localhost" => rest,
        _ => name,
    };
    if name.is_empty()
        || path
            .chars()
            .any(|c| c.is_ascii_uppercase() || c.is_whitespace())
    {
        return "";
    }
    let last = name.rsplit('/').next().unwrap_or(name);
    match last.split_once(':') {
        Some((_, tag)) => tag,
        None if digest.is_some() => "",
        None => "latest",
    }
}

/// `Always` for an image whose tag is `latest` (or that has none), else `IfNotPresent`.
fn pull_policy_for(image: &str) -> &'static str {
    if image_tag(image) == "latest" {
        "Always"
    } else {
        "IfNotPresent"
    }
}

fn http_get(action: &mut HTTPGetAction) {
    set_str(&mut action.path, "/");
    set_str(&mut action.scheme, "HTTP");
}

fn probe(p: &mut Probe) {
    for (field, value) in [
        (&mut p.timeout_seconds, 1),
        (&mut p.period_seconds, 10),
        (&mut p.success_threshold, 1),
        (&mut p.failure_threshold, 3),
    ] {
        if *field == 0 {
            *field = value;
        }
    }
    if let Some(h) = p.http_get.as_mut() {
        http_get(h);
    }
    if let Some(g) = p.grpc.as_mut() {
        markers::grpc_action(g);
    }
}

fn lifecycle(l: &mut Lifecycle) {
    for handler in [l.post_start.as_mut(), l.pre_stop.as_mut()]
        .into_iter()
        .flatten()
    {
        if let Some(h) = handler.http_get.as_mut() {
            http_get(h);
        }
    }
}

fn env(vars: &mut [EnvVar]) {
    for source in vars.iter_mut().filter_map(|v| v.value_from.as_mut()) {
        if let Some(f) = source.field_ref.as_mut() {
            set_str(&mut f.api_version, "v1");
        }
        if let Some(f) = source.file_key_ref.as_mut() {
            markers::file_key_selector(f);
        }
    }
}

/// The parts of a container's defaults every kind of container shares; the field sets
/// of `Container` and `EphemeralContainer` are the same, so a macro spares a copy.
macro_rules! container_defaults {
    ($c:expr) => {{
        let c = $c;
        if c.image_pull_policy.is_empty() {
            c.image_pull_policy = pull_policy_for(&c.image).to_owned();
        }
        set_str(
            &mut c.termination_message_path,
            TERMINATION_MESSAGE_PATH_DEFAULT,
        );
        set_str(&mut c.termination_message_policy, "File");
        c.ports.iter_mut().for_each(markers::container_port);
        env(&mut c.env);
        for p in [
            c.liveness_probe.as_mut(),
            c.readiness_probe.as_mut(),
            c.startup_probe.as_mut(),
        ]
        .into_iter()
        .flatten()
        {
            probe(p);
        }
        if let Some(l) = c.lifecycle.as_mut() {
            lifecycle(l);
        }
    }};
}

fn container(c: &mut Container) {
    container_defaults!(c);
}

fn downward_api_files(items: &mut [DownwardAPIVolumeFile]) {
    for f in items.iter_mut().filter_map(|i| i.field_ref.as_mut()) {
        set_str(&mut f.api_version, "v1");
    }
}

/// Whether the volume names no source (Go tests every pointer of `VolumeSource`).
fn no_source(v: &Volume) -> bool {
    v.host_path.is_none()
        && v.empty_dir.is_none()
        && v.gce_persistent_disk.is_none()
        && v.aws_elastic_block_store.is_none()
        && v.git_repo.is_none()
        && v.secret.is_none()
        && v.nfs.is_none()
        && v.iscsi.is_none()
        && v.glusterfs.is_none()
        && v.persistent_volume_claim.is_none()
        && v.rbd.is_none()
        && v.flex_volume.is_none()
        && v.cinder.is_none()
        && v.cephfs.is_none()
        && v.flocker.is_none()
        && v.downward_api.is_none()
        && v.fc.is_none()
        && v.azure_file.is_none()
        && v.config_map.is_none()
        && v.vsphere_volume.is_none()
        && v.quobyte.is_none()
        && v.azure_disk.is_none()
        && v.photon_persistent_disk.is_none()
        && v.projected.is_none()
        && v.portworx_volume.is_none()
        && v.scale_io.is_none()
        && v.storageos.is_none()
        && v.csi.is_none()
        && v.ephemeral.is_none()
        && v.image.is_none()
}

fn volume(v: &mut Volume) {
    if no_source(v) {
        v.empty_dir = Some(Default::default());
    }
    if let Some(h) = v.host_path.as_mut() {
        set(&mut h.r#type, String::new());
    }
    if let Some(s) = v.secret.as_mut() {
        set(&mut s.default_mode, DEFAULT_VOLUME_MODE);
    }
    if let Some(s) = v.iscsi.as_mut() {
        markers::iscsi_volume_source(s);
    }
    if let Some(s) = v.rbd.as_mut() {
        markers::rbd_volume_source(s);
    }
    if let Some(s) = v.downward_api.as_mut() {
        set(&mut s.default_mode, DEFAULT_VOLUME_MODE);
        downward_api_files(&mut s.items);
    }
    if let Some(s) = v.config_map.as_mut() {
        set(&mut s.default_mode, DEFAULT_VOLUME_MODE);
    }
    if let Some(s) = v.azure_disk.as_mut() {
        markers::azure_disk_volume_source(s);
    }
    if let Some(s) = v.projected.as_mut() {
        set(&mut s.default_mode, DEFAULT_VOLUME_MODE);
        for source in s.sources.iter_mut().flatten() {
            if let Some(d) = source.downward_api.as_mut() {
                downward_api_files(&mut d.items);
            }
            if let Some(t) = source.service_account_token.as_mut() {
                set(&mut t.expiration_seconds, 3600);
            }
        }
    }
    if let Some(s) = v.scale_io.as_mut() {
        markers::scale_io_volume_source(s);
    }
    if let Some(t) = v
        .ephemeral
        .as_mut()
        .and_then(|e| e.volume_claim_template.as_mut())
    {
        persistent_volume_claim_spec(&mut t.spec);
    }
    // Feature ImageVolume (on by default in 1.36).
    if let Some(i) = v.image.as_mut() {
        if i.pull_policy.is_empty() {
            i.pull_policy = pull_policy_for(&i.reference).to_owned();
        }
    }
}

/// Go's `SetDefaults_PodSpec` and the defaults of everything a pod spec holds
/// (containers, init and ephemeral containers, volumes, probes, ports, ...): what Go's
/// generated walk applies to the pod spec of every kind that has one.
pub fn pod_spec(spec: &mut PodSpec) {
    // 1.37 keeps `serviceAccount`, the deprecated alias, equal to `serviceAccountName`
    // here (the name winning when both are set), where 1.36 did it in the conversion.
    #[cfg(feature = "v1_37")]
    {
        if spec.service_account_name.is_empty() {
            spec.service_account_name = spec.service_account.clone();
        }
        spec.service_account.clone_from(&spec.service_account_name);
    }
    set_str(&mut spec.dns_policy, "ClusterFirst");
    set_str(&mut spec.restart_policy, "Always");
    set(&mut spec.security_context, Default::default());
    set(
        &mut spec.termination_grace_period_seconds,
        DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS,
    );
    set_str(&mut spec.scheduler_name, DEFAULT_SCHEDULER_NAME);
    spec.volumes.iter_mut().for_each(volume);
    spec.init_containers.iter_mut().for_each(container);
    spec.containers.iter_mut().flatten().for_each(container);
    for c in &mut spec.ephemeral_containers {
        container_defaults!(c);
    }
}

/// [`pod_spec`] on a pod template's spec.
pub fn pod_template_spec(template: &mut PodTemplateSpec) {
    pod_spec(&mut template.spec);
}

/// The defaults of a claim's spec (Go's `SetDefaults_PersistentVolumeClaimSpec`): a
/// file system volume mode.
pub fn persistent_volume_claim_spec(spec: &mut PersistentVolumeClaimSpec) {
    set(&mut spec.volume_mode, "Filesystem".to_owned());
}

/// A claim's defaults (Go's `SetDefaults_PersistentVolumeClaim` and its spec's): a
/// `Pending` phase, which a StatefulSet's claim templates get too.
pub fn persistent_volume_claim(pvc: &mut PersistentVolumeClaim) {
    set_str(&mut pvc.status.phase, "Pending");
    persistent_volume_claim_spec(&mut pvc.spec);
}

/// The defaults of a persistent volume's sources (host path type, marker defaults of
/// the RBD, iSCSI, ScaleIO and Azure disk sources), shared by PersistentVolume and a
/// VolumeAttachment's inline spec.
pub fn persistent_volume_spec(spec: &mut PersistentVolumeSpec) {
    if let Some(h) = spec.host_path.as_mut() {
        set(&mut h.r#type, String::new());
    }
    if let Some(s) = spec.rbd.as_mut() {
        markers::rbd_persistent_volume_source(s);
    }
    if let Some(s) = spec.iscsi.as_mut() {
        markers::iscsi_persistent_volume_source(s);
    }
    if let Some(s) = spec.azure_disk.as_mut() {
        markers::azure_disk_volume_source(s);
    }
    if let Some(s) = spec.scale_io.as_mut() {
        markers::scale_io_persistent_volume_source(s);
    }
}

/// Requests default to limits, for each resource without a request.
fn requests_from_limits(r: &mut ResourceRequirements) {
    for (name, value) in &r.limits {
        if !r.requests.contains_key(name) {
            r.requests.insert(name.clone(), value.clone());
        }
    }
}

fn host_network_ports(ports: &mut [ContainerPort]) {
    for p in ports {
        if p.host_port == 0 {
            p.host_port = p.container_port;
        }
    }
}

/// Go's `SetDefaults_Pod` (before the spec's walk, as Go's generated defaulter runs it).
fn pod(p: &mut Pod) {
    let spec = &mut p.spec;
    // 1.37: a Pod's (not a template's) negative grace period is 1 second.
    #[cfg(feature = "v1_37")]
    if spec.termination_grace_period_seconds.is_some_and(|s| s < 0) {
        spec.termination_grace_period_seconds = Some(1);
    }
    for c in spec
        .containers
        .iter_mut()
        .flatten()
        .chain(&mut spec.init_containers)
    {
        requests_from_limits(&mut c.resources);
    }
    set(&mut spec.enable_service_links, true);
    if spec.host_network {
        for c in spec
            .containers
            .iter_mut()
            .flatten()
            .chain(&mut spec.init_containers)
        {
            host_network_ports(&mut c.ports);
        }
    }
    pod_spec(spec);
    #[cfg(feature = "v1_37")]
    pod_status(&mut p.status);
}

/// Go's 1.37 `SetDefaults_PodStatus` (1.36 did it in the conversion): `podIP` and
/// `podIPs` kept in step, each filled from the other, and `podIP` authoritative when
/// both are set and differ (older kubelets write only `podIP`).
#[cfg(feature = "v1_37")]
fn pod_status(status: &mut crate::core::v1::PodStatus) {
    match status.pod_ips.first() {
        None if !status.pod_ip.is_empty() => {
            status.pod_ips = vec![crate::core::v1::PodIP {
                ip: status.pod_ip.clone(),
            }];
        }
        Some(first) if status.pod_ip.is_empty() => status.pod_ip = first.ip.clone(),
        Some(first) if first.ip != status.pod_ip => {
            status.pod_ips = vec![crate::core::v1::PodIP {
                ip: status.pod_ip.clone(),
            }];
        }
        _ => {}
    }
}

fn service(s: &mut Service) {
    let spec = &mut s.spec;
    set_str(&mut spec.session_affinity, "None");
    if spec.session_affinity == "None" {
        spec.session_affinity_config = None;
    }
    if spec.session_affinity == "ClientIP"
        && spec
            .session_affinity_config
            .as_ref()
            .and_then(|c| c.client_ip.as_ref())
            .and_then(|c| c.timeout_seconds)
            .is_none()
    {
        spec.session_affinity_config = Some(crate::core::v1::SessionAffinityConfig {
            client_ip: Some(crate::core::v1::ClientIPConfig {
                timeout_seconds: Some(DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS),
            }),
        });
    }
    set_str(&mut spec.r#type, "ClusterIP");
    for port in &mut spec.ports {
        markers::service_port(port);
        if matches!(&port.target_port, IntOrString::Int(0))
            || matches!(&port.target_port, IntOrString::String(s) if s.is_empty())
        {
            port.target_port = IntOrString::Int(port.port);
        }
    }
    // Go's `ExternallyAccessible`: load balancers, node ports, and cluster IPs with
    // external IPs.
    let externally_accessible = spec.r#type == "LoadBalancer"
        || spec.r#type == "NodePort"
        || (spec.r#type == "ClusterIP" && !spec.external_ips.is_empty());
    if externally_accessible {
        set_str(&mut spec.external_traffic_policy, "Cluster");
    }
    if matches!(
        spec.r#type.as_str(),
        "NodePort" | "LoadBalancer" | "ClusterIP"
    ) {
        set(&mut spec.internal_traffic_policy, "Cluster".to_owned());
    }
    if spec.r#type == "LoadBalancer" {
        set(&mut spec.allocate_load_balancer_node_ports, true);
        for ing in &mut s.status.load_balancer.ingress {
            if !ing.ip.is_empty() {
                set(&mut ing.ip_mode, "VIP".to_owned());
            }
        }
    }
}

/// Selector and labels from the template's labels (Go's rule for controllers of old
/// versions): with template labels, an unset selector selects them and an object
/// without labels takes them.
#[cfg(feature = "apps")]
pub(crate) fn labels_from_template<S>(
    template_labels: &BTreeMap<String, String>,
    selector: &mut Option<S>,
    make_selector: impl FnOnce(BTreeMap<String, String>) -> S,
    meta: &mut apimachinery::apis::meta::v1::ObjectMeta,
) {
    // Go tests the labels map against nil; a decoded empty map is nil too.
    if template_labels.is_empty() {
        return;
    }
    if selector.is_none() {
        *selector = Some(make_selector(template_labels.clone()));
    }
    if meta.labels.is_empty() {
        meta.labels = template_labels.clone();
    }
}

fn resource_list_from(
    target: &mut BTreeMap<String, Quantity>,
    source: &BTreeMap<String, Quantity>,
) {
    for (k, v) in source {
        if !target.contains_key(k) {
            target.insert(k.clone(), v.clone());
        }
    }
}

pub(super) fn register(d: &mut Defaulters) {
    use crate::core::v1 as core;
    d.add(pod);
    d.add(|t: &mut core::PodTemplate| pod_template_spec(&mut t.template));
    d.add(|rc: &mut core::ReplicationController| {
        let spec = &mut rc.spec;
        if let Some(t) = spec.template.as_ref() {
            if !t.metadata.labels.is_empty() {
                if spec.selector.is_empty() {
                    spec.selector = t.metadata.labels.clone();
                }
                if rc.metadata.labels.is_empty() {
                    rc.metadata.labels = t.metadata.labels.clone();
                }
            }
        }
        markers::replication_controller_spec(spec);
        if let Some(t) = spec.template.as_mut() {
            pod_template_spec(t);
        }
    });
    d.add(service);
    d.add(|pv: &mut core::PersistentVolume| {
        set_str(&mut pv.status.phase, "Pending");
        set_str(&mut pv.spec.persistent_volume_reclaim_policy, "Retain");
        set(&mut pv.spec.volume_mode, "Filesystem".to_owned());
        persistent_volume_spec(&mut pv.spec);
    });
    d.add(persistent_volume_claim);
    d.add(|ns: &mut core::Namespace| {
        // A namespace being created with generateName has no name to label with yet.
        if !ns.metadata.name.is_empty() {
            ns.metadata
                .labels
                .insert(LABEL_METADATA_NAME.to_owned(), ns.metadata.name.clone());
        }
        set_str(&mut ns.status.phase, "Active");
    });
    d.add(|s: &mut core::Secret| set_str(&mut s.r#type, "Opaque"));
    d.add(|n: &mut core::Node| {
        if n.status.allocatable.is_empty() {
            n.status.allocatable = n.status.capacity.clone();
        }
    });
    d.add(|e: &mut core::Endpoints| {
        for port in e.subsets.iter_mut().flat_map(|s| s.ports.iter_mut()) {
            set_str(&mut port.protocol, "TCP");
        }
    });
    d.add(|lr: &mut core::LimitRange| {
        for item in lr.spec.limits.iter_mut().flatten() {
            if item.r#type == "Container" {
                resource_list_from(&mut item.default, &item.max);
                resource_list_from(&mut item.default_request, &item.default);
                resource_list_from(&mut item.default_request, &item.min);
            }
        }
    });
}
