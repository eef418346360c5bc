//! A Pod's security rules (Go's `validatePodSpecSecurityContext`,
//! `ValidateSecurityContext`, `validateHostUsers`, `validateOS` with `validateLinux` and
//! `validateWindows`, `validatePodHostNetworkDeps` and `checkHostPortConflicts`): pod and
//! container security contexts (IDs, seccomp and AppArmor profiles, sysctls, `procMount`,
//! privilege escalation, Windows options), user namespaces, the fields each `os.name`
//! forbids, and host ports.
//!
//! Go keeps `hostNetwork`, `hostPID`, `hostIPC`, `shareProcessNamespace` and `hostUsers`
//! in its internal `PodSecurityContext`, which conversion from `v1` always creates: the
//! rules on them hold whether or not the `v1` `securityContext` is set.

use std::collections::BTreeSet;

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{inclusive_range_error, is_dns1123_subdomain};

use super::go_value::go_json;
use super::pod_capabilities::allow_privileged;
use super::pod_security_value::go_security_context;
use crate::core::v1::{
    AppArmorProfile, ContainerPort, PodSpec, SeccompProfile, SecurityContext, VolumeDevice,
    WindowsSecurityContextOptions,
};

const SECCOMP_TYPES: &[&str] = &["Localhost", "RuntimeDefault", "Unconfined"];
const APPARMOR_TYPES: &[&str] = &["Localhost", "RuntimeDefault", "Unconfined"];
const PROC_MOUNT_TYPES: &[&str] = &["Default", "Unmasked"];
const FS_GROUP_CHANGE_POLICIES: &[&str] = &["Always", "OnRootMismatch"];
const SUPPLEMENTAL_GROUPS_POLICIES: &[&str] = &["Merge", "Strict"];
const SELINUX_CHANGE_POLICIES: &[&str] = &["MountOption", "Recursive"];
const VALID_OS: &[&str] = &["linux", "windows"];
/// Go's `SysctlMaxLength`.
const SYSCTL_MAX_LENGTH: usize = 253;
/// Go's sysctl name pattern as its `regexp` prints itself.
const SYSCTL_PATTERN: &str =
    r"^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$";
const MAX_GMSA_CREDENTIAL_SPEC_LENGTH: usize = 64 * 1024;
const MAX_RUN_AS_USER_NAME_DOMAIN_LENGTH: usize = 256;
const MAX_RUN_AS_USER_NAME_USER_LENGTH: usize = 104;
/// `PATH_MAX - 1`, Go's bound on an AppArmor localhost profile.
const MAX_LOCALHOST_PROFILE_LENGTH: i64 = 4095;
const HOST_USERS_FALSE: &str = "when `hostUsers` is false";
const NOT_FOR_WINDOWS: &str = "cannot be set for a windows pod";
const NOT_FOR_LINUX: &str = "windows options cannot be set for a linux pod";

/// Go's `IsValidUserID`/`IsValidGroupID`: 0 to 2147483647.
pub(super) fn id_range(id: Option<i64>, path: &Path, errs: &mut ErrorList) {
    if let Some(id) = id {
        if !(0..=i64::from(i32::MAX)).contains(&id) {
            errs.push(Error::invalid(
                path,
                id,
                inclusive_range_error(0, i64::from(i32::MAX)),
            ));
        }
    }
}

/// A value of an optional enumeration, `Unsupported` when unknown.
fn supported(value: Option<&String>, allowed: &[&str], path: &Path, errs: &mut ErrorList) {
    if let Some(v) = value {
        if !allowed.contains(&v.as_str()) {
            errs.push(Error::not_supported(
                path,
                BadValue::json_string(v),
                allowed,
            ));
        }
    }
}

