//! A pod's containers, init and ephemeral containers (Go's `validateContainerCommon`
//! and its parts): names, images, policies, ports, env/envFrom, resize policies.

use std::collections::BTreeSet;

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{
    is_config_map_key, is_dns1123_label, is_dns1123_subdomain, is_relaxed_env_var_name,
    is_valid_port_name, is_valid_port_num,
};

use crate::core::v1::{
    Container, ContainerPort, ContainerResizePolicy, ContainerRestartRule, EnvFromSource, EnvVar,
    EphemeralContainer, Lifecycle, Probe, ResourceRequirements, SecurityContext, VolumeDevice,
    VolumeMount,
};
use crate::validation::invalid_each;
use crate::validation::pod_security::validate_security_context;

use super::downward_api::{
    ENV_FIELD_PATHS, resource_field_selector, validate_object_field_selector,
};
use super::probes::{validate_handler, validate_probe};
use super::resources::validate_resource_requirements;
use super::volumes::{validate_volume_devices, validate_volume_mounts};
use super::{PULL_POLICIES, TERMINATION_MESSAGE_POLICIES, one_of, protocol};

/// What a container's rules need to know of its pod.
pub(super) struct PodFacts<'a> {
    /// False when the pod runs in its own user namespace.
    pub(super) host_users: bool,
    /// The pod's `terminationGracePeriodSeconds`, bounding `sleep` actions.
    pub(super) grace_period: Option<i64>,
    pub(super) restart_policy: &'a str,
    /// The pod's `os.name`, when it has an `os`.
    pub(super) os: Option<&'a str>,
    /// The volumes a block device may come from (PVCs and ephemeral volumes).
    pub(super) block_volumes: BTreeSet<&'a str>,
    /// The image volumes, which take no bind mount options (1.37).
    #[cfg(feature = "v1_37")]
    pub(super) image_volumes: BTreeSet<&'a str>,
    /// Go's `AllowSysAdminWhenPrivilegeEscalationFalse` (1.37): an update whose old spec
    /// already had a container adding `CAP_SYS_ADMIN` without privilege escalation
    /// keeps being accepted.
    pub(super) allow_sys_admin_without_escalation: bool,
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Role {
    Init,
    Regular,
    Ephemeral,
}

/// The fields every kind of container shares, so that one function validates
/// containers, init containers and ephemeral containers alike.
pub(super) struct ContainerView<'a> {
    pub(super) name: &'a str,
    pub(super) image: &'a str,
    pub(super) ports: &'a [ContainerPort],
    pub(super) env: &'a [EnvVar],
    pub(super) env_from: &'a [EnvFromSource],
    pub(super) resources: &'a ResourceRequirements,
    pub(super) volume_mounts: &'a [VolumeMount],
    pub(super) volume_devices: &'a [VolumeDevice],
    pub(super) resize_policy: &'a [ContainerResizePolicy],
    pub(super) liveness: Option<&'a Probe>,
    pub(super) readiness: Option<&'a Probe>,
    pub(super) startup: Option<&'a Probe>,
    pub(super) lifecycle: Option<&'a Lifecycle>,
    pub(super) termination_message_policy: &'a str,
    pub(super) image_pull_policy: &'a str,
    pub(super) security_context: Option<&'a SecurityContext>,
    pub(super) restart_policy: Option<&'a str>,
    pub(super) restart_rules: &'a [ContainerRestartRule],
}

/// A view of either container type: `Container` and `EphemeralContainer` have the
/// same fields (Go converts one into the other to validate it).
macro_rules! container_view {
    ($c:expr) => {{
        let c = $c;
        ContainerView {
            name: &c.name,
            image: &c.image,
            ports: &c.ports,
            env: &c.env,
            env_from: &c.env_from,
            resources: &c.resources,
            volume_mounts: &c.volume_mounts,
            volume_devices: &c.volume_devices,
            resize_policy: &c.resize_policy,
            liveness: c.liveness_probe.as_ref(),
            readiness: c.readiness_probe.as_ref(),
            startup: c.startup_probe.as_ref(),
            lifecycle: c.lifecycle.as_ref(),
            termination_message_policy: &c.termination_message_policy,
            image_pull_policy: &c.image_pull_policy,
            security_context: c.security_context.as_ref(),
            restart_policy: c.restart_policy.as_deref(),
            restart_rules: &c.restart_policy_rules,
        }
    }};
}

