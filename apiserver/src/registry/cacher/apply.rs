//! The cache's events made of the storage's: applied to its objects, which give each
//! the previous value a storage watch without them left out (Go's `watchCache`
//! `processEvent`), or standing alone for a client's own storage watch.

use std::sync::Arc;

use apimachinery::runtime::Scheme;

use super::{CacheEvent, EventType, Lazy, Window};
use crate::storage::WatchEvent;

/// Applies a storage event to the cache's objects, and makes it the cache's event: the
/// previous value the storage left out (a watch without previous values) comes from the
/// objects, and the written object is shared with them (decoded at most once, for the
/// watches and the lists that need it).
pub(super) fn apply(window: &mut Window, scheme: &Arc<Scheme>, ev: WatchEvent) -> CacheEvent {
    let Some(by_key) = window.by_key.as_mut() else {
        return lazy_event(scheme, ev);
    };
    match ev {
        WatchEvent::Put { kv, prev } => {
            let created = kv.create_revision == kv.mod_revision;
            let revision = kv.mod_revision;
            let key = kv.key.clone();
            let object = Lazy::new(Some(kv), scheme);
            let old = by_key.insert(key, object.clone());
            CacheEvent {
                event_type: if created {
                    EventType::Added
                } else {
                    EventType::Modified
                },
                revision,
                object,
                prev: match (created, prev) {
                    (true, _) => Lazy::default(),
                    (false, Some(prev)) => Lazy::new(Some(prev), scheme),
                    (false, None) => old.unwrap_or_default(),
                },
                lines: Arc::default(),
            }
        }
        WatchEvent::Delete {
            key,
            prev,
            revision,
        } => {
            // The deleted object as the cache had it: what an exact list at an earlier
            // revision shows (the event's own carries the deletion's resourceVersion).
            let old = by_key.remove(&key).unwrap_or_default();
            let stored = match prev {
                Some(prev) => Some(Arc::new((prev, scheme.clone()))),
                None => old.stored.clone(),
            };
            CacheEvent {
                event_type: EventType::Deleted,
                revision,
                object: Lazy {
                    stored,
                    deleted_at: Some(revision),
                    decoded: Arc::default(),
                },
                prev: old,
                lines: Arc::default(),
            }
        }
        progress @ WatchEvent::Progress { .. } => lazy_event(scheme, progress),
    }
}

pub(super) fn lazy_event(scheme: &Arc<Scheme>, ev: WatchEvent) -> CacheEvent {
    match ev {
        WatchEvent::Put { kv, prev } => CacheEvent {
            event_type: if kv.create_revision == kv.mod_revision {
                EventType::Added
            } else {
                EventType::Modified
            },
            revision: kv.mod_revision,
            object: Lazy::new(Some(kv), scheme),
            prev: Lazy::new(prev, scheme),
            lines: Arc::default(),
        },
        // Without its previous value (never the case for a cache whose objects are
        // exact), a deletion has no object and is not delivered.
        WatchEvent::Delete { prev, revision, .. } => CacheEvent {
            event_type: EventType::Deleted,
            revision,
            object: Lazy {
                deleted_at: Some(revision),
                ..Lazy::new(prev, scheme)
            },
            prev: Lazy::default(),
            lines: Arc::default(),
        },
        WatchEvent::Progress { revision } => CacheEvent {
            event_type: EventType::Progress,
            revision,
            object: Lazy::default(),
            prev: Lazy::default(),
            lines: Arc::default(),
        },
    }
}