/// Go's `validatePodSpecSecurityContext` over the `v1` fields it reads: the pod's
/// `securityContext` and `shareProcessNamespace` against `hostPID`. `old` is the spec
/// an update replaces: with the SELinuxMount gate off (1.36's default; on from 1.37), only the
/// `Recursive` SELinux change policy is allowed unless the old spec had one
/// (Go's `AllowOnlyRecursiveSELinuxChangePolicy` option).
pub(super) fn validate_pod_security_context(
    spec: &PodSpec,
    old: Option<&PodSpec>,
    spec_path: &Path,
    errs: &mut ErrorList,
) {
    // SELinuxMount is on by default from 1.37: every policy is allowed there.
    let only_recursive = cfg!(not(feature = "v1_37"))
        && old.is_none_or(|o| {
            o.security_context
                .as_ref()
                .is_none_or(|sc| sc.se_linux_change_policy.is_none())
        });
    let path = spec_path.child("securityContext");
    let sc = spec.security_context.as_ref();
    if let Some(sc) = sc {
        id_range(sc.fs_group, &path.child("fsGroup"), errs);
        id_range(sc.run_as_user, &path.child("runAsUser"), errs);
        id_range(sc.run_as_group, &path.child("runAsGroup"), errs);
        let gp = path.child("supplementalGroups");
        for (i, g) in sc.supplemental_groups.iter().enumerate() {
            id_range(Some(*g), &gp.index(i), errs);
        }
    }
    if spec.host_pid && spec.share_process_namespace == Some(true) {
        // 1.37 reports it on the spec's own field (Go's `validateShareProcessNamespace`);
        // 1.36 on the internal security context's, where the field then was.
        let at = if cfg!(feature = "v1_37") {
            spec_path
        } else {
            &path
        };
        errs.push(Error::invalid(
            &at.child("shareProcessNamespace"),
            true,
            "ShareProcessNamespace and HostPID cannot both be enabled",
        ));
    }
    let Some(sc) = sc else { return };
    validate_sysctls(spec, &sc.sysctls, &path.child("sysctls"), errs);
    supported(
        sc.fs_group_change_policy.as_ref(),
        FS_GROUP_CHANGE_POLICIES,
        &path.child("fsGroupChangePolicy"),
        errs,
    );
    if let Some(sp) = &sc.seccomp_profile {
        validate_seccomp_profile(sp, &path.child("seccompProfile"), errs);
    }
    if let Some(w) = &sc.windows_options {
        validate_windows_options(w, &path.child("windowsOptions"), errs);
    }
    if let Some(a) = &sc.app_armor_profile {
        validate_app_armor_profile(a, &path.child("appArmorProfile"), errs);
    }
    supported(
        sc.supplemental_groups_policy.as_ref(),
        SUPPLEMENTAL_GROUPS_POLICIES,
        &path.child("supplementalGroupsPolicy"),
        errs,
    );
    supported(
        sc.se_linux_change_policy.as_ref(),
        if only_recursive {
            &SELINUX_CHANGE_POLICIES[1..]
        } else {
            SELINUX_CHANGE_POLICIES
        },
        &path.child("seLinuxChangePolicy"),
        errs,
    );
}

