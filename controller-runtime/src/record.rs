//! An event recorder writing `events.k8s.io/v1` Events (client-go's `tools/events`
//! `EventRecorder`, as controller-runtime's `GetEventRecorderFor` hands out).
//!
//! Events are best effort, as in Go: a failed write is logged, never returned to the
//! reconcile that reported it. Event names are the regarding object's name and a unique
//! suffix, in its namespace (`default` for cluster-scoped objects).
//!
//! Repeats are counted, not written again, as client-go's events broadcaster does: the
//! same type, reason and action about the same object (at the same resourceVersion) is
//! one Event whose `series` counts the occurrences. The second occurrence patches the
//! Event at once (`series.count` 2); later ones only count, and reach the server when the
//! recorder, run by the manager, writes every series (each 30 minutes) or ends one that
//! has been quiet for 6 minutes (its last count written, then forgotten).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use apimachinery::apis::meta::v1::MicroTime;
use apimachinery::runtime::Object;
use k8s_types::core::v1::ObjectReference;
use k8s_types::events::v1::{Event, EventSeries};

use crate::client::{Client, Patch, PatchOptions};
use crate::workqueue::lock;

/// How long a series may be quiet before it ends (client-go's `finishTime`).
pub const FINISH_TIME: Duration = Duration::from_secs(6 * 60);
/// How often every series' count is written (client-go's `refreshTime`).
pub const REFRESH_TIME: Duration = Duration::from_secs(30 * 60);

/// The event type: what happened was expected or needs attention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventType {
    /// `Normal`.
    Normal,
    /// `Warning`.
    Warning,
}

impl EventType {
    fn as_str(self) -> &'static str {
        match self {
            EventType::Normal => "Normal",
            EventType::Warning => "Warning",
        }
    }
}

/// Writes Events about objects on behalf of one controller. Clones share their series.
#[derive(Clone, Debug)]
pub struct EventRecorder {
    client: Client,
    reporting_controller: String,
    reporting_instance: String,
    series: Arc<Mutex<SeriesCache>>,
}

/// What makes two events the same occurrence (client-go's `eventKey`; the reporting
/// controller and instance are the recorder's own).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct EventKey {
    event_type: String,
    action: String,
    reason: String,
    /// The regarding object's API version, kind, namespace, name, UID, resourceVersion
    /// and field path.
    regarding: [String; 7],
}

impl EventKey {
    fn of(event: &Event) -> Self {
        let r = &event.regarding;
        EventKey {
            event_type: event.r#type.clone(),
            action: event.action.clone(),
            reason: event.reason.clone(),
            regarding: [
                r.api_version.clone(),
                r.kind.clone(),
                r.namespace.clone(),
                r.name.clone(),
                r.uid.clone(),
                r.resource_version.clone(),
                r.field_path.clone(),
            ],
        }
    }
}

/// The Events recorded lately, by occurrence: what decides between writing a new
/// Event, patching a series and only counting.
#[derive(Debug, Default)]
struct SeriesCache {
    events: HashMap<EventKey, Event>,
}

impl SeriesCache {
    /// Records `event` at `now`: the Event to write (a new one, or a series' first
    /// repeat), or `None` when a running series only counts it.
    fn observe(&mut self, event: Event, now: MicroTime) -> Option<Event> {
        let key = EventKey::of(&event);
        match self.events.get_mut(&key) {
            None => {
                self.events.insert(key, event.clone());
                Some(event)
            }
            Some(cached) => match &mut cached.series {
                Some(series) => {
                    series.count = series.count.saturating_add(1);
                    series.last_observed_time = now;
                    None
                }
                None => {
                    cached.series = Some(EventSeries {
                        count: 2,
                        last_observed_time: now,
                    });
                    Some(cached.clone())
                }
            },
        }
    }

    /// Every running series, to write its count.
    fn running(&self) -> Vec<Event> {
        self.events
            .values()
            .filter(|e| e.series.is_some())
            .cloned()
            .collect()
    }

