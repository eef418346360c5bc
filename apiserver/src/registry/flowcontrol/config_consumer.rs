//! API priority and fairness's config consumer (Go's `k8s.io/apiserver/pkg/util/flowcontrol`
//! `apf_controller.go`), of which the server keeps what clients see: each FlowSchema's
//! `Dangling` condition, which says whether the PriorityLevelConfiguration it names
//! exists (the `MissingPL` column of `kubectl get flowschemas`). kube-apiserver runs it
//! whenever priority and fairness is on, as it is by default; this server does no
//! request queuing, so the condition is all of it there is to see.
//!
//! As Go's: every change of a FlowSchema or PriorityLevelConfiguration brings one pass
//! over all of them; a schema whose condition is not the one wanted gets it through
//! server-side apply of its `/status`, forced, as the manager
//! `api-priority-and-fairness-config-consumer-v1`; a schema written more than five times
//! in the last minute waits 30 to 75 seconds; a failed pass is retried after 200 ms,
//! doubling up to 8 hours.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::managedfields::FieldManager;
use apimachinery::runtime::Scheme;
use apimachinery::schema::GroupVersion;
use futures_util::{FutureExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::endpoints::fieldmanager::{self, SchemeConverter};
use crate::registry::rest::RestStorage;
use crate::registry::{Store, Subresource, convert, from_value, to_json};
use crate::storage::{KeyValue, ListOptions, Storage, WatchEvent, WatchStream, interpret_error};

/// The group of FlowSchemas and PriorityLevelConfigurations.
const GROUP: &str = "flowcontrol.apiserver.k8s.io";
/// The version the controller reads and applies in (Go's client's).
const VERSION: &str = "v1";
/// Go's `ConfigConsumerAsFieldManager`.
pub const FIELD_MANAGER: &str = "api-priority-and-fairness-config-consumer-v1";
/// Go's `FlowSchemaConditionDangling`.
const DANGLING: &str = "Dangling";
/// How often one schema may be written in [`WINDOW`] before it waits (Go's
/// `shouldDelayUpdate`: more than this many writes in a minute put the next one off).
const WRITES_PER_WINDOW: usize = 5;
/// The window writes are counted in.
const WINDOW: Duration = Duration::from_secs(60);
/// The first pause after a failed pass (Go's queue's exponential failure rate limiter).
const FIRST_RETRY: Duration = Duration::from_millis(200);
/// The longest pause after failed passes.
const LONGEST_RETRY: Duration = Duration::from_secs(8 * 60 * 60);
/// How long the controller waits before watching again when the storage refuses.
const WATCH_RETRY: Duration = Duration::from_millis(200);

/// The stores the controller reads and writes.
struct Stores {
    storage: Arc<dyn Storage>,
    schemas: Arc<Store>,
    levels: Arc<Store>,
}

/// Starts the controller over the server's `storages`, when they serve both
/// FlowSchemas and PriorityLevelConfigurations; it watches `storage` and stops once
/// `shutdown` turns true. The task, which the server waits for when it stops.
pub(crate) fn start(
    storage: Arc<dyn Storage>,
    storages: &BTreeMap<(String, String), Arc<dyn RestStorage>>,
    shutdown: watch::Receiver<bool>,
) -> Option<JoinHandle<()>> {
    let store = |resource: &str| {
        storages
            .get(&(GROUP.to_owned(), resource.to_owned()))
            .map(|rest| rest.store().clone())
    };
    let stores = Stores {
        storage,
        schemas: store("flowschemas")?,
        levels: store("prioritylevelconfigurations")?,
    };
    Some(tokio::spawn(run(stores, shutdown)))
}

/// Follows both resources until the server stops, a pass after every change.
async fn run(stores: Stores, mut shutdown: watch::Receiver<bool>) {
    let mut history = History::default();
    let mut failures = 0u32;
    let prefixes = [
        stores.schemas.info().collection_prefix(None),
        stores.levels.info().collection_prefix(None),
    ];
    while !*shutdown.borrow() {
        // Its own storage watches, not the watch cache's, which outlive the server.
        let watches = match (
            stores.storage.watch(&prefixes[0], 0).await,
            stores.storage.watch(&prefixes[1], 0).await,
        ) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => {
                tracing::warn!(error = %e, "the priority and fairness config consumer cannot watch its resources; retrying");
                tokio::select! {
                    _ = tokio::time::sleep(WATCH_RETRY) => continue,
                    _ = shutdown.changed() => return,
                }
            }
        };
        let (mut schemas, mut levels) = watches;
        // Whatever changed before the watches started.
        let mut next = Some(Instant::now());
        loop {
            let due = next.unwrap_or_else(Instant::now);
            tokio::select! {
                changed = changes(&mut schemas) => match changed {
                    Some(true) => next = Some(Instant::now()),
                    Some(false) => {}
                    None => break,
                },
                changed = changes(&mut levels) => match changed {
                    Some(true) => next = Some(Instant::now()),
                    Some(false) => {}
                    None => break,
                },
                _ = tokio::time::sleep_until(due), if next.is_some() => {
                    next = match sync(&stores, &mut history).await {
                        Ok(later) => {
                            failures = 0;
                            later.map(|delay| Instant::now() + delay)
                        }
                        Err(e) => {
                            tracing::warn!(error = %e, "the priority and fairness config consumer failed to update the FlowSchemas' status");
                            let pause = retry_pause(failures);
                            failures = failures.saturating_add(1);
                            Some(Instant::now() + pause)
                        }
                    };
                }
                _ = shutdown.changed() => return,
            }
        }
    }
}

