//! Watches: the server's event stream (newline-delimited JSON, or length-prefixed
//! protobuf `WatchEvent` frames) decoded into [`WatchEvent`]s as they arrive.

use std::ops::Range;
use std::pin::Pin;
use std::sync::Arc;

use apimachinery::runtime::Object;
use bytes::Bytes;
use futures_core::Stream;
use http_body_util::BodyExt as _;
use hyper::body::Body;

use super::codec;
use super::{Error, Target};
use apimachinery::runtime::Scheme;

/// One change to a watched collection (Go's `watch.Event`). An `ERROR` event arrives as
/// an `Err(Error::Api(..))` item: a 410 from a resourceVersion the server no longer has
/// answers [`Error::is_gone_or_expired`], on which a reflector relists.
#[derive(Clone, Debug, PartialEq)]
pub enum WatchEvent<T> {
    /// An object was created (or, for the initial events, exists).
    Added(T),
    /// An object was changed.
    Modified(T),
    /// An object was deleted; its last state.
    Deleted(T),
    /// Nothing changed up to `resource_version`: watch again from there after a
    /// disconnect.
    Bookmark {
        /// The collection's resourceVersion.
        resource_version: String,
    },
}

impl<T> WatchEvent<T> {
    /// The event with its object mapped by `f`.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> WatchEvent<U> {
        match self {
            WatchEvent::Added(o) => WatchEvent::Added(f(o)),
            WatchEvent::Modified(o) => WatchEvent::Modified(f(o)),
            WatchEvent::Deleted(o) => WatchEvent::Deleted(f(o)),
            WatchEvent::Bookmark { resource_version } => WatchEvent::Bookmark { resource_version },
        }
    }

    /// The event's object, unless it is a bookmark.
    pub fn object(&self) -> Option<&T> {
        match self {
            WatchEvent::Added(o) | WatchEvent::Modified(o) | WatchEvent::Deleted(o) => Some(o),
            WatchEvent::Bookmark { .. } => None,
        }
    }
}

/// The stream of a watch: events until the server ends the watch (its timeout, a
/// shutdown) or the connection drops (an `Err` item, then the end).
pub type WatchStream<T> = Pin<Box<dyn Stream<Item = Result<WatchEvent<T>, Error>> + Send>>;

/// The decoding state of one watch response (a connection's body, or bytes recorded
/// from one).
struct Reader<B> {
    body: B,
    buf: Vec<u8>,
    start: usize,
    protobuf: bool,
    scheme: Arc<Scheme>,
    target: Target,
    url: String,
    done: bool,
}

/// The events of a watch response body.
pub(crate) fn stream<B>(
    body: B,
    protobuf: bool,
    scheme: Arc<Scheme>,
    target: Target,
    url: String,
) -> WatchStream<Box<dyn Object>>
where
    B: Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: std::fmt::Display,
{
    let reader = Reader {
        body,
        buf: Vec::new(),
        start: 0,
        protobuf,
        scheme,
        target,
        url,
        done: false,
    };
    Box::pin(futures_util::stream::unfold(reader, |mut r| async move {
        if r.done {
            return None;
        }
        let item = r.next_event().await;
        match item {
            None => None,
            Some(Err(e)) => {
                r.done = true;
                Some((Err(e), r))
            }
            Some(Ok(ev)) => Some((Ok(ev), r)),
        }
    }))
}

impl<B> Reader<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: std::fmt::Display,
{
    fn decode_error(&self, message: String) -> Error {
        Error::Decode {
            what: "watch event".into(),
            url: self.url.clone(),
            message,
        }
    }

    /// Where the next whole frame lies in the buffer, if one is there. The frame is
    /// decoded where it lies (no copy per event); the bytes before it are dropped on the
    /// next call, once the frame has been decoded.
    fn take_frame(&mut self) -> Result<Option<Range<usize>>, Error> {
        if self.start > 0 && self.start == self.buf.len() {
            self.buf.clear();
            self.start = 0;
        } else if self.start > 64 * 1024 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        let pending = &self.buf[self.start..];
        let frame = if self.protobuf {
            let Some(len) = pending.get(..4) else {
                return Ok(None);
            };
            let len = u32::from_be_bytes([len[0], len[1], len[2], len[3]]) as usize;
            if len > apimachinery::proto::MAX_FRAME_LEN {
                return Err(self.decode_error(format!(
                    "frame of {len} bytes exceeds the limit of {} bytes",
                    apimachinery::proto::MAX_FRAME_LEN
                )));
            }
            if pending.len() < 4 + len {
                return Ok(None);
            }
            let at = self.start + 4;
            self.start = at + len;
            at..at + len
        } else {
            let Some(end) = pending.iter().position(|&b| b == b'\n') else {
                if pending.len() > apimachinery::proto::MAX_FRAME_LEN {
                    return Err(self.decode_error(format!(
                        "an event of over {} bytes without a line end",
                        apimachinery::proto::MAX_FRAME_LEN
                    )));
                }
                return Ok(None);
            };
            let at = self.start;
            self.start = at + end + 1;
            at..at + end
        };
        Ok(Some(frame))
    }

