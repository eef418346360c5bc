//! The cache's objects as they were at a revision of its window (Go's snapshots of
//! `ListFromCacheSnapshot`, `store_btree.go`), for an exact list or the next page of a
//! list at that revision. Go keeps a copy-on-write snapshot of its store after every
//! event; here the current objects and the ring of events after the revision make it
//! when a list asks: each key written since then has its value from before its first
//! later write, every other key its current one. The watch path keeps nothing more for
//! it than the previous value its events already carry.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{CacheEvent, CachedObject, EventType, Lazy};

/// The objects under `prefix` from `start` (inclusive) as of a revision, in key order,
/// from `current` (the objects as of the ring's last event) and `later` (the ring's
/// events after that revision, oldest first: every one since). `None` when one of them
/// does not tell what it replaced (a deletion the cache did not see the object of): the
/// caller reads the storage.
pub(super) fn at<'a>(
    current: &'a BTreeMap<String, Lazy>,
    later: impl Iterator<Item = &'a Arc<CacheEvent>>,
    prefix: &str,
    start: &str,
) -> Option<Vec<CachedObject>> {
    let from = if start < prefix { prefix } else { start };
    let in_range = |key: &str| key.starts_with(prefix) && key >= from;
    // Each key written after the revision: its value then (`None`: it did not exist).
    let mut then: BTreeMap<&str, Option<Lazy>> = BTreeMap::new();
    for event in later {
        if event.event_type == EventType::Progress {
            continue;
        }
        let (key, before) = before(event)?;
        if in_range(key) {
            then.entry(key).or_insert(before);
        }
    }
    let mut out = Vec::new();
    let mut rewritten = then.into_iter().peekable();
    let now = current
        .range::<str, _>((std::ops::Bound::Included(from), std::ops::Bound::Unbounded))
        .take_while(|(key, _)| key.starts_with(prefix));
    for (key, lazy) in now {
        while let Some((_, before)) = rewritten.next_if(|(k, _)| *k < key.as_str()) {
            out.extend(before.map(CachedObject));
        }
        match rewritten.next_if(|(k, _)| *k == key.as_str()) {
            Some((_, before)) => out.extend(before.map(CachedObject)),
            None => out.push(CachedObject(lazy.clone())),
        }
    }
    out.extend(rewritten.filter_map(|(_, before)| before.map(CachedObject)));
    Some(out)
}

/// The key an event wrote and its value before the event (`None`: it did not exist);
/// `None` when the event does not tell (a progress event writes nothing).
fn before(event: &CacheEvent) -> Option<(&str, Option<Lazy>)> {
    match event.event_type {
        EventType::Progress => None,
        EventType::Added => Some((event.object.stored()?.key.as_str(), None)),
        EventType::Modified => {
            let key = event.object.stored()?.key.as_str();
            event.prev.stored()?;
            Some((key, Some(event.prev.clone())))
        }
        EventType::Deleted => {
            // The deleted object as the cache had it (decoded once for every list), or
            // as the storage sent it, without the deletion's resourceVersion.
            let stored = event.object.stored.as_ref()?;
            let before = if event.prev.stored().is_some() {
                event.prev.clone()
            } else {
                Lazy {
                    stored: Some(stored.clone()),
                    ..Lazy::default()
                }
            };
            Some((stored.0.key.as_str(), Some(before)))
        }
    }
}