    /// Ends what has been quiet since `cutoff`: the series among them, to write their
    /// last count; single Events are forgotten.
    fn finish(&mut self, cutoff: MicroTime) -> Vec<Event> {
        let mut ended = Vec::new();
        self.events.retain(|_, e| {
            let last = e
                .series
                .as_ref()
                .map_or(e.event_time, |s| s.last_observed_time);
            if last >= cutoff {
                return true;
            }
            if e.series.is_some() {
                ended.push(e.clone());
            }
            false
        });
        ended
    }
}

static SEQUENCE: AtomicU64 = AtomicU64::new(0);

impl EventRecorder {
    /// A recorder writing through `client` as `reporting_controller` (such as
    /// `example.com/mirror`) from `reporting_instance` (this process, such as its pod
    /// name).
    pub fn new(
        client: Client,
        reporting_controller: impl Into<String>,
        reporting_instance: impl Into<String>,
    ) -> Self {
        Self {
            client,
            reporting_controller: reporting_controller.into(),
            reporting_instance: reporting_instance.into(),
            series: Arc::default(),
        }
    }

    /// The Event this recorder writes for `regarding` (Go's `Eventf` arguments), not yet
    /// written; `None` for an object without metadata or whose kind the Scheme does not
    /// know.
    pub fn event_for(
        &self,
        regarding: &dyn Object,
        event_type: EventType,
        reason: &str,
        action: &str,
        note: &str,
    ) -> Option<Event> {
        let meta = regarding.meta()?;
        let (kinds, _) = self.client.scheme().object_kinds(regarding).ok()?;
        let gvk = kinds.first()?.clone();
        let (api_version, kind) = gvk.to_api_version_and_kind();
        let namespace = if meta.namespace().is_empty() {
            "default".to_owned()
        } else {
            meta.namespace().to_owned()
        };
        let now = MicroTime::now();
        // Go names events `<name>.<unix nanos in hex>`; the sequence keeps two events of
        // one nanosecond apart.
        let unique = (u64::try_from(now.unix_seconds()).unwrap_or(0) << 30)
            ^ u64::from(now.nanos())
            ^ (SEQUENCE.fetch_add(1, Ordering::Relaxed) << 52);
        let mut event = Event::default();
        event.metadata.name = format!("{}.{unique:x}", meta.name());
        event.metadata.namespace = namespace;
        event.event_time = now;
        event.reporting_controller = self.reporting_controller.clone();
        event.reporting_instance = self.reporting_instance.clone();
        event.action = action.to_owned();
        event.reason = reason.to_owned();
        event.note = note.to_owned();
        event.r#type = event_type.as_str().to_owned();
        event.regarding = ObjectReference {
            kind: kind.to_owned(),
            namespace: meta.namespace().to_owned(),
            name: meta.name().to_owned(),
            uid: meta.uid().to_owned(),
            api_version,
            resource_version: meta.resource_version().to_owned(),
            ..ObjectReference::default()
        };
        Some(event)
    }

    /// Records an event about `regarding`: a new Event, or a count in the series of the
    /// same occurrence; failures are logged, not returned.
    pub async fn event(
        &self,
        regarding: &dyn Object,
        event_type: EventType,
        reason: &str,
        action: &str,
        note: &str,
    ) {
        let Some(event) = self.event_for(regarding, event_type, reason, action, note) else {
            tracing::warn!(
                type_name = regarding.type_name(),
                "event: object has no metadata or unknown kind"
            );
            return;
        };
        let now = event.event_time;
        let write = lock(&self.series).observe(event, now);
        if let Some(event) = write {
            self.write(&event).await;
        }
    }

    /// Writes every running series' count now (what the manager does every
    /// [`REFRESH_TIME`]).
    pub async fn refresh_series(&self) {
        let running = lock(&self.series).running();
        for event in running {
            self.write(&event).await;
        }
    }

