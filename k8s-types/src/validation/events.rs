//! The events group's validation: `events.k8s.io/v1` Event, which Go validates as the
//! internal `core.Event` it shares with `v1` Event (`pkg/apis/core/validation/events.go`,
//! ported in [`validate_event_create`]), strictly, as written in `events.k8s.io/v1`.

use apimachinery::util::validation::field::ErrorList;

use super::core::event::with_generic_meta;
use super::{EventVersion, EventView, validate_event_create, validate_event_view_update};
use crate::events::v1::Event;

fn view(e: &Event) -> EventView<'_> {
    EventView {
        meta: &e.metadata,
        involved_object: &e.regarding,
        reason: &e.reason,
        message: &e.note,
        source: &e.deprecated_source,
        first_timestamp: &e.deprecated_first_timestamp,
        last_timestamp: &e.deprecated_last_timestamp,
        count: e.deprecated_count,
        r#type: &e.r#type,
        event_time: &e.event_time,
        series: e.series.as_ref().map(|s| (s.count, &s.last_observed_time)),
        action: &e.action,
        related: e.related.as_ref(),
        reporting_controller: &e.reporting_controller,
        reporting_instance: &e.reporting_instance,
    }
}

/// `events.k8s.io/v1` Event on create (Go's `ValidateEventCreate` for an
/// `events.k8s.io/v1` request).
pub fn validate_events_event(e: &Event) -> ErrorList {
    with_generic_meta(
        view(e),
        validate_event_create(view(e), EventVersion::EventsV1),
    )
}

/// `events.k8s.io/v1` Event on update (Go's `ValidateEventUpdate` for an
/// `events.k8s.io/v1` request).
pub fn validate_events_event_update(new: &Event, old: &Event) -> ErrorList {
    let errs = validate_event_view_update(view(new), view(old), EventVersion::EventsV1);
    with_generic_meta(view(new), errs)
}
