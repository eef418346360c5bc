//! Evictions (Kubernetes 1.37, `lifecycle.k8s.io/v1alpha1`; Go's
//! `pkg/registry/lifecycle/eviction/strategy.go`): the generic strategy (a create clears
//! the status, a `/status` write keeps the stored labels and annotations, an update
//! names the version it replaces), and the table
//! `kubectl get evictions` prints (Go's `printEviction`): the target, the status, the
//! responder at work and how far it is, who asked.

use std::sync::Arc;

use apimachinery::apis::meta::v1::Time;
use serde_json::Value;

// `EvictionSpec{}.SwaggerDoc()["target"]` is EvictionRequestSpec's text.
use super::evictionrequest::{TARGET, status, target};
use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, human_duration, items, since, string_column, text,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

/// Go's `evictionColumnDefinitions` (the last two are `-o wide`'s).
pub const COLUMNS: [Column; 11] = [
    NAME,
    string_column("Target", TARGET, 0),
    string_column("Target Type", TARGET, 0),
    string_column(
        "Status",
        "conditions contain information about the eviction request.\n\nEviction specific conditions are: TargetEvicted or Failed (managed by evictionrequest-controller). - Failed means that the eviction request is no longer being processed\n  by any eviction responder. This can happen if the request is canceled or if no responder\n  managed to evict the target (e.g. terminate or delete a pod).\n- TargetEvicted means that the target has been evicted (e.g. a pod has been terminated or deleted).\n\n\tThe maximum length of the conditions list is 100.",
        0,
    ),
    string_column(
        "Active Responder",
        "state specifies a state that is assigned by the evictionrequest-controller. Responders should observe this state in order to navigate their lifecycle. - Inactive means that the responder should not yet process this eviction request. - Active means that the responder is either running or expected to start soon.\n  Also, startTime has been set in the ResponderStatus by the evictionrequest-controller.\n\n  An active responder should currently interact with the eviction process by updating\n  .status.responders, where .name is the active responder name. ResponderStatus fields\n  should be periodically updated to indicate the progress or completion of the eviction process.\n  If .status.responders[].heartbeatTime field is not updated within the heartbeat deadline defined\n  by the Eviction API (currently 20 minutes), the eviction is passed over to the next responder\n\t with a lower priority. Only one responder can be active at a time.\n- Interrupted means that the responder has failed to start or failed to update\n  heartbeatTime in ResponderStatus in a timely manner.\n- Canceled means that the responder has been canceled. In other words, there\tis no\n  EvictionRequest with the same target and Eviction intent in .spec.intent.\n- Completed means that the responder has successfully completed and set completionTime\n  in ResponderStatus.\n\nPlease refer to the ResponderStatus in .status.responders for more details on each responder.",
        0,
    ),
    string_column(
        "Responder Status",
        "ResponderStatus represents the last observed status of the eviction process of the responder. It should be only updated by the designated responder whose name is .name field.",
        0,
    ),
    string_column(
        "Responder Expected Finish",
        "expectedCompletionTime is the time at which the eviction process step is expected to end for the responder. The time cannot be set to the past. May be omitted if no estimate can be made.",
        0,
    ),
    string_column(
        "Requesters",
        "requesters allow you to identify the entities, that requested the eviction of the target. If all the requesters withdraw their eviction intent, the eviction will be canceled.\n\nThe maximum length of the requesters list is 100. If this limit is exceeded, requesters with Withdrawn intent should be dropped first.",
        0,
    ),
    AGE,
    string_column(
        "Responder Heartbeat",
        "heartbeatTime is the last time at which the eviction process was reported to be in progress by the responder. It should reflect the present time when set. Responders should avoid heartbeats more frequent than 20 seconds to avoid overloading the control-plane.",
        1,
    ),
    string_column(
        "Responder Status Message",
        "message provides human-readable details about the state of the responder and the eviction process. Maximum length is 4000 characters.",
        1,
    ),
];

/// The Evictions' table convertor.
pub static EVICTION_TABLE: Printer = Printer {
    api_version: "lifecycle.k8s.io/v1alpha1",
    kind: "Eviction",
    columns: &COLUMNS,
    print: print_eviction,
};

/// Go's `translateTimestampUntil`: how long until `time`, as kubectl shows it.
fn until(time: &Value) -> String {
    match time.as_str().and_then(|s| Time::parse_rfc3339(s).ok()) {
        Some(t) => human_duration(t.unix_seconds() - Time::now().unix_seconds()),
        None => "<unknown>".to_owned(),
    }
}

/// What the row says of the responder at work: its status, when it is expected to
/// finish, its last heartbeat and its message (the last two the wide columns).
struct Responder {
    status: String,
    expected_finish: String,
    heartbeat: String,
    message: String,
}

impl Responder {
    /// What the row shows without a responder at work, or one that has not reported.
    fn unset() -> Self {
        Responder {
            status: "<unset>".to_owned(),
            expected_finish: "<unknown>".to_owned(),
            heartbeat: "<unset>".to_owned(),
            message: "<unset>".to_owned(),
        }
    }
}