impl<'a> From<&'a Container> for ContainerView<'a> {
    fn from(c: &'a Container) -> Self {
        container_view!(c)
    }
}

impl<'a> From<&'a EphemeralContainer> for ContainerView<'a> {
    fn from(c: &'a EphemeralContainer) -> Self {
        container_view!(c)
    }
}

/// The stop signals a Linux container may name.
const LINUX_STOP_SIGNALS: &[&str] = &[
    "SIGABRT",
    "SIGALRM",
    "SIGBUS",
    "SIGCHLD",
    "SIGCLD",
    "SIGCONT",
    "SIGFPE",
    "SIGHUP",
    "SIGILL",
    "SIGINT",
    "SIGIO",
    "SIGIOT",
    "SIGKILL",
    "SIGPIPE",
    "SIGPOLL",
    "SIGPROF",
    "SIGPWR",
    "SIGQUIT",
    "SIGSEGV",
    "SIGSTKFLT",
    "SIGSTOP",
    "SIGSYS",
    "SIGTERM",
    "SIGTRAP",
    "SIGTSTP",
    "SIGTTIN",
    "SIGTTOU",
    "SIGURG",
    "SIGUSR1",
    "SIGUSR2",
    "SIGVTALRM",
    "SIGWINCH",
    "SIGXCPU",
    "SIGXFSZ",
    "SIGRTMIN",
    "SIGRTMIN+1",
    "SIGRTMIN+2",
    "SIGRTMIN+3",
    "SIGRTMIN+4",
    "SIGRTMIN+5",
    "SIGRTMIN+6",
    "SIGRTMIN+7",
    "SIGRTMIN+8",
    "SIGRTMIN+9",
    "SIGRTMIN+10",
    "SIGRTMIN+11",
    "SIGRTMIN+12",
    "SIGRTMIN+13",
    "SIGRTMIN+14",
    "SIGRTMIN+15",
    "SIGRTMAX-14",
    "SIGRTMAX-13",
    "SIGRTMAX-12",
    "SIGRTMAX-11",
    "SIGRTMAX-10",
    "SIGRTMAX-9",
    "SIGRTMAX-8",
    "SIGRTMAX-7",
    "SIGRTMAX-6",
    "SIGRTMAX-5",
    "SIGRTMAX-4",
    "SIGRTMAX-3",
    "SIGRTMAX-2",
    "SIGRTMAX-1",
    "SIGRTMAX",
];

/// Go's `validateStopSignal`: only with an `os.name`, and one that OS knows (Go lists
/// the supported ones sorted).
fn validate_stop_signal(signal: &str, os: Option<&str>, path: &Path, errs: &mut ErrorList) {
    let supported: &[&str] = match os {
        None => {
            errs.push(Error::forbidden(
                path,
                "may not be set for containers with empty `spec.os.name`",
            ));
            return;
        }
        Some("windows") => &["SIGKILL", "SIGTERM"],
        Some("linux") => LINUX_STOP_SIGNALS,
        Some(_) => return,
    };
    if !supported.contains(&signal) {
        let mut listed = supported.to_vec();
        listed.sort_unstable();
        errs.push(Error::not_supported(
            path,
            BadValue::json_string(signal),
            &listed,
        ));
    }
}

/// Go's `validateContainerOnlyForPod`: a pod's (not a template's) container image
/// without surrounding whitespace.
pub(super) fn validate_image_only_for_pod(image: &str, path: &Path, errs: &mut ErrorList) {
    if image.trim() != image {
        errs.push(Error::invalid(
            &path.child("image"),
            image,
            "must not have leading or trailing whitespace",
        ));
    }
}

