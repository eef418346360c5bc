//! Events (Go's `pkg/registry/core/event`): selectable by the object they are about,
//! which `kubectl describe` asks for. Both Event APIs keep core Events (see
//! `registry::events`), so both select by the same fields, and both print the same
//! table (Go's `printEvent` of the internal Event either API converts to).

use apimachinery::util::go_strings::to_lower;
use std::borrow::Cow;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::registry::GarbageCollectionPolicy;
use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::event_conversion::{EVENTS_GROUP, RENAMES};
use crate::registry::printers::{Column, NAME, Printer, Row, int, since, string_column, text};
use crate::registry::rest::{RestStorage, StandardStorage};
use crate::registry::strategy::{SelectableField, Strategy};

/// Go's event strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct EventStrategy;

impl Strategy for EventStrategy {
    /// Go's event strategy creates on PUT.
    fn allow_create_on_update(&self) -> bool {
        true
    }

    /// Go's event strategy: Events take no propagation finalizers.
    fn garbage_collection_policy(&self, _version: &str) -> GarbageCollectionPolicy {
        GarbageCollectionPolicy::Unsupported
    }

    /// Go's `ToSelectableFields` of an Event, on the stored (core) Event.
    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[
            ("involvedObject.kind", "/involvedObject/kind"),
            ("involvedObject.namespace", "/involvedObject/namespace"),
            ("involvedObject.name", "/involvedObject/name"),
            ("involvedObject.uid", "/involvedObject/uid"),
            ("involvedObject.apiVersion", "/involvedObject/apiVersion"),
            (
                "involvedObject.resourceVersion",
                "/involvedObject/resourceVersion",
            ),
            ("involvedObject.fieldPath", "/involvedObject/fieldPath"),
            ("reason", "/reason"),
            ("reportingComponent", "/reportingComponent"),
            ("source", "/source/component"),
            ("type", "/type"),
        ]
    }
}

/// Go's `eventColumnDefinitions` (the name last, a wide column).
pub const COLUMNS: [Column; 10] = [
    string_column(
        "Last Seen",
        "The time at which the most recent occurrence of this event was recorded.",
        0,
    ),
    string_column(
        "Type",
        "Type of this event (Normal, Warning), new types could be added in the future",
        0,
    ),
    string_column(
        "Reason",
        "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
        0,
    ),
    string_column("Object", "The object that this event is about.", 0),
    string_column(
        "Subobject",
        "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: \"spec.containers{name}\" (where \"name\" refers to the name of the container that triggered the event) or if no container name is specified \"spec.containers[2]\" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.",
        1,
    ),
    string_column(
        "Source",
        "The component reporting this event. Should be a short machine understandable string.",
        1,
    ),
    string_column(
        "Message",
        "A human-readable description of the status of this operation.",
        0,
    ),
    string_column(
        "First Seen",
        "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)",
        1,
    ),
    string_column("Count", "The number of times this event has occurred.", 1),
    Column {
        priority: 1,
        ..NAME
    },
];

/// The core Events' table convertor.
pub static EVENT_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "Event",
    columns: &COLUMNS,
    print: print_event,
};

/// The events.k8s.io Events' table convertor: the same rows.
pub static EVENTS_V1_EVENT_TABLE: Printer = Printer {
    api_version: "events.k8s.io/v1",
    kind: "Event",
    columns: &COLUMNS,
    print: print_events_v1_event,
};

/// Whether the time at `pointer` of `obj` is set (Go's `IsZero` of a time it decoded:
/// absent and `null` are zero).
fn is_set(obj: &Value, pointer: &str) -> bool {
    obj.pointer(pointer).is_some_and(|t| !t.is_null())
}

/// Go's `formatEventSource`: the source's component (else the reporting controller)
/// and, when there is one, its host (else the reporting instance), comma-separated.
fn event_source(event: &Value) -> String {
    let first = |a: &str, b: &str| {
        let a = text(event, a);
        if a.is_empty() {
            text(event, b).to_owned()
        } else {
            a.to_owned()
        }
    };
    let component = first("/source/component", "/reportingComponent");
    let instance = first("/source/host", "/reportingInstance");
    if instance.is_empty() {
        component
    } else {
        format!("{component}, {instance}")
    }
}

/// Go's `printEvent` (wide) of a core Event: when it was last seen (of a series, its
/// last observation; else `lastTimestamp`, else as first seen), its type and reason, the
/// object (`kind/name`, the kind in lower case), the field path, the source, the message
/// without surrounding spaces, when it was first seen (`firstTimestamp`, else
/// `eventTime`), how many times (the series' count; else `count`, a singleton's 0 as 1),
/// and its name.
pub fn print_event(event: &Value) -> Row {
    let first_seen = if is_set(event, "/firstTimestamp") {
        since(event.pointer("/firstTimestamp"))
    } else {
        since(event.pointer("/eventTime"))
    };
    let mut last_seen = if is_set(event, "/lastTimestamp") {
        since(event.pointer("/lastTimestamp"))
    } else {
        first_seen.clone()
    };
    let count = match event.get("series").filter(|s| !s.is_null()) {
        Some(series) => {
            last_seen = since(series.get("lastObservedTime"));
            int(series, "/count")
        }
        None => match int(event, "/count") {
            0 => 1,
            count => count,
        },
    };
    let kind = to_lower(text(event, "/involvedObject/kind"));
    let object = match text(event, "/involvedObject/name") {
        "" => kind,
        name => format!("{kind}/{name}"),
    };
    Row::from(vec![
        Value::from(last_seen),
        Value::from(text(event, "/type")),
        Value::from(text(event, "/reason")),
        Value::from(object),
        Value::from(text(event, "/involvedObject/fieldPath")),
        Value::from(event_source(event)),
        Value::from(text(event, "/message").trim()),
        Value::from(first_seen),
        Value::from(count),
        Value::from(text(event, "/metadata/name")),
    ])
}

