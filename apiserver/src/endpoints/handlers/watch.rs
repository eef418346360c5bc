//! The watch handler (Go's `endpoints/handlers/watch.go` over the cacher): a stream of
//! newline-delimited `{"type": ..., "object": ...}` events in the request's version,
//! filtered by namespace and selectors, with initial events, bookmarks and a timeout.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Wake, Waker};
use std::time::Duration;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::Object;
use apimachinery::schema::GroupVersionKind;
use bytes::Bytes;
use futures_util::stream::{self, BoxStream};
use futures_util::task::AtomicWaker;
use futures_util::{Stream, StreamExt};
use tokio::sync::watch as signal;

use super::Handler;
use crate::endpoints::negotiation::{Conversion, MediaType};
use crate::endpoints::responsewriters::status_json;
use crate::endpoints::transform::transform;
use crate::registry::{
    CacheEvent, CacheWatch, Cacher, EventType, ListParams, Selection, Store, convert, encode,
};

/// The annotation of the bookmark that ends the initial events of a
/// `sendInitialEvents=true` watch.
pub const INITIAL_EVENTS_END_ANNOTATION: &str = "k8s.io/initial-events-end";

/// A watch without `timeoutSeconds` lasts this long (Go's default minimum request
/// timeout); clients re-watch after it.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(1800);
/// How often a watch with `allowWatchBookmarks` gets a bookmark (Go's cacher sends them
/// periodically too, whether or not events flow).
const BOOKMARK_INTERVAL: Duration = Duration::from_secs(10);

/// The body stream of a watch answer.
pub type WatchBody = BoxStream<'static, Result<Bytes, std::io::Error>>;

struct WatchState {
    handler_scheme: Arc<apimachinery::runtime::Scheme>,
    info: crate::registry::ResourceInfo,
    namespace: Option<String>,
    selection: Selection,
    request_gv: apimachinery::schema::GroupVersion,
    request_gvk: GroupVersionKind,
    bookmarks: bool,
    last_sent: i64,
    /// JSON lines, or protobuf frames.
    output: MediaType,
    /// What each event's object is converted to (`as=PartialObjectMetadata`).
    conversion: Option<Conversion>,
    /// The resource's store, whose strategy decorates objects as they are read (a
    /// custom resource's are defaulted).
    store: Arc<Store>,
}

impl WatchState {
    fn selected(&self, obj: &dyn Object) -> bool {
        let in_namespace = match &self.namespace {
            Some(ns) => obj.meta().is_some_and(|m| m.namespace() == ns),
            None => true,
        };
        in_namespace
            && self
                .selection
                .matches(&self.info, self.store.strategy().selectable_fields(), obj)
    }

    fn line(&self, event_type: &str, obj: &dyn Object) -> Result<Bytes, StatusError> {
        let mut obj = obj.deep_copy_object();
        self.store.strategy().decorate(&mut *obj);
        let converted = convert(&self.handler_scheme, obj, &self.request_gv)?;
        self.event(event_type, &*converted)
    }

    /// The line of a cache event, made once for every watcher of the same format and
    /// version (Go's `cachingObject`). A watch converting objects (`as=...`) makes its own:
    /// few ask for that.
    fn shared_line(
        &self,
        event: &CacheEvent,
        event_type: &'static str,
        obj: &dyn Object,
    ) -> Result<Bytes, StatusError> {
        if self.conversion.is_some() {
            return self.line(event_type, obj);
        }
        event
            .lines()
            .get_or_make(self.output, &self.request_gv, event_type, || {
                self.line(event_type, obj)
            })
    }

    /// One event in the stream's format.
    fn event(&self, event_type: &str, obj: &dyn Object) -> Result<Bytes, StatusError> {
        let converted;
        let obj = match self.conversion {
            // An object that cannot be converted as asked (a watch asking for
            // PartialObjectMetadataList) is sent as it is, as Go's watch encoder does.
            Some(conversion) => match transform(&self.handler_scheme, obj, conversion) {
                Ok(c) => {
                    converted = c;
                    &*converted
                }
                Err(_) => obj,
            },
            None => obj,
        };
        let encoded = encode(&self.handler_scheme, self.output, obj)?;
        Ok(match self.output {
            MediaType::Protobuf => protobuf_frame(event_type, &encoded),
            _ => frame(event_type, &encoded),
        })
    }