/// Go's `ValidateSecurityContext` for a container; `host_users` is false when the pod
/// runs in its own user namespace, `allow_sys_admin` Go's
/// `AllowSysAdminWhenPrivilegeEscalationFalse`.
pub(super) fn validate_security_context(
    sc: &SecurityContext,
    path: &Path,
    host_users: bool,
    allow_sys_admin: bool,
    errs: &mut ErrorList,
) {
    if sc.privileged == Some(true) && !allow_privileged() {
        errs.push(Error::forbidden(
            &path.child("privileged"),
            "disallowed by cluster policy",
        ));
    }
    id_range(sc.run_as_user, &path.child("runAsUser"), errs);
    id_range(sc.run_as_group, &path.child("runAsGroup"), errs);
    if let Some(pm) = &sc.proc_mount {
        let pp = path.child("procMount");
        if !PROC_MOUNT_TYPES.contains(&pm.as_str()) {
            errs.push(Error::not_supported(
                &pp,
                BadValue::json_string(pm),
                PROC_MOUNT_TYPES,
            ));
        }
        if host_users && pm == "Unmasked" {
            errs.push(Error::invalid(
                &pp,
                pm,
                "`hostUsers` must be false to use `Unmasked`",
            ));
        }
    }
    if let Some(sp) = &sc.seccomp_profile {
        validate_seccomp_profile(sp, &path.child("seccompProfile"), errs);
    }
    if sc.allow_privilege_escalation == Some(false) {
        if sc.privileged == Some(true) {
            errs.push(Error::invalid(
                path,
                go_security_context(sc),
                "cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
            ));
        }
        // One error per CAP_SYS_ADMIN listed, as Go loops over them.
        let adds = sc
            .capabilities
            .iter()
            .filter(|_| !allow_sys_admin)
            .flat_map(|c| &c.add);
        for _ in adds.filter(|a| *a == "CAP_SYS_ADMIN") {
            errs.push(Error::invalid(
                path,
                go_security_context(sc),
                "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
            ));
        }
    }
    if let Some(w) = &sc.windows_options {
        validate_windows_options(w, &path.child("windowsOptions"), errs);
    }
    if let Some(a) = &sc.app_armor_profile {
        validate_app_armor_profile(a, &path.child("appArmorProfile"), errs);
    }
}

/// Go's `validateSeccompProfileField`: a known type, `localhostProfile` a relative
/// path without `..` exactly when the type is `Localhost`. Go prints the profile struct
/// as the bad value of a stray `localhostProfile`; it is printed here as JSON.
fn validate_seccomp_profile(sp: &SeccompProfile, path: &Path, errs: &mut ErrorList) {
    let tp = path.child("type");
    if sp.r#type.is_empty() {
        errs.push(Error::required(
            &tp,
            "type is required when seccompProfile is set",
        ));
    } else if !SECCOMP_TYPES.contains(&sp.r#type.as_str()) {
        errs.push(Error::not_supported(
            &tp,
            BadValue::json_string(&sp.r#type),
            SECCOMP_TYPES,
        ));
    }
    let lp = path.child("localhostProfile");
    if sp.r#type == "Localhost" {
        match &sp.localhost_profile {
            None => errs.push(Error::required(
                &lp,
                "must be set when seccomp type is Localhost",
            )),
            Some(p) => validate_local_descending_path(p, &lp, errs),
        }
    } else if sp.localhost_profile.is_some() {
        // Go prints its internal SeccompProfile, whose fields have no JSON tags.
        #[derive(serde::Serialize)]
        #[serde(rename_all = "PascalCase")]
        struct GoSeccompProfile<'a> {
            r#type: &'a str,
            localhost_profile: Option<&'a str>,
        }
        let value = GoSeccompProfile {
            r#type: &sp.r#type,
            localhost_profile: sp.localhost_profile.as_deref(),
        };
        errs.push(Error::invalid(
            &lp,
            go_json(&value),
            "can only be set when seccomp type is Localhost",
        ));
    }
}

/// Go's `validateLocalDescendingPath`: relative, and no `..` element.
pub(super) fn validate_local_descending_path(p: &str, path: &Path, errs: &mut ErrorList) {
    if p.starts_with('/') {
        errs.push(Error::invalid(path, p, "must be a relative path"));
    }
    // Go splits after turning the OS separator into `/`; the API server runs on Unix.
    if p.split('/').any(|part| part == "..") {
        errs.push(Error::invalid(path, p, "must not contain '..'"));
    }
}