/// An events.k8s.io Event with the core Event's field names (what Go's conversion to the
/// internal Event renames), or a core Event as it is.
fn as_core_event(event: &Value) -> Cow<'_, Value> {
    let Some(fields) = event.as_object() else {
        return Cow::Borrowed(event);
    };
    let renamed: Map<String, Value> = fields
        .iter()
        .map(|(k, v)| {
            let core = RENAMES
                .iter()
                .find(|(events, _)| events == k)
                .map_or(k.as_str(), |(_, core)| core);
            (core.to_owned(), v.clone())
        })
        .collect();
    Cow::Owned(Value::Object(renamed))
}

/// [`print_event`] of an events.k8s.io Event.
pub fn print_events_v1_event(event: &Value) -> Row {
    print_event(&as_core_event(event))
}

/// The Events' REST storage over `info` (core or events.k8s.io), with the table of
/// its API.
pub fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    let table = if info.group == EVENTS_GROUP {
        &EVENTS_V1_EVENT_TABLE
    } else {
        &EVENT_TABLE
    };
    Arc::new(
        StandardStorage::new(deps.store(info, EventStrategy))
            .with_table_convertor(Arc::new(*table)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use apimachinery::apis::meta::v1::Time;
    use serde_json::json;

    /// The RFC 3339 time `days` ago.
    fn ago(days: i64) -> String {
        let now = Time::now().unix_seconds();
        Time::from_unix(now - days * 24 * 3600, 0).to_rfc3339()
    }

    /// The micro time `days` ago.
    fn micro_ago(days: i64) -> String {
        ago(days).replace('Z', ".000000Z")
    }

    /// Go's `TestPrintEvent` cases (the wide row).
    #[test]
    fn events_print_when_what_and_how_often() {
        let reference = json!({"kind": "Deployment", "name": "Deployment Name",
            "fieldPath": "spec.containers{foo}"});
        let source = json!({"component": "kubelet", "host": "Node1"});
        let base = |name: &str| {
            json!({"metadata": {"name": name}, "source": source, "involvedObject": reference,
                "reason": "Event Reason", "message": "Message Data", "type": "Warning"})
        };
        let row = |mut event: Value, extra: Value| {
            if let (Some(e), Some(x)) = (event.as_object_mut(), extra.as_object()) {
                e.extend(x.clone());
            }
            Value::from(print_event(&event).cells)
        };
        let expected = |last: &str, first: &str, count: i64, name: &str| {
            json!([
                last,
                "Warning",
                "Event Reason",
                "deployment/Deployment Name",
                "spec.containers{foo}",
                "kubelet, Node1",
                "Message Data",
                first,
                count,
                name
            ])
        };
        assert_eq!(
            row(
                base("event2"),
                json!({"firstTimestamp": ago(3), "lastTimestamp": ago(2), "count": 6})
            ),
            expected("2d", "3d", 6, "event2")
        );
        assert_eq!(
            row(
                base("event3"),
                json!({"eventTime": micro_ago(3), "lastTimestamp": ago(3), "count": 1})
            ),
            expected("3d", "3d", 1, "event3")
        );
        assert_eq!(
            row(
                base("event4"),
                json!({"eventTime": micro_ago(3), "firstTimestamp": ago(3), "count": 1})
            ),
            expected("3d", "3d", 1, "event4")
        );
        assert_eq!(
            row(
                base("event6"),
                json!({"eventTime": micro_ago(3),
                    "series": {"count": 2, "lastObservedTime": micro_ago(2)}})
            ),
            expected("2d", "3d", 2, "event6")
        );
        assert_eq!(
            row(base("event7"), json!({"eventTime": micro_ago(3)})),
            expected("3d", "3d", 1, "event7")
        );
        // No source: the reporting controller and instance; no name: the kind alone;
        // no time at all: unknown.
        let reporting = json!({"metadata": {"name": "e"}, "involvedObject": {"kind": "Node"},
            "reportingComponent": "kubelet", "reportingInstance": "test", "message": "  m \n"});
        assert_eq!(
            Value::from(print_event(&reporting).cells),
            json!([
                "<unknown>",
                "",
                "",
                "node",
                "",
                "kubelet, test",
                "m",
                "<unknown>",
                1,
                "e"
            ])
        );
    }

    /// An events.k8s.io Event prints the row of the core Event it is stored as.
    #[test]
    fn events_v1_events_print_as_core_events() {
        let core = json!({"metadata": {"name": "e"}, "involvedObject": {"kind": "Pod", "name": "p"},
            "reason": "Started", "message": "hello", "type": "Normal",
            "source": {"component": "kubelet"}, "reportingComponent": "ctl",
            "reportingInstance": "i", "firstTimestamp": ago(4), "lastTimestamp": ago(1),
            "count": 3, "eventTime": null});
        let events_v1 = json!({"metadata": {"name": "e"}, "regarding": {"kind": "Pod", "name": "p"},
            "reason": "Started", "note": "hello", "type": "Normal",
            "deprecatedSource": {"component": "kubelet"}, "reportingController": "ctl",
            "reportingInstance": "i", "deprecatedFirstTimestamp": ago(4),
            "deprecatedLastTimestamp": ago(1), "deprecatedCount": 3, "eventTime": null});
        let core_row = print_event(&core).cells;
        assert_eq!(print_events_v1_event(&events_v1).cells, core_row);
        assert_eq!(
            Value::from(core_row),
            json!([
                "24h",
                "Normal",
                "Started",
                "pod/p",
                "",
                "kubelet, i",
                "hello",
                "4d",
                3,
                "e"
            ])
        );
    }
}