pub(super) fn validate_container<'a>(
    c: ContainerView<'a>,
    path: &Path,
    volumes: &BTreeSet<&str>,
    names: &mut BTreeSet<&'a str>,
    role: Role,
    pod: &PodFacts,
    errs: &mut ErrorList,
) {
    // Go's `validateContainerCommon` first, then each kind's own rules.
    let np = path.child("name");
    if c.name.is_empty() {
        errs.push(Error::required(&np, ""));
    } else {
        invalid_each(errs, &np, c.name, is_dns1123_label(c.name));
    }
    // Surrounding whitespace is refused of a pod's containers only (Go's
    // `validateContainerOnlyForPod`): a template may have an image of " ".
    if c.image.is_empty() {
        errs.push(Error::required(&path.child("image"), ""));
    }
    one_of(
        c.termination_message_policy,
        TERMINATION_MESSAGE_POLICIES,
        &path.child("terminationMessagePolicy"),
        errs,
    );
    validate_container_ports(c.ports, &path.child("ports"), errs);
    validate_env(c.env, &path.child("env"), errs);
    validate_env_from(c.env_from, &path.child("envFrom"), errs);
    let privileged = c.security_context.and_then(|sc| sc.privileged) == Some(true);
    validate_volume_mounts(
        &c,
        volumes,
        pod,
        privileged,
        &path.child("volumeMounts"),
        errs,
    );
    validate_volume_devices(&c, volumes, pod, &path.child("volumeDevices"), errs);
    one_of(
        c.image_pull_policy,
        PULL_POLICIES,
        &path.child("imagePullPolicy"),
        errs,
    );
    errs.extend(validate_resource_requirements(
        c.resources,
        &path.child("resources"),
    ));
    validate_resize_policy(
        c.resize_policy,
        pod.restart_policy,
        &path.child("resizePolicy"),
        errs,
    );
    if let Some(sc) = c.security_context {
        validate_security_context(
            sc,
            &path.child("securityContext"),
            pod.host_users,
            pod.allow_sys_admin_without_escalation,
            errs,
        );
    }
    // Go's `validateInitContainerRestartPolicy` (with both restart-rule gates on, as in
    // 1.36, it is the regular containers' check for init containers too).
    // Without a policy, an init container's rules are not looked at.
    if role == Role::Init {
        if c.restart_policy.is_some() {
            validate_container_restart_policy(c.restart_policy, c.restart_rules, path, errs);
        } else if !c.restart_rules.is_empty() {
            errs.push(Error::required(
                &path.child("restartPolicy"),
                "must specify restartPolicy when restart rules are used",
            ));
        }
    }
    // Go leaves an init container without a name out of the set of names.
    let duplicate = if role == Role::Init && c.name.is_empty() {
        names.contains("")
    } else {
        !names.insert(c.name)
    };
    if duplicate {
        errs.push(Error::duplicate(&np, c.name));
    }
    let sidecar = role == Role::Init && c.restart_policy == Some("Always");
    match role {
        // Ephemeral containers' forbidden fields: `validate_ephemeral_only`.
        Role::Ephemeral => {}
        Role::Init if !sidecar => {
            for (field, set) in [
                ("lifecycle", c.lifecycle.is_some()),
                ("livenessProbe", c.liveness.is_some()),
                ("readinessProbe", c.readiness.is_some()),
                ("startupProbe", c.startup.is_some()),
            ] {
                if set {
                    errs.push(Error::forbidden(
                        &path.child(field),
                        "may not be set for init containers without restartPolicy=Always",
                    ));
                }
            }
        }
        _ => {
            if let Some(l) = c.lifecycle {
                let lp = path.child("lifecycle");
                if let Some(h) = &l.post_start {
                    validate_handler(h, pod.grace_period, &lp.child("postStart"), errs);
                }
                if let Some(h) = &l.pre_stop {
                    validate_handler(h, pod.grace_period, &lp.child("preStop"), errs);
                }
                if let Some(signal) = &l.stop_signal {
                    validate_stop_signal(signal, pod.os, &lp.child("stopSignal"), errs);
                }
            }
            for (field, probe, single_success) in [
                ("livenessProbe", c.liveness, true),
                ("readinessProbe", c.readiness, false),
                ("startupProbe", c.startup, true),
            ] {
                if let Some(p) = probe {
                    let pp = path.child(field);
                    validate_probe(p, pod.grace_period, &pp, errs);
                    if !single_success {
                        if let Some(g) = p.termination_grace_period_seconds {
                            errs.push(Error::invalid(
                                &pp.child("terminationGracePeriodSeconds"),
                                g,
                                "must not be set for readinessProbes",
                            ));
                        }
                    }
                    if single_success && p.success_threshold != 1 {
                        errs.push(Error::invalid(
                            &pp.child("successThreshold"),
                            p.success_threshold,
                            "must be 1",
                        ));
                    }
                }
            }
            if role == Role::Regular {
                validate_container_restart_policy(c.restart_policy, c.restart_rules, path, errs);
            }
        }
    }
}

