//! What a Pod's `/status` write may say of its containers (the container parts of Go's
//! `ValidatePodStatusUpdate`): a terminated container stays terminated unless its
//! restart policy (or rules) would restart it, the runtime's `user` within range, and
//! `allocatedResourcesStatus` naming what the container asked for.
//!
//! Go keeps no check that statuses name containers of the spec (or are unique): clients
//! must cope, and so these rules skip what they cannot match.

use std::collections::BTreeSet;

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::inclusive_range_error;

use crate::core::v1::{Container, ContainerStatus, PodSpec, PodStatus};

/// Go's `MaxUint32`: a Linux `uid_t`, the range a runtime may report (1.37).
#[cfg(feature = "v1_37")]
const MAX_UID: i64 = u32::MAX as i64;
/// Go's `ResourceHealthMessageMaxLength`.
const HEALTH_MESSAGE_MAX: i64 = 1024;
/// Go's `ResourceHealthStatus` values, sorted as `NotSupported` lists them.
const HEALTH_VALUES: &[&str] = &["Healthy", "Unhealthy", "Unknown"];
/// Go's `resourceStatusClaimPrefix`.
const CLAIM_PREFIX: &str = "claim:";
const NOT_TERMINATED: &str = "may not be transitioned to non-terminated state";

/// Which list of statuses, for the restart rules each follows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// `containerStatuses`, matched with `spec.containers`.
    Regular,
    /// `initContainerStatuses`, matched with `spec.initContainers`.
    Init,
}

/// Go's `ValidateContainerStateTransition` and `ValidateInitContainerStateTransition`
/// with the restart rules on (ContainerRestartRules and
/// RestartAllContainersOnContainerExits, beta and on in both releases): a status whose
/// stored state is terminated may leave it only when its container would be restarted
/// for that exit code. The index is the stored status's.
pub(super) fn state_transitions(
    new: &[ContainerStatus],
    old: &[ContainerStatus],
    spec: &PodSpec,
    kind: Kind,
    path: &Path,
    errs: &mut ErrorList,
) {
    if all_containers_could_restart(spec) {
        return;
    }
    let no_containers = Vec::new();
    let containers = match kind {
        Kind::Regular => spec.containers.as_ref().unwrap_or(&no_containers),
        Kind::Init => &spec.init_containers,
    };
    for (i, o) in old.iter().enumerate() {
        let Some(terminated) = &o.state.terminated else {
            continue;
        };
        let Some(_) = new
            .iter()
            .find(|n| n.name == o.name && n.state.terminated.is_none())
        else {
            continue;
        };
        let allowed = containers
            .iter()
            .find(|c| c.name == o.name)
            .is_some_and(|c| should_restart(c, spec, terminated.exit_code));
        if !allowed {
            errs.push(Error::forbidden(
                &path.index(i).child("state"),
                NOT_TERMINATED,
            ));
        }
    }
}

/// Go's `ValidateEphemeralContainerStateTransition`: an ephemeral container never
/// leaves its terminated state (each new status of its name counts).
pub(super) fn ephemeral_state_transitions(
    new: &[ContainerStatus],
    old: &[ContainerStatus],
    path: &Path,
    errs: &mut ErrorList,
) {
    for (i, o) in old.iter().enumerate() {
        if o.state.terminated.is_none() {
            continue;
        }
        for n in new {
            if n.name == o.name && n.state.terminated.is_none() {
                errs.push(Error::forbidden(
                    &path.index(i).child("state"),
                    NOT_TERMINATED,
                ));
            }
        }
    }
}

/// Go's `AllContainersCouldRestart`: some container's rule restarts all containers.
fn all_containers_could_restart(spec: &PodSpec) -> bool {
    let containers = spec.containers.iter().flatten();
    spec.init_containers
        .iter()
        .chain(containers)
        .flat_map(|c| &c.restart_policy_rules)
        .any(|r| r.action == "RestartAllContainers")
}

