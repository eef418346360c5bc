//! Events (Go's `pkg/apis/core/validation/events.go`): `v1` Event and
//! `events.k8s.io/v1` Event are one internal kind in Go, validated by the same
//! functions, which look at the version the request was written in. An event written
//! as `v1` (and `events.k8s.io/v1beta1`) gets the legacy checks only, for old clients'
//! sake; one written as `events.k8s.io/v1` gets the strict ones too. [`EventView`] is
//! the internal event both types are seen as, with Go's internal field names in paths
//! (`involvedObject`, `message`, `source`, ...), as Go reports them.

use apimachinery::apis::meta::v1::validation::{
    FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain, validate_path_segment_name,
};
use apimachinery::apis::meta::v1::{MicroTime, ObjectMeta, Time};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::is_qualified_name;

use super::super::go_internal::{GoStruct, or_null};
use super::super::go_value::go_json;
use super::super::{invalid_each, validate_object_meta, validate_object_meta_update};
use crate::core::v1::{Event, EventSource, ObjectReference};

const REPORTING_INSTANCE_LENGTH_LIMIT: usize = 128;
const ACTION_LENGTH_LIMIT: usize = 128;
const REASON_LENGTH_LIMIT: usize = 128;
const NOTE_LENGTH_LIMIT: usize = 1024;

/// An event as Go's internal `core.Event` holds it, borrowed from either external type.
#[derive(Clone, Copy, Debug)]
pub struct EventView<'a> {
    /// The event's metadata.
    pub meta: &'a ObjectMeta,
    /// `involvedObject` (`events.k8s.io`: `regarding`).
    pub involved_object: &'a ObjectReference,
    /// `reason`.
    pub reason: &'a str,
    /// `message` (`events.k8s.io`: `note`).
    pub message: &'a str,
    /// `source` (`events.k8s.io`: `deprecatedSource`).
    pub source: &'a EventSource,
    /// `firstTimestamp` (`events.k8s.io`: `deprecatedFirstTimestamp`).
    pub first_timestamp: &'a Time,
    /// `lastTimestamp` (`events.k8s.io`: `deprecatedLastTimestamp`).
    pub last_timestamp: &'a Time,
    /// `count` (`events.k8s.io`: `deprecatedCount`).
    pub count: i32,
    /// `type`.
    pub r#type: &'a str,
    /// `eventTime`.
    pub event_time: &'a MicroTime,
    /// `series`: its count and last observed time.
    pub series: Option<(i32, &'a MicroTime)>,
    /// `action`.
    pub action: &'a str,
    /// `related`.
    pub related: Option<&'a ObjectReference>,
    /// `reportingController` (`v1`: `reportingComponent`).
    pub reporting_controller: &'a str,
    /// `reportingInstance`.
    pub reporting_instance: &'a str,
}

impl<'a> From<&'a Event> for EventView<'a> {
    fn from(e: &'a Event) -> Self {
        EventView {
            meta: &e.metadata,
            involved_object: &e.involved_object,
            reason: &e.reason,
            message: &e.message,
            source: &e.source,
            first_timestamp: &e.first_timestamp,
            last_timestamp: &e.last_timestamp,
            count: e.count,
            r#type: &e.r#type,
            event_time: &e.event_time,
            series: e.series.as_ref().map(|s| (s.count, &s.last_observed_time)),
            action: &e.action,
            related: e.related.as_ref(),
            reporting_controller: &e.reporting_component,
            reporting_instance: &e.reporting_instance,
        }
    }
}

/// The version an event was written in, which decides how strictly Go judges it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventVersion {
    /// `v1`: legacy checks only; the controller field is named `reportingComponent`.
    CoreV1,
    /// `events.k8s.io/v1beta1`: legacy checks only.
    EventsV1beta1,
    /// `events.k8s.io/v1` (and newer): legacy and strict checks.
    EventsV1,
}

/// `v1` Event on create (Go's `ValidateEventCreate` for a `v1` request).
pub fn validate_event(e: &Event) -> ErrorList {
    with_generic_meta(
        e.into(),
        validate_event_create(e.into(), EventVersion::CoreV1),
    )
}