/// Waits for the next events of a watch: `Some(true)` when something was written (the
/// queued events read with it: one pass covers them all), `Some(false)` for a progress
/// notice, `None` when the watch ended.
async fn changes(events: &mut WatchStream) -> Option<bool> {
    let mut changed = match events.next().await {
        Some(Ok(WatchEvent::Progress { .. })) => false,
        Some(Ok(_)) => true,
        Some(Err(e)) => {
            tracing::warn!(error = %e, "the priority and fairness config consumer's watch ended; watching again");
            return None;
        }
        None => return None,
    };
    while let Some(Some(event)) = events.next().now_or_never() {
        match event {
            Ok(WatchEvent::Progress { .. }) => {}
            Ok(_) => changed = true,
            Err(_) => return None,
        }
    }
    Some(changed)
}

/// The pause after `failures` failed passes in a row.
fn retry_pause(failures: u32) -> Duration {
    FIRST_RETRY
        .checked_mul(2u32.saturating_pow(failures.min(20)))
        .map_or(LONGEST_RETRY, |d| d.min(LONGEST_RETRY))
}

/// The schemas each recent pass wrote, newest first (Go's `mostRecentUpdates`).
#[derive(Default)]
struct History(VecDeque<(Instant, BTreeSet<String>)>);

impl History {
    /// Whether `name` was written too often in the last minute to be written now; the
    /// passes older than that are forgotten.
    fn should_delay(&mut self, name: &str, now: Instant) -> bool {
        if let Some(old) = self
            .0
            .iter()
            .position(|(at, _)| now.saturating_duration_since(*at) > WINDOW)
        {
            self.0.truncate(old);
        }
        let writes = self.0.iter().filter(|(_, w)| w.contains(name)).count();
        writes > WRITES_PER_WINDOW
    }

    /// Records a pass.
    fn add(&mut self, at: Instant, written: BTreeSet<String>) {
        self.0.push_front((at, written));
    }
}

/// How long a schema written too often waits: 30 to 75 seconds, as Go picks.
fn put_off() -> Duration {
    let spread = uuid::Uuid::new_v4().as_bytes()[0] % 45;
    Duration::from_secs(30 + u64::from(spread))
}