    async fn next_event(&mut self) -> Option<Result<WatchEvent<Box<dyn Object>>, Error>> {
        loop {
            match self.take_frame() {
                Err(e) => return Some(Err(e)),
                Ok(Some(frame)) => {
                    let frame = &self.buf[frame];
                    if !self.protobuf && frame.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    return Some(self.decode_frame(frame));
                }
                Ok(None) => {}
            }
            match self.body.frame().await {
                None => {
                    let rest = &self.buf[self.start..];
                    if rest.iter().all(u8::is_ascii_whitespace) {
                        return None;
                    }
                    return Some(Err(self.decode_error(format!(
                        "the stream ended inside an event ({} bytes left)",
                        rest.len()
                    ))));
                }
                Some(Err(e)) => {
                    return Some(Err(Error::Transport(
                        crate::transport::TransportError::Http {
                            url: self.url.clone(),
                            message: format!("watch connection broken: {e}"),
                        },
                    )));
                }
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        self.buf.extend_from_slice(&data);
                    }
                }
            }
        }
    }

    fn decode_frame(&self, frame: &[u8]) -> Result<WatchEvent<Box<dyn Object>>, Error> {
        let (event_type, object) = if self.protobuf {
            split_protobuf_event(frame).map_err(|m| self.decode_error(m))?
        } else {
            split_json_event(frame).map_err(|m| self.decode_error(m))?
        };
        if event_type == "ERROR" {
            return Err(codec::api_error_of_event(object).into());
        }
        let obj = self
            .target
            .decode(&self.scheme, self.protobuf, object)
            .map_err(|m| self.decode_error(format!("{event_type} event: {m}")))?;
        Ok(match event_type.as_str() {
            "ADDED" => WatchEvent::Added(obj),
            "MODIFIED" => WatchEvent::Modified(obj),
            "DELETED" => WatchEvent::Deleted(obj),
            "BOOKMARK" => WatchEvent::Bookmark {
                resource_version: obj
                    .meta()
                    .map(|m| m.resource_version().to_string())
                    .unwrap_or_default(),
            },
            other => {
                return Err(self.decode_error(format!("unknown event type {other:?}")));
            }
        })
    }
}

/// `{"type": ..., "object": ...}` split into its type and the object's JSON.
fn split_json_event(line: &[u8]) -> Result<(String, &[u8]), String> {
    #[derive(serde::Deserialize)]
    struct Event<'a> {
        #[serde(rename = "type")]
        event_type: String,
        #[serde(borrow)]
        object: &'a serde_json::value::RawValue,
    }
    let ev: Event<'_> = serde_json::from_slice(line).map_err(|e| e.to_string())?;
    Ok((ev.event_type, ev.object.get().as_bytes()))
}

/// A protobuf `metav1.WatchEvent` (type = 1, object = 2, a `RawExtension` whose raw
/// = 1 holds the enveloped object) split into its type and the object's bytes, borrowed.
fn split_protobuf_event(frame: &[u8]) -> Result<(String, &[u8]), String> {
    use apimachinery::proto::{WireDecoder, WireType};
    let mut d = WireDecoder::new(frame);
    let mut event_type = String::new();
    let mut object: &[u8] = &[];
    while !d.is_empty() {
        let (field, wire) = d.key().map_err(|e| e.to_string())?;
        match (field, wire) {
            (1, WireType::LengthDelimited) => {
                let b = d.length_delimited().map_err(|e| e.to_string())?;
                event_type = String::from_utf8(b.to_vec()).map_err(|e| e.to_string())?;
            }
            (2, WireType::LengthDelimited) => {
                let mut raw = d.nested().map_err(|e| e.to_string())?;
                while !raw.is_empty() {
                    let (f, w) = raw.key().map_err(|e| e.to_string())?;
                    if (f, w) == (1, WireType::LengthDelimited) {
                        object = raw.length_delimited().map_err(|e| e.to_string())?;
                    } else {
                        raw.skip(f, w).map_err(|e| e.to_string())?;
                    }
                }
            }
            (f, w) => d.skip(f, w).map_err(|e| e.to_string())?,
        }
    }
    Ok((event_type, object))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn json_events_split() {
        let (t, o) =
            split_json_event(br#"{"type":"ADDED","object":{"kind":"X","a":[1]}}"#).unwrap();
        assert_eq!(t, "ADDED");
        assert_eq!(o, br#"{"kind":"X","a":[1]}"#);
        assert!(split_json_event(b"{nope").is_err());
    }

    #[test]
    fn protobuf_events_split() {
        let mut e = apimachinery::proto::WireEncoder::new();
        e.bytes_field(1, b"MODIFIED");
        e.message(2, |raw| raw.bytes_field(1, b"k8s\0abc"));
        let frame = e.into_bytes();
        let (t, o) = split_protobuf_event(&frame).unwrap();
        assert_eq!(t, "MODIFIED");
        assert_eq!(o, b"k8s\0abc");
        assert!(split_protobuf_event(&[0x0a, 0x10, 1]).is_err());
    }
}