/// The status Go's `printEviction` shows of `responder` (a `targetResponders` entry)
/// from its entry in `status.responders`, if it has one.
fn responder(obj: &Value, responder: &Value) -> Responder {
    let mut out = Responder::unset();
    let name = text(responder, "/name");
    let Some(reported) = items(obj, "/status/responders")
        .iter()
        .find(|r| text(r, "/name") == name)
    else {
        return out;
    };
    let state = text(responder, "/state");
    let time = |key: &str| reported.get(key).filter(|t| !t.is_null());
    out.status = state.to_owned();
    match state {
        "Active" => {
            if let Some(start) = time("startTime") {
                out.status = format!("Started ({} ago)", since(Some(start)));
                if let Some(expected) = time("expectedCompletionTime") {
                    let ahead = expected
                        .as_str()
                        .and_then(|s| Time::parse_rfc3339(s).ok())
                        .is_some_and(|t| t.unix_seconds() > Time::now().unix_seconds());
                    out.expected_finish = if ahead {
                        format!("in {}", until(expected))
                    } else {
                        // An estimate that has passed (wrong, or a slow kubelet).
                        format!("{} ago", since(Some(expected)))
                    };
                }
            }
        }
        "Canceled" | "Interrupted" => out.expected_finish = "-".to_owned(),
        "Completed" => {
            if let Some(done) = time("completionTime") {
                out.status = format!("{state} ({} ago)", since(Some(done)));
            }
            out.expected_finish = "-".to_owned();
        }
        _ => {}
    }
    if let Some(beat) = time("heartbeatTime") {
        out.heartbeat = format!("{} ago", since(Some(beat)));
    }
    let message = text(reported, "/message").trim();
    if !message.is_empty() {
        out.message = message.to_owned();
    }
    out
}

/// Go's `printEviction` with the wide columns (the server's tables have them all).
pub fn print_eviction(obj: &Value) -> Row {
    let (target, target_type) = target(obj);
    // The last active responder, else the last one that is done, and how many are
    // active or done of all.
    let targets = items(obj, "/status/targetResponders");
    let (mut active, mut processed, mut count) = (None, None, 0);
    for t in targets {
        match text(t, "/state") {
            "Canceled" | "Interrupted" | "Completed" => {
                count += 1;
                processed = Some(t);
            }
            "Active" => {
                count += 1;
                active = Some(t);
            }
            _ => {}
        }
    }
    let current = active.or(processed);
    let name = current.map_or("<unset>", |t| text(t, "/name"));
    let shown = current.map_or_else(Responder::unset, |t| responder(obj, t));
    let all_requesters = items(obj, "/status/requesters");
    let mut requesters: Vec<&str> = all_requesters
        .iter()
        .filter(|r| text(r, "/intent") != "Withdrawn")
        .map(|r| text(r, "/name"))
        .collect();
    requesters.sort_unstable();
    let requesters = match requesters.as_slice() {
        [] if all_requesters.is_empty() => "<none>".to_owned(),
        [] => "<withdrawn>".to_owned(),
        [""] => "<unset>".to_owned(),
        [one] => (*one).to_owned(),
        [first, rest @ ..] => format!("{first} + {} more...", rest.len()),
    };
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(target),
        Value::from(target_type),
        Value::from(status(obj)),
        Value::from(format!("{name} ({count}/{})", targets.len())),
        Value::from(shown.status),
        Value::from(shown.expected_finish),
        Value::from(requesters),
        printers::age(obj),
        Value::from(shown.heartbeat),
        Value::from(shown.message),
    ])
}

/// The Evictions' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        GenericStrategy::default()
            .requiring_resource_version()
            .with_status_by_status_writes_only(),
        Arc::new(EVICTION_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ago(seconds: i64) -> String {
        Time::from_unix(Time::now().unix_seconds() - seconds, 0).to_rfc3339()
    }

    #[test]
    fn a_new_eviction_has_nothing_under_way() {
        let e = json!({"metadata": {"name": "e"},
            "spec": {"target": {"pod": {"name": "web-0", "uid": "u"}}}});
        let mut cells = print_eviction(&e).cells;
        cells.remove(8); // the age
        assert_eq!(
            cells,
            [
                "e",
                "web-0",
                "Pod",
                "Pending",
                "<unset> (0/0)",
                "<unset>",
                "<unknown>",
                "<none>",
                "<unset>",
                "<unset>"
            ]
        );
    }

    #[test]
    fn the_active_responder_and_the_requesters_are_shown_as_go_shows_them() {
        let e = json!({"metadata": {"name": "e"},
            "spec": {"target": {"pod": {"name": "web-0", "uid": "u"}}},
            "status": {"observedGeneration": 1,
                "requesters": [{"name": "b.io/x", "intent": "Eviction"},
                               {"name": "a.io/y", "intent": "Eviction"},
                               {"name": "c.io/z", "intent": "Withdrawn"}],
                "targetResponders": [{"name": "r1", "priority": 10, "state": "Completed"},
                                     {"name": "r2", "priority": 5, "state": "Active"},
                                     {"name": "r3", "priority": 1, "state": "Inactive"}],
                "responders": [{"name": "r2", "startTime": ago(300), "heartbeatTime": ago(30),
                                "expectedCompletionTime": ago(60), "message": "  draining "}]}});
        let cells = print_eviction(&e).cells;
        assert_eq!(cells[3], "Progressing");
        assert_eq!(cells[4], "r2 (2/3)");
        assert_eq!(cells[5], "Started (5m ago)");
        assert_eq!(cells[6], "60s ago");
        assert_eq!(cells[7], "a.io/y + 1 more...");
        assert_eq!(cells[9], "30s ago");
        assert_eq!(cells[10], "draining");
    }

    #[test]
    fn a_completed_responder_and_withdrawn_requesters() {
        let e = json!({"metadata": {"name": "e"}, "spec": {},
            "status": {"requesters": [{"name": "a.io/y", "intent": "Withdrawn"}],
                "targetResponders": [{"name": "r1", "state": "Completed"}],
                "responders": [{"name": "r1", "completionTime": ago(7200)}]}});
        let cells = print_eviction(&e).cells;
        assert_eq!(cells[1..3], ["<unset>", "<unset>"]);
        assert_eq!(cells[4], "r1 (1/1)");
        assert_eq!(cells[5], "Completed (120m ago)");
        assert_eq!(cells[6], "-");
        assert_eq!(cells[7], "<withdrawn>");
    }
}