/// Go's `ValidateAppArmorProfileField`.
fn validate_app_armor_profile(a: &AppArmorProfile, path: &Path, errs: &mut ErrorList) {
    let lp = path.child("localhostProfile");
    match a.r#type.as_str() {
        "Localhost" => match &a.localhost_profile {
            None => errs.push(Error::required(
                &lp,
                "must be set when AppArmor type is Localhost",
            )),
            Some(p) => {
                if p.trim() != p {
                    errs.push(Error::invalid(&lp, p, "must not be padded with whitespace"));
                } else if p.is_empty() {
                    errs.push(Error::required(
                        &lp,
                        "must be set when AppArmor type is Localhost",
                    ));
                }
                if p.len() > MAX_LOCALHOST_PROFILE_LENGTH as usize {
                    errs.push(Error::too_long(&lp, MAX_LOCALHOST_PROFILE_LENGTH));
                }
            }
        },
        "RuntimeDefault" | "Unconfined" => {
            if let Some(p) = &a.localhost_profile {
                errs.push(Error::invalid(
                    &lp,
                    p,
                    "can only be set when AppArmor type is Localhost",
                ));
            }
        }
        "" => errs.push(Error::required(
            &path.child("type"),
            "type is required when appArmorProfile is set",
        )),
        other => errs.push(Error::not_supported(
            &path.child("type"),
            BadValue::json_string(other),
            APPARMOR_TYPES,
        )),
    }
}

/// Go's `IsValidSysctlName`: at most 253 characters, segments of lower-case
/// alphanumerics, `-` and `_` (not at their ends) separated by `.` or `/`.
fn is_valid_sysctl_name(name: &str) -> bool {
    let segment = |s: &str| {
        let b = s.as_bytes();
        let edge = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        let inner = |c: &u8| edge(c) || *c == b'-' || *c == b'_';
        match (b.first(), b.last()) {
            (Some(f), Some(l)) => edge(f) && edge(l) && b.iter().all(inner),
            _ => false,
        }
    };
    name.len() <= SYSCTL_MAX_LENGTH && name.split(['.', '/']).all(segment)
}

/// The kernel namespace a sysctl belongs to (Go's `utilsysctl.GetNamespace`), after
/// Go's `NormalizeName` (a name whose first separator is `/` uses `/` for `.`).
enum SysctlNamespace {
    Ipc,
    Net,
    Unknown,
}

fn sysctl_namespace(name: &str) -> SysctlNamespace {
    let normalized: String = match name.find(['.', '/']) {
        Some(i) if name.as_bytes()[i] == b'/' => name
            .chars()
            .map(|c| match c {
                '/' => '.',
                '.' => '/',
                c => c,
            })
            .collect(),
        _ => name.to_string(),
    };
    let n = normalized.as_str();
    if n == "kernel.sem"
        || ["kernel.shm", "kernel.msg", "fs.mqueue."]
            .iter()
            .any(|p| n.starts_with(p))
    {
        SysctlNamespace::Ipc
    } else if n.starts_with("net.") {
        SysctlNamespace::Net
    } else {
        SysctlNamespace::Unknown
    }
}

/// Go's `validateSysctls` and `ValidateHostSysctl`: names valid and unique, and no
/// namespaced sysctl for a namespace the pod shares with the host. (Go lets an update
/// keep such sysctls when the old pod had them; updates here re-check them.)
fn validate_sysctls(
    spec: &PodSpec,
    sysctls: &[crate::core::v1::Sysctl],
    path: &Path,
    errs: &mut ErrorList,
) {
    let mut names = BTreeSet::new();
    for (i, s) in sysctls.iter().enumerate() {
        let ip = path.index(i);
        let np = ip.child("name");
        if s.name.is_empty() {
            errs.push(Error::required(&np, ""));
        } else if !is_valid_sysctl_name(&s.name) {
            errs.push(Error::invalid(
                &np,
                &s.name,
                format!(
                    "must have at most {SYSCTL_MAX_LENGTH} characters and match regex {SYSCTL_PATTERN}"
                ),
            ));
        } else if names.contains(s.name.as_str()) {
            errs.push(Error::duplicate(&np, &s.name));
        }
        match sysctl_namespace(&s.name) {
            SysctlNamespace::Net if spec.host_network => errs.push(Error::invalid(
                &np,
                &s.name,
                "may not be specified when 'hostNetwork' is true",
            )),
            SysctlNamespace::Ipc if spec.host_ipc => errs.push(Error::invalid(
                &np,
                &s.name,
                "may not be specified when 'hostIPC' is true",
            )),
            _ => {}
        }
        names.insert(s.name.as_str());
    }
}