    /// Ends the series quiet for [`FINISH_TIME`], writing their last count, and forgets
    /// single Events as old (what the manager does every [`FINISH_TIME`]).
    pub async fn finish_series(&self) {
        let now = MicroTime::now();
        let secs = i64::try_from(FINISH_TIME.as_secs()).unwrap_or(i64::MAX);
        let cutoff = MicroTime::from_unix(now.unix_seconds().saturating_sub(secs), now.nanos());
        let ended = lock(&self.series).finish(cutoff);
        for event in ended {
            self.write(&event).await;
        }
    }

    /// Creates a new Event, or patches a series' count into its Event (created again if
    /// it was deleted meanwhile, as client-go does).
    async fn write(&self, event: &Event) {
        let result = match &event.series {
            None => self
                .client
                .create(event, &Default::default())
                .await
                .map(drop),
            Some(series) => {
                let patch = Patch::StrategicMerge(serde_json::json!({ "series": series }));
                match self
                    .client
                    .patch(event, &patch, &PatchOptions::default())
                    .await
                {
                    Err(e) if e.is_not_found() => {
                        let mut again = event.clone();
                        again.metadata.resource_version.clear();
                        self.client
                            .create(&again, &Default::default())
                            .await
                            .map(drop)
                    }
                    other => other.map(drop),
                }
            }
        };
        if let Err(error) = result {
            tracing::warn!(%error, reason = %event.reason, "event could not be written");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(reason: &str, rv: &str, at: i64) -> Event {
        let mut e = Event::default();
        e.metadata.name = format!("cm.{reason}{rv}");
        e.r#type = "Normal".into();
        e.reason = reason.into();
        e.action = "Sync".into();
        e.regarding.kind = "ConfigMap".into();
        e.regarding.name = "cm".into();
        e.regarding.resource_version = rv.into();
        e.event_time = MicroTime::from_unix(at, 0);
        e
    }

    #[test]
    fn repeats_become_a_series_written_once_then_counted() {
        let mut cache = SeriesCache::default();
        let first = cache.observe(event("Synced", "1", 100), MicroTime::from_unix(100, 0));
        assert!(first.is_some_and(|e| e.series.is_none()));
        // The second occurrence is written at once as a series of 2, under the first
        // Event's name.
        let second = cache
            .observe(event("Synced", "1", 101), MicroTime::from_unix(101, 0))
            .unwrap();
        assert_eq!(second.metadata.name, "cm.Synced1");
        let series = second.series.unwrap();
        assert_eq!(
            (series.count, series.last_observed_time.unix_seconds()),
            (2, 101)
        );
        // Later ones only count.
        assert!(
            cache
                .observe(event("Synced", "1", 102), MicroTime::from_unix(102, 0))
                .is_none()
        );
        assert!(
            cache
                .observe(event("Synced", "1", 103), MicroTime::from_unix(103, 0))
                .is_none()
        );
        // Another reason, or the object at another resourceVersion, is another Event.
        assert!(
            cache
                .observe(event("Failed", "1", 104), MicroTime::from_unix(104, 0))
                .is_some()
        );
        assert!(
            cache
                .observe(event("Synced", "2", 105), MicroTime::from_unix(105, 0))
                .is_some()
        );

        let running = cache.running();
        assert_eq!(running.len(), 1);
        let series = running[0].series.as_ref().unwrap();
        assert_eq!(
            (series.count, series.last_observed_time.unix_seconds()),
            (4, 103)
        );

        // Quiet since before 104: the series ends with its last count; the single
        // Events after the cutoff stay.
        let ended = cache.finish(MicroTime::from_unix(104, 0));
        assert_eq!(ended.len(), 1);
        assert_eq!(ended[0].series.as_ref().map(|s| s.count), Some(4));
        assert_eq!(cache.events.len(), 2);
        // Past everything: the single Events are forgotten, nothing to write.
        assert!(cache.finish(MicroTime::from_unix(1000, 0)).is_empty());
        assert!(cache.events.is_empty());
        // An ended series starts over as a new Event.
        let again = cache.observe(event("Synced", "1", 2000), MicroTime::from_unix(2000, 0));
        assert!(again.is_some_and(|e| e.series.is_none()));
    }
}
