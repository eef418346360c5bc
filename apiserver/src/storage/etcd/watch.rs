//! One etcd watch as a stream of our events.

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;
use tokio::sync::oneshot;
use tonic::codec::Streaming;

use super::generated::event::EventType;
use super::generated::{self, WatchResponse};
use super::{Revision, StorageError, WatchEvent, classify, convert, unexpected};

/// One etcd watch as a stream of our events.
pub(super) struct EtcdWatch {
    stream: Streaming<WatchResponse>,
    /// Dropped with the watch, which ends the stream's requests (and so the watch).
    _close: oneshot::Sender<()>,
    /// Events of the last response not yet handed out.
    pending: VecDeque<Result<WatchEvent, StorageError>>,
    backend: String,
    from: Revision,
    /// Whether etcd was asked for the previous values.
    with_prev: bool,
    finished: bool,
}

impl EtcdWatch {
    /// The watch whose responses come on `stream`, open until `close` is dropped, asked
    /// for the changes after `from` (with the previous values when `with_prev`).
    pub(super) fn new(
        stream: Streaming<WatchResponse>,
        close: oneshot::Sender<()>,
        backend: String,
        from: Revision,
        with_prev: bool,
    ) -> Self {
        EtcdWatch {
            stream,
            _close: close,
            pending: VecDeque::new(),
            backend,
            from,
            with_prev,
            finished: false,
        }
    }

    /// The events of one response; an error item ends the stream.
    fn events_of(&mut self, response: &WatchResponse) {
        if response.compact_revision != 0 {
            self.pending.push_back(Err(StorageError::Compacted {
                requested: self.from,
                compacted: response.compact_revision,
            }));
            return;
        }
        if response.canceled {
            self.pending.push_back(Err(StorageError::Internal {
                backend: self.backend.clone(),
                message: format!("etcd cancelled the watch: {}", response.cancel_reason),
            }));
            return;
        }
        if response.events.is_empty() {
            // The creation answer says nothing about what is delivered (the history
            // replay follows it); an empty answer after it is a progress notification.
            if !response.created
                && let Some(header) = response.header
            {
                self.pending.push_back(Ok(WatchEvent::Progress {
                    revision: header.revision,
                }));
            }
            return;
        }
        for event in &response.events {
            let item = self.event(event);
            let failed = item.is_err();
            self.pending.push_back(item);
            if failed {
                return;
            }
        }
    }

    fn event(&self, event: &generated::Event) -> Result<WatchEvent, StorageError> {
        let kv = event
            .kv
            .as_ref()
            .ok_or_else(|| unexpected(&self.backend, "a watch event without its key"))?;
        let prev = event
            .prev_kv
            .as_ref()
            .map(|prev| convert(&self.backend, prev))
            .transpose()?;
        let event_type = EventType::try_from(event.r#type)
            .map_err(|_| unexpected(&self.backend, "a watch event of an unknown type"))?;
        match event_type {
            EventType::Put => Ok(WatchEvent::Put {
                kv: convert(&self.backend, kv)?,
                prev,
            }),
            EventType::Delete if prev.is_none() && self.with_prev => Err(unexpected(
                &self.backend,
                "a deletion event without the previous key (compacted away)",
            )),
            EventType::Delete => Ok(WatchEvent::Delete {
                // etcd's deletion event holds the key alone (no value).
                key: convert(&self.backend, kv)?.key,
                prev,
                revision: kv.mod_revision,
            }),
        }
    }
}

impl Stream for EtcdWatch {
    type Item = Result<WatchEvent, StorageError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(item) = this.pending.pop_front() {
                if item.is_err() {
                    this.finished = true;
                    this.pending.clear();
                }
                return Poll::Ready(Some(item));
            }
            if this.finished {
                return Poll::Ready(None);
            }
            match Pin::new(&mut this.stream).poll_next(cx) {
                Poll::Ready(Some(Ok(response))) => this.events_of(&response),
                Poll::Ready(Some(Err(error))) => {
                    this.pending.push_back(Err(classify(&this.backend, &error)));
                }
                Poll::Ready(None) => {
                    // etcd closed the stream: the caller must know its watch is over.
                    this.pending.push_back(Err(StorageError::Unavailable {
                        backend: this.backend.clone(),
                        message: "etcd closed the watch stream".to_owned(),
                    }));
                }
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}