/// Go's `validateWindowsSecurityContextOptions`: the GMSA credential spec's name and
/// size, and `runAsUserName` as `[DOMAIN\]USER` with Windows' limits.
fn validate_windows_options(w: &WindowsSecurityContextOptions, path: &Path, errs: &mut ErrorList) {
    if let Some(name) = &w.gmsa_credential_spec_name {
        // Go prints the `*string` through `json.Marshal`.
        for msg in is_dns1123_subdomain(name) {
            errs.push(Error::invalid(
                &path.child("gmsaCredentialSpecName"),
                BadValue::json_string(name),
                msg,
            ));
        }
    }
    if let Some(spec) = &w.gmsa_credential_spec {
        let p = path.child("gmsaCredentialSpec");
        if spec.is_empty() {
            errs.push(Error::invalid(
                &p,
                BadValue::json_string(spec),
                "gmsaCredentialSpec cannot be an empty string",
            ));
        } else if spec.len() > MAX_GMSA_CREDENTIAL_SPEC_LENGTH {
            errs.push(Error::invalid(
                &p,
                BadValue::json_string(spec),
                "gmsaCredentialSpec size must be under 64 KiB",
            ));
        }
    }
    if let Some(name) = &w.run_as_user_name {
        run_as_user_name(name, &path.child("runAsUserName"), errs);
    }
}

fn run_as_user_name(name: &str, p: &Path, errs: &mut ErrorList) {
    let parts: Vec<&str> = name.split('\\').collect();
    if name.is_empty() {
        errs.push(Error::invalid(
            p,
            BadValue::json_string(name),
            "runAsUserName cannot be an empty string",
        ));
        return;
    }
    if name.chars().any(|c| c.is_ascii_control()) {
        errs.push(Error::invalid(
            p,
            BadValue::json_string(name),
            "runAsUserName cannot contain control characters",
        ));
        return;
    }
    let (domain, user) = match parts.as_slice() {
        [user] => (None, *user),
        [domain, user] => (Some(*domain), *user),
        _ => {
            errs.push(Error::invalid(
                p,
                BadValue::json_string(name),
                "runAsUserName cannot contain more than one backslash",
            ));
            return;
        }
    };
    if domain.is_some_and(|d| d.len() >= MAX_RUN_AS_USER_NAME_DOMAIN_LENGTH) {
        errs.push(Error::invalid(
            p,
            BadValue::json_string(name),
            format!(
                "runAsUserName's Domain length must be under {MAX_RUN_AS_USER_NAME_DOMAIN_LENGTH} characters"
            ),
        ));
    }
    if let Some(d) = domain {
        if !(is_netbios_domain(d) || is_windows_dns_domain(d)) {
            errs.push(Error::invalid(
                p,
                BadValue::json_string(name),
                "runAsUserName's Domain doesn't match the NetBios nor the DNS format",
            ));
        }
    }
    if user.is_empty() {
        errs.push(Error::invalid(
            p,
            BadValue::json_string(name),
            "runAsUserName's User cannot be empty",
        ));
    } else if user.len() > MAX_RUN_AS_USER_NAME_USER_LENGTH {
        errs.push(Error::invalid(
            p,
            BadValue::json_string(name),
            format!(
                "runAsUserName's User length must not be longer than {MAX_RUN_AS_USER_NAME_USER_LENGTH} characters"
            ),
        ));
    }
    if !user.is_empty() && user.chars().all(|c| c == '.' || c == ' ') {
        errs.push(Error::invalid(
            p,
            BadValue::json_string(name),
            "runAsUserName's User cannot contain only periods or spaces",
        ));
    }
    if user.contains([
        '"', '/', '\\', ':', ';', '|', '=', ',', '+', '*', '?', '<', '>', '@', '[', ']',
    ]) {
        errs.push(Error::invalid(
            p,
            BadValue::json_string(name),
            r#"runAsUserName's User cannot contain the following characters: "/\:;|=,+*?<>@[]"#,
        ));
    }
}

