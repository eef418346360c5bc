//! The Pod statuses the simulated kubelet writes, shaped as Go's kubelet writes them
//! (`generateAPIPodStatus`): the conditions in its order (`PodReadyToStartContainers`,
//! `Initialized`, `Ready`, `ContainersReady`, `PodScheduled`), each with the Pod's
//! generation as `observedGeneration`; container statuses with `started`, `ready`,
//! `restartCount` and their state; `hostIP`/`hostIPs`, `podIP`/`podIPs`, `startTime`;
//! the QoS class the server set kept.

use apimachinery::apis::meta::v1::Time;
use k8s_types::core::v1::{
    Container, ContainerState, ContainerStateRunning, ContainerStateTerminated, ContainerStatus,
    HostIP, Pod, PodCondition, PodIP, PodStatus,
};

/// How a simulated Pod's containers end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every container exited 0: phase `Succeeded`.
    Succeeded,
    /// A container exited with this non-zero code: phase `Failed`.
    Failed(i32),
}

fn condition(pod: &Pod, kind: &str, value: bool, reason: &str, now: &Time) -> PodCondition {
    let mut c = PodCondition::default();
    c.r#type = kind.into();
    c.status = if value { "True" } else { "False" }.into();
    c.reason = reason.into();
    c.observed_generation = pod.metadata.generation;
    // Go's kubelet keeps the transition time of a condition whose status is unchanged.
    c.last_transition_time = pod
        .status
        .conditions
        .iter()
        .find(|old| old.r#type == kind && old.status == c.status)
        .map_or(*now, |old| old.last_transition_time);
    c
}

fn scheduled(pod: &Pod, now: &Time) -> PodCondition {
    pod.status
        .conditions
        .iter()
        .find(|c| c.r#type == "PodScheduled")
        .cloned()
        .unwrap_or_else(|| condition(pod, "PodScheduled", true, "", now))
}

fn base(pod: &Pod, host_ip: &str, pod_ip: &str, now: &Time) -> PodStatus {
    let mut status = PodStatus::default();
    status.observed_generation = pod.metadata.generation;
    status.qos_class = pod.status.qos_class.clone();
    status.host_ip = host_ip.into();
    status.host_ips = vec![host(host_ip)];
    status.pod_ip = pod_ip.into();
    status.pod_ips = vec![pod_address(pod_ip)];
    status.start_time = Some(pod.status.start_time.unwrap_or(*now));
    status
}

fn host(ip: &str) -> HostIP {
    HostIP { ip: ip.into() }
}

fn pod_address(ip: &str) -> PodIP {
    PodIP { ip: ip.into() }
}

fn started_at(pod: &Pod, name: &str, now: &Time) -> Time {
    pod.status
        .container_statuses
        .iter()
        .chain(&pod.status.init_container_statuses)
        .find(|s| s.name == name)
        .and_then(|s| s.state.running.as_ref())
        .map_or(*now, |r| r.started_at)
}

fn running(pod: &Pod, c: &Container, now: &Time) -> ContainerStatus {
    ContainerStatus {
        name: c.name.clone(),
        image: c.image.clone(),
        ready: true,
        started: Some(true),
        state: ContainerState {
            running: Some(ContainerStateRunning {
                started_at: started_at(pod, &c.name, now),
            }),
            ..ContainerState::default()
        },
        ..ContainerStatus::default()
    }
}

fn terminated(pod: &Pod, c: &Container, exit_code: i32, now: &Time) -> ContainerStatus {
    let terminated = ContainerStateTerminated {
        exit_code,
        reason: if exit_code == 0 { "Completed" } else { "Error" }.into(),
        started_at: started_at(pod, &c.name, now),
        finished_at: *now,
        ..ContainerStateTerminated::default()
    };
    ContainerStatus {
        name: c.name.clone(),
        image: c.image.clone(),
        started: Some(false),
        state: ContainerState {
            terminated: Some(terminated),
            ..ContainerState::default()
        },
        ..ContainerStatus::default()
    }
}

fn is_sidecar(c: &Container) -> bool {
    c.restart_policy.as_deref() == Some("Always")
}

/// The status of `pod` running on its Node (`host_ip`) with `pod_ip`: phase `Running`,
/// every condition `True`, init containers completed (sidecars running), containers
/// running and ready.
pub fn running_status(pod: &Pod, host_ip: &str, pod_ip: &str, now: &Time) -> PodStatus {
    let mut status = base(pod, host_ip, pod_ip, now);
    status.phase = "Running".into();
    status.conditions = vec![
        condition(pod, "PodReadyToStartContainers", true, "", now),
        condition(pod, "Initialized", true, "", now),
        condition(pod, "Ready", true, "", now),
        condition(pod, "ContainersReady", true, "", now),
        scheduled(pod, now),
    ];
    status.init_container_statuses = pod
        .spec
        .init_containers
        .iter()
        .map(|c| {
            if is_sidecar(c) {
                running(pod, c, now)
            } else {
                let mut s = terminated(pod, c, 0, now);
                s.ready = true;
                s
            }
        })
        .collect();
    status.container_statuses = pod
        .spec
        .containers
        .iter()
        .flatten()
        .map(|c| running(pod, c, now))
        .collect();
    status
}

/// The status of `pod` whose containers have ended as `outcome` says: phase
/// `Succeeded` or `Failed`, `Ready` and `ContainersReady` `False` with reason
/// `PodCompleted` or `PodFailed`, the sandbox gone (`PodReadyToStartContainers`
/// `False`), containers terminated with exit code and reason `Completed` or `Error`.
pub fn finished_status(pod: &Pod, outcome: Outcome, now: &Time) -> PodStatus {
    let host_ip = pod.status.host_ip.clone();
    let pod_ip = pod.status.pod_ip.clone();
    let mut status = base(pod, &host_ip, &pod_ip, now);
    let (phase, reason, code) = match outcome {
        Outcome::Succeeded => ("Succeeded", "PodCompleted", 0),
        Outcome::Failed(code) => ("Failed", "PodFailed", code),
    };
    status.phase = phase.into();
    status.conditions = vec![
        condition(pod, "PodReadyToStartContainers", false, "", now),
        condition(pod, "Initialized", true, "", now),
        condition(pod, "Ready", false, reason, now),
        condition(pod, "ContainersReady", false, reason, now),
        scheduled(pod, now),
    ];
    status.init_container_statuses = pod
        .spec
        .init_containers
        .iter()
        .map(|c| terminated(pod, c, 0, now))
        .collect();
    let containers: Vec<&Container> = pod.spec.containers.iter().flatten().collect();
    status.container_statuses = containers
        .iter()
        .enumerate()
        // The first container carries a failure; the others completed.
        .map(|(i, c)| terminated(pod, c, if i == 0 { code } else { 0 }, now))
        .collect();
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod() -> Pod {
        let mut p = Pod::default();
        p.metadata.generation = 1;
        p.spec.containers = Some(vec![Container {
            name: "web".into(),
            image: "nginx".into(),
            ..Container::default()
        }]);
        p.status.qos_class = "BestEffort".into();
        p.status.conditions = vec![PodCondition {
            r#type: "PodScheduled".into(),
            status: "True".into(),
            last_transition_time: Time::from_unix(5, 0),
            ..PodCondition::default()
        }];
        p
    }

    #[test]
    fn a_running_pod_has_gos_conditions_and_container_statuses() {
        let now = Time::from_unix(10, 0);
        let s = running_status(&pod(), "172.18.0.2", "10.64.0.1", &now);
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["phase"], "Running");
        assert_eq!(json["qosClass"], "BestEffort");
        assert_eq!(json["podIPs"][0]["ip"], "10.64.0.1");
        assert_eq!(json["hostIPs"][0]["ip"], "172.18.0.2");
        let kinds: Vec<&str> = s.conditions.iter().map(|c| c.r#type.as_str()).collect();
        assert_eq!(
            kinds,
            [
                "PodReadyToStartContainers",
                "Initialized",
                "Ready",
                "ContainersReady",
                "PodScheduled"
            ]
        );
        assert!(s.conditions.iter().all(|c| c.status == "True"));
        assert_eq!(s.conditions[4].last_transition_time, Time::from_unix(5, 0));
        let c = &json["containerStatuses"][0];
        assert_eq!(c["ready"], true);
        assert_eq!(c["started"], true);
        assert_eq!(c["restartCount"], 0);
        assert_eq!(c["state"]["running"]["startedAt"], "1970-01-01T00:00:10Z");
    }

    #[test]
    fn a_finished_pod_keeps_its_start_and_reports_the_exit() {
        let mut p = pod();
        p.status = running_status(&p, "172.18.0.2", "10.64.0.1", &Time::from_unix(10, 0));
        let s = finished_status(&p, Outcome::Failed(3), &Time::from_unix(20, 0));
        assert_eq!(s.phase, "Failed");
        assert_eq!(s.start_time, Some(Time::from_unix(10, 0)));
        let ready = &s.conditions[2];
        assert_eq!(
            (ready.status.as_str(), ready.reason.as_str()),
            ("False", "PodFailed")
        );
        let t = s.container_statuses[0].state.terminated.as_ref().unwrap();
        assert_eq!((t.exit_code, t.reason.as_str()), (3, "Error"));
        assert_eq!(t.started_at, Time::from_unix(10, 0));
        assert_eq!(s.pod_ip, "10.64.0.1");
    }
}