/// Go's `ContainerShouldRestart`: the first rule matching the exit code, else the
/// container's restart policy, else the pod's (`Always` when unknown).
fn should_restart(c: &Container, spec: &PodSpec, exit_code: i32) -> bool {
    if let Some(policy) = &c.restart_policy {
        let rule = c.restart_policy_rules.iter().find(|r| {
            r.exit_codes.as_ref().is_some_and(|e| {
                let matched = e.values.contains(&exit_code);
                match e.operator.as_str() {
                    "In" => matched,
                    "NotIn" => !matched,
                    _ => false,
                }
            })
        });
        if let Some(rule) = rule {
            if matches!(rule.action.as_str(), "Restart" | "RestartAllContainers") {
                return true;
            }
        }
        match policy.as_str() {
            "Always" => return true,
            "OnFailure" => return exit_code != 0,
            "Never" => return false,
            _ => {}
        }
    }
    match spec.restart_policy.as_str() {
        "OnFailure" => exit_code != 0,
        "Never" => false,
        _ => true,
    }
}

/// Go's `validateContainerStatusUsers`: a Windows pod's statuses report no Linux user;
/// a Linux one's, ids in range (1.37: the uid any `uid_t`, as the runtime reports it;
/// 1.36: a pod spec's user range).
pub(super) fn users(
    statuses: &[ContainerStatus],
    spec: &PodSpec,
    path: &Path,
    errs: &mut ErrorList,
) {
    let os = spec.os.as_ref().map_or("linux", |o| o.name.as_str());
    for (i, s) in statuses.iter().enumerate() {
        let Some(linux) = s.user.as_ref().and_then(|u| u.linux.as_ref()) else {
            continue;
        };
        let ip = path.index(i);
        let user = ip.child("user");
        let up = user.child("linux");
        match os {
            "windows" => errs.push(Error::forbidden(&up, "cannot be set for a windows pod")),
            "linux" => {
                #[cfg(feature = "v1_37")]
                if !(0..=MAX_UID).contains(&linux.uid) {
                    errs.push(Error::invalid(
                        &up.child("uid"),
                        linux.uid,
                        format!("must be between 0 and {MAX_UID}, inclusive"),
                    ));
                }
                #[cfg(not(feature = "v1_37"))]
                id_in_range(linux.uid, &up.child("uid"), errs);
                id_in_range(linux.gid, &up.child("gid"), errs);
                let gp = up.child("supplementalGroups");
                for (g, gid) in linux.supplemental_groups.iter().enumerate() {
                    id_in_range(*gid, &gp.index(g), errs);
                }
            }
            _ => {}
        }
    }
}

/// Go's `IsValidUserID`/`IsValidGroupID`.
fn id_in_range(id: i64, path: &Path, errs: &mut ErrorList) {
    if !(0..=i64::from(i32::MAX)).contains(&id) {
        errs.push(Error::invalid(
            path,
            id,
            inclusive_range_error(0, i64::from(i32::MAX)),
        ));
    }
}