/// A NetBIOS domain: 1 to 15 characters, none of `\/:*?"<>|`, not starting with `.`.
fn is_netbios_domain(d: &str) -> bool {
    let bad = |c: char| "\\/:*?\"<>|".contains(c);
    let n = d.chars().count();
    (1..=15).contains(&n) && !d.starts_with('.') && !d.chars().any(bad)
}

/// A DNS domain as Go's Windows check spells it: labels of ASCII alphanumerics and
/// inner dashes, 1 to 63 characters, separated by dots.
fn is_windows_dns_domain(d: &str) -> bool {
    d.split('.').all(|l| {
        let b = l.as_bytes();
        (1..=63).contains(&b.len())
            && b[0].is_ascii_alphanumeric()
            && b[b.len() - 1].is_ascii_alphanumeric()
            && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
    })
}

/// Go's `validateHostUsers`: a pod in its own user namespace shares no other
/// namespace with the host and has no volume devices. The paths' capitals are Go's.
/// An update of a pod (`old`) that already had host networking, or volume devices, in
/// its own user namespace may keep them (Go's options from the old spec).
pub(super) fn validate_host_users(
    spec: &PodSpec,
    old: Option<&PodSpec>,
    path: &Path,
    errs: &mut ErrorList,
) {
    if spec.host_users != Some(false) {
        return;
    }
    let old_userns = old.filter(|o| o.host_users == Some(false));
    let keep_host_network = old_userns.is_some_and(|o| o.host_network);
    let keep_devices = old_userns.is_some_and(|o| {
        container_lists(o)
            .iter()
            .any(|(_, l)| l.iter().any(|d| !d.is_empty()))
    });
    for (field, set) in [
        ("hostNetwork", spec.host_network && !keep_host_network),
        ("HostPID", spec.host_pid),
        ("HostIPC", spec.host_ipc),
    ] {
        if set {
            errs.push(Error::forbidden(&path.child(field), HOST_USERS_FALSE));
        }
    }
    if keep_devices {
        return;
    }
    for (field, devices) in container_lists(spec) {
        let lp = path.child(field);
        for (i, d) in devices.iter().enumerate() {
            if !d.is_empty() {
                let ip = lp.index(i);
                errs.push(Error::forbidden(
                    &ip.child("volumeDevices"),
                    HOST_USERS_FALSE,
                ));
            }
        }
    }
}

/// Each container list's volume devices, in Go's visiting order.
fn container_lists(spec: &PodSpec) -> [(&'static str, Vec<&[VolumeDevice]>); 3] {
    [
        (
            "initContainers",
            spec.init_containers
                .iter()
                .map(|c| &c.volume_devices[..])
                .collect(),
        ),
        (
            "containers",
            spec.containers
                .iter()
                .flatten()
                .map(|c| &c.volume_devices[..])
                .collect(),
        ),
        (
            "ephemeralContainers",
            spec.ephemeral_containers
                .iter()
                .map(|c| &c.volume_devices[..])
                .collect(),
        ),
    ]
}

/// Go's `validatePodHostNetworkDeps`: with `hostNetwork`, a regular container's
/// `hostPort` equals its `containerPort` (a template may leave it 0, defaulted when
/// the pod is made; `resource_is_pod` is false then).
pub(super) fn validate_host_network_deps(
    spec: &PodSpec,
    path: &Path,
    resource_is_pod: bool,
    errs: &mut ErrorList,
) {
    if !spec.host_network {
        return;
    }
    let cp = path.child("containers");
    for (i, c) in spec.containers.iter().flatten().enumerate() {
        let ip = cp.index(i);
        let pp = ip.child("ports");
        for (j, port) in c.ports.iter().enumerate() {
            let (hp, cport) = (port.host_port, port.container_port);
            if (resource_is_pod || hp != 0) && hp != cport {
                errs.push(Error::invalid(
                    &pp.index(j).child("hostPort"),
                    hp,
                    "must match `containerPort` when `hostNetwork` is true",
                ));
            }
        }
    }
}

/// Go's `checkHostPortConflicts`: a host port (with its protocol and host IP) used
/// once across the given containers, reported as `Duplicate` of `PROTOCOL/IP/PORT`.
pub(super) fn check_host_port_conflicts<'c>(
    containers: impl IntoIterator<Item = &'c [ContainerPort]>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let mut seen = BTreeSet::new();
    for (i, ports) in containers.into_iter().enumerate() {
        let ip = path.index(i);
        let pp = ip.child("ports");
        for (j, port) in ports.iter().enumerate() {
            if port.host_port == 0 {
                continue;
            }
            let key = format!("{}/{}/{}", port.protocol, port.host_ip, port.host_port);
            if seen.contains(&key) {
                errs.push(Error::duplicate(&pp.index(j).child("hostPort"), key));
            } else {
                seen.insert(key);
            }
        }
    }
}

