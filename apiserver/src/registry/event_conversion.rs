//! `events.k8s.io` Events are core Events in storage (kube-apiserver keeps both APIs'
//! Events under `/registry/events` as core `v1` Event, through the one internal type they
//! share): the field renames between the two, as Go's `events/v1` conversion makes them.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::unstructured::object_to_unstructured;
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::{GroupVersion, GroupVersionKind};
use apimachinery::serializer::Decoder;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use serde_json::Map;

/// The group of the newer Event API.
pub const EVENTS_GROUP: &str = "events.k8s.io";

/// `events.k8s.io` field ↔ core field, where the names differ.
pub(crate) const RENAMES: &[(&str, &str)] = &[
    ("regarding", "involvedObject"),
    ("note", "message"),
    ("deprecatedSource", "source"),
    ("deprecatedFirstTimestamp", "firstTimestamp"),
    ("deprecatedLastTimestamp", "lastTimestamp"),
    ("deprecatedCount", "count"),
    ("reportingController", "reportingComponent"),
];

/// Whether converting `obj` to `target` crosses between the two Event APIs.
pub fn crosses_event_groups(obj: &dyn Object, target: &GroupVersion) -> bool {
    let gvk = obj.group_version_kind();
    gvk.kind == "Event"
        && gvk.group != target.group
        && matches!(
            (gvk.group.as_str(), target.group.as_str()),
            ("", EVENTS_GROUP) | (EVENTS_GROUP, "")
        )
}

/// Converts an Event of one API to the other's `target` version.
pub fn convert_event(
    scheme: &Scheme,
    obj: Box<dyn Object>,
    target: &GroupVersion,
) -> Result<Box<dyn Object>, StatusError> {
    let to_core = target.group.is_empty();
    let content = object_to_unstructured(&*obj)
        .map_err(|e| errors::new_internal_error(format!("reading Event: {e}")))?;
    let mut out = Map::new();
    for (k, v) in content {
        let renamed = RENAMES.iter().find_map(|(events, core)| {
            if to_core && k == *events {
                Some(*core)
            } else if !to_core && k == *core {
                Some(*events)
            } else {
                None
            }
        });
        out.insert(renamed.map(str::to_owned).unwrap_or(k), v);
    }
    let gvk = GroupVersionKind::new(target.group.as_str(), target.version.as_str(), "Event");
    let (api_version, kind) = gvk.to_api_version_and_kind();
    out.insert("apiVersion".into(), api_version.into());
    out.insert("kind".into(), kind.into());
    let bytes = serde_json::to_vec(&out)
        .map_err(|e| errors::new_internal_error(format!("writing {gvk}: {e}")))?;
    JsonSerializer::new(scheme, SerializerOptions::default())
        .decode(&bytes, Some(&gvk), None)
        .map(|(obj, _)| obj)
        .map_err(|e| errors::new_internal_error(format!("reading {gvk}: {e}")))
}