/// `v1` Event on update (Go's `ValidateEventUpdate` for a `v1` request).
pub fn validate_event_update(new: &Event, old: &Event) -> ErrorList {
    let errs = validate_event_view_update(new.into(), old.into(), EventVersion::CoreV1);
    with_generic_meta(new.into(), errs)
}

/// kube-apiserver's checks of every object's metadata (`rest.BeforeCreate`), which find
/// something the strategy does not only for an event judged by the legacy rules alone
/// (they do not look at its metadata): run, as there, once the strategy passes.
pub(crate) fn with_generic_meta(e: EventView<'_>, errs: ErrorList) -> ErrorList {
    if !errs.is_empty() {
        return errs;
    }
    apimachinery::apis::meta::v1::validation::validate_object_meta(
        e.meta,
        true,
        validate_path_segment_name,
        &Path::new("metadata"),
    )
}

/// Go's `ValidateEventCreate`.
pub fn validate_event_create(e: EventView<'_>, version: EventVersion) -> ErrorList {
    let mut errs = legacy(e, version);
    if version != EventVersion::EventsV1 {
        return errs;
    }
    errs.extend(validate_object_meta(
        e.meta,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    ));
    errs.extend(series(e));
    if e.event_time.is_zero() {
        errs.push(Error::required(&Path::new("eventTime"), ""));
    }
    if e.r#type != "Normal" && e.r#type != "Warning" {
        errs.push(Error::invalid(
            &Path::new("type"),
            "",
            format!("has invalid value: {}", e.r#type),
        ));
    }
    let unset = [
        ("firstTimestamp", !e.first_timestamp.is_zero()),
        ("lastTimestamp", !e.last_timestamp.is_zero()),
        ("count", e.count != 0),
        (
            "source",
            !e.source.component.is_empty() || !e.source.host.is_empty(),
        ),
    ];
    for (field, set) in unset {
        if set {
            errs.push(Error::invalid(&Path::new(field), "", "needs to be unset"));
        }
    }
    errs
}