/// Go's `validateOS`, then `validateLinux` or `validateWindows`: a known `os.name`, and
/// no field of the other OS's security model.
pub(super) fn validate_os(spec: &PodSpec, path: &Path, errs: &mut ErrorList) {
    let Some(os) = &spec.os else { return };
    let op = path.child("os");
    if os.name.is_empty() {
        errs.push(Error::required(&op.child("name"), ""));
        return;
    }
    match os.name.as_str() {
        "linux" => validate_linux(spec, path, errs),
        "windows" => validate_windows(spec, path, errs),
        other => errs.push(Error::not_supported(
            &op,
            BadValue::json_string(other),
            VALID_OS,
        )),
    }
}

/// Each container's security context with its path, in Go's `VisitContainersWithPath`
/// order: init, regular, ephemeral.
fn container_contexts(spec: &PodSpec) -> Vec<(&'static str, usize, &SecurityContext)> {
    let init = spec.init_containers.iter().map(|c| &c.security_context);
    let regular = spec
        .containers
        .iter()
        .flatten()
        .map(|c| &c.security_context);
    let ephemeral = spec
        .ephemeral_containers
        .iter()
        .map(|c| &c.security_context);
    let mut out = Vec::new();
    for (field, list) in [
        ("initContainers", init.collect::<Vec<_>>()),
        ("containers", regular.collect()),
        ("ephemeralContainers", ephemeral.collect()),
    ] {
        for (i, sc) in list.into_iter().enumerate() {
            if let Some(sc) = sc {
                out.push((field, i, sc));
            }
        }
    }
    out
}

fn validate_linux(spec: &PodSpec, path: &Path, errs: &mut ErrorList) {
    if spec
        .security_context
        .as_ref()
        .is_some_and(|sc| sc.windows_options.is_some())
    {
        let sp = path.child("securityContext");
        errs.push(Error::forbidden(&sp.child("windowsOptions"), NOT_FOR_LINUX));
    }
    for (field, i, sc) in container_contexts(spec) {
        if sc.windows_options.is_some() {
            let lp = path.child(field);
            let ip = lp.index(i);
            let sp = ip.child("securityContext");
            errs.push(Error::forbidden(&sp.child("windowsOptions"), NOT_FOR_LINUX));
        }
    }
}