pub(super) fn validate_container_ports(ports: &[ContainerPort], path: &Path, errs: &mut ErrorList) {
    let mut names = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        let p = path.index(i);
        if !port.name.is_empty() {
            let msgs = is_valid_port_name(&port.name);
            if !msgs.is_empty() {
                invalid_each(errs, &p.child("name"), &port.name, msgs);
            } else if !names.insert(port.name.as_str()) {
                errs.push(Error::duplicate(&p.child("name"), &port.name));
            }
        }
        if port.container_port == 0 {
            errs.push(Error::required(&p.child("containerPort"), ""));
        } else {
            for msg in is_valid_port_num(i64::from(port.container_port)) {
                errs.push(Error::invalid(
                    &p.child("containerPort"),
                    port.container_port,
                    msg,
                ));
            }
        }
        if port.host_port != 0 {
            for msg in is_valid_port_num(i64::from(port.host_port)) {
                errs.push(Error::invalid(&p.child("hostPort"), port.host_port, msg));
            }
        }
        protocol(&port.protocol, &p.child("protocol"), errs);
    }
}

pub(super) fn validate_env(env: &[EnvVar], path: &Path, errs: &mut ErrorList) {
    for (i, ev) in env.iter().enumerate() {
        let p = path.index(i);
        if ev.name.is_empty() {
            errs.push(Error::required(&p.child("name"), ""));
        } else {
            invalid_each(
                errs,
                &p.child("name"),
                &ev.name,
                is_relaxed_env_var_name(&ev.name),
            );
        }
        let Some(from) = &ev.value_from else { continue };
        let fp = p.child("valueFrom");
        let mut sources = 0;
        if let Some(fs) = &from.field_ref {
            sources += 1;
            validate_object_field_selector(fs, ENV_FIELD_PATHS, &fp.child("fieldRef"), errs);
        }
        if let Some(r) = &from.resource_field_ref {
            sources += 1;
            resource_field_selector(r, &fp.child("resourceFieldRef"), false, errs);
        }
        if let Some(r) = &from.config_map_key_ref {
            sources += 1;
            key_ref(&r.name, &r.key, &fp.child("configMapKeyRef"), errs);
        }
        if let Some(r) = &from.secret_key_ref {
            sources += 1;
            key_ref(&r.name, &r.key, &fp.child("secretKeyRef"), errs);
        }
        if from.file_key_ref.is_some() {
            sources += 1;
        }
        if sources == 0 {
            errs.push(Error::invalid(
                &fp,
                "",
                "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`",
            ));
        } else if !ev.value.is_empty() {
            errs.push(Error::invalid(
                &fp,
                "",
                "may not be specified when `value` is not empty",
            ));
        } else if sources > 1 {
            errs.push(Error::invalid(
                &fp,
                "",
                "may not have more than one field specified at a time",
            ));
        }
    }
}

pub(super) fn key_ref(name: &str, key: &str, path: &Path, errs: &mut ErrorList) {
    if key.is_empty() {
        errs.push(Error::required(&path.child("key"), ""));
    } else {
        invalid_each(errs, &path.child("key"), key, is_config_map_key(key));
    }
    if name.is_empty() {
        errs.push(Error::required(&path.child("name"), ""));
    } else {
        invalid_each(errs, &path.child("name"), name, is_dns1123_subdomain(name));
    }
}

