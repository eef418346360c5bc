//! Watches: the server's event stream (newline-delimited JSON, or length-prefixed
//! protobuf `WatchEvent` frames) decoded into [`WatchEvent`]s as they arrive.

use std::borrow::Cow;
use std::ops::Range;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use apimachinery::runtime::Object;
use bytes::Bytes;
use futures_core::Stream;
use hyper::body::Body;

use super::codec;
use super::{Error, Target};
use apimachinery::runtime::Scheme;
use apimachinery::schema::GroupVersionKind;

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

/// Decodes the object of one event, given the scheme, whether the stream is protobuf,
/// and the object's bytes: `Err` when the bytes do not decode (reported with the event's
/// type), `Ok(Err)` for an error reported as it is.
type ObjectDecoder<O> =
    Box<dyn Fn(&Scheme, bool, &[u8]) -> Result<Result<O, Error>, String> + Send>;

/// The decoding state of one watch response (a connection's body, or bytes recorded
/// from one), yielding objects as `O`.
struct Reader<B, O> {
    body: B,
    buf: Vec<u8>,
    start: usize,
    protobuf: bool,
    scheme: Arc<Scheme>,
    decode: ObjectDecoder<O>,
    /// A bookmark's resourceVersion, read from its object.
    resource_version: fn(&O) -> String,
    url: String,
    done: bool,
}

fn resource_version_of<T: Object + ?Sized>(obj: &T) -> String {
    obj.meta()
        .map(|m| m.resource_version().to_string())
        .unwrap_or_default()
}

/// The events of a watch response body, each object decoded as `target` says.
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
    let decode: ObjectDecoder<Box<dyn Object>> =
        Box::new(move |scheme, protobuf, bytes| target.decode(scheme, protobuf, bytes).map(Ok));
    events(
        body,
        protobuf,
        scheme,
        decode,
        |o| resource_version_of(&**o),
        url,
    )
}

/// The events of a watch response body of `T`s (kind `gvk`). Protobuf objects that name
/// `T`'s own kind, what a server sends, are read straight into a `T`: no scheme lookup,
/// no boxed object to move out of, no kind strings parsed. Anything else (JSON, another
/// kind in the envelope, bytes that do not decode) takes the scheme's way, whose errors
/// are the ones reported.
pub(crate) fn typed_stream<T, B>(
    body: B,
    protobuf: bool,
    scheme: Arc<Scheme>,
    gvk: GroupVersionKind,
    (url, host): (String, &str),
) -> WatchStream<T>
where
    T: Object + Default,
    B: Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: std::fmt::Display,
{
    let (api_version, kind) = gvk.to_api_version_and_kind();
    let own = (api_version, kind.to_owned());
    let target = Target::Typed(gvk.clone());
    let url_host = host.to_owned();
    let decode: ObjectDecoder<T> = Box::new(move |scheme, protobuf, bytes| {
        if protobuf {
            if let Some(obj) = decode_own_kind::<T>(bytes, &own, &gvk) {
                return Ok(Ok(obj));
            }
        }
        let obj = target.decode(scheme, protobuf, bytes)?;
        Ok(super::downcast(obj, &url_host))
    });
    events(
        body,
        protobuf,
        scheme,
        decode,
        resource_version_of::<T>,
        url,
    )
}

/// An enveloped protobuf object of `T`'s own kind (`own`: its apiVersion and kind as
/// the envelope writes them) read into a `T`; `None` for another kind or bytes that do
/// not decode (the scheme's way then decodes, or reports, them).
fn decode_own_kind<T: Object + Default>(
    bytes: &[u8],
    own: &(String, String),
    gvk: &GroupVersionKind,
) -> Option<T> {
    use apimachinery::proto::{MAGIC, WireDecoder, WireType, merge_message};
    let body = bytes.strip_prefix(MAGIC.as_slice())?;
    let mut d = WireDecoder::at_offset(body, MAGIC.len());
    let (mut api_version, mut kind): (&[u8], &[u8]) = (&[], &[]);
    let mut raw = None;
    while !d.is_empty() {
        match d.key().ok()? {
            (1, WireType::LengthDelimited) => {
                let mut type_meta = d.nested().ok()?;
                while !type_meta.is_empty() {
                    match type_meta.key().ok()? {
                        (1, WireType::LengthDelimited) => {
                            api_version = type_meta.length_delimited().ok()?;
                        }
                        (2, WireType::LengthDelimited) => {
                            kind = type_meta.length_delimited().ok()?;
                        }
                        (number, wire) => type_meta.skip(number, wire).ok()?,
                    }
                }
            }
            (2, WireType::LengthDelimited) => {
                let message = d.length_delimited().ok()?;
                raw = Some((message, d.offset() - message.len()));
            }
            // contentEncoding (3) must be empty: a compressed object takes the scheme's way.
            (3, WireType::LengthDelimited) => {
                if !d.length_delimited().ok()?.is_empty() {
                    return None;
                }
            }
            (number, wire) => d.skip(number, wire).ok()?,
        }
    }
    if api_version != own.0.as_bytes() || kind != own.1.as_bytes() {
        return None;
    }
    let (message, offset) = raw?;
    let mut obj = T::default();
    let fields = obj.as_proto_message_mut()?;
    merge_message(fields, &mut WireDecoder::at_offset(message, offset)).ok()?;
    fields.finish_fields();
    obj.set_group_version_kind(gvk);
    Some(obj)
}