/// Go's `validateContainerStatusAllocatedResourcesStatus`: each entry names one of its
/// container's resource requests, or (`claim:` names) one of its claims; each device's
/// health known, message non-empty and short, id unique. A status of no container of
/// the spec has its names unchecked (Go's issue 124915).
pub(super) fn allocated_resources_status(
    statuses: &[ContainerStatus],
    containers: &[Container],
    pod: &PodStatus,
    path: &Path,
    errs: &mut ErrorList,
) {
    #[cfg(not(feature = "v1_37"))]
    let _ = pod;
    for (i, s) in statuses.iter().enumerate() {
        let container = containers.iter().find(|c| c.name == s.name);
        let ip = path.index(i);
        let list = ip.child("allocatedResourcesStatus");
        for (j, allocated) in s.allocated_resources_status.iter().enumerate() {
            let ap = list.index(j);
            if let Some(c) = container {
                let (found, why) = if allocated.name.starts_with(CLAIM_PREFIX) {
                    let named = c
                        .resources
                        .claims
                        .iter()
                        .any(|rc| status_name(&rc.name, &rc.request) == allocated.name);
                    #[cfg(feature = "v1_37")]
                    let named = named || matches_extended_claim(&allocated.name, c, pod);
                    (named, CLAIM_MESSAGE)
                } else {
                    (
                        c.resources.requests.contains_key(&allocated.name),
                        "must match one of the container's resource requests",
                    )
                };
                if !found {
                    errs.push(Error::invalid(
                        &ap.child("name"),
                        BadValue::json_string(&allocated.name),
                        why,
                    ));
                }
            }
            let mut ids = BTreeSet::new();
            let resources = ap.child("resources");
            for (k, r) in allocated.resources.iter().enumerate() {
                let rp = resources.index(k);
                if !HEALTH_VALUES.contains(&r.health.as_str()) {
                    errs.push(Error::not_supported(
                        &rp.child("health"),
                        BadValue::json_string(&r.health),
                        HEALTH_VALUES,
                    ));
                }
                if let Some(message) = &r.message {
                    let mp = rp.child("message");
                    if message.is_empty() {
                        errs.push(Error::required(&mp, "must be non-empty if specified"));
                    } else if message.len() > HEALTH_MESSAGE_MAX as usize {
                        errs.push(Error::too_long(&mp, HEALTH_MESSAGE_MAX));
                    }
                }
                if !ids.insert(r.resource_id.as_str()) {
                    errs.push(Error::duplicate(
                        &rp.child("resourceID"),
                        BadValue::json_string(&r.resource_id),
                    ));
                }
            }
        }
    }
}

/// The message of a `claim:` name matching none of the container's claims.
#[cfg(feature = "v1_37")]
const CLAIM_MESSAGE: &str = "must match one of the container's resource claims as 'claim:<claimName>/<requestName>' when container.resources.claims[*].request is set or 'claim:<claimName>' when it is empty";
#[cfg(not(feature = "v1_37"))]
const CLAIM_MESSAGE: &str = "must match one of the container's resource claims in a format 'claim:<claimName>/<request>' or 'claim:<claimName>' if request is empty";

/// Go's `resourceStatusName`: `claim:<claim>` or `claim:<claim>/<request>`.
fn status_name(claim: &str, request: &str) -> String {
    if request.is_empty() {
        format!("{CLAIM_PREFIX}{claim}")
    } else {
        format!("{CLAIM_PREFIX}{claim}/{request}")
    }
}

/// Go's `matchesExtendedResourceClaimStatus` (1.37): a `claim:<claim>/<request>` name of
/// the pod's extended-resource claim whose request maps to a non-zero request of the
/// container.
#[cfg(feature = "v1_37")]
fn matches_extended_claim(name: &str, c: &Container, pod: &PodStatus) -> bool {
    let Some(status) = &pod.extended_resource_claim_status else {
        return false;
    };
    let Some(reference) = name.strip_prefix(CLAIM_PREFIX) else {
        return false;
    };
    let Some((claim, request)) = reference.split_once('/') else {
        return false;
    };
    if claim.is_empty() || request.is_empty() || claim != status.resource_claim_name {
        return false;
    }
    status.request_mappings.iter().flatten().any(|m| {
        m.container_name == c.name
            && m.request_name == request
            && c.resources
                .requests
                .get(&m.resource_name)
                .is_some_and(|q| !q.is_zero())
    })
}

/// Go's `validateContainerStatusNoAllocatedResourcesStatus`: ephemeral containers have
/// no resources allocated.
pub(super) fn no_allocated_resources_status(
    statuses: &[ContainerStatus],
    path: &Path,
    errs: &mut ErrorList,
) {
    for (i, s) in statuses.iter().enumerate() {
        if !s.allocated_resources_status.is_empty() {
            errs.push(Error::forbidden(
                &path.index(i).child("allocatedResourcesStatus"),
                "must not be specified in container status",
            ));
        }
    }
}