/// One pass: every FlowSchema's `Dangling` condition made the one its priority level
/// calls for. When a schema was put off, how long until the next pass.
async fn sync(stores: &Stores, history: &mut History) -> Result<Option<Duration>, StatusError> {
    // From the storage itself: the watch event that brought this pass may not have
    // reached the watch cache yet, and a schema read without its new condition would be
    // written again.
    let levels: BTreeSet<String> = list(&*stores.storage, &stores.levels)
        .await?
        .into_iter()
        .filter_map(|kv| {
            let prefix = stores.levels.info().collection_prefix(None);
            kv.key.strip_prefix(&prefix).map(str::to_owned)
        })
        .collect();
    let scheme = stores.schemas.scheme();
    let v1 = GroupVersion::new(GROUP, VERSION);
    let mut wanted = Vec::new();
    for kv in list(&*stores.storage, &stores.schemas).await? {
        let fs = stores.schemas.decode(&kv)?;
        let fs = to_json(&*convert(scheme, fs, &v1)?)?;
        let level = text(&fs, "/spec/priorityLevelConfiguration/name");
        let condition = dangling_condition(level, levels.contains(level));
        if !has_condition(&fs, &condition) {
            wanted.push((text(&fs, "/metadata/name").to_owned(), condition));
        }
    }
    let now = Instant::now();
    let time = fieldmanager::now();
    let mut written = BTreeSet::new();
    let mut later = None;
    let mut failed = None;
    for (name, mut condition) in wanted {
        if history.should_delay(&name, now) {
            later.get_or_insert_with(put_off);
            continue;
        }
        written.insert(name.clone());
        condition["lastTransitionTime"] = Value::from(time.as_str());
        match apply_condition(&stores.schemas, &name, condition, &time).await {
            // Deleted meanwhile: its deletion brings another pass.
            Err(e) if errors::is_not_found(&e) => {}
            Err(e) => {
                failed.get_or_insert(e);
            }
            Ok(()) => {}
        }
    }
    history.add(now, written);
    match failed {
        Some(e) => Err(e),
        None => Ok(later),
    }
}

/// The stored values of `store`'s resource, read from `storage`.
async fn list(storage: &dyn Storage, store: &Store) -> Result<Vec<KeyValue>, StatusError> {
    storage
        .list(
            &store.info().collection_prefix(None),
            &ListOptions::default(),
        )
        .await
        .map(|listed| listed.kvs)
        .map_err(|e| interpret_error(e, &store.info().qualified_resource(), ""))
}

/// The string at `pointer` of `v`, empty when there is none.
fn text<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// Go's `presyncFlowSchemaStatus`: the `Dangling` condition of a schema naming the
/// priority level `level`, which exists or not (without its `lastTransitionTime`).
fn dangling_condition(level: &str, exists: bool) -> Value {
    let (status, reason, message) = if exists {
        (
            "False",
            "Found",
            format!(
                "This FlowSchema references the PriorityLevelConfiguration object named {level:?} and it exists"
            ),
        )
    } else {
        (
            "True",
            "NotFound",
            format!(
                "This FlowSchema references the PriorityLevelConfiguration object named {level:?} but there is no such object"
            ),
        )
    };
    json!({"type": DANGLING, "status": status, "reason": reason, "message": message})
}