fn events<B, O>(
    body: B,
    protobuf: bool,
    scheme: Arc<Scheme>,
    decode: ObjectDecoder<O>,
    resource_version: fn(&O) -> String,
    url: String,
) -> WatchStream<O>
where
    O: Send + 'static,
    B: Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: std::fmt::Display,
{
    Box::pin(Reader {
        body,
        buf: Vec::new(),
        start: 0,
        protobuf,
        scheme,
        decode,
        resource_version,
        url,
        done: false,
    })
}

/// The reader is the stream, polled in place. Through `stream::unfold` and an `async`
/// block per event, each event moved the reader into a new future and back out, and
/// the event itself (a ConfigMap is 430 bytes) several times more: 5% of a ConfigMap
/// event's instructions.
impl<B, O> Stream for Reader<B, O>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: std::fmt::Display,
{
    type Item = Result<WatchEvent<O>, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        let item = ready!(this.poll_event(cx));
        // After an error, or the end, the stream is over.
        if !matches!(item, Some(Ok(_))) {
            this.done = true;
        }
        Poll::Ready(item)
    }
}

impl<B, O> Reader<B, O>
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

    /// The next event: decoded from a whole frame in the buffer, or once the body has
    /// brought the rest of one; `None` at the end of the body.
    fn poll_event(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<WatchEvent<O>, Error>>> {
        loop {
            match self.take_frame() {
                Err(e) => return Poll::Ready(Some(Err(e))),
                Ok(Some(frame)) => {
                    let frame = &self.buf[frame];
                    if !self.protobuf && frame.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    return Poll::Ready(Some(self.decode_frame(frame)));
                }
                Ok(None) => {}
            }
            match ready!(Pin::new(&mut self.body).poll_frame(cx)) {
                None => {
                    let rest = &self.buf[self.start..];
                    if rest.iter().all(u8::is_ascii_whitespace) {
                        return Poll::Ready(None);
                    }
                    return Poll::Ready(Some(Err(self.decode_error(format!(
                        "the stream ended inside an event ({} bytes left)",
                        rest.len()
                    )))));
                }
                Some(Err(e)) => {
                    return Poll::Ready(Some(Err(Error::Transport(
                        crate::transport::TransportError::Http {
                            url: self.url.clone(),
                            message: format!("watch connection broken: {e}"),
                        },
                    ))));
                }
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        self.buf.extend_from_slice(&data);
                    }
                }
            }
        }
    }

    fn decode_frame(&self, frame: &[u8]) -> Result<WatchEvent<O>, Error> {
        let (event_type, object) = if self.protobuf {
            split_protobuf_event(frame).map_err(|m| self.decode_error(m))?
        } else {
            split_json_event(frame).map_err(|m| self.decode_error(m))?
        };
        if event_type == "ERROR" {
            return Err(codec::api_error_of_event(object).into());
        }
        let obj = (self.decode)(&self.scheme, self.protobuf, object)
            .map_err(|m| self.decode_error(format!("{event_type} event: {m}")))??;
        Ok(match event_type.as_ref() {
            "ADDED" => WatchEvent::Added(obj),
            "MODIFIED" => WatchEvent::Modified(obj),
            "DELETED" => WatchEvent::Deleted(obj),
            "BOOKMARK" => WatchEvent::Bookmark {
                resource_version: (self.resource_version)(&obj),
            },
            other => {
                return Err(self.decode_error(format!("unknown event type {other:?}")));
            }
        })
    }
}

/// `{"type": ..., "object": ...}` split into its type and the object's JSON.
fn split_json_event(line: &[u8]) -> Result<(Cow<'_, str>, &[u8]), String> {
    #[derive(serde::Deserialize)]
    struct Event<'a> {
        #[serde(rename = "type", borrow)]
        event_type: Cow<'a, str>,
        #[serde(borrow)]
        object: &'a serde_json::value::RawValue,
    }
    let ev: Event<'_> = serde_json::from_slice(line).map_err(|e| e.to_string())?;
    Ok((ev.event_type, ev.object.get().as_bytes()))
}

