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
pub struct LineKey {
    /// The answer's format: JSON lines or protobuf frames.
    pub media_type: MediaType,
    /// The version the object is converted to.
    pub group_version: GroupVersion,
    /// `ADDED`, `MODIFIED` or `DELETED`: a modification is an `ADDED` or a `DELETED` for
    /// a watcher whose selection the object enters or leaves.
    pub event_type: &'static str,
}

/// The lines made of one event so far: few (one per format, version and event type
/// watched), so kept in a list.
#[derive(Debug, Default)]
pub struct EventLines(Mutex<Vec<(LineKey, Bytes)>>);

impl EventLines {
    /// The line for `key`, made by `make` when no watcher has made it yet. Two watchers
    /// asking at once may both make it, and the first kept is the one every later
    /// watcher gets; an error is not kept. A poisoned lock only stops the sharing.
    pub fn get_or_make<E>(
        &self,
        key: &LineKey,
        make: impl FnOnce() -> Result<Bytes, E>,
    ) -> Result<Bytes, E> {
        if let Some(line) = self.find(key) {
            return Ok(line);
        }
        // Made outside the lock: encoding a large object must not hold up the watchers
        // of other keys.
        let line = make()?;
        if let Ok(mut lines) = self.0.lock() {
            if let Some((_, kept)) = lines.iter().find(|(k, _)| k == key) {
                return Ok(kept.clone());
            }
            lines.push((key.clone(), line.clone()));
        }
        Ok(line)
    }

    fn find(&self, key: &LineKey) -> Option<Bytes> {
        let lines = self.0.lock().ok()?;
        lines.iter().find(|(k, _)| k == key).map(|(_, l)| l.clone())
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

    #[test]
    fn a_line_is_made_once_per_key() {
        let lines = EventLines::default();
        let mut made = 0;
        let mut get = |k: &LineKey, text: &'static str| {
            lines
                .get_or_make(k, || {
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
        assert_eq!(lines.get_or_make(&k, || Err("no")), Err("no"));
        let line = lines.get_or_make(&k, || Ok::<_, &str>(Bytes::from_static(b"ok")));
        assert_eq!(line, Ok(Bytes::from_static(b"ok")));
    }
}