    fn bookmark(&mut self, revision: i64, initial_end: bool) -> Result<Bytes, StatusError> {
        let mut obj: Box<dyn Object> = if self.handler_scheme.recognizes(&self.request_gvk) {
            self.handler_scheme
                .new_object(&self.request_gvk)
                .map_err(|e| errors::new_internal_error(e.to_string()))?
        } else {
            // A custom resource's bookmark: an object with only its kind and metadata.
            Box::new(apimachinery::runtime::Unstructured::new(
                serde_json::Map::from_iter([("metadata".to_owned(), serde_json::json!({}))]),
            ))
        };
        obj.set_group_version_kind(&self.request_gvk);
        if let Some(meta) = obj.meta_mut() {
            meta.set_resource_version(&revision.to_string());
            if initial_end {
                let mut a = BTreeMap::new();
                a.insert(INITIAL_EVENTS_END_ANNOTATION.to_owned(), "true".to_owned());
                meta.set_annotations(a);
            }
        }
        self.last_sent = self.last_sent.max(revision);
        self.event("BOOKMARK", &*obj)
    }

    /// The line one cache event makes for this client, if any: a modification that
    /// moves an object into or out of the selection is an ADDED or DELETED, as in Go.
    fn line_of(&mut self, event: &CacheEvent) -> Result<Option<Bytes>, StatusError> {
        let line = match (event.event_type, event.object()) {
            (EventType::Progress, _) => {
                return if self.bookmarks && event.revision > self.last_sent {
                    self.bookmark(event.revision, false).map(Some)
                } else {
                    Ok(None)
                };
            }
            (_, None) => return Ok(None),
            (kind, Some(obj)) => {
                let now = self.selected(&**obj);
                let before = event.prev().is_some_and(|p| self.selected(&**p));
                let event_type = match kind {
                    EventType::Added if now => Some("ADDED"),
                    EventType::Modified if now && before => Some("MODIFIED"),
                    EventType::Modified if now => Some("ADDED"),
                    EventType::Modified if before => Some("DELETED"),
                    EventType::Deleted if before => Some("DELETED"),
                    _ => None,
                };
                match event_type {
                    Some(t) => Some(self.shared_line(event, t, &**obj)?),
                    None => None,
                }
            }
        };
        self.last_sent = self.last_sent.max(event.revision);
        Ok(line)
    }
}

/// The live part of a watch's body: the cache's events as this client's lines, a
/// bookmark every [`BOOKMARK_INTERVAL`] to clients that take them, and the end at the
/// deadline, at the server's shutdown or after an error (sent as an ERROR event).
///
/// A stream of its own rather than a `select!` per event: each event then costs no
/// new timers, no lock and no allocation beyond its line (a fan-out to many watchers
/// pays this per watcher per event).
struct LiveEvents {
    events: CacheWatch,
    /// Ready when the stream must end: the deadline passed or the server shuts down.
    stop: Pin<Box<dyn Future<Output = ()> + Send>>,
    /// Wakes the stream's task for `stop`, `ticker` and `pending_bookmark`, which are
    /// polled with `timers_waker` and only after it woke.
    timers: Arc<TimersWoken>,
    timers_waker: Waker,
    /// Only for clients that take bookmarks.
    ticker: Option<tokio::time::Interval>,
    /// The cache's revision being read for a bookmark the ticker asked for.
    pending_bookmark: Option<Pin<Box<dyn Future<Output = i64> + Send>>>,
    state: WatchState,
    cacher: Arc<Cacher>,
    done: bool,
    /// The last poll returned an event's line and hyper asked again at once: an event
    /// waiting now means a backlog (a replay from the cache's ring, or a client slower
    /// than the writes), whose lines then go out gathered into one frame.
    backlog: bool,
    /// How the stream ends after the gathered lines: with an error (its ERROR event) or
    /// with the end of the cache's events.
    ending: Option<Option<StatusError>>,
}