pub(super) fn validate_env_from(env_from: &[EnvFromSource], path: &Path, errs: &mut ErrorList) {
    for (i, ef) in env_from.iter().enumerate() {
        let p = path.index(i);
        if !ef.prefix.is_empty() {
            invalid_each(
                errs,
                &p.child("prefix"),
                &ef.prefix,
                is_relaxed_env_var_name(&ef.prefix),
            );
        }
        let mut sources = 0;
        for (field, name) in [
            ("configMapRef", ef.config_map_ref.as_ref().map(|r| &r.name)),
            ("secretRef", ef.secret_ref.as_ref().map(|r| &r.name)),
        ] {
            let Some(name) = name else { continue };
            sources += 1;
            let fp = p.child(field);
            let np = fp.child("name");
            if name.is_empty() {
                errs.push(Error::required(&np, ""));
            } else {
                invalid_each(errs, &np, name, is_dns1123_subdomain(name));
            }
        }
        if sources == 0 {
            errs.push(Error::invalid(
                &p,
                "",
                "must specify one of: `configMapRef` or `secretRef`",
            ));
        } else if sources > 1 {
            errs.push(Error::invalid(
                &p,
                "",
                "may not have more than one field specified at a time",
            ));
        }
    }
}

/// Go's `validateResizePolicy`: each of `cpu` and `memory` once, a known restart
/// policy, `NotRequired` only when the pod never restarts. Go reports all but the
/// duplicate on the list's path.
pub(super) fn validate_resize_policy(
    policies: &[ContainerResizePolicy],
    pod_restart_policy: &str,
    path: &Path,
    errs: &mut ErrorList,
) {
    let mut seen = BTreeSet::new();
    for (i, p) in policies.iter().enumerate() {
        if !seen.insert(p.resource_name.as_str()) {
            errs.push(Error::duplicate(&path.index(i), &p.resource_name));
        }
        one_of(&p.resource_name, &["cpu", "memory"], path, errs);
        one_of(
            &p.restart_policy,
            &["NotRequired", "RestartContainer"],
            path,
            errs,
        );
        if pod_restart_policy == "Never" && p.restart_policy != "NotRequired" {
            errs.push(Error::invalid(
                path,
                BadValue::json_string(&p.restart_policy),
                "must be 'NotRequired' when pod `restartPolicy` is 'Never'",
            ));
        }
    }
}

/// Go's `validateContainerRestartPolicy` with the ContainerRestartRules and
/// RestartAllContainersOnContainerExits gates on (1.36's defaults): a known policy,
/// required when there are rules, at most 20 rules, each with a known action and an
/// exit-code condition (a known operator, at most 255 values).
fn validate_container_restart_policy(
    policy: Option<&str>,
    rules: &[ContainerRestartRule],
    path: &Path,
    errs: &mut ErrorList,
) {
    let rp = path.child("restartPolicy");
    match policy {
        None if !rules.is_empty() => errs.push(Error::required(
            &rp,
            "must specify restartPolicy when restart rules are used",
        )),
        Some(p) if !["Always", "Never", "OnFailure"].contains(&p) => {
            errs.push(Error::not_supported(
                &rp,
                BadValue::json_string(p),
                &["Always", "Never", "OnFailure"],
            ));
        }
        _ => {}
    }
    let lp = path.child("restartPolicyRules");
    if rules.len() > 20 {
        errs.push(Error::too_many(&lp, rules.len() as i64, 20));
    }
    for (i, rule) in rules.iter().enumerate() {
        let ip = lp.index(i);
        let actions = ["Restart", "RestartAllContainers"];
        if !actions.contains(&rule.action.as_str()) {
            errs.push(Error::not_supported(
                &ip.child("action"),
                BadValue::json_string(&rule.action),
                &actions,
            ));
        }
        let ep = ip.child("exitCodes");
        match &rule.exit_codes {
            None => errs.push(Error::required(&ep, "must be specified")),
            Some(codes) => {
                if !["In", "NotIn"].contains(&codes.operator.as_str()) {
                    errs.push(Error::not_supported(
                        &ep.child("operator"),
                        BadValue::json_string(&codes.operator),
                        &["In", "NotIn"],
                    ));
                }
                if codes.values.len() > 255 {
                    errs.push(Error::too_many(
                        &ep.child("values"),
                        codes.values.len() as i64,
                        255,
                    ));
                }
            }
        }
    }
}