/// A protobuf `metav1.WatchEvent` (type = 1, object = 2, a `RawExtension` whose raw
/// = 1 holds the enveloped object) split into its type and the object's bytes, borrowed.
fn split_protobuf_event(frame: &[u8]) -> Result<(Cow<'_, str>, &[u8]), String> {
    use apimachinery::proto::{WireDecoder, WireType};
    let mut d = WireDecoder::new(frame);
    let mut event_type = Cow::Borrowed("");
    let mut object: &[u8] = &[];
    while !d.is_empty() {
        let (field, wire) = d.key().map_err(|e| e.to_string())?;
        match (field, wire) {
            (1, WireType::LengthDelimited) => {
                let b = d.length_delimited().map_err(|e| e.to_string())?;
                event_type = Cow::Borrowed(std::str::from_utf8(b).map_err(|e| e.to_string())?);
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

    fn scheme() -> Arc<Scheme> {
        let mut scheme = Scheme::new();
        k8s_types::register(&mut scheme).unwrap();
        Arc::new(scheme)
    }

    /// A protobuf watch body of `(type, enveloped object)` events.
    fn protobuf_body(events: &[(&str, Vec<u8>)]) -> Bytes {
        let mut body = Vec::new();
        for (event_type, object) in events {
            let mut e = apimachinery::proto::WireEncoder::new();
            e.bytes_field(1, event_type.as_bytes());
            e.message(2, |raw| raw.bytes_field(1, object));
            let frame = e.into_bytes();
            body.extend_from_slice(&u32::try_from(frame.len()).unwrap().to_be_bytes());
            body.extend_from_slice(&frame);
        }
        Bytes::from(body)
    }

    async fn collect<O>(mut stream: WatchStream<O>) -> Vec<Result<WatchEvent<O>, Error>> {
        use futures_util::StreamExt as _;
        let mut out = Vec::new();
        while let Some(item) = stream.next().await {
            out.push(item);
        }
        out
    }

    fn body_of(bytes: Bytes) -> http_body_util::Full<Bytes> {
        http_body_util::Full::new(bytes)
    }

    #[tokio::test]
    async fn typed_protobuf_events_read_as_the_schemes_way_reads_them() {
        use apimachinery::serializer::protobuf::encode_object;
        use k8s_types::core::v1::ConfigMap;
        let scheme = scheme();
        let gvk = GroupVersionKind::new("", "v1", "ConfigMap");
        let mut cm = ConfigMap::default();
        cm.metadata.name = "a".into();
        cm.metadata.resource_version = "7".into();
        cm.data.insert("k".into(), "v".into());
        cm.set_group_version_kind(&gvk);
        let own = encode_object(&cm).unwrap();
        // The same object in an envelope naming no kind: read the scheme's way, with the
        // requested kind as the default, as before.
        let mut bare = cm.clone();
        bare.type_meta = Default::default();
        let unnamed = apimachinery::proto::encode_envelope("", "", |e| {
            apimachinery::proto::Message::encode_fields(&bare, e)
        });
        let body = protobuf_body(&[
            ("ADDED", own.clone()),
            ("MODIFIED", unnamed),
            ("BOOKMARK", own.clone()),
        ]);
        let url = ("http://x/watch".to_owned(), "http://x");
        let typed = collect(typed_stream::<ConfigMap, _>(
            body_of(body.clone()),
            true,
            Arc::clone(&scheme),
            gvk.clone(),
            url.clone(),
        ))
        .await;
        let erased = collect(stream(
            body_of(body),
            true,
            Arc::clone(&scheme),
            Target::Typed(gvk.clone()),
            url.0.clone(),
        ))
        .await;
        assert_eq!(typed.len(), 3);
        assert_eq!(erased.len(), 3);
        for (t, e) in typed.iter().zip(&erased) {
            let (t, e) = (t.as_ref().unwrap(), e.as_ref().unwrap());
            let e = e.clone().map(|o| *o.downcast::<ConfigMap>().unwrap());
            assert_eq!(t, &e);
        }
        assert_eq!(typed[0].as_ref().unwrap(), &WatchEvent::Added(cm.clone()));
        assert_eq!(
            typed[2].as_ref().unwrap(),
            &WatchEvent::Bookmark {
                resource_version: "7".into()
            }
        );

        // Bytes that do not decode report the scheme's error, whichever way.
        let mut broken = own;
        broken.truncate(broken.len() - 3);
        let body = protobuf_body(&[("ADDED", broken)]);
        let typed = collect(typed_stream::<ConfigMap, _>(
            body_of(body.clone()),
            true,
            Arc::clone(&scheme),
            gvk.clone(),
            url.clone(),
        ))
        .await;
        let erased = collect(stream(
            body_of(body),
            true,
            scheme,
            Target::Typed(gvk),
            url.0,
        ))
        .await;
        let (t, e) = (
            typed[0].as_ref().unwrap_err().to_string(),
            erased[0].as_ref().unwrap_err().to_string(),
        );
        assert_eq!(t, e);
        assert!(t.contains("ADDED event"), "{t}");
    }
}
