//! The Pods' table (Go's `printPod` in `pkg/printers/internalversion`): ready containers,
//! the status reason kubectl shows (`Pending`, `ContainerCreating`, `Init:0/1`,
//! `CrashLoopBackOff`, `Terminating`, ...), restarts, age, and the wide columns.

use serde_json::{Value, json};

use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, int, items, since, string_column, text,
};

/// Go's `podColumnDefinitions`.
pub const COLUMNS: [Column; 9] = [
    NAME,
    string_column(
        "Ready",
        "The aggregate readiness state of this pod for accepting traffic.",
        0,
    ),
    string_column(
        "Status",
        "The aggregate status of the containers in this pod.",
        0,
    ),
    string_column(
        "Restarts",
        "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
        0,
    ),
    AGE,
    string_column(
        "IP",
        "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.",
        1,
    ),
    string_column(
        "Node",
        "NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename",
        1,
    ),
    string_column(
        "Nominated Node",
        "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.",
        1,
    ),
    string_column(
        "Readiness Gates",
        "If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to \"True\" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates",
        1,
    ),
];

/// The Pods' table convertor.
pub static POD_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "Pod",
    columns: &COLUMNS,
    print: print_pod,
};

/// Whether an init container runs beside the others (`restartPolicy: Always`).
fn restartable(container: Option<&Value>) -> bool {
    container.is_some_and(|c| text(c, "/restartPolicy") == "Always")
}

fn has_condition(pod: &Value, kind: &str) -> bool {
    items(pod, "/status/conditions")
        .iter()
        .any(|c| text(c, "/type") == kind && text(c, "/status") == "True")
}

/// The later of two RFC 3339 times (they compare as text, both in UTC).
fn later<'a>(a: Option<&'a str>, b: Option<&'a str>) -> Option<&'a str> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b > a { b } else { a }),
        (a, b) => a.or(b),
    }
}

fn terminated_at(status: &Value) -> Option<&str> {
    status
        .pointer("/lastState/terminated/finishedAt")
        .and_then(Value::as_str)
}