/// A backlog's lines are gathered into frames of about this many bytes (a TLS record
/// carries 16 KiB).
const GATHER_BYTES: usize = 64 * 1024;

/// The waker of a watch's stop future and bookmark ticker: it wakes the watch's task and
/// notes that it did, so that the stream polls them only then. A fan-out polls every
/// watcher's stream each time an event arrives, and polling the stop future (a timer
/// and the shutdown signal in a `select!`) each time it runs out of events was about a
/// twentieth of a delivery's instructions.
#[derive(Debug)]
struct TimersWoken {
    woken: AtomicBool,
    task: AtomicWaker,
}

impl Wake for TimersWoken {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::Release);
        self.task.wake();
    }
}

impl LiveEvents {
    /// `first` and the lines of the events waiting after it, as one frame: a backlog
    /// sent one line per frame cost, per event, a chunk of hyper's, a TLS record or a
    /// system call's share, and the client's decoding of the chunk. Only what is
    /// waiting: a line is never held back for the next one. An error or the end met
    /// here is kept for the next poll.
    fn gather(&mut self, first: Bytes, cx: &mut Context<'_>) -> Bytes {
        let mut gathered: Option<Vec<u8>> = None;
        while gathered.as_ref().map_or(first.len(), Vec::len) < GATHER_BYTES {
            let line = match self.events.poll_next_unpin(cx) {
                Poll::Ready(Some(Ok(event))) => match self.state.line_of(&event) {
                    Ok(Some(line)) => line,
                    Ok(None) => continue,
                    Err(e) => {
                        self.ending = Some(Some(e));
                        break;
                    }
                },
                Poll::Ready(Some(Err(e))) => {
                    self.ending = Some(Some(e));
                    break;
                }
                Poll::Ready(None) => {
                    self.ending = Some(None);
                    break;
                }
                Poll::Pending => {
                    self.backlog = false;
                    break;
                }
            };
            gathered
                .get_or_insert_with(|| {
                    // Grown as lines come: two lines waiting must not hold a whole
                    // frame's bytes while hyper queues them.
                    let mut frame = Vec::with_capacity(2 * (first.len() + line.len()));
                    frame.extend_from_slice(&first);
                    frame
                })
                .extend_from_slice(&line);
        }
        gathered.map_or(first, Bytes::from)
    }

    /// The ERROR event that ends the stream.
    fn fail(&mut self, err: &StatusError) -> Poll<Option<Result<Bytes, std::io::Error>>> {
        self.done = true;
        Poll::Ready(Some(Ok(error_line(
            err,
            self.state.output,
            &self.state.handler_scheme,
        ))))
    }
}

impl Stream for LiveEvents {
    type Item = Result<Bytes, std::io::Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        match this.ending.take() {
            Some(Some(e)) => return this.fail(&e),
            Some(None) => {
                this.done = true;
                return Poll::Ready(None);
            }
            None => {}
        }
        loop {
            match this.events.poll_next_unpin(cx) {
                Poll::Ready(None) => {
                    this.done = true;
                    return Poll::Ready(None);
                }
                Poll::Ready(Some(Err(e))) => return this.fail(&e),
                Poll::Ready(Some(Ok(event))) => match this.state.line_of(&event) {
                    // One event at a time (a live fan-out) goes out as it comes, with no
                    // further poll of the cache's channel; a second one waiting at the
                    // next poll starts gathering.
                    Ok(Some(line)) if this.backlog => {
                        let frame = this.gather(line, cx);
                        return Poll::Ready(Some(Ok(frame)));
                    }
                    Ok(Some(line)) => {
                        this.backlog = true;
                        return Poll::Ready(Some(Ok(line)));
                    }
                    Ok(None) => {}
                    Err(e) => return this.fail(&e),
                },
                Poll::Pending => {
                    this.backlog = false;
                    break;
                }
            }
        }
        // The timers are checked only when no event is waiting, and only once their
        // waker woke: registered first, so that a wake after the check polls again.
        this.timers.task.register(cx.waker());
        if !this.timers.woken.swap(false, Ordering::AcqRel) {
            return Poll::Pending;
        }
        let waker = this.timers_waker.clone();
        let mut timers = Context::from_waker(&waker);
        if this.stop.as_mut().poll(&mut timers).is_ready() {
            this.done = true;
            return Poll::Ready(None);
        }
        loop {
            if let Some(revision) = this.pending_bookmark.as_mut() {
                let Poll::Ready(revision) = revision.as_mut().poll(&mut timers) else {
                    return Poll::Pending;
                };
                this.pending_bookmark = None;
                // The ticker's next tick is armed when it is next polled: poll it then
                // without waiting for a wake.
                this.timers.woken.store(true, Ordering::Release);
                let revision = revision.max(this.state.last_sent);
                return match this.state.bookmark(revision, false) {
                    Ok(line) => Poll::Ready(Some(Ok(line))),
                    Err(e) => this.fail(&e),
                };
            }
            match this.ticker.as_mut().map(|t| t.poll_tick(&mut timers)) {
                Some(Poll::Ready(_)) => {
                    let cacher = this.cacher.clone();
                    this.pending_bookmark =
                        Some(Box::pin(async move { cacher.last_revision().await }));
                }
                _ => return Poll::Pending,
            }
        }
    }
}

