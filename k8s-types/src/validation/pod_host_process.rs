//! Windows HostProcess pods (Go's `validateWindowsHostProcessPod`): all containers or
//! none run as HostProcess, with the pod's own setting agreeing with theirs, on the
//! host's network, and only where the cluster allows privileged pods.

use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::pod_capabilities::allow_privileged;
use crate::core::v1::{PodSpec, SecurityContext};

/// Each container's security context with its path parts, in Go's
/// `VisitContainersWithPath` order (init, regular, ephemeral).
fn contexts(spec: &PodSpec) -> Vec<(&'static str, usize, Option<&SecurityContext>)> {
    let init = spec
        .init_containers
        .iter()
        .map(|c| c.security_context.as_ref());
    let regular = spec.containers.iter().flatten();
    let regular = regular.map(|c| c.security_context.as_ref());
    let ephemeral = spec.ephemeral_containers.iter();
    let ephemeral = ephemeral.map(|c| c.security_context.as_ref());
    let mut out: Vec<_> = init
        .enumerate()
        .map(|(i, s)| ("initContainers", i, s))
        .collect();
    out.extend(regular.enumerate().map(|(i, s)| ("containers", i, s)));
    out.extend(
        ephemeral
            .enumerate()
            .map(|(i, s)| ("ephemeralContainers", i, s)),
    );
    out
}

pub(super) fn validate_windows_host_process_pod(spec: &PodSpec, path: &Path, errs: &mut ErrorList) {
    let pod_hp = spec
        .security_context
        .as_ref()
        .and_then(|sc| sc.windows_options.as_ref())
        .and_then(|w| w.host_process);
    let all = contexts(spec);
    let mut host_process = 0;
    for (list, i, sc) in &all {
        let own = sc
            .and_then(|sc| sc.windows_options.as_ref())
            .and_then(|w| w.host_process);
        if let (Some(p), Some(c)) = (pod_hp, own) {
            if p != c {
                let lp = path.child(list);
                let ip = lp.index(*i);
                let sp = ip.child("securityContext");
                let wp = sp.child("windowsOptions");
                errs.push(Error::invalid(
                    &wp.child("hostProcess"),
                    c,
                    format!(
                        "pod hostProcess value must be identical if both are specified, was {p}"
                    ),
                ));
            }
        }
        if own.or(pod_hp) == Some(true) {
            host_process += 1;
        }
    }
    if host_process == 0 {
        return;
    }
    if host_process != all.len() {
        errs.push(Error::invalid(
            path,
            "",
            "If pod contains any hostProcess containers then all containers must be HostProcess containers",
        ));
    }
    if !spec.host_network {
        errs.push(Error::invalid(
            &path.child("hostNetwork"),
            false,
            "hostNetwork must be true if pod contains any hostProcess containers",
        ));
    }
    if !allow_privileged() {
        errs.push(Error::forbidden(
            path,
            "hostProcess containers are disallowed by cluster policy",
        ));
    }
}