/// Go's `ValidateEventUpdate`: the legacy checks; for `events.k8s.io/v1`, the metadata's
/// identity, a changed series, and every field but the series (and `eventTime` below a
/// microsecond) kept.
pub fn validate_event_view_update(
    new: EventView<'_>,
    old: EventView<'_>,
    version: EventVersion,
) -> ErrorList {
    let mut errs = legacy(new, version);
    if version != EventVersion::EventsV1 {
        return errs;
    }
    errs.extend(validate_object_meta_update(
        new.meta,
        old.meta,
        &Path::new("metadata"),
    ));
    if new.series != old.series {
        errs.extend(series(new));
    }
    let mut immutable = |field: &str, changed: bool, value: BadValue| {
        if changed {
            errs.push(Error::invalid(
                &Path::new(field),
                value,
                FIELD_IMMUTABLE_ERROR_MSG,
            ));
        }
    };
    immutable(
        "involvedObject",
        new.involved_object != old.involved_object,
        BadValue::Json(reference(new.involved_object)),
    );
    let reason_changed = new.reason != old.reason;
    immutable("reason", reason_changed, new.reason.into());
    immutable("message", new.message != old.message, new.message.into());
    immutable(
        "source",
        new.source != old.source,
        BadValue::Json(
            GoStruct::new()
                .field("Component", new.source.component.as_str())
                .field("Host", new.source.host.as_str())
                .text(),
        ),
    );
    immutable(
        "firstTimestamp",
        new.first_timestamp != old.first_timestamp,
        go_json(new.first_timestamp),
    );
    immutable(
        "lastTimestamp",
        new.last_timestamp != old.last_timestamp,
        go_json(new.last_timestamp),
    );
    immutable("count", new.count != old.count, new.count.into());
    // Go checks the reason twice.
    immutable("reason", reason_changed, new.reason.into());
    immutable("type", new.r#type != old.r#type, new.r#type.into());
    immutable(
        "eventTime",
        new.event_time.truncate_to_micros() != old.event_time.truncate_to_micros(),
        go_json(new.event_time),
    );
    immutable("action", new.action != old.action, new.action.into());
    immutable(
        "related",
        new.related != old.related,
        BadValue::Json(or_null(new.related, reference)),
    );
    immutable(
        "reportingController",
        new.reporting_controller != old.reporting_controller,
        new.reporting_controller.into(),
    );
    immutable(
        "reportingInstance",
        new.reporting_instance != old.reporting_instance,
        new.reporting_instance.into(),
    );
    errs
}

/// An internal `ObjectReference` as Go's `json.Marshal` writes it (Go's field names).
fn reference(r: &ObjectReference) -> String {
    GoStruct::new()
        .field("Kind", r.kind.as_str())
        .field("Namespace", r.namespace.as_str())
        .field("Name", r.name.as_str())
        .field("UID", r.uid.as_str())
        .field("APIVersion", r.api_version.as_str())
        .field("ResourceVersion", r.resource_version.as_str())
        .field("FieldPath", r.field_path.as_str())
        .text()
}

/// Go's `validateV1EventSeries`.
fn series(e: EventView<'_>) -> ErrorList {
    let mut errs = ErrorList::default();
    if let Some((count, last)) = e.series {
        if count < 2 {
            errs.push(Error::invalid(
                &Path::new("series.count"),
                "",
                "should be at least 2",
            ));
        }
        if last.is_zero() {
            errs.push(Error::required(&Path::new("series.lastObservedTime"), ""));
        }
    }
    errs
}

/// Go's `legacyValidateEvent`: the namespaces of the event and its object agree; an
/// event with an `eventTime` names its controller, instance, action and reason within
/// their limits; the namespace is a DNS subdomain (until Kubernetes 1.37).
fn legacy(e: EventView<'_>, version: EventVersion) -> ErrorList {
    let mut errs = ErrorList::default();
    let controller = if version == EventVersion::CoreV1 {
        "reportingComponent"
    } else {
        "reportingController"
    };
    let ns = e.meta.namespace.as_str();
    let object_ns = e.involved_object.namespace.as_str();
    let mismatch = if e.event_time.is_zero() {
        if object_ns.is_empty() {
            !ns.is_empty() && ns != "default"
        } else {
            ns != object_ns
        }
    } else {
        object_ns.is_empty() && ns != "default" && ns != "kube-system"
    };
    if mismatch {
        errs.push(Error::invalid(
            &Path::new("involvedObject").child("namespace"),
            object_ns,
            "does not match event.namespace",
        ));
    }
    if !e.event_time.is_zero() {
        let cp = Path::new(controller);
        if e.reporting_controller.is_empty() {
            errs.push(Error::required(&cp, ""));
        }
        invalid_each(
            &mut errs,
            &cp,
            e.reporting_controller,
            is_qualified_name(e.reporting_controller),
        );
        for (field, value, limit, required) in [
            (
                "reportingInstance",
                e.reporting_instance,
                REPORTING_INSTANCE_LENGTH_LIMIT,
                true,
            ),
            ("action", e.action, ACTION_LENGTH_LIMIT, true),
            ("reason", e.reason, REASON_LENGTH_LIMIT, true),
            ("message", e.message, NOTE_LENGTH_LIMIT, false),
        ] {
            let p = Path::new(field);
            if required && value.is_empty() {
                errs.push(Error::required(&p, ""));
            }
            if value.len() > limit {
                errs.push(Error::invalid(
                    &p,
                    "",
                    format!("can have at most {limit} characters"),
                ));
            }
        }
    }
    // Kubernetes 1.37 dropped this check (the metadata's own covers the namespace).
    #[cfg(not(feature = "v1_37"))]
    invalid_each(
        &mut errs,
        &Path::new("namespace"),
        ns,
        apimachinery::util::validation::is_dns1123_subdomain(ns),
    );
    errs
}