fn validate_windows(spec: &PodSpec, path: &Path, errs: &mut ErrorList) {
    let sp = path.child("securityContext");
    let sc = spec.security_context.clone().unwrap_or_default();
    let forbid = |set: bool, p: &Path, errs: &mut ErrorList| {
        if set {
            errs.push(Error::forbidden(p, NOT_FOR_WINDOWS));
        }
    };
    forbid(
        sc.app_armor_profile.is_some(),
        &sp.child("appArmorProfile"),
        errs,
    );
    forbid(
        sc.se_linux_options.is_some(),
        &sp.child("seLinuxOptions"),
        errs,
    );
    // 1.36 reports the host namespaces with the pod's security context, 1.37 (where
    // they are the spec's own fields) after it.
    let host_namespaces = |errs: &mut ErrorList| {
        forbid(spec.host_users.is_some(), &path.child("hostUsers"), errs);
        forbid(spec.host_pid, &path.child("hostPID"), errs);
        forbid(spec.host_ipc, &path.child("hostIPC"), errs);
    };
    #[cfg(not(feature = "v1_37"))]
    host_namespaces(errs);
    forbid(
        sc.seccomp_profile.is_some(),
        &sp.child("seccompProfile"),
        errs,
    );
    forbid(sc.fs_group.is_some(), &sp.child("fsGroup"), errs);
    forbid(
        sc.fs_group_change_policy.is_some(),
        &sp.child("fsGroupChangePolicy"),
        errs,
    );
    forbid(!sc.sysctls.is_empty(), &sp.child("sysctls"), errs);
    let share_process_namespace = |errs: &mut ErrorList| {
        forbid(
            spec.share_process_namespace.is_some(),
            &path.child("shareProcessNamespace"),
            errs,
        );
    };
    #[cfg(not(feature = "v1_37"))]
    share_process_namespace(errs);
    forbid(sc.run_as_user.is_some(), &sp.child("runAsUser"), errs);
    forbid(sc.run_as_group.is_some(), &sp.child("runAsGroup"), errs);
    // Go tests the slice against nil; an empty list does not survive decoding here.
    forbid(
        !sc.supplemental_groups.is_empty(),
        &sp.child("supplementalGroups"),
        errs,
    );
    forbid(
        sc.supplemental_groups_policy.is_some(),
        &sp.child("supplementalGroupsPolicy"),
        errs,
    );
    forbid(
        sc.se_linux_change_policy.is_some(),
        &sp.child("seLinuxChangePolicy"),
        errs,
    );
    #[cfg(feature = "v1_37")]
    {
        host_namespaces(errs);
        share_process_namespace(errs);
    }
    for (field, i, c) in container_contexts(spec) {
        let lp = path.child(field);
        let ip = lp.index(i);
        let cp = ip.child("securityContext");
        for (name, set) in [
            ("appArmorProfile", c.app_armor_profile.is_some()),
            ("seLinuxOptions", c.se_linux_options.is_some()),
            ("seccompProfile", c.seccomp_profile.is_some()),
            ("capabilities", c.capabilities.is_some()),
            (
                "readOnlyRootFilesystem",
                c.read_only_root_filesystem.is_some(),
            ),
            ("privileged", c.privileged.is_some()),
            (
                "allowPrivilegeEscalation",
                c.allow_privilege_escalation.is_some(),
            ),
            ("procMount", c.proc_mount.is_some()),
            ("runAsUser", c.run_as_user.is_some()),
            ("runAsGroup", c.run_as_group.is_some()),
        ] {
            forbid(set, &cp.child(name), errs);
        }
    }
}

/// Go's `useAllowSysAdminWhenPrivilegeEscalationFalse` (Kubernetes 1.37; always false
/// before): whether the spec an update replaces has a container adding `CAP_SYS_ADMIN`
/// whose privilege escalation is not explicitly allowed, which lets the update keep it.
pub(super) fn allow_sys_admin_without_escalation(old: Option<&crate::core::v1::PodSpec>) -> bool {
    let Some(old) = old.filter(|_| cfg!(feature = "v1_37")) else {
        return false;
    };
    let regular = old
        .containers
        .iter()
        .flatten()
        .map(|c| c.security_context.as_ref());
    let init = old
        .init_containers
        .iter()
        .map(|c| c.security_context.as_ref());
    let ephemeral = old
        .ephemeral_containers
        .iter()
        .map(|c| c.security_context.as_ref());
    regular.chain(init).chain(ephemeral).flatten().any(|sc| {
        sc.allow_privilege_escalation != Some(true)
            && sc
                .capabilities
                .iter()
                .flat_map(|c| &c.add)
                .any(|a| a == "CAP_SYS_ADMIN")
    })
}