fn frame(event_type: &str, object_json: &[u8]) -> Bytes {
    let object = object_json.strip_suffix(b"\n").unwrap_or(object_json);
    let mut line = Vec::with_capacity(object.len() + 32);
    line.extend_from_slice(b"{\"type\":\"");
    line.extend_from_slice(event_type.as_bytes());
    line.extend_from_slice(b"\",\"object\":");
    line.extend_from_slice(object);
    line.extend_from_slice(b"}\n");
    Bytes::from(line)
}

/// A protobuf watch frame (Go's protobuf stream serializer): a four-byte big-endian
/// length, then a bare `metav1.WatchEvent` message whose `object` holds the object in its
/// `k8s\0` envelope.
fn protobuf_frame(event_type: &str, enveloped: &[u8]) -> Bytes {
    let mut event = apimachinery::proto::WireEncoder::new();
    event.bytes_field(1, event_type.as_bytes());
    event.message(2, |raw| raw.bytes_field(1, enveloped));
    let event = event.into_bytes();
    let mut out = Vec::with_capacity(event.len() + 4);
    // A frame over 4 GiB cannot be written; watch events are far below Go's 3 MiB limit.
    let len = u32::try_from(event.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(&event);
    Bytes::from(out)
}

fn error_line(
    err: &StatusError,
    output: MediaType,
    scheme: &apimachinery::runtime::Scheme,
) -> Bytes {
    match output {
        MediaType::Protobuf => match encode(scheme, output, &*err.status) {
            Ok(bytes) => protobuf_frame("ERROR", &bytes),
            Err(_) => frame("ERROR", &status_json(&err.status)),
        },
        _ => frame("ERROR", &status_json(&err.status)),
    }
}

/// Starts a watch: checks the parameters, subscribes to the cache and returns the body
/// stream, which ends at the timeout, when the server shuts down, or on an error (sent as
/// an ERROR event first).
pub async fn watch(
    h: &Handler<'_>,
    shutdown: signal::Receiver<bool>,
) -> Result<(WatchBody, &'static str), StatusError> {
    let options = h.list_options(true)?;
    let mut selection = h.selection()?;
    if !h.info.name.is_empty() {
        // `/watch/namespaces/ns/pods/name` watches one object: a field selector, if
        // any, must select exactly that name (Go's `listOpts`).
        if selection.fields.is_empty() {
            selection.fields =
                apimachinery::fields::Selector::parse(&format!("metadata.name={}", h.info.name))
                    .map_err(|e| errors::new_bad_request(e.to_string()))?;
        } else if selection.fields.requires_exact_match("metadata.name") != Some(&h.info.name) {
            return Err(errors::new_bad_request(
                "fieldSelector metadata.name doesn't match requested name",
            ));
        }
    }
    // No timeout, or 0, is the server's (Go: the minimum request timeout, randomized);
    // a negative one has passed already.
    let timeout = match options.timeout_seconds {
        None | Some(0) => DEFAULT_TIMEOUT,
        Some(n) => Duration::from_secs(n.max(0).unsigned_abs()),
    };
    let bookmarks = options.allow_watch_bookmarks;
    // Watches stream JSON or protobuf; YAML has no stream form (Go answers JSON then).
    let output = match h.output {
        MediaType::Protobuf => MediaType::Protobuf,
        _ => MediaType::Json,
    };
    let revision = options.resource_version;
    // Initial events: with sendInitialEvents, which Go's defaults set for a watch from
    // no resourceVersion (or "0") that does not say.
    let initial = options.send_initial_events == Some(true);
    if !initial && revision > 0 {
        // A revision the store has not reached: Go's 504 "Too large resource version".
        h.store.ensure_reached(revision).await?;
    }
    // A watch-list from no resourceVersion is a consistent read (Go's cacher with
    // ConsistentListFromCache): its initial events, and the bookmark that ends them, are
    // at the storage's current revision, which other resources' writes (and other
    // servers' on the same etcd) move too; the cache's events up to it are in the list.
    // From "0" or a resourceVersion not older than which, whatever the cache has.
    let start = match (initial, options.consistent) {
        (true, true) => h.store.current_revision().await?,
        (true, false) => 0,
        (false, _) => revision,
    };
    let cacher = h.store.cacher().clone();
    let (from, events) = cacher.watch(start).await?;
    let mut state = WatchState {
        handler_scheme: h.scheme.clone(),
        info: h.store.info().clone(),
        namespace: h.info.namespace.clone(),
        selection: selection.clone(),
        request_gv: apimachinery::schema::GroupVersion::new(
            h.info.api_group.as_str(),
            h.info.api_version.as_str(),
        ),
        request_gvk: h.store.info().gvk(&h.info.api_version),
        bookmarks,
        last_sent: from,
        output,
        conversion: h.conversion,
        store: h.store.clone(),
    };
    let mut first: Vec<Bytes> = Vec::new();
    if initial {
        let page = h
            .store
            .list(
                h.info.namespace.as_deref(),
                &ListParams {
                    selection,
                    revision: from,
                    ..ListParams::default()
                },
            )
            .await?;
        for obj in page.items {
            first.push(state.line("ADDED", &*obj)?);
        }
        // The bookmark that ends them goes to clients that take bookmarks (Go's
        // cacher).
        if bookmarks {
            first.push(state.bookmark(from, true)?);
        }
    }
    // The stream ends at the deadline or when the server shuts down (a `false` sent on
    // the signal is no shutdown).
    let mut shutdown = shutdown;
    let deadline = tokio::time::Instant::now() + timeout;
    let stop = Box::pin(async move {
        let shut_down = async move {
            while shutdown.changed().await.is_ok() {
                if *shutdown.borrow() {
                    return;
                }
            }
        };
        tokio::select! {
            biased;
            () = tokio::time::sleep_until(deadline) => {}
            () = shut_down => {}
        }
    });
    let ticker = bookmarks.then(|| {
        let mut ticker = tokio::time::interval_at(
            tokio::time::Instant::now() + BOOKMARK_INTERVAL,
            BOOKMARK_INTERVAL,
        );
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticker
    });
    // Woken at first, so that the first poll arms the timers.
    let timers = Arc::new(TimersWoken {
        woken: AtomicBool::new(true),
        task: AtomicWaker::new(),
    });
    let live = LiveEvents {
        events,
        stop,
        timers_waker: Waker::from(timers.clone()),
        timers,
        ticker,
        pending_bookmark: None,
        state,
        cacher,
        done: false,
        backlog: false,
        ending: None,
    };
    let content_type = match output {
        MediaType::Protobuf => "application/vnd.kubernetes.protobuf;stream=watch",
        _ => "application/json",
    };
    Ok((
        stream::iter(first.into_iter().map(Ok)).chain(live).boxed(),
        content_type,
    ))
}
