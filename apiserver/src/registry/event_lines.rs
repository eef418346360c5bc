//! The encoded lines of one watch event, shared by every watcher that asks for the same
//! encoding: Go's cacher wraps each event's object in a `cachingObject`, so that an event
//! is converted and serialized once per format and version however many clients watch
//! it. Without it, each change was copied, converted and encoded once per watcher: a
//! hundred times for a hundred watchers of one resource.
//!
//! The lines live as long as their event in the cache's ring of recent events, as Go's
//! serializations live as long as their event in its watch cache.

use std::sync::Mutex;

use apimachinery::schema::GroupVersion;
use bytes::Bytes;

use super::codec::MediaType;

/// What a watcher's line of an event depends on besides the event itself.
#[derive(Debug, Clone, PartialEq, Eq)]
struct LineKey {
    /// The answer's format: JSON lines or protobuf frames.
    media_type: MediaType,
    /// The version the object is converted to.
    group_version: GroupVersion,
    /// `ADDED`, `MODIFIED` or `DELETED`: a modification is an `ADDED` or a `DELETED` for
    /// a watcher whose selection the object enters or leaves.
    event_type: &'static str,
}

/// The lines made of one event so far: few (one per format, version and event type
/// watched), so kept in a list.
#[derive(Debug, Default)]
pub struct EventLines(Mutex<Vec<(LineKey, Bytes)>>);

impl LineKey {
    fn is(&self, media_type: MediaType, group_version: &GroupVersion, event_type: &str) -> bool {
        self.media_type == media_type
            && self.event_type == event_type
            && self.group_version == *group_version
    }
}

impl EventLines {
    /// The line for `key`, made by `make` when no watcher has made it yet. Two watchers
    /// asking at once may both make it, and the first kept is the one every later
    /// watcher gets; an error is not kept. A poisoned lock only stops the sharing. The
    /// key is copied only when a line is kept, not on each watcher's lookup.
    pub fn get_or_make<E>(
        &self,
        media_type: MediaType,
        group_version: &GroupVersion,
        event_type: &'static str,
        make: impl FnOnce() -> Result<Bytes, E>,
    ) -> Result<Bytes, E> {
        let find = |lines: &[(LineKey, Bytes)]| {
            lines
                .iter()
                .find(|(k, _)| k.is(media_type, group_version, event_type))
                .map(|(_, line)| line.clone())
        };
        if let Some(line) = self.0.lock().ok().and_then(|lines| find(&lines)) {
            return Ok(line);
        }
        // Made outside the lock: encoding a large object must not hold up the watchers
        // of other keys.
        let line = make()?;
        if let Ok(mut lines) = self.0.lock() {
            if let Some(kept) = find(&lines) {
                return Ok(kept);
            }
            let key = LineKey {
                media_type,
                group_version: group_version.clone(),
                event_type,
            };
            lines.push((key, line.clone()));
        }
        Ok(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(media_type: MediaType, version: &str, event_type: &'static str) -> LineKey {
        LineKey {
            media_type,
            group_version: GroupVersion::new("apps", version),
            event_type,
        }
    }

    fn get_or_make<E>(
        lines: &EventLines,
        k: &LineKey,
        make: impl FnOnce() -> Result<Bytes, E>,
    ) -> Result<Bytes, E> {
        lines.get_or_make(k.media_type, &k.group_version, k.event_type, make)
    }

    #[test]
    fn a_line_is_made_once_per_key() {
        let lines = EventLines::default();
        let mut made = 0;
        let mut get = |k: &LineKey, text: &'static str| {
            get_or_make(&lines, k, || {
                made += 1;
                Ok::<_, ()>(Bytes::from_static(text.as_bytes()))
            })
            .ok()
        };
        let json = key(MediaType::Json, "v1", "ADDED");
        assert_eq!(get(&json, "a"), Some(Bytes::from_static(b"a")));
        assert_eq!(get(&json, "b"), Some(Bytes::from_static(b"a")), "kept");
        let other_version = key(MediaType::Json, "v1beta1", "ADDED");
        assert_eq!(get(&other_version, "c"), Some(Bytes::from_static(b"c")));
        let other_type = key(MediaType::Json, "v1", "DELETED");
        assert_eq!(get(&other_type, "d"), Some(Bytes::from_static(b"d")));
        let other_media = key(MediaType::Protobuf, "v1", "ADDED");
        assert_eq!(get(&other_media, "e"), Some(Bytes::from_static(b"e")));
        assert_eq!(made, 4);
    }

    #[test]
    fn an_error_is_not_kept() {
        let lines = EventLines::default();
        let k = key(MediaType::Json, "v1", "ADDED");
        assert_eq!(get_or_make(&lines, &k, || Err("no")), Err("no"));
        let line = get_or_make(&lines, &k, || Ok::<_, &str>(Bytes::from_static(b"ok")));
        assert_eq!(line, Ok(Bytes::from_static(b"ok")));
    }
}