/// Go's `printPod`, on the Pod's JSON.
pub fn print_pod(pod: &Value) -> Row {
    let init_specs = items(pod, "/spec/initContainers");
    let init_spec = |name: &str| init_specs.iter().find(|c| text(c, "/name") == name);
    let total = items(pod, "/spec/containers").len()
        + init_specs.iter().filter(|c| restartable(Some(c))).count();
    let mut ready = 0;
    let phase = text(pod, "/status/phase");
    let mut reason = match text(pod, "/status/reason") {
        "" => phase.to_owned(),
        r => r.to_owned(),
    };
    if items(pod, "/status/conditions")
        .iter()
        .any(|c| text(c, "/type") == "PodScheduled" && text(c, "/reason") == "SchedulingGated")
    {
        reason = "SchedulingGated".to_owned();
    }
    let conditions = match phase {
        "Succeeded" => Some(json!([{"type": "Completed", "status": "True",
            "reason": "Succeeded", "message": "The pod has completed successfully."}])),
        "Failed" => Some(json!([{"type": "Completed", "status": "True",
            "reason": "Failed", "message": "The pod failed."}])),
        _ => None,
    };
    let mut restarts = 0;
    let mut restartable_restarts = 0;
    let mut last_restart: Option<&str> = None;
    let mut last_restartable_restart: Option<&str> = None;
    let mut initializing = false;
    let init_statuses = items(pod, "/status/initContainerStatuses");
    for (i, status) in init_statuses.iter().enumerate() {
        let count = int(status, "/restartCount");
        restarts += count;
        last_restart = later(last_restart, terminated_at(status));
        let spec = init_spec(text(status, "/name"));
        if restartable(spec) {
            restartable_restarts += count;
            last_restartable_restart = later(last_restartable_restart, terminated_at(status));
        }
        let terminated = status.pointer("/state/terminated");
        let waiting_reason = text(status, "/state/waiting/reason");
        if terminated.is_some_and(|t| int(t, "/exitCode") == 0) {
            continue;
        }
        if restartable(spec) && status.get("started").and_then(Value::as_bool) == Some(true) {
            if status.get("ready").and_then(Value::as_bool) == Some(true) {
                ready += 1;
            }
            continue;
        }
        reason = match terminated {
            Some(t) => match (text(t, "/reason"), int(t, "/signal")) {
                ("", 0) => format!("Init:ExitCode:{}", int(t, "/exitCode")),
                ("", signal) => format!("Init:Signal:{signal}"),
                (r, _) => format!("Init:{r}"),
            },
            None if !waiting_reason.is_empty() && waiting_reason != "PodInitializing" => {
                format!("Init:{waiting_reason}")
            }
            None => format!("Init:{i}/{}", init_specs.len()),
        };
        initializing = true;
        break;
    }
    if !initializing || has_condition(pod, "Initialized") {
        restarts = restartable_restarts;
        last_restart = last_restartable_restart;
        let mut running = false;
        let mut error_reason = String::new();
        for status in items(pod, "/status/containerStatuses").iter().rev() {
            restarts += int(status, "/restartCount");
            last_restart = later(last_restart, terminated_at(status));
            let waiting_reason = text(status, "/state/waiting/reason");
            if status.pointer("/state/waiting").is_some() && !waiting_reason.is_empty() {
                reason = waiting_reason.to_owned();
            } else if let Some(t) = status.pointer("/state/terminated") {
                reason = match (text(t, "/reason"), int(t, "/signal")) {
                    ("", 0) => format!("ExitCode:{}", int(t, "/exitCode")),
                    ("", signal) => format!("Signal:{signal}"),
                    (r, _) => r.to_owned(),
                };
                if int(t, "/exitCode") != 0 {
                    error_reason = reason.clone();
                }
            } else if status.get("ready").and_then(Value::as_bool) == Some(true)
                && status.pointer("/state/running").is_some()
            {
                running = true;
                ready += 1;
            }
        }
        if reason == "Completed" {
            if running && has_condition(pod, "Ready") {
                reason = "Running".to_owned();
            } else if !error_reason.is_empty() {
                reason = error_reason;
            } else if running {
                reason = "NotReady".to_owned();
            }
        }
    }
    let deleting = pod
        .pointer("/metadata/deletionTimestamp")
        .is_some_and(|t| !t.is_null());
    if deleting && text(pod, "/status/reason") == "NodeLost" {
        reason = "Unknown".to_owned();
    } else if deleting && !matches!(phase, "Succeeded" | "Failed") {
        reason = "Terminating".to_owned();
    }
    let restarts = match last_restart {
        Some(t) if restarts != 0 => {
            format!("{restarts} ({} ago)", since(Some(&Value::from(t))))
        }
        _ => restarts.to_string(),
    };
    let or_none = |s: &str| {
        if s.is_empty() {
            "<none>".to_owned()
        } else {
            s.to_owned()
        }
    };
    let ip = items(pod, "/status/podIPs")
        .first()
        .map_or("", |ip| text(ip, "/ip"));
    let gates = items(pod, "/spec/readinessGates");
    let readiness_gates = if gates.is_empty() {
        "<none>".to_owned()
    } else {
        let conditions = items(pod, "/status/conditions");
        let ready_gates = gates
            .iter()
            .filter(|g| {
                conditions
                    .iter()
                    .find(|c| text(c, "/type") == text(g, "/conditionType"))
                    .is_some_and(|c| text(c, "/status") == "True")
            })
            .count();
        format!("{ready_gates}/{}", gates.len())
    };
    Row {
        cells: vec![
            pod.pointer("/metadata/name")
                .cloned()
                .unwrap_or(Value::from("")),
            Value::from(format!("{ready}/{total}")),
            Value::from(reason),
            Value::from(restarts),
            printers::age(pod),
            Value::from(or_none(ip)),
            Value::from(or_none(text(pod, "/spec/nodeName"))),
            Value::from(or_none(text(pod, "/status/nominatedNodeName"))),
            Value::from(readiness_gates),
        ],
        conditions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(pod: Value) -> Vec<Value> {
        let mut cells = print_pod(&pod).cells;
        cells.remove(4);
        cells
    }

    #[test]
    fn pods_print_as_kubectl_shows_them() {
        let pending = json!({"metadata": {"name": "web"}, "spec": {"containers": [{"name": "c"}]},
            "status": {"phase": "Pending"}});
        assert_eq!(
            cells(pending),
            json!([
                "web", "0/1", "Pending", "0", "<none>", "<none>", "<none>", "<none>"
            ])
            .as_array()
            .unwrap()
            .clone()
        );
        let running = json!({"metadata": {"name": "db"},
            "spec": {"nodeName": "n", "containers": [{"name": "a"}, {"name": "b"}],
                "readinessGates": [{"conditionType": "x"}]},
            "status": {"phase": "Running", "podIPs": [{"ip": "10.0.0.1"}],
                "conditions": [{"type": "x", "status": "True"}],
                "containerStatuses": [
                    {"name": "a", "ready": true, "restartCount": 0, "state": {"running": {}}},
                    {"name": "b", "ready": false, "restartCount": 2,
                        "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}});
        assert_eq!(
            cells(running),
            json!([
                "db",
                "1/2",
                "CrashLoopBackOff",
                "2",
                "10.0.0.1",
                "n",
                "<none>",
                "1/1"
            ])
            .as_array()
            .unwrap()
            .clone()
        );
        let init = json!({"metadata": {"name": "i", "deletionTimestamp": "2026-01-01T00:00:00Z"},
            "spec": {"initContainers": [{"name": "setup"}], "containers": [{"name": "c"}]},
            "status": {"phase": "Pending", "initContainerStatuses": [{"name": "setup", "state": {"running": {}}}]}});
        assert_eq!(cells(init)[2], "Terminating");
        let succeeded = json!({"metadata": {"name": "s"}, "spec": {"containers": []}, "status": {"phase": "Succeeded"}});
        assert!(print_pod(&succeeded).conditions.is_some());
    }
}