/// Whether the schema's `Dangling` condition already has `wanted`'s status, reason and
/// message (Go compares those three; the time is when it changed).
fn has_condition(fs: &Value, wanted: &Value) -> bool {
    let conditions = fs.pointer("/status/conditions").and_then(Value::as_array);
    let current = conditions
        .into_iter()
        .flatten()
        .find(|c| text(c, "/type") == DANGLING);
    let field = |c: Option<&Value>, f: &str| {
        c.and_then(|c| c.get(f))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    ["status", "reason", "message"]
        .iter()
        .all(|f| field(current, f) == field(Some(wanted), f))
}

/// Server-side apply of `{status: {conditions: [condition]}}` to the `/status` of
/// FlowSchema `name`, forced, as [`FIELD_MANAGER`] at `time` (Go's `ApplyStatus`).
async fn apply_condition(
    store: &Store,
    name: &str,
    condition: Value,
    time: &str,
) -> Result<(), StatusError> {
    let scheme: &Arc<Scheme> = store.scheme();
    let v1 = GroupVersion::new(GROUP, VERSION);
    let gvk = v1.with_kind("FlowSchema");
    let types = fieldmanager::types_for(&gvk);
    let converter = SchemeConverter {
        scheme,
        gvk: gvk.clone(),
        served: store.info().versions.clone(),
    };
    let reset = store.reset_fields(Subresource::Status, VERSION);
    let fm =
        FieldManager::new(&types, &v1.to_string(), "status", &converter).with_reset_fields(&reset);
    let config = json!({
        "apiVersion": v1.to_string(),
        "kind": "FlowSchema",
        "metadata": {"name": name},
        "status": {"conditions": [condition]},
    });
    let storage_gv = store.info().storage_version();
    store
        .update("", name, Subresource::Status, false, |current| {
            let live = to_json(&*convert(scheme, current.deep_copy_object(), &v1)?)?;
            let Some(merged) = fm
                .apply(&live, &config, FIELD_MANAGER, true, time)
                .map_err(fieldmanager::apply_error)?
            else {
                return Ok(current);
            };
            let mut obj = from_value(scheme, &gvk, merged)?;
            scheme.default(&mut *obj);
            convert(scheme, obj, &storage_gv)
        })
        .await
        .map(|_| ())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_condition_says_whether_the_level_exists_in_gos_words() {
        assert_eq!(
            dangling_condition("global-default", true),
            json!({"type": "Dangling", "status": "False", "reason": "Found",
                   "message": "This FlowSchema references the PriorityLevelConfiguration object named \"global-default\" and it exists"})
        );
        assert_eq!(
            dangling_condition("gone", false),
            json!({"type": "Dangling", "status": "True", "reason": "NotFound",
                   "message": "This FlowSchema references the PriorityLevelConfiguration object named \"gone\" but there is no such object"})
        );
    }

    #[test]
    fn a_condition_is_current_when_status_reason_and_message_are() {
        let wanted = dangling_condition("a", true);
        let mut fs = json!({"status": {"conditions": [
            {"type": "Other", "status": "True"},
            {"type": "Dangling", "status": "False", "reason": "Found",
             "message": wanted["message"], "lastTransitionTime": "2020-01-01T00:00:00Z"}
        ]}});
        assert!(has_condition(&fs, &wanted));
        fs["status"]["conditions"][1]["reason"] = json!("Other");
        assert!(!has_condition(&fs, &wanted));
        assert!(!has_condition(&json!({}), &wanted));
    }

    #[test]
    fn the_sixth_write_in_a_minute_waits() {
        let mut history = History::default();
        let start = Instant::now();
        for i in 0..5 {
            assert!(!history.should_delay("a", start));
            history.add(start + Duration::from_secs(i), ["a".to_owned()].into());
        }
        history.add(start + Duration::from_secs(5), BTreeSet::new());
        let now = start + Duration::from_secs(6);
        assert!(!history.should_delay("a", now));
        history.add(now, ["a".to_owned()].into());
        assert!(history.should_delay("a", now));
        assert!(!history.should_delay("b", now));
        // A minute on, the old passes are forgotten.
        assert!(!history.should_delay("a", now + WINDOW + Duration::from_secs(1)));
        assert!(history.0.is_empty());
    }

    #[test]
    fn failed_passes_back_off_exponentially_up_to_eight_hours() {
        assert_eq!(retry_pause(0), Duration::from_millis(200));
        assert_eq!(retry_pause(3), Duration::from_millis(1600));
        assert_eq!(retry_pause(40), LONGEST_RETRY);
        let off = put_off();
        assert!(off >= Duration::from_secs(30) && off < Duration::from_secs(75));
    }
}
