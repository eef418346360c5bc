//! An event recorder writing `events.k8s.io/v1` Events (client-go's `tools/events`
//! `EventRecorder`, as controller-runtime's `GetEventRecorderFor` hands out).
//!
//! Events are best effort, as in Go: a failed write is logged, never returned to the
//! reconcile that reported it. Event names are the regarding object's name and a unique
//! suffix, in its namespace (`default` for cluster-scoped objects).

use std::sync::atomic::{AtomicU64, Ordering};

use apimachinery::apis::meta::v1::MicroTime;
use apimachinery::runtime::Object;
use k8s_types::core::v1::ObjectReference;
use k8s_types::events::v1::Event;

use crate::client::Client;

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

/// Writes Events about objects on behalf of one controller.
#[derive(Clone, Debug)]
pub struct EventRecorder {
    client: Client,
    reporting_controller: String,
    reporting_instance: String,
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

    /// Records an event about `regarding`; failures are logged, not returned.
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
        if let Err(error) = self.client.create(&event, &Default::default()).await {
            tracing::warn!(%error, reason, "event could not be written");
        }
    }
}
